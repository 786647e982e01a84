/*
 * kernel/cpu.c - CPU identification.
 */
#include <string.h>

#include "cpu.h"

struct cpu_info cpu_info;

static void cpu_copy_regs(char *dst, const uint32_t *regs, int n)
{
    memcpy(dst, regs, (size_t)n * 4);
    dst[n * 4] = 0;
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

static void cpu_read_brand(struct cpu_info *ci)
{
    uint32_t words[12];
    struct cpuid_regs r;

    if (ci->max_ext_leaf < 0x80000004) {
        strcpy(ci->brand, "(no brand string)");
        return;
    }
    for (uint32_t i = 0; i < 3; i++) {
        cpu_cpuid(0x80000002 + i, 0, &r);
        words[i * 4 + 0] = r.eax;
        words[i * 4 + 1] = r.ebx;
        words[i * 4 + 2] = r.ecx;
        words[i * 4 + 3] = r.edx;
    }
    cpu_copy_regs(ci->brand, words, 12);
    cpu_trim(ci->brand);
}

static void cpu_read_hypervisor(struct cpu_info *ci)
{
    struct cpuid_regs r;
    uint32_t words[3];

    ci->hypervisor[0] = 0;
    if (!ci->hypervisor_present)
        return;
    cpu_cpuid(0x40000000, 0, &r);
    ci->max_hv_leaf = r.eax;
    words[0] = r.ebx;
    words[1] = r.ecx;
    words[2] = r.edx;
    cpu_copy_regs(ci->hypervisor, words, 3);
}

void cpu_identify(struct cpu_info *ci)
{
    struct cpuid_regs r;
    uint32_t words[3];

    memset(ci, 0, sizeof *ci);
    cpu_cpuid(0, 0, &r);
    ci->max_leaf = r.eax;
    words[0] = r.ebx;
    words[1] = r.edx;
    words[2] = r.ecx;
    cpu_copy_regs(ci->vendor, words, 3);
    ci->is_intel = !strcmp(ci->vendor, "GenuineIntel");
    ci->is_amd = !strcmp(ci->vendor, "AuthenticAMD") || !strcmp(ci->vendor, "HygonGenuine");

    cpu_cpuid(1, 0, &r);
    uint32_t base_family = (r.eax >> 8) & 0xF, base_model = (r.eax >> 4) & 0xF;
    ci->stepping = r.eax & 0xF;
    ci->family = base_family == 0xF ? base_family + ((r.eax >> 20) & 0xFF) : base_family;
    ci->model = (base_family == 0x6 || base_family == 0xF)
                    ? (((r.eax >> 16) & 0xF) << 4) | base_model : base_model;
    ci->has_tsc = (r.edx >> 4) & 1;
    ci->has_msr = (r.edx >> 5) & 1;
    ci->has_apic = (r.edx >> 9) & 1;
    ci->hypervisor_present = (r.ecx >> 31) & 1;
    ci->logical_per_package = (r.ebx >> 16) & 0xFF;

    cpu_cpuid(0x80000000, 0, &r);
    ci->max_ext_leaf = r.eax >= 0x80000000 ? r.eax : 0;
    if (ci->max_ext_leaf >= 0x80000001) {
        cpu_cpuid(0x80000001, 0, &r);
        ci->has_rdtscp = (r.edx >> 27) & 1;
    }
    if (ci->max_ext_leaf >= 0x80000007) {
        cpu_cpuid(0x80000007, 0, &r);
        ci->has_invariant_tsc = (r.edx >> 8) & 1;
    }
    if (ci->max_leaf >= 0x15) {
        cpu_cpuid(0x15, 0, &r);
        ci->l15_eax = r.eax;
        ci->l15_ebx = r.ebx;
        ci->l15_ecx = r.ecx;
    }
    if (ci->max_leaf >= 0x16) {
        cpu_cpuid(0x16, 0, &r);
        ci->l16_base_mhz = r.eax & 0xFFFF;
        ci->l16_max_mhz = r.ebx & 0xFFFF;
        ci->l16_bus_mhz = r.ecx & 0xFFFF;
    }
    cpu_read_brand(ci);
    cpu_read_hypervisor(ci);
}
