/*
 * bench/methods_engine.c - the measurement engine: CodeTune's calibrate /
 * benchmark / interpret (seed 004) with its status codes, and the net time
 * per iteration three ways, Apple's among them (seed 001).  See methods.h
 * for the good-sample criteria and the estimators.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
    bm_routine routine, placeholder;
    void *data;
    uint32_t n;
    uint64_t iters, limit;
    char method_point[48], target_point[48];
    uint64_t *scratch;
    struct methods_result *r;
};

/* Q3 + 1.5 IQR of x[0..n-1] (type-7 quartiles, stats/). */
static double methods_fence(const uint64_t *x, size_t n, uint64_t *scratch)
{
    memcpy(scratch, x, n * sizeof *x);
    stats_sort_u64(scratch, n);
    double q1 = stats_percentile_sorted_u64(scratch, n, 25), q3 = stats_percentile_sorted_u64(scratch, n, 75);
    return q3 + METHODS_FENCE_IQR * (q3 - q1);
}

/* One stage (calibration or benchmark): n timings, the fence, retakes. */
static int methods_stage(struct methods_job *j, bm_routine f, uint64_t *out, uint64_t *retakes,
                         double *fence)
{
    for (uint32_t i = 0; i < j->n; i++)
        out[i] = methods_time(j->m->bracket, f, j->iters, j->data);
    *fence = methods_fence(out, j->n, j->scratch);
    for (uint32_t i = 0; i < j->n; i++) {
        while ((double)out[i] > *fence) {
            if (*retakes >= j->limit)
                return -1;
            (*retakes)++;
            out[i] = methods_time(j->m->bracket, f, j->iters, j->data);
        }
    }
    return 0;
}

static long methods_measure_body(void *arg)
{
    struct methods_job *j = arg;
    struct methods_result *r = j->r;
    const struct methods_info *m = j->m;

    plat_fault_point(j->method_point);
    if (j->target_point[0])
        plat_fault_point(j->target_point);
    /* Warm-up: code and data into the caches, not recorded. */
    methods_time(m->bracket, j->placeholder, j->iters, j->data);
    methods_time(m->bracket, j->routine, j->iters, j->data);
    if (methods_stage(j, j->placeholder, r->placeholder, &r->cal_overheads, &r->cal_fence))
        return METHODS_CAL_OVERHEAD;
    if (methods_stage(j, j->routine, r->bench, &r->bench_overheads, &r->bench_fence))
        return METHODS_BENCH_OVERHEAD;
    /* The series of the two difference estimators, minima only. */
    r->min_t2 = r->min_tn2 = r->min_t2n = UINT64_MAX;
    for (uint32_t i = 0; i < j->n; i++) {
        uint64_t t2 = methods_time(m->bracket, j->routine, 2, j->data);
        uint64_t tn2 = methods_time(m->bracket, j->routine, j->iters + 2, j->data);
        uint64_t t2n = methods_time(m->bracket, j->routine, 2 * j->iters, j->data);
        r->min_t2 = t2 < r->min_t2 ? t2 : r->min_t2;
        r->min_tn2 = tn2 < r->min_tn2 ? tn2 : r->min_tn2;
        r->min_t2n = t2n < r->min_t2n ? t2n : r->min_t2n;
    }
    return METHODS_OK;
}

/* Interpretation: summaries, the estimators, the status. */
static int methods_interpret(struct methods_result *r, uint64_t *sp, uint64_t *st, double *sd)
{
    uint32_t n = r->samples;
    double N = (double)r->iterations, u, z;

    stats_summary_u64(r->placeholder, n, sp, NULL, &r->p_sum);
    stats_summary_u64(r->bench, n, st, NULL, &r->t_sum);
    r->min_p = r->p_sum.min_u64;
    r->min_t = r->t_sum.min_u64;
    for (uint32_t i = 0; i < n; i++)
        r->net[i] = ((double)r->bench[i] - r->p_sum.median) / N;
    stats_summary_double(r->net, n, sd, NULL, &r->net_sum);
    r->minus_placeholder = ((double)r->min_t - (double)r->min_p) / N;
    r->apple = ((double)r->min_tn2 - (double)r->min_t2) / N;
    r->n_vs_2n = ((double)r->min_t2n - (double)r->min_t) / N;
    stats_mann_whitney_sorted_u64(st, n, sp, n, 1, &u, &z, &r->mw_p);
    if (n < 2) {
        snprintf(r->why, sizeof r->why, "one good sample: no spread can be given");
        return METHODS_INCONCLUSIVE;
    }
    if (!(r->t_sum.median > r->p_sum.median && r->mw_p < METHODS_TELL_ALPHA)) {
        snprintf(r->why, sizeof r->why, "not told from the placeholder: median %.1f vs %.1f ticks, "
                 "Mann-Whitney p %.3g", r->t_sum.median, r->p_sum.median, r->mw_p);
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
    out->iterations = iterations;
    out->mw_p = out->minus_placeholder = out->apple = out->n_vs_2n = NAN;
    if (method < 0 || method >= METHODS_COUNT || !routine || samples < 1 || samples > METHODS_MAX_SAMPLES
        || iterations < 1 || iterations > METHODS_MAX_ITERATIONS)
        return methods_fail(out, METHODS_BAD_INPUT, "bad input: method, routine, samples 1..1000000 "
                            "or iterations 1..1000000");
    if (!opt->cpu)
        methods_cpu_probe(&cpu);
    if (!methods_supported(opt->cpu ? opt->cpu : &cpu, method))
        return methods_fail(out, METHODS_UNSUPPORTED, methods_unsupported_why(opt->cpu ? opt->cpu : &cpu, method));

    memset(&j, 0, sizeof j);
    j.m = &methods_table[method];
    j.routine = routine;
    j.placeholder = opt->placeholder ? opt->placeholder : bm_target_placeholder;
    j.data = data;
    j.n = samples;
    j.iters = iterations;
    j.limit = opt->overhead_limit ? opt->overhead_limit : METHODS_OVERHEAD_LIMIT;
    j.r = out;
    snprintf(j.method_point, sizeof j.method_point, "method:%s", j.m->key);
    if (opt->target_key)
        snprintf(j.target_point, sizeof j.target_point, "target:%s", opt->target_key);

    /* Memory first: never allocate with interrupts masked. */
    out->placeholder = plat_alloc(samples * sizeof(uint64_t));
    out->bench = plat_alloc(samples * sizeof(uint64_t));
    out->net = plat_alloc(samples * sizeof(double));
    uint64_t *sp = plat_alloc(samples * sizeof(uint64_t)), *st = plat_alloc(samples * sizeof(uint64_t));
    double *sd = plat_alloc(samples * sizeof(double));
    j.scratch = sp;
    if (!out->placeholder || !out->bench || !out->net || !sp || !st || !sd) {
        plat_free(sp);
        plat_free(st);
        plat_free(sd);
        methods_result_free(out);
        return methods_fail(out, METHODS_NOMEM, "no memory for the samples");
    }
    /* The interrupt state before, to put back after a fault inside a timing. */
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    if (plat_protected(methods_measure_body, &j, &rc, why, sizeof why) != 0) {
        plat_irq_restore(irq);
        out->status = METHODS_FAULT;
        snprintf(out->why, sizeof out->why, "%s", why);
    } else if (rc != METHODS_OK) {
        out->status = (int)rc;
        snprintf(out->why, sizeof out->why, "more than %llu retakes of disturbed timings while %s",
                 (unsigned long long)j.limit, rc == METHODS_CAL_OVERHEAD ? "calibrating" : "benchmarking");
    } else {
        out->status = methods_interpret(out, sp, st, sd);
    }
    plat_free(sp);
    plat_free(st);
    plat_free(sd);
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
    plat_free(r->net);
    r->placeholder = r->bench = NULL;
    r->net = NULL;
}
