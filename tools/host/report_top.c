/*
 * tools/host/report_top.c - the report's first screen: the verdict as a
 * badge, the run's summary lines, every target's estimate with its 95%
 * interval, the A/B pairs as ratios, one dot plot per target across the
 * methods and one ratio plot of the pairs (inline SVG, no script).  It
 * draws the figures of report_glance.h and computes none of its own.
 *
 * Sized for 1280 x 800 (issue 22.2): the tables on the left, the plots on
 * the right; every number in a cell of class "n" (right-aligned, tabular
 * figures, never wrapped: tools/host/cmd_report.c's style).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_glance.h"
#include "report_parts.h"
#include "report_util.h"

/* Dot plot geometry (px): a label column, then the scale. */
#define DP_W      300
#define DP_LABEL  114
#define DP_RIGHT  10
#define DP_TOP    16
#define DP_ROW    10
#define DP_AXIS   16
/* Ratio plot: one row per pair. */
#define RP_W      608
#define RP_LABEL  180
#define RP_ROW    14

/* A figure for a cell: 4 significant digits, whole numbers from 1000. */
static const char *top_num(char *b, size_t n, double v)
{
    if (isnan(v) || isinf(v))
        snprintf(b, n, "-");
    else if (fabs(v) >= 1000)
        snprintf(b, n, "%.0f", v);
    else
        snprintf(b, n, "%.4g", v);
    return b;
}

static void top_badge(FILE *f, const struct rg_summary *s)
{
    static const char *const cls[] = { "completed", "warnings", "failed", "interrupted", "unknown" };
    char w[96];
    fprintf(f, "<span class=\"badge b-%s\" id=\"verdict\">", cls[s->verdict]);
    rj_html(f, rg_verdict_words(s, w, sizeof w));
    fputs("</span>", f);
}

/* The run's lines: verdict first, then each section's headline, in the
 * order a person asks (machine, clock, quiet, scores, cores, memory). */
static void top_lines(FILE *f, const struct rg_summary *s)
{
    static const struct { const char *section, *label; } rows[] = {
        { "machine", "machine" }, { "clock", "clock" }, { "quiet", "quiet" },
        { "bytemark", "BYTEmark" }, { "cores", "cores" }, { "memory", "memory" },
    };
    char w[96];
    fputs("<table id=\"glance-lines\" class=\"lines\"><tr><th>verdict</th><td>", f);
    rj_html(f, rg_verdict_words(s, w, sizeof w));
    if (s->first_warning) {
        fprintf(f, "; %zu warning%s, the first: ", s->warnings, s->warnings == 1 ? "" : "s");
        rj_html(f, s->first_warning);
    }
    if (s->profile) {
        fputs("; profile ", f);
        rj_html(f, s->profile);
    }
    if (s->started) {
        fputs("; started ", f);
        rj_html(f, s->started);
    }
    fputs("</td></tr>", f);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *h = rg_headline(s, rows[i].section);
        if (!h)
            continue;
        fprintf(f, "<tr><th>%s</th><td>", rows[i].label);
        rj_html(f, h);
        fputs("</td></tr>", f);
    }
    fputs("</table>", f);
}

static void top_target_row(FILE *f, const struct rg_target *t)
{
    char a[32], b[32], c[32], d[32];
    fputs("<tr data-target=\"", f);
    rj_html(f, t->name);
    fputs("\"><td>", f);
    rj_html(f, t->name);
    fputs("</td>", f);
    if (t->chosen < 0) {
        fprintf(f, "<td class=\"n est\">-</td><td class=\"n\">-</td><td class=\"n\">-</td>"
                "<td colspan=\"2\" class=\"none\">not told apart from the empty placeholder (%zu method%s)</td></tr>",
                t->n, t->n == 1 ? "" : "s");
        return;
    }
    const struct rg_method *m = &t->m[t->chosen];
    fprintf(f, "<td class=\"n est\">%s</td><td class=\"n\">%s&ndash;%s</td><td class=\"n\">%s</td><td>",
            top_num(a, sizeof a, m->ns), top_num(b, sizeof b, m->lo_ns), top_num(c, sizeof c, m->hi_ns),
            top_num(d, sizeof d, m->ticks));
    rj_html(f, m->name);
    fprintf(f, "</td><td class=\"n\">%zu of %zu</td></tr>", t->agree, t->ok);
}

static void top_targets(FILE *f, const struct rg_summary *s)
{
    if (!s->ntargets)
        return;
    fputs("<table id=\"targets\"><tr><th>target</th><th class=\"n\">ns/iter</th><th class=\"n\">95% interval</th>"
          "<th class=\"n\">ticks/iter</th><th>method</th><th class=\"n\">agree</th></tr>", f);
    for (size_t i = 0; i < s->ntargets; i++)
        top_target_row(f, &s->targets[i]);
    fputs("</table><p class=\"note\">Median net time per iteration, (T(N) &minus; median P(N)) / N, with its "
          "distribution-free 95% interval; method: the smallest (min T &minus; min P) / N among those told apart "
          "(the extended profile's rule); agree: methods whose interval meets the chosen one's.</p>", f);
}

/* "foo is 1.92x faster than bar" from the run's verdict and the ratio. */
static void top_finding(FILE *f, const struct rg_pair *p)
{
    char b[32];
    int faster = p->verdict && !strcmp(p->verdict, "faster"), slower = p->verdict && !strcmp(p->verdict, "slower");
    if ((faster || slower) && !isnan(p->ratio)) {
        rj_html(f, p->a);
        fprintf(f, " is %sx %s than ", top_num(b, sizeof b, faster ? p->ratio : 1 / p->ratio),
                faster ? "faster" : "slower");
        rj_html(f, p->b);
    } else if (p->verdict) {
        rj_html(f, !strcmp(p->verdict, "no difference") ? "no difference detected" : p->verdict);
    } else {
        fputs("no verdict in the file", f);
    }
    if (p->as_expected >= 0 && (p->control || !p->as_expected))
        fputs(p->as_expected ? " (control: as expected)" : " (control: NOT as expected)", f);
}

static void top_pairs(FILE *f, const struct rg_summary *s)
{
    char a[32], b[32], c[32], d[32];
    if (!s->npairs)
        return;
    fputs("<table id=\"pairs\"><tr><th>A/B</th><th>finding at 95%</th><th class=\"n\">B/A</th>"
          "<th class=\"n\">95% interval</th><th class=\"n\">p</th></tr>", f);
    for (size_t i = 0; i < s->npairs; i++) {
        const struct rg_pair *p = &s->pairs[i];
        fputs("<tr><td>", f);
        rj_html(f, p->name);
        fputs("</td><td>", f);
        top_finding(f, p);
        fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s&ndash;%s</td><td class=\"n\">%s</td></tr>",
                top_num(a, sizeof a, p->ratio), top_num(b, sizeof b, p->lo), top_num(c, sizeof c, p->hi),
                isnan(p->p) ? "-" : (snprintf(d, sizeof d, "%.2g", p->p), d));
    }
    fputs("</table><p class=\"note\">B/A: B's mean net time over A's (above 1: A is faster), within the run's "
          "pooled outer fences; p: Mann-Whitney, two-sided.  The finding is the run's own verdict.</p>", f);
}

/* ---- plots -------------------------------------------------------------------- */

static double top_x(double v, double lo, double hi, double x0, double x1)
{
    return x0 + (v - lo) / (hi - lo) * (x1 - x0);
}

/* The scale of a target's plot: every estimate and interval, padded. */
static void top_dot_range(const struct rg_target *t, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < t->n; i++) {
        const double v[3] = { t->m[i].ns, t->m[i].lo_ns, t->m[i].hi_ns };
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k])) {
                *lo = fmin(*lo, v[k]);
                *hi = fmax(*hi, v[k]);
            }
    }
    if (!isfinite(*lo)) {
        *lo = 0;
        *hi = 1;
    }
    double pad = (*hi - *lo) * 0.06;
    if (pad <= 0)
        pad = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 0.5;
    *lo -= pad;
    *hi += pad;
}

static void top_dot_row(FILE *f, const struct rg_method *m, int chosen, double y, double lo, double hi)
{
    double x0 = DP_LABEL, x1 = DP_W - DP_RIGHT;
    fprintf(f, "<g class=\"row%s%s\" data-method=\"", chosen ? " chosen" : "", m->ok ? "" : " notok");
    rj_html(f, m->name);
    fprintf(f, "\"><text x=\"%d\" y=\"%.1f\" class=\"lbl m\" text-anchor=\"end\">", DP_LABEL - 4, y + 3.5);
    rj_html(f, m->name);
    fputs("</text>", f);
    if (isfinite(m->lo_ns) && isfinite(m->hi_ns))
        fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
                top_x(m->lo_ns, lo, hi, x0, x1), top_x(m->hi_ns, lo, hi, x0, x1), y, y);
    if (isfinite(m->ns))
        fprintf(f, "<circle class=\"est\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>", top_x(m->ns, lo, hi, x0, x1), y,
                chosen ? "3.6" : "2.6");
    fputs("</g>", f);
}

static void top_dotplot(FILE *f, const struct rg_target *t)
{
    double lo, hi;
    char a[32], b[32];
    int h = DP_TOP + (int)t->n * DP_ROW + DP_AXIS;
    top_dot_range(t, &lo, &hi);
    fprintf(f, "<svg class=\"dotplot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-target=\"",
            DP_W, h, DP_W, h);
    rj_html(f, t->name);
    fprintf(f, "\" data-methods=\"%zu\"><text x=\"2\" y=\"11\" class=\"ttl\">", t->n);
    rj_html(f, t->name);
    fputs("</text><text x=\"", f);
    fprintf(f, "%d\" y=\"11\" class=\"lbl\" text-anchor=\"end\">ns per iteration</text>", DP_W - DP_RIGHT);
    for (size_t i = 0; i < t->n; i++)
        top_dot_row(f, &t->m[i], (int)i == t->chosen, DP_TOP + DP_ROW * (i + 0.5), lo, hi);
    int ya = DP_TOP + (int)t->n * DP_ROW + 2;
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
            "<text x=\"%d\" y=\"%d\" class=\"lbl\">%s</text><text x=\"%d\" y=\"%d\" class=\"lbl\" "
            "text-anchor=\"end\">%s</text></svg>", DP_LABEL, DP_W - DP_RIGHT, ya, ya, DP_LABEL, ya + 12,
            top_num(a, sizeof a, lo), DP_W - DP_RIGHT, ya + 12, top_num(b, sizeof b, hi));
}

static void top_log_ticks(FILE *f, double lo, double hi, int x0, int x1, int ya);

/* The pairs' ratios on one log scale that holds 1 and every interval. */
static void top_ratioplot(FILE *f, const struct rg_summary *s)
{
    double lo = 1, hi = 1;
    size_t drawn = 0;
    for (size_t i = 0; i < s->npairs; i++)
        if (isfinite(s->pairs[i].lo) && isfinite(s->pairs[i].hi) && s->pairs[i].lo > 0) {
            lo = fmin(lo, s->pairs[i].lo);
            hi = fmax(hi, s->pairs[i].hi);
            drawn++;
        }
    if (!s->npairs)
        return;
    lo = log10(lo) - 0.05;
    hi = log10(hi) + 0.05;
    int h = DP_TOP + (int)s->npairs * RP_ROW + DP_AXIS, x0 = RP_LABEL, x1 = RP_W - DP_RIGHT;
    fprintf(f, "<svg class=\"ratioplot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "data-pairs=\"%zu\" data-drawn=\"%zu\"><text x=\"2\" y=\"11\" class=\"ttl\">A/B pairs</text>"
            "<text x=\"%d\" y=\"11\" class=\"lbl\" text-anchor=\"end\">B's time / A's (log scale; right of 1: A "
            "faster)</text>", RP_W, h, RP_W, h, s->npairs, drawn, x1);
    double one = top_x(0, lo, hi, x0, x1);
    fprintf(f, "<line class=\"one\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>", one, one, DP_TOP - 2,
            DP_TOP + (int)s->npairs * RP_ROW);
    for (size_t i = 0; i < s->npairs; i++) {
        const struct rg_pair *p = &s->pairs[i];
        double y = DP_TOP + RP_ROW * (i + 0.5);
        fputs("<g class=\"row\"><text class=\"lbl\" text-anchor=\"end\" x=\"", f);
        fprintf(f, "%d\" y=\"%.1f\">", RP_LABEL - 5, y + 3.5);
        rj_html(f, p->name);
        fputs("</text>", f);
        if (isfinite(p->lo) && isfinite(p->hi) && p->lo > 0)
            fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><circle class=\"est\" "
                    "cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", top_x(log10(p->lo), lo, hi, x0, x1),
                    top_x(log10(p->hi), lo, hi, x0, x1), y, y, top_x(log10(p->ratio), lo, hi, x0, x1), y);
        fputs("</g>", f);
    }
    int ya = DP_TOP + (int)s->npairs * RP_ROW + 2;
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>", x0, x1, ya, ya);
    top_log_ticks(f, lo, hi, x0, x1, ya);
    fputs("</svg>", f);
}

/* Labels 1, 2, 5 per decade on a log10 scale [lo, hi], 1 first, none
 * closer than RP_TICK_GAP px to another. */
#define RP_TICK_GAP 34
static void top_log_ticks(FILE *f, double lo, double hi, int x0, int x1, int ya)
{
    static const double mant[] = { 1, 2, 5 };
    double placed[64];
    size_t np = 0;
    char b[32];
    for (int pass = 0; pass < 2; pass++)
        for (int e = (int)floor(lo); e <= (int)ceil(hi) && e < 300; e++)
            for (int k = 0; k < 3 && np < 64; k++) {
                double v = mant[k] * pow(10, e), x = top_x(log10(v), lo, hi, x0, x1);
                int near = 0;
                if ((pass == 0) != (v == 1) || log10(v) < lo || log10(v) > hi)
                    continue;
                for (size_t i = 0; i < np; i++)
                    near |= fabs(placed[i] - x) < RP_TICK_GAP;
                if (near)
                    continue;
                placed[np++] = x;
                fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/><text x=\"%.1f\" "
                        "y=\"%d\" class=\"lbl\" text-anchor=\"middle\">%s</text>", x, x, ya, ya + 3, x, ya + 13,
                        top_num(b, sizeof b, v));
            }
}

void part_top(struct report *r, const struct rg_summary *s)
{
    FILE *f = r->f;
    fputs("<section id=\"glance\">", f);
    top_lines(f, s);
    fputs("<div class=\"glance-grid\"><div class=\"glance-tables\">", f);
    top_targets(f, s);
    top_pairs(f, s);
    fputs("</div><div class=\"glance-plots\">", f);
    for (size_t i = 0; i < s->ntargets; i++)
        top_dotplot(f, &s->targets[i]);
    top_ratioplot(f, s);
    fputs("</div></div></section>", f);
}

void part_badge(struct report *r, const struct rg_summary *s)
{
    top_badge(r->f, s);
}
