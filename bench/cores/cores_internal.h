/*
 * bench/cores/cores_internal.h - what the cores section's files in kernel/
 * share: running work on CPUs and the memory two CPUs share
 * (bench/cores/cores_drive.c), the TSC part (bench/cores/cores_tsc.c).
 */
#ifndef BAREMARK_CORES_INTERNAL_H
#define BAREMARK_CORES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cores.h"

uint64_t cores_ms_ticks(const struct cores *c, uint64_t ms);
/* The BSP, or an AP whose worker is ready for calls. */
int cores_alive(const struct cores *c, uint32_t n);
/* An AP whose call did not finish in time: it may still be running it. */
int cores_lost(uint32_t n);

/* Run each task's fn(arg) on its CPU, all at once (one of them may be the
 * BSP, which runs its share itself).  Returns the number that failed. */
struct cores_task { uint32_t cpu; long (*fn)(void *); void *arg; struct cores_fail *fail; int rc; };
int cores_group(struct cores *c, struct cores_task *t, uint32_t n, uint64_t timeout);
int cores_one(struct cores *c, uint32_t cpu, long (*fn)(void *), void *arg, struct cores_fail *fail,
              uint64_t timeout);
/* A BYTEmark test on a CPU (bench/cores/cores_score.c): the BSP runs it with
 * interrupts enabled (it allocates through the firmware). */
struct bytemark_core_job;
struct cores_sync;
struct cores_score_arg {
    struct bytemark_core_job *job;
    const char *inject;
    struct cores_sync *start;       /* all cores: begin together */
    uint64_t *t_start, *t_end;      /* the CPU's TSC around the test */
};
long cores_score_fn(void *arg);

/* Each piece of work between two CPUs gets a block of its own, aligned to
 * CORES_BLOCK.  A block whose CPU was lost is never freed nor reused: the
 * CPU may still be writing to it (counted in c->kept_bytes). */
struct cores_shared { void *raw, *p; size_t size; };
int cores_shared_get(struct cores_shared *s, size_t size);
void cores_shared_put(struct cores *c, struct cores_shared *s, uint32_t a, uint32_t b);

/* bench/cores/cores_tsc.c */
void cores_tsc_all(struct cores *c);
void cores_rate_finish(struct cores *c);

#endif
