/*
 * bench/bytemark/report_bytemark.c - the report's BYTEmark section: each kernel's score
 * with its runs and 95% interval, and what the indexes mean (their values
 * are in the fold's tracked figures, report_figures.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_bytemark.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

static void bytemark_row(FILE *f, json_t *t)
{
    double *x;
    size_t n = doc_run_scores(t, &x);
    /* the mean by its row; sd and half are detail (tests[*].*), no row of their own */
    double mean = doc_fig_num(t, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN), sd = doc_num(t, "sd", NAN),
           half = doc_num(t, "half", NAN);
    char b[6][48];
    if (n && (isnan(mean) || isnan(sd) || isnan(half))) {
        double *s = malloc(n * sizeof *s);
        struct stats_summary xs;
        struct stats_bytemark bm;
        if (s && !stats_summary_double(x, n, s, NULL, &xs)) {
            stats_bytemark_rule(n, xs.mean, xs.sd_sample, &bm);
            mean = isnan(mean) ? xs.mean : mean;
            sd = isnan(sd) ? xs.sd_sample : sd;
            half = isnan(half) ? bm.half : half;
        }
        free(s);
    }
    fputs("<tr><td>", f);
    html_put(f, doc_name(t, "?"));
    fputs("</td><td>", f);
    html_put(f, doc_str(t, "status", ""));    /* not a row: a test's status, tests[*].* */
    if (doc_str(t, "why", NULL)) {
        fputs(": ", f);
        html_put(f, doc_str(t, "why", ""));
    }
    fputs("</td><td>", f);
    html_put(f, doc_str(t, "unit", ""));
    fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n score\">%s</td><td class=\"n\">%s</td><td class=\"n\">",
            n, num_text(b[0], 48, mean), num_text(b[1], 48, sd));
    if (!isnan(half) && mean > 0)
        fprintf(f, "&plusmn;&nbsp;%s (%s%%)", num_text(b[2], 48, half), num_text(b[3], 48, round(half / mean * 1000) / 10));
    else
        fputs("-", f);
    fputs("</td><td>", f);
    svg_runs(f, x, n, mean, half);
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>", num_text(b[4], 48, doc_fig_num(t, &figures_bytemark, FIG_BYTEMARK_TESTS_OLD_INDEX)),
            num_text(b[5], 48, doc_fig_num(t, &figures_bytemark, FIG_BYTEMARK_TESTS_NEW_INDEX)));
    free(x);
}

/* The five indexes are tracked figures: the fold's table of them
 * (report_figures.c, from bench/bytemark/figures_bytemark.c) shows their values;
 * here what they are measured against. */
static void index_note(FILE *f, json_t *idx)
{
    fputs("<p class=\"note\">The five indexes are in the tracked figures below: bytemark_original_* against "
          "BYTEmark's Pentium 90 (= 1), bytemark_linux_* against the Linux port's AMD K6-233 (= 1).", f);
    if (json_is_number(json_object_get(idx, "tests_missing")))
        fprintf(f, " Tests that did not run, left out of the products: %.0f.", doc_num(idx, "tests_missing", 0));
    fputs("</p>", f);
}

static void part_bytemark(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "bytemark"), *tests, *t, *idx;
    size_t i;
    if (rp_section_missing(f, sec))
        return;
    tests = doc_fig_list(sec, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN);
    if (rp_array_of_objects(tests)) {
        fputs("<table id=\"bytemark-tests\"><tr><th>test</th><th>status</th><th>unit</th><th>runs</th><th>score (mean)</th><th>sd</th>"
              "<th>95% interval</th><th>runs (dots) and the 95% interval</th><th>old index</th><th>new index</th></tr>", f);
        json_array_foreach(tests, i, t)
            bytemark_row(f, t);
        fputs("</table>", f);
    }
    idx = json_object_get(sec, "indexes");
    fputs("<h3>Indexes</h3>", f);
    if (json_is_object(idx))
        index_note(f, idx);
    else
        fputs("<p class=\"none\">not computed (CUSTOMRUN, as in BYTEmark, or not in the results)</p>", f);
    if (json_is_object(sec)) {
        fputs("<h3>Run settings</h3>", f);
        rp_kv_table_skip(f, sec, "indexes");
    }
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_bytemark = { "bytemark", "bytemark", "BYTEmark kernels", part_bytemark };
