/*
 * bench/methods.c - the timing methods' table and support check, the
 * measurement engine (CodeTune's calibrate / benchmark / interpret, seed
 * 004; Apple's net time, seed 001), each method's overhead and resolution,
 * Paoloni's checks, and the `methods` section.  See methods.h for the
 * good-sample criteria and the estimators.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "methods.h"
#include "out.h"
#include "platform.h"
#include "quiet.h"
#include "results.h"
#include "stats.h"
#include "targets.h"

/* ---- constants ----------------------------------------------------------------- */

/* Two-sided level at which the routine must differ from the placeholder. */
#define METHODS_TELL_ALPHA STATS_ALPHA

/* bench/methods.asm */
#define METHOD_DECL(k) \
    uint64_t bm_method_##k(bm_routine, uint64_t, void *); \
    uint64_t bm_null_##k(void);
METHOD_DECL(cpuid_rdtsc)
METHOD_DECL(lfence_rdtsc)
METHOD_DECL(lfence_rdtsc_lfence)
METHOD_DECL(rdtscp)
METHOD_DECL(lfence_rdtscp)
METHOD_DECL(cpuid_rdtscp)
METHOD_DECL(rdtscp_lfence)
METHOD_DECL(rdtsc)
METHOD_DECL(sdm)

#define CODETUNE "CodeTune method "
/* The sequences as text; bench/methods.asm's SEQ_ macros are the code and
 * tests/unit/test_methods.c checks that the bytes match this text. */
const struct methods_info methods_table[METHODS_COUNT] = {
    { "cpuid+rdtsc", "cpuid_rdtsc", 1, "xor eax, eax; cpuid; rdtsc", CODETUNE "1",
      0, 1, 0, bm_method_cpuid_rdtsc, bm_null_cpuid_rdtsc },
    { "lfence+rdtsc", "lfence_rdtsc", 2, "lfence; rdtsc", CODETUNE "2",
      0, 0, 1, bm_method_lfence_rdtsc, bm_null_lfence_rdtsc },
    { "lfence+rdtsc+lfence", "lfence_rdtsc_lfence", 3, "lfence; rdtsc; lfence", CODETUNE "3",
      0, 0, 1, bm_method_lfence_rdtsc_lfence, bm_null_lfence_rdtsc_lfence },
    { "rdtscp", "rdtscp", 4, "rdtscp", CODETUNE "4",
      1, 0, 0, bm_method_rdtscp, bm_null_rdtscp },
    { "lfence+rdtscp", "lfence_rdtscp", 5, "lfence; rdtscp", CODETUNE "5",
      1, 0, 1, bm_method_lfence_rdtscp, bm_null_lfence_rdtscp },
    { "cpuid+rdtscp", "cpuid_rdtscp", 6, "xor eax, eax; cpuid; rdtscp", CODETUNE "6",
      1, 1, 0, bm_method_cpuid_rdtscp, bm_null_cpuid_rdtscp },
    { "rdtscp+lfence", "rdtscp_lfence", 7, "rdtscp; lfence", CODETUNE "7",
      1, 0, 1, bm_method_rdtscp_lfence, bm_null_rdtscp_lfence },
    { "rdtsc", "rdtsc", 8, "rdtsc", CODETUNE "8",
      0, 0, 0, bm_method_rdtsc, bm_null_rdtsc },
    { "sdm-recommended", "sdm", 0, "mfence; lfence; rdtsc; lfence",
      "the CPU vendor's recommendation: Intel SDM vol. 2, RDTSC (MFENCE;LFENCE before, LFENCE after)",
      0, 0, 1, bm_method_sdm, bm_null_sdm },
};

/* Ordered so a status code indexes nothing by accident: looked up by value. */
static const struct { int code; const char *name; } methods_status_names[] = {
    { METHODS_OK, "ok" }, { METHODS_BAD_INPUT, "bad_input" },
    { METHODS_CAL_OVERHEAD, "calibration_overhead" }, { METHODS_BENCH_OVERHEAD, "benchmark_overhead" },
    { METHODS_TOO_SHORT, "too_short" }, { METHODS_INCONCLUSIVE, "inconclusive" },
    { METHODS_UNSUPPORTED, "unsupported" }, { METHODS_FAULT, "fault" }, { METHODS_NOMEM, "no_memory" },
};

/* ---- small helpers ----------------------------------------------------------------- */

const char *methods_status_name(int status)
{
    for (size_t i = 0; i < sizeof methods_status_names / sizeof methods_status_names[0]; i++)
        if (methods_status_names[i].code == status)
            return methods_status_names[i].name;
    return "?";
}

double methods_ns(double ticks, uint64_t hz)
{
    return hz ? ticks * 1e9 / (double)hz : NAN;
}

void methods_sequence_split(const struct methods_info *m, int *before, int *after)
{
    const char *s = m->sequence, *read = strstr(s, "rdtsc");
    int b = 0, a = 0;
    for (const char *p = s; p < read; p++)
        b += *p == ';';
    for (const char *p = read; *p; p++)
        a += *p == ';';
    *before = b;
    *after = a;
}

/* One timing with interrupts masked. */
static uint64_t methods_time(methods_bracket_fn b, bm_routine f, uint64_t n, void *data)
{
    unsigned long irq = plat_irq_off();
    uint64_t t = b(f, n, data);
    plat_irq_restore(irq);
    return t;
}

static uint64_t methods_time_null(methods_null_fn f)
{
    unsigned long irq = plat_irq_off();
    uint64_t t = f();
    plat_irq_restore(irq);
    return t;
}

/* ---- CPU support -------------------------------------------------------------------- */

static void methods_vendor(uint32_t leaf, char out[13])
{
    uint32_t r[4];
    bm_cpuid(leaf, 0, r);
    if (leaf == 0) {          /* ebx, edx, ecx */
        memcpy(out, &r[1], 4);
        memcpy(out + 4, &r[3], 4);
        memcpy(out + 8, &r[2], 4);
    } else {                  /* hypervisor leaf: ebx, ecx, edx */
        memcpy(out, &r[1], 4);
        memcpy(out + 4, &r[2], 4);
        memcpy(out + 8, &r[3], 4);
    }
    out[12] = 0;
}

static void methods_lfence_probe(struct methods_cpu *c, uint32_t max_ext)
{
    uint32_t r[4];
    c->amd_cpuid_lfence = -1;
    c->amd_msr_lfence = -1;
    if (c->is_intel) {
        c->lfence_serializing = 1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "dispatch-serializing (Intel: architectural)");
        return;
    }
    if (!c->is_amd) {
        c->lfence_serializing = -1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "not known for vendor %s", c->vendor);
        return;
    }
    if (max_ext >= METHODS_AMD_EXT21_LEAF) {
        bm_cpuid(METHODS_AMD_EXT21_LEAF, 0, r);
        c->amd_cpuid_lfence = (r[0] & METHODS_AMD_EXT21_LFENCE) != 0;
    }
    uint64_t v;
    if (methods_read_msr && methods_read_msr(METHODS_AMD_DE_CFG_MSR, &v) == 0)
        c->amd_msr_lfence = (v & METHODS_AMD_DE_CFG_LFENCE) != 0;
    c->lfence_serializing = c->amd_cpuid_lfence == 1 || c->amd_msr_lfence == 1 ? 1
                            : c->amd_msr_lfence == 0 && c->amd_cpuid_lfence != 1 ? 0 : -1;
    snprintf(c->lfence_why, sizeof c->lfence_why, "AMD: CPUID 0x80000021 EAX bit 2 %s, MSR 0xC0011029 bit 1 %s",
             c->amd_cpuid_lfence < 0 ? "(leaf absent)" : c->amd_cpuid_lfence ? "set" : "clear",
             c->amd_msr_lfence >= 0 ? (c->amd_msr_lfence ? "set" : "clear")
             : methods_read_msr ? "(not readable: #GP)" : "(not readable here)");
}

void methods_cpu_probe(struct methods_cpu *c)
{
    uint32_t r[4], max_ext;
    memset(c, 0, sizeof *c);
    methods_vendor(0, c->vendor);
    c->is_intel = !strcmp(c->vendor, "GenuineIntel");
    c->is_amd = !strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine");
    bm_cpuid(1, 0, r);
    c->hypervisor = (r[2] >> 31) & 1;
    if (c->hypervisor)
        methods_vendor(0x40000000u, c->hypervisor_vendor);
    bm_cpuid(0x80000000u, 0, r);
    max_ext = r[0];
    if (max_ext >= 0x80000001u) {
        bm_cpuid(0x80000001u, 0, r);
        c->rdtscp = (r[3] >> 27) & 1;
    }
    if (max_ext >= 0x80000007u) {
        bm_cpuid(0x80000007u, 0, r);
        c->invariant_tsc = (r[3] >> 8) & 1;
    }
    methods_lfence_probe(c, max_ext);
}

int methods_supported(const struct methods_cpu *c, int m)
{
    if (m < 0 || m >= METHODS_COUNT)
        return 0;
    return !methods_table[m].uses_rdtscp || c->rdtscp;
}

const char *methods_unsupported_why(const struct methods_cpu *c, int m)
{
    if (m < 0 || m >= METHODS_COUNT)
        return "no such method";
    if (methods_supported(c, m))
        return "";
    return "no rdtscp: CPUID 0x80000001 EDX bit 27 clear";
}

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
    if (plat_protected(methods_overhead_body, &j, &rc, out->why, sizeof out->why) != 0) {
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
    if (plat_protected(methods_paoloni_body, &j, &rc, out->why, sizeof out->why) != 0) {
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

/* ---- the section: JSON helpers ------------------------------------------------------------- */

static void methods_json_u64s(struct json_writer *w, const char *key, const uint64_t *x, size_t n)
{
    json_arr_begin(w, key);
    for (size_t i = 0; i < n; i++)
        json_u64(w, NULL, x[i]);
    json_arr_end(w);
}

static void methods_json_summary(struct json_writer *w, const char *key, const struct stats_summary *s)
{
    json_obj_begin(w, key);
    json_u64(w, "n", s->n);
    json_double(w, "min", s->min);
    json_double(w, "median", s->median);
    json_double(w, "mean", s->mean);
    json_double(w, "sd", s->sd_sample);
    json_double(w, "sd_pop", s->sd_pop);
    json_double(w, "var", s->var_sample);
    json_double(w, "var_pop", s->var_pop);
    json_double(w, "max", s->max);
    json_double(w, "q1", s->q1);
    json_double(w, "q3", s->q3);
    json_double(w, "mode", s->mode.value);
    json_u64(w, "mode_count", s->mode.count);
    json_bool(w, "mode_pure", s->mode.pure);
    json_double(w, "trimmed_mean", s->trimmed_mean);
    json_obj_end(w);
}

static void methods_json_ns(struct json_writer *w, const char *key, double ticks, uint64_t hz)
{
    if (hz)
        json_double(w, key, methods_ns(ticks, hz));
    else
        json_null(w, key);
}

/* ---- the section: text and JSON per part ------------------------------------------------------ */

static void methods_flags(const struct methods_cpu *c, const struct methods_info *m, char *buf, size_t n)
{
    buf[0] = 0;
    if (m->uses_cpuid && c->hypervisor)
        snprintf(buf + strlen(buf), n - strlen(buf), " [cpuid exits to the hypervisor]");
    if (m->uses_lfence && c->lfence_serializing == 0)
        snprintf(buf + strlen(buf), n - strlen(buf), " [lfence not dispatch-serializing here]");
    else if (m->uses_lfence && c->lfence_serializing < 0)
        snprintf(buf + strlen(buf), n - strlen(buf), " [lfence serializing: unknown]");
}

static void methods_json_flags(struct json_writer *w, const struct methods_cpu *c, const struct methods_info *m)
{
    json_arr_begin(w, "flags");
    if (m->uses_cpuid && c->hypervisor)
        json_str(w, NULL, "cpuid_exits_to_hypervisor");
    if (m->uses_lfence && c->lfence_serializing == 0)
        json_str(w, NULL, "lfence_not_serializing");
    else if (m->uses_lfence && c->lfence_serializing < 0)
        json_str(w, NULL, "lfence_serializing_unknown");
    json_arr_end(w);
}

static void methods_print_header(const struct methods_plan *p, const struct methods_cpu *c, uint64_t hz)
{
    if (hz)
        out_printf("methods: TSC at %.3f MHz (clock section); ns = ticks x 1e9 / Hz\n", (double)hz / 1e6);
    else
        out_printf("methods: the clock is not calibrated: figures are in TSC ticks only\n");
    if (p->interrupts_maskable)
        out_printf("methods: interrupts masked (cli) for every timing\n");
    else
        out_printf("methods: interrupts cannot be masked here (%s): a timing may include an interrupt "
                   "or a context switch\n", plat_name());
    out_printf("methods: CPU %s; hypervisor %s%s\n", c->vendor,
               c->hypervisor ? (c->hypervisor_vendor[0] ? c->hypervisor_vendor : "(unnamed)") : "none",
               c->hypervisor ? " (CPUID.1:ECX bit 31): cpuid exits to it, methods with cpuid time it too" : "");
    out_printf("methods: rdtscp %s (CPUID 0x80000001 EDX bit 27)%s\n", c->rdtscp ? "yes" : "no",
               c->rdtscp ? "" : ": the four rdtscp methods are skipped, not executed");
    out_printf("methods: lfence %s\n", c->lfence_why);
    out_printf("methods: profile %s: %u back-to-back timings per method; %u samples x %llu iterations "
               "per measurement\n", p->quick ? "quick" : "full", (unsigned)p->overhead_samples,
               (unsigned)p->samples, (unsigned long long)p->iterations);
}

static void methods_json_header(struct json_writer *w, const struct methods_plan *p,
                                const struct methods_cpu *c, uint64_t hz)
{
    json_str(w, "platform", plat_name());
    json_u64(w, "tick_hz", hz);
    json_bool(w, "clock_calibrated", hz != 0);
    json_bool(w, "interrupts_masked", p->interrupts_maskable);
    json_str(w, "profile", p->quick ? "quick" : "full");
    json_u64(w, "overhead_samples", p->overhead_samples);
    json_u64(w, "samples", p->samples);
    json_u64(w, "iterations", p->iterations);
    json_obj_begin(w, "cpu");
    json_str(w, "vendor", c->vendor);
    json_bool(w, "hypervisor", c->hypervisor);
    json_str(w, "hypervisor_vendor", c->hypervisor_vendor);
    json_bool(w, "rdtscp", c->rdtscp);
    json_bool(w, "invariant_tsc", c->invariant_tsc);
    json_str(w, "lfence_serializing", c->lfence_serializing < 0 ? "unknown" : c->lfence_serializing ? "yes" : "no");
    json_str(w, "lfence_why", c->lfence_why);
    if (c->is_amd) {
        json_str(w, "amd_cpuid_80000021_eax_bit2", c->amd_cpuid_lfence < 0 ? "absent"
                 : c->amd_cpuid_lfence ? "set" : "clear");
        json_str(w, "amd_msr_c0011029_bit1", c->amd_msr_lfence < 0 ? "unread" : c->amd_msr_lfence ? "set" : "clear");
    }
    json_obj_end(w);
}

/* The section's measuring phases: each measurement runs with the firmware
 * timer stopped (bench/quiet.h) and the phase ends before its line is
 * printed. */
static struct quiet_phase_totals methods_qt;

/* One method: its sequence, support, overhead and resolution. */
static int methods_part_method(const struct methods_plan *p, const struct methods_cpu *c, int m,
                               uint64_t hz, struct json_writer *w)
{
    const struct methods_info *mi = &methods_table[m];
    struct methods_overhead o;
    char flags[160];
    int bad = 0;

    methods_flags(c, mi, flags, sizeof flags);
    out_printf("method %d %s: start and stop: %s%s\n", mi->codetune ? mi->codetune : 9, mi->name,
               mi->sequence, flags);
    if (!mi->codetune)
        out_printf("  (%s)\n", mi->origin);
    quiet_phase_begin();
    methods_overhead_measure(m, c, p->overhead_samples, &o);
    quiet_phase_end_add(&methods_qt);
    if (o.status == METHODS_UNSUPPORTED)
        out_printf("  unsupported (%s): skipped, not executed\n", o.why);
    else if (o.status != METHODS_OK) {
        out_warn("fault in method:%s (overhead): %s; the method's overhead is not known", mi->key, o.why);
        bad = 1;
    } else {
        out_printf("  overhead ticks: min %llu, median %.1f, mean %.2f, sd %.2f, mode %.1f%s, max %llu; "
                   "step %llu\n", (unsigned long long)o.sum.min_u64, o.sum.median, o.sum.mean, o.sum.sd_sample,
                   o.sum.mode.value, o.sum.mode.pure ? " (pure)" : "", (unsigned long long)o.sum.max_u64,
                   (unsigned long long)o.step);
        if (hz)
            out_printf("  overhead ns: min %.2f, median %.2f, sd %.2f\n", methods_ns(o.sum.min, hz),
                       methods_ns(o.sum.median, hz), methods_ns(o.sum.sd_sample, hz));
    }
    if (w) {
        json_obj_begin(w, NULL);
        json_str(w, "name", mi->name);
        json_str(w, "key", mi->key);
        json_u64(w, "codetune", mi->codetune);
        json_str(w, "start", mi->sequence);
        json_str(w, "stop", mi->sequence);
        json_str(w, "origin", mi->origin);
        json_bool(w, "supported", methods_supported(c, m));
        json_str(w, "status", methods_status_name(o.status));
        json_i64(w, "status_code", o.status);
        if (o.why[0])
            json_str(w, "why", o.why);
        methods_json_flags(w, c, mi);
        if (o.status == METHODS_OK) {
            json_obj_begin(w, "overhead");
            json_u64(w, "n", o.sum.n);
            json_u64(w, "min", o.sum.min_u64);
            json_double(w, "median", o.sum.median);
            json_double(w, "mean", o.sum.mean);
            json_double(w, "sd", o.sum.sd_sample);
            json_double(w, "mode", o.sum.mode.value);
            json_bool(w, "mode_pure", o.sum.mode.pure);
            json_u64(w, "max", o.sum.max_u64);
            methods_json_u64s(w, "samples", o.samples, o.n);
            json_obj_end(w);
            json_u64(w, "step_ticks", o.step);
            json_obj_begin(w, "overhead_ns");
            methods_json_ns(w, "min", o.sum.min, hz);
            methods_json_ns(w, "median", o.sum.median, hz);
            methods_json_ns(w, "sd", o.sum.sd_sample, hz);
            json_obj_end(w);
        }
        json_obj_end(w);
    }
    methods_overhead_free(&o);
    return bad;
}

/* Targets measured with every method, in this order. */
static const char *const methods_matrix[] = { "empty", "add10", "add100", "add1000", "foo", "strlen" };
/* The routine of the extended profile (CodeTune's example). */
#define METHODS_PROFILE_TARGET "strlen"

struct methods_best {
    int best_method, mean_method;
    double best, mean;
    unsigned measured;
};

static void methods_print_row(const struct methods_info *mi, const struct methods_result *r, uint64_t hz)
{
    if (r->status == METHODS_UNSUPPORTED) {
        out_printf("  %-20s unsupported: skipped\n", mi->name);
        return;
    }
    if (r->status == METHODS_FAULT || r->status == METHODS_NOMEM || r->status == METHODS_BAD_INPUT) {
        out_printf("  %-20s %s: %s\n", mi->name, methods_status_name(r->status), r->why);
        return;
    }
    out_printf("  %-20s %-13s %4llu/%-4llu %11.3f %11.3f %11.3f %10.3f %8.3f", mi->name,
               methods_status_name(r->status), (unsigned long long)r->cal_overheads,
               (unsigned long long)r->bench_overheads, r->minus_placeholder, r->apple, r->n_vs_2n,
               r->net_sum.median, r->net_sum.sd_sample);
    if (hz)
        out_printf(" %10.3f", methods_ns(r->n_vs_2n, hz));
    out_printf("\n");
}

static void methods_json_result(struct json_writer *w, const struct target *t, const struct methods_info *mi,
                                const struct methods_result *r, uint64_t hz)
{
    char name[96];
    snprintf(name, sizeof name, "%s/%s", t->name, mi->name);
    json_obj_begin(w, NULL);
    json_str(w, "name", name);
    json_str(w, "target", t->name);
    json_str(w, "method", mi->name);
    json_str(w, "status", methods_status_name(r->status));
    json_i64(w, "status_code", r->status);
    if (r->why[0])
        json_str(w, "why", r->why);
    json_u64(w, "samples_requested", r->samples);
    json_u64(w, "iterations", r->iterations);
    if (t->per_iteration >= 0) {
        json_i64(w, "instructions_fixed", t->fixed);
        json_i64(w, "instructions_per_iteration", t->per_iteration);
    }
    if (r->bench && r->status != METHODS_FAULT && r->status != METHODS_CAL_OVERHEAD
        && r->status != METHODS_BENCH_OVERHEAD) {
        json_u64(w, "calibration_retakes", r->cal_overheads);
        json_u64(w, "benchmark_retakes", r->bench_overheads);
        json_double(w, "calibration_fence", r->cal_fence);
        json_double(w, "benchmark_fence", r->bench_fence);
        json_u64(w, "placeholder_min", r->min_p);
        json_double(w, "placeholder_median", r->p_sum.median);
        json_u64(w, "routine_min", r->min_t);
        json_double(w, "routine_median", r->t_sum.median);
        json_u64(w, "min_t2", r->min_t2);
        json_u64(w, "min_tn2", r->min_tn2);
        json_u64(w, "min_t2n", r->min_t2n);
        json_double(w, "mann_whitney_p", r->mw_p);
        json_obj_begin(w, "per_iteration");
        json_double(w, "minus_placeholder", r->minus_placeholder);
        json_double(w, "apple", r->apple);
        json_double(w, "n_vs_2n", r->n_vs_2n);
        json_obj_end(w);
        json_obj_begin(w, "per_iteration_ns");
        methods_json_ns(w, "minus_placeholder", r->minus_placeholder, hz);
        methods_json_ns(w, "apple", r->apple, hz);
        methods_json_ns(w, "n_vs_2n", r->n_vs_2n, hz);
        json_obj_end(w);
        methods_json_summary(w, "net", &r->net_sum);
        methods_json_u64s(w, "samples", r->bench, r->samples);
        methods_json_u64s(w, "placeholder_samples", r->placeholder, r->samples);
    }
    json_obj_end(w);
}

/* One target with every method; keeps the profile's best figures. */
static int methods_part_target(const struct methods_plan *p, const struct methods_cpu *c, const struct target *t,
                               uint64_t hz, struct json_writer *w, struct methods_best *best)
{
    struct methods_opts opt = { 0, NULL, t->name, c };
    int bad = 0;
    if (t->per_iteration >= 0)
        out_printf("target %s: %s; %lld + %lld/iteration instructions; %u samples x %llu iterations\n",
                   t->name, t->what, (long long)t->fixed, (long long)t->per_iteration, (unsigned)p->samples,
                   (unsigned long long)p->iterations);
    else
        out_printf("target %s: %s; %u samples x %llu iterations\n", t->name, t->what, (unsigned)p->samples,
                   (unsigned long long)p->iterations);
    out_printf("  %-20s %-13s %9s %11s %11s %11s %10s %8s%s\n", "method", "status", "retakes",
               "-placeholdr", "(N+2)-(2)", "2N-N", "net median", "net sd", hz ? "  2N-N (ns)" : "");
    for (int m = 0; m < METHODS_COUNT; m++) {
        struct methods_result r;
        quiet_phase_begin();
        methods_measure_ex(m, t->fn, t->data, p->samples, p->iterations, &opt, &r);
        quiet_phase_end_add(&methods_qt);
        methods_print_row(&methods_table[m], &r, hz);
        if (r.status == METHODS_FAULT || r.status == METHODS_NOMEM || r.status == METHODS_CAL_OVERHEAD
            || r.status == METHODS_BENCH_OVERHEAD) {
            out_warn("%s/%s: %s (%s); this measurement is missing", t->name, methods_table[m].name,
                     methods_status_name(r.status), r.why);
            bad = 1;
        }
        if (best && r.status == METHODS_OK) {
            best->measured++;
            if (isnan(best->best) || r.net_sum.min < best->best) {
                best->best = r.net_sum.min;
                best->best_method = m;
            }
            if (isnan(best->mean) || r.net_sum.mean < best->mean) {
                best->mean = r.net_sum.mean;
                best->mean_method = m;
            }
        }
        if (w)
            methods_json_result(w, t, &methods_table[m], &r, hz);
        methods_result_free(&r);
    }
    return bad;
}

static void methods_part_profile(const struct methods_best *b, uint64_t hz, struct json_writer *w)
{
    if (!b->measured) {
        out_printf("profile of %s: no method gave a good measurement\n", METHODS_PROFILE_TARGET);
    } else {
        out_printf("profile of %s with every supported method (%u good): best time %.3f ticks/iteration "
                   "with %s; fastest mean %.3f with %s\n", METHODS_PROFILE_TARGET, b->measured, b->best,
                   methods_table[b->best_method].name, b->mean, methods_table[b->mean_method].name);
        if (hz)
            out_printf("profile of %s: best %.3f ns, fastest mean %.3f ns per iteration\n",
                       METHODS_PROFILE_TARGET, methods_ns(b->best, hz), methods_ns(b->mean, hz));
    }
    if (!w)
        return;
    json_obj_begin(w, "extended_profile");
    json_str(w, "routine", METHODS_PROFILE_TARGET);
    json_u64(w, "methods_measured", b->measured);
    if (b->measured) {
        json_double(w, "best_ticks", b->best);
        methods_json_ns(w, "best_ns", b->best, hz);
        json_str(w, "best_method", methods_table[b->best_method].name);
        json_double(w, "fastest_mean_ticks", b->mean);
        methods_json_ns(w, "fastest_mean_ns", b->mean, hz);
        json_str(w, "fastest_mean_method", methods_table[b->mean_method].name);
    }
    json_obj_end(w);
}

static int methods_part_paoloni(const struct methods_plan *p, const struct methods_cpu *c, int m,
                                struct json_writer *w)
{
    const struct methods_info *mi = &methods_table[m];
    struct methods_paoloni pa;
    int bad = 0;
    quiet_phase_begin();
    methods_paoloni(m, c, p->paoloni_ensembles, p->paoloni_ensemble_size, p->paoloni_sizes, &pa);
    quiet_phase_end_add(&methods_qt);
    if (pa.status == METHODS_UNSUPPORTED) {
        out_printf("  %-20s unsupported: skipped\n", mi->name);
    } else if (pa.status != METHODS_OK) {
        out_warn("fault in method:%s (Paoloni check): %s", mi->key, pa.why);
        bad = 1;
    } else {
        out_printf("  %-20s %10.3f %8u %9u %10.4f %10.3f %8.6f %10.3f\n", mi->name, pa.fixed_var,
                   (unsigned)pa.fixed_distinct, (unsigned)pa.spurious, pa.slope, pa.intercept, pa.r2,
                   pa.resid_var);
    }
    if (w) {
        json_obj_begin(w, NULL);
        json_str(w, "name", mi->name);
        json_str(w, "status", methods_status_name(pa.status));
        if (pa.why[0])
            json_str(w, "why", pa.why);
        json_u64(w, "ensembles", pa.ensembles);
        json_u64(w, "ensemble_size", pa.ensemble_size);
        json_u64(w, "sizes", pa.sizes);
        if (pa.status == METHODS_OK) {
            json_double(w, "minima_variance", pa.fixed_var);
            json_u64(w, "distinct_minima", pa.fixed_distinct);
            methods_json_u64s(w, "samples", pa.fixed_minima, pa.ensembles);
            json_u64(w, "spurious_minima", pa.spurious);
            json_double(w, "slope_ticks_per_iteration", pa.slope);
            json_double(w, "intercept_ticks", pa.intercept);
            json_double(w, "r2", pa.r2);
            json_double(w, "residual_variance", pa.resid_var);
            methods_json_u64s(w, "growing_minima", pa.grow_minima, pa.sizes);
        }
        json_obj_end(w);
    }
    methods_paoloni_free(&pa);
    return bad;
}

/* ---- the section ---------------------------------------------------------------------------- */

void methods_print_elapsed(const char *section, uint64_t ticks, uint64_t hz)
{
    if (hz)
        out_printf("%s: done in %llu ticks (%.3f s)\n", section, (unsigned long long)ticks, (double)ticks / (double)hz);
    else
        out_printf("%s: done in %llu ticks\n", section, (unsigned long long)ticks);
}

void methods_plan_from_config(const struct bm_config *cfg, struct methods_plan *p)
{
    uint32_t r[4];
    bm_cpuid(1, 0, r);
    int hv = (r[2] >> 31) & 1;
    memset(p, 0, sizeof *p);
    p->quick = cfg->profile == BM_PROFILE_QUICK || (cfg->profile == BM_PROFILE_AUTO && hv);
    p->overhead_samples = cfg->methods_samples;
    p->samples = p->quick && cfg->methods_samples > METHODS_QUICK_SAMPLES ? METHODS_QUICK_SAMPLES
                                                                           : cfg->methods_samples;
    p->iterations = cfg->methods_iterations;
    p->paoloni_ensembles = p->quick ? METHODS_QUICK_PAOLONI_ENS : METHODS_FULL_PAOLONI_ENS;
    p->paoloni_ensemble_size = p->quick ? METHODS_QUICK_PAOLONI_ENS_SIZE : METHODS_FULL_PAOLONI_ENS_SIZE;
    p->paoloni_sizes = p->quick ? METHODS_QUICK_PAOLONI_SIZES : METHODS_FULL_PAOLONI_SIZES;
    p->interrupts_maskable = strcmp(plat_name(), "linux") != 0;
}

int methods_section(const struct methods_plan *p, struct json_writer *w)
{
    struct methods_cpu c;
    struct methods_best best = { 0, 0, NAN, NAN, 0 };
    uint64_t hz = plat_tick_hz(), t0 = plat_ticks();
    int bad = 0;

    quiet_phase_totals_init(&methods_qt);
    methods_cpu_probe(&c);
    methods_print_header(p, &c, hz);
    if (w)
        methods_json_header(w, p, &c, hz);

    if (w)
        json_arr_begin(w, "methods");
    for (int m = 0; m < METHODS_COUNT; m++)
        bad |= methods_part_method(p, &c, m, hz, w);
    if (w)
        json_arr_end(w);

    out_printf("net time per iteration in ticks: minus the placeholder, Apple's (N+2)-(2), N vs 2N; "
               "net samples = (timing - placeholder median) / N\n");
    if (w)
        json_arr_begin(w, "measurements");
    for (size_t i = 0; i < sizeof methods_matrix / sizeof methods_matrix[0]; i++) {
        const struct target *t = targets_find(methods_matrix[i]);
        if (t)
            bad |= methods_part_target(p, &c, t, hz, w,
                                       !strcmp(t->name, METHODS_PROFILE_TARGET) ? &best : NULL);
    }
    if (w)
        json_arr_end(w);
    methods_part_profile(&best, hz, w);

    out_printf("Paoloni: %u ensembles of %u back-to-back timings (minimum of each); add1 with 1..%u "
               "iterations (minimum of %u each)\n", (unsigned)p->paoloni_ensembles,
               (unsigned)p->paoloni_ensemble_size, (unsigned)p->paoloni_sizes, (unsigned)p->paoloni_ensemble_size);
    out_printf("  %-20s %10s %8s %9s %10s %10s %8s %10s\n", "method", "var(min)", "distinct", "spurious",
               "slope", "intercept", "R^2", "resid var");
    if (w)
        json_arr_begin(w, "paoloni");
    for (int m = 0; m < METHODS_COUNT; m++)
        bad |= methods_part_paoloni(p, &c, m, w);
    if (w)
        json_arr_end(w);
    quiet_phase_totals_print("methods", &methods_qt);
    quiet_phase_totals_json(w, "quiet_phases", &methods_qt);
    methods_print_elapsed("methods", plat_ticks() - t0, hz);
    return bad ? 2 : 0;
}

int methods_run(const struct bm_config *cfg)
{
    struct methods_plan p;
    methods_plan_from_config(cfg, &p);
    struct json_writer *w = results_section_begin("methods", 0);
    int rc = methods_section(&p, w);
    results_section_end();
    return rc;
}
