/*
 * kernel/percpu.c - the calling CPU's slot (see percpu.h).
 */
#include "cpu.h"
#include "percpu.h"

#define PERCPU_LEAF_TOPOLOGY 0xB

static uint32_t percpu_ids[PERCPU_MAX];
static uint32_t percpu_n, percpu_bsp;
static int percpu_active;

uint32_t percpu_apic_id(void)
{
    struct cpuid_regs r;
    cpu_cpuid(0, 0, &r);
    if (r.eax >= PERCPU_LEAF_TOPOLOGY) {
        cpu_cpuid(PERCPU_LEAF_TOPOLOGY, 0, &r);
        if (r.ebx != 0)
            return r.edx;
    }
    cpu_cpuid(1, 0, &r);
    return r.ebx >> 24;
}

void percpu_register(const uint64_t *apic_ids, uint32_t n, uint32_t bsp)
{
    if (n > PERCPU_MAX)
        n = PERCPU_MAX;
    for (uint32_t i = 0; i < n; i++)
        percpu_ids[i] = (uint32_t)apic_ids[i];
    percpu_bsp = bsp < n ? bsp : 0;
    __atomic_store_n(&percpu_n, n, __ATOMIC_RELEASE);
}

void percpu_set_active(int active) { __atomic_store_n(&percpu_active, active, __ATOMIC_RELEASE); }

uint32_t percpu_self(void)
{
    uint32_t n = __atomic_load_n(&percpu_n, __ATOMIC_ACQUIRE);
    if (n == 0)
        return 0;
    if (!__atomic_load_n(&percpu_active, __ATOMIC_ACQUIRE))
        return percpu_bsp;
    uint32_t id = percpu_apic_id();
    for (uint32_t i = 0; i < n; i++)
        if (percpu_ids[i] == id)
            return i;
    return 0;
}
