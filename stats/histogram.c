/*
 * stats/histogram.c - binning (Karsh's LongArrayBin) and ASCII renderings
 * for a serial console: a histogram (his figure 2) and a strip of raw
 * samples in collection order (his figure 3).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

/* Narrowest plot area worth drawing, and the strip's default height. */
#define RENDER_MIN_COLS   8
#define STRIP_DEFAULT_ROWS 12
#define LABEL_MAX 32

/* ---- binning ------------------------------------------------------------ */

size_t stats_bin_index_u64(uint64_t x, uint64_t lo, uint64_t hi, size_t nbins)
{
    if (hi <= lo || nbins == 0)
        return 0;
    uint64_t span = hi - lo, d = x - lo;
    size_t k;
    if (span <= UINT64_MAX / nbins)
        k = (size_t)(d * nbins / span);
    else    /* exact with a 128-bit product (libgcc divides) */
        k = (size_t)((unsigned __int128)d * nbins / span);
    return k < nbins ? k : nbins - 1;
}

size_t stats_bin_index_double(double x, double lo, double hi, size_t nbins)
{
    if (!(hi > lo) || nbins == 0)
        return 0;
    double k = floor((x - lo) * (double)nbins / (hi - lo));
    if (!(k > 0))
        return 0;
    return k < (double)nbins ? (size_t)k : nbins - 1;
}

size_t stats_histogram_u64(const uint64_t *x, size_t n, uint64_t lo, uint64_t hi,
                           size_t *counts, size_t nbins)
{
    size_t left_out = 0;
    memset(counts, 0, nbins * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        if (x[i] < lo || x[i] > hi || nbins == 0)
            left_out++;
        else
            counts[stats_bin_index_u64(x[i], lo, hi, nbins)]++;
    }
    return left_out;
}

size_t stats_histogram_double(const double *x, size_t n, double lo, double hi,
                              size_t *counts, size_t nbins)
{
    size_t left_out = 0;
    memset(counts, 0, nbins * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] >= lo && x[i] <= hi) || nbins == 0)
            left_out++;
        else
            counts[stats_bin_index_double(x[i], lo, hi, nbins)]++;
    }
    return left_out;
}

double stats_bin_edge(double lo, double hi, size_t nbins, size_t k)
{
    if (k >= nbins)
        return hi;
    return lo + (double)k * (hi - lo) / (double)nbins;
}

/* ---- text output into a caller's buffer (snprintf semantics) ----------- */

struct text {
    char *buf;
    size_t cap, len;    /* len counts what the whole text needs */
};

static void text_printf(struct text *t, const char *fmt, ...)
{
    char *dst = t->len < t->cap ? t->buf + t->len : NULL;
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->len += (size_t)w;
}

static void text_repeat(struct text *t, char c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t->len + 1 < t->cap) {
            t->buf[t->len] = c;
            t->buf[t->len + 1] = 0;
        }
        t->len++;
    }
}

static size_t text_done(struct text *t)
{
    if (t->cap > 0 && t->len >= t->cap)
        t->buf[t->cap - 1] = 0;
    return t->len;
}

static unsigned clamp_cols(unsigned cols)
{
    if (cols == 0 || cols > STATS_RENDER_MAX_COLS)
        return STATS_RENDER_MAX_COLS;
    return cols < RENDER_MIN_COLS ? RENDER_MIN_COLS : cols;
}

/* Decimals for bin edges `step` apart: none when every edge is a whole
 * number, else enough for about two significant digits of the step. */
static int label_decimals(double lo, double step, size_t nedges)
{
    if (!(step > 0))
        return 0;
    int whole = 1;
    for (size_t k = 0; k < nedges && whole; k++) {
        double e = lo + (double)k * step;
        whole = e == floor(e);
    }
    if (whole)
        return 0;
    int d = 2 - (int)floor(log10(step));
    return d < 1 ? 1 : d > 6 ? 6 : d;
}

static int format_value(char *s, size_t cap, double v, int decimals)
{
    if (fabs(v) >= 1e15)
        return snprintf(s, cap, "%.6g", v);
    return snprintf(s, cap, "%.*f", decimals, v);
}

/* ---- histogram ---------------------------------------------------------- */

size_t stats_render_histogram(char *buf, size_t cap, const size_t *counts,
                              size_t nbins, double lo, double hi, unsigned cols)
{
    struct text t = { buf, cap, 0 };
    if (cap > 0)
        buf[0] = 0;
    cols = clamp_cols(cols);
    size_t maxc = 0;
    for (size_t k = 0; k < nbins; k++)
        if (counts[k] > maxc)
            maxc = counts[k];
    int dec = label_decimals(lo, nbins ? (hi - lo) / (double)nbins : 0, nbins + 1);
    int wl = 1, wc = 1;
    char s[LABEL_MAX];
    for (size_t k = 0; k <= nbins; k++) {
        int w = format_value(s, sizeof s, stats_bin_edge(lo, hi, nbins, k), dec);
        if (w > wl)
            wl = w;
    }
    wc = snprintf(s, sizeof s, "%zu", maxc);
    /* "[lo, hi) count |" then the bar, then the newline */
    int fixed = 1 + wl + 2 + wl + 1 + 1 + wc + 2;
    int bar_room = (int)cols - 1 - fixed;
    if (bar_room < 1)
        bar_room = 1;
    for (size_t k = 0; k < nbins; k++) {
        char a[LABEL_MAX], b[LABEL_MAX];
        format_value(a, sizeof a, stats_bin_edge(lo, hi, nbins, k), dec);
        format_value(b, sizeof b, stats_bin_edge(lo, hi, nbins, k + 1), dec);
        size_t bar = maxc ? (size_t)((double)counts[k] * bar_room / (double)maxc + 0.5) : 0;
        if (counts[k] > 0 && bar == 0)
            bar = 1;    /* a nonempty bin always shows */
        text_printf(&t, "[%*s, %*s%c %*zu |", wl, a, wl, b, k + 1 == nbins ? ']' : ')',
                    wc, counts[k]);
        text_repeat(&t, '#', bar);
        text_printf(&t, "\n");
    }
    return text_done(&t);
}

/* ---- strip of raw samples ------------------------------------------------ */

static size_t strip_render(struct text *t, const struct stats_view *v, double min_off,
                           double max_off, unsigned rows, unsigned cols)
{
    size_t n = v->n;
    double base = stats_view_base(v);
    if (rows == 0)
        rows = STRIP_DEFAULT_ROWS;
    cols = clamp_cols(cols);
    int dec = label_decimals(base + min_off, (max_off - min_off) / rows, rows);
    char s[LABEL_MAX];
    int wl = format_value(s, sizeof s, base + max_off, dec);
    int w2 = format_value(s, sizeof s, base + min_off, dec);
    if (w2 > wl)
        wl = w2;
    size_t plot = (size_t)((int)cols - 1 - wl - 2 > 1 ? (int)cols - 1 - wl - 2 : 1);
    size_t per = (n + plot - 1) / plot;
    size_t used = (n + per - 1) / per;
    for (unsigned r = rows; r-- > 0;) {
        double band_lo = min_off + (max_off - min_off) * r / rows;
        format_value(s, sizeof s, base + band_lo, dec);
        text_printf(t, "%*s |", wl, s);
        for (size_t c = 0; c < used; c++) {
            char mark = ' ';
            for (size_t i = c * per; i < n && i < (c + 1) * per; i++) {
                double x = stats_view_at(v, i);
                if (stats_bin_index_double(x, min_off, max_off, rows) == r) {
                    mark = '*';
                    break;
                }
            }
            text_printf(t, "%c", mark);
        }
        text_printf(t, "\n");
    }
    text_printf(t, "%*s +", wl, "");
    text_repeat(t, '-', used);
    text_printf(t, "\n%*s  samples 1..%zu, %zu per column\n", wl, "", n, per);
    return t->len;
}

size_t stats_render_strip_u64(char *buf, size_t cap, const uint64_t *x, size_t n,
                              unsigned rows, unsigned cols)
{
    struct text t = { buf, cap, 0 };
    if (cap > 0)
        buf[0] = 0;
    if (n == 0)
        return 0;
    uint64_t lo = x[0], hi = x[0];
    for (size_t i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    struct stats_view v = stats_view_u64(x, n, lo);
    strip_render(&t, &v, 0.0, (double)(hi - lo), rows, cols);
    return text_done(&t);
}

size_t stats_render_strip_double(char *buf, size_t cap, const double *x, size_t n,
                                 unsigned rows, unsigned cols)
{
    struct text t = { buf, cap, 0 };
    if (cap > 0)
        buf[0] = 0;
    if (n == 0)
        return 0;
    double lo = x[0], hi = x[0];
    for (size_t i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    struct stats_view v = stats_view_double(x, n);
    strip_render(&t, &v, lo, hi, rows, cols);
    return text_done(&t);
}
