/*
 * bench/config.c - the command-file and load-option parsers (format, ranges
 * and comparability rules are documented in config.h).
 *
 * Every input byte sequence is legal input: the parser copies each line into
 * a bounded buffer only after checking its length and bytes, so nothing in
 * the input can make it read or write outside its buffers.  A line either
 * applies completely or not at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "out.h"

/* ---- constants --------------------------------------------------------------- */

#define CFG_MSG_MAX      200   /* one diagnostic line */
#define CFG_SHOW         40    /* characters of a bad name or value quoted */
#define CFG_MAX_SECONDS  3600  /* an hour per run is already absurd */
#define CFG_MAX_TICKS    10000000ull /* GLOBALMINTICKS: 10 s of microseconds */
/* The reference's caps (BYTEMARK.md section 11). */
#define CFG_MAX_ARRAYS   10000ull   /* NUMNUMARRAYS, MAXLUARRAYS */
#define CFG_MAX_LOOPS    500000ull  /* MAXIDEALOOPS, MAXHUFFLOOPS, MAXNNETLOOPS, CPUEMFLOATLOOPMAX */
/* Reference defaults of the sizes (BYTEMARK.md section 11, LP64). */
#define CFG_REF_NUMARRAYSIZE  8111
#define CFG_REF_STRARRAYSIZE  8111
#define CFG_REF_BITFIELDSIZE  16384  /* 64-bit words = 1,048,576 bits */
#define CFG_REF_EMFARRAYSIZE  3000
#define CFG_REF_IDEAARRAYSIZE 4000
#define CFG_REF_HUFFARRAYSIZE 5000
/* Bitfield operations touch bits 0..262139 (BYTEMARK.md section 9 item 15):
 * a smaller map would be written out of bounds. */
#define CFG_MIN_BITFIELDSIZE  4096
#define CFG_IDEA_BLOCK        8      /* IDEABLOCKSIZE: the buffer holds whole blocks */

static const unsigned char cfg_bom[3] = { 0xEF, 0xBB, 0xBF };

/* ---- types ----------------------------------------------------------------- */

enum cfg_kind {
    K_U64, K_U32, K_FLAG,       /* a number or flag stored at `offset` */
    K_MINSEC, K_ALLMINSEC,      /* xxxMINSECONDS (test), MINSECONDS */
    K_DO, K_CUSTOMRUN,          /* DOxxx (test), CUSTOMRUN */
    K_OUTFILE, K_PROFILE, K_SECTIONS, K_FAULT, K_INJECTIN
};

/* Comparability class (see the table in config.h). */
enum cfg_cmp { CMP_NONE, CMP_SIZE, CMP_VALUE, CMP_FIXES };

struct cfg_param {
    const char *name;       /* upper case, as matched */
    enum cfg_kind kind;
    size_t offset;          /* K_U64 / K_U32 / K_FLAG */
    uint64_t min, max;
    int test;               /* K_MINSEC / K_DO */
    enum cfg_cmp cmp;
    uint64_t ref;           /* the reference default (CMP_SIZE, CMP_VALUE) */
    int alias;              /* another spelling of the entry before it */
    int own;                /* baremark's own (a BM_ prefix is accepted) */
};

/* A parse in progress: where diagnostics go and how lines are named. */
struct cfg_ctx {
    struct bm_config *c;
    config_diag_fn diag;
    void *ctx;
    unsigned line;          /* 1-based line, 0 for load options */
    unsigned word;          /* 1-based word of the load options, else 0 */
    int problems;
};

#define OFF(f) offsetof(struct bm_config, f)

/* DOxxx names, xxxMINSECONDS names and JSON keys, in bm_test_id order. */
static const char *const cfg_do_names[BM_NTESTS] = {
    "DONUMSORT", "DOSTRINGSORT", "DOBITFIELD", "DOEMF", "DOFOUR",
    "DOASSIGN", "DOIDEA", "DOHUFF", "DONNET", "DOLU"
};
static const char *const cfg_minsec_names[BM_NTESTS] = {
    "NUMMINSECONDS", "STRMINSECONDS", "BITMINSECONDS", "EMFMINSECONDS",
    "FOURMINSECONDS", "ASSIGNMINSECONDS", "IDEAMINSECONDS", "HUFFMINSECONDS",
    "NNETMINSECONDS", "LUMINSECONDS"
};
static const char *const cfg_test_keys[BM_NTESTS] = {
    "numsort", "strsort", "bitfield", "emfloat", "fourier",
    "assign", "idea", "huffman", "nnet", "lu"
};

static const struct cfg_param cfg_params[] = {
    /* BYTEmark's global parameters */
    { "GLOBALMINTICKS", K_U64, OFF(global_min_ticks), 0, CFG_MAX_TICKS, 0, CMP_VALUE,
      CONFIG_DEFAULT_MIN_TICKS, 0, 0 },
    { "MINSECONDS", K_ALLMINSEC, 0, 0, CFG_MAX_SECONDS, 0, CMP_NONE, 0, 0, 0 },
    { "ALLSTATS", K_FLAG, OFF(allstats), 0, 1, 0, CMP_NONE, 0, 0, 0 },
    { "OUTFILE", K_OUTFILE, 0, 0, 0, 0, CMP_NONE, 0, 0, 0 },
    { "CUSTOMRUN", K_CUSTOMRUN, 0, 0, 1, 0, CMP_NONE, 0, 0, 0 },
    /* per test, in the reference's order; DOxxx and xxxMINSECONDS are added
     * by cfg_find from the name tables above */
    { "NUMNUMARRAYS", K_U64, OFF(num_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "NUMARRAYSIZE", K_U64, OFF(num_array_size), 2, 1000000, 0, CMP_SIZE,
      CFG_REF_NUMARRAYSIZE, 0, 0 },
    { "NUMSTRARRAYS", K_U64, OFF(str_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "STRARRAYSIZE", K_U64, OFF(str_array_size), 100, 1000000, 0, CMP_SIZE,
      CFG_REF_STRARRAYSIZE, 0, 0 },
    { "NUMBITOPS", K_U64, OFF(bit_ops), 1, 1000000, 0, CMP_FIXES, 0, 0, 0 },
    { "BITFIELDSIZE", K_U64, OFF(bitfield_size), CFG_MIN_BITFIELDSIZE, 8388608, 0, CMP_SIZE,
      CFG_REF_BITFIELDSIZE, 0, 0 },
    { "EMFARRAYSIZE", K_U64, OFF(emf_array_size), 16, 1000000, 0, CMP_SIZE,
      CFG_REF_EMFARRAYSIZE, 0, 0 },
    { "EMFLOOPS", K_U64, OFF(emf_loops), 1, CFG_MAX_LOOPS, 0, CMP_NONE, 0, 0, 0 },
    { "FOURSIZE", K_U64, OFF(four_size), 1, 100000, 0, CMP_FIXES, 0, 0, 0 },
    { "FOURASIZE", K_U64, OFF(four_size), 1, 100000, 0, CMP_FIXES, 0, 1, 0 },
    { "ASSIGNARRAYS", K_U64, OFF(assign_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_NONE, 0, 0, 0 },
    { "IDEARRAYSIZE", K_U64, OFF(idea_array_size), CFG_IDEA_BLOCK, 1000000, 0, CMP_SIZE,
      CFG_REF_IDEAARRAYSIZE, 0, 0 },
    { "IDEAARRAYSIZE", K_U64, OFF(idea_array_size), CFG_IDEA_BLOCK, 1000000, 0, CMP_SIZE,
      CFG_REF_IDEAARRAYSIZE, 1, 0 },
    { "IDEALOOPS", K_U64, OFF(idea_loops), 1, CFG_MAX_LOOPS, 0, CMP_NONE, 0, 0, 0 },
    { "HUFARRAYSIZE", K_U64, OFF(huff_array_size), 500, 1000000, 0, CMP_SIZE,
      CFG_REF_HUFFARRAYSIZE, 0, 0 },
    { "HUFFARRAYSIZE", K_U64, OFF(huff_array_size), 500, 1000000, 0, CMP_SIZE,
      CFG_REF_HUFFARRAYSIZE, 1, 0 },
    { "HUFFLOOPS", K_U64, OFF(huff_loops), 1, CFG_MAX_LOOPS, 0, CMP_FIXES, 0, 0, 0 },
    { "NNETLOOPS", K_U64, OFF(nnet_loops), 1, CFG_MAX_LOOPS, 0, CMP_FIXES, 0, 0, 0 },
    { "LUNUMARRAYS", K_U64, OFF(lu_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "ALIGN", K_U32, OFF(align), 0, 4096, 0, CMP_VALUE, CONFIG_DEFAULT_ALIGN, 0, 0 },
    /* baremark's own */
    { "PROFILE", K_PROFILE, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "SECTIONS", K_SECTIONS, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "VERIFY", K_FLAG, OFF(run_verify), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "QEMUEXIT", K_FLAG, OFF(qemu_exit), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "SHUTDOWN", K_FLAG, OFF(shutdown), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "ENDWAIT", K_FLAG, OFF(end_wait), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "ENDWAITSECONDS", K_U32, OFF(end_wait_seconds), 0, 86400, 0, CMP_NONE, 0, 0, 1 },
    { "QUIETMS", K_U32, OFF(quiet_ms), 1, 60000, 0, CMP_NONE, 0, 0, 1 },
    { "INJECTFAULT", K_FAULT, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "INJECTIN", K_INJECTIN, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "METHODSAMPLES", K_U32, OFF(methods_samples), 10, 1000000, 0, CMP_NONE, 0, 0, 1 },
    { "METHODITERATIONS", K_U32, OFF(methods_iterations), 1, 1000000, 0, CMP_NONE, 0, 0, 1 },
    { "IDLESECONDS", K_U32, OFF(idle_seconds), 0, 3600, 0, CMP_NONE, 0, 0, 1 },
    { "WATCHDOGSECONDS", K_U32, OFF(watchdog_seconds), 0, 3600, 0, CMP_NONE, 0, 0, 1 },
};
#define CFG_NPARAMS (sizeof cfg_params / sizeof cfg_params[0])

static const char *const cfg_profile_names[] = { "auto", "quick", "full" };
static const char *const cfg_fault_names[] = { "none", "divide", "opcode", "page" };

/* ---- small string helpers (no <ctype.h> in portable code) ------------------- */

static int cfg_upper(int ch) { return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch; }
static int cfg_lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch; }
static int cfg_blank(int ch) { return ch == ' ' || ch == '\t'; }

static int cfg_ieq(const char *a, const char *b)
{
    while (*a && cfg_upper((unsigned char)*a) == cfg_upper((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

/* Trim blanks at both ends in place; returns the new start. */
static char *cfg_trim(char *s)
{
    size_t n;
    while (cfg_blank(*s))
        s++;
    n = strlen(s);
    while (n > 0 && cfg_blank(s[n - 1]))
        s[--n] = 0;
    return s;
}

/* ---- diagnostics --------------------------------------------------------------- */

static void cfg_report(struct cfg_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cfg_report(struct cfg_ctx *x, const char *fmt, ...)
{
    char msg[CFG_MSG_MAX];
    size_t k = 0;
    va_list ap;

    x->problems++;
    if (!x->diag)
        return;
    if (x->word)
        k = (size_t)snprintf(msg, sizeof msg, "word %u: ", x->word);
    va_start(ap, fmt);
    vsnprintf(msg + k, sizeof msg - k, fmt, ap);
    va_end(ap);
    /* quoted input may hold a tab: keep the message one printable line */
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F)
            *p = '?';
    x->diag(x->ctx, x->line, msg);
}

/* ---- values ----------------------------------------------------------------- */

/* Plain decimal digits only ("5abc", "0x10", "+5", "1e3" are not numbers,
 * although the reference's atol would take some of them). */
static int cfg_number(struct cfg_ctx *x, const char *name, const char *v, uint64_t *out)
{
    uint64_t n = 0;
    const char *p = v;

    if (*p == '-') {
        cfg_report(x, "%s: negative value '%.*s' (must be >= 0)", name, CFG_SHOW, v);
        return -1;
    }
    for (; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9) {
            cfg_report(x, "%s: '%.*s' is not a whole decimal number", name, CFG_SHOW, v);
            return -1;
        }
        if (n > (UINT64_MAX - d) / 10)
            n = UINT64_MAX;     /* saturate: certainly out of range */
        else
            n = n * 10 + d;
    }
    *out = n;
    return 0;
}

static int cfg_ranged(struct cfg_ctx *x, const struct cfg_param *p, const char *v, uint64_t *out)
{
    uint64_t n;
    if (cfg_number(x, p->name, v, &n))
        return -1;
    if (n < p->min || n > p->max) {
        cfg_report(x, "%s: %.*s is out of range %llu..%llu", p->name, CFG_SHOW, v,
                   (unsigned long long)p->min, (unsigned long long)p->max);
        return -1;
    }
    if (p->offset == OFF(idea_array_size) && n % CFG_IDEA_BLOCK) {
        cfg_report(x, "%s: %llu is not a multiple of the IDEA block size %d", p->name,
                   (unsigned long long)n, CFG_IDEA_BLOCK);
        return -1;
    }
    *out = n;
    return 0;
}

/* BYTEmark's rule (starts with T) plus baremark's spellings. */
static int cfg_flag(struct cfg_ctx *x, const char *name, const char *v, int *out)
{
    int c0 = cfg_upper((unsigned char)v[0]);
    if (c0 == 'T' || c0 == 'Y' || !strcmp(v, "1") || cfg_ieq(v, "on"))
        *out = 1;
    else if (c0 == 'F' || c0 == 'N' || !strcmp(v, "0") || cfg_ieq(v, "off"))
        *out = 0;
    else {
        cfg_report(x, "%s: '%.*s' is not a flag (T or F; also Y/N, 1/0, on/off)", name,
                   CFG_SHOW, v);
        return -1;
    }
    return 0;
}

static int cfg_enum(struct cfg_ctx *x, const char *name, const char *v,
                    const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (cfg_ieq(v, names[i])) {
            *out = i;
            return 0;
        }
    cfg_report(x, "%s: unknown value '%.*s'", name, CFG_SHOW, v);
    return -1;
}

/* Printable ASCII without the characters FAT forbids in names (and no
 * quotes: BYTEmark's document says the path is written without them). */
static int cfg_outfile_char(int ch)
{
    return ch >= 0x20 && ch < 0x7F && !strchr("\"*?<>|", ch);
}

static int cfg_string(struct cfg_ctx *x, const char *name, const char *v, char *dst,
                      size_t size, int (*ok)(int))
{
    size_t n = strlen(v);
    for (size_t i = 0; i < n; i++)
        if (!ok((unsigned char)v[i])) {
            cfg_report(x, "%s: character '%c' not allowed in '%.*s'", name, v[i], CFG_SHOW, v);
            return -1;
        }
    if (n >= size) {
        cfg_report(x, "%s: '%.*s' is longer than %zu characters", name, CFG_SHOW, v, size - 1);
        return -1;
    }
    memset(dst, 0, size);
    memcpy(dst, v, n);
    return 0;
}

static int cfg_key_char(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == ':' || ch == '_' || ch == '-' || ch == '.';
}

/* SECTIONS=all | none | clock,methods,compare,bytemark (any subset). */
static int cfg_sections(struct cfg_ctx *x, const char *v)
{
    static const char *const names[] = { "clock", "methods", "compare", "bytemark",
                                         "comparisons", "all", "none" };
    int on[4] = { 0, 0, 0, 0 };
    char item[CONFIG_LINE_MAX + 1];
    const char *p = v;

    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *t;
        int i;
        memcpy(item, p, n);
        item[n] = 0;
        t = cfg_trim(item);
        for (i = 0; i < 7 && !cfg_ieq(t, names[i]); i++)
            ;
        if (!*t) {
            cfg_report(x, "SECTIONS: empty item in '%.*s'", CFG_SHOW, v);
            return -1;
        }
        if (i == 7) {
            cfg_report(x, "SECTIONS: unknown section '%.*s' (clock, methods, compare, "
                       "bytemark, all, none)", CFG_SHOW, t);
            return -1;
        }
        if (i < 4)
            on[i] = 1;
        else if (i == 4)
            on[2] = 1;
        else if (i == 5)
            on[0] = on[1] = on[2] = on[3] = 1;
        if (!comma)
            break;
        p = comma + 1;
    }
    x->c->run_clock = on[0];
    x->c->run_methods = on[1];
    x->c->run_compare = on[2];
    x->c->run_bytemark = on[3];
    return 0;
}

/* ---- parameters ------------------------------------------------------------- */

/* A synthetic entry for DOxxx and xxxMINSECONDS, filled per lookup. */
static const struct cfg_param *cfg_find(const char *name, struct cfg_param *tmp)
{
    const char *bare = name;
    if (cfg_upper((unsigned char)name[0]) == 'B' && cfg_upper((unsigned char)name[1]) == 'M' &&
        name[2] == '_')
        bare = name + 3;
    for (size_t i = 0; i < CFG_NPARAMS; i++)
        if (cfg_ieq(name, cfg_params[i].name) ||
            (cfg_params[i].own && bare != name && cfg_ieq(bare, cfg_params[i].name)))
            return &cfg_params[i];
    for (int t = 0; t < BM_NTESTS; t++) {
        memset(tmp, 0, sizeof *tmp);
        tmp->test = t;
        if (cfg_ieq(name, cfg_do_names[t])) {
            tmp->name = cfg_do_names[t];
            tmp->kind = K_DO;
            return tmp;
        }
        if (cfg_ieq(name, cfg_minsec_names[t])) {
            tmp->name = cfg_minsec_names[t];
            tmp->kind = K_MINSEC;
            tmp->max = CFG_MAX_SECONDS;
            return tmp;
        }
    }
    return NULL;
}

static int cfg_set_numeric(struct cfg_ctx *x, const struct cfg_param *p, const char *v)
{
    struct bm_config *c = x->c;
    uint64_t n;
    int f;

    switch (p->kind) {
    case K_U64:
        if (cfg_ranged(x, p, v, &n))
            return -1;
        memcpy((char *)c + p->offset, &n, sizeof n);
        return 0;
    case K_U32: {
        uint32_t n32;
        if (cfg_ranged(x, p, v, &n))
            return -1;
        n32 = (uint32_t)n;
        memcpy((char *)c + p->offset, &n32, sizeof n32);
        return 0;
    }
    case K_FLAG:
        if (cfg_flag(x, p->name, v, &f))
            return -1;
        memcpy((char *)c + p->offset, &f, sizeof f);
        return 0;
    case K_MINSEC:
        if (cfg_ranged(x, p, v, &n))
            return -1;
        c->min_seconds[p->test] = (uint32_t)n;
        c->min_seconds_set[p->test] = 1;
        return 0;
    case K_ALLMINSEC:
        /* Like the reference: every test, overriding earlier per-test values. */
        if (cfg_ranged(x, p, v, &n))
            return -1;
        for (int t = 0; t < BM_NTESTS; t++) {
            c->min_seconds[t] = (uint32_t)n;
            c->min_seconds_set[t] = 1;
        }
        return 0;
    default:
        return -1;
    }
}

static int cfg_set(struct cfg_ctx *x, const struct cfg_param *p, const char *v)
{
    struct bm_config *c = x->c;
    int f;

    switch (p->kind) {
    case K_DO:
        if (cfg_flag(x, p->name, v, &f))
            return -1;
        c->enabled[p->test] = f;
        return 0;
    case K_CUSTOMRUN:
        /* T: every test off, so DOxxx=T must follow; F: every test on. */
        if (cfg_flag(x, p->name, v, &f))
            return -1;
        c->customrun = f;
        for (int t = 0; t < BM_NTESTS; t++)
            c->enabled[t] = !f;
        return 0;
    case K_OUTFILE:
        return cfg_string(x, p->name, v, c->outfile, sizeof c->outfile, cfg_outfile_char);
    case K_PROFILE:
        if (cfg_enum(x, p->name, v, cfg_profile_names, 3, &f))
            return -1;
        c->profile = (enum bm_profile)f;
        return 0;
    case K_SECTIONS:
        return cfg_sections(x, v);
    case K_FAULT:
        if (cfg_enum(x, p->name, v, cfg_fault_names, 4, &f))
            return -1;
        c->inject_fault = f;
        return 0;
    case K_INJECTIN:
        if (cfg_string(x, p->name, v, c->inject_where, sizeof c->inject_where, cfg_key_char))
            return -1;
        for (char *s = c->inject_where; *s; s++)
            *s = (char)cfg_lower((unsigned char)*s);
        return 0;
    default:
        return cfg_set_numeric(x, p, v);
    }
}

/* One NAME=value, already checked for length and bytes, NUL-terminated. */
static void cfg_assign(struct cfg_ctx *x, char *text)
{
    struct cfg_param tmp;
    const struct cfg_param *p;
    char *eq = strchr(text, '='), *name, *value;

    if (!eq) {
        cfg_report(x, "no '=' in '%.*s' (expected NAME=value)", CFG_SHOW, text);
        return;
    }
    *eq = 0;
    name = cfg_trim(text);
    value = cfg_trim(eq + 1);
    if (!*name) {
        cfg_report(x, "no name before '='");
        return;
    }
    p = cfg_find(name, &tmp);
    if (!p) {
        cfg_report(x, "unknown setting '%.*s'", CFG_SHOW, name);
        return;
    }
    if (!*value) {
        cfg_report(x, "%s: no value after '='", p->name);
        return;
    }
    cfg_set(x, p, value);
}

/* ---- comparability ----------------------------------------------------------- */

static uint64_t cfg_get(const struct bm_config *c, const struct cfg_param *p)
{
    if (p->kind == K_U32) {
        uint32_t v;
        memcpy(&v, (const char *)c + p->offset, sizeof v);
        return v;
    }
    uint64_t v;
    memcpy(&v, (const char *)c + p->offset, sizeof v);
    return v;
}

static int cfg_breaks_comparison(const struct bm_config *c, const struct cfg_param *p)
{
    uint64_t v;
    if (p->alias || p->cmp == CMP_NONE)
        return 0;
    v = cfg_get(c, p);
    switch (p->cmp) {
    case CMP_SIZE:  return v != 0 && v != p->ref;
    case CMP_VALUE: return v != p->ref;
    case CMP_FIXES: return v != 0;
    default:        return 0;
    }
}

/* Derived from the final values, so a later line (or load option) that puts
 * a size back to the reference's value makes the run comparable again. */
static void cfg_update_comparable(struct bm_config *c)
{
    char *why = c->not_comparable_why;
    size_t size = sizeof c->not_comparable_why, k = 0;
    static const char more[] = ", ...";

    c->not_comparable = 0;
    memset(why, 0, size);
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        char item[48];
        int n;
        if (!cfg_breaks_comparison(c, p))
            continue;
        n = snprintf(item, sizeof item, "%s%s=%llu", c->not_comparable ? ", " : "", p->name,
                     (unsigned long long)cfg_get(c, p));
        c->not_comparable = 1;
        if (k + (size_t)n + sizeof more > size) {
            memcpy(why + k, more, sizeof more);    /* room kept for it below */
            break;
        }
        memcpy(why + k, item, (size_t)n + 1);
        k += (size_t)n;
    }
}

/* ---- lines ------------------------------------------------------------------- */

/* Check one raw line (without its terminator) and apply it. */
static void cfg_line(struct cfg_ctx *x, const unsigned char *s, size_t n)
{
    char buf[CONFIG_LINE_MAX + 1], *t;
    size_t i;

    if (n > CONFIG_LINE_MAX) {
        cfg_report(x, "line is %zu characters long; the limit is %d", n, CONFIG_LINE_MAX);
        return;
    }
    for (i = 0; i < n; i++)
        if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7F) {
            cfg_report(x, "binary byte 0x%02X at column %zu", s[i], i + 1);
            return;
        }
    memcpy(buf, s, n);
    buf[n] = 0;
    t = cfg_trim(buf);
    if (*t == 0 || *t == '#' || *t == ';')
        return;                 /* blank or comment: any text allowed */
    for (i = 0; t[i]; i++)
        if ((unsigned char)t[i] >= 0x80) {
            cfg_report(x, "non-ASCII byte 0x%02X at column %zu", (unsigned char)t[i],
                       (size_t)(t - buf) + i + 1);
            return;
        }
    cfg_assign(x, t);
}

/* ---- public functions ---------------------------------------------------------- */

void config_defaults(struct bm_config *c)
{
    memset(c, 0, sizeof *c);    /* also clears padding: configs compare with memcmp */
    c->global_min_ticks = CONFIG_DEFAULT_MIN_TICKS;
    for (int t = 0; t < BM_NTESTS; t++) {
        c->min_seconds[t] = CONFIG_DEFAULT_MIN_SECONDS;
        c->enabled[t] = 1;
    }
    c->align = CONFIG_DEFAULT_ALIGN;
    c->profile = BM_PROFILE_AUTO;
    c->run_clock = c->run_methods = c->run_compare = c->run_bytemark = 1;
    c->quiet_ms = CONFIG_DEFAULT_QUIET_MS;
    c->end_wait = 1;
    c->inject_fault = BM_FAULT_NONE;
    c->methods_samples = CONFIG_DEFAULT_METHOD_SAMPLES;
    c->methods_iterations = CONFIG_DEFAULT_METHOD_ITERS;
}

int config_parse(struct bm_config *c, const char *text, size_t len,
                 config_diag_fn diag, void *ctx)
{
    struct cfg_ctx x = { c, diag, ctx, 0, 0, 0 };
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;

    if (len >= sizeof cfg_bom && !memcmp(s, cfg_bom, sizeof cfg_bom))
        i = sizeof cfg_bom;
    while (i < len) {
        size_t start = i;
        while (i < len && s[i] != '\n' && s[i] != '\r')
            i++;
        x.line++;
        cfg_line(&x, s + start, i - start);
        /* LF, CRLF or a lone CR ends a line */
        if (i < len && s[i] == '\r') {
            i++;
            if (i < len && s[i] == '\n')
                i++;
        } else if (i < len) {
            i++;
        }
    }
    cfg_update_comparable(c);
    return x.problems;
}

/* ---- load options ---------------------------------------------------------------- */

static int cfg_ends_with_efi(const char *w)
{
    size_t n = strlen(w);
    return n >= 4 && cfg_ieq(w + n - 4, ".EFI");
}

/* The next word of the options: separated by spaces and control bytes,
 * double quotes group and are removed.  Returns the index after the word;
 * *n is the word's full length (which may exceed the buffer). */
static size_t cfg_next_word(const unsigned char *s, size_t len, size_t i, char *buf,
                            size_t *n)
{
    int quoted = 0;
    size_t k = 0;
    for (; i < len && (quoted || s[i] > ' '); i++) {
        if (s[i] == '"') {
            quoted = !quoted;
            continue;
        }
        if (k < CONFIG_LINE_MAX)
            buf[k] = (char)s[i];
        k++;
    }
    buf[k < CONFIG_LINE_MAX ? k : CONFIG_LINE_MAX] = 0;
    *n = k;
    return i;
}

static void cfg_option_file(struct cfg_ctx *x, const char *name, char *dst, size_t size)
{
    char tmp[CONFIG_LINE_MAX + 1];
    if (!*name) {
        cfg_report(x, "-c without a file name");
        return;
    }
    if (!dst || !size)
        return;
    if (cfg_string(x, "-c", name, tmp, size < sizeof tmp ? size : sizeof tmp, cfg_outfile_char))
        return;
    memcpy(dst, tmp, strlen(tmp) + 1);
}

/* One word (not the image path, not the name after -c). */
static void cfg_option_word(struct cfg_ctx *x, char *w, size_t n, int *want_name,
                            char *cfg_name, size_t cfg_name_size)
{
    size_t i;
    if (n > CONFIG_LINE_MAX) {
        cfg_report(x, "option is %zu characters long; the limit is %d", n, CONFIG_LINE_MAX);
        return;
    }
    for (i = 0; i < n; i++)
        if ((unsigned char)w[i] < 0x20 || (unsigned char)w[i] >= 0x7F) {
            cfg_report(x, "byte 0x%02X at column %zu", (unsigned char)w[i], i + 1);
            return;
        }
    if (w[0] == '-' && (w[1] == 'c' || w[1] == 'C')) {
        if (w[2])
            cfg_option_file(x, w + 2, cfg_name, cfg_name_size);
        else
            *want_name = 1;
    } else if (strchr(w, '=')) {
        cfg_assign(x, w);
    } else {
        cfg_report(x, "unknown option '%.*s' (expected -c FILE or NAME=value)", CFG_SHOW, w);
    }
}

int config_parse_options(struct bm_config *c, const char *opts, size_t len,
                         char *cfg_name, size_t cfg_name_size,
                         config_diag_fn diag, void *ctx)
{
    struct cfg_ctx x = { c, diag, ctx, 0, 0, 0 };
    const unsigned char *s = (const unsigned char *)opts;
    char w[CONFIG_LINE_MAX + 1];
    int want_name = 0;
    size_t i = 0, n;

    if (cfg_name && cfg_name_size)
        cfg_name[0] = 0;
    while (i < len) {
        if (s[i] <= ' ') {
            i++;
            continue;
        }
        i = cfg_next_word(s, len, i, w, &n);
        x.word++;
        if (x.word == 1 && n <= CONFIG_LINE_MAX && cfg_ends_with_efi(w))
            continue;           /* the image's own path */
        if (want_name) {
            want_name = 0;
            if (n > CONFIG_LINE_MAX)
                cfg_report(&x, "-c: file name is %zu characters long", n);
            else
                cfg_option_file(&x, w, cfg_name, cfg_name_size);
            continue;
        }
        cfg_option_word(&x, w, n, &want_name, cfg_name, cfg_name_size);
    }
    if (want_name)
        cfg_report(&x, "-c without a file name");
    cfg_update_comparable(c);
    return x.problems;
}

/* ---- writing the settings ---------------------------------------------------------- */

/* Text goes to a buffer (snprintf semantics) or to out_printf. */
struct cfg_out {
    char *buf;
    size_t size, len;
    int to_out;
};

static void cfg_emit(struct cfg_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cfg_emit(struct cfg_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->to_out) {
        out_vprintf(fmt, ap);
    } else {
        size_t room = o->len < o->size ? o->size - o->len : 0;
        int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
        if (n > 0)
            o->len += (size_t)n;
    }
    va_end(ap);
}

static const char *cfg_tf(int f) { return f ? "T" : "F"; }

static void cfg_emit_sections(struct cfg_out *o, const struct bm_config *c)
{
    const int on[4] = { c->run_clock, c->run_methods, c->run_compare, c->run_bytemark };
    static const char *const names[4] = { "clock", "methods", "compare", "bytemark" };
    int first = 1;
    cfg_emit(o, "SECTIONS=");
    if (!on[0] && !on[1] && !on[2] && !on[3])
        cfg_emit(o, "none");
    for (int i = 0; i < 4; i++)
        if (on[i]) {
            cfg_emit(o, "%s%s", first ? "" : ",", names[i]);
            first = 0;
        }
    cfg_emit(o, "\n");
}

static void cfg_emit_own(struct cfg_out *o, const struct bm_config *c)
{
    cfg_emit(o, "# baremark's own settings\n");
    cfg_emit(o, "PROFILE=%s\n", config_profile_name(c->profile));
    cfg_emit_sections(o, c);
    cfg_emit(o, "VERIFY=%s\nQEMUEXIT=%s\nSHUTDOWN=%s\n", cfg_tf(c->run_verify),
             cfg_tf(c->qemu_exit), cfg_tf(c->shutdown));
    cfg_emit(o, "ENDWAIT=%s\nENDWAITSECONDS=%u\n", cfg_tf(c->end_wait), (unsigned)c->end_wait_seconds);
    cfg_emit(o, "QUIETMS=%u\n", (unsigned)c->quiet_ms);
    cfg_emit(o, "INJECTFAULT=%s\n", config_fault_name(c->inject_fault));
    if (c->inject_where[0])
        cfg_emit(o, "INJECTIN=%s\n", c->inject_where);
    else
        cfg_emit(o, "# INJECTIN=   (not set)\n");
    cfg_emit(o, "METHODSAMPLES=%u\nMETHODITERATIONS=%u\n", (unsigned)c->methods_samples,
             (unsigned)c->methods_iterations);
    cfg_emit(o, "IDLESECONDS=%u\nWATCHDOGSECONDS=%u\n", (unsigned)c->idle_seconds,
             (unsigned)c->watchdog_seconds);
}

static void cfg_emit_tests(struct cfg_out *o, const struct bm_config *c)
{
    /* CUSTOMRUN first: it resets every DOxxx. */
    cfg_emit(o, "CUSTOMRUN=%s\n", cfg_tf(c->customrun));
    for (int t = 0; t < BM_NTESTS; t++)
        cfg_emit(o, "%s=%s\n", cfg_do_names[t], cfg_tf(c->enabled[t]));
    for (int t = 0; t < BM_NTESTS; t++)
        if (c->min_seconds_set[t])
            cfg_emit(o, "%s=%u\n", cfg_minsec_names[t], (unsigned)c->min_seconds[t]);
        else
            cfg_emit(o, "# %s=%u   (not set: the profile decides)\n", cfg_minsec_names[t],
                     (unsigned)c->min_seconds[t]);
}

static void cfg_emit_sizes(struct cfg_out *o, const struct bm_config *c)
{
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        uint64_t v;
        if (p->alias || (p->kind != K_U64 && p->kind != K_U32) || p->own)
            continue;
        v = cfg_get(c, p);
        if (p->cmp == CMP_VALUE || v != 0) {
            if (p->cmp == CMP_NONE)     /* EMFLOOPS, ASSIGNARRAYS, IDEALOOPS */
                cfg_emit(o, "# %s has no effect, as in the reference:\n", p->name);
            cfg_emit(o, "%s=%llu\n", p->name, (unsigned long long)v);
        } else if (p->cmp == CMP_SIZE)
            cfg_emit(o, "# %s=%llu   (not set: the reference's size)\n", p->name,
                     (unsigned long long)p->ref);
        else
            cfg_emit(o, "# %s=   (not set: dynamic workload adjustment)\n", p->name);
    }
}

static void cfg_write(struct cfg_out *o, const struct bm_config *c)
{
    cfg_emit(o, "# baremark settings in command-file form\n");
    if (c->not_comparable)
        cfg_emit(o, "# NOT comparable with published BYTEmark scores: %s\n", c->not_comparable_why);
    else
        cfg_emit(o, "# workload comparable with published BYTEmark scores\n");
    cfg_emit(o, "# BYTEmark's parameters\n");
    cfg_emit(o, "ALLSTATS=%s\n", cfg_tf(c->allstats));
    if (c->outfile[0])
        cfg_emit(o, "OUTFILE=%s\n", c->outfile);
    else
        cfg_emit(o, "# OUTFILE=   (not set)\n");
    cfg_emit_tests(o, c);
    cfg_emit_sizes(o, c);
    cfg_emit_own(o, c);
}

size_t config_format(const struct bm_config *c, char *buf, size_t size)
{
    struct cfg_out o = { buf, size, 0, 0 };
    if (buf && size)
        buf[0] = 0;
    cfg_write(&o, c);
    return o.len;
}

void config_print(const struct bm_config *c)
{
    struct cfg_out o = { NULL, 0, 0, 1 };
    cfg_write(&o, c);
}

static void cfg_json_tests(struct json_writer *w, const struct bm_config *c)
{
    json_obj_begin(w, "tests");
    for (int t = 0; t < BM_NTESTS; t++) {
        json_obj_begin(w, cfg_test_keys[t]);
        json_bool(w, "enabled", c->enabled[t]);
        json_u64(w, "min_seconds", c->min_seconds[t]);
        json_bool(w, "min_seconds_set", c->min_seconds_set[t]);
        json_obj_end(w);
    }
    json_obj_end(w);
}

static void cfg_json_bytemark(struct json_writer *w, const struct bm_config *c)
{
    char key[32];
    json_obj_begin(w, "bytemark");
    json_bool(w, "allstats", c->allstats);
    json_bool(w, "customrun", c->customrun);
    if (c->outfile[0])
        json_str(w, "outfile", c->outfile);
    else
        json_null(w, "outfile");
    cfg_json_tests(w, c);
    /* sizes and counts by their reference names in lower case; null = not set */
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        size_t k;
        if (p->alias || p->own || (p->kind != K_U64 && p->kind != K_U32))
            continue;
        for (k = 0; p->name[k] && k + 1 < sizeof key; k++)
            key[k] = (char)cfg_lower((unsigned char)p->name[k]);
        key[k] = 0;
        if (p->cmp == CMP_VALUE || cfg_get(c, p))
            json_u64(w, key, cfg_get(c, p));
        else
            json_null(w, key);
    }
    json_obj_end(w);
}

void config_json(struct json_writer *w, const char *key, const struct bm_config *c)
{
    json_obj_begin(w, key);
    config_json_members(w, c);
    json_obj_end(w);
}

void config_json_members(struct json_writer *w, const struct bm_config *c)
{
    json_str(w, "profile", config_profile_name(c->profile));
    json_arr_begin(w, "sections");
    if (c->run_clock) json_str(w, NULL, "clock");
    if (c->run_methods) json_str(w, NULL, "methods");
    if (c->run_compare) json_str(w, NULL, "compare");
    if (c->run_bytemark) json_str(w, NULL, "bytemark");
    json_arr_end(w);
    json_bool(w, "comparable", !c->not_comparable);
    if (c->not_comparable)
        json_str(w, "not_comparable_why", c->not_comparable_why);
    else
        json_null(w, "not_comparable_why");
    json_bool(w, "verify", c->run_verify);
    json_bool(w, "qemu_exit", c->qemu_exit);
    json_bool(w, "shutdown", c->shutdown);
    json_bool(w, "end_wait", c->end_wait);
    json_u64(w, "end_wait_seconds", c->end_wait_seconds);
    json_u64(w, "quiet_ms", c->quiet_ms);
    json_str(w, "inject_fault", config_fault_name(c->inject_fault));
    if (c->inject_where[0])
        json_str(w, "inject_in", c->inject_where);
    else
        json_null(w, "inject_in");
    json_u64(w, "methods_samples", c->methods_samples);
    json_u64(w, "methods_iterations", c->methods_iterations);
    json_u64(w, "idle_seconds", c->idle_seconds);
    json_u64(w, "watchdog_seconds", c->watchdog_seconds);
    cfg_json_bytemark(w, c);
}

const char *config_profile_name(enum bm_profile p)
{
    return (unsigned)p < 3 ? cfg_profile_names[p] : "?";
}

const char *config_fault_name(int fault)
{
    return fault >= 0 && fault < 4 ? cfg_fault_names[fault] : "?";
}
