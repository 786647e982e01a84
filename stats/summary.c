/*
 * stats/summary.c - sorting, percentiles, MAD and the whole summary of a
 * sample (see stats.h for the definitions).
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

/* ---- the summary ------------------------------------------------------- */

static void summary_clear(struct stats_summary *s, size_t n, int is_u64)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->is_u64 = is_u64;
    double *all[] = { &s->min, &s->max, &s->range, &s->mean, &s->mean_above_min,
                      &s->var_pop, &s->var_sample, &s->sd_pop, &s->sd_sample, &s->cv,
                      &s->median, &s->p1, &s->p5, &s->q1, &s->q3, &s->p95, &s->p99,
                      &s->iqr, &s->mad, &s->trimmed_mean,
                      &s->mode.value, &s->mode.value_above_lo, &s->mode.sd, &s->mode.lo, &s->mode.hi,
                      &s->outliers.q1, &s->outliers.q3, &s->outliers.iqr,
                      &s->outliers.inner_lo, &s->outliers.inner_hi,
                      &s->outliers.outer_lo, &s->outliers.outer_hi };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        *all[i] = NAN;
}

/* Mean and variances in offset space: two passes, compensated sums; the
 * second pass's correction term removes the first pass's rounding. */
static void summary_moments(const struct stats_view *v, struct stats_summary *s)
{
    size_t n = v->n;
    struct stats_ksum sum = { 0, 0 };
    for (size_t i = 0; i < n; i++)
        stats_ksum_add(&sum, stats_view_at(v, i));
    double mean = stats_ksum_value(&sum) / (double)n;
    struct stats_ksum sq = { 0, 0 }, dev = { 0, 0 };
    for (size_t i = 0; i < n; i++) {
        double d = stats_view_at(v, i) - mean;
        stats_ksum_add(&sq, d * d);
        stats_ksum_add(&dev, d);
    }
    double c = stats_ksum_value(&dev);
    double ss = stats_ksum_value(&sq) - c * c / (double)n;
    if (ss < 0)
        ss = 0;
    mean += c / (double)n;
    s->mean_above_min = mean - stats_view_at(v, 0);
    s->mean = stats_view_base(v) + mean;
    s->var_pop = ss / (double)n;
    s->var_sample = n > 1 ? ss / (double)(n - 1) : NAN;
    s->sd_pop = sqrt(s->var_pop);
    s->sd_sample = sqrt(s->var_sample);
    s->cv = s->mean != 0.0 ? s->sd_sample / s->mean : NAN;
}

/* Mean after cutting floor(0.2 n) values from each end (n / 5 exactly,
 * which is what scipy's int(0.2 * n) gives too). */
static double summary_trimmed_mean(const struct stats_view *v)
{
    size_t cut = v->n / 5;
    struct stats_ksum sum = { 0, 0 };
    for (size_t i = cut; i < v->n - cut; i++)
        stats_ksum_add(&sum, stats_view_at(v, i));
    return stats_view_base(v) + stats_ksum_value(&sum) / (double)(v->n - 2 * cut);
}

/* Everything computed from the sorted view. */
static void summary_sorted(const struct stats_view *v, const struct stats_options *opt,
                           struct stats_summary *s)
{
    double base = stats_view_base(v);
    double median = stats_view_percentile(v, 50.0);
    summary_moments(v, s);
    s->min = base + stats_view_at(v, 0);
    s->max = base + stats_view_at(v, v->n - 1);
    s->range = stats_view_at(v, v->n - 1) - stats_view_at(v, 0);
    s->median = base + median;
    s->p1 = base + stats_view_percentile(v, 1.0);
    s->p5 = base + stats_view_percentile(v, 5.0);
    s->q1 = base + stats_view_percentile(v, 25.0);
    s->q3 = base + stats_view_percentile(v, 75.0);
    s->p95 = base + stats_view_percentile(v, 95.0);
    s->p99 = base + stats_view_percentile(v, 99.0);
    s->iqr = stats_view_percentile(v, 75.0) - stats_view_percentile(v, 25.0);
    s->mad = stats_view_mad(v, median);
    s->trimmed_mean = summary_trimmed_mean(v);
    stats_view_mode(v, opt ? opt->mode_bins : 0, opt ? opt->mode_passes : 0, &s->mode);
    stats_view_outliers(v, median, s->mad, &s->outliers);
}

int stats_summary_u64(const uint64_t *x, size_t n, uint64_t *scratch,
                      const struct stats_options *opt, struct stats_summary *out)
{
    summary_clear(out, n, 1);
    if (n == 0)
        return 0;
    if (!x || !scratch)
        return -1;
    if (scratch != x)
        memcpy(scratch, x, n * sizeof *x);
    stats_sort_u64(scratch, n);
    out->min_u64 = scratch[0];
    out->max_u64 = scratch[n - 1];
    uint64_t a = scratch[(n - 1) / 2], b = scratch[n / 2];
    out->median_u64 = a + (b - a) / 2;
    out->median_half = (int)((b - a) & 1);
    struct stats_view v = stats_view_u64(scratch, n, scratch[0]);
    summary_sorted(&v, opt, out);
    return 0;
}

int stats_summary_double(const double *x, size_t n, double *scratch,
                         const struct stats_options *opt, struct stats_summary *out)
{
    summary_clear(out, n, 0);
    if (n == 0)
        return 0;
    if (!x || !scratch)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return -1;
    if (scratch != x)
        memcpy(scratch, x, n * sizeof *x);
    stats_sort_double(scratch, n);
    struct stats_view v = stats_view_double(scratch, n);
    summary_sorted(&v, opt, out);
    return 0;
}
