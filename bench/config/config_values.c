/*
 * bench/config/config_values.c - the settings' values: numbers in their ranges,
 * flags, names, strings of allowed characters, the sections, comparisons
 * and the cores section's lists (the parser is config_parse.c; the rules
 * are documented in config.h).  A bad value is reported in one line and
 * leaves the setting as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"
#include "section.h"

/* ---- diagnostics --------------------------------------------------------------- */

void cfg_report(struct cfg_ctx *x, const char *fmt, ...)
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

int cfg_ranged(struct cfg_ctx *x, const struct cfg_param *p, const char *v, uint64_t *out)
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
int cfg_flag(struct cfg_ctx *x, const char *name, const char *v, int *out)
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

int cfg_enum(struct cfg_ctx *x, const char *name, const char *v,
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
int cfg_outfile_char(int ch)
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

int cfg_string(struct cfg_ctx *x, const char *name, const char *v, char *dst,
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

int cfg_key_char(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == ':' || ch == '_' || ch == '-' || ch == '.';
}

/* PLUGINROUTINES: target names, '*', commas and blanks. */
int cfg_routines_char(int ch)
{
    return cfg_key_char(ch) || ch == '*' || ch == ',' || ch == ' ';
}

/* COMPARE=A,B[;C,D...]: each pair two target names ([A-Za-z0-9_:.-]);
 * added after the pairs of earlier COMPARE lines. */
int cfg_compare(struct cfg_ctx *x, const char *v)
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
 * Sections with a setting of their own (VERIFY) keep their state.  An
 * unknown name is named and skipped; the names that are known still
 * choose the sections (sections=clock,bogus runs the clock alone).  Only
 * a list with no known name at all leaves the sections as they were. */
static void cfg_sections_unknown(struct cfg_ctx *x, const char *t, uint32_t words)
{
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
    cfg_report(x, "SECTIONS: unknown section '%.*s' skipped (%sall, none)", CFG_SHOW, t, known);
}

int cfg_sections(struct cfg_ctx *x, const char *v)
{
    uint32_t words = cfg_section_words(), on = 0;
    char item[CONFIG_LINE_MAX + 1];
    const char *p = v;
    int known = 0;

    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *t;
        int i;
        memcpy(item, p, n);
        item[n] = 0;
        t = cfg_trim(item);
        i = *t ? cfg_section_index(t) : -1;
        if (!*t)
            cfg_report(x, "SECTIONS: empty item in '%.*s' skipped", CFG_SHOW, v);
        else if (i >= 0 && (words >> i & 1))
            on |= 1u << i, known = 1;
        else if (cfg_ieq(t, "all"))
            on |= words, known = 1;
        else if (cfg_ieq(t, "none"))
            known = 1;
        else
            cfg_sections_unknown(x, t, words);
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!known)
        return -1;
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
int cfg_cores(struct cfg_ctx *x, const char *name, const char *v)
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

int cfg_smp(struct cfg_ctx *x, const char *name, const char *v)
{
    uint32_t bits;
    if (cfg_word_list(x, name, v, cfg_smp_names, 3, BM_SMP_ALL, &bits))
        return -1;
    x->c->smp_parts = bits ? bits : BM_SMP_NONE;
    return 0;
}

int cfg_smptests(struct cfg_ctx *x, const char *name, const char *v)
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
