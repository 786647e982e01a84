/*
 * stats/ab.c - an A/B pair's ratio, its interval, its p and its faster
 * side, from the two samples as they are (see stats.h, struct stats_ab).
 * Every output of a pair shows these figures: the image writes them in the
 * comparison's "ratio" member, and a reader of a file without it calls
 * this on the stored samples.
 */
#include <math.h>
#include <string.h>

#include "stats.h"

/* z for a two-sided 95% interval. */
#define AB_Z95 1.959963984540054

/* Hodges-Lehmann on log(slow) - log(fast) with Bauer's interval; d holds
 * ns * nf doubles. */
static void ab_ratio(const double *slow, size_t ns, const double *fast, size_t nf, double *d, struct stats_ab *out)
{
    size_t pairs = ns * nf, k = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < nf; j++)
            d[k++] = log(slow[i]) - log(fast[j]);
    stats_sort_double(d, pairs);
    double sd = sqrt((double)ns * (double)nf * ((double)ns + (double)nf + 1.0) / 12.0);
    double cf = floor((double)pairs / 2.0 - AB_Z95 * sd);
    size_t c = cf > 0 ? (size_t)cf : 0;
    if (c > (pairs - 1) / 2)
        c = (pairs - 1) / 2;
    out->estimate = exp(stats_percentile_sorted_double(d, pairs, 50));
    out->lo = exp(d[c]);
    out->hi = exp(d[pairs - 1 - c]);
}

int stats_ab(const double *a, size_t na, const double *b, size_t nb, double *work, struct stats_ab *out)
{
    double z;
    int positive = 1;
    out->faster = STATS_AB_NONE;
    out->estimate = out->lo = out->hi = out->p = out->u = NAN;
    if (!na || !nb || !work)
        return -1;
    for (size_t i = 0; i < na; i++) {
        if (!isfinite(a[i]))
            return -1;
        positive &= a[i] > 0;
    }
    for (size_t j = 0; j < nb; j++) {
        if (!isfinite(b[j]))
            return -1;
        positive &= b[j] > 0;
    }
    double *sa = work, *sb = work + na;
    memcpy(sa, a, na * sizeof *a);
    memcpy(sb, b, nb * sizeof *b);
    stats_sort_double(sa, na);
    stats_sort_double(sb, nb);
    stats_mann_whitney_sorted_double(sa, na, sb, nb, 1, &out->u, &z, &out->p);
    double half = (double)na * (double)nb / 2.0;
    out->faster = out->u < half ? STATS_AB_A : out->u > half ? STATS_AB_B : STATS_AB_NONE;
    if (positive && (double)na * (double)nb <= STATS_AB_PAIRS_MAX) {
        if (out->faster == STATS_AB_B)
            ab_ratio(a, na, b, nb, work + na + nb, out);
        else
            ab_ratio(b, nb, a, na, work + na + nb, out);
    }
    return 0;
}

const char *stats_ab_side_name(enum stats_ab_side s)
{
    return s == STATS_AB_A ? "a" : s == STATS_AB_B ? "b" : "none";
}
