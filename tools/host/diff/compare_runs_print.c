/*
 * tools/host/diff/compare_runs_print.c - `baremark diff`' output (two runs): the
 * items of two runs side by side and the A/B comparisons present in both,
 * as text, JSON or HTML (see cmd_compare_runs.c for what is compared).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_runs.h"
#include "figures_compare.h"
#include "figures_text.h"
#include "report_ab.h"
#include "report_util.h"
#include "run_state.h"
#include "stats/stats.h"

/* Not json_null(): bench/results/json.c defines a function of that name too, and
 * in this program it wins over jansson's; json_pack builds the null inside
 * the library. */
static json_t *cr_num_or_null(double v) { return isnan(v) || isinf(v) ? json_pack("n") : json_real(v); }

/* One run's comparison as every output shows it: its verdict, then the
 * pair's figures (doc_ab_ratio: the run's "ratio" member, else stats_ab on
 * the stored samples), "A faster: 1.058x [1.055, 1.059], p = 3.7e-71",
 * into buf. */
static const char *cr_pair_side(json_t *c, char *buf, size_t n)
{
    const char *v = doc_str(c, "verdict", NULL);
    struct stats_ab ab;
    char e[32], ci[64], p[32];
    if (!v) {
        snprintf(buf, n, "%s", doc_str(c, "status", "not run"));  /* not a row: the pair's status */
        return buf;
    }
    if (doc_ab_ratio(c, &ab)) {
        snprintf(buf, n, "%s%s (no samples)", strcmp(v, "no difference") ? "A " : "", v);
        return buf;
    }
    figures_format(ab.estimate, e, sizeof e);
    figures_format_interval(ab.lo, ab.hi, ci, sizeof ci);
    figures_format_p(ab.p, p, sizeof p);
    snprintf(buf, n, "%s%s: %s %sx %s, %s", strcmp(v, "no difference") ? "A " : "", v,
             ab.faster == STATS_AB_B ? "A/B" : "B/A", e, ci, p);
    return buf;
}

/* The pair's figures as JSON (null where there are none). */
static json_t *cr_pair_ratio(json_t *c)
{
    struct stats_ab ab;
    if (!doc_str(c, "verdict", NULL) || doc_ab_ratio(c, &ab))
        return json_pack("n");
    json_t *o = json_object();
    json_object_set_new(o, "faster", json_string(stats_ab_side_name(ab.faster)));
    json_object_set_new(o, "estimate", cr_num_or_null(ab.estimate));
    json_object_set_new(o, "lo", cr_num_or_null(ab.lo));
    json_object_set_new(o, "hi", cr_num_or_null(ab.hi));
    json_object_set_new(o, "p", cr_num_or_null(ab.p));
    json_object_set_new(o, "test", json_string("mann-whitney"));
    return o;
}

static int cr_pair_same(const struct cr_pair *p)
{
    const char *va = doc_str(p->a, "verdict", NULL), *vb = doc_str(p->b, "verdict", NULL);
    return va && vb && !strcmp(va, vb);
}

/* ---- output ------------------------------------------------------------------ */

static const char *cr_label(const struct cr_item *it) { return it->label[0] ? it->label : it->name; }

static const char *cr_machine(json_t *root)
{
    static char buf[160];
    const char *brand = doc_str(json_object_get(root, "system"), "cpu_brand", NULL);
    if (brand)
        return brand;
    if (strcmp(doc_str(root, "platform", ""), "linux"))
        return "?";
    brand = doc_str(json_object_get(root, "host"), "cpu_brand", NULL);
    if (!brand)
        return "this Linux host (hosted program)";
    snprintf(buf, sizeof buf, "%s, under Linux (hosted program)", brand);
    return buf;
}

/* How the run ended, in words ("interrupted during memory"); interrupted
 * says so beside the run's name, as its figures are only those of the
 * sections it finished. */
static const char *cr_run_state(json_t *root, char *buf, size_t n, int *interrupted)
{
    struct rs_state st;
    rs_read(root, &st);
    *interrupted = st.kind == RS_INTERRUPTED;
    return rs_words(&st, buf, n);
}

/* A name or unit for a column of the text: safe for a terminal, cut to
 * width with a "~" (and *cut set) when longer. */
static const char *cr_cell(char *buf, size_t n, const char *s, size_t width, int *cut)
{
    size_t len = 0;
    term_text(buf, n, s, 0);
    for (const char *p = buf; *p; p++)
        len += (*p & 0xc0) != 0x80;
    if (len <= width)
        return buf;
    term_text(buf, n, s, width - 1);
    char *note = strstr(buf, "... (");
    if (note)
        strcpy(note, "~");
    *cut = 1;
    return buf;
}

void cr_text(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const char *method, const struct cr_pair *pairs, size_t np)
{
    char b[5][48], nm[200], un[200];
    int cut = 0;
    struct cr_run *runs[2] = { A, B };
    for (int k = 0; k < 2; k++) {
        printf("%s: ", k ? "B" : "A");
        term_put(stdout, runs[k]->path, 120);
        fputs("  ", stdout);
        term_put(stdout, doc_str(runs[k]->root, "name", "?"), 40);
        fputs(" (", stdout);
        term_put(stdout, cr_machine(runs[k]->root), 80);
        int cut_short;
        const char *state = cr_run_state(runs[k]->root, nm, sizeof nm, &cut_short);
        if (cut_short)
            printf("), %s: only the sections it finished\n", state);
        else
            fputs(")\n", stdout);
    }
    printf("verdict at 95%% (Mann-Whitney p < %.2f decides; the medians differ by more than %.3g%% and move the "
           "same way as the ranks; Welch's p is in --json, for reference)\n\n", STATS_ALPHA, noise * 100);
    printf("%-7s %-34s %-15s %14s %14s %8s %12s  %s\n", "KIND", "NAME", "UNIT", "A", "B", "A/B",
           "MW P", "VERDICT");
    for (size_t i = 0; i < n; i++)
        printf("%-7s %-34s %-15s %14s %14s %8s %12s  %s\n", it[i].kind,
               cr_cell(nm, sizeof nm, cr_label(&it[i]), 34, &cut), cr_cell(un, sizeof un, it[i].unit, 15, &cut),
               num_text(b[0], 48, it[i].a), num_text(b[1], 48, it[i].b),
               isnan(it[i].ratio) ? "-" : (snprintf(b[2], 48, "%.4f", it[i].ratio), b[2]),
               isnan(it[i].mw_p) ? "-" : (figures_format_p(it[i].mw_p, b[4], 48), b[4]), it[i].verdict);
    if (!n)
        printf("(nothing to compare: no method, target or kernel is in both runs)\n");
    for (size_t i = 0; i < n; i++)
        if (it[i].method) {
            printf("\ntargets and routines: median net time per iteration, (timing - placeholder median) / "
                   "iterations, with %s%s\n", method ? method : CR_DEFAULT_TARGET_METHOD,
                   method ? "" : " (another method, named in brackets, where that one has no samples in both runs)");
            break;
        }
    if (np)
        printf("\nA/B comparisons in both runs (each run's verdict; the slower's time over the faster's, A/B or "
               "B/A, with its 95%% interval; Mann-Whitney's p, which decides):\n"
               "%-36s %-56s %-56s %s\n", "COMPARISON", "IN A", "IN B", "");
    for (size_t i = 0; i < np; i++) {
        char x[160], y[160], c2[200];
        printf("%-36s %-56s %-56s %s\n", cr_cell(nm, sizeof nm, pairs[i].name, 36, &cut),
               cr_cell(un, sizeof un, cr_pair_side(pairs[i].a, x, sizeof x), 56, &cut),
               cr_cell(c2, sizeof c2, cr_pair_side(pairs[i].b, y, sizeof y), 56, &cut),
               cr_pair_same(&pairs[i]) ? "same verdict" : "verdicts differ");
    }
    if (cut)
        printf("(~: a name or unit cut to its column; --json gives them whole)\n");
}


void cr_json(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const struct cr_pair *pairs, size_t np)
{
    json_t *o = json_object(), *items = json_array();
    struct cr_run *runs[2] = { A, B };
    for (int k = 0; k < 2; k++) {
        json_t *r = json_object();
        json_object_set_new(r, "file", json_string(runs[k]->path));
        json_object_set_new(r, "name", json_string(doc_str(runs[k]->root, "name", "")));
        json_object_set_new(r, "machine", json_string(cr_machine(runs[k]->root)));
        json_object_set_new(r, "tsc_khz", cr_num_or_null(runs[k]->khz));
        char words[64];
        int cut_short;
        json_object_set_new(r, "run", json_string(cr_run_state(runs[k]->root, words, sizeof words, &cut_short)));
        json_object_set_new(o, k ? "b" : "a", r);
    }
    json_object_set_new(o, "alpha", json_real(STATS_ALPHA));
    json_object_set_new(o, "verdict_p", json_string("mann_whitney_p"));
    json_object_set_new(o, "noise", json_real(noise));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "kind", json_string(it[i].kind));
        json_object_set_new(e, "name", json_string(it[i].name));
        if (it[i].method)
            json_object_set_new(e, "method", json_string(it[i].method));
        json_object_set_new(e, "unit", json_string(it[i].unit));
        json_object_set_new(e, "value", json_string(!strcmp(it[i].kind, "cores") ? "sum"
                                                    : strcmp(it[i].kind, "kernel") && strcmp(it[i].kind, "core")
                                                    ? "median" : "mean"));
        json_object_set_new(e, "n_a", json_integer((json_int_t)it[i].na));
        json_object_set_new(e, "n_b", json_integer((json_int_t)it[i].nb));
        json_object_set_new(e, "a", cr_num_or_null(it[i].a));
        json_object_set_new(e, "b", cr_num_or_null(it[i].b));
        json_object_set_new(e, "ratio", cr_num_or_null(it[i].ratio));
        json_object_set_new(e, "welch_p", cr_num_or_null(it[i].welch_p));
        json_object_set_new(e, "mann_whitney_p", cr_num_or_null(it[i].mw_p));
        json_object_set_new(e, "verdict", json_string(it[i].verdict));
        json_array_append_new(items, e);
    }
    json_object_set_new(o, "items", items);
    json_t *cmp = json_array();
    for (size_t i = 0; i < np; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(pairs[i].name));
        json_object_set_new(e, "rel_median_a", cr_num_or_null(doc_fig_num(pairs[i].a, &figures_compare, FIG_COMPARE_REL_MEDIAN)));
        json_object_set_new(e, "rel_median_b", cr_num_or_null(doc_fig_num(pairs[i].b, &figures_compare, FIG_COMPARE_REL_MEDIAN)));
        json_object_set_new(e, "ratio_a", cr_pair_ratio(pairs[i].a));
        json_object_set_new(e, "ratio_b", cr_pair_ratio(pairs[i].b));
        json_object_set_new(e, "verdict_a", json_string(doc_str(pairs[i].a, "verdict",
                                                                           doc_str(pairs[i].a, "status", "?")))); /* not a row: the pair's */
        json_object_set_new(e, "verdict_b", json_string(doc_str(pairs[i].b, "verdict",
                                                                           doc_str(pairs[i].b, "status", "?")))); /* not a row: the pair's */
        json_object_set_new(e, "same_verdict", json_boolean(cr_pair_same(&pairs[i])));
        json_array_append_new(cmp, e);
    }
    json_object_set_new(o, "comparisons", cmp);
    json_dumpf(o, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    putchar('\n');
    json_decref(o);
}

void cr_html(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const struct cr_pair *pairs, size_t np)
{
    char b[5][48];
    FILE *f = stdout;
    fputs("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>baremark: two runs compared</title>"
          "<style>body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1120px;padding:0 16px}"
          "table{border-collapse:collapse}td,th{border:1px solid #d6dbe4;padding:2px 8px;text-align:left}"
          "th{background:#eef2f8}td.n{text-align:right;font-variant-numeric:tabular-nums}"
          ".faster{color:#176b2c;font-weight:600}.slower{color:#a31515;font-weight:600}</style></head><body>"
          "<h1>Two runs compared</h1><table>", f);
    struct cr_run *runs[2] = { A, B };
    for (int k = 0; k < 2; k++) {
        fprintf(f, "<tr><th>%s</th><td>", k ? "B" : "A");
        html_put(f, runs[k]->path);
        fputs("</td><td>", f);
        html_put(f, doc_str(runs[k]->root, "name", ""));
        fputs("</td><td>", f);
        html_put(f, cr_machine(runs[k]->root));
        char words[64];
        int cut_short;
        fputs("</td><td>", f);
        html_put(f, cr_run_state(runs[k]->root, words, sizeof words, &cut_short));
        fputs("</td></tr>", f);
    }
    fprintf(f, "</table><p>Verdict at 95%%: Mann-Whitney's p below %.2f decides, with the medians more than %.3g%% "
            "apart and moving the same way as the ranks (Welch's p, for reference, is in --json). Methods: median "
            "overhead; targets and plug-in routines: median net time per iteration; kernels: mean score (larger is "
            "faster).</p><table id=\"compare\"><tr><th>kind</th><th>name</th><th>unit</th><th>A</th>"
            "<th>B</th><th>A/B</th><th>Mann-Whitney p (decides)</th><th>verdict</th></tr>",
            STATS_ALPHA, noise * 100);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<tr><td>%s</td><td>", it[i].kind);
        html_put(f, cr_label(&it[i]));
        fputs("</td><td>", f);
        html_put(f, it[i].unit);
        fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                "<td class=\"n\">%s</td><td class=\"%s\">%s</td></tr>", num_text(b[0], 48, it[i].a), num_text(b[1], 48, it[i].b),
                isnan(it[i].ratio) ? "-" : (snprintf(b[2], 48, "%.4f", it[i].ratio), b[2]),
                isnan(it[i].mw_p) ? "-" : (figures_format_p(it[i].mw_p, b[4], 48), b[4]),
                strstr(it[i].verdict, "faster") ? "faster" : strstr(it[i].verdict, "slower") ? "slower" : "",
                it[i].verdict);
    }
    fputs("</table>", f);
    if (np)
        fputs("<h2>A/B comparisons in both runs</h2><p>Each run's verdict; the slower's time over the faster's "
              "(A/B or B/A) with its 95% interval; Mann-Whitney's p, which decides.</p>"
              "<table id=\"pairs\"><tr><th>comparison</th><th>in A</th>"
              "<th>in B</th><th></th></tr>", f);
    for (size_t i = 0; i < np; i++) {
        char x[160], y[160];
        fputs("<tr class=\"pair\"><td>", f);
        html_put(f, pairs[i].name);
        fputs("</td><td>", f);
        html_put(f, cr_pair_side(pairs[i].a, x, sizeof x));
        fputs("</td><td>", f);
        html_put(f, cr_pair_side(pairs[i].b, y, sizeof y));
        fprintf(f, "</td><td>%s</td></tr>", cr_pair_same(&pairs[i]) ? "same verdict" : "verdicts differ");
    }
    fputs(np ? "</table></body></html>\n" : "</body></html>\n", f);
}
