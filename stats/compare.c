/*
 * stats/compare.c - two samples: differences, Karsh's Z, Welch's t,
 * Mann-Whitney U and a verdict.
 */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

void stats_karsh_z(double mean_a, double sd_a, size_t na, double mean_b,
                   double sd_b, size_t nb, double *z, double *p)
{
    double se = sqrt(sd_a * sd_a / (double)na + sd_b * sd_b / (double)nb);
    double diff = fabs(mean_a - mean_b);
    if (na == 0 || nb == 0 || isnan(se)) {
        *z = *p = NAN;
    } else if (se == 0) {
        /* Karsh printed 0 here; two constant samples that differ are as
         * different as samples get, so say so. */
        *z = diff == 0 ? 0.0 : INFINITY;
        *p = diff == 0 ? 1.0 : 0.0;
    } else {
        *z = diff / se;
        *p = stats_normal_p_two_sided(*z);
    }
}

void stats_welch(double mean_a, double var_a, size_t na, double mean_b,
                 double var_b, size_t nb, double *t, double *df, double *p)
{
    *t = *df = *p = NAN;
    if (na < 2 || nb < 2)
        return;
    double qa = var_a / (double)na, qb = var_b / (double)nb, se2 = qa + qb;
    if (se2 == 0 && mean_a != mean_b) {
        /* Two constant samples that differ (QEMU -icount timings): t is
         * infinite and p is 0, as scipy's ttest_ind gives. */
        *t = mean_a > mean_b ? INFINITY : -INFINITY;
        *p = 0.0;
        return;
    }
    if (!(se2 > 0))
        return;
    *t = (mean_a - mean_b) / sqrt(se2);
    *df = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
    *p = stats_t_p_two_sided(*t, *df);
}

/* Normal approximation of U (scipy's _get_mwu_z): tie-corrected sd, the
 * larger of U1 and U2 for a two-sided test, optional 0.5 continuity. */
static void mw_finish(double u1, double tie_term, size_t na, size_t nb, int cont,
                      double *u, double *z, double *p)
{
    double n1 = (double)na, n2 = (double)nb, n = n1 + n2;
    double mu = n1 * n2 / 2.0;
    double s = sqrt(n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
    *u = u1;
    if (!(s > 0)) {     /* every value tied: no evidence of a difference */
        *z = 0.0;
        *p = 1.0;
        return;
    }
    double big = u1 > n1 * n2 - u1 ? u1 : n1 * n2 - u1;
    double zabs = (big - mu - (cont ? 0.5 : 0.0)) / s;
    *z = u1 >= mu ? zabs : -zabs;
    *p = erfc(zabs / sqrt(2.0));
    if (*p > 1.0)
        *p = 1.0;
}

/* Merge walk over two sorted views: rank sum of A with midranks for ties
 * and the tie term sum(t^3 - t). */
static void mw_views(const struct stats_view *a, const struct stats_view *b, int cont,
                     double *u, double *z, double *p)
{
    size_t na = a->n, nb = b->n, i = 0, j = 0;
    if (na == 0 || nb == 0) {
        *u = *z = *p = NAN;
        return;
    }
    double rank_sum = 0.0, tie_term = 0.0, before = 0.0;
    while (i < na || j < nb) {
        int take_a = j >= nb || (i < na && (a->u ? a->u[i] <= b->u[j] : a->d[i] <= b->d[j]));
        size_t ca = 0, cb = 0;
        if (take_a) {
            size_t i0 = i;
            while (i < na && (a->u ? a->u[i] == a->u[i0] : a->d[i] == a->d[i0]))
                i++;
            ca = i - i0;
            while (j < nb && (a->u ? b->u[j] == a->u[i0] : b->d[j] == a->d[i0]))
                j++, cb++;
        } else {
            size_t j0 = j;
            while (j < nb && (b->u ? b->u[j] == b->u[j0] : b->d[j] == b->d[j0]))
                j++;
            cb = j - j0;
        }
        double t = (double)(ca + cb);
        rank_sum += (double)ca * (before + (t + 1.0) / 2.0);
        tie_term += t * t * t - t;
        before += t;
    }
    double u1 = rank_sum - (double)na * ((double)na + 1.0) / 2.0;
    mw_finish(u1, tie_term, na, nb, cont, u, z, p);
}

void stats_mann_whitney_sorted_u64(const uint64_t *a, size_t na, const uint64_t *b,
                                   size_t nb, int use_continuity,
                                   double *u, double *z, double *p)
{
    struct stats_view va = stats_view_u64(a, na, 0), vb = stats_view_u64(b, nb, 0);
    mw_views(&va, &vb, use_continuity, u, z, p);
}

void stats_mann_whitney_sorted_double(const double *a, size_t na, const double *b,
                                      size_t nb, int use_continuity,
                                      double *u, double *z, double *p)
{
    struct stats_view va = stats_view_double(a, na), vb = stats_view_double(b, nb);
    mw_views(&va, &vb, use_continuity, u, z, p);
}

static double relative(double diff, double ref)
{
    return ref != 0.0 ? diff / ref : NAN;
}

/* The k-th smallest value (0-based) of the union of two sorted views with
 * the same base. */
static double union_kth(const struct stats_view *a, const struct stats_view *b, size_t k)
{
    size_t i = 0, j = 0;
    for (;;) {
        double v;
        if (j >= b->n || (i < a->n && stats_view_at(a, i) <= stats_view_at(b, j)))
            v = stats_view_at(a, i++);
        else
            v = stats_view_at(b, j++);
        if (k-- == 0)
            return v;
    }
}

/* Type-7 percentile of the union of two sorted views (offsets). */
static double union_percentile(const struct stats_view *a, const struct stats_view *b, double pct)
{
    size_t n = a->n + b->n;
    double h = (double)(n - 1) * pct / 100.0;
    size_t lo = (size_t)h;
    double v = union_kth(a, b, lo);
    if (h > (double)lo)
        v += (h - (double)lo) * (union_kth(a, b, lo + 1) - v);
    return v;
}

/* Mean and sample variance of the values of v within [lo, hi] (offsets;
 * summed relative to lo, so large counter values keep their digits). */
static size_t fenced_moments(const struct stats_view *v, double lo, double hi, double *mean, double *var)
{
    size_t k = 0;
    double sum = 0.0, ss = 0.0;
    for (size_t i = 0; i < v->n; i++) {
        double x = stats_view_at(v, i);
        if (x >= lo && x <= hi)
            k++, sum += x - lo;
    }
    *mean = k ? sum / (double)k : NAN;
    for (size_t i = 0; i < v->n; i++) {
        double x = stats_view_at(v, i);
        if (x >= lo && x <= hi)
            ss += (x - lo - *mean) * (x - lo - *mean);
    }
    *var = k > 1 ? ss / (double)(k - 1) : NAN;
    return k;
}

/* Welch within the pooled outer fences (see struct stats_compare). */
static void compare_fenced(const struct stats_view *va, const struct stats_view *vb, struct stats_compare *c)
{
    c->fence_lo = c->fence_hi = c->fenced_diff_mean = c->fenced_welch_p = NAN;
    c->out_a = c->out_b = 0;
    if (va->n == 0 || vb->n == 0)
        return;
    double q1 = union_percentile(va, vb, 25.0), q3 = union_percentile(va, vb, 75.0);
    double lo = q1 - 3.0 * (q3 - q1), hi = q3 + 3.0 * (q3 - q1);
    double ma, vara, mb, varb, t, df;
    size_t ka = fenced_moments(va, lo, hi, &ma, &vara);
    size_t kb = fenced_moments(vb, lo, hi, &mb, &varb);
    c->fence_lo = lo + stats_view_base(va);
    c->fence_hi = hi + stats_view_base(va);
    c->out_a = va->n - ka;
    c->out_b = vb->n - kb;
    if (ka && kb)
        c->fenced_diff_mean = ma - mb;
    stats_welch(c->fenced_diff_mean, vara, ka, 0.0, varb, kb, &t, &df, &c->fenced_welch_p);
}

/* One p decides: Mann-Whitney's (the p every output shows beside the
 * verdict).  Then size: the medians more than the noise apart; and
 * direction: the medians and the ranks (U of A against m n / 2, the side
 * stats_ab calls faster) point the same way. */
static enum stats_verdict compare_verdict(const struct stats_compare *c)
{
    double half = (double)c->na * (double)c->nb / 2.0;
    if (!(c->mw_p < STATS_ALPHA) || !(fabs(c->rel_median) > c->noise))
        return STATS_NO_DIFFERENCE;
    if (c->diff_median < 0 && c->mw_u < half)
        return STATS_FASTER;
    if (c->diff_median > 0 && c->mw_u > half)
        return STATS_SLOWER;
    return STATS_NO_DIFFERENCE;
}

/* Everything but the differences, which the caller computed in the most
 * precise way its data type allows. */
static void compare_common(const struct stats_view *va, const struct stats_summary *sa,
                           const struct stats_view *vb, const struct stats_summary *sb,
                           double noise, struct stats_compare *c)
{
    c->na = sa->n;
    c->nb = sb->n;
    c->noise = noise > 0 ? noise : 0.0;
    c->rel_mean = relative(c->diff_mean, sb->mean);
    c->rel_median = relative(c->diff_median, sb->median);
    c->rel_mode = relative(c->diff_mode, sb->mode.value);
    stats_karsh_z(c->diff_mean, sa->sd_sample, sa->n, 0.0, sb->sd_sample, sb->n,
                  &c->karsh_z, &c->karsh_p);
    stats_welch(c->diff_mean, sa->var_sample, sa->n, 0.0, sb->var_sample, sb->n,
                &c->welch_t, &c->welch_df, &c->welch_p);
    mw_views(va, vb, 1, &c->mw_u, &c->mw_z, &c->mw_p);
    compare_fenced(va, vb, c);
    c->verdict = compare_verdict(c);
}

void stats_compare_sorted_u64(const uint64_t *sorted_a, const struct stats_summary *sa,
                              const uint64_t *sorted_b, const struct stats_summary *sb,
                              double noise, struct stats_compare *c)
{
    memset(c, 0, sizeof *c);
    struct stats_view va = stats_view_u64(sorted_a, sa->n, 0);
    struct stats_view vb = stats_view_u64(sorted_b, sb->n, 0);
    if (sa->n && sb->n) {
        /* exact integer parts first: values near 2^63 keep their digits */
        c->diff_mean = stats_u64_diff(sa->min_u64, sb->min_u64)
                       + (sa->mean_above_min - sb->mean_above_min);
        c->diff_median = stats_u64_diff(sa->median_u64, sb->median_u64)
                         + 0.5 * (sa->median_half - sb->median_half);
        c->diff_mode = stats_u64_diff(sa->mode.lo_u64, sb->mode.lo_u64)
                       + (sa->mode.value_above_lo - sb->mode.value_above_lo);
    } else {
        c->diff_mean = c->diff_median = c->diff_mode = NAN;
    }
    compare_common(&va, sa, &vb, sb, noise, c);
}

void stats_compare_sorted_double(const double *sorted_a, const struct stats_summary *sa,
                                 const double *sorted_b, const struct stats_summary *sb,
                                 double noise, struct stats_compare *c)
{
    memset(c, 0, sizeof *c);
    struct stats_view va = stats_view_double(sorted_a, sa->n);
    struct stats_view vb = stats_view_double(sorted_b, sb->n);
    c->diff_mean = sa->mean - sb->mean;
    c->diff_median = sa->median - sb->median;
    c->diff_mode = sa->mode.value - sb->mode.value;
    compare_common(&va, sa, &vb, sb, noise, c);
}

const char *stats_verdict_name(enum stats_verdict v)
{
    switch (v) {
    case STATS_FASTER: return "faster";
    case STATS_SLOWER: return "slower";
    default: return "no difference";
    }
}
