/*
 * bench/methods/pmu_session.c - the run's PMU: probed once, printed and
 * written into the results, and the measurements that read it around each
 * timing (the brackets of pmu.asm).  Detection and programming are
 * pmu.c's (pmu.h for the sources and the sequence).
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "methods.h"
#include "platform.h"
#include "pmu.h"

/* ---- the run's PMU -------------------------------------------------------------------------- */

static struct pmu_info pmu_state;
static int pmu_probed;

const struct pmu_info *pmu_session(void)
{
    return &pmu_state;
}

/* Work for the functional check: 100 x 100 dependent adds (10,200
 * instructions by bench/targets/targets.h's counts, 10,000 of them adds). */
#define PMU_CHECK_ITERS 100
static void pmu_check_work(void *arg)
{
    bm_target_add100(PMU_CHECK_ITERS, arg);
}

/* A bracketed timing, for checking that rdpmc executes. */
struct pmu_job {
    pmu_bracket_fn bracket;
    bm_routine routine, placeholder;
    void *data;
    uint32_t samples;
    uint64_t iterations;
    struct pmu_sel sel;
    struct pmu_series s[5];
};

static void pmu_sel_fill(const struct pmu_info *p, struct pmu_sel *sel)
{
    for (int e = 0; e < PMU_EVENTS; e++)
        sel->ecx[e] = p->ctr[e].present ? p->ctr[e].rdpmc_ecx : p->ctr[PMU_CYCLES].rdpmc_ecx;
}

static long pmu_rdpmc_check(void *arg)
{
    struct pmu_job *j = arg;
    struct pmu_raw raw;
    j->bracket(bm_target_empty, 1, NULL, &j->sel, &raw);
    return 0;
}

static int pmu_plat_read(void *ctx, uint32_t msr, uint64_t *value) { return plat_rdmsr(msr, value) ? -1 : 0; }
static int pmu_plat_write(void *ctx, uint32_t msr, uint64_t value) { return plat_wrmsr(msr, value) ? -1 : 0; }
static const struct pmu_msr_ops pmu_plat_ops = { pmu_plat_read, pmu_plat_write, 0 };

/* The port's MSRs, or NULL where there are none. */
static const struct pmu_msr_ops *pmu_platform_msr(void)
{
    return (plat_caps() & PLAT_CAP_MSR) ? &pmu_plat_ops : NULL;
}

int pmu_session_probe(const struct cpu_info *id)
{
    const struct pmu_msr_ops *ops = pmu_platform_msr();

    if (pmu_probed)
        return pmu_state.usable;
    pmu_probed = 1;
    if (!pmu_probe(id, ops, pmu_check_work, NULL, PMU_CHECK_ITERS * 100, &pmu_state))
        return 0;
    /* The counters count through the MSRs; rdpmc must execute too. */
    struct pmu_job j = { .bracket = pmu_bracket(METHOD_LFENCE_RDTSC) };
    struct pmu_saved s;
    char why[160];
    long rc;
    pmu_sel_fill(&pmu_state, &j.sel);
    if (pmu_start(&pmu_state, ops, &s))
        return pmu_state.usable = 0;
    int bad = plat_protected(pmu_rdpmc_check, &j, &rc, why, sizeof why) != NULL;
    pmu_stop(&pmu_state, ops, &s);
    if (bad) {
        snprintf(pmu_state.why, sizeof pmu_state.why, "rdpmc faulted: %s", why);
        pmu_state.usable = 0;
    }
    return pmu_state.usable;
}

void pmu_print(const struct pmu_info *p)
{
    if (!p->usable) {
        out_printf("pmu: no usable performance counters (%s): cycles and instructions are not "
                   "measured, figures are in ticks only\n", p->why[0] ? p->why : "not probed");
        return;
    }
    if (p->kind == PMU_KIND_INTEL)
        out_printf("pmu: Intel architectural PMU version %d: %u general counters of %u bits, "
                   "%u fixed of %u bits\n", p->version, p->gp_count, p->gp_width, p->fixed_count,
                   p->fixed_width);
    else
        out_printf("pmu: AMD core performance counters%s%s: %u counters of %u bits\n",
                   p->amd_ext_core ? " (PerfCtrExtCore)" : " (legacy)",
                   p->amd_perfmon_v2 ? ", PerfMonV2" : "", p->gp_count, p->gp_width);
    for (int e = 0; e < PMU_EVENTS; e++) {
        const struct pmu_counter *c = &p->ctr[e];
        if (!c->present)
            out_printf("pmu:   %-12s not counted (%s)\n", pmu_event_name(e),
                       p->kind == PMU_KIND_AMD ? "AMD has no architectural reference-cycle event"
                                               : "no counter for it");
        else if (c->fixed)
            out_printf("pmu:   %-12s fixed counter %u (MSR %#x)%s%s%s\n", pmu_event_name(e), c->index,
                       (unsigned)c->ctr_msr, e == PMU_REF_CYCLES ? " (" : "",
                       e == PMU_REF_CYCLES ? pmu_ref_clock_text(p) : "", e == PMU_REF_CYCLES ? ")" : "");
        else
            out_printf("pmu:   %-12s general counter %u, event select %#llx (MSR %#x)%s%s%s\n",
                       pmu_event_name(e), c->index, (unsigned long long)c->evtsel, (unsigned)c->ctl_msr,
                       e == PMU_REF_CYCLES ? " (" : "", e == PMU_REF_CYCLES ? pmu_ref_clock_text(p) : "",
                       e == PMU_REF_CYCLES ? ")" : "");
    }
}

void pmu_json(struct json_writer *w, const char *key, const struct pmu_info *p)
{
    json_obj_begin(w, key);
    json_bool(w, "usable", p->usable);
    json_str(w, "kind", p->kind == PMU_KIND_INTEL ? "intel" : p->kind == PMU_KIND_AMD ? "amd" : "none");
    if (!p->usable)
        json_str(w, "why", p->why);
    if (p->kind != PMU_KIND_NONE) {
        json_i64(w, "version", p->version);
        json_u64(w, "general_counters", p->gp_count);
        json_u64(w, "general_width", p->gp_width);
        json_u64(w, "fixed_counters", p->fixed_count);
        json_u64(w, "fixed_width", p->fixed_width);
        json_arr_begin(w, "events");
        for (int e = 0; e < PMU_EVENTS; e++) {
            const struct pmu_counter *c = &p->ctr[e];
            json_obj_begin(w, NULL);
            json_str(w, "event", pmu_event_name(e));
            json_bool(w, "counted", c->present);
            if (c->present) {
                json_str(w, "counter", c->fixed ? "fixed" : "general");
                json_u64(w, "index", c->index);
                json_u64(w, "width", c->width);
                if (e == PMU_REF_CYCLES)
                    json_str(w, "clock", pmu_ref_clock(p));
            }
            json_obj_end(w);
        }
        json_arr_end(w);
    }
    json_obj_end(w);
}

/* The five series of a measurement, inside plat_protected. */
static long pmu_measure_body(void *arg)
{
    struct pmu_job *j = arg;
    const uint64_t n = j->iterations;
    const struct { bm_routine f; uint64_t iters; } plan[5] = {
        { j->placeholder, n }, { j->routine, n }, { j->routine, 2 }, { j->routine, n + 2 },
        { j->routine, 2 * n },
    };
    for (int k = 0; k < 5; k++) {
        struct pmu_raw raw;
        uint64_t d[1 + PMU_EVENTS];
        pmu_series_init(&j->s[k]);
        j->bracket(plan[k].f, plan[k].iters, j->data, &j->sel, &raw);   /* warm-up */
        for (uint32_t i = 0; i < j->samples; i++) {
            unsigned long irq = plat_irq_off();
            j->bracket(plan[k].f, plan[k].iters, j->data, &j->sel, &raw);
            plat_irq_restore(irq);
            pmu_raw_deltas(&pmu_state, &raw, d);
            pmu_series_add(&j->s[k], d);
        }
    }
    return 0;
}

int pmu_measure(int method, bm_routine routine, void *data, bm_routine placeholder,
                uint32_t samples, uint64_t iterations, struct pmu_estimates *e)
{
    const struct pmu_msr_ops *ops = pmu_platform_msr();
    struct pmu_job j = { .bracket = pmu_bracket(method), .routine = routine,
                         .placeholder = placeholder ? placeholder : bm_target_placeholder,
                         .data = data, .samples = samples, .iterations = iterations };
    struct pmu_saved s;
    char why[160];
    long rc;

    memset(e, 0, sizeof *e);
    e->status = -1;
    if (!pmu_state.usable || !ops || !j.bracket || !samples || !iterations) {
        snprintf(e->why, sizeof e->why, "%s", !pmu_state.usable ? "no usable PMU" : "bad input");
        return -1;
    }
    pmu_sel_fill(&pmu_state, &j.sel);
    if (pmu_start(&pmu_state, ops, &s)) {
        snprintf(e->why, sizeof e->why, "%.150s", pmu_state.why);
        return -1;
    }
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    int bad = plat_protected(pmu_measure_body, &j, &rc, why, sizeof why) != NULL;
    plat_irq_restore(irq);
    unsigned ovf = pmu_overflow_take(&pmu_state, ops);
    pmu_stop(&pmu_state, ops, &s);
    if (bad) {
        snprintf(e->why, sizeof e->why, "fault while counting: %.130s", why);
        return -1;
    }
    pmu_estimate(&pmu_state, &j.s[0], &j.s[1], &j.s[2], &j.s[3], &j.s[4], iterations, e);
    e->overflows = ovf;
    return e->status;
}

static const char *const pmu_est_names[PMU_ESTIMATORS] = { "minus_placeholder", "apple", "n_vs_2n" };

void pmu_estimates_json(struct json_writer *w, const char *key, const struct pmu_info *p,
                        const struct pmu_estimates *e)
{
    json_obj_begin(w, key);
    json_str(w, "status", e->status == 0 ? "ok" : "failed");
    if (e->status) {
        json_str(w, "why", e->why);
        json_obj_end(w);
        return;
    }
    for (int k = 0; k <= PMU_EVENTS; k++) {
        if (k > 0 && !p->ctr[k - 1].present)
            continue;
        json_obj_begin(w, k == 0 ? "ticks" : pmu_event_name(k - 1));
        for (int j = 0; j < PMU_ESTIMATORS; j++)
            json_double(w, pmu_est_names[j], e->per_iter[k][j]);
        json_obj_end(w);
    }
    json_double(w, "cycles_per_tick", e->cycles_per_tick);
    if (p->ctr[PMU_REF_CYCLES].present) {
        json_double(w, "ref_cycles_per_tick", e->ref_per_tick);
        json_str(w, "ref_cycles_clock", pmu_ref_clock(p));
    }
    json_u64(w, "overflows", e->overflows);
    json_obj_end(w);
}

/* ---- the brackets (bench/methods/pmu.asm), in enum methods_id order ------------------------------- */

#define PMU_DECL(name) void bm_pmu_##name(bm_routine, uint64_t, void *, const struct pmu_sel *, struct pmu_raw *);
PMU_DECL(cpuid_rdtsc) PMU_DECL(lfence_rdtsc) PMU_DECL(lfence_rdtsc_lfence) PMU_DECL(rdtscp)
PMU_DECL(lfence_rdtscp) PMU_DECL(cpuid_rdtscp) PMU_DECL(rdtscp_lfence) PMU_DECL(rdtsc) PMU_DECL(sdm)

static const pmu_bracket_fn pmu_brackets[METHODS_COUNT] = {
    [METHOD_CPUID_RDTSC] = bm_pmu_cpuid_rdtsc, [METHOD_LFENCE_RDTSC] = bm_pmu_lfence_rdtsc,
    [METHOD_LFENCE_RDTSC_LFENCE] = bm_pmu_lfence_rdtsc_lfence, [METHOD_RDTSCP] = bm_pmu_rdtscp,
    [METHOD_LFENCE_RDTSCP] = bm_pmu_lfence_rdtscp, [METHOD_CPUID_RDTSCP] = bm_pmu_cpuid_rdtscp,
    [METHOD_RDTSCP_LFENCE] = bm_pmu_rdtscp_lfence, [METHOD_RDTSC] = bm_pmu_rdtsc, [METHOD_SDM] = bm_pmu_sdm,
};

pmu_bracket_fn pmu_bracket(int method)
{
    return method >= 0 && method < METHODS_COUNT ? pmu_brackets[method] : NULL;
}
