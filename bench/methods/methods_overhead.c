/*
 * bench/methods/methods_overhead.c - each method's overhead and resolution
 * (back-to-back timings), and Paoloni's checks (Intel white paper "How to
 * Benchmark Code Execution Times on Intel IA-32 and IA-64", 2010): the
 * variance of fixed code's minima and the least-squares line of growing
 * code's.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "methods_internal.h"
#include "platform.h"
#include "stats.h"
#include "targets.h"

/* ---- overhead and resolution ------------------------------------------------------------ */

struct methods_oh_job {
    const struct methods_info *m;
    char point[48];
    struct methods_overhead *o;
};

static long methods_overhead_body(void *arg)
{
    struct methods_oh_job *j = arg;
    plat_fault_point(j->point);
    methods_time_null(j->m->null);          /* warm-up */
    for (uint32_t i = 0; i < j->o->n; i++)
        j->o->samples[i] = methods_time_null(j->m->null);
    return 0;
}

int methods_overhead_measure(int method, const struct methods_cpu *cpu, uint32_t n,
                             struct methods_overhead *out)
{
    struct methods_oh_job j = { &methods_table[method], "", out };
    long rc;
    memset(out, 0, sizeof *out);
    out->method = method;
    out->n = n;
    if (!methods_supported(cpu, method)) {
        out->status = METHODS_UNSUPPORTED;
        snprintf(out->why, sizeof out->why, "%s", methods_unsupported_why(cpu, method));
        return out->status;
    }
    snprintf(j.point, sizeof j.point, "method:%s", j.m->key);
    out->samples = plat_alloc((n ? n : 1) * sizeof(uint64_t));
    uint64_t *scratch = plat_alloc((n ? n : 1) * sizeof(uint64_t));
    if (!out->samples || !scratch) {
        plat_free(scratch);
        methods_overhead_free(out);
        out->status = METHODS_NOMEM;
        snprintf(out->why, sizeof out->why, "no memory for the samples");
        return out->status;
    }
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    if (plat_protected(methods_overhead_body, &j, &rc, out->why, sizeof out->why) != NULL) {
        plat_irq_restore(irq);
        plat_free(scratch);
        methods_overhead_free(out);
        out->status = METHODS_FAULT;
        return out->status;
    }
    stats_summary_u64(out->samples, n, scratch, NULL, &out->sum);
    out->step = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint64_t d = scratch[i] - scratch[i - 1];
        if (d && (!out->step || d < out->step))
            out->step = d;
    }
    plat_free(scratch);
    out->status = METHODS_OK;
    return out->status;
}

void methods_overhead_free(struct methods_overhead *o)
{
    plat_free(o->samples);
    o->samples = NULL;
}

/* ---- Paoloni ------------------------------------------------------------------------------ */

struct methods_pa_job {
    const struct methods_info *m;
    char point[48];
    struct methods_paoloni *p;
};

static long methods_paoloni_body(void *arg)
{
    struct methods_pa_job *j = arg;
    struct methods_paoloni *p = j->p;
    plat_fault_point(j->point);
    methods_time_null(j->m->null);
    for (uint32_t e = 0; e < p->ensembles; e++) {
        uint64_t mn = UINT64_MAX;
        for (uint32_t s = 0; s < p->ensemble_size; s++) {
            uint64_t t = methods_time_null(j->m->null);
            mn = t < mn ? t : mn;
        }
        p->fixed_minima[e] = mn;
    }
    methods_time(j->m->bracket, bm_target_add1, 1, NULL);
    for (uint32_t k = 0; k < p->sizes; k++) {
        uint64_t mn = UINT64_MAX;
        for (uint32_t s = 0; s < p->ensemble_size; s++) {
            uint64_t t = methods_time(j->m->bracket, bm_target_add1, k + 1, NULL);
            mn = t < mn ? t : mn;
        }
        p->grow_minima[k] = mn;
    }
    return 0;
}

void methods_regress(const double *x, const double *y, size_t n, double *slope,
                     double *intercept, double *r2, double *resid_var)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, rss = 0;
    *slope = *intercept = *r2 = *resid_var = NAN;
    if (n < 2)
        return;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx == 0)
        return;
    *slope = sxy / sxx;
    *intercept = my - *slope * mx;
    for (size_t i = 0; i < n; i++) {
        double e = y[i] - (*intercept + *slope * x[i]);
        rss += e * e;
    }
    *resid_var = rss / (double)n;
    *r2 = syy > 0 ? 1.0 - rss / syy : NAN;
}

static void methods_paoloni_stats(struct methods_paoloni *p, uint64_t *scratch, double *xy)
{
    struct stats_summary s;
    stats_summary_u64(p->fixed_minima, p->ensembles, scratch, NULL, &s);
    p->fixed_var = s.var_pop;
    p->fixed_distinct = p->ensembles ? 1 : 0;
    for (uint32_t i = 1; i < p->ensembles; i++)
        p->fixed_distinct += scratch[i] != scratch[i - 1];
    p->spurious = 0;
    for (uint32_t k = 1; k < p->sizes; k++)
        p->spurious += p->grow_minima[k] < p->grow_minima[k - 1];
    for (uint32_t k = 0; k < p->sizes; k++) {
        xy[k] = (double)(k + 1);
        xy[p->sizes + k] = (double)p->grow_minima[k];
    }
    methods_regress(xy, xy + p->sizes, p->sizes, &p->slope, &p->intercept, &p->r2, &p->resid_var);
}

int methods_paoloni(int method, const struct methods_cpu *cpu, uint32_t ensembles,
                    uint32_t ensemble_size, uint32_t sizes, struct methods_paoloni *out)
{
    struct methods_pa_job j = { &methods_table[method], "", out };
    long rc;
    memset(out, 0, sizeof *out);
    out->method = method;
    out->ensembles = ensembles;
    out->ensemble_size = ensemble_size;
    out->sizes = sizes;
    out->fixed_var = out->slope = out->intercept = out->r2 = out->resid_var = NAN;
    if (!methods_supported(cpu, method)) {
        out->status = METHODS_UNSUPPORTED;
        snprintf(out->why, sizeof out->why, "%s", methods_unsupported_why(cpu, method));
        return out->status;
    }
    if (!ensembles || !ensemble_size || !sizes) {
        out->status = METHODS_BAD_INPUT;
        snprintf(out->why, sizeof out->why, "ensembles, their size and the sizes must be at least 1");
        return out->status;
    }
    snprintf(j.point, sizeof j.point, "method:%s", j.m->key);
    out->fixed_minima = plat_alloc(ensembles * sizeof(uint64_t));
    out->grow_minima = plat_alloc(sizes * sizeof(uint64_t));
    uint64_t *scratch = plat_alloc(ensembles * sizeof(uint64_t));
    double *xy = plat_alloc(2 * sizes * sizeof(double));
    if (!out->fixed_minima || !out->grow_minima || !scratch || !xy) {
        plat_free(scratch);
        plat_free(xy);
        methods_paoloni_free(out);
        out->status = METHODS_NOMEM;
        snprintf(out->why, sizeof out->why, "no memory for the minima");
        return out->status;
    }
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    if (plat_protected(methods_paoloni_body, &j, &rc, out->why, sizeof out->why) != NULL) {
        plat_irq_restore(irq);
        out->status = METHODS_FAULT;
    } else {
        methods_paoloni_stats(out, scratch, xy);
        out->status = METHODS_OK;
    }
    plat_free(scratch);
    plat_free(xy);
    if (out->status != METHODS_OK)
        methods_paoloni_free(out);
    return out->status;
}

void methods_paoloni_free(struct methods_paoloni *p)
{
    plat_free(p->fixed_minima);
    plat_free(p->grow_minima);
    p->fixed_minima = p->grow_minima = NULL;
}
