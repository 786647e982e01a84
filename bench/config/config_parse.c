/*
 * bench/config/config_parse.c - the command-file and load-option parsers (format, ranges
 * and comparability rules are documented in config.h; each value is checked
 * by config_values.c).
 *
 * Every input byte sequence is legal input: the parser copies each line into
 * a bounded buffer only after checking its length and bytes, so nothing in
 * the input can make it read or write outside its buffers.  A line either
 * applies completely or not at all.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"
#include "section.h"
#include "upload_proto.h"

static const unsigned char cfg_bom[3] = { 0xEF, 0xBB, 0xBF };

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
    case K_OUTFILE: {
        if (cfg_string(x, p->name, v, c->outfile, sizeof c->outfile, cfg_outfile_char))
            return -1;
        const char *why = config_outfile_why(c->outfile);
        if (why) {
            cfg_report(x, "%s: '%.*s' refused: %s; no copy of the log is written", p->name, CFG_SHOW, v, why);
            /* all of it: settings compare with memcmp (the fuzzer's round trip) */
            memset(c->outfile, 0, sizeof c->outfile);
            return -1;
        }
        return 0;
    }
    case K_RESULTS: {
        struct upload_url u;
        const char *why;
        memset(c->results, 0, sizeof c->results);
        if (!*v)
            return 0;                   /* RESULTS= : no upload */
        if (strlen(v) >= sizeof c->results || upload_url_parse(v, &u, &why)) {
            cfg_report(x, "%s: '%.*s' refused: %s; the run is not sent anywhere", p->name, CFG_SHOW, v,
                       strlen(v) >= sizeof c->results ? "longer than 127 characters" : why);
            return -1;
        }
        memcpy(c->results, v, strlen(v));
        return 0;
    }
    case K_RESULTSKEY: {
        const char *why = upload_key_why(v);
        memset(c->results_key, 0, sizeof c->results_key);
        if (why) {          /* the key itself is never repeated */
            cfg_report(x, "%s refused: %s (1 to 128 printable characters); uploads will not be signed "
                       "and the run is not sent", p->name, why);
            return -1;
        }
        memcpy(c->results_key, v, strlen(v));
        return 0;
    }
    case K_RESULTSCA:
        if (cfg_string(x, p->name, v, c->results_ca, sizeof c->results_ca, cfg_outfile_char)) {
            memset(c->results_ca, 0, sizeof c->results_ca);
            return -1;
        }
        return 0;
    case K_RESULTSVIA:
        if (cfg_enum(x, p->name, v, cfg_via_names, 3, &f))
            return -1;
        c->results_via = f;
        return 0;
    case K_PROFILE:
        if (cfg_enum(x, p->name, v, cfg_profile_names, 3, &f))
            return -1;
        c->profile = (enum bm_profile)f;
        return 0;
    case K_SECTIONS:
        return cfg_sections(x, v);
    case K_SECTION: {
        int i = cfg_section_index(p->section);
        if (cfg_flag(x, p->name, v, &f))
            return -1;
        if (i >= 0)
            c->sections = f ? c->sections | 1u << i : c->sections & ~(1u << i);
        return 0;
    }
    case K_FAULT:
        if (cfg_enum(x, p->name, v, cfg_fault_names, 5, &f))
            return -1;
        c->inject_fault = f;
        return 0;
    case K_CORES:
        return cfg_cores(x, p->name, v);
    case K_SMP:
        return cfg_smp(x, p->name, v);
    case K_SMPTESTS:
        return cfg_smptests(x, p->name, v);
    case K_PLUGINROUTINES:
        return cfg_string(x, p->name, v, c->plugin_routines, sizeof c->plugin_routines, cfg_routines_char);
    case K_COMPARE:
        return cfg_compare(x, v);
    case K_COMPAREORDER:
        if (cfg_enum(x, p->name, v, cfg_order_names, 2, &f))
            return -1;
        c->compare_order = f;
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
