/*
 * bench/cores/cores_work.c - the work each CPU does for the cores section (see
 * cores_work.h).  Every timestamp that brackets a memory access is fenced
 * the way cores_read_choose decided for these CPUs (bench/cores/cores_math.h):
 * RDTSCP, or a fence before RDTSC, so the read waits for the load it
 * follows; a fence after it, so later accesses wait for the read.
 */
#include <string.h>

#include "cores_work.h"
#include "cpu.h"
#include "io.h"
#include "methods.h"
#include "trap.h"

/* Spin this many times on a line before a pause: a pause can cost 140
 * cycles on recent Intel cores, more than the transfer being timed; under
 * QEMU a pause lets another virtual CPU run (round-robin with -icount). */
#define CORES_SPINS_PER_PAUSE 256

/* Written by the BSP before any work is posted (the post's release store
 * publishes it); the safest sequence until then. */
static enum cores_read cores_read_kind = CORES_READ_MFENCE;

void cores_work_set_read(enum cores_read r) { cores_read_kind = r; }

/* The sequences are cores_read_text()'s, in the same order. */
static inline uint64_t cores_tsc(void)
{
    uint32_t lo, hi, aux;
    switch (cores_read_kind) {
    case CORES_READ_LFENCE:
        __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
        break;
    case CORES_READ_RDTSCP_LFENCE:
        __asm__ volatile("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
        break;
    case CORES_READ_RDTSCP_MFENCE:
        __asm__ volatile("rdtscp; mfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
        break;
    default:
        __asm__ volatile("mfence; rdtsc; mfence" : "=a"(lo), "=d"(hi) : : "memory");
        break;
    }
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
        if (cpu_rdtsc() > deadline)
            return -1;
    }
    return 0;
}

/* Everyone arrives, then everyone leaves together (as near as a line allows). */
static int cores_rendezvous(struct cores_sync *s)
{
    uint64_t deadline = cpu_rdtsc() + s->deadline_ticks;
    __atomic_fetch_add(&s->arrived, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&s->arrived, __ATOMIC_ACQUIRE) < s->parties) {
        cores_pause();
        if (cpu_rdtsc() > deadline)
            return -1;
    }
    return 0;
}

/* ---- identification ---------------------------------------------------------------- */

/* A #GP from a missing MSR is caught (kernel/trap.h), on any CPU. */
static int cores_read_msr(uint32_t msr, uint64_t *value) { return cpu_rdmsr_safe(msr, value); }

/* Each CPU reads its own identity, in one pass (kernel/cpu.h). */
long cores_probe(void *arg)
{
    struct cpu_info id;
    cpu_identify(&id);
    struct methods_cpu_source src = { &id, cores_read_msr, ((struct cores_cpuid *)arg)->vm_hidden };
    cores_probe_from(arg, &src);
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
            if (cpu_rdtsc() > deadline)
                return -1;
        }
    }
}

/* Each side takes at least `loops` turns; while the pair has fewer than
 * min_handoffs handoffs it goes on (until the deadline), and after each turn
 * it pauses so the other CPU can take the lock (an unfair lock would give
 * one CPU long runs of turns that compare nothing; under QEMU a pause lets
 * the other virtual CPU run). */
long cores_warp(void *arg)
{
    struct cores_warp_side *w = arg;
    struct cores_warp_shared *sh = w->sh;
    memset(&w->count, 0, sizeof w->count);
    w->timed_out = 0;
    if (cores_rendezvous(&sh->start)) {
        w->timed_out = 1;
        return -1;
    }
    uint64_t t0 = cpu_rdtsc(), deadline = t0 + sh->start.deadline_ticks;
    while (w->count.turns < sh->loops
           || (__atomic_load_n(&sh->handoffs, __ATOMIC_RELAXED) < sh->min_handoffs
               && cpu_rdtsc() - t0 < sh->handoff_ticks)) {
        if (cores_lock(&sh->lock, deadline)) {
            w->timed_out = w->count.turns < sh->loops;   /* short of handoffs only: said by the count */
            return w->timed_out ? -1 : 0;
        }
        uint32_t prev_cpu = sh->last_cpu;
        uint64_t prev = sh->last, now = cores_tsc();
        sh->last = now;
        sh->last_cpu = w->self;
        if (prev_cpu != CORES_NO_CPU && prev_cpu != w->self)
            sh->handoffs++;
        __atomic_store_n(&sh->lock, 0, __ATOMIC_RELEASE);
        cores_warp_turn(&w->count, w->self, prev_cpu, prev, now);
        cores_pause();
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
    uint64_t deadline = cpu_rdtsc() + sh->start.deadline_ticks;
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

/* One session: CORES_RATE_POINTS edges, step_ref_ticks apart, appended. */
long cores_rate(void *arg)
{
    struct cores_rate *r = arg;
    uint64_t deadline = cpu_rdtsc() + r->timeout_ticks;
    uint32_t mask = cores_ref_mask(r);
    if (r->ref == CORES_REF_NONE || r->n + CORES_RATE_POINTS > sizeof r->points / sizeof r->points[0]) {
        r->failed = 1;
        return -1;
    }
    for (int k = 0; k < CORES_RATE_POINTS; k++) {
        uint32_t v;
        uint64_t tsc, width;
        if (k) {
            uint32_t v0 = (uint32_t)r->points[r->n - 1].ref;
            while (((cores_ref_read(r) - v0) & mask) < r->step_ref_ticks - 1)
                if (cpu_rdtsc() > deadline)
                    goto timeout;
        }
        if (cores_ref_edge(r, &v, &tsc, &width, deadline))
            goto timeout;
        struct cores_rate_point *p = &r->points[r->n];
        p->ref = r->n ? cores_ref_extend(p[-1].ref, p[-1].tsc, v, tsc, mask, r->ref_per_tsc) : v;
        p->tsc = tsc;
        p->width = width;
        r->n++;
    }
    return 0;
timeout:
    r->failed = 1;
    return -1;
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
    uint64_t deadline = cpu_rdtsc() + sh->start.deadline_ticks;
    uint64_t k = 0;
    for (uint32_t s = 0; s < sh->samples; s++) {
        uint64_t t0 = b->initiator ? cores_tsc() : 0;
        for (uint32_t i = 0; i < sh->trips; i++) {
            k++;
            if (b->initiator) {
                __atomic_store_n(&sh->ping, k, __ATOMIC_RELEASE);
                if (cores_wait_eq(&sh->pong, k, deadline))
                    goto timeout;
            } else {
                if (cores_wait_eq(&sh->ping, k, deadline))
                    goto timeout;
                __atomic_store_n(&sh->pong, k, __ATOMIC_RELEASE);
            }
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
