/*
 * stats/mode.c - Karsh's mode: bin, keep the fullest bin, repeat; then end
 * on the most frequent exact value.
 *
 * Karsh's TSFilterMode copied the data of the fullest bin to a work array
 * and binned again, with as many bins as samples (GatherTimes calls
 * TSInit(nil, Accuracy, Accuracy)).  On sorted data every bin is a
 * contiguous run, so a pass only narrows an index range [first, last) and
 * needs no memory.
 *
 * Binning alone can miss the mode: when a bin spans neighbouring values
 * (a wide range, an outlier far out), the fullest bin may hold many values
 * of which none is the most frequent, or the lowest-bin tie rule may pick
 * the wrong half.  So the passes are followed by an exact count: the
 * longest run of equal values in the sorted data (the lowest value on a
 * tie).  When some value occurs more than once, that value is the mode.
 * Only when every value is distinct (continuous data, where an exact count
 * says nothing) does the binned estimate stand.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_internal.h"

/* Bin of element i over the range [first value, last value] of the run. */
static size_t mode_bin(const struct stats_view *v, size_t i, size_t first, size_t last,
                       size_t nbins)
{
    if (v->u)
        return stats_bin_index_u64(v->u[i], v->u[first], v->u[last], nbins);
    return stats_bin_index_double(v->d[i], v->d[first], v->d[last], nbins);
}

static int view_equal(const struct stats_view *v, size_t i, size_t j)
{
    return v->u ? v->u[i] == v->u[j] : v->d[i] == v->d[j];
}

/* One pass over [*first, *last): narrow it to the fullest bin (the lowest
 * bin wins a tie, as in Karsh's LongArrayGetMaxBin). */
static void mode_pass(const struct stats_view *v, size_t *first, size_t *last, size_t nbins)
{
    size_t a = *first, top = *last - 1;
    size_t best_start = a, best_count = 0;
    size_t run_start = a, run_bin = mode_bin(v, a, a, top, nbins);
    for (size_t i = a + 1; i <= *last; i++) {
        size_t bin = i < *last ? mode_bin(v, i, a, top, nbins) : (size_t)-1;
        if (bin == run_bin)
            continue;
        if (i - run_start > best_count) {
            best_count = i - run_start;
            best_start = run_start;
        }
        run_start = i;
        run_bin = bin;
    }
    *first = best_start;
    *last = best_start + best_count;
}

static void mode_fill(const struct stats_view *v, size_t first, size_t last,
                      struct stats_mode *out)
{
    size_t n = last - first;
    struct stats_ksum sum = { 0, 0 };
    for (size_t i = first; i < last; i++)
        stats_ksum_add(&sum, stats_view_at(v, i));
    double mean = stats_ksum_value(&sum) / (double)n;
    struct stats_ksum sq = { 0, 0 };
    for (size_t i = first; i < last; i++) {
        double d = stats_view_at(v, i) - mean;
        stats_ksum_add(&sq, d * d);
    }
    double base = stats_view_base(v);
    out->count = n;
    out->value = base + mean;
    out->pure = view_equal(v, first, last - 1);
    out->value_above_lo = out->pure ? 0.0 : mean - stats_view_at(v, first);
    out->sd = out->pure ? 0.0 : sqrt(stats_ksum_value(&sq) / (double)n);
    out->lo = base + stats_view_at(v, first);
    out->hi = base + stats_view_at(v, last - 1);
    if (out->pure)      /* the value itself, not a rounded mean of copies */
        out->value = out->lo;
    if (v->u) {
        out->lo_u64 = v->u[first];
        out->hi_u64 = v->u[last - 1];
        if (out->pure)
            out->value = (double)out->lo_u64;
    }
}

/* The most frequent exact value of sorted data: the longest run of equal
 * values, the first (lowest) run on a tie.  Returns its length. */
static size_t mode_exact(const struct stats_view *v, size_t *first)
{
    size_t best_start = 0, best_count = 0, run_start = 0;
    for (size_t i = 1; i <= v->n; i++) {
        if (i < v->n && view_equal(v, i, run_start))
            continue;
        if (i - run_start > best_count) {
            best_count = i - run_start;
            best_start = run_start;
        }
        run_start = i;
    }
    *first = best_start;
    return best_count;
}

void stats_view_mode(const struct stats_view *v, unsigned nbins, unsigned max_passes,
                     struct stats_mode *out)
{
    memset(out, 0, sizeof *out);
    if (v->n == 0) {
        out->value = out->value_above_lo = out->sd = out->lo = out->hi = NAN;
        return;
    }
    if (nbins == 0)     /* Karsh: as many bins as samples */
        nbins = v->n > UINT_MAX ? UINT_MAX : (unsigned)v->n;
    if (nbins < 2)      /* one bin would never narrow the range */
        nbins = 2;
    if (max_passes == 0)
        max_passes = STATS_MODE_PASSES_DEFAULT;
    size_t first = 0, last = v->n;
    int passes = 0;
    while (!view_equal(v, first, last - 1) && passes < (int)max_passes) {
        mode_pass(v, &first, &last, nbins);
        passes++;
    }
    size_t exact_first, exact_count = mode_exact(v, &exact_first);
    if (exact_count >= 2) {
        first = exact_first;
        last = exact_first + exact_count;
    }
    mode_fill(v, first, last, out);
    out->passes = passes;
}

void stats_mode_sorted_u64(const uint64_t *sorted, size_t n, unsigned nbins,
                           unsigned max_passes, struct stats_mode *out)
{
    struct stats_view v = stats_view_u64(sorted, n, n ? sorted[0] : 0);
    stats_view_mode(&v, nbins, max_passes, out);
}

void stats_mode_sorted_double(const double *sorted, size_t n, unsigned nbins,
                              unsigned max_passes, struct stats_mode *out)
{
    struct stats_view v = stats_view_double(sorted, n);
    stats_view_mode(&v, nbins, max_passes, out);
}
