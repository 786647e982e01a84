/*
 * tools/host/fleet/fleet_out.c - `baremark fleet`: each figure's fleet median,
 * spread and the machines beyond the threshold (with Mann-Whitney's p of
 * their raw samples), written as text, CSV or HTML.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "report_util.h"
#include "stats/stats.h"

/* ---- the tables' figures ------------------------------------------------------------------ */

static enum fl_sense fl_sense(const char *unit)
{
    size_t n = strlen(unit);
    if (!strcmp(unit, "ticks") || !strcmp(unit, "ns") || !strcmp(unit, "ticks/iter") || !strcmp(unit, "ns/iter"))
        return FL_LOWER_FASTER;
    if (!strcmp(unit, "index") || (n > 2 && !strcmp(unit + n - 2, "/s")))
        return FL_HIGHER_FASTER;
    return FL_NEUTRAL;
}

static const char *fl_way(const struct fl_figure *g, double dev)
{
    enum fl_sense s = g->sense >= 0 ? (enum fl_sense)g->sense : fl_sense(g->unit);
    if (s == FL_NEUTRAL)
        return dev > 0 ? "higher" : "lower";
    return (dev > 0) == (s == FL_LOWER_FASTER) ? "slower" : "faster";
}

/* The fleet whose cells qsort is ordering by machine name. */
static const struct fleet *fl_sorting;

static int fl_cmp_cell(const void *a, const void *b)
{
    const struct fleet *F = fl_sorting;
    return strcmp(F->machines[((const struct fl_cell *)a)->machine].name,
                  F->machines[((const struct fl_cell *)b)->machine].name);
}

/* Mann-Whitney of one machine's samples against the other machines'. */
static void fl_mann_whitney(struct fl_figure *g, struct fl_cell *c)
{
    size_t rest = 0;
    c->mw_p = NAN;
    for (size_t i = 0; i < g->n; i++)
        if (&g->cells[i] != c)
            rest += g->cells[i].ns;
    c->rest_n = rest;
    if (c->ns < 2 || rest < 2)
        return;
    double *a = malloc(c->ns * sizeof *a), *b = malloc(rest * sizeof *b), u, z;
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    memcpy(a, c->samples, c->ns * sizeof *a);
    rest = 0;
    for (size_t i = 0; i < g->n; i++)
        if (&g->cells[i] != c) {
            memcpy(b + rest, g->cells[i].samples, g->cells[i].ns * sizeof *b);
            rest += g->cells[i].ns;
        }
    stats_sort_double(a, c->ns);
    stats_sort_double(b, rest);
    stats_mann_whitney_sorted_double(a, c->ns, b, rest, 1, &u, &z, &c->mw_p);
    free(a);
    free(b);
}

void fl_analyse(struct fleet *F)
{
    for (size_t k = 0; k < F->nfigs; k++) {
        struct fl_figure *g = &F->figs[k];
        double *v = malloc((g->n ? g->n : 1) * sizeof *v);
        fl_sorting = F;
        qsort(g->cells, g->n, sizeof *g->cells, fl_cmp_cell);
        g->lo = INFINITY;
        g->hi = -INFINITY;
        for (size_t i = 0; i < g->n; i++) {
            struct fl_cell *c = &g->cells[i];
            c->value = median_of(c->vals, c->nv);
            v[i] = c->value;
            g->lo = fmin(g->lo, c->value);
            g->hi = fmax(g->hi, c->value);
        }
        stats_sort_double(v, g->n);
        g->median = stats_percentile_sorted_double(v, g->n, 50);
        g->mad = stats_mad_sorted_double(v, g->n);
        free(v);
        g->beyond = 0;
        for (size_t i = 0; i < g->n; i++) {
            struct fl_cell *c = &g->cells[i];
            c->dev = g->median != 0 ? (c->value - g->median) / fabs(g->median) : NAN;
            /* With a median of 0 a relative threshold means nothing: any
             * machine not at 0 stands out (a run status, a zero net time). */
            c->beyond = g->median != 0 ? fabs(c->dev) > F->threshold : c->value != 0;
            g->beyond += (size_t)c->beyond;
            fl_mann_whitney(g, c);
        }
    }
}

/* ---- output ------------------------------------------------------------------------ */

/* A figure's value: ten significant digits (a TSC kHz keeps its decimals,
 * unlike the report's rounding), "-" for none. */
static const char *fl_num(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.10g", v);
    return buf;
}

static const char *fl_pct(char *buf, size_t n, double dev)
{
    if (isnan(dev))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%+.2f%%", dev * 100);
    return buf;
}

static const char *fl_p(char *buf, size_t n, double p)
{
    if (isnan(p))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.3g", p);
    return buf;
}

/* A figure's name: as a reader knows it ("hist:k, cpuid+rdtsc, ticks/iter",
 * its unit last), the LAVA id beside it with --ids; a figure only LAVA's
 * results had keeps its id (and unit): the id is all they give. */
static const char *fl_name(char *buf, size_t n, const struct fleet *F, const struct fl_figure *g)
{
    if (!g->label[0])
        snprintf(buf, n, g->unit[0] ? "%s (%s)" : "%s", g->id, g->unit);
    else if (F->ids)
        snprintf(buf, n, "%s (%s)", g->label, g->id);
    else
        snprintf(buf, n, "%s", g->label);
    return buf;
}

static void fl_text_beyond(FILE *f, const struct fleet *F, const struct fl_figure *g)
{
    char b[3][48];
    if (g->median == 0)
        fputs("  not 0 (the fleet median is 0, so no relative threshold): ", f);
    else
        fprintf(f, "  beyond %g%% of the fleet median: ", F->threshold * 100);
    if (!g->beyond) {
        fputs("none\n", f);
        return;
    }
    int first = 1;
    for (size_t i = 0; i < g->n; i++) {
        const struct fl_cell *c = &g->cells[i];
        if (!c->beyond)
            continue;
        fprintf(f, "%s%s (%s, %s", first ? "" : "; ", F->machines[c->machine].name,
                g->median == 0 ? fl_num(b[0], 48, c->value) : fl_pct(b[0], 48, c->dev), fl_way(g, c->value - g->median));
        if (!isnan(c->mw_p))
            fprintf(f, ", Mann-Whitney p %s on %zu against %zu samples", fl_p(b[1], 48, c->mw_p), c->ns,
                    c->rest_n);
        fputc(')', f);
        first = 0;
    }
    fputc('\n', f);
}

/* Runs cut short count with the sections they finished: say so. */
static void fl_out_interrupted(FILE *f, const struct fl_machine *m)
{
    if (m->interrupted == 1)
        fprintf(f, " (1 run %s)", m->cut);
    else if (m->interrupted)
        fprintf(f, " (%zu runs interrupted, the last %s)", m->interrupted, m->cut + strlen("interrupted "));
}

void fl_text(FILE *f, const struct fleet *F)
{
    char b[4][48];
    fprintf(f, "baremark fleet: %zu machine%s, %zu run%s from %zu file%s; threshold %g%% of the fleet median\n",
            F->nmachines, F->nmachines == 1 ? "" : "s", F->runs, F->runs == 1 ? "" : "s", F->files_read,
            F->files_read == 1 ? "" : "s", F->threshold * 100);
    for (size_t i = 0; i < F->nmachines; i++)
    {
        fprintf(f, "  %-24s %3zu run%s  %s", F->machines[i].name, F->machines[i].runs,
                F->machines[i].runs == 1 ? " " : "s", F->machines[i].what);
        fl_out_interrupted(f, &F->machines[i]);
        fputc('\n', f);
    }
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        char name[320];
        fputc('\n', f);
        term_put(f, fl_name(name, sizeof name, F, g), 0);
        fprintf(f, ": %zu machine%s, fleet median %s, spread (MAD) %s", g->n, g->n == 1 ? "" : "s",
                fl_num(b[0], 48, g->median), fl_num(b[1], 48, g->mad));
        if (g->median != 0)
            fprintf(f, " (%.3g%%)", 100 * g->mad / fabs(g->median));
        fprintf(f, ", range %s .. %s\n", fl_num(b[2], 48, g->lo), fl_num(b[3], 48, g->hi));
        fprintf(f, "  %-24s %4s %16s %10s %8s %10s  %s\n", "MACHINE", "RUNS", "VALUE", "VS MEDIAN", "SAMPLES",
                "MW P", "");
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            fprintf(f, "  %-24.24s %4zu %16s %10s %8zu %10s  %s\n", F->machines[c->machine].name, c->nv,
                    fl_num(b[0], 48, c->value), fl_pct(b[1], 48, c->dev), c->ns, fl_p(b[2], 48, c->mw_p),
                    c->beyond ? fl_way(g, c->value - g->median) : "");
        }
        fl_text_beyond(f, F, g);
    }
}

static void fl_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else
        fputs(s, f);
}

void fl_csv(FILE *f, const struct fleet *F)
{
    char b[4][48];
    /* figure is the LAVA id, as it always was; the name as a reader knows
     * it comes last (a new column breaks no reader counting columns) */
    fputs("figure,unit,machine,runs,value,fleet_median,fleet_mad,deviation_pct,beyond,direction,samples,"
          "mann_whitney_p,label\n", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            fl_csv_field(f, g->id);
            fputc(',', f);
            fl_csv_field(f, g->unit);
            fputc(',', f);
            fl_csv_field(f, F->machines[c->machine].name);
            fprintf(f, ",%zu,%.15g,%.15g,%.15g,", c->nv, c->value, g->median, g->mad);
            if (isnan(c->dev))
                fputs(",", f);
            else
                fprintf(f, "%.6f,", c->dev * 100);
            fprintf(f, "%s,%s,%zu,%s,", c->beyond ? "yes" : "no", c->value == g->median ? "" : fl_way(g, c->value - g->median),
                    c->ns, isnan(c->mw_p) ? "" : (snprintf(b[0], 48, "%.6g", c->mw_p), b[0]));
            fl_csv_field(f, g->label[0] ? g->label : g->id);
            fputc('\n', f);
        }
    }
}

/* The report's look (tools/host/report/cmd_report.c). */
static const char fl_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1120px;color:#1d2330;padding:0 16px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #c9d3e3;padding-bottom:3px;margin-top:30px}"
    "h3{font-size:15px;margin:18px 0 6px}"
    "table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d6dbe4;padding:2px 8px;text-align:left;vertical-align:top}"
    "th{background:#eef2f8;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".none{color:#778;font-style:italic}.faster{color:#176b2c;font-weight:600}.slower{color:#a31515;font-weight:600}"
    ".higher,.lower{color:#9a6200;font-weight:600}tr.beyond td{background:#fff4e5}"
    "svg .axis{stroke:#556;stroke-width:1}svg .lbl{font-size:11px;fill:#334}svg .band{fill:#c6dbef;fill-opacity:.6}"
    "svg .med{stroke:#1d2330;stroke-width:1.5}svg .m{fill:#4c78a8}svg .m.out{fill:#a31515}"
    "footer{margin-top:30px;color:#778;font-size:12px}";

#define FL_SVG_W 520
#define FL_SVG_H 46
#define FL_SVG_PAD 40

/* Each machine's value as a dot on the figure's scale, the fleet median a
 * line and the threshold a band around it. */
static void fl_svg(FILE *f, const struct fleet *F, const struct fl_figure *g)
{
    char b[2][48];
    double lo = g->lo, hi = g->hi, band = fabs(g->median) * F->threshold;
    if (g->median != 0) {
        lo = fmin(lo, g->median - band);
        hi = fmax(hi, g->median + band);
    }
    double span = hi > lo ? hi - lo : 1;
#define FLX(v) (FL_SVG_PAD + (FL_SVG_W - 2 * FL_SVG_PAD) * ((v) - lo) / span)
    fprintf(f, "<svg class=\"fleet\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" data-n=\"%zu\" "
            "data-beyond=\"%zu\">", FL_SVG_W, FL_SVG_H, g->n, g->beyond);
    if (g->median != 0)
        fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"22\"><title>within %g%% of the "
                "fleet median</title></rect>", FLX(g->median - band), FLX(g->median + band) - FLX(g->median - band),
                F->threshold * 100);
    fprintf(f, "<line class=\"med\" x1=\"%.1f\" y1=\"2\" x2=\"%.1f\" y2=\"28\"/>", FLX(g->median), FLX(g->median));
    for (size_t i = 0; i < g->n; i++) {
        const struct fl_cell *c = &g->cells[i];
        fprintf(f, "<circle class=\"m%s\" cx=\"%.1f\" cy=\"15\" r=\"3.5\"><title>", c->beyond ? " out" : "",
                FLX(c->value));
        html_put(f, F->machines[c->machine].name);
        fprintf(f, ": %s</title></circle>", fl_num(b[0], 48, c->value));
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"30\" x2=\"%d\" y2=\"30\"/>", FL_SVG_PAD, FL_SVG_W - FL_SVG_PAD);
    fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"43\">%s</text>", FL_SVG_PAD, fl_num(b[0], 48, lo));
    fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"43\" text-anchor=\"end\">%s</text></svg>", FL_SVG_W - FL_SVG_PAD,
            fl_num(b[1], 48, hi));
#undef FLX
}

void fl_html(FILE *f, const struct fleet *F)
{
    char b[4][48];
    fprintf(f, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>baremark fleet</title>"
            "<style>%s</style></head><body><h1>baremark fleet</h1>", fl_css);
    fprintf(f, "<p>%zu machines, %zu runs from %zu files. A machine is beyond when its value (the median of its "
            "runs) is more than %g%% away from the fleet median (the median of the machines' values); "
            "Mann-Whitney's two-sided p compares its raw samples with all the other machines' raw samples, "
            "where the files have them.</p>", F->nmachines, F->runs, F->files_read, F->threshold * 100);
    fputs("<h2>Machines</h2><table id=\"machines\"><tr><th>machine</th><th>runs</th><th>what</th></tr>", f);
    for (size_t i = 0; i < F->nmachines; i++) {
        fputs("<tr><td>", f);
        html_put(f, F->machines[i].name);
        fprintf(f, "</td><td class=\"n\">%zu</td><td>", F->machines[i].runs);
        html_put(f, F->machines[i].what);
        fl_out_interrupted(f, &F->machines[i]);   /* plain words (rs_words): safe in HTML */
        fputs("</td></tr>", f);
    }
    fputs("</table><h2>Figures</h2><table id=\"figures\"><tr><th>figure</th><th>unit</th><th>machines</th>"
          "<th>fleet median</th><th>spread (MAD)</th><th>beyond</th></tr>", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        char name[320];
        fprintf(f, "<tr%s><td><a href=\"#%s\">", g->beyond ? " class=\"beyond\"" : "", g->id);
        html_put(f, fl_name(name, sizeof name, F, g));
        fputs("</a></td><td>", f);
        html_put(f, g->unit);
        fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%zu</td></tr>",
                g->n, fl_num(b[0], 48, g->median), fl_num(b[1], 48, g->mad), g->beyond);
    }
    fputs("</table>", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        char name[320];
        fprintf(f, "<section class=\"figure\" id=\"%s\" data-beyond=\"%zu\"><h3>", g->id, g->beyond);
        html_put(f, fl_name(name, sizeof name, F, g));
        fprintf(f, "</h3><p>fleet median %s, spread (MAD) %s, range %s .. %s</p>", fl_num(b[0], 48, g->median),
                fl_num(b[1], 48, g->mad), fl_num(b[2], 48, g->lo), fl_num(b[3], 48, g->hi));
        fl_svg(f, F, g);
        fputs("<table><tr><th>machine</th><th>runs</th><th>value</th><th>vs median</th><th>samples</th>"
              "<th>Mann-Whitney p</th><th></th></tr>", f);
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            const char *way = c->beyond ? fl_way(g, c->value - g->median) : "";
            fprintf(f, "<tr%s><td>", c->beyond ? " class=\"beyond\"" : "");
            html_put(f, F->machines[c->machine].name);
            fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%zu</td>"
                    "<td class=\"n\">%s</td><td class=\"%s\">%s</td></tr>", c->nv, fl_num(b[0], 48, c->value),
                    fl_pct(b[1], 48, c->dev), c->ns, fl_p(b[2], 48, c->mw_p), way, way);
        }
        fputs("</table></section>", f);
    }
    fputs("<footer>made by baremark fleet (tools/baremark-fleet)</footer></body></html>\n", f);
}

