/*
 * bench/cores/cores_probe.c - what one CPU reads about itself for the cores
 * section (see cores_math.h): CPUID topology (leaves 0x1F or 0xB, Intel SDM
 * vol. 2A), the hybrid core type (0x1A), IA32_TSC_ADJUST where CPUID.7
 * says it exists, and what orders a TSC read on it (bench/methods/methods.h's
 * probe).  Reads the CPU's identity record and MSRs through a
 * methods_cpu_source, so the tests can give it a simulated CPU and MSR space.
 */
#include <string.h>

#include "cores_math.h"
#include "cpu.h"
#include "methods.h"

static void cores_probe_topology(struct cores_cpuid *c, const struct methods_cpu_source *src,
                                 uint32_t max_leaf)
{
    uint32_t r[4];
    /* 0x1F (V2 extended topology) where valid, else 0xB. */
    static const uint32_t leaves[2] = { 0x1F, 0xB };
    for (int k = 0; k < 2 && !c->topo_leaf; k++) {
        if (max_leaf < leaves[k])
            continue;
        cpu_leaf(src->id, leaves[k], 0, r);
        if (r[1] == 0)
            continue;
        c->topo_leaf = leaves[k];
        c->x2apic_id = r[3];
        for (uint32_t sub = 0; sub < CORES_LEVELS_MAX; sub++) {
            cpu_leaf(src->id, leaves[k], sub, r);
            uint32_t type = (r[2] >> 8) & 0xFF;
            if (type == 0)
                break;
            c->level_type[c->levels] = type;
            c->level_shift[c->levels] = r[0] & 0x1F;
            c->levels++;
        }
    }
}

static void cores_probe_tsc_adjust(struct cores_cpuid *c, const struct methods_cpu_source *src)
{
    uint64_t v;
    c->tsc_adjust_read = -1;
    if (!c->tsc_adjust_cpuid)
        return;                         /* no MSR 0x3B: never read (a #GP at best) */
    c->tsc_adjust_read = 0;
    if (src->read_msr && src->read_msr(CORES_MSR_TSC_ADJUST, &v) == 0) {
        c->tsc_adjust_read = 1;
        c->tsc_adjust = (int64_t)v;
    }
}

void cores_probe_from(struct cores_cpuid *c, const struct methods_cpu_source *src)
{
    uint32_t r[4], max_leaf = src->id->max_leaf;
    struct methods_cpu m;
    memset(c, 0, sizeof *c);
    c->vm_hidden = src->vm_hidden;
    cpu_leaf(src->id, 1, 0, r);
    c->leaf1_eax = r[0];
    c->leaf1_ebx = r[1];
    if (max_leaf >= 7) {
        cpu_leaf(src->id, 7, 0, r);
        c->hybrid = (r[3] >> 15) & 1;
        c->tsc_adjust_cpuid = (r[1] & CORES_CPUID7_EBX_TSC_ADJUST) != 0;
    }
    if (max_leaf >= 0x1A && c->hybrid) {
        cpu_leaf(src->id, 0x1A, 0, r);
        c->leaf1a_eax = r[0];
    }
    cores_probe_topology(c, src, max_leaf);
    cores_probe_tsc_adjust(c, src);
    methods_cpu_probe_from(&m, src);
    c->rdtscp = m.rdtscp;
    c->lfence_serializing = m.lfence_serializing;
    c->read = 1;
}
