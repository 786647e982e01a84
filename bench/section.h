/*
 * bench/section.h - a measuring section as efi_main runs it: what it is
 * handed and what it returns.  Portable: a section in bench/ or kernel/
 * includes this header, never boot/'s.
 *
 * A section prints its text (out_printf), writes its results member
 * (results_section_begin/_end) and returns SECTION_OK, or SECTION_WARNINGS
 * when something was skipped or failed.
 */
#ifndef BAREMARK_SECTION_H
#define BAREMARK_SECTION_H

#include <stdint.h>

struct bm_config;
struct acpi_info;

/* What a section returns (the run's status rises to it). */
#define SECTION_OK       0
#define SECTION_WARNINGS 2

/* What efi_main hands every section. */
struct section_ctx {
    const struct bm_config *cfg;        /* the run's settings */
    const struct acpi_info *acpi;       /* the ACPI tables sysinfo found */
    /* Set the TSC frequency the rest of the run sees through plat_tick_hz
     * (the clock section calls it once it has calibrated). */
    void (*set_tick_hz)(uint64_t hz);
};

#endif
