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

/* A CPUID function: out = EAX, EBX, ECX, EDX of leaf/subleaf.  The
 * processor's own (cpu_cpuid_raw) or a simulated CPU's (the unit tests). */
typedef void (*cpuid_fn)(uint32_t leaf, uint32_t sub, uint32_t out[4]);
void cpu_cpuid_raw(uint32_t leaf, uint32_t sub, uint32_t out[4]);

/* One leaf as the identification pass read it. */
struct cpuid_leaf { uint32_t leaf, sub, r[4]; };
/* Room for every leaf the pass reads: basic 0..0x20, the cache and
 * topology subleaves, 0x40000000..0x40000010, 0x80000000..0x80000022. */
#define CPU_MAX_LEAVES 192

/* The CPU's identity: every CPUID leaf the image and its sections use,
 * read in ONE pass (cpu_identify), with what is decoded from them.  The
 * run's record is read once at start-up (cpu_identity) and handed to the
 * sections in their run environment (bench/section.h); code that needs a
 * leaf not decoded here reads it from the record (cpu_leaf), never from
 * the processor again.  Three reads stay live, because their answer is
 * not the CPU's identity: the calling CPU's APIC ID (kernel/percpu.c, one
 * per CPU), CPUID.1 inside the microcode revision read (kernel/microcode.c:
 * the SDM's sequence executes it), and CPUID.1:ECX.OSXSAVE, a copy of CR4
 * bit 18 that the memory section changes (boot/memory_pages.c).  An AP
 * that describes itself (the cores section) runs its own pass. */
struct cpu_info {
    char vendor[13];             /* "GenuineIntel", "AuthenticAMD", ... */
    char brand[49];              /* CPUID 0x80000002..4, trimmed */
    char hypervisor[13];         /* CPUID 0x40000000 vendor, "" when none */
    uint32_t max_leaf, max_ext_leaf, max_hv_leaf;
    uint32_t family, model, stepping;   /* display family/model */
    int has_tsc, has_rdtscp, has_invariant_tsc, has_msr, has_apic;
    int has_aperfmperf;          /* CPUID.6:ECX bit 0: IA32_APERF/IA32_MPERF */
    int hypervisor_present;      /* CPUID.1:ECX bit 31 */
    int is_intel, is_amd;
    /* CPUID 0x15: TSC/crystal ratio; 0x16: frequencies in MHz (0 = absent) */
    uint32_t l15_eax, l15_ebx, l15_ecx;
    uint32_t l16_base_mhz, l16_max_mhz, l16_bus_mhz;
    uint32_t logical_per_package; /* CPUID.1:EBX[23:16] */
    /* The leaves as read, in the order read (cpu_leaf finds one). */
    unsigned nleaves;
    struct cpuid_leaf leaves[CPU_MAX_LEAVES];
};

/* Read the CPU's identification in one pass; safe on any x86-64. */
void cpu_identify(struct cpu_info *ci);
/* The same pass through `cpuid` (a simulated CPU in the tests). */
void cpu_identify_from(struct cpu_info *ci, cpuid_fn cpuid);
/* A leaf from the record: out = its registers, or zeros (and 0 returned)
 * when the pass did not read it (beyond the CPU's highest leaf). */
int cpu_leaf(const struct cpu_info *ci, uint32_t leaf, uint32_t sub, uint32_t out[4]);
/* The 12-character vendor of leaf 0 ("GenuineIntel": EBX, EDX, ECX) or of
 * the hypervisor leaf 0x40000000 ("TCGTCGTCGTCG": EBX, ECX, EDX) from the
 * record; returns the leaf's EAX, the highest leaf of its range. */
uint32_t cpu_leaf_vendor(const struct cpu_info *ci, uint32_t leaf, char out[13]);

/* The run's identity: this CPU's, identified on the first call (efi_main
 * makes it first thing; the hosted program at its first use) and the
 * same record ever after. */
const struct cpu_info *cpu_identity(void);

/* The record cpu_identity fills (the drivers of kernel/ and the image's
 * port read it; sections take it from their run environment). */
extern struct cpu_info cpu_info;

#endif
