/*
 * bench/config/config_internal.h - what the settings files share: config.c (the
 * command-file and load-option parsers), config_params.c (the parameter
 * table, defaults, comparability, the sections' on/off set),
 * config_write.c (the settings as a command file, on serial and as JSON).
 * Not for other code: config.h is the interface.
 */
#ifndef BAREMARK_CONFIG_INTERNAL_H
#define BAREMARK_CONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config.h"

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


/* ---- types ----------------------------------------------------------------- */

enum cfg_kind {
    K_U64, K_U32, K_FLAG,       /* a number or flag stored at `offset` */
    K_MINSEC, K_ALLMINSEC,      /* xxxMINSECONDS (test), MINSECONDS */
    K_DO, K_CUSTOMRUN,          /* DOxxx (test), CUSTOMRUN */
    K_OUTFILE, K_PROFILE, K_SECTIONS, K_FAULT, K_INJECTIN,
    K_SECTION,                  /* a flag switching the section named `section` */
    K_CORES, K_SMP, K_SMPTESTS, /* the cores section's lists */
    K_PLUGINROUTINES, K_COMPARE, /* plug-in settings (strings) */
    K_COMPAREORDER,
    K_RESULTS, K_RESULTSKEY,    /* the results server (bench/upload/upload_proto.h) */
    K_RESULTSVIA, K_RESULTSCA
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
    const char *section;    /* K_SECTION: the section it switches (bench/sections.c) */
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

/* bench/config/config_params.c: the tables. */
extern const char *const cfg_do_names[BM_NTESTS];
extern const char *const cfg_minsec_names[BM_NTESTS];
extern const struct cfg_param cfg_params[];
extern const size_t cfg_nparams;
#define CFG_NPARAMS cfg_nparams
extern const char *const cfg_profile_names[3];
extern const char *const cfg_fault_names[5];
extern const char *const cfg_via_names[3];     /* RESULTS_VIA= words, BM_VIA_* order */
extern const char *const cfg_order_names[2];   /* COMPAREORDER= words, BM_ORDER_* order */
extern const char *const cfg_smp_names[3];   /* SMP= words, BM_SMP_* bit order */

/* The sections' on/off set (bm_config.sections).  The index of a section
 * by its name or label (any case), or -1; the bits of the sections
 * SECTIONS= selects (those without SECTION_OWN_SETTING); the default set. */
int cfg_section_index(const char *name);
uint32_t cfg_section_words(void);
uint32_t cfg_section_defaults(void);

/* A parameter's value (K_U64 or K_U32). */
uint64_t cfg_get(const struct bm_config *c, const struct cfg_param *p);
/* not_comparable and its reason, from the final values. */
void cfg_update_comparable(struct bm_config *c);

/* ---- values (bench/config/config_values.c): each checks one value, reports a bad
 * one through cfg_report (one line: what was wrong and what was kept) and
 * returns 0, or -1 when it was refused. ---- */
void cfg_report(struct cfg_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cfg_ranged(struct cfg_ctx *x, const struct cfg_param *p, const char *v, uint64_t *out);
int cfg_flag(struct cfg_ctx *x, const char *name, const char *v, int *out);
int cfg_enum(struct cfg_ctx *x, const char *name, const char *v, const char *const *names, int n, int *out);
int cfg_string(struct cfg_ctx *x, const char *name, const char *v, char *dst, size_t size, int (*ok)(int));
int cfg_compare(struct cfg_ctx *x, const char *v);
int cfg_sections(struct cfg_ctx *x, const char *v);
int cfg_cores(struct cfg_ctx *x, const char *name, const char *v);
int cfg_smp(struct cfg_ctx *x, const char *name, const char *v);
int cfg_smptests(struct cfg_ctx *x, const char *name, const char *v);
/* Characters allowed in a KEY=, PLUGINROUTINES= and OUTFILE= value. */
int cfg_key_char(int ch);
int cfg_routines_char(int ch);
int cfg_outfile_char(int ch);

/* ---- small string helpers (no <ctype.h> in portable code) ------------------- */

static inline int cfg_upper(int ch) { return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch; }
static inline int cfg_lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch; }
static inline int cfg_blank(int ch) { return ch == ' ' || ch == '\t'; }

static inline int cfg_ieq(const char *a, const char *b)
{
    while (*a && cfg_upper((unsigned char)*a) == cfg_upper((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

/* Trim blanks at both ends in place; returns the new start. */
static inline char *cfg_trim(char *s)
{
    size_t n;
    while (cfg_blank(*s))
        s++;
    n = strlen(s);
    while (n > 0 && cfg_blank(s[n - 1]))
        s[--n] = 0;
    return s;
}

#endif
