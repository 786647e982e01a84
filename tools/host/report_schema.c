/*
 * tools/host/report_schema.c - schema 1 of the results file, field by field.
 * Keep in step with docs/results-schema.md and with the code that writes
 * each section (boot/run.c, boot/main.c, boot/sysinfo.c, kernel/clock.c,
 * bench/methods.c, bench/compare.c, bench/bytemark/bytemark.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_schema.h"
#include "report_util.h"

#define REQ 1
#define OPT 0
#define NOMIN NAN

const char *rv_type_text(enum rv_type t)
{
    static const char *const names[] = {
        [RV_STR] = "a string", [RV_UINT] = "a non-negative integer", [RV_INT] = "an integer",
        [RV_NUM] = "a number", [RV_NUM_OR_NULL] = "a number or null", [RV_BOOL] = "a boolean",
        [RV_OBJ] = "an object", [RV_ARR] = "an array", [RV_NUMS] = "an array of numbers",
        [RV_STRS] = "an array of strings",
    };
    return names[t];
}

/* ---- top level (boot/run.c) ------------------------------------------------- */

const struct rv_field rv_top_fields[] = {
    { "schema", RV_UINT, REQ, NULL, NULL, 1 },
    { "name", RV_STR, OPT, NULL, NULL, NOMIN },
    { "errors", RV_STRS, REQ, NULL, NULL, NOMIN },
    { "status", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "ended", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { NULL },
};

static void rv_say(const char *file, const char *where, const char *msg, int *problems, int quiet)
{
    if (!quiet)
        printf("%s: %s: %s\n", file, where, msg);
    (*problems)++;
}

void rv_top_check(json_t *root, const char *file, int *problems, int quiet)
{
    json_t *schema = json_object_get(root, "schema");
    json_t *status = json_object_get(root, "status");
    json_t *errors = json_object_get(root, "errors");
    char msg[160];

    if (json_is_integer(schema) && json_integer_value(schema) != RJ_SCHEMA_VERSION) {
        snprintf(msg, sizeof msg, "version %lld is not %d, the version these tools know",
                 (long long)json_integer_value(schema), RJ_SCHEMA_VERSION);
        rv_say(file, "schema", msg, problems, quiet);
    }
    if (json_is_integer(status)) {
        long long s = json_integer_value(status);
        if (s != 0 && s != 2 && s != 3) {
            snprintf(msg, sizeof msg, "%lld is not a run status (0 completed and saved, 2 with warnings, 3 could not run)", s);
            rv_say(file, "status", msg, problems, quiet);
        }
        /* Every warning or fatal error raises the status (boot/run.c). */
        if (s == 0 && json_is_array(errors) && json_array_size(errors) > 0)
            rv_say(file, "status", "is 0 but the errors list is not empty (a warning makes it 2, a fatal error 3)",
                   problems, quiet);
    }
}

/* ---- build (boot/main.c) and system (boot/sysinfo.c) -------------------------- */

static const struct rv_field build_fields[] = {
    { "version", RV_STR, REQ, NULL, NULL, NOMIN },
    { "compiler", RV_STR, REQ, NULL, NULL, NOMIN },
    { "flags", RV_STR, REQ, NULL, NULL, NOMIN },
    { "target", RV_STR, REQ, NULL, NULL, NOMIN },
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
    { "logical_cpus", RV_UINT, OPT, NULL, NULL, 1 },
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
    { "memory_mib", RV_UINT, OPT, "MiB", NULL, NOMIN },
    { "acpi", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "acpi.fadt", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.hpet", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.madt", RV_STR, REQ, NULL, ACPI_STATES, NOMIN },
    { "acpi.pm_timer_port", RV_UINT, OPT, "I/O port", NULL, NOMIN },
    { "acpi.hpet_base", RV_UINT, OPT, "physical address", NULL, NOMIN },
    { NULL },
};

/* ---- the measuring sections ----------------------------------------------------
 * Until a section's writer lands, only its kind (object or array) is
 * checked; see docs/results-schema.md. */

static const struct rv_field clock_fields[] = { { NULL } };
static const struct rv_field methods_fields[] = { { NULL } };
static const struct rv_field comparisons_fields[] = { { NULL } };
static const struct rv_field bytemark_fields[] = { { NULL } };

const struct rv_section rv_sections[] = {
    { "build", 0, build_fields, NULL },
    { "system", 0, system_fields, NULL },
    { "clock", 0, clock_fields, NULL },
    { "methods", 0, methods_fields, NULL },
    { "comparisons", 0, comparisons_fields, NULL },
    { "bytemark", 0, bytemark_fields, NULL },
    { NULL },
};
