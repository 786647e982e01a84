/*
 * tests/unit/test_stats_paired.c - stats/paired.c (Wilcoxon's signed-rank
 * test, exact and approximate) and stats/binomial.c (binomial quantiles)
 * against independently computed values: tests/vectors/stats/
 * vectors_paired.h, written by tests/vectors/stats/make_vectors.py (scipy,
 * brute force over sign patterns, exact integer arithmetic).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/stats.h"
#include "tests/vectors/stats/vectors_paired.h"

/* p-values and moments in double against scipy and exact rationals. */
#define P_TOL   1e-9
#define REL_TOL 1e-12

static char what[256];

static const char *w(const char *set, const char *field)
{
    snprintf(what, sizeof what, "signed rank %s: %s", set, field);
    return what;
}

static void check_paired_case(const struct vec_paired *v)
{
    size_t m = v->nonzero;
    double *scratch = malloc((v->n ? v->n : 1) * sizeof(double));
    size_t wl = STATS_SIGNED_RANK_WORK(m);
    double *work = malloc(wl * sizeof(double));
    struct stats_paired e, a;
    CHECK(stats_signed_rank(v->d, v->n, scratch, work, wl, &e) == 0, w(v->name, "runs"));
    CHECK_EQ_U64(e.n, v->n, w(v->name, "pairs"));
    CHECK_EQ_U64(e.nonzero, v->nonzero, w(v->name, "nonzero differences (zeros dropped)"));
    CHECK_EQ_U64(e.positive, v->positive, w(v->name, "positive differences"));
    CHECK_NEAR(e.mean_diff, v->mean, REL_TOL * (1 + fabs(v->mean)), w(v->name, "mean difference (signed)"));
    CHECK_NEAR(e.sd_diff, v->sd, REL_TOL * (1 + v->sd), w(v->name, "sd of the differences"));
    CHECK_NEAR(e.mean_half95, v->half95, 1e-8 * (1 + v->half95), w(v->name, "95% half-interval of the mean"));
    CHECK_NEAR(e.median_diff, v->median, REL_TOL * (1 + fabs(v->median)), w(v->name, "median difference"));
    CHECK_NEAR(e.w_plus, v->w_plus, 1e-9, w(v->name, "W+ (midranks)"));
    CHECK_NEAR(e.z, v->z, 1e-12 * (1 + fabs(v->z)), w(v->name, "tie-corrected z"));
    if (isnan(v->p_exact)) {
        CHECK(!e.exact, w(v->name, "over the exact limit: normal approximation"));
        CHECK_NEAR(e.p, v->p_approx, P_TOL, w(v->name, "p (scipy's approx)"));
    } else {
        CHECK(e.exact || m == 0, w(v->name, "exact sign-flip distribution used"));
        CHECK_NEAR(e.p, v->p_exact, P_TOL, w(v->name, "exact p (all sign patterns)"));
    }
    CHECK(stats_signed_rank(v->d, v->n, scratch, NULL, 0, &a) == 0 && (!a.exact || m == 0)
          && fabs(a.p - v->p_approx) <= P_TOL, w(v->name, "without work room: scipy's approx p"));
    free(scratch);
    free(work);
}

/* Sorting the differences must not change W+: the same pairs shuffled, and
 * every sign flipped (W+ becomes W-, z its negative, p the same). */
static void check_paired_symmetry(void)
{
    const struct vec_paired *v = &vec_paireds[1];
    double d[64], flip[64], s[64], work[STATS_SIGNED_RANK_WORK(64)];
    struct stats_paired a, b;
    for (size_t i = 0; i < v->n; i++) {
        d[v->n - 1 - i] = v->d[i];
        flip[i] = -v->d[i];
    }
    stats_signed_rank(d, v->n, s, work, sizeof work / sizeof work[0], &a);
    CHECK(a.w_plus == v->w_plus && fabs(a.p - v->p_exact) <= P_TOL, "signed rank: order of the pairs does not matter");
    stats_signed_rank(flip, v->n, s, work, sizeof work / sizeof work[0], &b);
    double total = (double)v->nonzero * (double)(v->nonzero + 1) / 2;
    CHECK(b.w_plus == total - a.w_plus && b.z == -a.z && fabs(b.p - a.p) <= 1e-15,
          "signed rank: flipping every sign gives W- and the same p");
    double bad[3] = { 1, NAN, 2 };
    CHECK(stats_signed_rank(bad, 3, s, NULL, 0, &a) == -1 && isnan(a.p), "signed rank: a NaN difference is refused");
    CHECK(stats_signed_rank(bad, 0, NULL, NULL, 0, &a) == 0 && a.n == 0 && isnan(a.p), "signed rank: no pairs, no p");
}

static void check_binomial(void)
{
    unsigned bad = 0, n = 0;
    for (size_t i = 0; i < sizeof vec_binoms / sizeof vec_binoms[0]; i++) {
        const struct vec_binom *v = &vec_binoms[i];
        uint32_t k = stats_binom_quantile(v->n, v->p, v->q);
        n++;
        if (k != v->k) {
            bad++;
            printf("# Bin(%u, %g) quantile %g: got %u, want %u\n", (unsigned)v->n, v->p, v->q, (unsigned)k,
                   (unsigned)v->k);
        }
    }
    snprintf(what, sizeof what, "binomial quantiles: %u of %u (n 0..1000000, p 0.05 and 0.5) equal the exact "
             "value and scipy's binom.ppf", n - bad, n);
    CHECK(bad == 0, what);
    /* The old (1 - p)^n start gave 0 from n = 1075 (p = 0.5) on. */
    CHECK(stats_binom_quantile(1075, 0.5, 0.999) > 537, "binomial: n = 1075, p = 1/2 does not underflow");
    CHECK(stats_binom_quantile(UINT32_MAX, 0.5, 0.5) == UINT32_MAX / 2 + 1
          || stats_binom_quantile(UINT32_MAX, 0.5, 0.5) == UINT32_MAX / 2,
          "binomial: the median of Bin(2^32 - 1, 1/2) is one of its two middle counts");
    CHECK(stats_binom_quantile(100, 0, 0.9) == 0 && stats_binom_quantile(100, 1, 0.1) == 100
          && stats_binom_quantile(100, 0.5, 0) == 0 && stats_binom_quantile(100, 0.5, 1) == 100
          && stats_binom_quantile(0, 0.5, 0.5) == 0, "binomial: the edges (p 0 or 1, q 0 or 1, n 0)");
}

int main(void)
{
    for (size_t i = 0; i < sizeof vec_paireds / sizeof vec_paireds[0]; i++)
        check_paired_case(&vec_paireds[i]);
    check_paired_symmetry();
    check_binomial();
    return check_done();
}
