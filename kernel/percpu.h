/*
 * kernel/percpu.h - which logical CPU is running this code.
 *
 * Code that runs on several CPUs at once (exception handlers, protected
 * calls, the AP allocator) keeps one slot per CPU.  A CPU finds its slot
 * from its own APIC ID (CPUID), matched against the list the BSP registered
 * from the firmware's processor list.  Until then every CPU is slot 0.
 */
#ifndef BAREMARK_PERCPU_H
#define BAREMARK_PERCPU_H

#include <stdint.h>

#define PERCPU_MAX 512

/* The (x2)APIC ID of the calling CPU: CPUID leaf 0xB's EDX where the leaf
 * exists, else CPUID.1:EBX[31:24]. */
uint32_t percpu_apic_id(void);

/* Register the APIC IDs by slot (slot = the firmware's processor number)
 * and the bootstrap processor's slot; n <= PERCPU_MAX. */
void percpu_register(const uint64_t *apic_ids, uint32_t n, uint32_t bsp);
/* While no AP runs baremark's code (active 0), percpu_self answers the
 * bootstrap processor's slot without asking the CPU (no CPUID, which a
 * hypervisor intercepts, around later measurements). */
void percpu_set_active(int active);

/* The calling CPU's slot (0 when nothing is registered or the CPU is not
 * in the list). */
uint32_t percpu_self(void);

#endif
