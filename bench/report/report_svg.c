/*
 * bench/report/report_svg.c - the report's plots as inline SVG (see
 * report_util.h): histograms of A and B on one scale, strip plots of the
 * samples, and a run-by-run series with its mean and interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_util.h"
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
 * are integers spanning at most SVG_HIST_BINS values (tick counts usually
 * are; then hi becomes hi + 1 so each bin holds exactly one value), else
 * SVG_HIST_BINS equal bins (fewer for tiny samples); 1 when lo == hi. */
static size_t hist_layout(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
    size_t n = na + nb;
    if (*hi == *lo)
        return 1;
    if (all_integers(a, na) && all_integers(b, nb) && *hi - *lo + 1 <= SVG_HIST_BINS) {
        *hi += 1;
        return (size_t)(*hi - *lo);
    }
    return n < SVG_HIST_BINS ? (n ? n : 1) : SVG_HIST_BINS;
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
        html_put(f, xlabel);
        fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"lbl\">%s", x0, SVG_LABEL_Y, num_text(b1, sizeof b1, lo));
        fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"lbl\" text-anchor=\"end\">%s",
                SVG_W - SVG_RIGHT, SVG_LABEL_Y, num_text(b2, sizeof b2, hi));
    } else {            /* a single value: said once, under its bar */
        fprintf(f, "every sample: %s ", num_text(b1, sizeof b1, lo));
        html_put(f, xlabel);
    }
    fprintf(f, "</text><text x=\"4\" y=\"%d\" class=\"lbl\">", SVG_TOP - 10);
    html_put(f, ylabel);
    fputs("</text>", f);
}

/* "3 below 120 drawn at the edge" labels of a plot's range. */
static void svg_edge_notes(FILE *f, size_t below, size_t above, double lo, double hi, int y)
{
    char b[32];
    if (below)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl edge\" data-below=\"%zu\">&#9664; %zu below %s (at the edge)</text>",
                SVG_LEFT + 2, y, below, below, num_text(b, sizeof b, lo));
    if (above)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl edge\" text-anchor=\"end\" data-above=\"%zu\">%zu above %s (at the "
                "edge) &#9654;</text>", SVG_W - SVG_RIGHT - 2, y, above, above, num_text(b, sizeof b, hi));
}

static void svg_bars(FILE *f, const size_t *counts, size_t bins, size_t maxc,
                     const char *cls, double shrink)
{
    double pw = SVG_W - SVG_LEFT - SVG_RIGHT, ph = SVG_H - SVG_TOP - SVG_BOTTOM;
    double bw = pw / (double)bins;
    if (bins == 1)      /* one value: a single bar at it, not a band over the axis */
        bw = pw / SVG_HIST_BINS;
    for (size_t k = 0; k < bins; k++) {
        double h = maxc ? ph * (double)counts[k] / (double)maxc : 0;
        double x = bins == 1 ? SVG_LEFT + (pw - bw) / 2 + bw * shrink / 2 : SVG_LEFT + k * bw + bw * shrink / 2;
        fprintf(f, "<rect class=\"bar %s\" data-count=\"%zu\" x=\"%.2f\" y=\"%.2f\" "
                "width=\"%.2f\" height=\"%.2f\"><title>%zu</title></rect>",
                cls, counts[k], x, SVG_H - SVG_BOTTOM - h, bw * (1 - shrink), h, counts[k]);
    }
}

void svg_histogram(FILE *f, const double *a, size_t na, const double *b, size_t nb,
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
        html_put(f, label_a);
        fprintf(f, "</text><rect class=\"key-b\" x=\"%d\" y=\"4\" width=\"10\" height=\"10\"/>"
                "<text x=\"%d\" y=\"13\" class=\"lbl\">B: ", SVG_W - 150, SVG_W - 136);
        html_put(f, label_b);
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

void svg_strip(FILE *f, const double *a, size_t na, const double *b, size_t nb,
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
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl\">%s</text>", SVG_H - SVG_BOTTOM, num_text(b1, sizeof b1, lo));
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl\">%s</text>", SVG_TOP + 8, num_text(b2, sizeof b2, hi));
    } else {
        fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl single\">%s</text>", SVG_TOP + (SVG_H - SVG_TOP - SVG_BOTTOM) / 2 + 4,
                num_text(b1, sizeof b1, lo));
    }
    svg_edge_notes(f, below, above, lo, hi, SVG_EDGE_Y);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lbl\" text-anchor=\"middle\">sample, in the order taken"
            " (value in ", (SVG_LEFT + SVG_W) / 2, SVG_LABEL_Y);
    html_put(f, unit);
    fputs(")</text></svg>", f);
}

void svg_runs(FILE *f, const double *x, size_t n, double mean, double half)
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
