/*
 * tools/host/validate/validate_compare.c - the comparisons section (bench/compare/compare.c): each A/B
 * comparison's samples, means and verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_compare.h"
#include "report_ab.h"
#include "report_util.h"
#include "stats.h"
#include "validate.h"

/* The paired test follows from the samples: A - B per trial, Wilcoxon's
 * signed rank (stats/paired.c). */
static void comparisons_check_paired(json_t *c, json_t *a, json_t *b, const char *at, const char *file,
                                     int *problems, int quiet)
{
    json_t *pd = json_object_get(c, "paired"), *sa = doc_samples(a), *sb = doc_samples(b);
    size_t n = json_is_array(sa) ? json_array_size(sa) : 0;
    if (!json_is_object(pd) || !n || !json_is_array(sb) || json_array_size(sb) != n)
        return;
    size_t wl = STATS_SIGNED_RANK_WORK(n < STATS_SIGNED_RANK_EXACT_MAX ? n : STATS_SIGNED_RANK_EXACT_MAX);
    double *d = malloc(2 * n * sizeof *d), *work = malloc(wl * sizeof *work);
    struct stats_paired s;
    if (d && work) {
        for (size_t i = 0; i < n; i++)
            d[i] = json_number_value(json_array_get(sa, i)) - json_number_value(json_array_get(sb, i));
        stats_signed_rank(d, n, d + n, work, wl, &s);
        rv_expect_close(doc_num(pd, "pairs", NAN), (double)n, "paired.pairs vs the trials", at, file, problems, quiet);
        rv_expect_close(doc_num(pd, "mean_diff", NAN), s.mean_diff, "paired.mean_diff vs A - B per trial", at, file,
                        problems, quiet);
        rv_expect_close(doc_num(pd, "p", NAN), s.p,   /* not a row: paired.p, comparisons[*].* */ "paired.p vs the signed-rank test of A - B per trial", at, file,
                        problems, quiet);
    }
    free(d);
    free(work);
}

/* The pair's figures follow from the samples as stored (stats_ab). */
static void comparisons_check_ratio(json_t *c, const char *at, const char *file, int *problems, int quiet)
{
    const struct figure_table *t = &figures_compare;
    json_t *r = json_object_get(c, "ratio");
    double *a = NULL, *b = NULL;
    const char *la, *lb;
    if (!json_is_object(r))
        return;
    size_t na = doc_ab_samples(c, 0, &a, &la), nb = doc_ab_samples(c, 1, &b, &lb);
    double *work = na && nb ? malloc(STATS_AB_WORK(na, nb) * sizeof *work) : NULL;
    struct stats_ab s;
    if (!stats_ab(a, na, b, nb, work, &s)) {
        if (strcmp(doc_str(r, "faster", ""), stats_ab_side_name(s.faster)))
            rv_say(file, at, "ratio.faster is not the side the samples' ranks call faster", problems, quiet);
        rv_expect_close(doc_fig_num(c, t, FIG_COMPARE_RATIO_ESTIMATE), s.estimate, "ratio.estimate vs the samples' Hodges-Lehmann", at,
                        file, problems, quiet);
        rv_expect_close(doc_fig_num(c, t, FIG_COMPARE_RATIO_LO), s.lo, "ratio.lo vs the samples'", at, file, problems, quiet);
        rv_expect_close(doc_fig_num(c, t, FIG_COMPARE_RATIO_HI), s.hi, "ratio.hi vs the samples'", at, file, problems, quiet);
        rv_expect_close(doc_fig_num(c, t, FIG_COMPARE_RATIO_P), s.p, "ratio.p vs the samples' Mann-Whitney p", at, file, problems,
                        quiet);
    }
    free(work);
    free(a);
    free(b);
}

/* Each comparison: A and B have as many samples as trials, the means are
 * the samples' and the differences the means'. */
static void comparisons_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *c;
    size_t i;
    char at[300], nm[120];
    rv_quiet_phases(sec, where, (long)json_array_size(json_object_get(sec, "comparisons")), file, problems,
                       quiet);
    json_array_foreach(json_object_get(sec, "comparisons"), i, c) {
        json_t *a = json_object_get(c, "a"), *b = json_object_get(c, "b");
        double mn, mx, ma, mb;
        snprintf(at, sizeof at, "%s.comparisons[%zu] (%s)", where, i, rv_name(nm, sizeof nm, c, "name"));
        if (!a || !b)
            continue;
        size_t na = rv_arr_stats(doc_samples(a), &mn, &mx, &ma);
        size_t nb = rv_arr_stats(doc_samples(b), &mn, &mx, &mb);
        if (na != nb)
            rv_say(file, at, "A and B have different numbers of samples (one pair per trial)", problems, quiet);
        rv_expect_close(doc_num(c, "accuracy", NAN), (double)na,   /* not a row: the pair's trials, comparisons[*].* */ "accuracy (trials)", at, file, problems, quiet);
        comparisons_check_paired(c, a, b, at, file, problems, quiet);
        comparisons_check_ratio(c, at, file, problems, quiet);
        rv_expect_close(doc_num(a, "mean", NAN), ma, "a.mean", at, file, problems, quiet);  /* not a row: a side's mean, comparisons[*].* */
        rv_expect_close(doc_num(b, "mean", NAN), mb, "b.mean", at, file, problems, quiet);  /* not a row: as above */
        /* Means of non-empty samples and their difference are finite:
         * missing or null is an error, not a check to skip. */
        char sat[320];
        snprintf(sat, sizeof sat, "%s.a", at);
        if (na)
            rv_need_num(a, "mean", "(A has samples)", sat, file, problems, quiet);
        snprintf(sat, sizeof sat, "%s.b", at);
        if (nb)
            rv_need_num(b, "mean", "(B has samples)", sat, file, problems, quiet);
        if (na && nb)
            rv_need_num(c, "diff_mean", "(A and B have samples)", at, file, problems, quiet);
        /* The difference of the stated means, or of the samples' when a
         * stated mean is itself missing (reported above). */
        double da = doc_num(a, "mean", NAN), db = doc_num(b, "mean", NAN);     /* not a row: the sides' means */
        rv_expect_close(doc_num(c, "diff_mean", NAN), (isnan(da) ? ma : da) - (isnan(db) ? mb : db),
                        "diff_mean vs a.mean - b.mean", at, file, problems, quiet);
        /* The values outside the pooled outer fences, counted again. */
        double lo = doc_num(c, "fence_low", NAN), hi = doc_num(c, "fence_high", NAN);
        if (!isnan(lo) && !isnan(hi)) {
            if (lo > hi)
                rv_say(file, at, "fence_low is above fence_high", problems, quiet);
            const char *side[2] = { "outside_a", "outside_b" };
            json_t *sm[2] = { doc_samples(a), doc_samples(b) };
            for (int k = 0; k < 2; k++) {
                size_t out = 0, j;
                json_t *x;
                json_array_foreach(sm[k], j, x)
                    out += json_number_value(x) < lo || json_number_value(x) > hi;
                rv_expect_close(doc_num(c, side[k], NAN), (double)out, side[k], at, file, problems, quiet);
            }
        }
        const char *expect = doc_str(c, "expect", NULL), *verdict = doc_str(c, "verdict", NULL);
        json_t *ok = json_object_get(c, "as_expected");
        if (expect && verdict && json_is_boolean(ok)
            && json_is_true(ok) != (!strcmp(expect, "none") || !strcmp(expect, verdict)))
            rv_say(file, at, "as_expected disagrees with expect and verdict", problems, quiet);
    }
}

const struct rv_section rv_section_comparisons = { "comparisons", 0, comparisons_check };
