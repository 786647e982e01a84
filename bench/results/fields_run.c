/*
 * bench/results/fields_run.c - the fields that are not figures of the
 * run's own members (figures_run.h): the top level (boot/results_doc.c;
 * "status" and "stage" are validate's own check), build (boot/main.c)
 * and system (boot/sysinfo.c, boot/secureboot.c, boot/fwvol.c).
 * `baremark validate` walks them (bench/results/figures.h, struct
 * figure_field_row).
 */
#include "figures.h"

/* kernel/acpi.c acpi_state_name() */
#define ACPI_STATES "found|absent|INVALID (bad checksum)"

const struct figure_field_row fields_run[] = {
    FIELD_ROW("name", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("errors", FIELD_STRS, FIELD_OPT, NULL),   /* required of the image: rv_top_check */
    FIELD_ROW_WORDS("platform", FIELD_OPT, "uefi|linux"),
    /* "profile": its figure row's field (figures_run.h) */
    /* "status": 0, 2, 3 or "interrupted" (with "stage"): rv_top_status */
    FIELD_ROW("ended", FIELD_BOOL, FIELD_REQ, NULL),
    { NULL },
};

const struct figure_field_row fields_build[] = {
    FIELD_ROW("version", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("compiler", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("flags", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("target", FIELD_STR, FIELD_REQ, NULL),
    { NULL },
};

const struct figure_field_row fields_system[] = {
    FIELD_ROW("started", FIELD_STR, FIELD_OPT, "ISO 8601 local firmware time"),
    FIELD_ROW("cpu_vendor", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("cpu_brand", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("family", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW("model", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW("stepping", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW("hypervisor", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("hypervisor_hidden", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("rdtsc", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("rdtscp", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("invariant_tsc", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("cpuid_15", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("cpuid_15.eax", FIELD_UINT, FIELD_REQ, NULL),
    FIELD_ROW("cpuid_15.ebx", FIELD_UINT, FIELD_REQ, NULL),
    FIELD_ROW("cpuid_15.ecx", FIELD_UINT, FIELD_REQ, "Hz"),
    FIELD_ROW("cpuid_16", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("cpuid_16.base_mhz", FIELD_UINT, FIELD_REQ, "MHz"),
    FIELD_ROW("cpuid_16.max_mhz", FIELD_UINT, FIELD_REQ, "MHz"),
    FIELD_ROW("cpuid_16.bus_mhz", FIELD_UINT, FIELD_REQ, "MHz"),
    FIELD_ROW("firmware_vendor", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("firmware_revision", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW("uefi_revision", FIELD_UINT, FIELD_OPT, "major << 16 | minor"),
    /* boot/fwvol.c: 64 hex digits, or "unknown: WHY" */
    FIELD_ROW("firmware_id", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("firmware_volumes", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("firmware_volumes.hashed", FIELD_UINT, FIELD_REQ, NULL),
    FIELD_ROW("firmware_volumes.bytes", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("firmware_volumes.variable_stores", FIELD_UINT, FIELD_REQ, NULL),
    FIELD_ROW("firmware_volumes.unreadable", FIELD_UINT, FIELD_REQ, NULL),
    FIELD_ROW("firmware_volumes.ms", FIELD_NUM_OR_NULL, FIELD_REQ, "ms (null: no PM timer)"),
    FIELD_ROW("microcode", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("smbios", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("smbios.uuid", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.manufacturer", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.product", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.version", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.serial", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.bios_vendor", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.bios_version", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("smbios.bios_date", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("acpi", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW_WORDS("acpi.fadt", FIELD_REQ, ACPI_STATES),
    FIELD_ROW_WORDS("acpi.hpet", FIELD_REQ, ACPI_STATES),
    FIELD_ROW_WORDS("acpi.madt", FIELD_REQ, ACPI_STATES),
    FIELD_ROW("acpi.pm_timer_port", FIELD_UINT, FIELD_OPT, "I/O port"),
    FIELD_ROW("acpi.hpet_base", FIELD_UINT, FIELD_OPT, "physical address"),
    /* boot/secureboot.c secureboot_json() */
    FIELD_ROW("secure_boot", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.enabled", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("secure_boot.supported", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("secure_boot.setup_mode", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.audit_mode", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.deployed_mode", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.shim", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("secure_boot.shim_validation_disabled", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.image_path", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("secure_boot.image_bytes", FIELD_UINT, FIELD_OPT, "bytes"),
    FIELD_ROW("secure_boot.image_sha256", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.image_signed", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("secure_boot.image_authenticode_sha256", FIELD_STR, FIELD_OPT, NULL),
    { NULL },
};
