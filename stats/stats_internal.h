/*
 * stats/stats_internal.h - helpers shared by the stats/ files; not part of
 * the public API.
 *
 * A "view" lets one implementation serve uint64 and double samples: values
 * are read as offsets from a base.  For uint64 data the base is the
 * smallest value, so every offset is an exact integer difference (exact as
 * a double below 2^53, relatively exact above) and values near 2^63 keep
 * their digits.  For doubles the base is 0 and the values are used as they
 * are.
 */
#ifndef BAREMARK_STATS_INTERNAL_H
#define BAREMARK_STATS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct stats_view {
    const uint64_t *u;   /* uint64 data, or NULL */
    const double *d;     /* double data when u is NULL */
    uint64_t ubase;      /* base of uint64 offsets */
    size_t n;
};

static inline struct stats_view stats_view_u64(const uint64_t *x, size_t n, uint64_t base)
{
    struct stats_view v = { x, NULL, base, n };
    return v;
}

static inline struct stats_view stats_view_double(const double *x, size_t n)
{
    struct stats_view v = { NULL, x, 0, n };
    return v;
}

/* Value i as an offset from the base. */
static inline double stats_view_at(const struct stats_view *v, size_t i)
{
    return v->u ? (double)(v->u[i] - v->ubase) : v->d[i];
}

/* The base as a double (what to add to an offset for the absolute value). */
static inline double stats_view_base(const struct stats_view *v)
{
    return v->u ? (double)v->ubase : 0.0;
}

/* a - b for uint64 without overflow or loss beyond one rounding. */
static inline double stats_u64_diff(uint64_t a, uint64_t b)
{
    return a >= b ? (double)(a - b) : -(double)(b - a);
}

/* Offset-space versions of the public order statistics (sorted views). */
double stats_view_percentile(const struct stats_view *v, double p);
double stats_view_mad(const struct stats_view *v, double median_offset);
void stats_view_mode(const struct stats_view *v, unsigned nbins, unsigned max_passes,
                     struct stats_mode *out);
void stats_view_outliers(const struct stats_view *v, double median_offset, double mad,
                         struct stats_outliers *out);

/* Compensated (Neumaier) summation state. */
struct stats_ksum {
    double sum, comp;
};

static inline void stats_ksum_add(struct stats_ksum *k, double x)
{
    double t = k->sum + x;
    if ((k->sum >= 0 ? k->sum : -k->sum) >= (x >= 0 ? x : -x))
        k->comp += (k->sum - t) + x;
    else
        k->comp += (x - t) + k->sum;
    k->sum = t;
}

static inline double stats_ksum_value(const struct stats_ksum *k)
{
    return k->sum + k->comp;
}

#endif
