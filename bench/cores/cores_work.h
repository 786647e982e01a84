/*
 * bench/cores/cores_work.h - what the cores section asks each CPU to do.  Every
 * function here runs on any CPU (the BSP or an AP worker, port/platform.h) with
 * interrupts masked, touches only memory the BSP prepared, and never calls
 * the firmware.  Each has the shape long fn(void *arg) so it can be posted to
 * a worker or called through trap_run on the BSP.  Every wait for the other
 * side is bounded by a TSC deadline: a missing partner ends the work with a
 * timeout, never a hang.
 */
#ifndef BAREMARK_CORES_WORK_H
#define BAREMARK_CORES_WORK_H

#include <stdint.h>

#include "cores.h"
#include "cores_math.h"

#define CORES_LINE 64
/* A flag another CPU polls gets a block of its own: two lines, because the
 * adjacent-line prefetcher (Intel's "spatial prefetcher", SDM vol. 3A,
 * 2.x optimisation manual) fetches a line's 128-byte partner with it, so a
 * neighbour in the same pair would move with the flag (false sharing). */
#define CORES_BLOCK 128

/* ---- identification ---------------------------------------------------------- */
/* cores_probe(struct cores_cpuid *): CPUID leaves 1, 7, 0xB, 0x1F, 0x1A,
 * IA32_TSC_ADJUST, the LFENCE and RDTSCP answers (bench/cores/cores_probe.c). */
long cores_probe(void *arg);

/* ---- how every TSC read below is fenced (cores_read_choose) -------------------
 * Set by the BSP before any work is posted; read by every CPU. */
void cores_work_set_read(enum cores_read r);

/* ---- a rendezvous for two or more CPUs --------------------------------------- */
struct cores_sync {
    volatile uint32_t arrived __attribute__((aligned(CORES_LINE)));
    uint32_t parties;
    uint64_t deadline_ticks;            /* time allowed to wait for the others */
};

/* ---- TSC warp check (Linux tsc_sync.c's idea) ----------------------------------
 * Two CPUs take turns under a spin lock: read the TSC, compare with the last
 * value any CPU stored, store their own.  The lock orders the reads, so a
 * read smaller than the stored one is a backward step of the TSC between the
 * CPUs (a warp). */
struct cores_warp_shared {
    volatile uint32_t lock __attribute__((aligned(CORES_BLOCK)));
    volatile uint32_t last_cpu;         /* who read `last` (CORES_NO_CPU: nobody yet) */
    volatile uint64_t last;
    struct cores_sync start __attribute__((aligned(CORES_BLOCK)));
    uint32_t loops;                     /* turns each side takes at least ... */
    uint32_t min_handoffs;              /* ... and handoffs the pair needs, ... */
    uint64_t handoff_ticks;             /* ... for at most this long after the start */
    volatile uint32_t handoffs;         /* handoffs so far, both sides */
};
struct cores_warp_side {
    struct cores_warp_shared *sh;
    uint32_t self;                      /* this side's number (0 or 1) */
    struct cores_warp_count count;      /* turns, handoffs, backward steps */
    int timed_out;
};
long cores_warp(void *arg);             /* struct cores_warp_side * */

/* ---- round trips for the offset between two TSCs -------------------------------
 * The initiator reads t0, posts sequence k; the responder reads t1 on seeing
 * it and posts it back; the initiator reads t2 on seeing the answer.  In real
 * time t0 < t1 < t2, so the responder's offset lies in (t1 - t2, t1 - t0);
 * cores_math.h intersects the intervals. */
struct cores_ping_shared {
    volatile uint64_t ping __attribute__((aligned(CORES_BLOCK)));
    volatile uint64_t pong __attribute__((aligned(CORES_BLOCK)));
    volatile uint64_t pong_tsc;         /* written before pong, read after: pong's block */
    struct cores_sync start __attribute__((aligned(CORES_BLOCK)));
    uint32_t samples;
};
struct cores_ping_side {
    struct cores_ping_shared *sh;
    int initiator;
    struct cores_offset_bounds bounds;  /* initiator: responder - initiator */
    int timed_out;
};
long cores_ping(void *arg);             /* struct cores_ping_side * */

/* ---- the TSC rate against a shared reference counter ---------------------------
 * (struct cores_rate: bench/cores/cores.h, which the section's report reads) */
long cores_rate(void *arg);             /* struct cores_rate * */

/* ---- cache-line round trips between two CPUs -----------------------------------
 * The initiator writes k to ping and waits for pong == k; the responder
 * waits for ping == k and writes k to pong.  A round trip moves the ping
 * line to the responder and the pong line back: two transfers, each of a
 * line that nothing else shares (its own 128-byte block). */
struct cores_bounce_shared {
    volatile uint64_t ping __attribute__((aligned(CORES_BLOCK)));
    volatile uint64_t pong __attribute__((aligned(CORES_BLOCK)));
    struct cores_sync start __attribute__((aligned(CORES_BLOCK)));
    uint32_t samples, trips;            /* samples of `trips` round trips */
    uint64_t *sample_ticks;             /* initiator writes samples entries */
};
struct cores_bounce_side {
    struct cores_bounce_shared *sh;
    int initiator;
    int timed_out;
};
long cores_bounce(void *arg);           /* struct cores_bounce_side * */

/* ---- a fault or a hang on purpose (INJECTFAULT in the cores section) ----------- */
long cores_inject(void *kind);          /* const char *: trap_inject's kinds */

#endif
