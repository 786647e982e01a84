/*
 * stats/student_t.c - Student's t two-sided 95% critical values for every
 * df, and BYTEmark's stopping rule built on them.
 */
#include <math.h>

#include "stats.h"

/* Above this df the Cornish-Fisher expansion of the t quantile in terms of
 * the normal quantile is exact to far below 1e-12 (its next term is
 * O(z^11 / df^5)); below it the quantile is found by bisection on the
 * incomplete beta function. */
#define T95_EXPANSION_DF 1000
/* Two-sided 95%: the normal quantile z(0.975). */
#define Z_975 1.959963984540054
/* Bisection bracket: t95(1) = 12.706..., and t95 > z for every df. */
#define T95_BRACKET_HI 13.0
#define T95_TOL 1e-13

static double t95_expansion(double df)
{
    double z = Z_975, z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
    return z + (z3 + z) / (4 * df)
             + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df)
             + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df)
             + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z)
               / (92160 * df * df * df * df);
}

static double t95_bisect(double df)
{
    double lo = Z_975, hi = T95_BRACKET_HI;
    while (hi - lo > T95_TOL) {
        double mid = 0.5 * (lo + hi);
        if (stats_t_p_two_sided(mid, df) > STATS_ALPHA)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double stats_t95(unsigned long df)
{
    if (df == 0)
        return NAN;
    if (df > T95_EXPANSION_DF)
        return t95_expansion((double)df);
    return t95_bisect((double)df);
}

void stats_bytemark_rule(size_t n, double mean, double sd_sample, struct stats_bytemark *out)
{
    out->t = n >= 2 ? stats_t95((unsigned long)(n - 1)) : NAN;
    out->half = n >= 2 ? out->t * sd_sample / sqrt((double)n) : NAN;
    out->rel_half = out->half / fabs(mean);
    if (n < STATS_BYTEMARK_MIN_RUNS)
        out->state = STATS_BM_MORE;
    else if (out->rel_half <= STATS_BYTEMARK_REL_HALF)
        out->state = STATS_BM_DONE;
    else if (n >= STATS_BYTEMARK_MAX_RUNS)
        out->state = STATS_BM_UNCERTAIN;
    else
        out->state = STATS_BM_MORE;
}
