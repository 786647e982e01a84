/*
 * stats/order.c - sorting and the order statistics of a sorted sample:
 * percentiles and the MAD (see stats.h for the definitions).  The summary
 * (summary.c), the outliers (outliers.c) and the comparisons build on it.
 */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

/* ---- sorting: heapsort, O(n log n) worst case, no recursion ------------- */

#define STATS_DEFINE_HEAPSORT(name, type)                                   \
    static void name##_sift(type *x, size_t root, size_t n)                 \
    {                                                                        \
        type v = x[root];                                                    \
        for (;;) {                                                           \
            size_t child = 2 * root + 1;                                     \
            if (child >= n)                                                  \
                break;                                                       \
            if (child + 1 < n && x[child + 1] > x[child])                    \
                child++;                                                     \
            if (!(x[child] > v))                                             \
                break;                                                       \
            x[root] = x[child];                                              \
            root = child;                                                    \
        }                                                                    \
        x[root] = v;                                                         \
    }                                                                        \
    void name(type *x, size_t n)                                             \
    {                                                                        \
        if (n < 2)                                                           \
            return;                                                          \
        for (size_t i = n / 2; i-- > 0;)                                     \
            name##_sift(x, i, n);                                            \
        for (size_t end = n - 1; end > 0; end--) {                           \
            type t = x[0];                                                   \
            x[0] = x[end];                                                   \
            x[end] = t;                                                      \
            name##_sift(x, 0, end);                                          \
        }                                                                    \
    }

STATS_DEFINE_HEAPSORT(stats_sort_u64, uint64_t)
STATS_DEFINE_HEAPSORT(stats_sort_double, double)

/* ---- order statistics on sorted views ---------------------------------- */

double stats_view_percentile(const struct stats_view *v, double p)
{
    if (v->n == 0 || !(p >= 0.0 && p <= 100.0))
        return NAN;
    double h = (double)(v->n - 1) * p / 100.0;
    size_t k = (size_t)floor(h);
    if (k >= v->n - 1)
        return stats_view_at(v, v->n - 1);
    double lo = stats_view_at(v, k), hi = stats_view_at(v, k + 1);
    return lo + (h - (double)k) * (hi - lo);
}

/* Deviation |x - m| of the j-th value below (left) or above (right) the
 * split point; both lists ascend in j, so the MAD is a merge. */
static double mad_left(const struct stats_view *v, size_t split, size_t j, double m)
{
    return m - stats_view_at(v, split - 1 - j);
}

static double mad_right(const struct stats_view *v, size_t split, size_t j, double m)
{
    return stats_view_at(v, split + j) - m;
}

double stats_view_mad(const struct stats_view *v, double m)
{
    size_t n = v->n;
    if (n == 0)
        return NAN;
    size_t split = 0;            /* first index with value >= m */
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (stats_view_at(v, mid) < m)
            lo = mid + 1;
        else
            hi = mid;
    }
    split = lo;
    size_t nl = split, nr = n - split, il = 0, ir = 0;
    size_t want_lo = (n - 1) / 2, want_hi = n / 2;
    double d_lo = 0.0, d_hi = 0.0;
    for (size_t k = 0; k <= want_hi; k++) {
        double d;
        if (ir >= nr || (il < nl && mad_left(v, split, il, m) <= mad_right(v, split, ir, m)))
            d = mad_left(v, split, il++, m);
        else
            d = mad_right(v, split, ir++, m);
        if (k == want_lo)
            d_lo = d;
        if (k == want_hi)
            d_hi = d;
    }
    return 0.5 * (d_lo + d_hi);
}

double stats_percentile_sorted_u64(const uint64_t *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    struct stats_view v = stats_view_u64(sorted, n, sorted[0]);
    return stats_view_base(&v) + stats_view_percentile(&v, p);
}

double stats_percentile_sorted_double(const double *sorted, size_t n, double p)
{
    struct stats_view v = stats_view_double(sorted, n);
    return stats_view_percentile(&v, p);
}

double stats_mad_sorted_u64(const uint64_t *sorted, size_t n)
{
    if (n == 0)
        return NAN;
    struct stats_view v = stats_view_u64(sorted, n, sorted[0]);
    return stats_view_mad(&v, stats_view_percentile(&v, 50.0));
}

double stats_mad_sorted_double(const double *sorted, size_t n)
{
    struct stats_view v = stats_view_double(sorted, n);
    return stats_view_mad(&v, stats_view_percentile(&v, 50.0));
}
