/*
 * bench/compare/compare_summary.c - the comparisons section's part of the
 * run's summary (bench/summary/summary_part.h): each A/B pair's ratio (the
 * slower's time over the faster's), its 95% interval and Mann-Whitney's p,
 * as the run computed them once (stats_ab on a.samples and b.samples as
 * stored, already net of the overhead loop); an older file without
 * "ratio": stats_ab on those samples.  And what the pair is (a/b, an A/A
 * control, an order or placement check) and whether it came out as the
 * run expected.
 *
 * The ratio's figures and rel_median come by their rows
 * (figures_compare.h); a pair's noise and samples have no row of their own
 * (the table's "comparisons[*].*" declares them whole): read by name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_compare.h"
#include "platform.h"
#include "stats.h"
#include "summary_part.h"

summary_part_fn compare_summary;  /* its column in bench/sections.def */

/* The pair's figures as the run wrote them ("ratio"), else stats_ab on the
 * stored samples (an older file): the same function either way. */
static void compare_summary_figures(struct summary_ab *ab, struct jval c)
{
    const struct figure_table *t = &figures_compare;
    char side[8] = "";
    if (jval_str(jval_path(c, "ratio.faster"), side, sizeof side)) {
        ab->side = !strcmp(side, "a") ? STATS_AB_A : !strcmp(side, "b") ? STATS_AB_B : STATS_AB_NONE;
        ab->ratio = jval_num(figures_get(c, t, FIG_COMPARE_RATIO_ESTIMATE), NAN);
        ab->ratio_lo = jval_num(figures_get(c, t, FIG_COMPARE_RATIO_LO), NAN);
        ab->ratio_hi = jval_num(figures_get(c, t, FIG_COMPARE_RATIO_HI), NAN);
        ab->p = jval_num(figures_get(c, t, FIG_COMPARE_RATIO_P), NAN);
        return;
    }
    size_t na, nb;
    double *xa = summary_numbers(jval_path(c, "a.samples"), &na), *xb = summary_numbers(jval_path(c, "b.samples"), &nb);
    double *work = xa && xb ? plat_alloc(STATS_AB_WORK(na, nb) * sizeof *work) : NULL;
    struct stats_ab st;
    stats_ab(xa, na, xb, nb, work, &st);
    ab->side = (int)st.faster;
    ab->ratio = st.estimate;
    ab->ratio_lo = st.lo;
    ab->ratio_hi = st.hi;
    ab->p = st.p;
    plat_free(work);
    plat_free(xa);
    plat_free(xb);
}

/* What the pair is: the run's "check", else (an older file) from what it
 * expects, its order and its two routines. */
static void compare_summary_check(struct summary_ab *ab, struct jval c)
{
    char expect[32] = "", order[16] = "", kind[SUMMARY_NAME_MAX] = "";
    int same = !strcmp(ab->a, ab->b);
    jval_str(jval_get(c, "expect"), expect, sizeof expect);
    jval_str(jval_get(c, "order"), order, sizeof order);
    jval_str(jval_get(c, "kind"), kind, sizeof kind);
    ab->abab = !strcmp(order, "alternate");
    if (!jval_str(jval_get(c, "check"), ab->check, sizeof ab->check))
        snprintf(ab->check, sizeof ab->check, "%s",
                 !strncmp(kind, "order check", 11) || (same && ab->abab) ? "order check"
                 : !strncmp(kind, "placement check", 15) || strstr(kind, "identical copy") ? "placement check"
                 : same && !strcmp(expect, "no difference") ? "a/a control" : "a/b");
    ab->control = !strcmp(ab->check, "a/a control");
    const char *how = ab->as_expected == 0 ? ": NOT as expected" : ab->as_expected == 1 ? ", as expected" : "";
    if (ab->control)
        snprintf(ab->note, sizeof ab->note, " (A/A control%s)", how);
    else if (!strcmp(ab->check, "order check"))
        snprintf(ab->note, sizeof ab->note, " (order check, ABAB%s)", how);
    else if (!strcmp(ab->check, "placement check"))
        snprintf(ab->note, sizeof ab->note, " (placement check)");
    else if (ab->abab)
        snprintf(ab->note, sizeof ab->note, " (ABAB order%s)", ab->as_expected == 0 ? ", NOT as expected" : "");
    else if (ab->as_expected == 0)
        snprintf(ab->note, sizeof ab->note, " (not what the run expected)");
}

static void compare_summary_one(struct summary_ab *ab, struct jval c)
{
    char verdict[32] = "";
    jval_str(jval_get(c, "name"), ab->name, sizeof ab->name);
    jval_str(jval_path(c, "a.name"), ab->a, sizeof ab->a);
    jval_str(jval_path(c, "b.name"), ab->b, sizeof ab->b);
    jval_str(jval_get(c, "verdict"), verdict, sizeof verdict);
    ab->detected = verdict[0] && strcmp(verdict, "no difference");
    if (!jval_str(jval_get(c, "status"), ab->status, sizeof ab->status))   /* not a row: the pair's status */
        snprintf(ab->status, sizeof ab->status, "ok");
    ab->as_expected = jval_bool(jval_get(c, "as_expected"), -1);
    compare_summary_check(ab, c);
    compare_summary_figures(ab, c);
    ab->rel_median = jval_num(figures_get(c, &figures_compare, FIG_COMPARE_REL_MEDIAN), NAN);
    ab->noise = jval_num(jval_get(c, "noise"), NAN);  /* not a row: the pair's bound, comparisons[*].* (the row "noise" is the plan's) */
    ab->within_noise = !ab->detected && ab->p < STATS_ALPHA && !isnan(ab->rel_median) && !isnan(ab->noise) &&
                       fabs(ab->rel_median) <= ab->noise;
    int b_faster = ab->side == STATS_AB_B;
    memcpy(ab->faster, b_faster ? ab->b : ab->a, sizeof ab->faster);
    memcpy(ab->slower, b_faster ? ab->a : ab->b, sizeof ab->slower);
}

void compare_summary(struct summary *s, struct jval cmp, struct jval doc)
{
    struct jval c;
    size_t it = 0;
    while (jval_next(figures_array(cmp, &figures_compare, FIG_COMPARE_RATIO_ESTIMATE), &it, NULL, &c) &&
           s->n_ab < SUMMARY_AB_MAX) {
        struct summary_ab *ab = &s->ab[s->n_ab++];
        compare_summary_one(ab, c);
    }
}
