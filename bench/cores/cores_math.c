/*
 * bench/cores/cores_math.c - topology decoding, SMT siblings, overlap, the TSC
 * read's fences, warp handoffs, offset intervals, medians and the CORES
 * list (see cores_math.h).  The rate fit is cores_fit.c, the per-CPU probe
 * cores_probe.c.
 */
#include <stdio.h>
#include <string.h>

#include "cores_math.h"

/* ---- topology ------------------------------------------------------------------ */

void cores_topo_decode(const struct cores_cpuid *c, struct cores_topo *t)
{
    memset(t, 0, sizeof *t);
    t->apic_id = c->leaf1_ebx >> 24;
    if ((c->leaf1a_eax >> 24) && c->hybrid)
        t->core_type = c->leaf1a_eax >> 24;
    if (!c->topo_leaf || !c->levels)
        return;
    uint32_t smt = 0, pkg = 0;
    for (uint32_t i = 0; i < c->levels && i < CORES_LEVELS_MAX; i++) {
        if (c->level_type[i] == CORES_LEVEL_SMT)
            smt = c->level_shift[i];
        pkg = c->level_shift[i];          /* the last level's shift: the package's */
    }
    if (smt > pkg || pkg >= 32)
        return;
    t->valid = 1;
    t->apic_id = c->x2apic_id;
    t->smt_bits = smt;
    t->core_bits = pkg - smt;
    t->thread = c->x2apic_id & ((1u << smt) - 1);
    t->core = (c->x2apic_id >> smt) & ((1u << (pkg - smt)) - 1);
    t->package = pkg ? c->x2apic_id >> pkg : c->x2apic_id;
}

const char *cores_type_name(uint32_t core_type, char *buf, size_t n)
{
    if (core_type == 0)
        return "none";
    if (core_type == CORES_TYPE_CORE)
        return "p-core";
    if (core_type == CORES_TYPE_ATOM)
        return "e-core";
    snprintf(buf, n, "0x%02x", (unsigned)core_type);
    return buf;
}

/* ---- SMT siblings ------------------------------------------------------------------ */

uint32_t cores_smt_groups(const uint32_t *package, const uint32_t *core, const uint8_t *key_valid,
                          uint32_t n, uint32_t *group, uint32_t *threads)
{
    uint32_t cores = 0;
    for (uint32_t i = 0; i < n; i++) {
        group[i] = i;
        for (uint32_t j = 0; j < i && key_valid[i]; j++)
            if (key_valid[j] && package[j] == package[i] && core[j] == core[i]) {
                group[i] = group[j];
                break;
            }
        cores += group[i] == i;
    }
    for (uint32_t i = 0; i < n; i++) {
        threads[i] = 0;
        for (uint32_t j = 0; j < n; j++)
            threads[i] += group[j] == group[i];
    }
    return cores;
}

/* ---- overlap ------------------------------------------------------------------------ */

void cores_overlap_of(const uint64_t *start, const uint64_t *end, uint32_t n, struct cores_overlap *o)
{
    memset(o, 0, sizeof *o);
    if (!n)
        return;
    uint64_t first = start[0], last = end[0], late_start = start[0], early_end = end[0];
    for (uint32_t i = 0; i < n; i++) {
        first = start[i] < first ? start[i] : first;
        last = end[i] > last ? end[i] : last;
        late_start = start[i] > late_start ? start[i] : late_start;
        early_end = end[i] < early_end ? end[i] : early_end;
        o->busy += end[i] > start[i] ? end[i] - start[i] : 0;
    }
    o->span = last > first ? last - first : 0;
    o->all = early_end > late_start ? early_end - late_start : 0;
    o->all_fraction = o->span ? (double)o->all / (double)o->span : 0;
    o->mean_running = o->span ? (double)o->busy / (double)o->span : 0;
}

/* ---- how a TSC read is ordered ------------------------------------------------------- */

static const char *const cores_read_texts[] = { "lfence; rdtsc; lfence", "mfence; rdtsc; mfence",
                                                "rdtscp; lfence", "rdtscp; mfence" };
static const char *const cores_read_keys[] = { "lfence_rdtsc_lfence", "mfence_rdtsc_mfence",
                                               "rdtscp_lfence", "rdtscp_mfence" };

const char *cores_read_text(enum cores_read r)
{
    return (unsigned)r < 4 ? cores_read_texts[r] : "?";
}

const char *cores_read_key(enum cores_read r)
{
    return (unsigned)r < 4 ? cores_read_keys[r] : "?";
}

enum cores_read cores_read_choose(const struct cores_cpuid *cpus, uint32_t n, char *why, size_t why_n)
{
    uint32_t probed = 0, rdtscp = 0, lfence = 0, lfence_no = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!cpus[i].read)
            continue;
        probed++;
        rdtscp += cpus[i].rdtscp == 1;
        lfence += cpus[i].lfence_serializing == 1;
        lfence_no += cpus[i].lfence_serializing == 0;
    }
    int all_rdtscp = probed && rdtscp == probed, all_lfence = probed && lfence == probed;
    enum cores_read r = all_rdtscp ? (all_lfence ? CORES_READ_RDTSCP_LFENCE : CORES_READ_RDTSCP_MFENCE)
                                   : (all_lfence ? CORES_READ_LFENCE : CORES_READ_MFENCE);
    snprintf(why, why_n, "%s (%s; LFENCE %s)", cores_read_text(r),
             all_rdtscp ? "every CPU has RDTSCP" : "RDTSCP not on every CPU: a fence before RDTSC",
             all_lfence ? "dispatch-serialising on every CPU"
             : lfence_no ? "not dispatch-serialising on some CPU: MFENCE instead"
                         : "not known to be dispatch-serialising on every CPU: MFENCE instead");
    return r;
}

/* ---- warp check ------------------------------------------------------------------------ */

void cores_warp_turn(struct cores_warp_count *w, uint32_t self, uint32_t prev_cpu, uint64_t prev,
                     uint64_t now)
{
    w->turns++;
    if (prev_cpu == CORES_NO_CPU || prev_cpu == self)
        return;
    w->handoffs++;
    if (now < prev) {
        w->backs++;
        if (prev - now > w->max_back)
            w->max_back = prev - now;
    }
}

/* ---- offsets -------------------------------------------------------------------- */

void cores_bounds_init(struct cores_offset_bounds *b)
{
    b->lo = INT64_MIN;
    b->hi = INT64_MAX;
    b->samples = 0;
    b->min_rtt = UINT64_MAX;
}

void cores_bounds_add(struct cores_offset_bounds *b, uint64_t t0, uint64_t t1, uint64_t t2)
{
    int64_t lo = (int64_t)(t1 - t2), hi = (int64_t)(t1 - t0);
    if (lo > b->lo)
        b->lo = lo;
    if (hi < b->hi)
        b->hi = hi;
    if (t2 - t0 < b->min_rtt)
        b->min_rtt = t2 - t0;
    b->samples++;
}

void cores_bounds_merge(const struct cores_offset_bounds *b, const struct cores_offset_bounds *r,
                        struct cores_offset_bounds *out)
{
    *out = *b;
    if (!r->samples)
        return;
    /* r bounds initiator - responder: negate and swap. */
    int64_t lo = r->hi == INT64_MAX ? INT64_MIN : -r->hi;
    int64_t hi = r->lo == INT64_MIN ? INT64_MAX : -r->lo;
    if (lo > out->lo)
        out->lo = lo;
    if (hi < out->hi)
        out->hi = hi;
    out->samples += r->samples;
    if (r->min_rtt < out->min_rtt)
        out->min_rtt = r->min_rtt;
}

int cores_bounds_estimate(const struct cores_offset_bounds *b, double *mid, double *half)
{
    if (!b->samples) {
        *mid = *half = 0;
        return -1;
    }
    *mid = ((double)b->lo + (double)b->hi) / 2;
    *half = ((double)b->hi - (double)b->lo) / 2;
    return b->lo <= b->hi ? 0 : -1;
}

/* ---- medians --------------------------------------------------------------------- */

static void cores_sort_u64(uint64_t *v, size_t n)
{
    /* Shell sort (Ciura's gaps): no allocation, fine for a few thousand. */
    static const size_t gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++)
        for (size_t i = gaps[g]; i < n; i++) {
            uint64_t x = v[i];
            size_t j = i;
            for (; j >= gaps[g] && v[j - gaps[g]] > x; j -= gaps[g])
                v[j] = v[j - gaps[g]];
            v[j] = x;
        }
}

double cores_median_u64(uint64_t *v, size_t n)
{
    cores_sort_u64(v, n);
    return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

