/*
 * boot/sysinfo.h - what the machine is: printed and written as the
 * "system" section (CPU, hypervisor, TSC features, firmware, memory, CPUs,
 * ACPI tables) together with the build facts.
 */
#ifndef BAREMARK_SYSINFO_H
#define BAREMARK_SYSINFO_H

#include "acpi.h"

struct run_env;

/* Discover ACPI tables, print the banner's system block, write "system"
 * (with what the run's environment decided: a hypervisor CPUID hides). */
void sysinfo_report(struct acpi_info *ai, const struct run_env *env);

#endif
