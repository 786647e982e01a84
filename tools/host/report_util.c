/*
 * tools/host/report_util.c - see report_util.h.
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

/* SVG geometry (px): plot size and margins for labels. */
#define SVG_W       520
#define SVG_H       184
#define SVG_LEFT    56
#define SVG_BOTTOM  44
/* The axis labels' line, and below it the line of the edge notes. */
#define SVG_LABEL_Y (SVG_H - SVG_BOTTOM + 14)
#define SVG_EDGE_Y  (SVG_H - 4)
#define SVG_TOP     30
#define SVG_RIGHT   10
#define STRIP_DOT   1.6

/* ---- JSON ------------------------------------------------------------------- */

json_t *rj_load(const char *path, char *err, size_t err_size)
{
    json_error_t e;
    struct stat st;
    char shown[600];
    rj_term_str(shown, sizeof shown, path, 200);
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
                 rj_term_str(why, sizeof why, e.text, 160));
        return NULL;
    }
    if (!json_is_object(root)) {
        snprintf(err, err_size, "%s: the top level is not an object", shown);
        json_decref(root);
        return NULL;
    }
    return root;
}

int rj_check_input(const char *cmd, const char *path)
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
    fprintf(stderr, "baremark %s: %s: %s\n", cmd, rj_term_str(shown, sizeof shown, path, 200), why);
    return 2;
}

json_t *rj_get(json_t *root, const char *path)
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

double rj_num(json_t *obj, const char *key, double dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *rj_str(json_t *obj, const char *key, const char *dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : dflt;
}

const char *rj_run_profile(json_t *root, const char *dflt)
{
    json_t *v = NULL;
    for (size_t i = 0; run_profile_members[i] && !json_is_string(v); i++)
        v = rj_get(root, run_profile_members[i]);
    return json_is_string(v) ? json_string_value(v) : dflt;
}

int rj_bool(json_t *obj, const char *key, int dflt)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_boolean(v) ? json_is_true(v) : dflt;
}

json_t *rj_first_array(json_t *obj, const char *const *names)
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

size_t rj_numbers(json_t *arr, double **out)
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

json_t *rj_samples(json_t *obj)
{
    static const char *const names[] = { "samples", "raw", NULL };
    return rj_first_array(obj, names);
}

json_t *rj_list(json_t *section, const char *const *names)
{
    if (json_is_array(section))
        return section;
    return rj_first_array(section, names);
}

/* ---- HTML ------------------------------------------------------------------- */

/* Every text of a page goes through here: markup characters become
 * entities (in text and in quoted attributes alike), control characters
 * a visible \xNN. */
void rj_html(FILE *f, const char *s)
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

char *rj_term_str(char *buf, size_t size, const char *s, size_t max)
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

void rj_term(FILE *f, const char *s, size_t max)
{
    char buf[4096];
    fputs(rj_term_str(buf, sizeof buf, s, max), f);
}

const char *rj_fmt(char *buf, size_t n, double v)
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

/* ---- SVG -------------------------------------------------------------------- */

static void range_of(const double *x, size_t n, double *lo, double *hi)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] < *lo)
            *lo = x[i];
        if (x[i] > *hi)
            *hi = x[i];
    }
}

/* Tukey's outer fences of one sample (Q1 - 3 IQR, Q3 + 3 IQR); 0 when the
 * sample is empty or cannot be summarised. */
static int outer_fences(const double *x, size_t n, double *lo, double *hi)
{
    struct stats_summary s;
    double *scratch = n ? malloc(n * sizeof *scratch) : NULL;
    int ok = scratch && stats_summary_double(x, n, scratch, NULL, &s) == 0;
    free(scratch);
    if (ok) {
        *lo = s.outliers.outer_lo;
        *hi = s.outliers.outer_hi;
    }
    return ok;
}

/* The range a plot shows, as the serial histograms choose it
 * (bench/compare/compare.c): the samples' min..max narrowed to the widest of A's
 * and B's outer Tukey fences, or min..max when that leaves nothing.
 * Values beyond it are drawn at its edge and counted there. */
static void plot_range(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY, flo = INFINITY, fhi = -INFINITY, l, h;
    range_of(a, na, &mn, &mx);
    range_of(b, nb, &mn, &mx);
    if (outer_fences(a, na, &l, &h))
        flo = fmin(flo, l), fhi = fmax(fhi, h);
    if (outer_fences(b, nb, &l, &h))
        flo = fmin(flo, l), fhi = fmax(fhi, h);
    *lo = fmax(mn, flo);
    *hi = fmin(mx, fhi);
    if (!(*hi > *lo)) {
        *lo = mn;
        *hi = mx;
    }
}

static size_t count_outside(const double *x, size_t n, double lo, double hi, size_t *below)
{
    size_t above = 0;
    for (size_t i = 0; i < n; i++) {
        *below += x[i] < lo;
        above += x[i] > hi;
    }
    return above;
}

/* Where v falls in lo..hi as a fraction 0..1 (clamped; long double so that
 * a span near DBL_MAX does not overflow into inf or nan). */
static double frac(double v, double lo, double hi)
{
    long double span = (long double)hi - (long double)lo;
    long double t = span > 0 ? ((long double)v - (long double)lo) / span : 0.5L;
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    return (double)t;
}

static int all_integers(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != floor(x[i]))
            return 0;
    return 1;
}

/* Bins over lo..hi (plot_range): one per integer value when the samples
 * are integers spanning at most RJ_HIST_BINS values (tick counts usually
 * are; then hi becomes hi + 1 so each bin holds exactly one value), else
 * RJ_HIST_BINS equal bins (fewer for tiny samples); 1 when lo == hi. */
static size_t hist_layout(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
    size_t n = na + nb;
    if (*hi == *lo)
        return 1;
    if (all_integers(a, na) && all_integers(b, nb) && *hi - *lo + 1 <= RJ_HIST_BINS) {
        *hi += 1;
        return (size_t)(*hi - *lo);
    }
    return n < RJ_HIST_BINS ? (n ? n : 1) : RJ_HIST_BINS;
}

/* Counts of x in `bins` equal bins over lo..hi, values beyond counted in
 * the edge bins (so the bars add up to every sample). */
static void hist_count(const double *x, size_t n, double lo, double hi, size_t *counts, size_t bins)
{
    long double span = (long double)hi - (long double)lo;
    for (size_t i = 0; i < n; i++) {
        /* multiply before dividing: integer bins land exactly */
        long double t = span > 0 ? ((long double)x[i] - (long double)lo) * (long double)bins / span : 0;
        size_t k = !(t > 0) ? 0 : t >= (long double)bins ? bins - 1 : (size_t)t;
        counts[k]++;
    }
}

/* The count axis: 0, half and the largest count, with ticks. */
static void svg_count_axis(FILE *f, size_t maxc)
{
    int x0 = SVG_LEFT, y0 = SVG_H - SVG_BOTTOM, ph = SVG_H - SVG_TOP - SVG_BOTTOM;
    size_t marks[3] = { 0, maxc / 2, maxc };
    for (int k = 0; k < 3; k++) {
        if (k == 1 && (maxc < 4))
            continue;
        double y = y0 - (maxc ? ph * (double)marks[k] / (double)maxc : 0);
        fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                "<text x=\"%d\" y=\"%.1f\" class=\"lbl count\" text-anchor=\"end\">%zu</text>",
                x0 - 4, y, x0, y, x0 - 6, y + 4, marks[k]);
    }
}

static void svg_axes(FILE *f, double lo, double hi, const char *xlabel, const char *ylabel)
{
    char b1[32], b2[32];
    int x0 = SVG_LEFT, y0 = SVG_H - SVG_BOTTOM;
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
            x0, y0, SVG_W - SVG_RIGHT, y0);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
            x0, SVG_TOP, x0, y0);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl\" text-anchor=\"middle\">", (x0 + SVG_W) / 2, SVG_LABEL_Y);
    if (hi > lo) {
        rj_html(f, xlabel);
        fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"lbl\">%s", x0, SVG_LABEL_Y, rj_fmt(b1, sizeof b1, lo));
        fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"lbl\" text-anchor=\"end\">%s",
                SVG_W - SVG_RIGHT, SVG_LABEL_Y, rj_fmt(b2, sizeof b2, hi));
    } else {            /* a single value: said once, under its bar */
        fprintf(f, "every sample: %s ", rj_fmt(b1, sizeof b1, lo));
        rj_html(f, xlabel);
    }
    fprintf(f, "</text><text x=\"4\" y=\"%d\" class=\"lbl\">", SVG_TOP - 10);
    rj_html(f, ylabel);
    fputs("</text>", f);
}

/* "3 below 120 drawn at the edge" labels of a plot's range. */
static void svg_edge_notes(FILE *f, size_t below, size_t above, double lo, double hi, int y)
{
    char b[32];
    if (below)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl edge\" data-below=\"%zu\">&#9664; %zu below %s (at the edge)</text>",
                SVG_LEFT + 2, y, below, below, rj_fmt(b, sizeof b, lo));
    if (above)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl edge\" text-anchor=\"end\" data-above=\"%zu\">%zu above %s (at the "
                "edge) &#9654;</text>", SVG_W - SVG_RIGHT - 2, y, above, above, rj_fmt(b, sizeof b, hi));
}

static void svg_bars(FILE *f, const size_t *counts, size_t bins, size_t maxc,
                     const char *cls, double shrink)
{
    double pw = SVG_W - SVG_LEFT - SVG_RIGHT, ph = SVG_H - SVG_TOP - SVG_BOTTOM;
    double bw = pw / (double)bins;
    if (bins == 1)      /* one value: a single bar at it, not a band over the axis */
        bw = pw / RJ_HIST_BINS;
    for (size_t k = 0; k < bins; k++) {
        double h = maxc ? ph * (double)counts[k] / (double)maxc : 0;
        double x = bins == 1 ? SVG_LEFT + (pw - bw) / 2 + bw * shrink / 2 : SVG_LEFT + k * bw + bw * shrink / 2;
        fprintf(f, "<rect class=\"bar %s\" data-count=\"%zu\" x=\"%.2f\" y=\"%.2f\" "
                "width=\"%.2f\" height=\"%.2f\"><title>%zu</title></rect>",
                cls, counts[k], x, SVG_H - SVG_BOTTOM - h, bw * (1 - shrink), h, counts[k]);
    }
}

void rj_svg_histogram(FILE *f, const double *a, size_t na, const double *b, size_t nb,
                      const char *unit, const char *label_a, const char *label_b)
{
    double lo, hi;
    size_t bins, maxc = 0, below = 0, above;
    size_t *ca, *cb;

    if (na + nb == 0) {
        fputs("<p class=\"none\">no samples</p>", f);
        return;
    }
    plot_range(a, na, b, nb, &lo, &hi);
    above = count_outside(a, na, lo, hi, &below) + count_outside(b, nb, lo, hi, &below);
    double shown_hi = hi;
    bins = hist_layout(a, na, b, nb, &lo, &hi);
    ca = calloc(bins, sizeof *ca);
    cb = calloc(bins, sizeof *cb);
    if (!ca || !cb) {
        free(ca);
        free(cb);
        return;
    }
    hist_count(a, na, lo, hi, ca, bins);
    hist_count(b, nb, lo, hi, cb, bins);
    for (size_t k = 0; k < bins; k++) {
        if (ca[k] > maxc)
            maxc = ca[k];
        if (cb[k] > maxc)
            maxc = cb[k];
    }
    fprintf(f, "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" data-bins=\"%zu\" data-n-a=\"%zu\" data-n-b=\"%zu\" data-below=\"%zu\" "
            "data-above=\"%zu\">", SVG_W, SVG_H, SVG_W, SVG_H, bins, na, nb, below, above);
    svg_bars(f, ca, bins, maxc, "bar-a", nb ? 0.1 : 0.1);
    if (nb)
        svg_bars(f, cb, bins, maxc, "bar-b", 0.35);
    svg_axes(f, lo, bins == 1 ? lo : hi, unit, "count");
    svg_count_axis(f, maxc);
    svg_edge_notes(f, below, above, lo, shown_hi, SVG_EDGE_Y);
    if (nb) {
        fprintf(f, "<rect class=\"key-a\" x=\"%d\" y=\"4\" width=\"10\" height=\"10\"/>"
                "<text x=\"%d\" y=\"13\" class=\"lbl\">A: ", SVG_W - 300, SVG_W - 286);
        rj_html(f, label_a);
        fprintf(f, "</text><rect class=\"key-b\" x=\"%d\" y=\"4\" width=\"10\" height=\"10\"/>"
                "<text x=\"%d\" y=\"13\" class=\"lbl\">B: ", SVG_W - 150, SVG_W - 136);
        rj_html(f, label_b);
        fputs("</text>", f);
    }
    fputs("</svg>", f);
    free(ca);
    free(cb);
}

/* One series of dots as a single path (a small "h" stroke per sample keeps
 * the file small even for 10^4 samples); a value beyond lo..hi is drawn at
 * the edge. */
static void strip_series(FILE *f, const double *x, size_t n, size_t stride, size_t offset,
                         size_t total, double lo, double hi, const char *cls)
{
    double pw = SVG_W - SVG_LEFT - SVG_RIGHT, ph = SVG_H - SVG_TOP - SVG_BOTTOM;
    fprintf(f, "<path class=\"dots %s\" data-n=\"%zu\" d=\"", cls, n);
    for (size_t i = 0; i < n; i++) {
        double px = SVG_LEFT + pw * (double)(i * stride + offset) / (double)(total > 1 ? total - 1 : 1);
        double py = SVG_H - SVG_BOTTOM - ph * (hi > lo ? frac(x[i], lo, hi) : 0.5);
        fprintf(f, "M%.1f %.1fh%.1f", px, py, STRIP_DOT);
    }
    fputs("\"/>", f);
}

void rj_svg_strip(FILE *f, const double *a, size_t na, const double *b, size_t nb,
                  const char *unit)
{
    double lo, hi;
    size_t total = na + nb, below = 0, above;
    if (total == 0) {
        fputs("<p class=\"none\">no samples</p>", f);
        return;
    }
    plot_range(a, na, b, nb, &lo, &hi);
    above = count_outside(a, na, lo, hi, &below) + count_outside(b, nb, lo, hi, &below);
    fprintf(f, "<svg class=\"strip\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" data-n-a=\"%zu\" data-n-b=\"%zu\" data-below=\"%zu\" data-above=\"%zu\">",
            SVG_W, SVG_H, SVG_W, SVG_H, na, nb, below, above);
    /* Interleaved as they were taken (ABAB): A at even, B at odd positions. */
    strip_series(f, a, na, nb ? 2 : 1, 0, nb ? 2 * (na > nb ? na : nb) : na, lo, hi, "dots-a");
    if (nb)
        strip_series(f, b, nb, 2, 1, 2 * (na > nb ? na : nb), lo, hi, "dots-b");
    char b1[32], b2[32];
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
            SVG_LEFT, SVG_H - SVG_BOTTOM, SVG_W - SVG_RIGHT, SVG_H - SVG_BOTTOM);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
            SVG_LEFT, SVG_TOP, SVG_LEFT, SVG_H - SVG_BOTTOM);
    if (hi > lo) {
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl\">%s</text>", SVG_H - SVG_BOTTOM, rj_fmt(b1, sizeof b1, lo));
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl\">%s</text>", SVG_TOP + 8, rj_fmt(b2, sizeof b2, hi));
    } else {
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl single\">%s</text>", SVG_TOP + (SVG_H - SVG_TOP - SVG_BOTTOM) / 2 + 4,
                rj_fmt(b1, sizeof b1, lo));
    }
    svg_edge_notes(f, below, above, lo, hi, SVG_EDGE_Y);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl\" text-anchor=\"middle\">sample, in the order taken"
            " (value in ", (SVG_LEFT + SVG_W) / 2, SVG_LABEL_Y);
    rj_html(f, unit);
    fputs(")</text></svg>", f);
}

void rj_svg_runs(FILE *f, const double *x, size_t n, double mean, double half)
{
    const double w = 240, h = 22, pad = 8;
    double lo = INFINITY, hi = -INFINITY;
    range_of(x, n, &lo, &hi);
    if (isfinite(mean) && isfinite(half)) {
        lo = fmin(lo, mean - half);
        hi = fmax(hi, mean + half);
    } else {
        mean = half = NAN;
    }
    if (!(hi >= lo) || !isfinite(lo) || !isfinite(hi)) {
        fputs("-", f);
        return;
    }
#define RUNX(v) (pad + (w - 2 * pad) * (hi > lo ? frac((v), lo, hi) : 0.5))
    fprintf(f, "<svg class=\"runs\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" data-n=\"%zu\">",
            w, h, n);
    if (!isnan(mean) && !isnan(half))
        fprintf(f, "<rect class=\"ci-bar\" x=\"%.1f\" y=\"5\" width=\"%.1f\" height=\"12\"><title>95%% interval</title></rect>"
                "<line class=\"ci-err\" x1=\"%.1f\" y1=\"3\" x2=\"%.1f\" y2=\"19\"/>",
                RUNX(mean - half), RUNX(mean + half) - RUNX(mean - half), RUNX(mean), RUNX(mean));
    for (size_t i = 0; i < n; i++)
        fprintf(f, "<circle class=\"run\" cx=\"%.1f\" cy=\"11\" r=\"2.5\"/>", RUNX(x[i]));
#undef RUNX
    fputs("</svg>", f);
}

/* ---- finding things ----------------------------------------------------------- */

const char *rj_name(json_t *el, const char *dflt)
{
    static const char *const keys[] = { "name", "key", "method", "test", "source", "reference", NULL };
    for (const char *const *k = keys; *k; k++) {
        const char *s = rj_str(el, *k, NULL);
        if (s)
            return s;
    }
    return dflt;
}

json_t *rj_fig(json_t *base, const struct figure_table *t, unsigned id)
{
    const char *p = figures_row_tail(t, id);
    char seg[64];
    while (base && *p) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof seg)
            return NULL;
        memcpy(seg, p, n);
        seg[n] = 0;
        base = json_object_get(base, seg);
        p += n + (p[n] == '.');
    }
    return base;
}

double rj_fig_num(json_t *base, const struct figure_table *t, unsigned id)
{
    json_t *v = rj_fig(base, t, id);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

size_t rj_ab_samples(json_t *cmp, int side, double **out, const char **label)
{
    static const char *const obj_a[] = { "a", "A", NULL }, *const obj_b[] = { "b", "B", NULL };
    static const char *const arr_a[] = { "samples_a", "a_samples", "raw_a", NULL };
    static const char *const arr_b[] = { "samples_b", "b_samples", "raw_b", NULL };
    const char *const *names = side ? obj_b : obj_a;
    *label = side ? "B" : "A";
    for (; *names; names++) {
        json_t *o = json_object_get(cmp, *names);
        if (json_is_object(o)) {
            *label = rj_name(o, *label);
            return rj_numbers(rj_samples(o), out);
        }
    }
    return rj_numbers(rj_first_array(cmp, side ? arr_b : arr_a), out);
}

int rj_ab_ratio(json_t *cmp, struct stats_ab *out)
{
    json_t *r = json_object_get(cmp, "ratio");
    const char *side = rj_str(r, "faster", NULL);
    if (side) {
        out->faster = !strcmp(side, "a") ? STATS_AB_A : !strcmp(side, "b") ? STATS_AB_B : STATS_AB_NONE;
        out->estimate = rj_num(r, "estimate", NAN);
        out->lo = rj_num(r, "lo", NAN);
        out->hi = rj_num(r, "hi", NAN);
        out->p = rj_num(r, "p", NAN);
        out->u = NAN;
        return 0;
    }
    double *a = NULL, *b = NULL, *work = NULL;
    const char *la, *lb;
    size_t na = rj_ab_samples(cmp, 0, &a, &la), nb = rj_ab_samples(cmp, 1, &b, &lb);
    if (na && nb)
        work = malloc(STATS_AB_WORK(na, nb) * sizeof *work);
    int rc = stats_ab(a, na, b, nb, work, out);
    free(work);
    free(a);
    free(b);
    return rc;
}

size_t rj_run_scores(json_t *test, double **out)
{
    static const char *const names[] = { "scores", "runs", NULL };
    json_t *arr = rj_first_array(test, names);
    size_t i, n = 0;
    json_t *v;
    *out = NULL;
    if (!arr || json_array_size(arr) == 0)
        return 0;
    if (!json_is_object(json_array_get(arr, 0)))
        return rj_numbers(arr, out);
    *out = malloc(json_array_size(arr) * sizeof **out);
    if (!*out)
        return 0;
    json_array_foreach(arr, i, v) {
        json_t *s = json_object_get(v, "score");
        if (json_is_number(s))
            (*out)[n++] = json_number_value(s);
    }
    return n;
}

size_t rj_method_samples(json_t *m, double **out)
{
    json_t *s = rj_samples(m);
    if (!s)
        s = rj_samples(json_object_get(m, "overhead"));
    return rj_numbers(s, out);
}

json_t *rj_clock_refs(json_t *clock)
{
    static const char *const names[] = { "references", "refs", NULL };
    return rj_list(clock, names);
}

json_t *rj_methods_list(json_t *methods)
{
    static const char *const names[] = { "methods", "list", NULL };
    return rj_list(methods, names);
}

json_t *rj_comparisons_list(json_t *comparisons)
{
    static const char *const names[] = { "comparisons", "experiments", "list", NULL };
    return rj_list(comparisons, names);
}

json_t *rj_bytemark_tests(json_t *bytemark)
{
    static const char *const names[] = { "tests", "kernels", NULL };
    return rj_list(bytemark, names);
}

double rj_median(const double *x, size_t n)
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
