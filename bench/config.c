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

#include "config_internal.h"
#include "cores_math.h"
#include "section.h"
#include "out.h"

static const unsigned char cfg_bom[3] = { 0xEF, 0xBB, 0xBF };

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

/* OUTFILE is a file name inside the stick's \baremark\ folder, where the
 * image writes a copy of the run's log: nothing that could reach outside
 * it (a drive, a path, "..") nor a run's own file name. */
const char *config_outfile_why(const char *name)
{
    size_t n = strlen(name), digits = 0;
    if (!n)
        return NULL;
    if (strchr(name, ':'))
        return "a drive is not allowed (OUTFILE is a file name in \\baremark\\ on the stick)";
    if (strstr(name, ".."))
        return "'..' is not allowed (OUTFILE is a file name in \\baremark\\ on the stick)";
    if (strchr(name, '\\') || strchr(name, '/'))
        return "a path is not allowed (OUTFILE is a file name in \\baremark\\ on the stick)";
    if (name[0] == '.' || name[0] == ' ' || name[n - 1] == '.' || name[n - 1] == ' ')
        return "a name may not begin or end with a dot or a space";
    /* YYYYMMDD-HHMMSS...: the name of a run's files (boot/run.c) */
    while (digits < n && name[digits] >= '0' && name[digits] <= '9')
        digits++;
    if (digits == 8 && name[8] == '-')
        return "names starting YYYYMMDD- are the runs' own files";
    static const char plugins[] = "plugins";
    size_t k = 0;
    while (k < sizeof plugins - 1 && (name[k] | 0x20) == plugins[k])
        k++;
    if (k == sizeof plugins - 1 && !name[k])
        return "\\baremark\\plugins is the plug-ins' folder";
    return NULL;
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

/* PLUGINROUTINES: target names, '*', commas and blanks. */
static int cfg_routines_char(int ch)
{
    return cfg_key_char(ch) || ch == '*' || ch == ',' || ch == ' ';
}

/* COMPARE=A,B[;C,D...]: each pair two target names ([A-Za-z0-9_:.-]);
 * added after the pairs of earlier COMPARE lines. */
static int cfg_compare(struct cfg_ctx *x, const char *v)
{
    struct bm_config *c = x->c;
    char norm[CONFIG_LINE_MAX + 1];
    size_t k = 0, have = strlen(c->compare);
    const char *p = v;

    while (*p) {
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p), names = 0, len = 0;
        while (n && cfg_blank(*p))
            p++, n--;
        while (n && cfg_blank(p[n - 1]))
            n--;
        for (size_t i = 0; i <= n; i++) {
            char ch = i < n ? p[i] : ',';
            if (ch == ',') {
                if (!len) {
                    cfg_report(x, "COMPARE: '%.*s' is not a pair A,B of target names", (int)(n < CFG_SHOW ? n : CFG_SHOW), p);
                    return -1;
                }
                names++;
                len = 0;
            } else if (cfg_key_char((unsigned char)ch)) {
                len++;
            } else {
                cfg_report(x, "COMPARE: character '%c' not allowed in '%.*s'", ch, CFG_SHOW, v);
                return -1;
            }
        }
        if (names != 2) {
            cfg_report(x, "COMPARE: '%.*s' is not a pair A,B of target names", (int)(n < CFG_SHOW ? n : CFG_SHOW), p);
            return -1;
        }
        if (k)
            norm[k++] = ';';
        memcpy(norm + k, p, n);
        k += n;
        p = end ? end + 1 : p + strlen(p);
    }
    if (!k) {
        cfg_report(x, "COMPARE: no pair A,B given");
        return -1;
    }
    if (have + (have ? 1 : 0) + k >= sizeof c->compare) {
        cfg_report(x, "COMPARE: more comparisons than fit (%zu characters in all)", sizeof c->compare - 1);
        return -1;
    }
    if (have)
        c->compare[have++] = ';';
    memcpy(c->compare + have, norm, k);
    c->compare[have + k] = 0;
    return 0;
}

/* SECTIONS=all | none | a comma list of section names (bench/sections.c).
 * Sections with a setting of their own (VERIFY) keep their state. */
static int cfg_sections(struct cfg_ctx *x, const char *v)
{
    uint32_t words = cfg_section_words(), on = 0;
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
        if (!*t) {
            cfg_report(x, "SECTIONS: empty item in '%.*s'", CFG_SHOW, v);
            return -1;
        }
        i = cfg_section_index(t);
        if (i >= 0 && (words >> i & 1))
            on |= 1u << i;
        else if (cfg_ieq(t, "all"))
            on |= words;
        else if (!cfg_ieq(t, "none")) {
            char known[CFG_MSG_MAX];
            size_t k = 0;
            known[0] = 0;
            for (unsigned j = 0; j < section_count; j++) {
                size_t n = strlen(section_table[j].name);
                if (!(words >> j & 1) || k + n + 3 > sizeof known)
                    continue;
                memcpy(known + k, section_table[j].name, n);
                memcpy(known + k + n, ", ", 3);
                k += n + 2;
            }
            cfg_report(x, "SECTIONS: unknown section '%.*s' (%sall, none)", CFG_SHOW, t, known);
            return -1;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    x->c->sections = (x->c->sections & ~words) | on;
    return 0;
}

/* ---- the cores section's lists ---------------------------------------------- */

static int cfg_cores_char(int ch)
{
    return (ch >= '0' && ch <= '9') || ch == ',' || ch == '-' || (ch >= 'a' && ch <= 'z') ||
           (ch >= 'A' && ch <= 'Z');
}

/* CORES=all | 0,2-5: the syntax is checked here, the numbers against the
 * machine by the cores section. */
static int cfg_cores(struct cfg_ctx *x, const char *name, const char *v)
{
    const char *why = "";
    char tmp[sizeof x->c->cores_list];
    if (cfg_string(x, name, v, tmp, sizeof tmp, cfg_cores_char))
        return -1;
    if (cfg_ieq(tmp, "all"))
        snprintf(tmp, sizeof tmp, "all");
    if (cores_list_parse(tmp, NULL, 0, &why)) {
        cfg_report(x, "%s: '%.*s': %s", name, CFG_SHOW, v, why);
        return -1;
    }
    memcpy(x->c->cores_list, tmp, sizeof tmp);
    return 0;
}

/* A comma list of words from names[] (or all / none) into bits. */
static int cfg_word_list(struct cfg_ctx *x, const char *name, const char *v,
                         const char *const *names, int n, uint32_t all, uint32_t *out)
{
    char item[CONFIG_LINE_MAX + 1];
    const char *p = v;
    uint32_t bits = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int k;
        memcpy(item, p, len);
        item[len] = 0;
        char *t = cfg_trim(item);
        for (k = 0; k < n; k++)
            if (cfg_ieq(t, names[k]))
                break;
        if (k < n)
            bits |= 1u << k;
        else if (cfg_ieq(t, "all"))
            bits |= all;
        else if (!cfg_ieq(t, "none")) {
            cfg_report(x, "%s: unknown word '%.*s' (all, none, %s, ...)", name, CFG_SHOW, t, names[0]);
            return -1;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    *out = bits;
    return 0;
}

static int cfg_smp(struct cfg_ctx *x, const char *name, const char *v)
{
    uint32_t bits;
    if (cfg_word_list(x, name, v, cfg_smp_names, 3, BM_SMP_ALL, &bits))
        return -1;
    x->c->smp_parts = bits ? bits : BM_SMP_NONE;
    return 0;
}

static int cfg_smptests(struct cfg_ctx *x, const char *name, const char *v)
{
    uint32_t bits;
    if (cfg_word_list(x, name, v, cfg_test_keys, BM_NTESTS, (1u << BM_NTESTS) - 1, &bits))
        return -1;
    if (!bits) {
        cfg_report(x, "%s: no test named (use SMP= to leave the scores out)", name);
        return -1;
    }
    x->c->smp_tests = bits;
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
    case K_OUTFILE: {
        if (cfg_string(x, p->name, v, c->outfile, sizeof c->outfile, cfg_outfile_char))
            return -1;
        const char *why = config_outfile_why(c->outfile);
        if (why) {
            cfg_report(x, "%s: '%.*s' refused: %s; no copy of the log is written", p->name, CFG_SHOW, v, why);
            c->outfile[0] = 0;
            return -1;
        }
        return 0;
    }
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
