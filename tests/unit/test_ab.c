/*
 * tests/unit/test_ab.c - an A/B pair's figures (stats/ab.c stats_ab: the
 * faster side, the slower's time over the faster's with its 95% interval,
 * Mann-Whitney's p) against values computed independently in Python:
 * tests/vectors/stats/vectors_ab.h, written by
 * tests/vectors/stats/make_ab_vectors.py (numpy, scipy.stats.mannwhitneyu).
 * Then the readers: the summary (bench/summary/summary.c) and the host's jansson
 * reader (doc_ab_ratio) of the two committed results files must show those
 * same figures for each comparison, from the samples as stored (nothing
 * subtracted again).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "figures_compare.h"
#include "stats/stats.h"
#include "summary.h"
#include "tools/host/common/commands.h"
#include "bench/compare/report_ab.h"
#include "bench/report/report_util.h"
#include "tests/vectors/stats/vectors_ab.h"

#define FIXTURES "tests/fixtures/"

/* |got - want| within rel of want (both NaN passes). */
static void near_rel(double got, double want, double rel, const char *what, const char *name)
{
    char w[200];
    snprintf(w, sizeof w, "%s: %s", name, what);
    CHECK_NEAR(got, want, isnan(want) ? 0 : fabs(want) * rel, w);
}

static void check_figures(const char *name, int side, double est, double lo, double hi, double p,
                          int want_side, double want_est, double want_lo, double want_hi, double want_p)
{
    char w[200];
    snprintf(w, sizeof w, "%s: faster side %d", name, want_side);
    CHECK_EQ_I64(side, want_side, w);
    near_rel(est, want_est, 1e-12, "ratio", name);
    near_rel(lo, want_lo, 1e-12, "interval's low end", name);
    near_rel(hi, want_hi, 1e-12, "interval's high end", name);
    near_rel(p, want_p, 1e-9, "Mann-Whitney p", name);
}

static void test_vectors(void)
{
    for (size_t i = 0; i < sizeof vec_abs / sizeof vec_abs[0]; i++) {
        const struct vec_ab *v = &vec_abs[i];
        double *work = malloc(STATS_AB_WORK(v->na, v->nb) * sizeof *work);
        struct stats_ab ab;
        CHECK(stats_ab(v->a, v->na, v->b, v->nb, work, &ab) == 0, v->name);
        check_figures(v->name, (int)ab.faster, ab.estimate, ab.lo, ab.hi, ab.p, v->side, v->estimate, v->lo,
                      v->hi, v->p);
        free(work);
    }
}

static void test_bad_input(void)
{
    double a[3] = { 1, 2, 3 }, b[3] = { 4, NAN, 6 }, work[16];
    struct stats_ab ab;
    CHECK(stats_ab(a, 3, b, 3, work, &ab) == -1 && isnan(ab.p) && isnan(ab.estimate) && ab.faster == STATS_AB_NONE,
          "a NaN sample: -1, nothing computed");
    CHECK(stats_ab(a, 0, b, 1, work, &ab) == -1 && isnan(ab.p), "an empty sample: -1");
    CHECK(stats_ab(a, 3, a, 3, NULL, &ab) == -1, "no work memory: -1");
}

/* Each comparison of the committed files, as the summary and the host's
 * reader show it: those files have no "ratio" member, so both fall back on
 * stats_ab over the stored samples. */
static void test_files(void)
{
    for (size_t i = 0; i < sizeof vec_ab_files / sizeof vec_ab_files[0]; i++) {
        const struct vec_ab_file *v = &vec_ab_files[i];
        char path[128], what[160], err[256];
        size_t len = 0;
        snprintf(path, sizeof path, FIXTURES "%s", v->file);
        char *text = cli_slurp(path, &len);
        struct summary *s = malloc(sizeof *s);
        int rc = text && s ? summary_build(s, text, len) : -1;
        snprintf(what, sizeof what, "%s %s: in the summary", v->file, v->name);
        CHECK(rc == 0 && v->index < s->n_ab && !strcmp(s->ab[v->index].name, v->name), what);
        if (rc == 0 && v->index < s->n_ab) {
            const struct summary_ab *ab = &s->ab[v->index];
            check_figures(what, ab->side, ab->ratio, ab->ratio_lo, ab->ratio_hi, ab->p, v->side, v->estimate, v->lo,
                          v->hi, v->p);
        }
        json_t *root = doc_load(path, err, sizeof err);
        json_t *cmp = json_array_get(doc_fig_list(json_object_get(root, figures_compare.member), &figures_compare, FIG_COMPARE_REL_MEDIAN), v->index);
        struct stats_ab st;
        snprintf(what, sizeof what, "%s %s: the host's reader", v->file, v->name);
        CHECK(cmp && doc_ab_ratio(cmp, &st) == 0, what);
        if (cmp)
            check_figures(what, (int)st.faster, st.estimate, st.lo, st.hi, st.p, v->side, v->estimate, v->lo, v->hi,
                          v->p);
        json_decref(root);
        free(s);
        free(text);
    }
}

/* A file with the run's "ratio" member: the readers show that member. */
static void test_member(void)
{
    static const char doc[] =
        "{\"schema\":1,\"status\":0,\"ended\":true,\"errors\":[],\"comparisons\":{\"comparisons\":[{\"name\":\"x vs y\","
        "\"a\":{\"name\":\"x\",\"samples\":[5,6,7]},\"b\":{\"name\":\"y\",\"samples\":[1,2,3]},\"verdict\":\"slower\","
        "\"expect\":\"none\",\"order\":\"random\",\"check\":\"a/b\",\"ratio\":{\"faster\":\"b\",\"estimate\":2.5,"
        "\"lo\":1.5,\"hi\":7,\"p\":0.04,\"test\":\"mann-whitney\"}}]}}";
    struct summary *s = malloc(sizeof *s);
    CHECK(summary_build(s, doc, sizeof doc - 1) == 0 && s->n_ab == 1, "the run's ratio member: one pair");
    CHECK(s->ab[0].side == STATS_AB_B && s->ab[0].ratio == 2.5 && s->ab[0].ratio_lo == 1.5 && s->ab[0].ratio_hi == 7 &&
          s->ab[0].p == 0.04 && !strcmp(s->ab[0].faster, "y") && !strcmp(s->ab[0].slower, "x"),
          "the summary shows the member's figures, not its own");
    CHECK_STR(s->ab[0].text, "y is 2.5x [1.5, 7] faster than x, p = 0.040", "the pair's line");
    json_error_t e;
    json_t *root = json_loads(doc, 0, &e);
    struct stats_ab st;
    json_t *cmp = json_array_get(json_object_get(json_object_get(root, "comparisons"), "comparisons"), 0);
    CHECK(doc_ab_ratio(cmp, &st) == 0 && st.faster == STATS_AB_B && st.estimate == 2.5 && st.lo == 1.5 && st.hi == 7 &&
          st.p == 0.04, "the host's reader shows the member's figures");
    json_decref(root);
    free(s);
}

int main(void)
{
    test_vectors();
    test_bad_input();
    test_files();
    test_member();
    return check_done();
}
