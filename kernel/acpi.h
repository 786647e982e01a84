/*
 * kernel/acpi.h - ACPI tables from the firmware's RSDP (ACPI 2.0+: XSDT,
 * falling back to the RSDT), with checksums validated.  A missing or invalid
 * table is reported and whatever depends on it is skipped.
 */
#ifndef BAREMARK_ACPI_H
#define BAREMARK_ACPI_H

#include <stdint.h>

enum acpi_table_state { ACPI_ABSENT, ACPI_OK, ACPI_BAD_CHECKSUM };

struct acpi_info {
    int rsdp_found, rsdp_revision, using_xsdt;
    char oem_id[7];
    enum acpi_table_state fadt, hpet, madt;
    /* FADT: ACPI PM timer (0 = none), 24 or 32 bits. */
    uint32_t pm_timer_port;
    int pm_timer_32bit;
    /* HPET table: MMIO base of the first timer block (0 = none). */
    uint64_t hpet_base;
    /* MADT: enabled local APICs / x2APICs = logical CPUs. */
    uint32_t madt_cpus;
};

/* Parse the tables from an RSDP pointer (NULL = none). */
void acpi_init(struct acpi_info *ai, const void *rsdp);
const char *acpi_state_name(enum acpi_table_state s);

#endif
