/*
 * bench/report/report_top.c - the report's first screen, drawn from the run's
 * summary (bench/summary/summary.h: the same structure the serial log's last block
 * and `baremark show` print, so all three say the same thing): the
 * verdict as a badge, the summary's lines, every target's estimate with
 * its 95% interval, the A/B pairs, one dot plot per target across the
 * methods and one ratio plot of the pairs (inline SVG, no script).  It
 * computes no figure of its own.
 *
 * Sized for 1280 x 800 (issue 22.2): the tables on the left, the plots on
 * the right; every number in a cell of class "n" (right-aligned, tabular
 * figures, never wrapped: tools/host/report/cmd_report.c's style).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "figures_text.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"
#include "summary.h"

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
#define RP_TICK_GAP 34          /* px between two labels of the log axis */

/* A figure for a cell: 4 significant digits, whole numbers from 1000. */
static const char *top_num(char *b, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(b, n, "-");
    else if (fabs(v) >= 1000)
        snprintf(b, n, "%.0f", v);
    else
        snprintf(b, n, "%.4g", v);
    return b;
}

/* Below 900 px (a phone, a narrow window) the first screen is one column:
 * the targets first (the verdict is in the title above them), then the
 * summary's lines, the plots scaled to the width (their viewBox keeps
 * their proportions), the pairs.  A table wider than the screen scrolls
 * in its own box (cmd_report.c's table rule), never the page; the folds'
 * plots shrink to the width likewise. */
const char report_css_screens[] =
    ".run-name{display:inline-block;max-width:100%}"
    ".badge.vm>.badge{padding:0;margin:0;background:none;font-size:inherit;vertical-align:baseline}"
    ".b-vm{background:#b45309}"
    "svg.ratioplot-narrow{display:none}svg.ratioplot-narrow .row text{paint-order:stroke;stroke:#fff;stroke-width:3px}ul.whys{font-size:12px;color:#334;margin:-4px 0 8px;padding-left:18px;max-width:600px}"
    "@media (max-width:900px){"
    "body{padding:6px 12px}h1{font-size:18px;line-height:1.35}.badge{margin-left:0;font-size:13px}"
    ".glance-grid{grid-template-columns:minmax(0,1fr)}"
    ".glance-tables{display:flex;flex-direction:column}#targets,ul.whys,.glance-tables p.note{order:-1}"
    "#targets{margin-top:0}table.lines th{width:auto}"
    "svg.dotplot{flex:1 1 300px;max-width:460px;height:auto}"
    "svg[viewBox]{max-width:100%;height:auto}svg.ratioplot{display:none}svg.ratioplot-narrow{display:block;width:100%;max-width:480px}"
    "#targets td{white-space:nowrap}table.lines td{overflow-wrap:anywhere}"
    ".card{display:block;margin-right:0}"
    /* a cell breaks inside a word only when the word alone is wider than
     * the screen: a table too wide scrolls in its box instead */
    "td,th{overflow-wrap:break-word}"
    /* the A/B pairs as one block each: the name, the finding, the figures */
    "#pairs,#pairs tbody,#pairs tr,#pairs td{display:block;border:0;padding:0}#pairs{width:auto}"
    "#pairs tr:first-child{display:none}#pairs tr{border-top:1px solid #d6dbe4;padding:4px 0}"
    "#pairs td:first-child{font-weight:600}#pairs td.n{display:inline-block;text-align:left;margin-right:12px}"
    "#pairs td:nth-child(3)::before{content:\"slower/faster \";color:#667}"
    "#pairs td:nth-child(4)::before{content:\"95% \";color:#667}"
    "#pairs td:nth-child(5)::before{content:\"Mann-Whitney \";color:#667}}";

/* ---- the badge and the lines ------------------------------------------------- */

/* A CPUID hypervisor signature (leaf 0x40000000, as the image writes it in
 * system.hypervisor) as people name it, and whether it emulates the CPU
 * (TCG translates every instruction: its timings are the translator's, not
 * any CPU's) or runs the guest's code on the CPU (a virtual machine: near
 * the host's timings, with exits and a shared host).  NULL: not one known
 * here (the signature is shown as written). */
static const char *top_hypervisor_name(const char *sig, int *emulated)
{
    static const struct { const char *sig, *name; int emulated; } known[] = {
        { "TCGTCGTCGTCG", "QEMU TCG", 1 }, { "KVMKVMKVM", "KVM", 0 }, { "Linux KVM Hv", "KVM", 0 },
        { "Microsoft Hv", "Hyper-V", 0 }, { "VMwareVMware", "VMware", 0 }, { "XenVMMXenVMM", "Xen", 0 },
        { "VBoxVBoxVBox", "VirtualBox", 0 }, { " lrpepyh vr", "Parallels", 0 }, { "bhyve bhyve ", "bhyve", 0 },
        { "ACRNACRNACRN", "ACRN", 0 }, { "HAXMHAXMHAXM", "HAXM", 0 }, { "QNXQVMBSQG", "QNX hypervisor", 0 },
    };
    *emulated = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(sig, known[i].sig)) {
            *emulated = known[i].emulated;
            return known[i].name;
        }
    return NULL;
}

static void top_verdict(FILE *f, const struct summary *s)
{
    static const char *const cls[] = { "completed", "warnings", "failed", "interrupted" };
    fprintf(f, "<span class=\"badge b-%s\" id=\"verdict\">", (unsigned)s->verdict < 4 ? cls[s->verdict] : "unknown");
    if (s->verdict == SUMMARY_WARNINGS)
        fprintf(f, "warnings: %u", s->warnings);
    else if (s->verdict == SUMMARY_INTERRUPTED) {
        fputs("interrupted during ", f);
        html_put(f, s->interrupted_in[0] ? s->interrupted_in : "an unknown section");
    } else
        html_put(f, summary_verdict_name(s->verdict));
    fputs("</span>", f);
}

/* The verdict as a badge (#verdict: its text is the verdict alone, as the
 * summary's verdict row says it).  A run under a hypervisor (the system's
 * CPUID signature, bench/summary/summary.c) gets the badge inside a wider one that
 * says whose timings these are: "completed &middot; emulated timings (QEMU
 * TCG)", amber where the verdict alone would be green, so nobody takes an
 * emulator's nanoseconds for a machine's.  A hypervisor that hides CPUID's
 * bit but that SMBIOS names (system.hypervisor_hidden) gets the same:
 * "completed &middot; timings under a hidden hypervisor (QEMU)". */
void part_badge(struct report *r)
{
    const struct summary *s = r->sum;
    FILE *f = r->f;
    int emulated;
    if (!s) {
        fputs("<span class=\"badge b-unknown\" id=\"verdict\">no summary</span>", f);
        return;
    }
    if (!s->hypervisor[0] && !s->hypervisor_hidden[0]) {
        top_verdict(f, s);
        return;
    }
    const char *name = s->hypervisor[0] ? top_hypervisor_name(s->hypervisor, &emulated) : NULL;
    if (!s->hypervisor[0])
        emulated = 0;           /* hidden: whether it emulates cannot be told */
    fprintf(f, "<span class=\"badge vm b-%s\" id=\"timings\" data-emulated=\"%d\">",
            s->verdict == SUMMARY_COMPLETED ? "vm" : s->verdict == SUMMARY_WARNINGS ? "warnings" : "failed", emulated);
    top_verdict(f, s);
    fputs(emulated ? " &middot; emulated timings (" : name ? " &middot; virtualised timings (" :
          !s->hypervisor[0] ? " &middot; timings under a hidden hypervisor (" :
          " &middot; timings under a hypervisor (", f);
    html_put(f, name ? name : s->hypervisor[0] ? s->hypervisor : s->hypervisor_hidden);
    fputs(")</span>", f);
}

/* Rows the first screen shows as tables of their own. */
static int top_row_tabled(const char *label)
{
    return !strcmp(label, "targets") || !strcmp(label, "A/B");
}

/* The summary's rows, but the targets and the pairs (tables below): a row
 * with no label continues the one above, on its own line. */
static void top_lines(FILE *f, const struct summary *s)
{
    int open = 0, skip = 0;
    fputs("<table id=\"glance-lines\" class=\"lines\">", f);
    for (unsigned i = 0; i < s->n_rows; i++) {
        const struct summary_row *row = &s->rows[i];
        if (row->label[0]) {
            skip = top_row_tabled(row->label);
            if (open)
                fputs("</td></tr>", f);
            open = !skip;
            if (skip)
                continue;
            fputs("<tr><th>", f);
            html_put(f, row->label);
            fputs("</th><td>", f);
        } else if (skip || !open) {
            continue;
        } else {
            fputs("<br>", f);
        }
        html_put(f, row->text);
    }
    if (open)
        fputs("</td></tr>", f);
    fputs("</table>", f);
}

/* ---- targets and pairs ------------------------------------------------------------ */

/* A target's reported estimate, written by summary_estimate_text as the
 * summary's rows write it: the time and its interval in ns (an interval
 * widened to the counter's step marked "*"), or "below 1 step, < X ns"
 * across both cells. */
static void top_target_row(FILE *f, const struct summary_target *t)
{
    char time[SUMMARY_EST_TEXT_MAX], ci[SUMMARY_EST_TEXT_MAX], d[32];
    fputs("<tr data-target=\"", f);
    html_put(f, t->name);
    fputs("\"><td>", f);
    html_put(f, t->name);
    fputs("</td>", f);
    if (t->chosen >= t->n_est) {
        fputs("<td class=\"n est\">-</td><td class=\"n\">-</td><td class=\"n\">-</td>"
              "<td colspan=\"2\" class=\"none\">no method measured it</td></tr>", f);
        return;
    }
    const struct summary_estimate *e = &t->est[t->chosen];
    summary_estimate_text(e, time, ci);
    if (e->resolved == 0) {
        fputs("<td colspan=\"2\" class=\"n est below\">", f);
        html_put(f, time);
        fputs("</td><td class=\"n\">-</td><td title=\"", f);
    } else {
        fputs("<td class=\"n est\">", f);
        html_put(f, time);
        fputs("</td><td class=\"n\">", f);
        html_put(f, ci[0] ? ci : "-");
        if (e->at_floor)
            fputs("<span class=\"floor\" title=\"widened to at least 1 step of the counter\">*</span>", f);
        fputs("</td><td class=\"n\">", f);
        figures_format(e->ticks, d, sizeof d);
        html_put(f, d);
        fputs("</td><td title=\"", f);
    }
    html_put(f, t->why);
    fputs("\">", f);
    html_put(f, e->method);
    fprintf(f, "</td><td class=\"n\">%u of %u</td></tr>", t->agree, t->resolved);
}

/* Why each target's method was the one reported, as text on the page (a
 * touch screen has no hover; the method's cell keeps it as its title too):
 * one line per reason and method, naming its targets. */
static void top_whys(FILE *f, const struct summary *s)
{
    int open = 0;
    for (unsigned i = 0; i < s->n_targets; i++) {
        const struct summary_target *t = &s->targets[i];
        const char *m = t->chosen < t->n_est ? t->est[t->chosen].method : NULL;
        unsigned j, first = 1;
        if (!m || !t->why[0])
            continue;
        for (j = 0; j < i; j++) {       /* a reason and method said already */
            const struct summary_target *u = &s->targets[j];
            if (u->chosen < u->n_est && !strcmp(u->est[u->chosen].method, m) && !strcmp(u->why, t->why))
                break;
        }
        if (j < i)
            continue;
        if (!open)
            fputs("<ul class=\"whys\" id=\"whys\">", f);
        open = 1;
        fputs("<li data-why=\"", f);
        html_put(f, t->why);
        fputs("\"><b>", f);
        html_put(f, m);
        fputs("</b> reported for ", f);
        for (j = i; j < s->n_targets; j++) {
            const struct summary_target *u = &s->targets[j];
            if (u->chosen >= u->n_est || strcmp(u->est[u->chosen].method, m) || strcmp(u->why, t->why))
                continue;
            fputs(first ? "" : ", ", f);
            html_put(f, u->name);
            first = 0;
        }
        fputs(": ", f);
        html_put(f, t->why);
        fputs("</li>", f);
    }
    if (open)
        fputs("</ul>", f);
}

static void top_targets(FILE *f, const struct summary *s)
{
    if (!s->n_targets)
        return;
    fputs("<table id=\"targets\"><tr><th>target</th><th class=\"n\">ns/iter</th><th class=\"n\">95% interval (ns)</th>"
          "<th class=\"n\">ticks/iter</th><th>method</th><th class=\"n\">agree</th></tr>", f);
    for (unsigned i = 0; i < s->n_targets; i++)
        top_target_row(f, &s->targets[i]);
    fputs("</table>", f);
    top_whys(f, s);
    fputs("<p class=\"note\">Net time per iteration: the median of (T(N) &minus; median P(N)) / N with its "
          "95% interval (order statistics), widened to at least 1 step of the counter (its step / N; * where that "
          "sets the width) and never below 0; below 1 step: too short to tell from the placeholder, or under 1 "
          "step. Method: the one the summary reports (why: the list above); agree: of the resolved methods, those "
          "whose interval meets that one's. Dots: red the reported method, blue those that agree, orange those "
          "that do not; a dashed line ending in &lt;: below 1 step, somewhere under its end.</p>", f);
}

static void top_pairs(FILE *f, const struct summary *s)
{
    char a[32], b[64], d[32];
    if (!s->n_ab)
        return;
    fputs("<table id=\"pairs\"><tr><th>A/B</th><th>finding at 95%</th><th class=\"n\">slower / faster</th>"
          "<th class=\"n\">95% interval</th><th class=\"n\">Mann-Whitney p (decides)</th></tr>", f);
    for (unsigned i = 0; i < s->n_ab; i++) {
        const struct summary_ab *p = &s->ab[i];
        fputs("<tr><td>", f);
        html_put(f, p->name);
        fputs("</td><td>", f);
        if (strcmp(p->status, "ok")) {
            fputs("not measured (", f);
            html_put(f, p->status);
            fputs(")", f);
        } else if (p->detected) {
            html_put(f, p->faster);
            fputs(" is faster", f);
        } else if (p->within_noise) {
            summary_ab_within(p, b, sizeof b);
            fputs(b, f);
        } else {
            fputs("no difference detected", f);
        }
        html_put(f, p->note);
        fprintf(f, "</td><td class=\"n\">%s&times;</td><td class=\"n\">", top_num(a, sizeof a, p->ratio));
        if (isnan(p->ratio_lo))
            fputs("-", f);
        else
            html_put(f, (figures_format_interval(p->ratio_lo, p->ratio_hi, b, sizeof b), b));
        fputs("</td><td class=\"n\">", f);
        html_put(f, isnan(p->p) ? "-" : (figures_format_p(p->p, d, sizeof d), d));
        fputs("</td></tr>", f);
    }
    fputs("</table>", f);
}

/* ---- plots -------------------------------------------------------------------------- */

static double top_x(double v, double lo, double hi, double x0, double x1)
{
    return x0 + (v - lo) / (hi - lo) * (x1 - x0);
}

/* What a row of a target's plot draws: the widened interval, or for an
 * unresolved estimate 0 to its bound X. */
static void top_dot_span(const struct summary_estimate *e, double *lo, double *hi)
{
    *lo = e->resolved == 0 ? 0 : e->ns_lo;
    *hi = e->resolved == 0 ? e->below_ns : e->ns_hi;
}

/* The scale of a target's plot: every estimate and interval, padded. */
static void top_dot_range(const struct summary_target *t, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (unsigned i = 0; i < t->n_est; i++) {
        double v[3] = { t->est[i].resolved == 0 ? NAN : t->est[i].ns, NAN, NAN };
        top_dot_span(&t->est[i], &v[1], &v[2]);
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
    if (!(pad > 0))
        pad = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 0.5;
    *lo = *lo >= 0 ? fmax(*lo - pad, 0) : *lo - pad;     /* times: the axis starts at 0 at the least */
    *hi += pad;
}

/* One method's row: its interval as a line and its estimate as a dot; an
 * unresolved one as a dashed line from 0 to its bound, ending in "<". */
static void top_dot_row(FILE *f, const struct summary_estimate *e, double y, double lo, double hi)
{
    double x0 = DP_LABEL, x1 = DP_W - DP_RIGHT, a, b;
    char time[SUMMARY_EST_TEXT_MAX], ci[SUMMARY_EST_TEXT_MAX];
    summary_estimate_text(e, time, ci);
    fprintf(f, "<g class=\"row%s%s%s%s\" data-method=\"", e->chosen ? " chosen" : "",
            e->agrees || e->resolved != 1 ? "" : " differs", e->resolved == 0 ? " below" : "", e->at_floor ? " floor" : "");
    html_put(f, e->method);
    fputs("\"><title>", f);
    html_put(f, e->method);
    fputs(": ", f);
    html_put(f, time);
    if (ci[0]) {
        fputs(" ns ", f);
        html_put(f, ci);
        if (e->at_floor)
            fputs(" (widened to 1 step of the counter)", f);
    }
    fprintf(f, "</title><text x=\"%d\" y=\"%.1f\" class=\"lbl m\" text-anchor=\"end\">", DP_LABEL - 4, y + 3.5);
    html_put(f, e->method);
    fputs("</text>", f);
    top_dot_span(e, &a, &b);
    if (isfinite(a) && isfinite(b)) {
        double xa = top_x(a, lo, hi, x0, x1), xb = top_x(b, lo, hi, x0, x1);
        fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", xa, xb, y, y);
        if (e->resolved == 0)
            fprintf(f, "<path class=\"lt\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1f\"/>", xb + 4, y - 3.5, xb, y, xb + 4, y + 3.5);
    }
    if (isfinite(e->ns) && e->resolved == 1)
        fprintf(f, "<circle class=\"est\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>", top_x(e->ns, lo, hi, x0, x1), y,
                e->chosen ? "3.6" : "2.6");
    fputs("</g>", f);
}

static void top_dotplot(FILE *f, const struct summary_target *t)
{
    double lo, hi;
    char a[32], b[32];
    int h = DP_TOP + (int)t->n_est * DP_ROW + DP_AXIS, ya = DP_TOP + (int)t->n_est * DP_ROW + 2;
    top_dot_range(t, &lo, &hi);
    fprintf(f, "<svg class=\"dotplot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-target=\"",
            DP_W, h, DP_W, h);
    html_put(f, t->name);
    fprintf(f, "\" data-methods=\"%u\"><text x=\"2\" y=\"11\" class=\"ttl\">", t->n_est);
    html_put(f, t->name);
    fprintf(f, "</text><text x=\"%d\" y=\"11\" class=\"lbl\" text-anchor=\"end\">ns per iteration</text>", DP_W - DP_RIGHT);
    for (unsigned i = 0; i < t->n_est; i++)
        top_dot_row(f, &t->est[i], DP_TOP + DP_ROW * (i + 0.5), lo, hi);
    figures_format(lo, a, sizeof a);
    figures_format(hi, b, sizeof b);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
            "<text x=\"%d\" y=\"%d\" class=\"lbl\">%s</text><text x=\"%d\" y=\"%d\" class=\"lbl\" "
            "text-anchor=\"end\">%s</text></svg>", DP_LABEL, DP_W - DP_RIGHT, ya, ya, DP_LABEL, ya + 12,
            a, DP_W - DP_RIGHT, ya + 12, b);
}

/* Labels 1, 2, 5 per decade on a log10 scale [lo, hi], 1 first, none
 * closer than RP_TICK_GAP px to another. */
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

/* A pair as B's time over A's (the summary states slower over faster). */
static void top_b_over_a(const struct summary_ab *p, double *r, double *lo, double *hi)
{
    int a_faster = p->side != STATS_AB_B;   /* neither: the ratio is B's over A's already */
    *r = a_faster ? p->ratio : 1 / p->ratio;
    *lo = a_faster ? p->ratio_lo : 1 / p->ratio_hi;
    *hi = a_faster ? p->ratio_hi : 1 / p->ratio_lo;
}

/* The ratio plot's shapes: wide (1280 px: the labels on the left of their
 * rows) and narrow (a phone: each label above its row, the scale the whole
 * width, so the plot needs no shrinking and its text stays readable).  The
 * page carries both; its style shows one (report_css_screens). */
struct ratio_shape {
    const char *cls;
    int w, x0, top, row, label_dy;      /* label_dy: the label's baseline from its row's line */
};
static const struct ratio_shape ratio_wide = { "ratioplot", RP_W, RP_LABEL, DP_TOP, RP_ROW, 0 };
static const struct ratio_shape ratio_narrow = { "ratioplot ratioplot-narrow", 360, 8, 30, 26, -6 };

/* The pairs' ratios on one log scale that holds 1 and every interval. */
static void top_ratioplot(FILE *f, const struct summary *s, const struct ratio_shape *g)
{
    double lo = 1, hi = 1, r, rl, rh;
    unsigned drawn = 0;
    if (!s->n_ab)
        return;
    for (unsigned i = 0; i < s->n_ab; i++) {
        top_b_over_a(&s->ab[i], &r, &rl, &rh);
        if (isfinite(rl) && isfinite(rh) && rl > 0) {
            lo = fmin(lo, rl);
            hi = fmax(hi, rh);
            drawn++;
        }
    }
    lo = log10(lo) - 0.05;
    hi = log10(hi) + 0.05;
    int h = g->top + (int)s->n_ab * g->row + DP_AXIS, x0 = g->x0, x1 = g->w - DP_RIGHT;
    double one = top_x(0, lo, hi, x0, x1);
    fprintf(f, "<svg class=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "data-pairs=\"%u\" data-drawn=\"%u\"><text x=\"2\" y=\"11\" class=\"ttl\">A/B pairs</text>",
            g->cls, g->w, h, g->w, h, s->n_ab, drawn);
    if (g->label_dy)        /* narrow: the scale's legend on a line of its own */
        fputs("<text x=\"2\" y=\"24\" class=\"lbl\">", f);
    else
        fprintf(f, "<text x=\"%d\" y=\"11\" class=\"lbl\" text-anchor=\"end\">", x1);
    fprintf(f, "B's time / A's (log scale; right of 1: A faster)</text><line class=\"one\" x1=\"%.1f\" x2=\"%.1f\" "
            "y1=\"%d\" y2=\"%d\"/>", one, one, g->top - 2, g->top + (int)s->n_ab * g->row);
    for (unsigned i = 0; i < s->n_ab; i++) {
        double y = g->top + g->row * (i + 0.5) + (g->label_dy ? 5 : 0);
        top_b_over_a(&s->ab[i], &r, &rl, &rh);
        if (g->label_dy)
            fprintf(f, "<g class=\"row\"><text class=\"lbl\" x=\"%d\" y=\"%.1f\">", x0, y + g->label_dy);
        else
            fprintf(f, "<g class=\"row\"><text class=\"lbl\" text-anchor=\"end\" x=\"%d\" y=\"%.1f\">", x0 - 5, y + 3.5);
        html_put(f, s->ab[i].name);
        fputs("</text>", f);
        if (isfinite(rl) && isfinite(rh) && rl > 0)
            fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
                    top_x(log10(rl), lo, hi, x0, x1), top_x(log10(rh), lo, hi, x0, x1), y, y);
        if (isfinite(r) && r > 0)
            fprintf(f, "<circle class=\"est\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", top_x(log10(r), lo, hi, x0, x1), y);
        fputs("</g>", f);
    }
    int ya = g->top + (int)s->n_ab * g->row + 2;
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>", x0, x1, ya, ya);
    top_log_ticks(f, lo, hi, x0, x1, ya);
    fputs("</svg>", f);
}

void part_top(struct report *r)
{
    const struct summary *s = r->sum;
    FILE *f = r->f;
    if (!s)
        return;
    fputs("<section id=\"glance\"><div class=\"glance-grid\"><div class=\"glance-tables\">", f);
    top_lines(f, s);
    top_targets(f, s);
    fputs("</div><div class=\"glance-plots\">", f);
    for (unsigned i = 0; i < s->n_targets; i++)
        top_dotplot(f, &s->targets[i]);
    top_ratioplot(f, s, &ratio_wide);
    top_ratioplot(f, s, &ratio_narrow);
    top_pairs(f, s);
    fputs("</div></div></section>", f);
}

/* A section's one-line headline: the summary's for that section, else its
 * row of the same name (the machine, quiet), else NULL. */
const char *report_headline(const struct summary *s, const char *id)
{
    static const struct { const char *id, *row; } rows[] = {
        { "machine", "machine" }, { "quiet", "quiet" }, { "clock", "clock" }, { "comparisons", "A/B" },
        { "bytemark", "BYTEmark" }, { "cores", "cores" }, { "memory", "memory" },
    };
    if (!s)
        return NULL;
    for (unsigned i = 0; i < s->n_sections; i++)
        if (!strcmp(s->sections[i].name, id) && s->sections[i].headline[0])
            return s->sections[i].headline;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        for (unsigned i = 0; i < s->n_rows && !strcmp(rows[k].id, id); i++)
            if (!strcmp(s->rows[i].label, rows[k].row))
                return s->rows[i].text;
    return NULL;
}
