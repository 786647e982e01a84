/*
 * kernel/cpu.h - the processor: CPUID, TSC, interrupt flag, MSRs.
 */
#ifndef BAREMARK_CPU_H
#define BAREMARK_CPU_H

#include <stdint.h>

struct cpuid_regs { uint32_t eax, ebx, ecx, edx; };

static inline void cpu_cpuid(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
    __asm__ volatile("cpuid" : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
                     : "a"(leaf), "c"(sub));
}

static inline uint64_t cpu_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static inline unsigned long cpu_irq_save(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
    return flags;
}

static inline void cpu_irq_restore(unsigned long flags)
{
    if (flags & (1ul << 9))
        __asm__ volatile("sti" : : : "memory");
}

static inline unsigned long cpu_flags(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0" : "=r"(flags));
    return flags;
}

/* What the CPU says about itself (filled once by cpu_identify). */
struct cpu_info {
    char vendor[13];             /* "GenuineIntel", "AuthenticAMD", ... */
    char brand[49];              /* CPUID 0x80000002..4, trimmed */
    char hypervisor[13];         /* CPUID 0x40000000 vendor, "" when none */
    uint32_t max_leaf, max_ext_leaf, max_hv_leaf;
    uint32_t family, model, stepping;   /* display family/model */
    int has_tsc, has_rdtscp, has_invariant_tsc, has_msr, has_apic;
    int hypervisor_present;      /* CPUID.1:ECX bit 31 */
    int is_intel, is_amd;
    /* CPUID 0x15: TSC/crystal ratio; 0x16: frequencies in MHz (0 = absent) */
    uint32_t l15_eax, l15_ebx, l15_ecx;
    uint32_t l16_base_mhz, l16_max_mhz, l16_bus_mhz;
    uint32_t logical_per_package; /* CPUID.1:EBX[23:16] */
};

/* Read the CPU's identification; safe on any x86-64. */
void cpu_identify(struct cpu_info *ci);

/* The identification read at start-up (cpu_identify called by efi_main). */
extern struct cpu_info cpu_info;

#endif
