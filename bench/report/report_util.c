/*
 * bench/report/report_util.c - see report_util.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "figures.h"
#include "report_util.h"
#include "run_profile.h"
#include "stats/stats.h"

/* ---- JSON ------------------------------------------------------------------- */

json_t *doc_load(const char *path, char *err, size_t err_size)
{
    json_error_t e;
    struct stat st;
    char shown[600];
    term_text(shown, sizeof shown, path, 200);
    if (stat(path, &st) != 0) {
        snprintf(err, err_size, "%s: %s", shown, errno == ENOENT ? "no such file" : strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s: is a directory (give a results file, RUN.json)", shown);
        return NULL;
    }
    json_t *root = json_load_file(path, JSON_DECODE_ANY, &e);
    if (!root) {
        char why[400];
        snprintf(err, err_size, "%s:%d:%d: not valid JSON: %s", shown, e.line, e.column,
                 term_text(why, sizeof why, e.text, 160));
        return NULL;
    }
    if (!json_is_object(root)) {
        snprintf(err, err_size, "%s: the top level is not an object", shown);
        json_decref(root);
        return NULL;
    }
    return root;
}

int doc_check_input(const char *cmd, const char *path)
{
    struct stat st;
    char shown[600];
    const char *why = NULL;
    if (stat(path, &st) != 0)
        why = errno == ENOENT ? "no such file" : strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = "is a directory (give a file)";
    if (!why)
        return 0;
    fprintf(stderr, "baremark %s: %s: %s\n", cmd, term_text(shown, sizeof shown, path, 200), why);
    return 2;
}

json_t *doc_get(json_t *root, const char *path)
{
    char key[128];
    json_t *cur = root;
    while (cur && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof key || !json_is_object(cur))
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        cur = json_object_get(cur, key);
        path += n + (dot ? 1 : 0);
    }
    return cur;
}

double doc_num(json_t *obj, const char *key, double dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *doc_str(json_t *obj, const char *key, const char *dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : dflt;
}

const char *doc_run_profile(json_t *root, const char *dflt)
{
    json_t *v = NULL;
    for (size_t i = 0; run_profile_members[i] && !json_is_string(v); i++)
        v = doc_get(root, run_profile_members[i]);
    return json_is_string(v) ? json_string_value(v) : dflt;
}

int doc_bool(json_t *obj, const char *key, int dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_boolean(v) ? json_is_true(v) : dflt;
}

json_t *doc_first_array(json_t *obj, const char *const *names)
{
    if (!json_is_object(obj))
        return NULL;
    for (; *names; names++) {
        json_t *v = json_object_get(obj, *names);
        if (json_is_array(v))
            return v;
    }
    return NULL;
}

size_t doc_numbers(json_t *arr, double **out)
{
    size_t i, n = 0;
    json_t *v;
    *out = NULL;
    if (!json_is_array(arr) || json_array_size(arr) == 0)
        return 0;
    *out = malloc(json_array_size(arr) * sizeof **out);
    if (!*out)
        return 0;
    json_array_foreach(arr, i, v)
        if (json_is_number(v))
            (*out)[n++] = json_number_value(v);
    if (n == 0) {
        free(*out);
        *out = NULL;
    }
    return n;
}

json_t *doc_samples(json_t *obj)
{
    json_t *v = json_object_get(obj, "samples");    /* not a row: an element's raw samples, rows "[*].*" */
    return json_is_array(v) ? v : NULL;
}

/* ---- HTML ------------------------------------------------------------------- */

/* Every text of a page goes through here: markup characters become
 * entities (in text and in quoted attributes alike), control characters
 * a visible \xNN. */
void html_put(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(f, "\\x%02x", c);
            else
                fputc(c, f);
        }
    }
}

/* Length of the valid UTF-8 sequence at s that is not a C1 control
 * (U+0080-U+009F), or 0. */
static size_t utf8_printable_len(const unsigned char *s)
{
    size_t n;
    unsigned cp;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1f;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0f;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((n == 2 && cp < 0xa0) || (n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
        || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n;
}

char *term_text(char *buf, size_t size, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t o = 0, shown = 0;
    if (!size)
        return buf;
    buf[0] = 0;
    for (; *p; shown++) {
        char piece[8];
        size_t len = 0, n;
        if (max && shown == max) {
            size_t rest = 0;
            for (const unsigned char *q = p; *q; q++)
                rest += (*q & 0xc0) != 0x80;
            snprintf(buf + o, size - o, "... (%zu more characters)", rest);
            return buf;
        }
        if (*p >= 0x20 && *p < 0x7f)
            piece[len++] = (char)*p++;
        else if (*p >= 0x80 && (n = utf8_printable_len(p)) > 0) {
            memcpy(piece, p, n);
            len = n;
            p += n;
        } else {
            len = (size_t)snprintf(piece, sizeof piece, "\\x%02x", *p++);
        }
        if (o + len + 1 > size)
            break;
        memcpy(buf + o, piece, len);
        o += len;
        buf[o] = 0;
    }
    return buf;
}

void term_put(FILE *f, const char *s, size_t max)
{
    char buf[4096];
    fputs(term_text(buf, sizeof buf, s, max), f);
}

const char *num_text(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else if (fabs(v) >= 1e5 && fabs(v) < 1e15)
        snprintf(buf, n, "%.1f", v);   /* kHz and scores keep their digits */
    else
        snprintf(buf, n, "%.6g", v);
    return buf;
}

/* ---- finding things ----------------------------------------------------------- */

const char *doc_name(json_t *el, const char *dflt)
{
    return doc_str(el, "name", dflt);
}

/* The value at the dotted path p[0..len) below base. */
static json_t *doc_walk(json_t *base, const char *p, size_t len)
{
    char seg[64];
    const char *end = p + len;
    while (base && p < end) {
        size_t n = strcspn(p, ".");
        if (n > (size_t)(end - p))
            n = (size_t)(end - p);
        if (n >= sizeof seg)
            return NULL;
        memcpy(seg, p, n);
        seg[n] = 0;
        base = json_object_get(base, seg);
        p += n + (p + n < end && p[n] == '.');
    }
    return base;
}

json_t *doc_fig(json_t *base, const struct figure_table *t, unsigned id)
{
    const char *p = figures_row_tail(t, id);
    return doc_walk(base, p, strlen(p));
}

json_t *doc_fig_list(json_t *base, const struct figure_table *t, unsigned id)
{
    const char *path = id < t->n ? t->rows[id].path : "", *from = path, *last = NULL, *p;
    for (p = path; (p = strstr(p, "[*]")); p += 3) {
        if (last)
            from = last + 3 + (last[3] == '.');
        last = p;
    }
    if (!last)
        return NULL;
    json_t *v = doc_walk(base, from, (size_t)(last - from));
    return json_is_array(v) ? v : NULL;
}

double doc_fig_num(json_t *base, const struct figure_table *t, unsigned id)
{
    json_t *v = doc_fig(base, t, id);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

size_t doc_run_scores(json_t *test, double **out)
{
    return doc_numbers(json_object_get(test, "scores"), out);
}

size_t doc_method_samples(json_t *m, double **out)
{
    json_t *s = doc_samples(m);
    if (!s)
        s = doc_samples(json_object_get(m, "overhead"));
    return doc_numbers(s, out);
}

double median_of(const double *x, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s), m;
    if (!s)
        return NAN;
    memcpy(s, x, n * sizeof *s);
    stats_sort_double(s, n);
    m = stats_percentile_sorted_double(s, n, 50);
    free(s);
    return m;
}
