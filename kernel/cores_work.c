/*
 * kernel/cores_work.c - the work each CPU does for the cores section (see
 * cores_work.h).  Every timestamp that brackets a memory access is taken
 * with lfence on both sides, so the read cannot move across the load or
 * store it brackets.
 */
#include <string.h>

#include "cores_work.h"
#include "cpu.h"
#include "io.h"
#include "trap.h"

/* Spin this many times on a line before a pause: a pause can cost 140
 * cycles on recent Intel cores, more than the transfer being timed; under
 * QEMU a pause lets another virtual CPU run (round-robin with -icount). */
#define CORES_SPINS_PER_PAUSE 256

static inline uint64_t cores_tsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

static inline void cores_pause(void) { __asm__ volatile("pause" : : : "memory"); }

/* Wait until *p == want; -1 when the deadline (TSC) passed first. */
static int cores_wait_eq(volatile uint64_t *p, uint64_t want, uint64_t deadline)
{
    uint32_t n = 0;
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want) {
        if (++n < CORES_SPINS_PER_PAUSE)
            continue;
        n = 0;
        cores_pause();
        if (rdtsc() > deadline)
            return -1;
    }
    return 0;
}

/* Everyone arrives, then everyone leaves together (as near as a line allows). */
static int cores_rendezvous(struct cores_sync *s)
{
    uint64_t deadline = rdtsc() + s->deadline_ticks;
    __atomic_fetch_add(&s->arrived, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&s->arrived, __ATOMIC_ACQUIRE) < s->parties) {
        cores_pause();
        if (rdtsc() > deadline)
            return -1;
    }
    return 0;
}

/* ---- identification ---------------------------------------------------------------- */

long cores_probe(void *arg)
{
    struct cores_cpuid *c = arg;
    struct cpuid_regs r, l0;
    memset(c, 0, sizeof *c);
    cpuid(0, 0, &l0);
    cpuid(1, 0, &r);
    c->leaf1_eax = r.eax;
    c->leaf1_ebx = r.ebx;
    if (l0.eax >= 7) {
        cpuid(7, 0, &r);
        c->hybrid = (r.edx >> 15) & 1;
    }
    if (l0.eax >= 0x1A && c->hybrid) {
        cpuid(0x1A, 0, &r);
        c->leaf1a_eax = r.eax;
    }
    /* 0x1F (V2 extended topology) where valid, else 0xB. */
    uint32_t leaves[2] = { 0x1F, 0xB };
    for (int k = 0; k < 2 && !c->topo_leaf; k++) {
        if (l0.eax < leaves[k])
            continue;
        cpuid(leaves[k], 0, &r);
        if (r.ebx == 0)
            continue;
        c->topo_leaf = leaves[k];
        c->x2apic_id = r.edx;
        for (uint32_t sub = 0; sub < CORES_LEVELS_MAX; sub++) {
            cpuid(leaves[k], sub, &r);
            uint32_t type = (r.ecx >> 8) & 0xFF;
            if (type == 0)
                break;
            c->level_type[c->levels] = type;
            c->level_shift[c->levels] = r.eax & 0x1F;
            c->levels++;
        }
    }
    c->read = 1;
    return 0;
}

/* ---- warp check ---------------------------------------------------------------------- */

static int cores_lock(volatile uint32_t *l, uint64_t deadline)
{
    for (;;) {
        if (!__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            return 0;
        while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
            cores_pause();
            if (rdtsc() > deadline)
                return -1;
        }
    }
}

long cores_warp(void *arg)
{
    struct cores_warp_side *w = arg;
    struct cores_warp_shared *sh = w->sh;
    w->max_back = w->backs = 0;
    w->done = 0;
    w->timed_out = 0;
    if (cores_rendezvous(&sh->start)) {
        w->timed_out = 1;
        return -1;
    }
    uint64_t deadline = rdtsc() + sh->start.deadline_ticks;
    for (uint32_t i = 0; i < sh->loops; i++) {
        if (cores_lock(&sh->lock, deadline)) {
            w->timed_out = 1;
            return -1;
        }
        uint64_t prev = sh->last, now = cores_tsc();
        sh->last = now;
        __atomic_store_n(&sh->lock, 0, __ATOMIC_RELEASE);
        if (now < prev) {
            w->backs++;
            if (prev - now > w->max_back)
                w->max_back = prev - now;
        }
        w->done++;
    }
    return 0;
}

/* ---- round trips for offsets -------------------------------------------------------- */

long cores_ping(void *arg)
{
    struct cores_ping_side *p = arg;
    struct cores_ping_shared *sh = p->sh;
    cores_bounds_init(&p->bounds);
    p->timed_out = 0;
    if (cores_rendezvous(&sh->start)) {
        p->timed_out = 1;
        return -1;
    }
    uint64_t deadline = rdtsc() + sh->start.deadline_ticks;
    for (uint64_t k = 1; k <= sh->samples; k++) {
        if (p->initiator) {
            uint64_t t0 = cores_tsc();
            __atomic_store_n(&sh->ping, k, __ATOMIC_RELEASE);
            if (cores_wait_eq(&sh->pong, k, deadline)) {
                p->timed_out = 1;
                return -1;
            }
            uint64_t t2 = cores_tsc();
            cores_bounds_add(&p->bounds, t0, sh->pong_tsc, t2);
        } else {
            if (cores_wait_eq(&sh->ping, k, deadline)) {
                p->timed_out = 1;
                return -1;
            }
            sh->pong_tsc = cores_tsc();
            __atomic_store_n(&sh->pong, k, __ATOMIC_RELEASE);
        }
    }
    return 0;
}

/* ---- TSC rate ---------------------------------------------------------------------- */

static uint32_t cores_ref_read(const struct cores_rate *r)
{
    if (r->ref == CORES_REF_HPET)
        return *(volatile uint32_t *)(r->hpet_base + 0xF0);   /* main counter */
    return inl(r->pm_port) & r->pm_mask;
}

static uint32_t cores_ref_mask(const struct cores_rate *r)
{
    return r->ref == CORES_REF_HPET ? 0xFFFFFFFFu : r->pm_mask;
}

/* Wait for the reference to change.  The edge came after the previous
 * read of the reference and before the read that saw the change, so it lies
 * between the TSC read before the previous read (prev) and the TSC read after
 * this one (after): *tsc = their midpoint, *width = their distance. */
static int cores_ref_edge(const struct cores_rate *r, uint32_t *value, uint64_t *tsc,
                          uint64_t *width, uint64_t deadline)
{
    uint64_t prev = cores_tsc(), before, after;
    uint32_t first = cores_ref_read(r), v;
    for (;;) {
        before = cores_tsc();
        v = cores_ref_read(r);
        after = cores_tsc();
        if (v != first)
            break;
        if (after > deadline)
            return -1;
        prev = before;
    }
    *value = v;
    *tsc = prev + (after - prev) / 2;
    *width = after - prev;
    return 0;
}

/* One window: edge of the reference, window_ref_ticks of it, next edge. */
static int cores_rate_window(const struct cores_rate *r, uint64_t deadline, uint64_t *tsc_ticks,
                             uint64_t *ref_ticks, uint64_t *width)
{
    uint32_t v0, v1, mask = cores_ref_mask(r);
    uint64_t t0, t1, w0, w1;
    if (cores_ref_edge(r, &v0, &t0, &w0, deadline))
        return -1;
    while (((cores_ref_read(r) - v0) & mask) < r->window_ref_ticks)
        if (rdtsc() > deadline)
            return -1;
    if (cores_ref_edge(r, &v1, &t1, &w1, deadline))
        return -1;
    *tsc_ticks = t1 - t0;
    *ref_ticks = (v1 - v0) & mask;
    *width = w0 + w1;
    return 0;
}

/* CORES_RATE_WINDOWS windows; the one with the median rate is reported, so
 * one window disturbed beyond its edge brackets (an SMI between two reads;
 * under QEMU's TCG, a jump of the guest TSC when another vCPU thread reads
 * it) does not decide the CPU's rate. */
long cores_rate(void *arg)
{
    struct cores_rate *r = arg;
    uint64_t tt[CORES_RATE_WINDOWS], rt[CORES_RATE_WINDOWS], wd[CORES_RATE_WINDOWS];
    double hz[CORES_RATE_WINDOWS];
    uint64_t deadline = rdtsc() + r->timeout_ticks;
    r->failed = 1;
    if (r->ref == CORES_REF_NONE)
        return -1;
    for (int k = 0; k < CORES_RATE_WINDOWS; k++) {
        if (cores_rate_window(r, deadline, &tt[k], &rt[k], &wd[k]))
            return -1;
        hz[k] = rt[k] ? (double)tt[k] * r->ref_hz / (double)rt[k] : 0;
    }
    int order[CORES_RATE_WINDOWS];
    for (int k = 0; k < CORES_RATE_WINDOWS; k++) {
        int j = k;
        while (j > 0 && hz[order[j - 1]] > hz[k])
            order[j] = order[j - 1], j--;
        order[j] = k;
    }
    int m = order[CORES_RATE_WINDOWS / 2];
    r->tsc_ticks = tt[m];
    r->ref_ticks = rt[m];
    r->edge_width = wd[m];
    r->hz = hz[m];
    r->hz_low = hz[order[0]];
    r->hz_high = hz[order[CORES_RATE_WINDOWS - 1]];
    r->failed = 0;
    return 0;
}

/* ---- cache-line round trips ---------------------------------------------------------- */

long cores_bounce(void *arg)
{
    struct cores_bounce_side *b = arg;
    struct cores_bounce_shared *sh = b->sh;
    b->timed_out = 0;
    if (cores_rendezvous(&sh->start)) {
        b->timed_out = 1;
        return -1;
    }
    uint64_t deadline = rdtsc() + sh->start.deadline_ticks;
    uint64_t v = 0;
    for (uint32_t s = 0; s < sh->samples; s++) {
        uint64_t t0 = b->initiator ? cores_tsc() : 0;
        for (uint32_t k = 0; k < sh->trips; k++) {
            if (b->initiator) {
                __atomic_store_n(&sh->line, v + 1, __ATOMIC_RELEASE);
                if (cores_wait_eq(&sh->line, v + 2, deadline))
                    goto timeout;
            } else {
                if (cores_wait_eq(&sh->line, v + 1, deadline))
                    goto timeout;
                __atomic_store_n(&sh->line, v + 2, __ATOMIC_RELEASE);
            }
            v += 2;
        }
        if (b->initiator)
            sh->sample_ticks[s] = cores_tsc() - t0;
    }
    return 0;
timeout:
    b->timed_out = 1;
    return -1;
}

long cores_inject(void *kind)
{
    return trap_inject(kind);
}
