/*
 * tests/unit/test_config.c - the command-file and load-option parsers
 * (bench/config/config_parse.c, config_values.c).  Expected values come from BYTEMARK.md section 6 (names,
 * meanings, CUSTOMRUN and MINSECONDS rules), the BYTEmark document's sample
 * command file (seed 002), and the ranges documented in bench/config/config.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "platform.h"
#include "check.h"

/* A section of bench/sections.c on in the settings under test. */
#define ON(name) config_section_enabled(&cfg, (name))

/* ---- a diagnostics recorder ------------------------------------------------ */

#define MAX_DIAGS 16
struct diags {
    int n;
    unsigned line[MAX_DIAGS];
    char msg[MAX_DIAGS][256];
};

static void record(void *ctx, unsigned line, const char *msg)
{
    struct diags *d = ctx;
    if (d->n < MAX_DIAGS) {
        d->line[d->n] = line;
        snprintf(d->msg[d->n], sizeof d->msg[0], "%s", msg);
    }
    d->n++;
}

static struct diags diag;
static struct bm_config cfg, ref;

/* Parse `text` (explicit length: it may hold NULs) into cfg from defaults. */
static int parse_n(const char *text, size_t len)
{
    memset(&diag, 0, sizeof diag);
    config_defaults(&cfg);
    return config_parse(&cfg, text, len, record, &diag);
}
static int parse(const char *text) { return parse_n(text, strlen(text)); }

static char optname[64];
static int options(const char *opts)
{
    memset(&diag, 0, sizeof diag);
    config_defaults(&cfg);
    return config_parse_options(&cfg, opts, strlen(opts), optname, sizeof optname, record, &diag);
}

/* Exactly one problem, on `line`, whose message contains `part`. */
static void check_one_problem(int got, unsigned line, const char *part, const char *what)
{
    char name[200], detail[400];
    snprintf(name, sizeof name, "%s: one problem on line %u mentioning '%s'", what, line, part);
    snprintf(detail, sizeof detail, "returned %d, %d diags, first line %u: %s", got, diag.n,
             diag.n ? diag.line[0] : 0, diag.n ? diag.msg[0] : "-");
    check_report_(got == 1 && diag.n == 1 && diag.line[0] == line && strstr(diag.msg[0], part),
                  name, detail);
}

/* cfg equals the defaults but for the field at off (and comparability). */
static int only_changed(size_t off, size_t size)
{
    struct bm_config a = cfg;
    config_defaults(&ref);
    memcpy((char *)&a + off, (char *)&ref + off, size);
    a.not_comparable = 0;
    memset(a.not_comparable_why, 0, sizeof a.not_comparable_why);
    return !memcmp(&a, &ref, sizeof a);
}
#define UNTOUCHED() (!memcmp(&cfg, (config_defaults(&ref), &ref), sizeof cfg))

/* ---- defaults ---------------------------------------------------------------- */

static void test_defaults(void)
{
    config_defaults(&cfg);
    CHECK_EQ_U64(cfg.global_min_ticks, 60, "default GLOBALMINTICKS 60 (BYTEMARK.md s2)");
    CHECK_EQ_U64(cfg.min_seconds[BM_LU], 5, "default MINSECONDS 5 (BYTEMARK.md s2)");
    CHECK(!cfg.min_seconds_set[BM_NUMSORT], "default MINSECONDS not explicitly set");
    CHECK_EQ_U64(cfg.align, 8, "default ALIGN 8");
    CHECK(cfg.enabled[0] && cfg.enabled[9] && !cfg.customrun, "default: all tests on");
    CHECK(!cfg.allstats && !cfg.outfile[0], "default: no ALLSTATS, no OUTFILE");
    CHECK(cfg.num_array_size == 0 && cfg.lu_arrays == 0, "default sizes/counts 0 (= reference)");
    CHECK(cfg.profile == BM_PROFILE_AUTO, "default profile auto");
    CHECK(ON("clock") && ON("methods") && ON("compare") && ON("bytemark"),
          "default: every section");
    CHECK(!ON("verify") && !cfg.qemu_exit && !cfg.shutdown, "default verify/qemuexit/shutdown off");
    CHECK_EQ_U64(cfg.quiet_ms, 200, "default QUIETMS");
    CHECK(cfg.end_wait && cfg.end_wait_seconds == 0, "default: wait for a key at the end, no limit");
    CHECK_EQ_U64(cfg.methods_samples, 1000, "default METHODSAMPLES");
    CHECK_EQ_U64(cfg.methods_iterations, 1, "default METHODITERATIONS");
    CHECK(cfg.inject_fault == BM_FAULT_NONE && !cfg.inject_where[0], "default no fault injection");
    CHECK(!cfg.not_comparable, "defaults are comparable");
}

/* ---- every parameter ------------------------------------------------------------ */

struct u64case { const char *line; size_t off; int is32; uint64_t want; };

static void test_numbers(void)
{
#define U(line, f, want) { line, offsetof(struct bm_config, f), sizeof(((struct bm_config *)0)->f) == 4, want }
    static const struct u64case cases[] = {
        U("GLOBALMINTICKS=100", global_min_ticks, 100),
        U("NUMNUMARRAYS=3", num_arrays, 3),
        U("NUMARRAYSIZE=8001", num_array_size, 8001),
        U("NUMSTRARRAYS=4", str_arrays, 4),
        U("STRARRAYSIZE=9000", str_array_size, 9000),
        U("NUMBITOPS=130", bit_ops, 130),
        U("BITFIELDSIZE=32768", bitfield_size, 32768),
        U("EMFARRAYSIZE=6000", emf_array_size, 6000),
        U("EMFLOOPS=7", emf_loops, 7),
        U("FOURSIZE=150", four_size, 150),
        U("FOURASIZE=200", four_size, 200),
        U("ASSIGNARRAYS=2", assign_arrays, 2),
        U("IDEARRAYSIZE=8000", idea_array_size, 8000),
        U("IDEAARRAYSIZE=4008", idea_array_size, 4008),
        U("IDEALOOPS=110", idea_loops, 110),
        U("HUFARRAYSIZE=6000", huff_array_size, 6000),
        U("HUFFARRAYSIZE=7000", huff_array_size, 7000),
        U("HUFFLOOPS=120", huff_loops, 120),
        U("NNETLOOPS=2", nnet_loops, 2),
        U("LUNUMARRAYS=5", lu_arrays, 5),
        U("ALIGN=16", align, 16),
        U("ALIGN=0", align, 0),
        U("QUIETMS=1000", quiet_ms, 1000),
        U("METHODSAMPLES=5000", methods_samples, 5000),
        U("METHODITERATIONS=10", methods_iterations, 10),
        U("bm_quietms=300", quiet_ms, 300),
    };
#undef U
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[128];
        uint64_t got;
        int rc = parse(cases[i].line);
        if (cases[i].is32) {
            uint32_t v;
            memcpy(&v, (char *)&cfg + cases[i].off, 4);
            got = v;
        } else {
            memcpy(&got, (char *)&cfg + cases[i].off, 8);
        }
        snprintf(what, sizeof what, "%s: value", cases[i].line);
        CHECK_EQ_U64(got, cases[i].want, what);
        snprintf(what, sizeof what, "%s: no problem, nothing else changed", cases[i].line);
        check_report_(rc == 0 && diag.n == 0 && only_changed(cases[i].off, cases[i].is32 ? 4 : 8),
                      what, diag.n ? diag.msg[0] : "another field changed");
    }
}

static void test_lowercase_and_spaces(void)
{
    CHECK(parse("numarraysize=1000\n") == 0 && cfg.num_array_size == 1000, "lower-case name");
    CHECK(parse("NumArraySize=1001\n") == 0 && cfg.num_array_size == 1001, "mixed-case name");
    CHECK(parse("  NUMARRAYSIZE \t=  1002 \t\n") == 0 && cfg.num_array_size == 1002,
          "blanks around name and value");
    CHECK(parse("idearraysize=16\nfourasize=101\nhuffarraysize=512\n") == 0 &&
          cfg.idea_array_size == 16 && cfg.four_size == 101 && cfg.huff_array_size == 512,
          "document spellings, lower case");
}

static void test_flags(void)
{
    static const char *const yes[] = { "T", "t", "TRUE", "true", "Tuesday", "Y", "yes", "1", "on", "ON" };
    static const char *const no[] = { "F", "f", "FALSE", "N", "no", "0", "off", "Off" };
    static const char *const bad[] = { "maybe", "2", "x", "-1", "o" };
    char line[64], what[96];
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        snprintf(line, sizeof line, "ALLSTATS=%s", yes[i]);
        snprintf(what, sizeof what, "flag '%s' is true", yes[i]);
        CHECK(parse(line) == 0 && cfg.allstats == 1, what);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        snprintf(line, sizeof line, "VERIFY=T\nVERIFY=%s", no[i]);
        snprintf(what, sizeof what, "flag '%s' is false", no[i]);
        CHECK(parse(line) == 0 && !ON("verify"), what);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line, "\nQEMUEXIT=%s\n", bad[i]);
        snprintf(what, sizeof what, "flag '%s' rejected", bad[i]);
        check_one_problem(parse(line), 2, "QEMUEXIT", what);
        CHECK(UNTOUCHED(), "bad flag leaves settings untouched");
    }
    CHECK(parse("ALLSTATS=T\nVERIFY=T\nQEMUEXIT=T\nSHUTDOWN=T\n") == 0 && cfg.allstats &&
          ON("verify") && cfg.qemu_exit && cfg.shutdown, "ALLSTATS VERIFY QEMUEXIT SHUTDOWN");
    CHECK(parse("ENDWAIT=F\nENDWAITSECONDS=86400\n") == 0 && !cfg.end_wait && cfg.end_wait_seconds == 86400,
          "ENDWAIT=F, ENDWAITSECONDS up to a day");
}

static void test_tests(void)
{
    static const char *const names[BM_NTESTS] = {
        "DONUMSORT", "DOSTRINGSORT", "DOBITFIELD", "DOEMF", "DOFOUR",
        "DOASSIGN", "DOIDEA", "DOHUFF", "DONNET", "DOLU" };
    static const char *const mins[BM_NTESTS] = {
        "NUMMINSECONDS", "STRMINSECONDS", "BITMINSECONDS", "EMFMINSECONDS", "FOURMINSECONDS",
        "ASSIGNMINSECONDS", "IDEAMINSECONDS", "HUFFMINSECONDS", "NNETMINSECONDS", "LUMINSECONDS" };
    char text[64], what[96];
    for (int t = 0; t < BM_NTESTS; t++) {
        snprintf(text, sizeof text, "%s=F\n%s=%d\n", names[t], mins[t], 10 + t);
        snprintf(what, sizeof what, "%s=F and %s only touch test %d", names[t], mins[t], t);
        int ok = parse(text) == 0;
        for (int u = 0; u < BM_NTESTS; u++)
            ok &= cfg.enabled[u] == (u != t) && cfg.min_seconds_set[u] == (u == t) &&
                  cfg.min_seconds[u] == (u == t ? (uint32_t)(10 + t) : 5);
        CHECK(ok, what);
    }
}

static void test_customrun(void)
{
    /* BYTEMARK.md s6: CUSTOMRUN=T switches every test off, so DOxxx=T must follow it. */
    parse("DONUMSORT=T\nCUSTOMRUN=T\nDOLU=T\n");
    CHECK(cfg.customrun && !cfg.enabled[BM_NUMSORT] && cfg.enabled[BM_LU] &&
          !cfg.enabled[BM_IDEA], "CUSTOMRUN=T clears an earlier DONUMSORT=T, keeps a later DOLU=T");
    parse("DOLU=F\nCUSTOMRUN=F\n");
    CHECK(!cfg.customrun && cfg.enabled[BM_LU] && cfg.enabled[BM_NUMSORT],
          "CUSTOMRUN=F switches every test on");
    /* the document's sample command file: its OUTFILE names drive D:, which
     * the stick's image refuses (issue 15.5: the copy stays in \baremark\),
     * the rest is taken */
    int rc = parse("ALLSTATS=T\nCUSTOMRUN=T\nOUTFILE=D:\\DATA.DAT\nDONUMSORT=T\nDOLU=T\n");
    CHECK(rc == 1 && diag.n == 1 && diag.line[0] == 3 && strstr(diag.msg[0], "drive") && !cfg.outfile[0] &&
          cfg.allstats && cfg.customrun &&
          cfg.enabled[BM_NUMSORT] && cfg.enabled[BM_LU] && !cfg.enabled[BM_STRSORT] &&
          !cfg.enabled[BM_NNET], "BYTEmark document's sample command file (its OUTFILE on drive D: refused)");
    CHECK(!cfg.not_comparable, "a CUSTOMRUN subset stays comparable");
}

static void test_minseconds(void)
{
    parse("NUMMINSECONDS=10\nLUMINSECONDS=9\nMINSECONDS=3\nLUMINSECONDS=7\n");
    CHECK(cfg.min_seconds[BM_NUMSORT] == 3, "MINSECONDS overrides an earlier NUMMINSECONDS");
    CHECK(cfg.min_seconds[BM_LU] == 7, "a later LUMINSECONDS overrides MINSECONDS");
    CHECK(cfg.min_seconds[BM_IDEA] == 3 && cfg.min_seconds_set[BM_IDEA], "MINSECONDS sets all");
    CHECK(parse("MINSECONDS=0") == 0 && cfg.min_seconds[BM_FOURIER] == 0, "MINSECONDS=0 allowed");
    CHECK(!cfg.not_comparable, "MINSECONDS keeps comparability");
}

static void test_strings_and_enums(void)
{
    CHECK(parse("PROFILE=quick") == 0 && cfg.profile == BM_PROFILE_QUICK, "PROFILE=quick");
    CHECK(parse("profile=FULL") == 0 && cfg.profile == BM_PROFILE_FULL, "PROFILE=FULL");
    CHECK(parse("PROFILE=full\nPROFILE=auto") == 0 && cfg.profile == BM_PROFILE_AUTO, "PROFILE=auto");
    check_one_problem(parse("PROFILE=fast"), 1, "PROFILE", "PROFILE=fast");
    CHECK(cfg.profile == BM_PROFILE_AUTO, "bad PROFILE untouched");
    CHECK(parse("SECTIONS=clock, bytemark") == 0 && ON("clock") && !ON("methods") &&
          !ON("compare") && ON("bytemark"), "SECTIONS=clock, bytemark");
    CHECK(parse("SECTIONS=none") == 0 && !ON("clock") && !ON("bytemark"), "SECTIONS=none");
    CHECK(parse("SECTIONS=none\nSECTIONS=ALL") == 0 && ON("clock") && ON("methods") &&
          ON("compare") && ON("bytemark") && !ON("verify"), "SECTIONS=ALL (not VERIFY)");
    CHECK(parse("SECTIONS=methods,comparisons") == 0 && !ON("clock") && ON("methods") &&
          ON("comparisons") && !ON("bytemark"), "SECTIONS=methods,comparisons");
    CHECK(parse("VERIFY=T\nSECTIONS=none") == 0 && ON("verify") && !ON("clock"),
          "SECTIONS=none keeps VERIFY=T (a setting of its own)");
    CHECK(!ON("disk") && !ON(""), "config_section_enabled: a name not in the table is off");
    check_one_problem(parse("SECTIONS=verify"), 1, "verify", "SECTIONS=verify: VERIFY is its own setting");
    check_one_problem(parse("SECTIONS=clock,disk"), 1, "disk", "SECTIONS with an unknown item");
    CHECK(ON("clock") && !ON("methods") && !ON("compare") && !ON("bytemark") && !ON("memory"),
          "SECTIONS=clock,disk: the unknown name skipped, the clock alone runs (not all sections)");
    check_one_problem(parse("SECTIONS=floppy"), 1, "floppy", "SECTIONS with no known name");
    CHECK(UNTOUCHED(), "SECTIONS with no known name leaves the sections as they were");
    check_one_problem(parse("SECTIONS=clock,,bytemark"), 1, "SECTIONS", "SECTIONS with an empty item");
    CHECK(ON("clock") && ON("bytemark") && !ON("methods"), "SECTIONS=clock,,bytemark: the empty item skipped");
    CHECK(parse("INJECTFAULT=divide\nINJECTIN=NumSort") == 0 && cfg.inject_fault == BM_FAULT_DIVIDE &&
          !strcmp(cfg.inject_where, "numsort"), "INJECTFAULT=divide INJECTIN=numsort (lower-cased)");
    CHECK(parse("INJECTFAULT=opcode") == 0 && cfg.inject_fault == BM_FAULT_OPCODE, "INJECTFAULT=opcode");
    CHECK(parse("INJECTFAULT=PAGE") == 0 && cfg.inject_fault == BM_FAULT_PAGE, "INJECTFAULT=PAGE");
    CHECK(parse("INJECTFAULT=page\nINJECTFAULT=none") == 0 && cfg.inject_fault == BM_FAULT_NONE,
          "INJECTFAULT=none");
    CHECK(parse("INJECTIN=method:rdtscp") == 0 && !strcmp(cfg.inject_where, "method:rdtscp"),
          "INJECTIN=method:rdtscp");
    check_one_problem(parse("INJECTFAULT=gp"), 1, "INJECTFAULT", "INJECTFAULT=gp");
    CHECK(parse("") == 0 && cfg.compare_order == BM_ORDER_RANDOM, "COMPAREORDER: random unless set");
    CHECK(parse("COMPAREORDER=ABAB") == 0 && cfg.compare_order == BM_ORDER_ABAB, "COMPAREORDER=ABAB (any case)");
    CHECK(parse("COMPAREORDER=abab\nCOMPAREORDER=random") == 0 && !cfg.compare_order, "COMPAREORDER=random");
    check_one_problem(parse("COMPAREORDER=baba"), 1, "COMPAREORDER", "COMPAREORDER=baba: one problem naming it");
    CHECK(!strcmp(config_order_name(BM_ORDER_ABAB), "abab") && !strcmp(config_order_name(7), "?"), "order names");
    check_one_problem(parse("INJECTIN=num sort"), 1, "INJECTIN", "INJECTIN with a space");
    check_one_problem(parse("INJECTIN=abcdefghijklmnopqrstuvwxyz0123456"), 1, "longer",
                      "INJECTIN of 32 characters");
    CHECK(parse("INJECTIN=abcdefghijklmnopqrstuvwxyz01234") == 0 && strlen(cfg.inject_where) == 31,
          "INJECTIN of 31 characters");
    check_one_problem(parse("OUTFILE=a*b"), 1, "OUTFILE", "OUTFILE with '*'");
    check_one_problem(parse("OUTFILE=\"x.log\""), 1, "OUTFILE", "OUTFILE in quotes");
    CHECK(parse("OUTFILE=run results.log") == 0 && !strcmp(cfg.outfile, "run results.log"),
          "OUTFILE with a space inside");
    CHECK(parse("OUTFILE=a=b") == 0 && !strcmp(cfg.outfile, "a=b"), "value split at the first '='");
    /* OUTFILE stays a file name in \baremark\ (issue 15.5) */
    CHECK(parse("OUTFILE=NBENCH.LOG") == 0 && !strcmp(cfg.outfile, "NBENCH.LOG"), "OUTFILE=NBENCH.LOG taken");
    check_one_problem(parse("OUTFILE=..\\x.log"), 1, "'..' is not allowed", "OUTFILE=..\\x.log");
    CHECK(!cfg.outfile[0], "OUTFILE=..\\x.log leaves no OUTFILE");
    check_one_problem(parse("OUTFILE=x..log"), 1, "'..'", "OUTFILE with .. inside");
    check_one_problem(parse("OUTFILE=C:NBENCH.LOG"), 1, "drive", "OUTFILE on a drive");
    check_one_problem(parse("OUTFILE=\\EFI\\BOOT\\BOOTX64.EFI"), 1, "path", "OUTFILE as a path from the root");
    check_one_problem(parse("OUTFILE=sub/x.log"), 1, "path", "OUTFILE with a slash");
    check_one_problem(parse("OUTFILE=20260101-120000.json"), 1, "runs' own files", "OUTFILE named as a run's file");
    check_one_problem(parse("OUTFILE=Plugins"), 1, "plug-ins", "OUTFILE named as the plug-ins' folder");
    check_one_problem(parse("OUTFILE=x.log."), 1, "dot", "OUTFILE ending in a dot (FAT would drop it)");
    CHECK(parse("OUTFILE=NBENCH.LOG\nOUTFILE=..\\y") == 1 && !cfg.outfile[0],
          "a refused OUTFILE after a good one leaves none (no copy where the user did not mean)");
}

/* ---- line structure --------------------------------------------------------------- */

static void test_plugin_settings(void)
{
    CHECK(parse("") == 0 && cfg.plugin_probe_seconds == 10 && !cfg.plugin_routines[0] && !cfg.compare[0],
          "plug-in settings: PLUGINPROBESECONDS 10, every routine, no COMPARE");
    CHECK(parse("PLUGINROUTINES=my:memcpy_rep, chain") == 0 && !strcmp(cfg.plugin_routines, "my:memcpy_rep, chain"),
          "PLUGINROUTINES=my:memcpy_rep, chain");
    CHECK(parse("PLUGINROUTINES=my:*") == 0 && !strcmp(cfg.plugin_routines, "my:*"), "PLUGINROUTINES=my:*");
    check_one_problem(parse("PLUGINROUTINES=my/x"), 1, "PLUGINROUTINES", "PLUGINROUTINES with a '/'");
    CHECK(parse("PLUGINPROBESECONDS=1") == 0 && cfg.plugin_probe_seconds == 1, "PLUGINPROBESECONDS=1");
    check_one_problem(parse("PLUGINPROBESECONDS=0"), 1, "PLUGINPROBESECONDS", "PLUGINPROBESECONDS=0 out of range");
    CHECK(parse("COMPARE=my:memcpy_rep,my:memcpy_sse") == 0 && !strcmp(cfg.compare, "my:memcpy_rep,my:memcpy_sse"),
          "COMPARE=A,B");
    CHECK(parse("COMPARE=a:x,a:y\nCOMPARE=b:x,b:y; foo,add10") == 0 && !strcmp(cfg.compare, "a:x,a:y;b:x,b:y;foo,add10"),
          "COMPARE on two lines and ';'-separated pairs add up in order");
    check_one_problem(parse("COMPARE=a:x"), 1, "COMPARE", "COMPARE with one name");
    CHECK(UNTOUCHED(), "bad COMPARE untouched");
    check_one_problem(parse("COMPARE=a:x,b:y,c:z"), 1, "COMPARE", "COMPARE with three names");
    check_one_problem(parse("COMPARE=a:x,b:y;c:z"), 1, "COMPARE", "COMPARE with a second pair of one name");
    CHECK(UNTOUCHED(), "a half-bad COMPARE line adds nothing");
    check_one_problem(parse("COMPARE=a x,b:y"), 1, "COMPARE", "COMPARE with a blank inside a name");
    check_one_problem(parse("COMPARE=,b"), 1, "COMPARE", "COMPARE with an empty name");
    char big[4096] = "";
    for (int i = 0; i < 12; i++)
        strcat(big, "COMPARE=plugin_name:routine_a,plugin_name:routine_b;plugin_name:routine_c,plugin_name:routine_d\n");
    int problems = parse(big);
    CHECK_EQ_I64(problems, 1, "COMPARE: the line that no longer fits is reported");
    CHECK_EQ_U64(strlen(cfg.compare), 11 * 87 + 10, "COMPARE: the eleven lines (87 characters each) that fit are kept");
}

static void test_line_endings(void)
{
    const char crlf[] = "NUMARRAYSIZE=1000\r\nDOLU=F\r\nBOGUS=1\r\nALLSTATS=T\r\n";
    check_one_problem(parse(crlf), 3, "BOGUS", "CRLF file, unknown key on line 3");
    CHECK(cfg.num_array_size == 1000 && !cfg.enabled[BM_LU] && cfg.allstats, "CRLF values applied");
    const char cr[] = "NUMARRAYSIZE=1000\rDOLU=F\rX\r";
    check_one_problem(parse(cr), 3, "'='", "CR-only file: line 3 has no '='");
    CHECK(cfg.num_array_size == 1000 && !cfg.enabled[BM_LU], "CR-only values applied");
    const char mixed[] = "\n\r\n\rFOO=1\n";
    check_one_problem(parse(mixed), 4, "FOO", "LF, CRLF, CR count one line each");
    /* the reference chops the last character of every line: we do not */
    CHECK(parse("NUMARRAYSIZE=1234") == 0 && cfg.num_array_size == 1234,
          "last line without newline keeps its last character");
    CHECK(parse("") == 0 && UNTOUCHED(), "empty file");
    CHECK(parse("\n\n   \n\t\n") == 0 && UNTOUCHED(), "blank lines");
    CHECK(parse("# comment = 1\n; DOLU=F\n   # indented\n") == 0 && UNTOUCHED(), "# and ; comments");
    CHECK(parse("# caf\xC3\xA9\n") == 0, "UTF-8 in a comment is fine");
    /* a long BYTEmark line is not split at 38 characters */
    CHECK(parse("OUTFILE=A_VERY_LONG_NAME_THAT_GOES_ON_AND_ON.LOG\n") == 0 &&
          !strcmp(cfg.outfile, "A_VERY_LONG_NAME_THAT_GOES_ON_AND_ON.LOG"), "lines are not split at 38");
}

static void test_bom(void)
{
    check_one_problem(parse("\xEF\xBB\xBFNUMARRAYSIZE=999\nNOPE\n"), 2, "'='", "BOM then 2 lines");
    CHECK(cfg.num_array_size == 999, "setting on the BOM's line applied");
    CHECK(parse("\xEF\xBB\xBF") == 0, "a file that is only a BOM");
    check_one_problem(parse("DOLU=F\n\xEF\xBB\xBF" "DOLU=T\n"), 2, "non-ASCII", "a BOM not at the start");
    CHECK(!cfg.enabled[BM_LU], "line with a stray BOM skipped");
}

static void test_garbage(void)
{
    const char nul[] = "NUMARRAYSIZE=1000\nDOLU=\0F\nALLSTATS=T\n";
    check_one_problem(parse_n(nul, sizeof nul - 1), 2, "0x00", "NUL on line 2");
    CHECK(cfg.num_array_size == 1000 && cfg.enabled[BM_LU] && cfg.allstats,
          "NUL line skipped, neighbours applied");
    check_one_problem(parse("DOLU=F\x1b[0m\n"), 1, "0x1B", "escape byte");
    check_one_problem(parse("\x7f\x01\x02\n"), 1, "binary", "DEL and control bytes");
    check_one_problem(parse("NUMARRAYSIZE=10\xff" "00\n"), 1, "non-ASCII", "byte 0xFF in a value");
    CHECK(cfg.num_array_size == 0, "garbage value untouched");
    CHECK(parse("DOLU=F\t\n") == 0 && !cfg.enabled[BM_LU], "a tab is not garbage");
    /* 4 KB of pseudo-random bytes: no crash, settings from nowhere are unlikely,
     * and every problem carries a line number */
    char junk[4096];
    uint32_t s = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        s = s * 1103515245u + 12345u;
        junk[i] = (char)(s >> 24);
    }
    int rc = parse_n(junk, sizeof junk);
    int lines_ok = 1;
    for (int i = 0; i < diag.n && i < MAX_DIAGS; i++)
        lines_ok &= diag.line[i] >= 1;
    CHECK(rc > 0 && rc == diag.n && lines_ok, "random bytes: problems reported with line numbers");
}

static void test_overlong(void)
{
    char text[1024];
    /* exactly CONFIG_LINE_MAX characters: accepted */
    int k = snprintf(text, sizeof text, "NUMARRAYSIZE=%*d", CONFIG_LINE_MAX - 13, 4321);
    CHECK(k == CONFIG_LINE_MAX, "test line is exactly the limit");
    CHECK(parse(text) == 0 && cfg.num_array_size == 4321, "a line of exactly 255 characters is read");
    /* one more: reported, skipped */
    snprintf(text, sizeof text, "DOLU=F\nNUMARRAYSIZE=%*d\nALLSTATS=T\n", CONFIG_LINE_MAX - 12, 4321);
    check_one_problem(parse(text), 2, "256 characters", "a 256-character line");
    CHECK(cfg.num_array_size == 0 && !cfg.enabled[BM_LU] && cfg.allstats,
          "overlong line skipped whole, neighbours applied");
    memset(text, '#', 900);
    text[900] = 0;
    check_one_problem(parse(text), 1, "900", "an overlong comment is reported too");
}

static void test_bad_numbers(void)
{
    static const struct { const char *line, *part; } bad[] = {
        { "NUMARRAYSIZE=-5", "negative" },
        { "MINSECONDS=-1", "negative" },
        { "GLOBALMINTICKS=-0", "negative" },
        { "NUMARRAYSIZE=12x", "not a whole" },
        { "NUMARRAYSIZE=0x10", "not a whole" },
        { "NUMARRAYSIZE=1e3", "not a whole" },
        { "NUMARRAYSIZE=+5", "not a whole" },
        { "NUMARRAYSIZE=5 0", "not a whole" },
        { "NUMARRAYSIZE=5 # five", "not a whole" },
        { "NUMARRAYSIZE=1", "out of range" },
        { "NUMARRAYSIZE=1000001", "out of range" },
        { "NUMARRAYSIZE=99999999999999999999999999", "out of range" },
        { "NUMARRAYSIZE=18446744073709551616", "out of range" },
        { "BITFIELDSIZE=4095", "out of range" },
        { "IDEARRAYSIZE=4001", "multiple of" },
        { "IDEAARRAYSIZE=0", "out of range" },
        { "HUFARRAYSIZE=499", "out of range" },
        { "NUMNUMARRAYS=0", "out of range" },
        { "ENDWAITSECONDS=86401", "out of range" },
        { "NUMNUMARRAYS=10001", "out of range" },
        { "LUNUMARRAYS=10001", "out of range" },
        { "NNETLOOPS=500001", "out of range" },
        { "FOURSIZE=0", "out of range" },
        { "MINSECONDS=3601", "out of range" },
        { "NUMMINSECONDS=4000", "out of range" },
        { "GLOBALMINTICKS=10000001", "out of range" },
        { "ALIGN=4097", "out of range" },
        { "QUIETMS=0", "out of range" },
        { "METHODSAMPLES=9", "out of range" },
        { "METHODITERATIONS=0", "out of range" },
        { "ALIGN=", "no value" },
        { "=5", "no name" },
        { "NUMARRAYSIZE", "'='" },
        { "NUMARRAYSIZE 5000", "'='" },
        { "NUMARRAYSIZES=5000", "unknown" },
        { "FOO=BAR", "unknown" },
        { "DOSTRSORT=T", "unknown" },
        { "BM_NUMARRAYSIZE=5000", "unknown" },   /* BM_ only for baremark's own */
    };
    char text[128], what[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "# first\n\n%s\n", bad[i].line);
        snprintf(what, sizeof what, "'%s'", bad[i].line);
        check_one_problem(parse(text), 3, bad[i].part, what);
        snprintf(what, sizeof what, "'%s' leaves the settings untouched", bad[i].line);
        CHECK(UNTOUCHED(), what);
    }
    CHECK(parse("NUMARRAYSIZE=0001000") == 0 && cfg.num_array_size == 1000, "leading zeros are fine");
    /* the limits themselves are accepted */
    CHECK(parse("NUMARRAYSIZE=2\nBITFIELDSIZE=4096\nIDEARRAYSIZE=8\nLUNUMARRAYS=10000\n"
                "NNETLOOPS=500000\nMINSECONDS=3600\nGLOBALMINTICKS=0\nALIGN=4096\n") == 0,
          "values at the edges of their ranges are accepted");
    /* several problems in one file: each on its own line */
    int rc = parse("A=1\nNUMARRAYSIZE=-1\nok\nDOLU=T\nLUNUMARRAYS=x\n");
    CHECK(rc == 4 && diag.n == 4 && diag.line[0] == 1 && diag.line[1] == 2 && diag.line[2] == 3 &&
          diag.line[3] == 5, "four problems on lines 1, 2, 3, 5");
}

/* ---- comparability ----------------------------------------------------------------- */

static void test_comparable(void)
{
    static const struct { const char *text; int nc; } cases[] = {
        { "NUMARRAYSIZE=8111", 0 }, { "NUMARRAYSIZE=8001", 1 },
        { "STRARRAYSIZE=8111", 0 }, { "STRARRAYSIZE=9000", 1 },
        { "BITFIELDSIZE=16384", 0 }, { "BITFIELDSIZE=32768", 1 },
        { "EMFARRAYSIZE=3000", 0 }, { "EMFARRAYSIZE=2000", 1 },
        { "IDEAARRAYSIZE=4000", 0 }, { "IDEARRAYSIZE=4008", 1 },
        { "HUFFARRAYSIZE=5000", 0 }, { "HUFARRAYSIZE=5001", 1 },
        { "NUMNUMARRAYS=1", 1 }, { "NUMSTRARRAYS=1", 1 }, { "NUMBITOPS=30", 1 },
        { "FOURSIZE=100", 1 }, { "FOURASIZE=100", 1 }, { "HUFFLOOPS=100", 1 },
        { "NNETLOOPS=1", 1 }, { "LUNUMARRAYS=1", 1 },
        { "EMFLOOPS=5", 0 }, { "ASSIGNARRAYS=5", 0 }, { "IDEALOOPS=500", 0 },
        { "GLOBALMINTICKS=60", 0 }, { "GLOBALMINTICKS=61", 1 },
        { "ALIGN=8", 0 }, { "ALIGN=16", 1 }, { "ALIGN=0", 1 },
        { "MINSECONDS=1", 0 }, { "CUSTOMRUN=T\nDOLU=T", 0 }, { "PROFILE=quick", 0 },
        { "NUMARRAYSIZE=100\nNUMARRAYSIZE=8111", 0 },
    };
    char what[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = parse(cases[i].text);
        snprintf(what, sizeof what, "'%s' -> %s", cases[i].text,
                 cases[i].nc ? "not comparable" : "comparable");
        for (char *nl = strchr(what, '\n'); nl; nl = strchr(nl, '\n'))
            *nl = ' ';
        CHECK(rc == 0 && cfg.not_comparable == cases[i].nc &&
              (cfg.not_comparable_why[0] != 0) == cases[i].nc, what);
    }
    parse("NUMARRAYSIZE=1000\nALIGN=16");
    CHECK_STR(cfg.not_comparable_why, "NUMARRAYSIZE=1000, ALIGN=16", "why names parameters and values");
    parse("IDEAARRAYSIZE=16");
    CHECK_STR(cfg.not_comparable_why, "IDEARRAYSIZE=16", "why uses the reference's spelling");
    parse("GLOBALMINTICKS=100\nNUMNUMARRAYS=10000\nNUMARRAYSIZE=1000000\nNUMSTRARRAYS=10000\n"
          "STRARRAYSIZE=1000000\nNUMBITOPS=1000000\nBITFIELDSIZE=8388608\nEMFARRAYSIZE=1000000\n"
          "FOURSIZE=100000\nIDEARRAYSIZE=1000000\nHUFARRAYSIZE=1000000\nHUFFLOOPS=500000\n"
          "NNETLOOPS=500000\nLUNUMARRAYS=10000\nALIGN=4096\n");
    size_t n = strlen(cfg.not_comparable_why);
    CHECK(cfg.not_comparable && n < sizeof cfg.not_comparable_why &&
          !strcmp(cfg.not_comparable_why + n - 5, ", ..."), "a long why is cut with ', ...'");
}

/* ---- load options ------------------------------------------------------------------- */

static void test_options(void)
{
    int rc = options("\\EFI\\BOOT\\BOOTX64.EFI -c TEST.CFG profile=quick qemuexit=t");
    CHECK(rc == 0 && diag.n == 0, "issue's example: no problem");
    CHECK_STR(optname, "TEST.CFG", "-c NAME");
    CHECK(cfg.profile == BM_PROFILE_QUICK && cfg.qemu_exit, "profile=quick qemuexit=t");
    CHECK(options("bootx64.efi -cOTHER.CFG") == 0 && !strcmp(optname, "OTHER.CFG"),
          "-cNAME and a lower-case image name");
    CHECK(options("") == 0 && optname[0] == 0 && UNTOUCHED(), "empty options");
    CHECK(options("  \t ") == 0 && UNTOUCHED(), "blank options");
    CHECK(options("profile=full") == 0 && cfg.profile == BM_PROFILE_FULL, "no image path");
    CHECK(options("X.EFI numarraysize=1000 CUSTOMRUN=T DOLU=T") == 0 && cfg.num_array_size == 1000 &&
          cfg.customrun && cfg.enabled[BM_LU] && !cfg.enabled[BM_IDEA] && cfg.not_comparable,
          "BYTEmark settings in the options, in order");
    rc = options("X.EFI bogus profile=quick");
    CHECK(rc == 1 && diag.n == 1 && diag.line[0] == 0 && strstr(diag.msg[0], "word 2") &&
          strstr(diag.msg[0], "bogus") && cfg.profile == BM_PROFILE_QUICK,
          "an unknown word: reported as word 2 (line 0), the rest applied");
    rc = options("X.EFI numarraysize=abc");
    CHECK(rc == 1 && strstr(diag.msg[0], "word 2") && cfg.num_array_size == 0,
          "a bad value in the options: reported, untouched");
    rc = options("X.EFI -c");
    CHECK(rc == 1 && strstr(diag.msg[0], "-c without") && optname[0] == 0, "-c at the end");
    rc = options("-c 0123456789012345678901234567890123456789012345678901234567890123456789");
    CHECK(rc == 1 && optname[0] == 0, "-c NAME too long for the buffer");
    rc = options("-c A*B.CFG");
    CHECK(rc == 1 && optname[0] == 0, "-c NAME with '*'");
    CHECK(options("-c \"MY FILE.CFG\" outfile=\"a b.log\"") == 0 && !strcmp(optname, "MY FILE.CFG") &&
          !strcmp(cfg.outfile, "a b.log"), "double quotes group words");
    const char nul[] = "X.EFI\0profile=quick\0\0qemuexit=t";
    memset(&diag, 0, sizeof diag);
    config_defaults(&cfg);
    rc = config_parse_options(&cfg, nul, sizeof nul - 1, optname, sizeof optname, record, &diag);
    CHECK(rc == 0 && cfg.profile == BM_PROFILE_QUICK && cfg.qemu_exit, "NUL bytes separate words");
    rc = options("X.EFI x.efi");
    CHECK(rc == 1, "only the first word may be the image path");
    rc = options("X.EFI \"profile=quick\xff\"");
    CHECK(rc == 1 && cfg.profile == BM_PROFILE_AUTO, "non-ASCII word reported");
    char longw[400];
    memset(longw, 'a', sizeof longw - 1);
    longw[sizeof longw - 1] = 0;
    memcpy(longw, "OUTFILE=", 8);
    rc = options(longw);
    CHECK(rc == 1 && strstr(diag.msg[0], "399") && !cfg.outfile[0], "overlong option word");
    /* settings.c's first pass: no diagnostics callback, no name buffer */
    config_defaults(&cfg);
    CHECK(config_parse_options(&cfg, "bogus -c", 8, NULL, 0, NULL, NULL) == 2,
          "NULL callback and name buffer are fine");
}

/* ---- the default file, round trips, JSON ------------------------------------------- */

static char *read_default_file(size_t *size)
{
    char path[512];
    const char *top = getenv("TOP");
    void *t;
    if (!plat_read_file("tools/baremark.cfg", &t, size) || !top)
        return t;
    snprintf(path, sizeof path, "%s/tools/baremark.cfg", top);
    return plat_read_file(path, &t, size) ? NULL : t;
}

static void test_default_file(void)
{
    size_t size = 0;
    char *text = read_default_file(&size);
    CHECK(text != NULL, "tools/baremark.cfg readable");
    if (!text)
        return;
    int rc = parse_n(text, size);
    CHECK(rc == 0 && diag.n == 0, "tools/baremark.cfg parses with zero problems");
    CHECK(UNTOUCHED(), "tools/baremark.cfg leaves every default as it is");
    /* every commented-out setting in it is valid when uncommented */
    char *un = plat_alloc(size + 1);
    size_t k = 0;
    for (size_t i = 0; i < size; i++)
        if (!(text[i] == '#' && (i == 0 || text[i - 1] == '\n') && i + 1 < size &&
              text[i + 1] >= 'A' && text[i + 1] <= 'Z'))
            un[k++] = text[i];
    rc = parse_n(un, k);
    CHECK(rc == 0 && diag.n == 0, "tools/baremark.cfg with every #SETTING uncommented: zero problems");
    plat_free(un);
    plat_free(text);
}

static void check_round_trip(const char *text, const char *what)
{
    struct bm_config a, b;
    struct diags d2 = { 0 };
    char buf[8192];
    config_defaults(&a);
    config_parse(&a, text, strlen(text), NULL, NULL);
    size_t n = config_format(&a, buf, sizeof buf);
    config_defaults(&b);
    int rc = config_parse(&b, buf, n, record, &d2);
    char name[160];
    snprintf(name, sizeof name, "round trip: %s", what);
    check_report_(n < sizeof buf && rc == 0 && !memcmp(&a, &b, sizeof a), name,
                  d2.n ? d2.msg[0] : "settings differ");
}

static void test_round_trip(void)
{
    check_round_trip("", "defaults");
    check_round_trip("CUSTOMRUN=T\nDOLU=T\nDOIDEA=T\nMINSECONDS=2\nNUMMINSECONDS=9\n", "custom run");
    check_round_trip("NUMARRAYSIZE=1000\nFOURASIZE=10\nEMFLOOPS=4\nALIGN=0\nOUTFILE=X.DAT\n"
                     "PROFILE=full\nSECTIONS=methods\nINJECTFAULT=page\nINJECTIN=lu\nQUIETMS=5\n"
                     "METHODSAMPLES=77\nMETHODITERATIONS=3\nVERIFY=T\nSHUTDOWN=T\nQEMUEXIT=T\n"
                     "GLOBALMINTICKS=0\nALLSTATS=T\n", "many settings");
    check_round_trip("SECTIONS=none", "no section");
    check_round_trip("PLUGINROUTINES=my:a,chain\nPLUGINPROBESECONDS=3\nCOMPARE=my:a,my:b;chain:add100,foo\n"
                     "COMPARE=x:y,x:z\n", "plug-in settings");
    char small[16];
    config_defaults(&cfg);
    size_t need = config_format(&cfg, NULL, 0);
    size_t got = config_format(&cfg, small, sizeof small);
    CHECK(need > 500 && got == need && strlen(small) == sizeof small - 1,
          "config_format: snprintf semantics on a short buffer");
}

static void check_json_has(const char *doc, const char *part, const char *what)
{
    char detail[128];
    snprintf(detail, sizeof detail, "'%s' not in the JSON", part);
    check_report_(doc && strstr(doc, part) != NULL, what, detail);
}

static void test_json(void)
{
    struct json_writer w;
    parse("NUMARRAYSIZE=1000\nCUSTOMRUN=T\nDOLU=T\nPROFILE=quick\nSECTIONS=clock,bytemark\n");
    json_init(&w);
    json_obj_begin(&w, NULL);
    config_json(&w, "config", &cfg);
    json_obj_end(&w);
    char *doc = plat_alloc(w.len + 1);
    memcpy(doc, w.buf, w.len);
    doc[w.len] = 0;
    CHECK(!w.failed && w.depth == 0 && doc[0] == '{' && doc[w.len - 1] == '}', "JSON closed");
    check_json_has(doc, "\"config\":{\"profile\":\"quick\"", "JSON profile");
    check_json_has(doc, "\"sections\":[\"clock\",\"bytemark\"]", "JSON sections");
    check_json_has(doc, "\"comparable\":false", "JSON comparable");
    check_json_has(doc, "\"not_comparable_why\":\"NUMARRAYSIZE=1000\"", "JSON why");
    check_json_has(doc, "\"numarraysize\":1000", "JSON numarraysize");
    check_json_has(doc, "\"lunumarrays\":null", "JSON unset count is null");
    check_json_has(doc, "\"lu\":{\"enabled\":true", "JSON tests.lu.enabled");
    check_json_has(doc, "\"idea\":{\"enabled\":false", "JSON tests.idea disabled");
    check_json_has(doc, "\"customrun\":true", "JSON customrun");
    plat_free(doc);
    json_free(&w);
}

int main(void)
{
    test_defaults();
    test_numbers();
    test_lowercase_and_spaces();
    test_flags();
    test_tests();
    test_customrun();
    test_minseconds();
    test_strings_and_enums();
    test_plugin_settings();
    test_line_endings();
    test_bom();
    test_garbage();
    test_overlong();
    test_bad_numbers();
    test_comparable();
    test_options();
    test_default_file();
    test_round_trip();
    test_json();
    return check_done();
}
