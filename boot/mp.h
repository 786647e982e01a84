/*
 * boot/mp.h - the other processors, through the firmware's MP Services
 * protocol (UEFI PI specification volume 2, EFI_MP_SERVICES_PROTOCOL).
 *
 * The bootstrap processor (BSP) runs efi_main; the application processors
 * (APs) wait in the firmware.  mp_init finds the protocol and lists every
 * logical CPU; the workers below run code on them.
 *
 * An AP job runs with interrupts masked, on a stack the BSP allocated, with
 * baremark's exception handlers loaded on that AP (lidt), protected like any
 * test (kernel/trap.h): a CPU exception fails the job and is reported by the
 * BSP.  A job must not call the firmware: no output, no allocation through
 * the firmware, no files.  plat_alloc on an AP takes memory from an arena the
 * BSP set aside for it (mp_arena) and plat_free gives it back.
 */
#ifndef BAREMARK_MP_H
#define BAREMARK_MP_H

#include <stddef.h>
#include <stdint.h>

#include "trap.h"

/* OVMF supports 64 logical CPUs; large servers have a few hundred. */
#define MP_MAX_CPUS 512

/* StatusFlag bits of EFI_PROCESSOR_INFORMATION (PI spec). */
#define MP_FLAG_BSP     0x1
#define MP_FLAG_ENABLED 0x2
#define MP_FLAG_HEALTHY 0x4

/* What the firmware says about one logical CPU. */
struct mp_cpu {
    uint32_t number;             /* the firmware's processor number */
    uint64_t apic_id;            /* ProcessorId: the (x2)APIC ID */
    uint32_t flags;              /* MP_FLAG_* */
    uint32_t package, core, thread;  /* Location */
    int has_location2;           /* the firmware filled the extended location */
    uint32_t module, tile, die;  /* ExtendedInformation.Location2 */
};

struct mp_info {
    int present;                 /* the protocol was found */
    const char *why;             /* why not, or what failed ("" when fine) */
    uint32_t count, enabled;     /* logical CPUs present / enabled */
    uint32_t bsp;                /* the BSP's processor number */
    struct mp_cpu *cpu;          /* count entries, by processor number */
};

/* Find the protocol and list the CPUs; fills *mi.  Returns 0, or -1 when
 * there is no MP Services protocol (mi->why says why). */
int mp_init(struct mp_info *mi);

/* ---- workers ---------------------------------------------------------------
 * mp_workers_start sends every chosen AP one long job (non-blocking
 * StartupThisAP, no firmware time limit): a worker loop that waits, with
 * interrupts masked, for calls the BSP posts in its mailbox and runs each
 * protected.  Posting and collecting a call is plain shared memory (no
 * firmware), so the BSP can run one side of a ping-pong while an AP runs
 * the other, and pairs of APs can work while the BSP waits.  An AP that
 * does not take its worker job within the answer time, or does not finish a
 * call within the call's time, is reported and left alone: it gets no more
 * calls. */
enum mp_worker_state {
    MP_W_NONE,          /* not asked (the BSP, a disabled CPU, not chosen) */
    MP_W_REFUSED,       /* StartupThisAP failed (status in mp_worker_status) */
    MP_W_NO_ANSWER,     /* never started its worker within the answer time */
    MP_W_READY,         /* waiting for calls */
    MP_W_LOST,          /* a call did not finish in time: left alone */
    MP_W_HALTED,        /* faulted outside a call and halted (trap_ap_fault) */
    MP_W_STOPPED,       /* returned to the firmware at mp_workers_stop */
};

/* Start workers on the APs with want[number] != 0 (want NULL: every
 * enabled AP), each on a stack of stack_bytes; wait at most answer_ticks
 * TSC ticks for all of them to answer.  Returns how many are ready. */
uint32_t mp_workers_start(const struct mp_info *mi, const uint8_t *want, size_t stack_bytes,
                          uint64_t answer_ticks);
enum mp_worker_state mp_worker_state(uint32_t cpu);
uint64_t mp_worker_status(uint32_t cpu);         /* StartupThisAP's EFI status */
const char *mp_worker_state_name(enum mp_worker_state s);

/* Post fn(arg) to a ready worker.  Returns 0, or -1 when the worker is not
 * ready (then nothing was posted). */
int mp_post(uint32_t cpu, long (*fn)(void *), void *arg);

/* Outcome of a posted call. */
enum mp_call_outcome { MP_CALL_DONE, MP_CALL_FAULT, MP_CALL_TIMEOUT, MP_CALL_NOT_POSTED };

/* Wait at most timeout_ticks for the call posted to cpu (polling memory: fine
 * with interrupts masked).  DONE: *result = fn's value; FAULT: *fault filled
 * (the worker goes on); TIMEOUT: the worker becomes MP_W_LOST (or HALTED
 * when it faulted outside the call). */
enum mp_call_outcome mp_collect(uint32_t cpu, uint64_t timeout_ticks, long *result,
                                struct trap_fault *fault);

/* Ask every ready worker to return to the firmware and wait at most
 * timeout_ticks for them (interrupts enabled). */
void mp_workers_stop(uint64_t timeout_ticks);

/* Give every AP `bytes` of arena for plat_alloc (only the CPUs with
 * want[number] != 0; want may be NULL for all).  Returns 0, or -1 when
 * memory is short. */
int mp_arena_reserve(const struct mp_info *mi, const uint8_t *want, size_t bytes);
/* Free the arenas again (with interrupts enabled, on the BSP). */
void mp_arena_release(void);
/* plat_alloc / plat_free on an AP (boot/run.c routes them here): NULL when
 * the calling CPU is the BSP or has no arena. */
void *mp_arena_alloc(size_t bytes);
int mp_arena_free(void *p);       /* 1 when p came from an arena */

/* Nonzero on an AP running a worker (boot/run.c asks, for plat_alloc). */
int mp_on_ap(void);

#endif
