/*
 * kernel/trap.h - the image's own CPU exception handlers.
 *
 * While the run measures, vectors 0-31 of a copy of the firmware's IDT point
 * at baremark's handlers (interrupt vectors stay the firmware's).  Code run
 * through trap_run is protected: a fault inside it (divide error, invalid
 * opcode, page fault, #GP from a missing MSR...) is recorded and trap_run
 * returns as if the function had failed, so one bad test never ends the run.
 * A fault outside any protected call is fatal: one line and status 3.
 */
#ifndef BAREMARK_TRAP_H
#define BAREMARK_TRAP_H

#include <stdint.h>

#include "platform.h"

/* struct plat_fault: what a protected call reports (port/platform.h). */

/* Install / remove the handlers (efi_main, around the sections). */
int trap_init(void);
void trap_fini(void);
int trap_installed(void);

/* Call fn(arg) protected.  Returns 0 and *result = fn's value, or -1 with
 * *fault filled when a CPU exception interrupted it.  Nesting is allowed. */
int trap_run(long (*fn)(void *), void *arg, long *result, struct plat_fault *fault);

/* Print "fault in TEST: #UD invalid opcode (vector 6) at RIP ..., error code ..." */
void trap_report(const char *test, const struct plat_fault *f);

/* MSR access that never crashes: 0 on success, -1 when the CPU refused
 * (#GP) or the handlers are not installed. */
int cpu_rdmsr_safe(uint32_t msr, uint64_t *value);
int cpu_wrmsr_safe(uint32_t msr, uint64_t value);

/* ---- application processors (boot/mp.c, port/platform.h's workers) ------------------------------------
 * An AP running a job loads the image's IDT (trap_ap_enter, the firmware's
 * saved in *saved) and puts it back (trap_ap_leave).  Protected calls nest
 * per CPU (kernel/percpu.h).  A fault on an AP outside any protected call
 * halts that AP (it must not print); trap_ap_fault tells the BSP about it. */
struct trap_ap_saved { uint16_t limit; uint64_t base; };
int trap_ap_enter(struct trap_ap_saved *saved);   /* -1: handlers not installed */
void trap_ap_leave(const struct trap_ap_saved *saved);
int trap_ap_running(uint32_t slot);
int trap_ap_fault(uint32_t slot, struct plat_fault *f);

/* Fault injection (INJECTFAULT setting): "divide", "opcode", "page", and
 * "hang" (on an AP only: spins forever with interrupts masked, an AP that
 * stops answering; on the bootstrap processor it does nothing).
 * Executes the faulting instruction; call it through trap_run. */
long trap_inject(void *kind);

/* NMIs seen while the handlers were installed. */
uint64_t trap_nmi_count(void);

#endif
