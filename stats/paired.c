/*
 * stats/paired.c - paired samples: Wilcoxon's signed-rank test on the
 * differences d = a - b of pairs, with the exact sign-flip distribution of
 * the rank statistic where it is small enough to tabulate and the normal
 * approximation beyond; and the signed effect (mean and median of d).
 *
 * Why sign flips: when the order of the two members of a pair is drawn by
 * a fair coin (or the two are the same code), the null hypothesis says
 * each d is as likely to be +|d| as -|d|, whatever disturbed it.  The
 * exact distribution of W+ (the sum of the ranks of |d| whose d is
 * positive) over the 2^m sign patterns is then the test's null
 * distribution, ties and a coarse counter grid included: no normal
 * approximation, no continuity fudge.
 */
#include <math.h>
#include <string.h>

#include "stats.h"

/* One tie group of |d| (values equal in magnitude): its size and how many
 * of it are positive, walked in increasing |d| over the sorted d. */
struct sr_walk {
    const double *x;    /* d sorted ascending */
    size_t neg, pos;    /* next negative (walking down), next positive (up) */
    size_t lo, hi;      /* negatives are x[lo..neg], positives x[pos..hi) */
    int neg_done;
};

/* The next smallest magnitude among the unvisited values, or -1 when
 * none is left. */
static double sr_next_mag(const struct sr_walk *w)
{
    double m = -1;
    if (!w->neg_done)
        m = -w->x[w->neg];
    if (w->pos < w->hi && (m < 0 || w->x[w->pos] < m))
        m = w->x[w->pos];
    return m;
}

/* Take every value of magnitude mag; returns the group size, *npos the
 * positives among it. */
static size_t sr_take(struct sr_walk *w, double mag, size_t *npos)
{
    size_t t = 0;
    *npos = 0;
    while (!w->neg_done && -w->x[w->neg] == mag) {
        t++;
        if (w->neg == w->lo)
            w->neg_done = 1;
        else
            w->neg--;
    }
    while (w->pos < w->hi && w->x[w->pos] == mag) {
        t++;
        (*npos)++;
        w->pos++;
    }
    return t;
}

/* Boundaries of the sorted differences: negatives [0, z0), zeros [z0, z1),
 * positives [z1, n). */
static void sr_bounds(const double *x, size_t n, size_t *z0, size_t *z1)
{
    size_t i = 0;
    while (i < n && x[i] < 0)
        i++;
    *z0 = i;
    while (i < n && x[i] == 0)
        i++;
    *z1 = i;
}

static void sr_walk_init(struct sr_walk *w, const double *x, size_t n, size_t z0, size_t z1)
{
    w->x = x;
    w->lo = 0;
    w->neg_done = z0 == 0;
    w->neg = z0 ? z0 - 1 : 0;
    w->pos = z1;
    w->hi = n;
}

/* Exact two-sided p: the distribution of 2 W+ (doubled midranks are
 * integers) over the 2^m equally likely sign patterns, built one rank at
 * a time in f[0..m(m+1)], then P(|W - mu| >= |w - mu|). */
static double sr_exact(const double *x, size_t n, size_t z0, size_t z1, size_t m, double w2, double *f)
{
    size_t total = m * (m + 1), top = 0, rank = 0;   /* 2 * (1 + ... + m) */
    struct sr_walk w;
    memset(f, 0, (total + 1) * sizeof *f);
    f[0] = 1;
    sr_walk_init(&w, x, n, z0, z1);
    for (double mag; (mag = sr_next_mag(&w)) >= 0;) {
        size_t npos, t = sr_take(&w, mag, &npos);
        size_t r2 = 2 * rank + t + 1;            /* doubled midrank of the group */
        rank += t;
        for (size_t k = 0; k < t; k++) {         /* each member: + or - */
            top += r2;
            for (size_t s = top; s >= r2; s--)
                f[s] = 0.5 * (f[s] + f[s - r2]);
            for (size_t s = r2 < top + 1 ? r2 : top + 1; s-- > 0;)
                f[s] *= 0.5;
        }
    }
    double mid = (double)total / 2, dev = fabs(w2 - mid);
    if (dev == 0)
        return 1.0;
    double lo = 0;
    for (size_t s = 0; (double)s <= mid - dev + 1e-9; s++)
        lo += f[s];
    double p = 2 * lo;     /* the distribution is symmetric about mid */
    return p > 1 ? 1 : p;
}

/* W+ (doubled), and the tie term sum(t^3 - t) over groups of equal |d|. */
static void sr_statistic(const double *x, size_t n, size_t z0, size_t z1, double *w2, double *ties)
{
    struct sr_walk w;
    size_t rank = 0;
    *w2 = *ties = 0;
    sr_walk_init(&w, x, n, z0, z1);
    for (double mag; (mag = sr_next_mag(&w)) >= 0;) {
        size_t npos, t = sr_take(&w, mag, &npos);
        double r2 = (double)(2 * rank + t + 1), tt = (double)t;
        *w2 += r2 * (double)npos;
        *ties += tt * tt * tt - tt;
        rank += t;
    }
}

/* Mean, sd and median of the differences (sorted). */
static void sr_effect(const double *x, size_t n, struct stats_paired *out)
{
    double mean = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {     /* Welford */
        double dlt = x[i] - mean;
        mean += dlt / (double)(i + 1);
        m2 += dlt * (x[i] - mean);
    }
    out->mean_diff = mean;
    out->sd_diff = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
    out->median_diff = stats_percentile_sorted_double(x, n, 50);
    out->mean_half95 = n > 1 ? stats_t95(n - 1) * out->sd_diff / sqrt((double)n) : NAN;
}

int stats_signed_rank(const double *d, size_t n, double *scratch, double *work, size_t work_len,
                      struct stats_paired *out)
{
    size_t z0, z1;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->w_plus = out->z = out->p = out->mean_diff = out->sd_diff = out->median_diff = NAN;
    out->mean_half95 = NAN;
    if (!scratch && n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(d[i]))
            return -1;
        scratch[i] = d[i];
    }
    if (n == 0)
        return 0;
    stats_sort_double(scratch, n);
    sr_effect(scratch, n, out);
    sr_bounds(scratch, n, &z0, &z1);
    size_t m = n - (z1 - z0);           /* zeros carry no sign: dropped (Wilcoxon) */
    out->nonzero = m;
    out->positive = n - z1;
    if (m == 0) {       /* every sign pattern is the same: p is exactly 1 */
        out->w_plus = out->z = 0;
        out->p = 1;
        out->exact = 1;
        return 0;
    }
    double w2, ties, mm = (double)m;
    sr_statistic(scratch, n, z0, z1, &w2, &ties);
    out->w_plus = w2 / 2;
    double mu = mm * (mm + 1) / 4, var = mm * (mm + 1) * (2 * mm + 1) / 24 - ties / 48;
    out->z = (out->w_plus - mu) / sqrt(var);
    if (work && m <= STATS_SIGNED_RANK_EXACT_MAX && work_len >= STATS_SIGNED_RANK_WORK(m)) {
        out->p = sr_exact(scratch, n, z0, z1, m, w2, work);
        out->exact = 1;
    } else {
        out->p = stats_normal_p_two_sided(out->z);
    }
    return 0;
}
