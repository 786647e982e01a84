/*
 * stats/summary.c - the whole summary of a sample (see stats.h for the
 * definitions), from the order statistics (order.c), the outliers
 * (outliers.c) and the mode (mode.c).
 */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

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
