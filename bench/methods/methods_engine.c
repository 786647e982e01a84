/*
 * bench/methods/methods_engine.c - the measurement engine: CodeTune's calibrate /
 * benchmark / interpret (seed 004) with its status codes, and the net time
 * per iteration three ways, Apple's among them (seed 001).  See methods.h
 * for the good-sample criteria and the estimators.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "methods_internal.h"
#include "platform.h"
#include "quiet.h"
#include "stats.h"
#include "targets.h"

/* Two-sided level at which the routine must differ from the placeholder. */
#define METHODS_TELL_ALPHA STATS_ALPHA

/* ---- the engine ------------------------------------------------------------------------ */

struct methods_job {
    const struct methods_info *m;
    methods_bracket_fn bracket;
    bm_routine routine, placeholder;
    void *data;
    uint32_t n;
    uint64_t iters, limit, step;
    int step_source;                /* of step when nonzero: METHODS_STEP_CALLER or _CLOCK */
    int fixed, random_order;
    uint64_t seed;                  /* xorshift64 state of the order coins */
    char method_point[48], target_point[48];
    uint64_t *scratch;              /* 2n values */
    double *dscratch;               /* 2n values */
    struct methods_result *r;
};

static uint64_t methods_job_time(struct methods_job *j, bm_routine f, uint64_t n)
{
    return methods_time(j->bracket, f, n, j->data);
}

/* A seed spread over all 64 bits (splitmix64's finaliser): callers pass
 * consecutive seeds, and xorshift64 started from seeds that differ in low
 * bits gives the same first coins for a while. */
static uint64_t methods_seed_mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : METHODS_ORDER_SEED;
}

/* A fair coin (xorshift64's top bit): 1 when the routine goes first. */
static int methods_coin(struct methods_job *j)
{
    uint64_t x = j->seed;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    j->seed = x;
    return (int)(x >> 63);
}

/* First pass i: the placeholder and the routine, in an order drawn per
 * pair (or placeholder first when the caller fixed the order).  Both
 * timings are taken by the same code whichever goes first; only where
 * they are stored depends on the coin, so when routine and placeholder
 * are one routine the labels are pure bookkeeping. */
static void methods_first_pair(struct methods_job *j, uint32_t i)
{
    struct methods_result *r = j->r;
    int rf = j->random_order ? methods_coin(j) : 0;
    uint64_t first = methods_job_time(j, rf ? j->routine : j->placeholder, j->iters);
    uint64_t second = methods_job_time(j, rf ? j->placeholder : j->routine, j->iters);
    r->placeholder_raw[i] = r->placeholder[i] = rf ? second : first;
    r->bench_raw[i] = r->bench[i] = rf ? first : second;
    r->routine_first += (uint32_t)rf;
}

/* Smallest difference between two distinct values of x[0..n-1] (sorted in
 * place), or 0 when all are equal. */
static uint64_t methods_min_step(uint64_t *x, size_t n)
{
    uint64_t step = 0;
    stats_sort_u64(x, n);
    for (size_t i = 1; i < n; i++) {
        uint64_t d = x[i] - x[i - 1];
        if (d && (!step || d < step))
            step = d;
    }
    return step;
}

/* The smaller of two steps, 0 meaning none seen. */
static uint64_t methods_step_min(uint64_t a, uint64_t b)
{
    return a && b ? (a < b ? a : b) : a ? a : b;
}

/* The net time d(N) = min T(N) - min P(N) over METHODS_PROBE_TIMINGS
 * timings of each, in turns (may be negative); a step seen within a series
 * lowers *seen_step. */
static double methods_probe(struct methods_job *j, uint64_t n, uint64_t *seen_step)
{
    uint64_t p[METHODS_PROBE_TIMINGS], t[METHODS_PROBE_TIMINGS];
    for (int i = 0; i < METHODS_PROBE_TIMINGS; i++) {
        p[i] = methods_job_time(j, j->placeholder, n);
        t[i] = methods_job_time(j, j->routine, n);
    }
    *seen_step = methods_step_min(*seen_step, methods_min_step(p, METHODS_PROBE_TIMINGS));
    *seen_step = methods_step_min(*seen_step, methods_min_step(t, METHODS_PROBE_TIMINGS));
    return (double)t[0] - (double)p[0];     /* both sorted: their minima */
}

/* The step a measurement uses and where it came from: the caller's or the
 * clock's (j->step), else the smallest gap seen, else 1 assumed. */
static void methods_step_of(const struct methods_job *j, uint64_t seen, struct methods_result *r)
{
    r->step = j->step ? j->step : seen ? seen : 1;
    r->step_known = j->step || seen;
    r->step_source = j->step ? j->step_source : seen ? METHODS_STEP_SEEN : METHODS_STEP_ASSUMED;
}

/* Where the step came from, for iterations_why. */
static const char *methods_step_words(int source)
{
    return source == METHODS_STEP_CLOCK ? "measured" : source == METHODS_STEP_CALLER ? "given"
         : source == METHODS_STEP_SEEN ? "smallest gap, none measured" : "assumed, none measured";
}

/* N for this measurement (see methods.h): doubled while the net time spans
 * fewer than METHODS_SPAN_STEPS counter steps. */
static void methods_grow(struct methods_job *j)
{
    struct methods_result *r = j->r;
    uint64_t seen = 0, n = j->iters, step;
    double hist[METHODS_GROWTH_STALL + 1];  /* d at the last few N, a ring */
    int rounds = 0;
    double d = methods_probe(j, n, &seen);
    hist[0] = d;
    for (;;) {
        methods_step_of(j, seen, r);
        step = r->step;
        if (d >= (double)METHODS_SPAN_STEPS * (double)step) {
            snprintf(r->iterations_why, sizeof r->iterations_why, "%s: net %.0f ticks spans %d+ steps of %llu (%s)",
                     n == j->iters ? "as asked" : "grown", d, METHODS_SPAN_STEPS, (unsigned long long)step,
                     methods_step_words(r->step_source));
            break;
        }
        if (n > METHODS_MAX_ITERATIONS / 2) {
            snprintf(r->iterations_why, sizeof r->iterations_why, "grown to the limit: net %.0f ticks, "
                     "under %d steps of %llu (%s)", d, METHODS_SPAN_STEPS, (unsigned long long)step,
                     methods_step_words(r->step_source));
            break;
        }
        /* hist[(rounds + 1) % size] is d at N / 2^METHODS_GROWTH_STALL */
        if (rounds >= METHODS_GROWTH_STALL
            && d < hist[(rounds + 1) % (METHODS_GROWTH_STALL + 1)] + (double)step) {
            n = j->iters;
            snprintf(r->iterations_why, sizeof r->iterations_why, "as asked: the net time does not grow with N "
                     "(%.0f ticks at %d-fold N)", d, 1 << METHODS_GROWTH_STALL);
            break;
        }
        n *= 2;
        rounds++;
        d = methods_probe(j, n, &seen);
        hist[rounds % (METHODS_GROWTH_STALL + 1)] = d;
    }
    j->iters = n;
    r->iterations = n;
    methods_step_of(j, seen, r);
}

/* The measurement's fences (methods.h): one allowance above the median,
 * Q3 + 1.5 max(IQR, step) of both first passes' residuals about their own
 * medians pooled (type-7 quartiles, stats/), added to each series' median.
 * One rule for both series, so two identical routines are cut alike; each
 * at its own scale, so a routine far slower than the placeholder does not
 * widen the placeholder's fence (the pooled timings themselves would put
 * Q1 in one series and Q3 in the other). */
static void methods_fences(struct methods_job *j)
{
    struct methods_result *r = j->r;
    size_t n = j->n;
    double *res = j->dscratch;
    memcpy(j->scratch, r->placeholder_raw, n * sizeof(uint64_t));
    memcpy(j->scratch + n, r->bench_raw, n * sizeof(uint64_t));
    stats_sort_u64(j->scratch, n);
    stats_sort_u64(j->scratch + n, n);
    double mp = stats_percentile_sorted_u64(j->scratch, n, 50), mt = stats_percentile_sorted_u64(j->scratch + n, n, 50);
    for (size_t i = 0; i < n; i++) {
        res[i] = (double)(j->scratch[i] - j->scratch[0]) - (mp - (double)j->scratch[0]);
        res[n + i] = (double)(j->scratch[n + i] - j->scratch[n]) - (mt - (double)j->scratch[n]);
    }
    stats_sort_double(res, 2 * n);
    double q1 = stats_percentile_sorted_double(res, 2 * n, 25), q3 = stats_percentile_sorted_double(res, 2 * n, 75);
    double spread = q3 - q1 > (double)r->step ? q3 - q1 : (double)r->step;
    r->fence_above = q3 + METHODS_FENCE_IQR * spread;
    r->cal_fence = mp + r->fence_above;
    r->bench_fence = mt + r->fence_above;
}

static long methods_measure_body(void *arg)
{
    struct methods_job *j = arg;
    struct methods_result *r = j->r;

    plat_fault_point(j->method_point);
    if (j->target_point[0])
        plat_fault_point(j->target_point);
    /* Warm-up: code and data into the caches, not recorded. */
    methods_job_time(j, j->placeholder, j->iters);
    methods_job_time(j, j->routine, j->iters);
    if (!j->fixed)
        methods_grow(j);
    else
        snprintf(r->iterations_why, sizeof r->iterations_why, "as asked (fixed by the caller)");
    /* First passes, pair by pair. */
    for (uint32_t i = 0; i < j->n; i++)
        methods_first_pair(j, i);
    if (j->fixed) {     /* the step: the caller's or the clock's, else seen within a first pass */
        uint64_t s = 0;
        if (!j->step) {
            memcpy(j->scratch, r->placeholder_raw, j->n * sizeof(uint64_t));
            s = methods_min_step(j->scratch, j->n);
            memcpy(j->scratch, r->bench_raw, j->n * sizeof(uint64_t));
            s = methods_step_min(s, methods_min_step(j->scratch, j->n));
        }
        methods_step_of(j, s, r);
    }
    methods_fences(j);
    for (uint32_t i = 0; i < j->n; i++) {
        while ((double)r->placeholder[i] > r->cal_fence) {
            if (r->cal_overheads >= j->limit)
                return METHODS_CAL_OVERHEAD;
            r->cal_overheads++;
            r->placeholder[i] = methods_job_time(j, j->placeholder, j->iters);
        }
        while ((double)r->bench[i] > r->bench_fence) {
            if (r->bench_overheads >= j->limit)
                return METHODS_BENCH_OVERHEAD;
            r->bench_overheads++;
            r->bench[i] = methods_job_time(j, j->routine, j->iters);
        }
    }
    /* The series of the two difference estimators, minima only. */
    r->min_t2 = r->min_tn2 = r->min_t2n = UINT64_MAX;
    for (uint32_t i = 0; i < j->n; i++) {
        uint64_t t2 = methods_job_time(j, j->routine, 2);
        uint64_t tn2 = methods_job_time(j, j->routine, j->iters + 2);
        uint64_t t2n = methods_job_time(j, j->routine, 2 * j->iters);
        r->min_t2 = t2 < r->min_t2 ? t2 : r->min_t2;
        r->min_tn2 = tn2 < r->min_tn2 ? tn2 : r->min_tn2;
        r->min_t2n = t2n < r->min_t2n ? t2n : r->min_t2n;
    }
    return METHODS_OK;
}

/* The paired test on every first-pass pair as taken: d = routine -
 * placeholder.  No pair is dropped: the fences depend on which series a
 * timing is in (each series' median), so dropping by them would tilt the
 * signs that the test needs to be fair coins under the null; the ranks
 * already keep a disturbed pair from weighing more than its rank. */
static void methods_paired(struct methods_result *r, double *d, double *scratch, double *work, size_t work_len)
{
    for (uint32_t i = 0; i < r->samples; i++)
        d[i] = r->bench_raw[i] >= r->placeholder_raw[i] ? (double)(r->bench_raw[i] - r->placeholder_raw[i])
                                                        : -(double)(r->placeholder_raw[i] - r->bench_raw[i]);
    stats_signed_rank(d, r->samples, scratch, work, work_len, &r->paired);
}

/* Interpretation: summaries, the estimators, the status. */
static int methods_interpret(struct methods_result *r, uint64_t *sp, uint64_t *st, double *sd)
{
    uint32_t n = r->samples;
    double N = (double)r->iterations, z;

    stats_summary_u64(r->placeholder, n, sp, NULL, &r->p_sum);
    stats_summary_u64(r->bench, n, st, NULL, &r->t_sum);
    r->min_p = r->p_sum.min_u64;
    r->min_t = r->t_sum.min_u64;
    for (uint32_t i = 0; i < n; i++)
        r->net[i] = ((double)r->bench[i] - r->p_sum.median) / N;
    stats_summary_double(r->net, n, sd, NULL, &r->net_sum);
    r->minus_placeholder = ((double)r->min_t - (double)r->min_p) / N;
    /* (mean T - mean P) / N from the offsets above each minimum (exact sums) */
    r->mean_net = ((double)r->min_t - (double)r->min_p + r->t_sum.mean_above_min - r->p_sum.mean_above_min) / N;
    r->apple = ((double)r->min_tn2 - (double)r->min_t2) / N;
    r->n_vs_2n = ((double)r->min_t2n - (double)r->min_t) / N;
    stats_mann_whitney_sorted_u64(st, n, sp, n, 1, &r->mw_u, &z, &r->mw_p);
    if (n < 2) {
        snprintf(r->why, sizeof r->why, "one good sample: no spread can be given");
        return METHODS_INCONCLUSIVE;
    }
    if (!(r->mw_u > (double)n * (double)n / 2 && r->mw_p < METHODS_TELL_ALPHA)) {
        snprintf(r->why, sizeof r->why, "not told from the placeholder: Mann-Whitney p %.3g, U %.0f of %.0f "
                 "(medians %.1f vs %.1f ticks)", r->mw_p, r->mw_u, (double)n * (double)n, r->t_sum.median,
                 r->p_sum.median);
        return METHODS_TOO_SHORT;
    }
    return METHODS_OK;
}

static int methods_fail(struct methods_result *r, int status, const char *why)
{
    r->status = status;
    snprintf(r->why, sizeof r->why, "%s", why);
    return status;
}

int methods_measure_ex(int method, bm_routine routine, void *data, uint32_t samples,
                       uint64_t iterations, const struct methods_opts *opt,
                       struct methods_result *out)
{
    static const struct methods_opts defaults;
    struct methods_cpu cpu;
    struct methods_job j;
    long rc = METHODS_FAULT;
    char why[160];

    memset(out, 0, sizeof *out);
    opt = opt ? opt : &defaults;
    out->method = method;
    out->samples = samples;
    out->iterations = out->iterations_requested = iterations;
    out->mw_p = out->mw_u = out->minus_placeholder = out->mean_net = out->apple = out->n_vs_2n = NAN;
    out->fence_above = out->cal_fence = out->bench_fence = NAN;
    out->paired.p = out->paired.mean_diff = out->paired.median_diff = NAN;
    if (method < 0 || method >= METHODS_COUNT || !routine || samples < 1 || samples > METHODS_MAX_SAMPLES
        || iterations < 1 || iterations > METHODS_MAX_ITERATIONS)
        return methods_fail(out, METHODS_BAD_INPUT, "bad input: method, routine, samples 1..1000000 "
                            "or iterations 1..1000000");
    if (!opt->cpu)
        methods_cpu_probe(&cpu, cpu_identity(), NULL);     /* a caller without the run's record */
    if (!methods_supported(opt->cpu ? opt->cpu : &cpu, method))
        return methods_fail(out, METHODS_UNSUPPORTED, methods_unsupported_why(opt->cpu ? opt->cpu : &cpu, method));

    memset(&j, 0, sizeof j);
    j.m = &methods_table[method];
    j.bracket = opt->bracket ? opt->bracket : j.m->bracket;
    /* the caller's step wins, then the clock's measured one (0: not measured) */
    j.step = opt->step ? opt->step : plat_tick_step();
    j.step_source = opt->step ? METHODS_STEP_CALLER : METHODS_STEP_CLOCK;
    j.fixed = opt->fixed_iterations;
    j.routine = routine;
    j.placeholder = opt->placeholder ? opt->placeholder : bm_target_placeholder;
    j.data = data;
    j.n = samples;
    j.iters = iterations;
    j.limit = opt->overhead_limit ? opt->overhead_limit : METHODS_OVERHEAD_LIMIT;
    j.random_order = !opt->fixed_order;
    j.seed = methods_seed_mix(opt->order_seed ? opt->order_seed : METHODS_ORDER_SEED);
    out->order_random = j.random_order;
    j.r = out;
    snprintf(j.method_point, sizeof j.method_point, "method:%s", j.m->key);
    if (opt->target_key)
        snprintf(j.target_point, sizeof j.target_point, "target:%s", opt->target_key);

    /* Memory first: never allocate with interrupts masked. */
    out->placeholder = plat_alloc(samples * sizeof(uint64_t));
    out->bench = plat_alloc(samples * sizeof(uint64_t));
    out->placeholder_raw = plat_alloc(samples * sizeof(uint64_t));
    out->bench_raw = plat_alloc(samples * sizeof(uint64_t));
    out->net = plat_alloc(samples * sizeof(double));
    uint64_t *sp = plat_alloc(2 * (size_t)samples * sizeof(uint64_t)), *st = plat_alloc(samples * sizeof(uint64_t));
    double *sd = plat_alloc(samples * sizeof(double)), *pd = plat_alloc(2 * (size_t)samples * sizeof(double));
    /* room for the signed-rank test's exact distribution (stats/paired.c) */
    size_t pw_len = STATS_SIGNED_RANK_WORK(samples < STATS_SIGNED_RANK_EXACT_MAX ? samples
                                                                                 : STATS_SIGNED_RANK_EXACT_MAX);
    double *pw = plat_alloc(pw_len * sizeof(double));
    j.scratch = sp;
    j.dscratch = pd;
    if (!out->placeholder || !out->bench || !out->placeholder_raw || !out->bench_raw || !out->net || !sp || !st
        || !sd || !pd || !pw) {
        plat_free(sp);
        plat_free(st);
        plat_free(sd);
        plat_free(pd);
        plat_free(pw);
        methods_result_free(out);
        return methods_fail(out, METHODS_NOMEM, "no memory for the samples");
    }
    /* The interrupt state before, to put back after a fault inside a timing. */
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    if (plat_protected(methods_measure_body, &j, &rc, why, sizeof why) != NULL) {
        plat_irq_restore(irq);
        out->status = METHODS_FAULT;
        snprintf(out->why, sizeof out->why, "%s", why);
    } else if (rc != METHODS_OK) {
        out->status = (int)rc;
        snprintf(out->why, sizeof out->why, "more than %llu retakes of disturbed timings while %s",
                 (unsigned long long)j.limit, rc == METHODS_CAL_OVERHEAD ? "calibrating" : "benchmarking");
    } else {
        methods_paired(out, pd, sd, pw, pw_len);
        out->status = methods_interpret(out, sp, st, sd);
    }
    plat_free(sp);
    plat_free(st);
    plat_free(sd);
    plat_free(pd);
    plat_free(pw);
    return out->status;
}

int methods_measure(int method, bm_routine routine, void *data, uint32_t samples,
                    uint64_t iterations, struct methods_result *out)
{
    return methods_measure_ex(method, routine, data, samples, iterations, NULL, out);
}

void methods_result_free(struct methods_result *r)
{
    plat_free(r->placeholder);
    plat_free(r->bench);
    plat_free(r->placeholder_raw);
    plat_free(r->bench_raw);
    plat_free(r->net);
    r->placeholder = r->bench = r->placeholder_raw = r->bench_raw = NULL;
    r->net = NULL;
}

/* ---- the extended profile's best method -------------------------------------------------- */

void methods_best_init(struct methods_best *b)
{
    memset(b, 0, sizeof *b);
    b->best_method = b->mean_method = -1;
    b->best = b->mean = NAN;
}

/* Does (value, min_p) of a later method beat the one kept?  Equal values:
 * the smaller placeholder minimum; equal again: the earlier method stays. */
static int methods_beats(double value, uint64_t min_p, int have, double kept, uint64_t kept_min_p)
{
    if (!have)
        return 1;
    return value < kept || (value == kept && min_p < kept_min_p);
}

void methods_best_add(struct methods_best *b, const struct methods_result *r)
{
    if (r->status != METHODS_OK || isnan(r->minus_placeholder) || isnan(r->mean_net))
        return;
    b->measured++;
    if (methods_beats(r->minus_placeholder, r->min_p, b->best_method >= 0, b->best, b->best_min_p)) {
        b->best = r->minus_placeholder;
        b->best_min_p = r->min_p;
        b->best_method = r->method;
    }
    if (methods_beats(r->mean_net, r->min_p, b->mean_method >= 0, b->mean, b->mean_min_p)) {
        b->mean = r->mean_net;
        b->mean_min_p = r->min_p;
        b->mean_method = r->method;
    }
}

