/*
 * bench/cores/cores_drive.c - running the cores section's work on CPUs (see
 * cores_internal.h): the BSP's share protected, an AP's posted and
 * collected, a group at once; the memory two CPUs share, never freed while
 * a lost CPU might still write to it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cores.h"
#include "cores_internal.h"
#include "cores_math.h"
#include "cores_work.h"
#include "cpu.h"
#include "platform.h"
#include "trap.h"

/* ---- running work on a CPU ---------------------------------------------------------- */

uint64_t cores_ms_ticks(const struct cores *c, uint64_t ms) { return c->hz / 1000 * ms; }

int cores_alive(const struct cores *c, uint32_t n)
{
    return n == c->mi.bsp || plat_worker_state(n) == PLAT_W_READY;
}

static void cores_fault_text(const struct plat_fault *f, char *buf, size_t n)
{
    snprintf(buf, n, "%s (vector %llu) at RIP 0x%llx, error code 0x%llx", f->name ? f->name : "?",
             (unsigned long long)f->vector, (unsigned long long)f->rip,
             (unsigned long long)f->error_code);
}


/* The BSP's share: protected, interrupts masked.  A BYTEmark test is the
 * exception: it allocates through the firmware (plat_alloc), which must not
 * be called with interrupts masked, and masks its timed work itself. */
static int cores_bsp_call(long (*fn)(void *), void *arg, struct cores_fail *fail)
{
    struct plat_fault f;
    long r = 0;
    unsigned long irq = fn == cores_score_fn ? cpu_flags() : cpu_irq_save();
    int faulted = trap_run(fn, arg, &r, &f);
    cpu_irq_restore(irq);
    if (faulted) {
        fail->failed = 1;
        cores_fault_text(&f, fail->why, sizeof fail->why);
        return -1;
    }
    return (int)r;
}

/* Collect an AP's call; a fault or a timeout is written into fail. */
static int cores_ap_collect(struct cores *c, uint32_t n, uint64_t timeout, struct cores_fail *fail)
{
    struct plat_fault f;
    long r = 0;
    memset(&f, 0, sizeof f);
    switch (plat_collect(n, timeout, &r, &f)) {
    case PLAT_CALL_DONE:
        return (int)r;
    case PLAT_CALL_FAULT:
        fail->failed = 1;
        cores_fault_text(&f, fail->why, sizeof fail->why);
        return -1;
    case PLAT_CALL_TIMEOUT:
        fail->failed = 1;
        if (plat_worker_state(n) == PLAT_W_HALTED) {
            char t[120];
            cores_fault_text(&f, t, sizeof t);
            snprintf(fail->why, sizeof fail->why, "CPU halted after a fault outside its work: %.110s", t);
        } else {
            snprintf(fail->why, sizeof fail->why, "no answer within %llu s: CPU left alone",
                     (unsigned long long)(timeout / c->hz));
        }
        snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why, "%s", fail->why);
        c->cpu[n].fail.failed = 1;
        return -1;
    default:
        fail->failed = 1;
        snprintf(fail->why, sizeof fail->why, "CPU not available");
        return -1;
    }
}

/* Run each task's fn(arg) on its CPU, all at once (one of them may be the
 * BSP, which runs its share itself).  Returns the number that failed. */
int cores_group(struct cores *c, struct cores_task *t, uint32_t n, uint64_t timeout)
{
    int failed = 0;
    int bsp = -1;
    for (uint32_t i = 0; i < n; i++) {
        t[i].rc = 0;
        if (t[i].cpu == c->mi.bsp) {
            bsp = (int)i;
        } else if (plat_post(t[i].cpu, t[i].fn, t[i].arg)) {
            t[i].fail->failed = 1;
            snprintf(t[i].fail->why, sizeof t[i].fail->why, "CPU %u not available (%s)", t[i].cpu,
                     cores_state_name(plat_worker_state(t[i].cpu)));
            t[i].rc = -2;
        }
    }
    if (bsp >= 0)
        t[bsp].rc = cores_bsp_call(t[bsp].fn, t[bsp].arg, t[bsp].fail);
    for (uint32_t i = 0; i < n; i++) {
        if ((int)i != bsp && t[i].rc != -2)
            t[i].rc = cores_ap_collect(c, t[i].cpu, timeout, t[i].fail);
        failed += t[i].rc != 0;
    }
    return failed;
}

int cores_one(struct cores *c, uint32_t cpu, long (*fn)(void *), void *arg,
                     struct cores_fail *fail, uint64_t timeout)
{
    struct cores_task t = { cpu, fn, arg, fail, 0 };
    return cores_group(c, &t, 1, timeout);
}

/* ---- memory two CPUs share ------------------------------------------------------------ */

int cores_shared_get(struct cores_shared *s, size_t size)
{
    s->size = size + CORES_BLOCK;
    s->raw = plat_alloc(s->size);
    if (!s->raw)
        return -1;
    s->p = (void *)(((uintptr_t)s->raw + CORES_BLOCK - 1) & ~(uintptr_t)(CORES_BLOCK - 1));
    memset(s->p, 0, size);
    return 0;
}

int cores_lost(uint32_t n) { return plat_worker_state(n) == PLAT_W_LOST; }

void cores_shared_put(struct cores *c, struct cores_shared *s, uint32_t a, uint32_t b)
{
    if (cores_lost(a) || cores_lost(b))
        c->kept_bytes += s->size;
    else
        plat_free(s->raw);
    s->raw = s->p = NULL;
}

