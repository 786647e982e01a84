/*
 * boot/sysinfo.c - the system information block.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>

#include "acpi.h"
#include "buildinfo.h"
#include "cpu.h"
#include "figures_run.h"
#include "firmware.h"
#include "fwvol.h"
#include "json.h"
#include "microcode.h"
#include "platform.h"
#include "secureboot.h"
#include "section.h"
#include "smbios.h"
#include "sysinfo.h"

/* The largest structure table read (SMBIOS 3 gives a maximum, not the
 * size; real tables are a few KiB). */
#define SMBIOS_TABLE_MAX (64u * 1024)

static struct smbios_info sysinfo_sm;
static char sysinfo_ucode[16];
static struct fwid sysinfo_fwid;
static double sysinfo_fwid_ms;

/* The firmware's SMBIOS tables, 3.0 entry point first: read once, by the
 * run's environment (plat_vm_maker) or the system block, whichever asks
 * first. */
static void sysinfo_smbios(void)
{
    static int read;
    EFI_GUID g3 = SMBIOS3_TABLE_GUID, g2 = SMBIOS_TABLE_GUID;
    uint64_t table = 0;
    size_t len = 0;
    if (read++)
        return;
    const uint8_t *ep = fw_config_table(&g3);
    if (!ep)
        ep = fw_config_table(&g2);
    sysinfo_sm.found = 0;
    if (!ep || smbios_entry(ep, 32, &table, &len, &sysinfo_sm.major, &sysinfo_sm.minor) || !table)
        return;
    smbios_parse((const uint8_t *)(uintptr_t)table, len < SMBIOS_TABLE_MAX ? len : SMBIOS_TABLE_MAX, &sysinfo_sm);
}

const char *plat_vm_maker(void)
{
    sysinfo_smbios();
    return smbios_vm_maker(&sysinfo_sm);
}

static void sysinfo_microcode(void)
{
    uint32_t rev;
    if (cpu_microcode(&rev) == 0)
        snprintf(sysinfo_ucode, sizeof sysinfo_ucode, "0x%x", rev);
    else
        snprintf(sysinfo_ucode, sizeof sysinfo_ucode, "unknown");
}

static const char *yes_no(int v) { return v ? "yes" : "no"; }

static void sysinfo_acpi(struct acpi_info *ai)
{
    EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
    void *rsdp = fw_config_table(&acpi20);
    if (!rsdp)
        rsdp = fw_config_table(&acpi10);
    acpi_init(ai, rsdp);
}

static uint32_t sysinfo_cpus(const struct acpi_info *ai)
{
    if (ai->madt == ACPI_OK && ai->madt_cpus)
        return ai->madt_cpus;
    return cpu_info.logical_per_package ? cpu_info.logical_per_package : 1;
}

static void sysinfo_print(const struct acpi_info *ai, const char *fwv, uint64_t mem, const struct run_env *env)
{
    const struct cpu_info *c = &cpu_info;
    uint32_t uefi = fw_uefi_revision();

    out_printf("cpu: %s, %s\n", c->vendor, c->brand);
    out_printf("cpu: family 0x%x model 0x%x stepping %u, %u logical CPUs\n",
               c->family, c->model, c->stepping, sysinfo_cpus(ai));
    if (env->vm_hidden)
        out_printf("hypervisor: none by CPUID, but the firmware's SMBIOS names %s: a virtual machine that hides "
                   "itself; timings are the hypervisor's, not a machine's\n", env->vm_hidden);
    else
        out_printf("hypervisor: %s\n",
                   c->hypervisor_present ? (c->hypervisor[0] ? c->hypervisor : "(present, no vendor)") : "none");
    out_printf("tsc: rdtsc %s, rdtscp %s, invariant TSC %s\n",
               yes_no(c->has_tsc), yes_no(c->has_rdtscp), yes_no(c->has_invariant_tsc));
    /* Missing capabilities are facts about the platform, not warnings: the
     * run adapts and says so once, here. */
    if (c->has_tsc && !c->has_rdtscp)
        out_printf("note: no rdtscp on this CPU: the four rdtscp methods will be skipped "
                   "(status 'unsupported'), never executed\n");
    if (c->has_tsc && !c->has_invariant_tsc)
        out_printf("note: the TSC is not invariant (CPUID 0x80000007 EDX bit 8): its rate may "
                   "follow P-states and stop in deep C-states; baremark keeps the CPU busy with "
                   "interrupts masked while timing, and the clock check shows whether the rate held\n");
    if (c->max_leaf >= 0x15)
        out_printf("cpuid 0x15: eax=%u ebx=%u ecx=%u (crystal Hz)%s\n", c->l15_eax, c->l15_ebx, c->l15_ecx,
                   c->l15_eax && c->l15_ebx ? "" : " (no TSC/crystal ratio)");
    else
        out_printf("cpuid 0x15: not present\n");
    if (c->max_leaf >= 0x16)
        out_printf("cpuid 0x16: base %u MHz, max %u MHz, bus %u MHz\n",
                   c->l16_base_mhz, c->l16_max_mhz, c->l16_bus_mhz);
    else
        out_printf("cpuid 0x16: not present\n");
    out_printf("firmware: %s revision 0x%08x, UEFI %u.%u\n", fwv, fw_revision(),
               uefi >> 16, (uefi & 0xFFFF) / 10);
    if (sysinfo_fwid.sha256[0])
        out_printf("firmware id: sha256 %s (%u volumes, %llu KiB; %u variable stores left out)%s\n",
                   sysinfo_fwid.sha256, sysinfo_fwid.hashed, (unsigned long long)(sysinfo_fwid.bytes >> 10),
                   sysinfo_fwid.nv_stores, sysinfo_fwid.bad ? "; some volumes unreadable" : "");
    else
        out_printf("firmware id: unknown: %s\n", sysinfo_fwid.why);
    out_printf("memory: %llu MiB conventional\n", (unsigned long long)(mem >> 20));
    out_printf("microcode: %s\n", sysinfo_ucode);
    if (sysinfo_sm.found)
        out_printf("smbios %u.%u: %s %s (version %s), serial %s, UUID %s; BIOS %s %s (%s)\n", sysinfo_sm.major,
                   sysinfo_sm.minor, sysinfo_sm.manufacturer, sysinfo_sm.product, sysinfo_sm.version,
                   sysinfo_sm.serial[0] ? sysinfo_sm.serial : "none", sysinfo_sm.uuid[0] ? sysinfo_sm.uuid : "not set",
                   sysinfo_sm.bios_vendor, sysinfo_sm.bios_version, sysinfo_sm.bios_date);
    else
        out_printf("smbios: no system information from the firmware (the machine is named by its CPU and firmware)\n");
    out_printf("acpi: %s; FADT %s, HPET %s, MADT %s\n",
               ai->rsdp_found ? (ai->using_xsdt ? "RSDP -> XSDT" : "RSDP -> RSDT") : "no RSDP",
               acpi_state_name(ai->fadt), acpi_state_name(ai->hpet), acpi_state_name(ai->madt));
}

static void sysinfo_json(const struct acpi_info *ai, const char *fwv, uint64_t mem, const struct run_env *env)
{
    const struct cpu_info *c = &cpu_info;
    char when[32];
    struct json_writer *w = results_section_begin("system", 0);

    fw_time_iso(when, sizeof when);
    json_str(w, "started", when);
    json_str(w, "cpu_vendor", c->vendor);
    json_str(w, "cpu_brand", c->brand);
    json_u64(w, "family", c->family);
    json_u64(w, "model", c->model);
    json_u64(w, "stepping", c->stepping);
    json_fig_u64(w, &figures_system, FIG_SYSTEM_LOGICAL_CPUS, sysinfo_cpus(ai));
    json_str(w, "hypervisor", c->hypervisor_present ? c->hypervisor : "");
    json_str(w, "hypervisor_hidden", env->vm_hidden ? env->vm_hidden : "");
    json_bool(w, "rdtsc", c->has_tsc);
    json_bool(w, "rdtscp", c->has_rdtscp);
    json_bool(w, "invariant_tsc", c->has_invariant_tsc);
    json_obj_begin(w, "cpuid_15");
    json_u64(w, "eax", c->l15_eax);
    json_u64(w, "ebx", c->l15_ebx);
    json_u64(w, "ecx", c->l15_ecx);
    json_obj_end(w);
    json_obj_begin(w, "cpuid_16");
    json_u64(w, "base_mhz", c->l16_base_mhz);
    json_u64(w, "max_mhz", c->l16_max_mhz);
    json_u64(w, "bus_mhz", c->l16_bus_mhz);
    json_obj_end(w);
    json_str(w, "firmware_vendor", fwv);
    json_u64(w, "firmware_revision", fw_revision());
    json_u64(w, "uefi_revision", fw_uefi_revision());
    if (sysinfo_fwid.sha256[0])
        json_str(w, "firmware_id", sysinfo_fwid.sha256);
    else {
        char why[160];
        snprintf(why, sizeof why, "unknown: %s", sysinfo_fwid.why);
        json_str(w, "firmware_id", why);
    }
    json_obj_begin(w, "firmware_volumes");
    json_u64(w, "hashed", sysinfo_fwid.hashed);
    json_u64(w, "bytes", sysinfo_fwid.bytes);
    json_u64(w, "variable_stores", sysinfo_fwid.nv_stores);
    json_u64(w, "unreadable", sysinfo_fwid.bad);
    if (sysinfo_fwid_ms >= 0)
        json_double(w, "ms", sysinfo_fwid_ms);
    else
        json_null(w, "ms");
    json_obj_end(w);
    json_fig_u64(w, &figures_system, FIG_SYSTEM_MEMORY_MIB, mem >> 20);
    json_str(w, "microcode", sysinfo_ucode);
    if (sysinfo_sm.found) {
        json_obj_begin(w, "smbios");
        json_str(w, "uuid", sysinfo_sm.uuid);
        json_str(w, "manufacturer", sysinfo_sm.manufacturer);
        json_str(w, "product", sysinfo_sm.product);
        json_str(w, "version", sysinfo_sm.version);
        json_str(w, "serial", sysinfo_sm.serial);
        json_str(w, "bios_vendor", sysinfo_sm.bios_vendor);
        json_str(w, "bios_version", sysinfo_sm.bios_version);
        json_str(w, "bios_date", sysinfo_sm.bios_date);
        json_obj_end(w);
    }
    json_obj_begin(w, "acpi");
    json_str(w, "fadt", acpi_state_name(ai->fadt));
    json_str(w, "hpet", acpi_state_name(ai->hpet));
    json_str(w, "madt", acpi_state_name(ai->madt));
    json_u64(w, "pm_timer_port", ai->pm_timer_port);
    json_u64(w, "hpet_base", ai->hpet_base);
    json_obj_end(w);
    secureboot_json(w);
    results_section_end();
}

void sysinfo_report(struct acpi_info *ai, const struct run_env *env)
{
    char fwv[128];
    uint64_t mem = fw_conventional_memory();

    fw_vendor(fwv, sizeof fwv);
    sysinfo_acpi(ai);
    fwvol_identity(ai, &sysinfo_fwid, &sysinfo_fwid_ms);
    sysinfo_smbios();
    sysinfo_microcode();
    sysinfo_print(ai, fwv, mem, env);
    secureboot_probe();
    sysinfo_json(ai, fwv, mem, env);
}
