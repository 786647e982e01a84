/*
 * kernel/microcode.c - the CPU's microcode revision, part of the machine's
 * configuration a run records (a microcode update can move every figure).
 *
 * Intel (SDM vol. 3A 10.11.7.1): write 0 to IA32_BIOS_SIGN_ID (MSR 0x8B),
 * execute CPUID leaf 1, read the revision from the MSR's high 32 bits.
 * AMD (APM and the family BKDGs: MSR 0000_008B PATCH_LEVEL): the patch
 * level in the low 32 bits.  Read through the safe MSR accessors: a CPU or
 * hypervisor that refuses the MSR gives "unknown", not a fault.
 */
#include <string.h>

#include "cpu.h"
#include "microcode.h"
#include "trap.h"

#define MSR_BIOS_SIGN_ID 0x8Bu

int cpu_microcode(uint32_t *rev)
{
    uint64_t v;
    struct cpuid_regs r;
    if (!cpu_info.has_msr)
        return -1;
    if (!strcmp(cpu_info.vendor, "GenuineIntel")) {
        if (cpu_wrmsr_safe(MSR_BIOS_SIGN_ID, 0))
            return -1;
        cpu_cpuid(1, 0, &r);
        if (cpu_rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
            return -1;
        *rev = (uint32_t)(v >> 32);
        return 0;
    }
    if (cpu_rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
        return -1;
    *rev = (uint32_t)v;
    return 0;
}
