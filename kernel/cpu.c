/*
 * kernel/cpu.c - CPU identification: every CPUID leaf the image uses, read
 * in one pass into one record (kernel/cpu.h says which reads stay live).
 */
#include <string.h>

#include "cpu.h"

struct cpu_info cpu_info;

/* The pass's bounds: the leaves past them are read by nobody. */
#define CPU_TOP_BASIC 0x20u
#define CPU_TOP_HV    0x40000010u
#define CPU_TOP_EXT   0x80000022u
#define CPU_MAX_SUBS  16u

void cpu_cpuid_raw(uint32_t leaf, uint32_t sub, uint32_t out[4])
{
    struct cpuid_regs r;
    cpu_cpuid(leaf, sub, &r);
    out[0] = r.eax;
    out[1] = r.ebx;
    out[2] = r.ecx;
    out[3] = r.edx;
}

static void cpu_trim(char *s)
{
    char *p = s;
    while (*p == ' ')
        p++;
    memmove(s, p, strlen(p) + 1);
    for (size_t n = strlen(s); n > 0 && s[n - 1] == ' '; n--)
        s[n - 1] = 0;
}

int cpu_leaf(const struct cpu_info *ci, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
    for (unsigned i = 0; i < ci->nleaves; i++)
        if (ci->leaves[i].leaf == leaf && ci->leaves[i].sub == sub) {
            memcpy(out, ci->leaves[i].r, sizeof ci->leaves[i].r);
            return 1;
        }
    memset(out, 0, 4 * sizeof *out);
    return 0;
}

uint32_t cpu_leaf_vendor(const struct cpu_info *ci, uint32_t leaf, char out[13])
{
    uint32_t r[4];
    cpu_leaf(ci, leaf, 0, r);
    memcpy(out, &r[1], 4);                       /* leaf 0: EBX, EDX, ECX */
    memcpy(out + 4, &r[leaf == 0 ? 3 : 2], 4);   /* hypervisor: EBX, ECX, EDX */
    memcpy(out + 8, &r[leaf == 0 ? 2 : 3], 4);
    out[12] = 0;
    return r[0];
}

/* ---- the pass ------------------------------------------------------------------- */

static void cpu_read(struct cpu_info *ci, cpuid_fn cpuid, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    cpuid(leaf, sub, r);
    if (ci->nleaves < CPU_MAX_LEAVES)
        ci->leaves[ci->nleaves++] = (struct cpuid_leaf){ leaf, sub, { r[0], r[1], r[2], r[3] } };
}

/* The subleaves after 0 of a leaf that lists items until a type field
 * reads 0 (caches: EAX[4:0]; topology levels: ECX[15:8]). */
static void cpu_read_list(struct cpu_info *ci, cpuid_fn cpuid, uint32_t leaf, const uint32_t r0[4])
{
    uint32_t r[4];
    int topo = leaf == 0xB || leaf == 0x1F;
    uint32_t type = topo ? (r0[2] >> 8) & 0xFF : r0[0] & 0x1F;
    for (uint32_t sub = 1; type && sub < CPU_MAX_SUBS; sub++) {
        cpu_read(ci, cpuid, leaf, sub, r);
        type = topo ? (r[2] >> 8) & 0xFF : r[0] & 0x1F;
    }
}

/* One leaf and the subleaves the image reads of it. */
static void cpu_read_leaf(struct cpu_info *ci, cpuid_fn cpuid, uint32_t leaf)
{
    uint32_t r[4], r2[4];
    cpu_read(ci, cpuid, leaf, 0, r);
    if (leaf == 4 || leaf == 0xB || leaf == 0x1F || leaf == 0x8000001Du)
        cpu_read_list(ci, cpuid, leaf, r);
    else if (leaf == 7)
        for (uint32_t sub = 1; sub <= r[0] && sub < 3; sub++)
            cpu_read(ci, cpuid, leaf, sub, r2);
    else if (leaf == 0xD)
        cpu_read(ci, cpuid, leaf, 1, r2);
}

static void cpu_read_range(struct cpu_info *ci, cpuid_fn cpuid, uint32_t first, uint32_t last, uint32_t top)
{
    for (uint32_t leaf = first; leaf <= last && leaf <= top; leaf++)
        cpu_read_leaf(ci, cpuid, leaf);
}

static void cpu_read_all(struct cpu_info *ci, cpuid_fn cpuid)
{
    uint32_t r[4];
    cpu_read(ci, cpuid, 0, 0, r);
    cpu_read_range(ci, cpuid, 1, r[0], CPU_TOP_BASIC);
    cpu_leaf(ci, 1, 0, r);
    if ((r[2] >> 31) & 1) {
        cpu_read(ci, cpuid, 0x40000000u, 0, r);
        if (r[0] > 0x40000000u && r[0] < 0x40000100u)
            cpu_read_range(ci, cpuid, 0x40000001u, r[0], CPU_TOP_HV);
    }
    cpu_read(ci, cpuid, 0x80000000u, 0, r);
    if (r[0] > 0x80000000u && r[0] < 0x80000100u)
        cpu_read_range(ci, cpuid, 0x80000001u, r[0], CPU_TOP_EXT);
}

/* ---- what the record says ------------------------------------------------------------ */

static void cpu_decode_brand(struct cpu_info *ci)
{
    uint32_t words[12];

    if (ci->max_ext_leaf < 0x80000004) {
        strcpy(ci->brand, "(no brand string)");
        return;
    }
    for (uint32_t i = 0; i < 3; i++)
        cpu_leaf(ci, 0x80000002 + i, 0, &words[i * 4]);
    memcpy(ci->brand, words, 48);
    ci->brand[48] = 0;
    cpu_trim(ci->brand);
}

static void cpu_decode_leaf1(struct cpu_info *ci)
{
    uint32_t r[4];
    cpu_leaf(ci, 1, 0, r);
    uint32_t base_family = (r[0] >> 8) & 0xF, base_model = (r[0] >> 4) & 0xF;
    ci->stepping = r[0] & 0xF;
    ci->family = base_family == 0xF ? base_family + ((r[0] >> 20) & 0xFF) : base_family;
    ci->model = (base_family == 0x6 || base_family == 0xF)
                    ? (((r[0] >> 16) & 0xF) << 4) | base_model : base_model;
    ci->has_tsc = (r[3] >> 4) & 1;
    ci->has_msr = (r[3] >> 5) & 1;
    ci->has_apic = (r[3] >> 9) & 1;
    ci->hypervisor_present = (r[2] >> 31) & 1;
    ci->logical_per_package = (r[1] >> 16) & 0xFF;
}

static void cpu_decode(struct cpu_info *ci)
{
    uint32_t r[4];

    ci->max_leaf = cpu_leaf_vendor(ci, 0, ci->vendor);
    ci->is_intel = !strcmp(ci->vendor, "GenuineIntel");
    ci->is_amd = !strcmp(ci->vendor, "AuthenticAMD") || !strcmp(ci->vendor, "HygonGenuine");
    cpu_decode_leaf1(ci);
    cpu_leaf(ci, 0x80000000u, 0, r);
    ci->max_ext_leaf = r[0] >= 0x80000000 ? r[0] : 0;
    cpu_leaf(ci, 0x80000001u, 0, r);
    ci->has_rdtscp = (r[3] >> 27) & 1;
    cpu_leaf(ci, 0x80000007u, 0, r);
    ci->has_invariant_tsc = (r[3] >> 8) & 1;
    cpu_leaf(ci, 6, 0, r);
    ci->has_aperfmperf = r[2] & 1;
    cpu_leaf(ci, 0x15, 0, r);
    ci->l15_eax = r[0];
    ci->l15_ebx = r[1];
    ci->l15_ecx = r[2];
    cpu_leaf(ci, 0x16, 0, r);
    ci->l16_base_mhz = r[0] & 0xFFFF;
    ci->l16_max_mhz = r[1] & 0xFFFF;
    ci->l16_bus_mhz = r[2] & 0xFFFF;
    cpu_decode_brand(ci);
    if (ci->hypervisor_present)
        ci->max_hv_leaf = cpu_leaf_vendor(ci, 0x40000000u, ci->hypervisor);
}

void cpu_identify_from(struct cpu_info *ci, cpuid_fn cpuid)
{
    memset(ci, 0, sizeof *ci);
    cpu_read_all(ci, cpuid);
    cpu_decode(ci);
}

void cpu_identify(struct cpu_info *ci)
{
    cpu_identify_from(ci, cpu_cpuid_raw);
}

const struct cpu_info *cpu_identity(void)
{
    if (!cpu_info.nleaves)
        cpu_identify(&cpu_info);
    return &cpu_info;
}
