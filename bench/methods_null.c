/*
 * bench/methods_null.c - the methods section's A/A null check (see
 * methods_internal.h): one routine timed against an identical one many
 * times, the Mann-Whitney p-values counted against binomial bounds.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "methods_internal.h"
#include "out.h"
#include "platform.h"
#include "quiet.h"
#include "targets.h"

/* ---- the A/A null check ------------------------------------------------------------------- */

/* Karsh's Foo-vs-Foo experiment for the engine: `empty` (a bare ret)
 * against the placeholder (a bare ret) with lfence+rdtsc, many times, N as
 * planned and fixed.  Two identical routines: Mann-Whitney's p should be
 * spread evenly over [0, 1], below 0.05 in about 5% of the measurements and
 * below 0.5 in about half.  The counts are set against the 99.9% quantiles
 * of the binomial distribution. */
#define METHODS_NULL_METHOD      METHOD_LFENCE_RDTSC
#define METHODS_NULL_QUICK       100
#define METHODS_NULL_FULL        200
#define METHODS_NULL_Q           0.999

/* Smallest k with P(X <= k) >= q for X ~ Bin(n, p), 0 < p < 1. */
static uint32_t methods_binom_quantile(uint32_t n, double p, double q)
{
    double pmf = exp((double)n * log1p(-p)), cdf = pmf;
    uint32_t k = 0;
    while (cdf < q && k < n) {
        pmf *= (double)(n - k) / (double)(k + 1) * p / (1 - p);
        k++;
        cdf += pmf;
    }
    return k;
}

struct methods_null {
    uint32_t runs, measured, below05, below5, told, bound05, band5_lo, band5_hi;
    double *p;
};

int methods_part_null(const struct methods_plan *p, const struct methods_cpu *c, const uint64_t *steps,
                      struct quiet_phase_totals *qt, struct json_writer *w)
{
    struct methods_null nc;
    const struct methods_info *mi = &methods_table[METHODS_NULL_METHOD];
    struct methods_opts opt = { 0, NULL, "empty", c, steps[METHODS_NULL_METHOD], 1, NULL };
    int bad = 0;

    memset(&nc, 0, sizeof nc);
    nc.runs = p->quick ? METHODS_NULL_QUICK : METHODS_NULL_FULL;
    nc.p = plat_alloc(nc.runs * sizeof(double));
    if (!nc.p) {
        out_warn("methods: A/A null check skipped: no memory for %u p-values", (unsigned)nc.runs);
        return 1;
    }
    quiet_phase_begin();
    for (uint32_t k = 0; k < nc.runs; k++) {
        struct methods_result r;
        methods_measure_ex(METHODS_NULL_METHOD, bm_target_empty, NULL, p->samples, p->iterations, &opt, &r);
        if ((r.status == METHODS_OK || r.status == METHODS_TOO_SHORT) && !isnan(r.mw_p)) {
            nc.p[nc.measured++] = r.mw_p;
            nc.below05 += r.mw_p < 0.05;
            nc.below5 += r.mw_p < 0.5;
            nc.told += r.status == METHODS_OK;
        }
        methods_result_free(&r);
    }
    quiet_phase_end_add(qt);
    nc.bound05 = methods_binom_quantile(nc.measured, 0.05, METHODS_NULL_Q);
    nc.band5_lo = methods_binom_quantile(nc.measured, 0.5, (1 - METHODS_NULL_Q) / 2);
    nc.band5_hi = methods_binom_quantile(nc.measured, 0.5, 1 - (1 - METHODS_NULL_Q) / 2);
    int fp_ok = nc.measured > 0 && nc.below05 <= nc.bound05;
    int even = nc.measured > 0 && nc.below5 >= nc.band5_lo && nc.below5 <= nc.band5_hi;
    out_printf("methods: A/A null check: empty against the placeholder (both a bare ret), %s, %u measurements of "
               "%u samples x %llu: Mann-Whitney p < 0.05 in %u (expected %.1f, 99.9%% binomial bound %u), "
               "p < 0.5 in %u (band %u..%u); told apart %u times\n", mi->name, (unsigned)nc.measured,
               (unsigned)p->samples, (unsigned long long)p->iterations, (unsigned)nc.below05,
               0.05 * nc.measured, (unsigned)nc.bound05, (unsigned)nc.below5, (unsigned)nc.band5_lo,
               (unsigned)nc.band5_hi, (unsigned)nc.told);
    out_printf("methods: A/A null check: %s; %s\n",
               fp_ok ? "identical code is not told apart more often than chance allows"
                     : "identical code is told apart MORE often than chance allows: the engine's verdicts are biased",
               even ? "p spread evenly over 0..1"
               : nc.below5 < nc.band5_lo ? "p NOT spread evenly: too many high (ties: timings equal or on a coarse grid)"
                                         : "p NOT spread evenly: too many low");
    if (nc.measured < nc.runs) {
        out_warn("methods: A/A null check: %u of %u measurements failed", (unsigned)(nc.runs - nc.measured),
                 (unsigned)nc.runs);
        bad = 1;
    }
    if (w) {
        json_obj_begin(w, "null_check");
        json_str(w, "routine", "empty");
        json_str(w, "placeholder", "placeholder");
        json_str(w, "method", mi->name);
        json_u64(w, "measurements", nc.runs);
        json_u64(w, "measured", nc.measured);
        json_u64(w, "samples", p->samples);
        json_u64(w, "iterations", p->iterations);
        json_arr_begin(w, "mann_whitney_p");
        for (uint32_t k = 0; k < nc.measured; k++)
            json_double(w, NULL, nc.p[k]);
        json_arr_end(w);
        json_u64(w, "p_below_0_05", nc.below05);
        json_u64(w, "p_below_0_5", nc.below5);
        json_u64(w, "told_apart", nc.told);
        json_u64(w, "bound_0_05", nc.bound05);
        json_u64(w, "band_0_5_low", nc.band5_lo);
        json_u64(w, "band_0_5_high", nc.band5_hi);
        json_bool(w, "false_positives_within_bound", fp_ok);
        json_bool(w, "spread_even", even);
        json_obj_end(w);
    }
    plat_free(nc.p);
    return bad;
}
