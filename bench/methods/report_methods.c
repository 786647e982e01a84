/*
 * bench/methods/report_methods.c - the report's methods section (bench/methods/methods.c):
 * overheads with their histograms and the measurements' three estimators.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_methods.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

/* A summary line of a sample, from stats/. */
static void sample_summary(FILE *f, const double *x, size_t n, const char *unit)
{
    struct stats_summary s;
    double *scratch = malloc((n ? n : 1) * sizeof *scratch);
    char a[48], b[48], c[48], d[48];
    if (!scratch || stats_summary_double(x, n, scratch, NULL, &s) != 0) {
        free(scratch);
        return;
    }
    fprintf(f, "<p>n = %zu; min %s, median %s, mean %s, sd %s ", n, num_text(a, sizeof a, s.min),
            num_text(b, sizeof b, s.median), num_text(c, sizeof c, s.mean), num_text(d, sizeof d, s.sd_sample));
    html_put(f, unit);
    fputs("</p>", f);
    free(scratch);
}

/* Each element of a list that carries raw samples gets a histogram card. */
static void sample_cards(FILE *f, json_t *list, const char *what)
{
    json_t *el;
    size_t i;
    json_array_foreach(list, i, el) {
        double *x;
        size_t n = doc_method_samples(el, &x);
        const char *unit = doc_str(el, "unit", "ticks");
        if (!n)
            continue;
        fprintf(f, "<div class=\"card %s\" data-name=\"", what);
        html_put(f, doc_name(el, "?"));
        fputs("\"><h4>", f);
        html_put(f, doc_name(el, "?"));
        fputs("</h4>", f);
        sample_summary(f, x, n, unit);
        svg_histogram(f, x, n, NULL, 0, unit, NULL, NULL);
        fputs("</div>", f);
        free(x);
    }
}

/* The methods section's measurements (bench/methods/methods.c): the three net-time
 * estimators per target and method, in ticks and ns per iteration. */
static void measurements_table(FILE *f, json_t *list)
{
    static const char *const est[] = { "minus_placeholder", "apple", "n_vs_2n" };
    json_t *el;
    size_t i;
    char b[48];
    fputs("<table id=\"method-measurements\"><tr><th rowspan=\"2\">target</th><th rowspan=\"2\">method</th>"
          "<th rowspan=\"2\">status</th><th rowspan=\"2\">N</th><th colspan=\"3\">ticks per iteration</th>"
          "<th colspan=\"3\">ns per iteration</th><th rowspan=\"2\">net median (ticks)</th>"
          "<th rowspan=\"2\">net sd</th><th rowspan=\"2\">retakes (calibration / benchmark)</th>"
          "<th rowspan=\"2\">N asked</th><th rowspan=\"2\">fence above each median (ticks)</th><th rowspan=\"2\">Mann-Whitney p</th>"
          "<th rowspan=\"2\">paired signed-rank p</th>"
          "<th rowspan=\"2\">untruncated above the fence (routine / placeholder)</th>"
          "</tr><tr>"
          "<th>minus placeholder</th><th>(N+2)-(2)</th><th>N vs 2N</th>"
          "<th>minus placeholder</th><th>(N+2)-(2)</th><th>N vs 2N</th></tr>", f);
    json_array_foreach(list, i, el) {
        json_t *pi = json_object_get(el, "per_iteration"), *ns = json_object_get(el, "per_iteration_ns");
        json_t *net = json_object_get(el, "net");
        fputs("<tr><td>", f);
        html_put(f, doc_str(el, "target", "?"));
        fputs("</td><td>", f);
        html_put(f, doc_str(el, "method", "?"));
        fputs("</td><td>", f);
        html_put(f, doc_str(el, "status", ""));        /* not a row: measurements[*].* */
        fprintf(f, "</td><td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(el, "iterations", NAN))); /* not a row: its N */
        for (int k = 0; k < 3; k++)
            fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(pi, est[k], NAN)));
        for (int k = 0; k < 3; k++)
            fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(ns, est[k], NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_fig_num(el, &figures_methods, FIG_METHODS_NET_MEDIAN)));
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(net, "sd", NAN)));
        if (json_object_get(el, "calibration_retakes"))
            fprintf(f, "<td class=\"n\">%s / %s</td>", num_text(b, sizeof b, doc_num(el, "calibration_retakes", NAN)),
                    num_text(b + 24, 24, doc_num(el, "benchmark_retakes", NAN)));
        else
            fputs("<td></td>", f);
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(el, "iterations_requested", NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(el, "fence_above_median", NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(el, "mann_whitney_p", NAN))); /* not a row: measurements[*].* */
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b, sizeof b, doc_num(json_object_get(el, "paired"), "p", NAN))); /* not a row: paired.p */
        /* the first passes as taken: how many timings each series' fence sent back */
        double fence_t = doc_num(el, "benchmark_fence", NAN), fence_p = doc_num(el, "calibration_fence", NAN);
        json_t *rt = json_object_get(el, "samples_untruncated"), *rp = json_object_get(el, "placeholder_samples_untruncated");
        if (json_is_array(rt) && json_is_array(rp) && !isnan(fence_t) && !isnan(fence_p)) {
            size_t k, above_t = 0, above_p = 0;
            json_t *x;
            json_array_foreach(rt, k, x)
                above_t += json_number_value(x) > fence_t;
            json_array_foreach(rp, k, x)
                above_p += json_number_value(x) > fence_p;
            fprintf(f, "<td class=\"n\">%zu / %zu of %zu</td></tr>", above_t, above_p, json_array_size(rt));
        } else {
            fputs("<td></td></tr>", f);
        }
    }
    fputs("</table>", f);
}

/* One row of the A/A or placement check's table. */
static void methods_aa_row(FILE *f, json_t *nc, const char *label)
{
    char a[48], b[48], c[48], d[48], e[48];
    if (!json_is_object(nc))
        return;
    fputs("<tr><td>", f);
    html_put(f, label);
    fputs("</td><td>", f);
    html_put(f, doc_str(nc, "routine", "?"));
    fputs(" vs ", f);
    html_put(f, doc_str(nc, "placeholder", "placeholder"));
    fputs("</td><td>", f);
    html_put(f, doc_str(nc, "method", "?"));
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
            num_text(a, sizeof a, doc_num(nc, "measured", NAN)), num_text(b, sizeof b, doc_num(nc, "p_below_0_05", NAN)),
            num_text(c, sizeof c, doc_num(nc, "bound_0_05", NAN)), num_text(d, sizeof d, doc_num(nc, "p_below_0_5", NAN)));
    fprintf(f, "<td class=\"n\">%s..%s</td>", num_text(e, sizeof e, doc_num(nc, "band_0_5_low", NAN)),
            num_text(a, sizeof a, doc_num(nc, "band_0_5_high", NAN)));
    fprintf(f, "<td class=\"n\">%s &plusmn; %s</td>", num_text(b, sizeof b, doc_num(nc, "effect_mean", NAN)),
            num_text(c, sizeof c, doc_num(nc, "effect_half95", NAN)));
    fprintf(f, "<td class=\"n\">%s</td><td>%s</td><td>%s</td></tr>", num_text(d, sizeof d, doc_num(nc, "told_apart", NAN)),
            json_is_true(json_object_get(nc, "false_positives_within_bound")) ? "yes" : "NO",
            json_is_true(json_object_get(nc, "spread_even")) ? "yes" : "no");
}

/* The extended profile's picks, the A/A check and the placement check. */
static void methods_profile_null(FILE *f, json_t *methods)
{
    json_t *prof = json_object_get(methods, "extended_profile"), *nc = json_object_get(methods, "null_check");
    json_t *pc = json_object_get(methods, "placement_check");
    char a[48], b[48];
    if (json_is_object(prof) && doc_str(prof, "best_method", NULL)) {
        fputs("<p id=\"methods-profile\">Extended profile of ", f);
        html_put(f, doc_str(prof, "routine", "?"));
        fprintf(f, ": best %s ticks/iteration with ", num_text(a, sizeof a, doc_num(prof, "best_ticks", NAN)));
        html_put(f, doc_str(prof, "best_method", "?"));
        fputs(" (", f);
        html_put(f, doc_str(prof, "best_estimator", "smallest net sample"));
        fprintf(f, "); fastest mean %s with ", num_text(b, sizeof b, doc_num(prof, "fastest_mean_ticks", NAN)));
        html_put(f, doc_str(prof, "fastest_mean_method", "?"));
        fputs(" (", f);
        html_put(f, doc_str(prof, "fastest_mean_estimator", "smallest net mean"));
        fputs("); ties: ", f);
        html_put(f, doc_str(prof, "tie_break", "not stated"));
        fputs(".</p>", f);
    }
    if (json_is_object(nc) || json_is_object(pc)) {
        fputs("<h3>A/A check and placement check</h3><table id=\"methods-null-check\"><tr><th>check</th>"
              "<th>routine</th><th>method</th><th>measured</th><th>signed-rank p &lt; 0.05</th><th>99.9% bound</th>"
              "<th>p &lt; 0.5</th><th>99.9% band</th><th>effect (ticks, routine - placeholder)</th>"
              "<th>Mann-Whitney told apart</th><th>within the bound</th><th>spread evenly</th></tr>", f);
        methods_aa_row(f, nc, "A/A: one routine at one address, order drawn per pair");
        methods_aa_row(f, pc, "placement: two copies at different addresses (a finding, not a control)");
        fputs("</table><p class=\"note\">The A/A figure says whether the harness and the paired test call identical "
              "code different more often than chance (5%) allows; it cannot see an effect that is the same for "
              "both labels, such as where code sits or which member of a pair goes first. The placement check "
              "shows the first of those.</p>", f);
    }
    json_t *ps = json_object_get(nc, "paired_p");
    if (json_is_array(ps) && json_array_size(ps)) {
        size_t n = json_array_size(ps), i;
        double *x = malloc(n * sizeof *x);
        json_t *v;
        if (x) {
            json_array_foreach(ps, i, v)
                x[i] = json_number_value(v);
            fputs("<div class=\"card null-check\"><h4>Signed-rank p of the A/A (even over 0..1, or high on a "
                  "coarse counter, when identical code is not told apart)</h4>", f);
            svg_histogram(f, x, n, NULL, 0, "p", NULL, NULL);
            fputs("</div>", f);
            free(x);
        }
    }
}

static void part_methods(struct report *r)
{
    FILE *f = r->f;
    json_t *methods = json_object_get(r->root, "methods"), *list, *v;
    const char *k;
    if (rp_section_missing(f, methods))
        return;
    list = doc_fig_list(methods, &figures_methods, FIG_METHODS_OVERHEAD_MEDIAN);
    if (rp_array_of_objects(list)) {
        fputs("<h3>Overhead and resolution</h3>", f);
        rp_list_table(f, list);
        sample_cards(f, list, "method");
    }
    if (!json_is_object(methods))
        return;
    /* Other lists (measurements, profiles): a table and their histograms. */
    json_object_foreach(methods, k, v) {
        if (v == list || !rp_array_of_objects(v))
            continue;
        fputs("<h3>", f);
        html_put(f, k);
        fputs("</h3>", f);
        if (!strcmp(k, "measurements"))
            measurements_table(f, v);
        else
            rp_list_table(f, v);
        sample_cards(f, v, "measurement");
    }
    if (rp_kv_count(methods)) {
        fputs("<h3>Other method results</h3>", f);
        rp_kv_table(f, methods);
    }
    methods_profile_null(f, methods);
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_methods = { "methods", "methods", "Timing methods", part_methods };
