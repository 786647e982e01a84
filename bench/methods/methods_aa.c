/*
 * bench/methods/methods_aa.c - the methods section's A/A check and, beside it, the
 * placement check; their serial lines and their "null_check" and
 * "placement_check" results members (docs/results-schema.md).
 *
 * A/A: the placeholder measured against itself - one routine at one
 * address - as two targets, the order of the two drawn by a coin for every
 * pair (the engine's first passes), many times.  The code that takes the
 * two timings of a pair is the same whichever label goes first, so under
 * the null each difference d = "routine" - "placeholder" is +|d| or -|d|
 * by the coin alone, and Wilcoxon's signed-rank p on the pairs (exact
 * sign-flip distribution, stats/paired.c) is uniform, or conservative on
 * a coarse counter: below 0.05 in at most 5% of the measurements whatever
 * the machine does.  A count above the 99.9% binomial bound means the
 * harness or the statistics are broken.  What the A/A cannot see: an
 * effect that is the same for both labels (it cancels), in particular
 * where a routine sits in memory and which member of a pair goes first.
 *
 * Placement: `empty` and the placeholder, two copies of a bare ret at
 * different addresses, measured the same way.  Identical code, but any
 * difference of alignment, cache set or branch-predictor slot shows here;
 * a count above the bound says code placement alone moves timings on this
 * machine (Karsh's Foo vs FooBar).  A finding, not a failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "methods_internal.h"
#include "platform.h"
#include "quiet.h"
#include "stats.h"
#include "targets.h"

/* Measurements of each check (quick and full profile). */
#define METHODS_AA_QUICK 100
#define METHODS_AA_FULL  200
/* The counts are set against this quantile of Bin(measurements, 0.05) and
 * the two-sided band of Bin(measurements, 0.5). */
#define METHODS_AA_Q     0.999

struct methods_aa {
    const char *key, *label, *routine;
    bm_routine fn;
    int same_address;
    uint32_t runs, measured, below05, below5, told, mw_below05, exact, bound05, band5_lo, band5_hi;
    double *p, *mw_p, *effect;      /* per measurement: paired p, Mann-Whitney p, mean d (ticks) */
    double effect_mean, effect_half95;
};

void methods_json_paired(struct json_writer *w, const char *key, const struct stats_paired *s)
{
    json_obj_begin(w, key);
    json_str(w, "test", "wilcoxon_signed_rank");
    json_u64(w, "pairs", s->n);
    json_u64(w, "nonzero", s->nonzero);
    json_u64(w, "positive", s->positive);
    json_double(w, "mean_diff", s->mean_diff);
    json_double(w, "mean_diff_half95", s->mean_half95);
    json_double(w, "median_diff", s->median_diff);
    json_double(w, "w_plus", s->w_plus);
    json_double(w, "z", s->z);
    json_double(w, "p", s->p);
    json_bool(w, "exact", s->exact);
    json_obj_end(w);
}

/* Mean and 95% half-interval of the per-measurement effects. */
static void methods_aa_effect(struct methods_aa *a)
{
    double m = 0, m2 = 0;
    for (uint32_t k = 0; k < a->measured; k++) {
        double d = a->effect[k] - m;
        m += d / (double)(k + 1);
        m2 += d * (a->effect[k] - m);
    }
    a->effect_mean = a->measured ? m : NAN;
    a->effect_half95 = a->measured > 1 ? stats_t95(a->measured - 1) * sqrt(m2 / (a->measured - 1) / a->measured) : NAN;
}

static void methods_aa_measure(struct methods_aa *a, const struct methods_plan *p, const struct methods_cpu *c,
                               uint64_t step)
{
    for (uint32_t k = 0; k < a->runs; k++) {
        struct methods_opts opt = { 0, NULL, a->routine, c, step, 1, NULL, 0, METHODS_ORDER_SEED + k + 1 };
        struct methods_result r;
        methods_measure_ex(METHODS_AA_METHOD, a->fn, NULL, p->samples, p->iterations, &opt, &r);
        if ((r.status == METHODS_OK || r.status == METHODS_TOO_SHORT) && !isnan(r.paired.p) && !isnan(r.mw_p)) {
            a->p[a->measured] = r.paired.p;
            a->mw_p[a->measured] = r.mw_p;
            a->effect[a->measured] = r.paired.mean_diff;
            a->measured++;
            a->below05 += r.paired.p < 0.05;
            a->below5 += r.paired.p < 0.5;
            a->mw_below05 += r.mw_p < 0.05;
            a->told += r.status == METHODS_OK;
            a->exact += (uint32_t)r.paired.exact;
        }
        methods_result_free(&r);
    }
    a->bound05 = stats_binom_quantile(a->measured, 0.05, METHODS_AA_Q);
    a->band5_lo = stats_binom_quantile(a->measured, 0.5, (1 - METHODS_AA_Q) / 2);
    a->band5_hi = stats_binom_quantile(a->measured, 0.5, 1 - (1 - METHODS_AA_Q) / 2);
    methods_aa_effect(a);
}

static int methods_aa_within(const struct methods_aa *a)
{
    return a->measured > 0 && a->below05 <= a->bound05;
}

static int methods_aa_even(const struct methods_aa *a)
{
    return a->measured > 0 && a->below5 >= a->band5_lo && a->below5 <= a->band5_hi;
}

static void methods_aa_print(const struct methods_aa *a, const struct methods_plan *p)
{
    out_printf("methods: %s: %s, %s, %u measurements of %u pairs x %llu, order drawn per pair: signed-rank p < 0.05 "
               "in %u (expected %.1f, 99.9%% binomial bound %u), p < 0.5 in %u (band %u..%u); effect (routine - "
               "placeholder) %+.3f +- %.3f ticks; Mann-Whitney told apart %u\n", a->label,
               a->same_address ? "the placeholder against itself (one routine at one address)"
                               : "empty against the placeholder (two copies of ret at different addresses)",
               methods_table[METHODS_AA_METHOD].name, (unsigned)a->measured, (unsigned)p->samples,
               (unsigned long long)p->iterations, (unsigned)a->below05, 0.05 * a->measured, (unsigned)a->bound05,
               (unsigned)a->below5, (unsigned)a->band5_lo, (unsigned)a->band5_hi, a->effect_mean,
               a->effect_half95, (unsigned)a->told);
    if (a->same_address)
        out_printf("methods: A/A null check: %s; %s\n",
                   methods_aa_within(a) ? "identical code is not told apart more often than chance allows"
                   : "identical code is told apart MORE often than chance allows: the harness or the statistics "
                     "are broken",
                   methods_aa_even(a) ? "p spread evenly over 0..1"
                   : a->below5 < a->band5_lo ? "p NOT spread evenly: too many high (ties on a coarse counter)"
                                             : "p NOT spread evenly: too many low");
    else
        out_printf("methods: placement check: %s\n", methods_aa_within(a)
                   ? "no effect of code placement seen (within the bound for identical code)"
                   : "code placement alone moves timings here (above the bound for identical code): an A/B of two "
                     "routines includes where they sit");
}

static void methods_aa_json(struct json_writer *w, const struct methods_aa *a, const struct methods_plan *p)
{
    json_obj_begin(w, a->key);
    json_str(w, "kind", a->same_address ? "A/A: one routine at one address as two targets, order drawn per pair"
                                        : "placement: two copies of one routine at different addresses");
    json_str(w, "routine", a->routine);
    json_str(w, "placeholder", "placeholder");
    json_bool(w, "same_address", a->same_address);
    json_str(w, "method", methods_table[METHODS_AA_METHOD].name);
    json_str(w, "order", "random");
    json_str(w, "test", "wilcoxon_signed_rank");
    json_u64(w, "measurements", a->runs);
    json_u64(w, "measured", a->measured);
    json_u64(w, "exact", a->exact);
    json_u64(w, "samples", p->samples);
    json_u64(w, "iterations", p->iterations);
    json_arr_begin(w, "paired_p");
    for (uint32_t k = 0; k < a->measured; k++)
        json_double(w, NULL, a->p[k]);
    json_arr_end(w);
    json_arr_begin(w, "effect_ticks");
    for (uint32_t k = 0; k < a->measured; k++)
        json_double(w, NULL, a->effect[k]);
    json_arr_end(w);
    json_arr_begin(w, "mann_whitney_p");
    for (uint32_t k = 0; k < a->measured; k++)
        json_double(w, NULL, a->mw_p[k]);
    json_arr_end(w);
    json_u64(w, "p_below_0_05", a->below05);
    json_u64(w, "p_below_0_5", a->below5);
    json_u64(w, "mann_whitney_below_0_05", a->mw_below05);
    json_u64(w, "told_apart", a->told);
    json_u64(w, "bound_0_05", a->bound05);
    json_u64(w, "band_0_5_low", a->band5_lo);
    json_u64(w, "band_0_5_high", a->band5_hi);
    json_double(w, "effect_mean", a->effect_mean);
    json_double(w, "effect_half95", a->effect_half95);
    json_bool(w, "false_positives_within_bound", methods_aa_within(a));
    json_bool(w, "spread_even", methods_aa_even(a));
    if (!a->same_address)
        json_bool(w, "placement_seen", !methods_aa_within(a));
    json_obj_end(w);
}

/* One check: measure, print, JSON.  Returns 1 when measurements failed. */
static int methods_aa_run(struct methods_aa *a, const struct methods_plan *p, const struct methods_cpu *c,
                          uint64_t step, struct quiet_phase_totals *qt, struct json_writer *w)
{
    int bad = 0;
    a->runs = p->quick ? METHODS_AA_QUICK : METHODS_AA_FULL;
    a->p = plat_alloc(3 * (size_t)a->runs * sizeof(double));
    if (!a->p) {
        out_warn("methods: %s skipped: no memory for %u p-values", a->label, (unsigned)a->runs);
        return 1;
    }
    a->mw_p = a->p + a->runs;
    a->effect = a->mw_p + a->runs;
    quiet_phase_begin();
    methods_aa_measure(a, p, c, step);
    quiet_phase_end_add(qt);
    methods_aa_print(a, p);
    if (a->measured < a->runs) {
        out_warn("methods: %s: %u of %u measurements failed", a->label, (unsigned)(a->runs - a->measured),
                 (unsigned)a->runs);
        bad = 1;
    }
    if (w)
        methods_aa_json(w, a, p);
    plat_free(a->p);
    return bad;
}

int methods_part_aa(const struct methods_plan *p, const struct methods_cpu *c, uint64_t step,
                    struct quiet_phase_totals *qt, struct json_writer *w)
{
    struct methods_aa aa = { "null_check", "A/A check", "placeholder", bm_target_placeholder, 1 };
    struct methods_aa pl = { "placement_check", "placement check (not an A/A)", "empty", bm_target_empty, 0 };
    int bad = methods_aa_run(&aa, p, c, step, qt, w);
    return bad | methods_aa_run(&pl, p, c, step, qt, w);
}
