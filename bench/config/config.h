/*
 * bench/config/config.h - the run's settings: BYTEmark's command-file parameters
 * (same names and meanings, see ../shared/reference/BYTEMARK.md section 6)
 * and baremark's own settings, from \baremark.cfg on the ESP (or the file
 * named in the load options) and from the load options themselves.
 *
 * Parsing never fails as a whole: each bad line is reported (line number and
 * reason) through the diagnostics callback and skipped.
 */
#ifndef BAREMARK_CONFIG_H
#define BAREMARK_CONFIG_H

#include <stddef.h>
#include <stdint.h>

struct json_writer;

#define BM_NTESTS 10

/* BYTEmark test order (the reference's fixed order). */
enum bm_test_id {
    BM_NUMSORT, BM_STRSORT, BM_BITFIELD, BM_EMFLOAT, BM_FOURIER,
    BM_ASSIGN, BM_IDEA, BM_HUFFMAN, BM_NNET, BM_LU
};

/* Each test's key in the results ("numsort" ...), in that order
 * (bench/config/config_params.c). */
extern const char *const cfg_test_keys[BM_NTESTS];

enum bm_profile { BM_PROFILE_AUTO, BM_PROFILE_QUICK, BM_PROFILE_FULL };

#define CONFIG_LINE_MAX 255
/* COMPARE: room for every pair of every COMPARE line ("A,B;C,D"). */
#define CONFIG_COMPARE_MAX 1024

struct bm_config {
    /* ---- BYTEmark's parameters; a value of 0 in a size means "default" --- */
    uint64_t global_min_ticks;     /* GLOBALMINTICKS, in microseconds of TSC time */
    uint32_t min_seconds[BM_NTESTS]; /* MINSECONDS / xxxMINSECONDS */
    int min_seconds_set[BM_NTESTS];  /* set explicitly (beats the profile) */
    int allstats;                  /* ALLSTATS */
    int customrun;                 /* CUSTOMRUN */
    int enabled[BM_NTESTS];        /* DOxxx */
    char outfile[64];              /* OUTFILE (extra copy of the log on the ESP) */
    uint64_t num_arrays;           /* NUMNUMARRAYS (disables adjustment when set) */
    uint64_t num_array_size;       /* NUMARRAYSIZE */
    uint64_t str_arrays;           /* NUMSTRARRAYS (disables adjustment) */
    uint64_t str_array_size;       /* STRARRAYSIZE */
    uint64_t bit_ops;              /* NUMBITOPS (disables adjustment) */
    uint64_t bitfield_size;        /* BITFIELDSIZE (64-bit words) */
    uint64_t emf_array_size;       /* EMFARRAYSIZE */
    uint64_t emf_loops;            /* EMFLOOPS (ineffective in the reference: kept so) */
    uint64_t four_size;            /* FOURSIZE / FOURASIZE (disables adjustment) */
    uint64_t assign_arrays;        /* ASSIGNARRAYS (ineffective in the reference) */
    uint64_t idea_array_size;      /* IDEARRAYSIZE / IDEAARRAYSIZE */
    uint64_t idea_loops;           /* IDEALOOPS (ineffective in the reference) */
    uint64_t huff_array_size;      /* HUFARRAYSIZE / HUFFARRAYSIZE */
    uint64_t huff_loops;           /* HUFFLOOPS (disables adjustment) */
    uint64_t nnet_loops;           /* NNETLOOPS (disables adjustment) */
    uint64_t lu_arrays;            /* LUNUMARRAYS (disables adjustment) */
    uint32_t align;                /* ALIGN (default 8) */
    int not_comparable;            /* a parameter that invalidates comparison was set */
    char not_comparable_why[128];

    /* ---- baremark's own settings (names of their own; an optional BM_ prefix
     * is accepted in the file, e.g. BM_PROFILE=quick) ------------------------ */
    enum bm_profile profile;       /* PROFILE=quick|full|auto: as asked (settings.profile) */
    enum bm_profile profile_run;   /* the profile the run uses, quick or full: set once, before
                                      the sections, by config_profile_settle (AUTO until then);
                                      every section reads this, none decides for itself */
    uint32_t sections;             /* bit i: bench/sections.c's section_table[i] runs
                                      (SECTIONS=..., and VERIFY=T for verify) */
    int qemu_exit;                 /* QEMUEXIT=T: status to isa-debug-exit 0xF4 */
    int shutdown;                  /* SHUTDOWN=T: power off at the end (hardware) */
    int end_wait;                  /* ENDWAIT=T: on hardware, wait for a key at the end */
    uint32_t end_wait_seconds;     /* ENDWAITSECONDS: stop waiting after this long (0: no limit) */
    uint32_t quiet_ms;             /* QUIETMS: quiet-machine check length */
    int memory_high;               /* MEMORYHIGH=T: the memory section's buffer at or above 4 GiB */
    int inject_fault;              /* INJECTFAULT=none|divide|opcode|page (test aid) */
    char inject_where[32];         /* INJECTIN: which test the fault goes into */
    uint32_t methods_samples;      /* METHODSAMPLES */
    uint32_t methods_iterations;   /* METHODITERATIONS */
    uint32_t idle_seconds;         /* IDLESECONDS: idle with interrupts on at the end (test aid) */
    uint32_t watchdog_seconds;     /* WATCHDOGSECONDS: arm the firmware watchdog again, each stage */
    int lava;                      /* LAVA=T: result lines for a LAVA lab on serial (bench/results/lava.h) */
    int verbose;                   /* VERBOSE=T: the full text on the console (docs/console.md) */
    /* the cores section (bench/cores/cores.h); zero values mean the defaults */
    char cores_list[64];           /* CORES=all|0,2-5 */
    uint32_t smp_parts;            /* SMP=: BM_SMP_* bits (BM_SMP_NONE: none) */
    uint32_t smp_tests;            /* SMPTESTS=: bit per test id */
    uint32_t smp_timeout;          /* SMPTIMEOUT=: seconds */
    char plugin_routines[CONFIG_LINE_MAX + 1]; /* PLUGINROUTINES: which plug-in routines are timed ("" = all) */
    uint32_t plugin_probe_seconds; /* PLUGINPROBESECONDS: watchdog per plug-in routine's first call */
    char compare[CONFIG_COMPARE_MAX]; /* COMPARE: "A,B;C,D" (every COMPARE line, in order) */
    int compare_order;             /* COMPAREORDER=random|abab: the order of COMPARE's A/B (BM_ORDER_*) */
    char results[128];             /* RESULTS=http://A.B.C.D:PORT/: send the run there ("" = no upload) */
    char results_key[129];         /* RESULTS_KEY: the lab's HMAC key (never printed nor in the JSON) */
    int results_via;               /* RESULTS_VIA=auto|http|tcp: how the upload travels (BM_VIA_*) */
    char results_ca[96];           /* RESULTS_CA=\\baremark\\ca.pem: CA certificates for https (on the boot volume) */
};

/* SMP= parts of the cores section (the CPU list always runs). */
#define BM_SMP_TSC      0x1
#define BM_SMP_LATENCY  0x2
#define BM_SMP_SCORES   0x4
#define BM_SMP_ALL      (BM_SMP_TSC | BM_SMP_LATENCY | BM_SMP_SCORES)
#define BM_SMP_NONE     0x80000000u   /* SMP=none: the list only */

/* COMPAREORDER values (bm_config.compare_order): A and B in an order drawn
 * per trial (the default, as the A/A controls), or A first in every trial. */
enum bm_compare_order { BM_ORDER_RANDOM, BM_ORDER_ABAB };
/* RESULTS_VIA values (bm_config.results_via): the firmware's EFI_HTTP_PROTOCOL
 * when the card has one, else TCP4 (auto); the HTTP protocol only; TCP4 with
 * the image's own HTTP/1.1 client only (docs/results-upload.md). */
enum bm_results_via { BM_VIA_AUTO, BM_VIA_HTTP, BM_VIA_TCP };

/* INJECTFAULT values (the int in bm_config.inject_fault). */
enum bm_fault { BM_FAULT_NONE, BM_FAULT_DIVIDE, BM_FAULT_OPCODE, BM_FAULT_PAGE, BM_FAULT_HANG };

/*
 * ---- the command-file format (bench/config/config_parse.c) ------------------------------
 *
 * One NAME=value a line.  Names are case-insensitive; spaces and tabs around
 * the name and the value are ignored.  Lines end with LF, CRLF or CR; a UTF-8
 * byte-order mark at the start is skipped.  Blank lines and lines whose first
 * non-blank character is '#' or ';' are comments (a baremark extension; there
 * are no comments after a value).  Unlike the reference, a line is never
 * split or shortened: a line longer than CONFIG_LINE_MAX characters is
 * reported and skipped whole.  Every problem is reported with its 1-based
 * line number and the line is skipped, leaving the settings it would have
 * changed untouched:
 *   a line longer than CONFIG_LINE_MAX; a control byte (NUL, ESC, ... but
 *   not TAB) anywhere; a non-ASCII byte outside a comment; no '='; an empty
 *   name or value; an unknown name; a number that is not plain decimal
 *   digits, negative, or outside the parameter's range; a flag that is not
 *   one of the accepted spellings; an unknown word in an enumeration.
 *
 * Flags: true if the value starts with T or t (BYTEmark's rule), or is
 * Y..., 1, on; false if it starts with F, f, N, n, or is 0, off.
 * Anything else is an error (the reference would take it as false).
 *
 * BYTEmark's parameters (BYTEMARK.md section 6; both the document's and the
 * reference source's spellings), their ranges and the comparability rule.
 * "size" = results are not comparable when set to anything but the
 * reference default; "fixes" = a count that bypasses the dynamic workload
 * adjustment: not comparable whenever set; "none" = comparable.  Sizes and
 * counts left at 0 mean "the reference default / adjust".
 *
 *   name (aliases)            range            default  comparability
 *   GLOBALMINTICKS            0..10000000 us   60       not comparable if != 60
 *   MINSECONDS                0..3600 s        5        none (sets all ten)
 *   xxxMINSECONDS (10 tests)  0..3600 s        5        none
 *   ALLSTATS, CUSTOMRUN       flag             F        none (a CUSTOMRUN subset
 *                                                       is comparable per test;
 *                                                       the suite prints no index)
 *   DOxxx (10 tests)          flag             T        none
 *   OUTFILE                   1..63 chars      (none)   none
 *   NUMNUMARRAYS              1..10000         adjust   fixes
 *   NUMARRAYSIZE              2..1000000       8111     size
 *   NUMSTRARRAYS              1..10000         adjust   fixes
 *   STRARRAYSIZE              100..1000000     8111     size
 *   NUMBITOPS                 1..1000000       adjust   fixes
 *   BITFIELDSIZE (64-bit wds) 4096..8388608    16384    size (the ops touch
 *                                                       bits 0..262139 = 4096 words)
 *   EMFARRAYSIZE              16..1000000      3000     size
 *   EMFLOOPS                  1..500000        adjust   none (no effect, as in
 *                                                       the reference)
 *   FOURSIZE (FOURASIZE)      1..100000        adjust   fixes
 *   ASSIGNARRAYS              1..10000         adjust   none (no effect, as ref.)
 *   IDEARRAYSIZE (IDEAARRAYSIZE) 8..1000000,   4000     size
 *                             a multiple of 8
 *   IDEALOOPS                 1..500000        adjust   none (no effect, as ref.)
 *   HUFARRAYSIZE (HUFFARRAYSIZE) 500..1000000  5000     size
 *   HUFFLOOPS                 1..500000        adjust   fixes
 *   NNETLOOPS                 1..500000        adjust   fixes
 *   LUNUMARRAYS               1..10000         adjust   fixes
 *   ALIGN                     0..4096          8        not comparable if != 8
 * The caps 10000 and 500000 are the reference's own (NUMNUMARRAYS,
 * MAXLUARRAYS, MAXxxxLOOPS, CPUEMFLOATLOOPMAX; BYTEMARK.md section 11).
 * MINSECONDS does not change the work of an iteration, only how many are
 * timed, so it keeps results comparable; so do the profiles.
 *
 * baremark's own settings:
 *   PROFILE           auto|quick|full          auto
 *   SECTIONS          all|none or a comma list of the sections'    every section
 *                     names in bench/sections.c (today clock,  not marked
 *                     methods, compare (or comparisons),      SECTION_OFF_BY_DEFAULT
 *                     bytemark); all: every one of them,
 *                     also those off by default
 *   VERIFY, QEMUEXIT, SHUTDOWN   flag          F  (VERIFY=T: the verify section)
 *   QUIETMS           1..60000 ms              200
 *   MEMORYHIGH        flag: the memory section's buffer at or above
 *                     4 GiB where there is free memory there       F
 *   INJECTFAULT       none|divide|opcode|page|hang  none (hang: only
 *                     for an AP, INJECTIN=cores:cpuN: it stops answering)
 *   INJECTIN          a test key (letters, digits, ':', '_', '-', '.'),
 *                     1..31 chars, stored in lower case  (none);
 *                     cores:cpuN = application processor N's first
 *                     BYTEmark test in the cores section
 *   CORES             all, or processor numbers and ranges: 0,2-5   all
 *                     (the CPUs the cores section uses; the bootstrap
 *                     processor takes part only when named)
 *   SMP               all|none or a comma list of tsc, latency,
 *                     scores: the parts of the cores section (its CPU
 *                     list always runs)                      all
 *   SMPTESTS          all or a comma list of BYTEmark test keys
 *                     (numsort, strsort, bitfield, emfloat, fourier,
 *                     assign, idea, huffman, nnet, lu) run on each CPU
 *                     and on all CPUs at once          numsort,fourier
 *   SMPTIMEOUT        1..3600 s: how long an AP may take to answer or to
 *                     finish one piece of work before it is reported
 *                     and left alone                        30
 *   METHODSAMPLES     10..1000000              1000
 *   METHODITERATIONS  1..1000000               1
 *   IDLESECONDS       0..3600 s: idle with interrupts enabled (hlt) after
 *                     the sections, so a run outlasts the watchdog  0
 *   LAVA              flag: result lines for a LAVA monitors action on
 *                     serial only (bench/results/lava.h); the LAVA job templates
 *                     (tools/lava/make-job) ask for them          F
 *   VERBOSE           flag: every line on the console (serial and
 *                     screen), not only the banner, progress, warnings
 *                     and the summary; the .log has every line
 *                     either way (docs/console.md)                F
 *   PLUGINROUTINES    which plug-in routines are timed: a comma list of
 *                     PLUGIN:ROUTINE, PLUGIN (all its routines), PLUGIN:*,
 *                     * or all, or none (bench/plugins/plugins.h)        all
 *   PLUGINPROBESECONDS 1..3600 s: the firmware watchdog while each plug-in
 *                     routine is called once before it is timed; a routine
 *                     that does not return by then resets the machine
 *                     (bench/plugins/plugins_section.h)                 10
 *   COMPARE           A,B: Karsh's A/B of two targets (plug-in routines
 *                     PLUGIN:ROUTINE or built-in targets) plus the A/A
 *                     control of A; several pairs separated by ';', and
 *                     COMPARE may be given on several lines (they add up,
 *                     at most 1023 characters in all)        (none)
 *   WATCHDOGSECONDS   0..3600 s: arm the firmware watchdog again for this
 *                     long, the countdown restarted as each stage of the
 *                     run begins, so a hang in any section resets the
 *                     machine (0 = leave it off; boot/watchdog.h)  0
 */
/* Defaults of baremark's own settings. */
#define CONFIG_DEFAULT_SMP_TESTS       ((1u << BM_NUMSORT) | (1u << BM_FOURIER))
#define CONFIG_DEFAULT_SMP_TIMEOUT     30
#define CONFIG_DEFAULT_QUIET_MS        200
#define CONFIG_DEFAULT_METHOD_SAMPLES  1000
#define CONFIG_DEFAULT_METHOD_ITERS    1
#define CONFIG_DEFAULT_PROBE_SECONDS   10
/* BYTEmark's defaults (BYTEMARK.md sections 2 and 11). */
#define CONFIG_DEFAULT_MIN_TICKS       60
#define CONFIG_DEFAULT_MIN_SECONDS     5
#define CONFIG_DEFAULT_ALIGN           8

/* Diagnostics: called once per problem with the 1-based line number (0 when
 * the problem is not tied to a line) and a one-line message. */
typedef void (*config_diag_fn)(void *ctx, unsigned line, const char *msg);

/* Defaults: BYTEmark's defaults and baremark's (profile auto). */
void config_defaults(struct bm_config *c);

/* Parse a command file held in memory (any bytes: CRLF, a UTF-8 BOM, NULs
 * and overlong lines are handled).  Returns the number of problems found. */
int config_parse(struct bm_config *c, const char *text, size_t len,
                 config_diag_fn diag, void *ctx);

/* Parse load options (UEFI LoadOptions already converted to ASCII), e.g.
 * "BOOTX64.EFI -c TEST.CFG profile=quick qemuexit=t".  Sets *cfg_name to a
 * command file named with -c (or leaves it empty).  Returns problems found. */
int config_parse_options(struct bm_config *c, const char *opts, size_t len,
                         char *cfg_name, size_t cfg_name_size,
                         config_diag_fn diag, void *ctx);

/* Write the settings as a command file (which config_parse reads back to the
 * same settings with no problem): every setting, defaults as comments.
 * Returns the length the full text needs (like snprintf); buf may be NULL
 * when size is 0. */
size_t config_format(const struct bm_config *c, char *buf, size_t size);

/* Print the effective settings through out_printf (config_format's text). */
void config_print(const struct bm_config *c);

/* Write the settings as an object member `key` (e.g. "config") of w. */
void config_json(struct json_writer *w, const char *key, const struct bm_config *c);
/* The same members into an object the caller has opened. */
void config_json_members(struct json_writer *w, const struct bm_config *c);

/* 1 when the section named `name` (bench/sections.c: its name or label, any
 * case, e.g. "methods", "compare", "verify") will run; 0 when it is off or
 * not in the table. */
int config_section_enabled(const struct bm_config *c, const char *name);

/* Names for the enumerations: "auto"/"quick"/"full" and
 * "none"/"divide"/"opcode"/"page" ("?" for a value out of range). */
const char *config_profile_name(enum bm_profile p);

/* The profile that runs for the one asked: quick or full as asked; auto is
 * quick under a hypervisor (CPUID.1:ECX bit 31, kernel/cpu.c
 * hypervisor_present: QEMU, KVM, any VM) and full on bare metal. */
enum bm_profile config_profile_resolve(enum bm_profile asked, int hypervisor);
/* Resolve c->profile once into c->profile_run (the image's efi_main and
 * each hosted command, before any section runs). */
void config_profile_settle(struct bm_config *c, int hypervisor);
/* The run's environment (bench/section.h struct run_env), decided once:
 * the CPU's identity (one CPUID pass, kernel/cpu.h cpu_identity), the
 * profile settled from it (config_profile_settle) and the platform's
 * capabilities.  The same record for every call of a run. */
struct run_env;
const struct run_env *run_env_decide(struct bm_config *c);
/* Why an OUTFILE value is refused (a drive, a path, "..", a run's own file
 * name...), or NULL when it is a plain file name for \baremark\. */
const char *config_outfile_why(const char *name);
const char *config_fault_name(int fault);
const char *config_order_name(int order);   /* "random", "abab" */
const char *config_via_name(int via);       /* "auto", "http", "tcp" */

/* ---- the CORES setting (bench/config/config_cores.c) ---------------------------
 * "all", or a comma list of processor numbers and ranges: "0,2-5".  Sets
 * sel[i] = 1 for each number below n (sel has n entries; NULL: only check).  Returns 0, or -1
 * with *why set (a bad word; numbers at or past n are reported by the
 * caller, see cores_list_max). */
int cores_list_parse(const char *s, uint8_t *sel, uint32_t n, const char **why);
/* The largest number in a well-formed list (0 for "all"). */
uint32_t cores_list_max(const char *s);

#endif
