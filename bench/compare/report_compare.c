/*
 * bench/compare/report_compare.c - the report's A/B comparisons (bench/compare/compare.c):
 * Karsh's raw-sample strip, overlaid histograms, the run's verdict and one
 * recomputed from the raw samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_compare.h"
#include "figures_text.h"
#include "report_parts.h"
#include "report_ab.h"
#include "report_util.h"
#include "stats/stats.h"

/* The paired test of the trials, the run's and recomputed from the raw
 * samples, and what an A/A's figure means. */
static void comparison_paired(FILE *f, json_t *cmp, const double *a, const double *b, size_t n, double *d)
{
    json_t *pd = json_object_get(cmp, "paired");
    size_t wl = STATS_SIGNED_RANK_WORK(n < STATS_SIGNED_RANK_EXACT_MAX ? n : STATS_SIGNED_RANK_EXACT_MAX);
    double *work = malloc(wl * sizeof *work), *scratch = malloc(n * sizeof *scratch);
    struct stats_paired s;
    char m[48], h[48], p1[48], p2[48];
    for (size_t i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    if (work && scratch && !stats_signed_rank(d, n, scratch, work, wl, &s))
        fprintf(f, "<p class=\"paired\">paired, A - B in each trial: mean %s &plusmn; %s ticks (95%%); Wilcoxon "
                "signed-rank p = %s in the run, %s recomputed (%s)</p>", num_text(m, sizeof m, s.mean_diff),
                num_text(h, sizeof h, s.mean_half95), num_text(p1, sizeof p1, doc_num(pd, "p", NAN)), /* not a row: paired.p */
                num_text(p2, sizeof p2, s.p), s.exact ? "exact" : "normal approximation");
    if (!strcmp(doc_str(cmp, "expect", ""), "no difference") && !strcmp(doc_str(cmp, "order", ""), "random"))
        fputs("<p class=\"note\">An A/A (one routine at one address, the order drawn per trial): its signed-rank p "
              "is below 0.05 in 1 run of 20 by chance. It checks the harness and the statistics; it cannot see "
              "an effect both labels share, such as where the code sits.</p>", f);
    free(work);
    free(scratch);
}

/* The pair's figures, as every output shows them (doc_ab_ratio: the run's
 * "ratio" member, else stats_ab on the stored samples). */
static void comparison_ratio(FILE *f, json_t *cmp, const char *la, const char *lb)
{
    struct stats_ab ab;
    char e[48], ci[64], p[48];
    if (doc_ab_ratio(cmp, &ab))
        return;
    figures_format_p(ab.p, p, sizeof p);
    fputs("<p class=\"ratio\">", f);
    if (isnan(ab.estimate)) {
        fputs("no ratio (a sample at or below 0 after the overhead)", f);
    } else {
        figures_format(ab.estimate, e, sizeof e);
        figures_format_interval(ab.lo, ab.hi, ci, sizeof ci);
        if (ab.faster == STATS_AB_NONE) {
            fputs("neither is faster by the ranks; B's time over A's ", f);
        } else {
            fputs(ab.faster == STATS_AB_B ? "A's time (" : "B's time (", f);
            html_put(f, ab.faster == STATS_AB_B ? la : lb);
            fputs(ab.faster == STATS_AB_B ? ") over B's (" : ") over A's (", f);
            html_put(f, ab.faster == STATS_AB_B ? lb : la);
            fputs(") ", f);
        }
        fprintf(f, "%s&times; %s (95%%, Hodges-Lehmann on the logs)", e, ci);
    }
    fprintf(f, ", Mann-Whitney %s</p>", p);
}

static void comparison_card(FILE *f, json_t *cmp)
{
    double *a = NULL, *b = NULL;
    const char *la, *lb, *unit = doc_str(cmp, "unit", "ticks");
    size_t na = doc_ab_samples(cmp, 0, &a, &la), nb = doc_ab_samples(cmp, 1, &b, &lb);
    const char *verdict = doc_str(cmp, "verdict", NULL);

    fputs("<div class=\"comparison\"><h3>", f);
    html_put(f, doc_name(cmp, "comparison"));
    fputs("</h3>", f);
    if (verdict) {
        fprintf(f, "<p class=\"verdict %s\">the run's verdict: A (", strstr(verdict, "faster") ? "faster" :
                strstr(verdict, "slower") ? "slower" : "same");
        html_put(f, la);
        fputs(") against B (", f);
        html_put(f, lb);
        fputs("): ", f);
        html_put(f, verdict);
        fputs("</p>", f);
    }
    comparison_ratio(f, cmp, la, lb);
    if (na >= 2 && nb >= 2) {
        double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
        struct stats_summary xa, xb;
        struct stats_compare c;
        char p1[48], p2[48], z[48], p3[48];
        if (sa && sb && !stats_summary_double(a, na, sa, NULL, &xa) && !stats_summary_double(b, nb, sb, NULL, &xb)) {
            stats_compare_sorted_double(sa, &xa, sb, &xb, REPORT_NOISE, &c);
            figures_format_p(c.mw_p, p2, sizeof p2);
            fprintf(f, "<p class=\"recomputed\">recomputed from the raw samples: A is <span class=\"verdict\">%s</span> "
                    "at 95%% (Mann-Whitney %s decides; noise threshold %.0f%%). For reference, not deciding: "
                    "Welch p = %s, Karsh Z = %s, Welch p within the pooled outer fences = %s (A %zu, B %zu outside)</p>",
                    stats_verdict_name(c.verdict), p2, REPORT_NOISE * 100, num_text(p1, sizeof p1, c.welch_p),
                    num_text(z, sizeof z, c.karsh_z), num_text(p3, sizeof p3, c.fenced_welch_p), c.out_a, c.out_b);
        }
        if (sa && sb && na == nb)
            comparison_paired(f, cmp, a, b, na, sa);
        free(sa);
        free(sb);
    }
    rp_kv_table(f, cmp);
    fputs("<div class=\"card\"><h4>Raw samples in the order taken (A blue, B orange)</h4>", f);
    svg_strip(f, a, na, b, nb, unit);
    fputs("</div><div class=\"card\"><h4>Histograms on one scale</h4>", f);
    svg_histogram(f, a, na, b, nb, unit, la, lb);
    fputs("</div></div>", f);
    free(a);
    free(b);
}

static void part_comparisons(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "comparisons"), *list, *el;
    size_t i;
    if (rp_section_missing(f, sec))
        return;
    list = doc_fig_list(sec, &figures_compare, FIG_COMPARE_REL_MEDIAN);
    json_array_foreach(list, i, el)
        if (json_is_object(el))
            comparison_card(f, el);
    if (json_is_object(sec) && rp_kv_count(sec)) {
        fputs("<h3>Other comparison results</h3>", f);
        rp_kv_table(f, sec);
    }
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_compare = { "comparisons", "comparisons", "A/B comparisons", part_comparisons };
