/*
 * tools/host/history/history_html.c - the history page: the `show` text first,
 * then one trend plot per series (inline SVG, no script, works offline):
 * each run a dot with its interval, each segment between change points its
 * mean as a line, each change point a dashed line with the runs it
 * compares named.  By default only the series with a change are drawn
 * (every series of 500 figures on many machines is a long page); --all
 * draws them all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "report_util.h"

#define HH_W 760
#define HH_H 180
#define HH_L 70     /* left margin: the axis labels */
#define HH_R 10
#define HH_T 10
#define HH_B 24

struct hh_ctx {
    FILE *out;
    int all;
    long drawn;
};

static double hh_x(size_t i, size_t n) { return HH_L + (n > 1 ? (double)i / (n - 1) : 0.5) * (HH_W - HH_L - HH_R); }

static double hh_y(double v, double lo, double hi)
{
    return HH_T + (hi > lo ? (hi - v) / (hi - lo) : 0.5) * (HH_H - HH_T - HH_B);
}

static void hh_series(void *ctx, const char *machine, const char *profile, const char *figure, const char *label,
                      const char *unit,
                      const struct history_point *pts, size_t n, const struct stats_change *cps, size_t ncp)
{
    struct hh_ctx *c = ctx;
    FILE *f = c->out;
    double lo = INFINITY, hi = -INFINITY;
    char b[2][32];
    if (!ncp && !c->all)
        return;
    for (size_t i = 0; i < n; i++) {
        double l = isnan(pts[i].lo) ? pts[i].value : pts[i].lo, h = isnan(pts[i].hi) ? pts[i].value : pts[i].hi;
        lo = fmin(lo, l);
        hi = fmax(hi, h);
    }
    double pad = (hi - lo) * 0.08 + (hi == lo ? fabs(hi) * 0.01 + 1e-9 : 0);
    lo -= pad;
    hi += pad;
    c->drawn++;
    fputs("<section class=series><h3>", f);
    html_put(f, label);
    fputs(" <small>", f);
    html_put(f, machine);
    fputs(", profile ", f);
    html_put(f, profile);
    fprintf(f, ", %zu runs, %zu change%s; id ", n, ncp, ncp == 1 ? "" : "s");
    html_put(f, figure);
    fputs("</small></h3>\n", f);
    fprintf(f, "<svg viewBox='0 0 %d %d' width=%d height=%d role=img>", HH_W, HH_H, HH_W, HH_H);
    fprintf(f, "<text x=4 y=%d class=ax>%s</text><text x=4 y=%d class=ax>%s</text>", HH_T + 8,
            num_text(b[0], 32, hi), HH_H - HH_B, num_text(b[1], 32, lo));
    fprintf(f, "<text x=4 y=%d class=ax>", HH_H / 2);
    html_put(f, unit);
    fputs("</text>", f);
    /* segments' means */
    for (size_t s = 0; s <= ncp; s++) {
        size_t a = s ? cps[s - 1].at : 0, e = s < ncp ? cps[s].at : n;
        double m = 0;
        for (size_t i = a; i < e; i++)
            m += pts[i].value;
        m /= (double)(e - a);
        fprintf(f, "<line class=seg x1=%.1f x2=%.1f y1=%.1f y2=%.1f />", hh_x(a, n), hh_x(e - 1, n),
                hh_y(m, lo, hi), hh_y(m, lo, hi));
    }
    for (size_t i = 0; i < n; i++) {
        double x = hh_x(i, n);
        if (!isnan(pts[i].lo) && !isnan(pts[i].hi))
            fprintf(f, "<line class=ci x1=%.1f x2=%.1f y1=%.1f y2=%.1f />", x, x, hh_y(pts[i].lo, lo, hi),
                    hh_y(pts[i].hi, lo, hi));
        fprintf(f, "<circle cx=%.1f cy=%.1f r=2.5><title>", x, hh_y(pts[i].value, lo, hi));
        html_put(f, pts[i].name);
        fprintf(f, ": %s</title></circle>", num_text(b[0], 32, pts[i].value));
    }
    for (size_t k = 0; k < ncp; k++) {
        double x = (hh_x(cps[k].at - 1, n) + hh_x(cps[k].at, n)) / 2;
        fprintf(f, "<line class=cp x1=%.1f x2=%.1f y1=%d y2=%d><title>", x, x, HH_T, HH_H - HH_B);
        html_put(f, pts[cps[k].at - 1].name);
        fputs(" -&gt; ", f);
        html_put(f, pts[cps[k].at].name);
        fprintf(f, ", p %.2g</title></line>", cps[k].p);
        fprintf(f, "<text x=%.1f y=%d class=ax>", x + 3, HH_H - 6);
        html_put(f, pts[cps[k].at].name);
        fputs("</text>", f);
    }
    fputs("</svg></section>\n", f);
}

int history_html(struct hdb *db, const struct history_filter *f, int all, FILE *out)
{
    struct hh_ctx c = { out, all, 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem || history_show(db, f, mem)) {
        if (mem)
            fclose(mem);
        free(text);
        return -1;
    }
    fclose(mem);
    fputs("<!doctype html><html lang=en><head><meta charset=utf-8>"
          "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'\">"
          "<title>baremark history</title><style>"
          "body{font:14px system-ui,sans-serif;margin:1.5em;max-width:1000px}"
          "pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font:12px ui-monospace,monospace}"
          "svg{background:#fff;border:1px solid #ddd}.ax{font:10px sans-serif;fill:#555}"
          "circle{fill:#1f5fa8}.ci{stroke:#9bb7d8;stroke-width:1}.seg{stroke:#444;stroke-width:1.5}"
          ".cp{stroke:#c0392b;stroke-dasharray:4 3;stroke-width:1.5}h3{font-size:14px;margin:1.2em 0 .3em}"
          "</style></head><body><h1>baremark history</h1>\n<pre>", out);
    /* line by line: html_put shows a control character, a line break among them, as \xNN */
    for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        html_put(out, line);
        fputc('\n', out);
    }
    fputs("</pre>\n", out);
    free(text);
    long series = history_changes(db, f, NULL, hh_series, &c);
    if (series < 0)
        return -1;
    fprintf(out, "<p>%ld of %ld series drawn%s.</p></body></html>\n", c.drawn, series,
            all ? "" : " (those with a change; --all for every series)");
    return 0;
}
