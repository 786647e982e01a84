/*
 * bench/methods/pmu.c - performance counters: detection, programming, reading (see
 * pmu.h for the sources and the sequence); the run's PMU, its text and its
 * measurements are pmu_session.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "pmu.h"

/* Intel's fixed counter for each event (SDM: fixed 0 instructions, 1 core
 * cycles, 2 reference cycles) and the bit of CPUID.0AH:EBX naming the
 * architectural event. */
static const unsigned pmu_intel_fixed[PMU_EVENTS] = { 1, 0, 2 };
static const unsigned pmu_intel_ebx_bit[PMU_EVENTS] = { 0, 1, 2 };
/* Architectural events for general counters: event | umask << 8. */
static const uint64_t pmu_intel_event[PMU_EVENTS] = { 0x003C, 0x00C0, 0x013C };
/* AMD: cycles not in halt (76h), retired instructions (C0h); none for
 * reference cycles. */
static const uint64_t pmu_amd_event[PMU_EVENTS] = { 0x76, 0xC0, 0 };
#define PMU_AMD_WIDTH        48
#define PMU_AMD_LEGACY_COUNT 4
#define PMU_AMD_EXT_COUNT    6
#define PMU_CPUID_ARCH_LEAF  0x0Au
#define PMU_CPUID_AMD_EXT1   0x80000001u
#define PMU_CPUID_AMD_EXT1_PERFCTR_CORE (1u << 23)
#define PMU_CPUID_AMD_PERFMON_LEAF 0x80000022u

static const char *const pmu_names[PMU_EVENTS] = { "cycles", "instructions", "ref_cycles" };

const char *pmu_event_name(int e)
{
    return e >= 0 && e < PMU_EVENTS ? pmu_names[e] : "?";
}

uint64_t pmu_mask(unsigned width)
{
    return width >= 64 ? ~0ull : width == 0 ? 0 : (1ull << width) - 1;
}

uint64_t pmu_delta(uint64_t start, uint64_t end, unsigned width)
{
    return (end - start) & pmu_mask(width);
}

const char *pmu_ref_clock(const struct pmu_info *p)
{
    const struct pmu_counter *c = &p->ctr[PMU_REF_CYCLES];
    return !c->present ? NULL : c->tsc_rate ? "tsc" : "part_reference";
}

const char *pmu_ref_clock_text(const struct pmu_info *p)
{
    const struct pmu_counter *c = &p->ctr[PMU_REF_CYCLES];
    if (!c->present)
        return "";
    return c->tsc_rate ? "REF_TSC: the TSC's rate while unhalted"
                       : "event 3CH/01H: a fixed clock of the part's choosing (TSC, crystal or bus "
                         "clock), not known to be the TSC's rate";
}

/* ---- detection ----------------------------------------------------------------- */

static int pmu_intel_fixed_ok(const struct pmu_info *p, unsigned f)
{
    if (p->version < 2)
        return 0;
    return f < p->fixed_count || (p->version >= 5 && ((p->fixed_bitmap >> f) & 1));
}

static int pmu_intel_event_ok(const struct pmu_info *p, int e)
{
    unsigned bit = pmu_intel_ebx_bit[e];
    return bit < p->ebx_length && !((p->ebx_unavailable >> bit) & 1);
}

static void pmu_plan_intel(struct pmu_info *p)
{
    unsigned next_gp = 0;
    for (int e = 0; e < PMU_EVENTS; e++) {
        struct pmu_counter *c = &p->ctr[e];
        unsigned f = pmu_intel_fixed[e];
        memset(c, 0, sizeof *c);
        if (pmu_intel_fixed_ok(p, f)) {
            *c = (struct pmu_counter){ 1, 1, f, 0, PMU_IA32_FIXED_CTR0 + f, 0, p->fixed_width,
                                       PMU_RDPMC_FIXED | f, e == PMU_REF_CYCLES };
            p->global_bits |= 1ull << (32 + f);
        } else if (pmu_intel_event_ok(p, e) && next_gp < p->gp_count) {
            unsigned i = next_gp++;
            *c = (struct pmu_counter){ 1, 0, i, PMU_IA32_PERFEVTSEL0 + i, PMU_IA32_PMC0 + i,
                                       pmu_intel_event[e] | PMU_EVTSEL_USR | PMU_EVTSEL_OS | PMU_EVTSEL_EN,
                                       p->gp_width, i };
            p->global_bits |= 1ull << i;
        }
    }
    p->has_global = p->version >= 2;
    p->global_ctrl_msr = PMU_IA32_PERF_GLOBAL_CTRL;
    p->global_status_msr = PMU_IA32_PERF_GLOBAL_STATUS;
    p->global_ovf_msr = PMU_IA32_PERF_GLOBAL_OVF_CTRL;
}

static void pmu_detect_intel(const struct cpu_info *id, struct pmu_info *p)
{
    uint32_t r[4];
    if (id->max_leaf < PMU_CPUID_ARCH_LEAF) {
        snprintf(p->why, sizeof p->why, "no CPUID leaf 0AH (highest leaf %#x)", (unsigned)id->max_leaf);
        return;
    }
    cpu_leaf(id, PMU_CPUID_ARCH_LEAF, 0, r);
    p->version = (int)(r[0] & 0xFF);
    p->gp_count = (r[0] >> 8) & 0xFF;
    p->gp_width = (r[0] >> 16) & 0xFF;
    p->ebx_length = (r[0] >> 24) & 0xFF;
    p->ebx_unavailable = r[1];
    p->fixed_bitmap = p->version >= 5 ? r[2] : 0;
    p->fixed_count = p->version >= 2 ? (r[3] & 0x1F) : 0;
    p->fixed_width = p->version >= 2 ? ((r[3] >> 5) & 0xFF) : 0;
    if (p->version == 0) {
        snprintf(p->why, sizeof p->why, "no architectural PMU (CPUID 0AH reports version 0)");
        return;
    }
    p->kind = PMU_KIND_INTEL;
    pmu_plan_intel(p);
}

static void pmu_detect_amd(const struct cpu_info *id, struct pmu_info *p)
{
    uint32_t r[4];
    uint32_t max_ext = id->max_ext_leaf;
    if (max_ext >= PMU_CPUID_AMD_EXT1) {
        cpu_leaf(id, PMU_CPUID_AMD_EXT1, 0, r);
        p->amd_ext_core = !!(r[2] & PMU_CPUID_AMD_EXT1_PERFCTR_CORE);
    }
    unsigned n = p->amd_ext_core ? PMU_AMD_EXT_COUNT : PMU_AMD_LEGACY_COUNT;
    if (max_ext >= PMU_CPUID_AMD_PERFMON_LEAF) {
        cpu_leaf(id, PMU_CPUID_AMD_PERFMON_LEAF, 0, r);
        p->amd_perfmon_v2 = r[0] & 1;
        if (p->amd_perfmon_v2 && (r[1] & 0xF))
            n = r[1] & 0xF;
    }
    p->kind = PMU_KIND_AMD;
    p->version = p->amd_perfmon_v2 ? 2 : 1;
    p->gp_count = n;
    p->gp_width = PMU_AMD_WIDTH;
    p->has_global = p->amd_perfmon_v2;
    p->global_ctrl_msr = PMU_AMD_GLOBAL_CTL;
    p->global_status_msr = PMU_AMD_GLOBAL_STATUS;
    p->global_ovf_msr = PMU_AMD_GLOBAL_STATUS_CLR;
    unsigned next = 0;
    for (int e = 0; e < PMU_EVENTS; e++) {
        struct pmu_counter *c = &p->ctr[e];
        memset(c, 0, sizeof *c);
        if (!pmu_amd_event[e] || next >= n)
            continue;
        unsigned i = next++;
        uint32_t ctl = p->amd_ext_core ? PMU_AMD_PERFEVTSEL_EXT + 2 * i : PMU_AMD_PERFEVTSEL_LEGACY + i;
        uint32_t ctr = p->amd_ext_core ? PMU_AMD_PERFCTR_EXT + 2 * i : PMU_AMD_PERFCTR_LEGACY + i;
        *c = (struct pmu_counter){ 1, 0, i, ctl, ctr,
                                   pmu_amd_event[e] | PMU_EVTSEL_USR | PMU_EVTSEL_OS | PMU_EVTSEL_EN,
                                   PMU_AMD_WIDTH, i };
        p->global_bits |= 1ull << i;
    }
}

int pmu_detect(const struct cpu_info *id, struct pmu_info *p)
{
    memset(p, 0, sizeof *p);
    if (id->is_intel)
        pmu_detect_intel(id, p);
    else if (id->is_amd)
        pmu_detect_amd(id, p);
    else
        snprintf(p->why, sizeof p->why, "CPU vendor \"%s\": no known performance counters", id->vendor);
    if (p->kind == PMU_KIND_NONE)
        return 0;
    if (!p->ctr[PMU_CYCLES].present || !p->ctr[PMU_INSTRUCTIONS].present) {
        snprintf(p->why, sizeof p->why, "no counter for %s (version %d, %u general, %u fixed)",
                 p->ctr[PMU_CYCLES].present ? "instructions retired" : "core cycles", p->version,
                 p->gp_count, p->fixed_count);
        p->kind = PMU_KIND_NONE;
        return 0;
    }
    return 1;
}

/* ---- programming ------------------------------------------------------------------- */

/* Our 4-bit fields in IA32_FIXED_CTR_CTRL, and their enabled value. */
static uint64_t pmu_fixed_fields(const struct pmu_info *p, uint64_t *enable)
{
    uint64_t mask = 0, on = 0;
    for (int e = 0; e < PMU_EVENTS; e++) {
        const struct pmu_counter *c = &p->ctr[e];
        if (c->present && c->fixed) {
            mask |= 0xFull << (4 * c->index);
            on |= PMU_FIXED_CTRL_ALL_RINGS << (4 * c->index);
        }
    }
    if (enable)
        *enable = on;
    return mask;
}

static int pmu_w(struct pmu_info *p, const struct pmu_msr_ops *ops, uint32_t msr, uint64_t v)
{
    if (ops->write(ops->ctx, msr, v) == 0)
        return 0;
    snprintf(p->why, sizeof p->why, "writing MSR %#x was refused", (unsigned)msr);
    return -1;
}

static int pmu_r(struct pmu_info *p, const struct pmu_msr_ops *ops, uint32_t msr, uint64_t *v)
{
    if (ops->read(ops->ctx, msr, v) == 0)
        return 0;
    snprintf(p->why, sizeof p->why, "reading MSR %#x was refused", (unsigned)msr);
    return -1;
}

static int pmu_save(struct pmu_info *p, const struct pmu_msr_ops *ops, struct pmu_saved *s)
{
    memset(s, 0, sizeof *s);
    if (p->has_global && pmu_r(p, ops, p->global_ctrl_msr, &s->global_ctrl))
        return -1;
    if (pmu_fixed_fields(p, NULL) && pmu_r(p, ops, PMU_IA32_FIXED_CTR_CTRL, &s->fixed_ctrl))
        return -1;
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && !p->ctr[e].fixed && pmu_r(p, ops, p->ctr[e].ctl_msr, &s->evtsel[e]))
            return -1;
    s->valid = 1;
    return 0;
}

int pmu_start(struct pmu_info *p, const struct pmu_msr_ops *ops, struct pmu_saved *s)
{
    uint64_t on, fields = pmu_fixed_fields(p, &on);

    if (p->kind == PMU_KIND_NONE) {
        snprintf(p->why, sizeof p->why, "no PMU detected");
        return -1;
    }
    if (pmu_save(p, ops, s))
        return -1;
    /* Everything off first: the global switch, then each control. */
    if (p->has_global && pmu_w(p, ops, p->global_ctrl_msr, 0))
        goto undo;
    if (fields && pmu_w(p, ops, PMU_IA32_FIXED_CTR_CTRL, s->fixed_ctrl & ~fields))
        goto undo;
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && !p->ctr[e].fixed && pmu_w(p, ops, p->ctr[e].ctl_msr, 0))
            goto undo;
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && pmu_w(p, ops, p->ctr[e].ctr_msr, 0))
            goto undo;
    if (p->has_global && pmu_w(p, ops, p->global_ovf_msr, p->global_bits))
        goto undo;
    /* Then the controls, and the global switch last. */
    if (fields && pmu_w(p, ops, PMU_IA32_FIXED_CTR_CTRL, (s->fixed_ctrl & ~fields) | on))
        goto undo;
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && !p->ctr[e].fixed && pmu_w(p, ops, p->ctr[e].ctl_msr, p->ctr[e].evtsel))
            goto undo;
    if (p->has_global && pmu_w(p, ops, p->global_ctrl_msr, p->global_bits))
        goto undo;
    return 0;
undo:;
    char why[sizeof p->why];
    memcpy(why, p->why, sizeof why);
    pmu_stop(p, ops, s);
    memcpy(p->why, why, sizeof why);
    return -1;
}

int pmu_stop(const struct pmu_info *p, const struct pmu_msr_ops *ops, const struct pmu_saved *s)
{
    int rc = 0;
    if (!s->valid)
        return -1;
    if (p->has_global)
        rc |= ops->write(ops->ctx, p->global_ctrl_msr, 0);
    if (pmu_fixed_fields(p, NULL))
        rc |= ops->write(ops->ctx, PMU_IA32_FIXED_CTR_CTRL, s->fixed_ctrl);
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && !p->ctr[e].fixed)
            rc |= ops->write(ops->ctx, p->ctr[e].ctl_msr, s->evtsel[e]);
    if (p->has_global)
        rc |= ops->write(ops->ctx, p->global_ctrl_msr, s->global_ctrl);
    return rc ? -1 : 0;
}

int pmu_read_msrs(const struct pmu_info *p, const struct pmu_msr_ops *ops, uint64_t v[PMU_EVENTS])
{
    for (int e = 0; e < PMU_EVENTS; e++) {
        v[e] = 0;
        if (p->ctr[e].present && ops->read(ops->ctx, p->ctr[e].ctr_msr, &v[e]))
            return -1;
        v[e] &= pmu_mask(p->ctr[e].width);
    }
    return 0;
}

/* The bit of counter c in the global registers. */
static uint64_t pmu_global_bit(const struct pmu_counter *c)
{
    return 1ull << (c->fixed ? 32 + c->index : c->index);
}

unsigned pmu_overflow_take(const struct pmu_info *p, const struct pmu_msr_ops *ops)
{
    uint64_t st;
    unsigned mask = 0;
    if (!p->has_global || ops->read(ops->ctx, p->global_status_msr, &st))
        return 0;
    st &= p->global_bits;
    for (int e = 0; e < PMU_EVENTS; e++)
        if (p->ctr[e].present && (st & pmu_global_bit(&p->ctr[e])))
            mask |= 1u << e;
    if (st)
        ops->write(ops->ctx, p->global_ovf_msr, st);
    return mask;
}

int pmu_probe(const struct cpu_info *id, const struct pmu_msr_ops *ops, void (*work)(void *),
              void *arg, uint64_t min_instructions, struct pmu_info *p)
{
    struct pmu_saved s;
    uint64_t v0[PMU_EVENTS], v1[PMU_EVENTS];

    if (!pmu_detect(id, p))
        return 0;
    if (!ops) {
        snprintf(p->why, sizeof p->why, "no MSR access here (under an operating system the counters are its own)");
        return 0;
    }
    if (pmu_start(p, ops, &s))
        return 0;
    int rc = pmu_read_msrs(p, ops, v0);
    work(arg);
    rc |= pmu_read_msrs(p, ops, v1);
    pmu_overflow_take(p, ops);
    pmu_stop(p, ops, &s);
    if (rc) {
        snprintf(p->why, sizeof p->why, "reading the counters was refused");
        return 0;
    }
    uint64_t cyc = pmu_delta(v0[PMU_CYCLES], v1[PMU_CYCLES], p->ctr[PMU_CYCLES].width);
    uint64_t ins = pmu_delta(v0[PMU_INSTRUCTIONS], v1[PMU_INSTRUCTIONS], p->ctr[PMU_INSTRUCTIONS].width);
    if (cyc == 0 || ins < min_instructions) {
        snprintf(p->why, sizeof p->why,
                 "the counters accept the registers but do not count (%llu cycles, %llu instructions "
                 "over at least %llu instructions of work)",
                 (unsigned long long)cyc, (unsigned long long)ins, (unsigned long long)min_instructions);
        return 0;
    }
    p->usable = 1;
    p->why[0] = 0;
    return 1;
}

/* ---- reading around a timing ---------------------------------------------------------- */

void pmu_raw_deltas(const struct pmu_info *p, const struct pmu_raw *r, uint64_t d[1 + PMU_EVENTS])
{
    d[0] = r->stop[0] - r->start[0];
    for (int e = 0; e < PMU_EVENTS; e++)
        d[1 + e] = p->ctr[e].present ? pmu_delta(r->start[1 + e], r->stop[1 + e], p->ctr[e].width) : 0;
}

void pmu_series_init(struct pmu_series *s)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k <= PMU_EVENTS; k++)
        s->min[k] = UINT64_MAX;
}

void pmu_series_add(struct pmu_series *s, const uint64_t d[1 + PMU_EVENTS])
{
    for (int k = 0; k <= PMU_EVENTS; k++) {
        if (d[k] < s->min[k])
            s->min[k] = d[k];
        s->sum[k] += d[k];
    }
    s->n++;
}

static double pmu_diff(uint64_t a, uint64_t b, uint64_t n)
{
    return ((double)a - (double)b) / (double)n;
}

void pmu_estimate(const struct pmu_info *p, const struct pmu_series *pn, const struct pmu_series *tn,
                  const struct pmu_series *t2, const struct pmu_series *tn2,
                  const struct pmu_series *t2n, uint64_t iterations, struct pmu_estimates *e)
{
    memset(e, 0, sizeof *e);
    for (int k = 0; k <= PMU_EVENTS; k++)
        for (int j = 0; j < PMU_ESTIMATORS; j++)
            e->per_iter[k][j] = NAN;
    e->cycles_per_tick = e->ref_per_tick = NAN;
    if (!iterations || !pn->n || !tn->n || !t2->n || !tn2->n || !t2n->n) {
        e->status = -1;
        snprintf(e->why, sizeof e->why, "a series has no timing");
        return;
    }
    for (int k = 0; k <= PMU_EVENTS; k++) {
        if (k > 0 && !p->ctr[k - 1].present)
            continue;
        e->per_iter[k][PMU_EST_MINUS_PLACEHOLDER] = pmu_diff(tn->min[k], pn->min[k], iterations);
        e->per_iter[k][PMU_EST_APPLE] = pmu_diff(tn2->min[k], t2->min[k], iterations);
        e->per_iter[k][PMU_EST_N_VS_2N] = pmu_diff(t2n->min[k], tn->min[k], iterations);
    }
    if (tn->sum[0]) {
        e->cycles_per_tick = (double)tn->sum[1 + PMU_CYCLES] / (double)tn->sum[0];
        if (p->ctr[PMU_REF_CYCLES].present)
            e->ref_per_tick = (double)tn->sum[1 + PMU_REF_CYCLES] / (double)tn->sum[0];
    }
}
