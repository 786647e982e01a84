/*
 * kernel/pmu_msr.c - the image's MSR access for bench/pmu.c: rdmsr and
 * wrmsr that never crash (a #GP from a register the CPU or hypervisor does
 * not have is caught by kernel/trap.c and reported as a refusal).
 */
#include <stdint.h>

#include "pmu.h"
#include "trap.h"

static int pmu_msr_read(void *ctx, uint32_t msr, uint64_t *value)
{
    return cpu_rdmsr_safe(msr, value);
}

static int pmu_msr_write(void *ctx, uint32_t msr, uint64_t value)
{
    return cpu_wrmsr_safe(msr, value);
}

static const struct pmu_msr_ops pmu_msr_ops = { pmu_msr_read, pmu_msr_write, 0 };

const struct pmu_msr_ops *pmu_platform_msr(void)
{
    return &pmu_msr_ops;
}
