/*
 * stats/outliers.c - Tukey's fences and the modified Z score.  Outliers
 * are counted and classified; nothing is ever removed from the data.
 */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

static double modified_z(double x_minus_median, double mad)
{
    return STATS_MODZ_K * x_minus_median / mad;
}

/* Counts in offset space, fences reported in absolute values. */
void stats_view_outliers(const struct stats_view *v, double m, double mad,
                         struct stats_outliers *o)
{
    memset(o, 0, sizeof *o);
    double base = stats_view_base(v);
    double q1 = stats_view_percentile(v, 25.0), q3 = stats_view_percentile(v, 75.0);
    double iqr = q3 - q1;
    double in_lo = q1 - STATS_TUKEY_INNER * iqr, in_hi = q3 + STATS_TUKEY_INNER * iqr;
    double out_lo = q1 - STATS_TUKEY_OUTER * iqr, out_hi = q3 + STATS_TUKEY_OUTER * iqr;
    o->q1 = base + q1;
    o->q3 = base + q3;
    o->iqr = iqr;
    o->inner_lo = base + in_lo;
    o->inner_hi = base + in_hi;
    o->outer_lo = base + out_lo;
    o->outer_hi = base + out_hi;
    o->modz_valid = mad > 0.0;
    for (size_t i = 0; i < v->n; i++) {
        double x = stats_view_at(v, i);
        if (x < out_lo)
            o->extreme_low++;
        else if (x < in_lo)
            o->mild_low++;
        else if (x > out_hi)
            o->extreme_high++;
        else if (x > in_hi)
            o->mild_high++;
        if (o->modz_valid && fabs(modified_z(x - m, mad)) > STATS_MODZ_THRESHOLD) {
            if (x < m)
                o->modz_low++;
            else
                o->modz_high++;
        }
    }
}

void stats_outliers_sorted_u64(const uint64_t *sorted, size_t n, double median,
                               double mad, struct stats_outliers *out)
{
    struct stats_view v = stats_view_u64(sorted, n, n ? sorted[0] : 0);
    stats_view_outliers(&v, median - stats_view_base(&v), mad, out);
}

void stats_outliers_sorted_double(const double *sorted, size_t n, double median,
                                  double mad, struct stats_outliers *out)
{
    struct stats_view v = stats_view_double(sorted, n);
    stats_view_outliers(&v, median, mad, out);
}

int stats_outlier_class(double x, const struct stats_outliers *o, double median, double mad)
{
    int c = STATS_OUT_NONE;
    if (x < o->outer_lo || x > o->outer_hi)
        c |= STATS_OUT_MILD | STATS_OUT_EXTREME;
    else if (x < o->inner_lo || x > o->inner_hi)
        c |= STATS_OUT_MILD;
    if (mad > 0.0 && fabs(modified_z(x - median, mad)) > STATS_MODZ_THRESHOLD)
        c |= STATS_OUT_MODZ;
    return c;
}
