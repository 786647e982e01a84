/*
 * tools/host/validate/validate_system.c - the build (boot/main.c), system (boot/sysinfo.c) and
 * host (tools/host/platform/host_doc.c) sections of a results document.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

static const struct rv_field build_fields[] = {
    { "version", RV_STR, REQ, NULL, NULL, NOMIN },
    { "compiler", RV_STR, REQ, NULL, NULL, NOMIN },
    { "flags", RV_STR, REQ, NULL, NULL, NOMIN },
    { "target", RV_STR, REQ, NULL, NULL, NOMIN },
    { NULL },
};

/* tools/host/platform/platform_host.c host_doc_begin(): the machine of a hosted
 * program's document. */
static const struct rv_field host_fields[] = {
    { "cpu_vendor", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cpu_brand", RV_STR, REQ, NULL, NULL, NOMIN },
    { "os", RV_STR, OPT, NULL, NULL, NOMIN },
    { NULL },
};

/* kernel/acpi.c acpi_state_name() */
#define ACPI_STATES "found|absent|INVALID (bad checksum)"

static const struct rv_field system_fields[] = {
    { "started", RV_STR, OPT, "ISO 8601 local firmware time", NULL, NOMIN },
    { "cpu_vendor", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cpu_brand", RV_STR, REQ, NULL, NULL, NOMIN },
    { "family", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "model", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "stepping", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "hypervisor", RV_STR, OPT, NULL, NULL, NOMIN },
    { "rdtsc", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "rdtscp", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "invariant_tsc", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "cpuid_15", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "cpuid_15.eax", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "cpuid_15.ebx", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "cpuid_15.ecx", RV_UINT, REQ, "Hz", NULL, NOMIN },
    { "cpuid_16", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "cpuid_16.base_mhz", RV_UINT, REQ, "MHz", NULL, NOMIN },
    { "cpuid_16.max_mhz", RV_UINT, REQ, "MHz", NULL, NOMIN },
    { "cpuid_16.bus_mhz", RV_UINT, REQ, "MHz", NULL, NOMIN },
    { "firmware_vendor", RV_STR, OPT, NULL, NULL, NOMIN },
    { "firmware_revision", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "uefi_revision", RV_UINT, OPT, "major << 16 | minor", NULL, NOMIN },
    /* boot/fwvol.c: 64 hex digits, or "unknown: WHY" */
    { "firmware_id", RV_STR, OPT, NULL, NULL, NOMIN },
    { "firmware_volumes", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "firmware_volumes.hashed", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "firmware_volumes.bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "firmware_volumes.variable_stores", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "firmware_volumes.unreadable", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "firmware_volumes.ms", RV_NUM_OR_NULL, REQ, "ms (null: no PM timer)", NULL, NOMIN },
    { "microcode", RV_STR, OPT, NULL, NULL, NOMIN },
    { "smbios", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "smbios.uuid", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.manufacturer", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.product", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.version", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.serial", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.bios_vendor", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.bios_version", RV_STR, REQ, NULL, NULL, NOMIN },
    { "smbios.bios_date", RV_STR, REQ, NULL, NULL, NOMIN },
    { "acpi", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "acpi.fadt", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.hpet", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.madt", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.pm_timer_port", RV_UINT, OPT, "I/O port", NULL, NOMIN },
    { "acpi.hpet_base", RV_UINT, OPT, "physical address", NULL, NOMIN },
    /* boot/secureboot.c secureboot_json() */
    { "secure_boot", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "secure_boot.enabled", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "secure_boot.supported", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "secure_boot.setup_mode", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "secure_boot.audit_mode", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "secure_boot.deployed_mode", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "secure_boot.shim", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "secure_boot.shim_validation_disabled", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "secure_boot.image_path", RV_STR, REQ, NULL, NULL, NOMIN },
    { "secure_boot.image_bytes", RV_UINT, OPT, "bytes", NULL, NOMIN },
    { "secure_boot.image_sha256", RV_STR, OPT, NULL, NULL, NOMIN },
    { "secure_boot.image_signed", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "secure_boot.image_authenticode_sha256", RV_STR, OPT, NULL, NULL, NOMIN },
    { NULL },
};

/* The vendor strings are CPUID's: the page and the terminal show them, so
 * anything else in them is not what the image wrote. */
static void system_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    rv_cpuid_text(sec, "cpu_vendor", where, file, problems, quiet);
    rv_cpuid_text(sec, "hypervisor", where, file, problems, quiet);
}

const struct rv_section rv_section_build = { "build", 0, build_fields, NULL };
const struct rv_section rv_section_system = { "system", 0, system_fields, system_check };
const struct rv_section rv_section_host = { "host", 0, host_fields, system_check };
