/*
 * tools/host/validate/validate_system.c - the build (boot/main.c), system (boot/sysinfo.c) and
 * host (tools/host/platform/host_doc.c) sections of a results document: their
 * fields are bench/results/fields_run.c's and bench/system/fields_host.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

/* The vendor strings are CPUID's: the page and the terminal show them, so
 * anything else in them is not what the image wrote. */
static void system_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    rv_cpuid_text(sec, "cpu_vendor", where, file, problems, quiet);
    rv_cpuid_text(sec, "hypervisor", where, file, problems, quiet);
}

const struct rv_section rv_section_build = { "build", 0, NULL };
const struct rv_section rv_section_system = { "system", 0, system_check };
const struct rv_section rv_section_host = { "host", 0, system_check };
