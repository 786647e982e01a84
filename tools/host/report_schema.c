/*
 * tools/host/report_schema.c - schema 1 of the results file, field by field.
 * Keep in step with docs/results-schema.md and with the code that writes
 * each section (boot/run.c, boot/main.c, boot/sysinfo.c, kernel/clock.c,
 * bench/methods.c, bench/compare.c, bench/bytemark/bytemark.c,
 * tools/host/cmd_quiet.c).
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
        [RV_OBJ] = "an object", [RV_OBJ_OR_NULL] = "an object or null", [RV_ARR] = "an array", [RV_NUMS] = "an array of numbers",
        [RV_STRS] = "an array of strings",
    };
    return names[t];
}

/* ---- top level (boot/run.c) ------------------------------------------------- */

const struct rv_field rv_top_fields[] = {
    { "schema", RV_UINT, REQ, NULL, NULL, 1 },
    { "name", RV_STR, OPT, NULL, NULL, NOMIN },
    { "errors", RV_STRS, OPT, NULL, NULL, NOMIN },   /* required of the image: rv_top_check */
    { "platform", RV_STR, OPT, NULL, "uefi|linux", NOMIN },
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

    /* The image always lists its errors; the hosted program's documents
     * (tools/host/cmd_bytemark.c, "platform": "linux") may leave them out. */
    if (!errors && strcmp(rj_str(root, "platform", "uefi"), "linux"))
        rv_say(file, "errors", "missing: an array of strings is required in an image's results", problems, quiet);
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

/* tools/host/platform_host.c host_doc_begin(): the machine of a hosted
 * program's document. */
static const struct rv_field host_fields[] = {
    { "cpu_vendor", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cpu_brand", RV_STR, REQ, NULL, NULL, NOMIN },
    { "logical_cpus", RV_UINT, REQ, "CPUs online", NULL, 1 },
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

/* kernel/clock.c clock_names[], in its order of trust. */
#define CLOCK_REFS "hpet|pm_timer|pit|cpuid_15|cpuid_16"

/* bench/quiet.c quiet_json(): the clock's "quiet" member and the hosted
 * program's top-level "quiet" section (tools/host/cmd_quiet.c). */
#define QUIET_FIELDS(P) \
    { P "ms", RV_UINT, REQ, "ms", NULL, 1 }, \
    { P "tick_hz", RV_UINT, REQ, "Hz", NULL, 1 }, \
    { P "masked", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { P "reads", RV_UINT, REQ, "reads", NULL, NOMIN }, \
    { P "elapsed_ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { P "min_gap_ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { P "max_gap_ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { P "max_gap_at_ticks", RV_UINT, OPT, "ticks after the first read", NULL, NOMIN }, \
    { P "gaps_over_1us", RV_UINT, REQ, "gaps", NULL, NOMIN }, \
    { P "gaps_over_10us", RV_UINT, REQ, "gaps", NULL, NOMIN }, \
    { P "gaps_over_100us", RV_UINT, OPT, "gaps", NULL, NOMIN }, \
    { P "gaps_over_1ms", RV_UINT, OPT, "gaps", NULL, NOMIN }, \
    { P "gaps_per_second", RV_NUM, REQ, "gaps over 1 us per s", NULL, 0 }

/* bench/quiet.c quiet_phase_totals_json(): a section's measuring phases. */
#define QUIET_PHASES_FIELDS \
    { "quiet_phases", RV_OBJ, OPT, NULL, NULL, NOMIN }, \
    { "quiet_phases.phases", RV_UINT, REQ, "phases", NULL, NOMIN }, \
    { "quiet_phases.timer_stopped_phases", RV_UINT, REQ, "phases", NULL, NOMIN }, \
    { "quiet_phases.timer_period_100ns", RV_UINT, REQ, "100 ns", NULL, NOMIN }, \
    { "quiet_phases.timer_note", RV_STR, OPT, NULL, NULL, NOMIN }, \
    { "quiet_phases.ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "quiet_phases.nmis", RV_UINT, REQ, "NMIs", NULL, NOMIN }, \
    { "quiet_phases.smi_counted", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { "quiet_phases.smis", RV_UINT, OPT, "SMIs", NULL, NOMIN }, \
    { "quiet_phases.aperf_mperf", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { "quiet_phases.aperf", RV_UINT, OPT, "cycles", NULL, NOMIN }, \
    { "quiet_phases.mperf", RV_UINT, OPT, "cycles", NULL, NOMIN }

static const struct rv_field clock_fields[] = {
    { "references", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "references[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "references[].name", RV_STR, REQ, NULL, CLOCK_REFS, NOMIN },
    { "references[].kind", RV_STR, OPT, NULL, "measured|stated", NOMIN },
    { "references[].khz", RV_NUM, REQ, "kHz", NULL, 0 },
    { "references[].ppm", RV_NUM, REQ, "ppm", NULL, 0 },
    { "references[].stated_from", RV_STR, OPT, NULL, NULL, NOMIN },
    { "references[].counter_hz", RV_NUM, OPT, "Hz", NULL, 0 },
    { "references[].counter_bits", RV_UINT, OPT, "bits", NULL, 1 },
    { "references[].counter_started", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "references[].windows", RV_NUMS, OPT, "kHz", NULL, NOMIN },
    { "references[].windows_ppm", RV_NUMS, OPT, "ppm", NULL, NOMIN },
    { "references[].windows_ms", RV_NUMS, OPT, "ms", NULL, NOMIN },
    { "references[].windows_refined", RV_ARR, OPT, "booleans", NULL, NOMIN },
    { "references[].windows_rejected", RV_ARR, OPT, "booleans", NULL, NOMIN },
    { "references[].window_used", RV_UINT, OPT, "index into windows", NULL, NOMIN },
    { "references[].windows_failed", RV_UINT, OPT, "windows", NULL, NOMIN },
    { "references[].read_ticks", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "references[].slow_limit_ticks", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "references[].slow_edges", RV_UINT, OPT, "edges", NULL, NOMIN },
    { "unavailable", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "unavailable[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "unavailable[].name", RV_STR, REQ, NULL, CLOCK_REFS, NOMIN },
    { "unavailable[].present", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "unavailable[].why", RV_STR, REQ, NULL, NULL, NOMIN },
    { "agreement", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "agreement.bound_ppm", RV_NUM, REQ, "ppm", NULL, 0 },
    { "agreement.pairs", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "agreement.pairs[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "agreement.pairs[].a", RV_STR, REQ, NULL, CLOCK_REFS, NOMIN },
    { "agreement.pairs[].b", RV_STR, REQ, NULL, CLOCK_REFS, NOMIN },
    { "agreement.pairs[].ppm", RV_NUM, REQ, "ppm of b", NULL, NOMIN },
    { "agreement.pairs[].measured", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "agreement.max_measured_ppm", RV_NUM, REQ, "ppm", NULL, 0 },
    { "agreement.agree", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "chosen_khz", RV_NUM_OR_NULL, REQ, "kHz", NULL, 0 },
    { "source", RV_STR, OPT, NULL, CLOCK_REFS, NOMIN },
    { "contested", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "order_of_trust", RV_STRS, OPT, NULL, NULL, NOMIN },
    { "calibration_ms", RV_NUM_OR_NULL, OPT, "ms", NULL, 0 },
    { "refined_ms", RV_NUM, OPT, "ms", NULL, 0 },
    { "short_windows", RV_UINT, OPT, "windows", NULL, NOMIN },
    { "short_ms", RV_UINT, OPT, "ms", NULL, NOMIN },
    { "quiet_phase", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "quiet_phase.timer_stopped", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "quiet_phase.timer_period_100ns", RV_UINT, OPT, "100 ns", NULL, NOMIN },
    { "quiet_phase.timer_note", RV_STR, OPT, NULL, NULL, NOMIN },
    { "quiet_phase.nmis", RV_UINT, OPT, "NMIs", NULL, NOMIN },
    { "quiet_phase.smi_counted", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "quiet_phase.smis", RV_UINT, OPT, "SMIs", NULL, NOMIN },
    { "quiet_phase.aperf_mperf", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "quiet_phase.aperf", RV_UINT, OPT, "cycles", NULL, NOMIN },
    { "quiet_phase.mperf", RV_UINT, OPT, "cycles", NULL, NOMIN },
    { "unmasked", RV_STR, OPT, NULL, NULL, NOMIN },
    { "quiet", RV_OBJ, OPT, NULL, NULL, NOMIN },
    QUIET_FIELDS("quiet."),
    { "quiet_check_phase", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "quiet_check_phase.timer_stopped", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "quiet_check_phase.nmis", RV_UINT, OPT, "NMIs", NULL, NOMIN },
    { "quiet_check_phase.smis", RV_UINT, OPT, "SMIs", NULL, NOMIN },
    { NULL },
};

static const struct rv_field quiet_fields[] = {
    QUIET_FIELDS(""),
    { NULL },
};
/* bench/methods.c methods_section(): methods_status_name() and the members
 * written by methods_json_header, methods_part_method, methods_json_result,
 * methods_part_profile and methods_part_paoloni. */
#define METHODS_STATUSES "ok|bad_input|calibration_overhead|benchmark_overhead|too_short|inconclusive|" \
                         "unsupported|fault|no_memory"

static const struct rv_field methods_fields[] = {
    { "platform", RV_STR, OPT, NULL, "uefi|linux", NOMIN },
    { "tick_hz", RV_UINT, REQ, "Hz; 0 when the clock was not calibrated", NULL, NOMIN },
    { "clock_calibrated", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "interrupts_masked", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "profile", RV_STR, REQ, NULL, "quick|full", NOMIN },
    { "overhead_samples", RV_UINT, REQ, "timings per method", NULL, 1 },
    { "samples", RV_UINT, REQ, "timings per series", NULL, 1 },
    { "iterations", RV_UINT, REQ, "N", NULL, 1 },
    { "cpu", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "cpu.vendor", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cpu.hypervisor", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "cpu.hypervisor_vendor", RV_STR, OPT, NULL, NULL, NOMIN },
    { "cpu.rdtscp", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "cpu.invariant_tsc", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "cpu.lfence_serializing", RV_STR, REQ, NULL, "yes|no|unknown", NOMIN },
    { "cpu.lfence_why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "cpu.amd_cpuid_80000021_eax_bit2", RV_STR, OPT, NULL, "set|clear|absent", NOMIN },
    { "cpu.amd_msr_c0011029_bit1", RV_STR, OPT, NULL, "set|clear|unread", NOMIN },
    { "methods", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "methods[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "methods[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "methods[].key", RV_STR, OPT, NULL, NULL, NOMIN },
    { "methods[].codetune", RV_UINT, OPT, "CodeTune method number, 0 = the vendor's sequence", NULL, NOMIN },
    { "methods[].start", RV_STR, REQ, "instructions", NULL, NOMIN },
    { "methods[].stop", RV_STR, REQ, "instructions", NULL, NOMIN },
    { "methods[].origin", RV_STR, OPT, NULL, NULL, NOMIN },
    { "methods[].supported", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "methods[].status", RV_STR, REQ, NULL, METHODS_STATUSES, NOMIN },
    { "methods[].status_code", RV_INT, OPT, "CodeTune status code", NULL, NOMIN },
    { "methods[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "methods[].flags", RV_STRS, OPT, NULL, NULL, NOMIN },
    { "methods[].overhead", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "methods[].overhead.n", RV_UINT, REQ, "timings", NULL, NOMIN },
    { "methods[].overhead.min", RV_UINT, REQ, "ticks", NULL, NOMIN },
    { "methods[].overhead.median", RV_NUM, REQ, "ticks", NULL, 0 },
    { "methods[].overhead.mean", RV_NUM, REQ, "ticks", NULL, 0 },
    { "methods[].overhead.sd", RV_NUM_OR_NULL, REQ, "ticks", NULL, 0 },
    { "methods[].overhead.mode", RV_NUM, OPT, "ticks", NULL, 0 },
    { "methods[].overhead.mode_pure", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "methods[].overhead.max", RV_UINT, REQ, "ticks", NULL, NOMIN },
    { "methods[].overhead.samples", RV_NUMS, REQ, "ticks", NULL, NOMIN },
    { "methods[].step_ticks", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "methods[].overhead_ns", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "methods[].overhead_ns.min", RV_NUM_OR_NULL, REQ, "ns", NULL, 0 },
    { "methods[].overhead_ns.median", RV_NUM_OR_NULL, REQ, "ns", NULL, 0 },
    { "methods[].overhead_ns.sd", RV_NUM_OR_NULL, REQ, "ns", NULL, 0 },
    { "measurements", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "measurements[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "measurements[].name", RV_STR, REQ, "TARGET/METHOD", NULL, NOMIN },
    { "measurements[].target", RV_STR, REQ, NULL, NULL, NOMIN },
    { "measurements[].method", RV_STR, REQ, NULL, NULL, NOMIN },
    { "measurements[].status", RV_STR, REQ, NULL, METHODS_STATUSES, NOMIN },
    { "measurements[].status_code", RV_INT, REQ, "CodeTune status code", NULL, NOMIN },
    { "measurements[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "measurements[].samples_requested", RV_UINT, REQ, "timings", NULL, NOMIN },
    { "measurements[].iterations", RV_UINT, REQ, "N", NULL, NOMIN },
    { "measurements[].instructions_fixed", RV_INT, OPT, "instructions", NULL, NOMIN },
    { "measurements[].instructions_per_iteration", RV_INT, OPT, "instructions", NULL, NOMIN },
    { "measurements[].calibration_retakes", RV_UINT, OPT, "timings", NULL, NOMIN },
    { "measurements[].benchmark_retakes", RV_UINT, OPT, "timings", NULL, NOMIN },
    { "measurements[].calibration_fence", RV_NUM, OPT, "ticks", NULL, NOMIN },
    { "measurements[].benchmark_fence", RV_NUM, OPT, "ticks", NULL, NOMIN },
    { "measurements[].placeholder_min", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "measurements[].placeholder_median", RV_NUM, OPT, "ticks", NULL, NOMIN },
    { "measurements[].routine_min", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "measurements[].routine_median", RV_NUM, OPT, "ticks", NULL, NOMIN },
    { "measurements[].min_t2", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "measurements[].min_tn2", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "measurements[].min_t2n", RV_UINT, OPT, "ticks", NULL, NOMIN },
    { "measurements[].mann_whitney_p", RV_NUM_OR_NULL, OPT, "probability", NULL, 0 },
    { "measurements[].per_iteration", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "measurements[].per_iteration.minus_placeholder", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, NOMIN },
    { "measurements[].per_iteration.apple", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, NOMIN },
    { "measurements[].per_iteration.n_vs_2n", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, NOMIN },
    { "measurements[].per_iteration_ns", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "measurements[].per_iteration_ns.minus_placeholder", RV_NUM_OR_NULL, REQ, "ns per iteration", NULL, NOMIN },
    { "measurements[].per_iteration_ns.apple", RV_NUM_OR_NULL, REQ, "ns per iteration", NULL, NOMIN },
    { "measurements[].per_iteration_ns.n_vs_2n", RV_NUM_OR_NULL, REQ, "ns per iteration", NULL, NOMIN },
    { "measurements[].net", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "measurements[].net.n", RV_UINT, REQ, "samples", NULL, NOMIN },
    { "measurements[].net.median", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, NOMIN },
    { "measurements[].net.mean", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, NOMIN },
    { "measurements[].net.sd", RV_NUM_OR_NULL, REQ, "ticks per iteration", NULL, 0 },
    { "measurements[].samples", RV_NUMS, OPT, "ticks", NULL, NOMIN },
    { "measurements[].placeholder_samples", RV_NUMS, OPT, "ticks", NULL, NOMIN },
    { "extended_profile", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "extended_profile.routine", RV_STR, REQ, NULL, NULL, NOMIN },
    { "extended_profile.methods_measured", RV_UINT, REQ, "methods", NULL, NOMIN },
    { "extended_profile.best_ticks", RV_NUM_OR_NULL, OPT, "ticks per iteration", NULL, NOMIN },
    { "extended_profile.best_ns", RV_NUM_OR_NULL, OPT, "ns per iteration", NULL, NOMIN },
    { "extended_profile.best_method", RV_STR, OPT, NULL, NULL, NOMIN },
    { "extended_profile.fastest_mean_ticks", RV_NUM_OR_NULL, OPT, "ticks per iteration", NULL, NOMIN },
    { "extended_profile.fastest_mean_ns", RV_NUM_OR_NULL, OPT, "ns per iteration", NULL, NOMIN },
    { "extended_profile.fastest_mean_method", RV_STR, OPT, NULL, NULL, NOMIN },
    { "paoloni", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "paoloni[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "paoloni[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "paoloni[].status", RV_STR, REQ, NULL, METHODS_STATUSES, NOMIN },
    { "paoloni[].ensembles", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "paoloni[].ensemble_size", RV_UINT, REQ, "timings", NULL, NOMIN },
    { "paoloni[].sizes", RV_UINT, REQ, "loop sizes", NULL, NOMIN },
    { "paoloni[].minima_variance", RV_NUM_OR_NULL, OPT, "ticks^2", NULL, 0 },
    { "paoloni[].distinct_minima", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "paoloni[].samples", RV_NUMS, OPT, "ticks: minimum of each ensemble", NULL, NOMIN },
    { "paoloni[].spurious_minima", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "paoloni[].slope_ticks_per_iteration", RV_NUM_OR_NULL, OPT, "ticks per iteration", NULL, NOMIN },
    { "paoloni[].intercept_ticks", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "paoloni[].r2", RV_NUM_OR_NULL, OPT, NULL, NULL, NOMIN },
    { "paoloni[].residual_variance", RV_NUM_OR_NULL, OPT, "ticks^2", NULL, 0 },
    { "paoloni[].growing_minima", RV_NUMS, OPT, "ticks", NULL, NOMIN },
    QUIET_PHASES_FIELDS,
    { NULL },
};

/* bench/compare.c compare_section() and compare_json(). */
#define COMPARE_VERDICTS "faster|slower|no difference"

static const struct rv_field comparisons_fields[] = {
    { "method", RV_STR, REQ, NULL, NULL, NOMIN },
    { "precision", RV_UINT, REQ, "calls per timing", NULL, 1 },
    { "accuracy", RV_UINT, REQ, "trials", NULL, 1 },
    { "profile", RV_STR, OPT, NULL, "quick|full", NOMIN },
    { "noise", RV_NUM, OPT, "fraction", NULL, 0 },
    { "seed", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "tick_hz", RV_UINT, OPT, "Hz; 0 when the clock was not calibrated", NULL, NOMIN },
    { "interrupts_masked", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "comparisons", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "comparisons[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "comparisons[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "comparisons[].kind", RV_STR, OPT, NULL, NULL, NOMIN },
    { "comparisons[].method", RV_STR, OPT, NULL, NULL, NOMIN },
    { "comparisons[].order", RV_STR, REQ, NULL, "alternate|random", NOMIN },
    { "comparisons[].precision", RV_UINT, OPT, "calls per timing", NULL, 1 },
    { "comparisons[].accuracy", RV_UINT, OPT, "trials", NULL, 1 },
    { "comparisons[].unit", RV_STR, OPT, NULL, "ticks", NOMIN },
    { "comparisons[].status", RV_STR, REQ, NULL, METHODS_STATUSES, NOMIN },
    { "comparisons[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "comparisons[].expect", RV_STR, OPT, NULL, COMPARE_VERDICTS "|none", NOMIN },
    { "comparisons[].a", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "comparisons[].a.name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "comparisons[].a.samples", RV_NUMS, REQ, "ticks, overhead subtracted", NULL, NOMIN },
    { "comparisons[].a.mean", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].a.sd", RV_NUM_OR_NULL, OPT, "ticks", NULL, 0 },
    { "comparisons[].a.median", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].a.mode", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].a.mode_pure", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "comparisons[].b", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "comparisons[].b.name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "comparisons[].b.samples", RV_NUMS, REQ, "ticks, overhead subtracted", NULL, NOMIN },
    { "comparisons[].b.mean", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].b.sd", RV_NUM_OR_NULL, OPT, "ticks", NULL, 0 },
    { "comparisons[].b.median", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].b.mode", RV_NUM_OR_NULL, OPT, "ticks", NULL, NOMIN },
    { "comparisons[].b.mode_pure", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "comparisons[].overhead", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "comparisons[].overhead.median", RV_NUM_OR_NULL, REQ, "ticks", NULL, NOMIN },
    { "comparisons[].b_first", RV_NUMS, OPT, "1 when B was timed first", NULL, 0 },
    { "comparisons[].diff_mean", RV_NUM_OR_NULL, OPT, "ticks, A - B", NULL, NOMIN },
    { "comparisons[].rel_mean", RV_NUM_OR_NULL, OPT, "(A - B) / B", NULL, NOMIN },
    { "comparisons[].diff_mode", RV_NUM_OR_NULL, OPT, "ticks, A - B", NULL, NOMIN },
    { "comparisons[].rel_mode", RV_NUM_OR_NULL, OPT, "(A - B) / B", NULL, NOMIN },
    { "comparisons[].diff_median", RV_NUM_OR_NULL, OPT, "ticks, A - B", NULL, NOMIN },
    { "comparisons[].rel_median", RV_NUM_OR_NULL, OPT, "(A - B) / B", NULL, NOMIN },
    { "comparisons[].z", RV_NUM_OR_NULL, OPT, "Karsh's Z", NULL, 0 },
    { "comparisons[].z_p", RV_NUM_OR_NULL, OPT, "probability", NULL, 0 },
    { "comparisons[].welch_t", RV_NUM_OR_NULL, OPT, NULL, NULL, NOMIN },
    { "comparisons[].welch_df", RV_NUM_OR_NULL, OPT, NULL, NULL, 0 },
    { "comparisons[].welch_p", RV_NUM_OR_NULL, OPT, "probability", NULL, 0 },
    { "comparisons[].mann_whitney_u", RV_NUM_OR_NULL, OPT, NULL, NULL, 0 },
    { "comparisons[].mann_whitney_z", RV_NUM_OR_NULL, OPT, NULL, NULL, NOMIN },
    { "comparisons[].mann_whitney_p", RV_NUM_OR_NULL, OPT, "probability", NULL, 0 },
    { "comparisons[].noise", RV_NUM, OPT, "fraction", NULL, 0 },
    { "comparisons[].verdict", RV_STR, OPT, NULL, COMPARE_VERDICTS, NOMIN },
    { "comparisons[].as_expected", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "resolution", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "resolution.null_experiments", RV_UINT, REQ, NULL, NULL, NOMIN },
    { "resolution.rel_mean", RV_NUM_OR_NULL, REQ, "fraction", NULL, 0 },
    { "resolution.rel_mode", RV_NUM_OR_NULL, REQ, "fraction", NULL, 0 },
    QUIET_PHASES_FIELDS,
    { NULL },
};
/* bench/bytemark/bytemark.c bm_json() and bm_json_test(). */
#define BM_STATUSES "ok|disabled|not_built|skipped_nomem|failed_cap|failed|failed_fault"

static const struct rv_field bytemark_fields[] = {
    { "profile", RV_STR, REQ, NULL, "quick|full", NOMIN },
    { "profile_requested", RV_STR, OPT, NULL, "auto|quick|full", NOMIN },
    { "hypervisor", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "min_runs", RV_UINT, OPT, "runs", NULL, 1 },
    { "max_runs", RV_UINT, OPT, "runs", NULL, 1 },
    { "profile_min_seconds", RV_NUM, OPT, "s", NULL, 0 },
    { "global_min_ticks", RV_UINT, OPT, "us of TSC time", NULL, NOMIN },
    { "align", RV_UINT, OPT, "bytes", NULL, NOMIN },
    { "tick_hz", RV_UINT, REQ, "Hz", NULL, 1 },
    { "compiler", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cflags", RV_STR, REQ, NULL, NULL, NOMIN },
    { "platform", RV_STR, OPT, NULL, NULL, NOMIN },
    { "comparable", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "not_comparable", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "not_comparable_why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "customrun", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "tests", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "tests[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "tests[].key", RV_STR, REQ, NULL, NULL, NOMIN },
    { "tests[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "tests[].id", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "tests[].status", RV_STR, REQ, NULL, BM_STATUSES, NOMIN },
    { "tests[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "tests[].unit", RV_STR, OPT, "work per second", NULL, NOMIN },
    { "tests[].min_seconds", RV_NUM, OPT, "s", NULL, 0 },
    { "tests[].workload", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "tests[].size", RV_STR, OPT, NULL, NULL, NOMIN },
    { "tests[].scores", RV_NUMS, OPT, "unit", NULL, NOMIN },
    { "tests[].runs", RV_UINT, OPT, "runs", NULL, NOMIN },
    { "tests[].mean", RV_NUM_OR_NULL, OPT, "unit", NULL, 0 },
    { "tests[].sd", RV_NUM_OR_NULL, OPT, "unit", NULL, 0 },
    { "tests[].t", RV_NUM_OR_NULL, OPT, NULL, NULL, 0 },
    { "tests[].half", RV_NUM_OR_NULL, OPT, "unit", NULL, 0 },
    { "tests[].rel_half", RV_NUM_OR_NULL, OPT, "fraction of the mean", NULL, 0 },
    { "tests[].certain", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "tests[].old_index", RV_NUM_OR_NULL, OPT, "Pentium 90 = 1", NULL, 0 },
    { "tests[].new_index", RV_NUM_OR_NULL, OPT, "AMD K6-233 = 1", NULL, 0 },
    { "tests[].base_p90", RV_NUM, OPT, "unit", NULL, 0 },
    { "tests[].base_k6", RV_NUM, OPT, "unit", NULL, 0 },
    { "indexes", RV_OBJ_OR_NULL, OPT, NULL, NULL, NOMIN },  /* null under CUSTOMRUN */
    { "indexes.original_integer", RV_NUM_OR_NULL, REQ, "Pentium 90 = 1", NULL, 0 },
    { "indexes.original_fp", RV_NUM_OR_NULL, REQ, "Pentium 90 = 1", NULL, 0 },
    { "indexes.linux_memory", RV_NUM_OR_NULL, REQ, "AMD K6-233 = 1", NULL, 0 },
    { "indexes.linux_integer", RV_NUM_OR_NULL, REQ, "AMD K6-233 = 1", NULL, 0 },
    { "indexes.linux_fp", RV_NUM_OR_NULL, REQ, "AMD K6-233 = 1", NULL, 0 },
    { "indexes.tests_missing", RV_UINT, OPT, "tests", NULL, NOMIN },
    QUIET_PHASES_FIELDS,
    { NULL },
};

/* Relative agreement of two figures the file states separately. */
#define RV_REL_TOL 1e-6

static int rv_close(double a, double b)
{
    return fabs(a - b) <= RV_REL_TOL * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* A kernel's figures must agree with each other and with its unit: the
 * unit is a rate (".../s"), runs counts the scores, the mean is theirs, the
 * indexes are the mean over the baselines, rel_half is half over mean. */
/* A section's quiet_phases (bench/quiet.c): the counts nest, a note says
 * why when a phase's timer was not stopped, and there is one phase per unit
 * of work the section did (`want`; negative: not checked). */
static void quiet_phases_check(json_t *sec, const char *where, long want, const char *file, int *problems,
                               int quiet)
{
    json_t *q = json_object_get(sec, "quiet_phases");
    char at[160], msg[200];
    if (!q)
        return;
    snprintf(at, sizeof at, "%s.quiet_phases", where);
    double n = rj_num(q, "phases", NAN), st = rj_num(q, "timer_stopped_phases", NAN);
    if (st > n)
        rv_say(file, at, "timer_stopped_phases is more than phases", problems, quiet);
    if (st < n && !json_object_get(q, "timer_note"))
        rv_say(file, at, "some phases kept the firmware timer running but timer_note does not say why",
               problems, quiet);
    if (st > 0 && rj_num(q, "timer_period_100ns", 0) <= 0)
        rv_say(file, at, "the timer was stopped but no period was restored", problems, quiet);
    if (want >= 0 && n != (double)want) {
        snprintf(msg, sizeof msg, "phases is %.0f, the section has %ld units of measured work", n, want);
        rv_say(file, at, msg, problems, quiet);
    }
}

static void bytemark_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *tests = json_object_get(sec, "tests"), *t;
    size_t i;
    long run = 0;
    json_array_foreach(tests, i, t) {
        const char *st = rj_str(t, "status", "");
        run += strcmp(st, "disabled") && strcmp(st, "not_built");
    }
    quiet_phases_check(sec, where, run, file, problems, quiet);
    char at[160], msg[256];
    json_array_foreach(tests, i, t) {
        json_t *scores = json_object_get(t, "scores");
        const char *unit = rj_str(t, "unit", NULL);
        double mean = rj_num(t, "mean", NAN), sum = 0;
        snprintf(at, sizeof at, "%s.tests[%zu] (%s)", where, i, rj_str(t, "key", "?"));
        if (unit && (strlen(unit) < 3 || strcmp(unit + strlen(unit) - 2, "/s"))) {
            snprintf(msg, sizeof msg, "unit \"%s\" is not a rate (scores are work per second: \".../s\")", unit);
            rv_say(file, at, msg, problems, quiet);
        }
        if (!json_is_array(scores))
            continue;
        if (!strcmp(rj_str(t, "status", ""), "ok") && json_array_size(scores) == 0)
            rv_say(file, at, "status ok but no scores", problems, quiet);
        if (json_object_get(t, "runs") && rj_num(t, "runs", -1) != (double)json_array_size(scores)) {
            snprintf(msg, sizeof msg, "runs is %g but %zu scores are listed", rj_num(t, "runs", -1),
                     json_array_size(scores));
            rv_say(file, at, msg, problems, quiet);
        }
        for (size_t k = 0; k < json_array_size(scores); k++)
            sum += json_number_value(json_array_get(scores, k));
        if (!isnan(mean) && json_array_size(scores) && !rv_close(mean, sum / json_array_size(scores))) {
            snprintf(msg, sizeof msg, "mean %.10g is not the mean of the scores (%.10g)", mean,
                     sum / json_array_size(scores));
            rv_say(file, at, msg, problems, quiet);
        }
        static const char *const idx[2][2] = { { "old_index", "base_p90" }, { "new_index", "base_k6" } };
        for (int k = 0; k < 2; k++) {
            double v = rj_num(t, idx[k][0], NAN), base = rj_num(t, idx[k][1], NAN);
            if (!isnan(v) && !isnan(base) && !isnan(mean) && !rv_close(v, mean / base)) {
                snprintf(msg, sizeof msg, "%s %.10g is not mean / %s (%.10g)", idx[k][0], v, idx[k][1], mean / base);
                rv_say(file, at, msg, problems, quiet);
            }
        }
        double half = rj_num(t, "half", NAN), rel = rj_num(t, "rel_half", NAN);
        if (!isnan(half) && !isnan(rel) && !isnan(mean) && mean > 0 && !rv_close(rel, half / mean)) {
            snprintf(msg, sizeof msg, "rel_half %.10g is not half / mean (%.10g)", rel, half / mean);
            rv_say(file, at, msg, problems, quiet);
        }
    }
}

/* Two copies of one figure the writer printed twice (exact to the printed
 * digits). */
static int rv_same(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* A ppm figure as written (clockm_round_ppm: 0.001 below 1000, 0.1 above)
 * against the one recomputed from the kHz. */
static int rv_ppm_close(double written, double exact)
{
    return fabs(written - exact) <= (fabs(exact) < 1000 ? 0.0006 : 0.06);
}

/* The quiet-machine counts nest (over 1 ms <= over 100 us <= ... <= reads)
 * and the rate is the count over the elapsed time. */
static void quiet_check_counts(json_t *q, const char *where, const char *file, int *problems, int quiet)
{
    static const char *const order[] = { "gaps_over_1ms", "gaps_over_100us", "gaps_over_10us",
                                         "gaps_over_1us", "reads" };
    char msg[256];
    double prev = -1, hz = rj_num(q, "tick_hz", NAN), el = rj_num(q, "elapsed_ticks", NAN);
    double n1 = rj_num(q, "gaps_over_1us", NAN), rate = rj_num(q, "gaps_per_second", NAN);

    if (!json_is_object(q))
        return;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        double v = rj_num(q, order[i], NAN);
        if (isnan(v))
            continue;
        if (prev > v) {
            snprintf(msg, sizeof msg, "%s (%g) is less than a count it contains (%g)", order[i], v, prev);
            rv_say(file, where, msg, problems, quiet);
        }
        prev = v;
    }
    if (rj_num(q, "max_gap_ticks", 0) < rj_num(q, "min_gap_ticks", 0))
        rv_say(file, where, "max_gap_ticks is below min_gap_ticks", problems, quiet);
    if (hz > 0 && el > 0 && !isnan(n1) && !isnan(rate) && !rv_close(rate, n1 / (el / hz))) {
        snprintf(msg, sizeof msg, "gaps_per_second %.10g is not gaps_over_1us / (elapsed_ticks / tick_hz) = %.10g",
                 rate, n1 / (el / hz));
        rv_say(file, where, msg, problems, quiet);
    }
}

static void quiet_section_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    quiet_check_counts(sec, where, file, problems, quiet);
}

/* A measured reference: its window arrays line up, the window used is in
 * range, not rejected, and its kHz and ppm are the reference's. */
static void clock_check_ref(json_t *ref, const char *at, const char *file, int *problems, int quiet)
{
    static const char *const arrays[] = { "windows_ppm", "windows_ms", "windows_refined", "windows_rejected" };
    json_t *win = json_object_get(ref, "windows");
    char msg[256];
    size_t n;

    if (!json_is_array(win)) {
        if (!strcmp(rj_str(ref, "kind", "measured"), "measured"))
            rv_say(file, at, "a measured reference lists no windows", problems, quiet);
        return;
    }
    n = json_array_size(win);
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        json_t *a = json_object_get(ref, arrays[k]);
        if (a && (!json_is_array(a) || json_array_size(a) != n)) {
            snprintf(msg, sizeof msg, "%s does not have one entry per window (%zu)", arrays[k], n);
            rv_say(file, at, msg, problems, quiet);
        }
    }
    json_t *used = json_object_get(ref, "window_used");
    if (!json_is_integer(used))
        return;
    size_t u = (size_t)json_integer_value(used);
    if (u >= n) {
        snprintf(msg, sizeof msg, "window_used %zu is not one of the %zu windows", u, n);
        rv_say(file, at, msg, problems, quiet);
        return;
    }
    double wk = json_number_value(json_array_get(win, u)), k = rj_num(ref, "khz", NAN);
    if (!rv_same(wk, k)) {
        snprintf(msg, sizeof msg, "khz %.17g is not windows[window_used] (%.17g)", k, wk);
        rv_say(file, at, msg, problems, quiet);
    }
    json_t *wp = json_array_get(json_object_get(ref, "windows_ppm"), u);
    if (json_is_number(wp) && json_number_value(wp) != rj_num(ref, "ppm", NAN)) {
        snprintf(msg, sizeof msg, "ppm %g is not windows_ppm[window_used] (%g)", rj_num(ref, "ppm", NAN),
                 json_number_value(wp));
        rv_say(file, at, msg, problems, quiet);
    }
    if (json_is_true(json_array_get(json_object_get(ref, "windows_rejected"), u)))
        rv_say(file, at, "the window used is marked rejected", problems, quiet);
}

static json_t *clock_ref_named(json_t *refs, const char *name)
{
    size_t i;
    json_t *r;
    json_array_foreach(refs, i, r)
        if (!strcmp(rj_str(r, "name", ""), name))
            return r;
    return NULL;
}

/* The agreement table is the references' kHz compared pair by pair. */
static void clock_check_agreement(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *ag = json_object_get(sec, "agreement"), *refs = json_object_get(sec, "references");
    json_t *pairs = json_object_get(ag, "pairs"), *p;
    double worst = 0, bound = rj_num(ag, "bound_ppm", NAN);
    char at[160], msg[256];
    size_t i;

    json_array_foreach(pairs, i, p) {
        json_t *a = clock_ref_named(refs, rj_str(p, "a", "")), *b = clock_ref_named(refs, rj_str(p, "b", ""));
        double ppm = rj_num(p, "ppm", NAN);
        snprintf(at, sizeof at, "%s.agreement.pairs[%zu]", where, i);
        if (!a || !b) {
            rv_say(file, at, "names a reference that is not in references", problems, quiet);
            continue;
        }
        double exact = (rj_num(a, "khz", NAN) - rj_num(b, "khz", NAN)) / rj_num(b, "khz", NAN) * 1e6;
        if (!rv_ppm_close(ppm, exact)) {
            snprintf(msg, sizeof msg, "ppm %g is not (a - b) / b of their kHz (%.4f)", ppm, exact);
            rv_say(file, at, msg, problems, quiet);
        }
        if (json_is_true(json_object_get(p, "measured")) && fabs(ppm) > worst)
            worst = fabs(ppm);
    }
    if (!json_is_object(ag))
        return;
    snprintf(at, sizeof at, "%s.agreement", where);
    if (json_is_array(pairs) && rj_num(ag, "max_measured_ppm", NAN) != worst) {
        snprintf(msg, sizeof msg, "max_measured_ppm %g is not the largest measured pair (%g)",
                 rj_num(ag, "max_measured_ppm", NAN), worst);
        rv_say(file, at, msg, problems, quiet);
    }
    json_t *agree = json_object_get(ag, "agree");
    if (json_is_boolean(agree) && !isnan(bound) && json_is_true(agree) != (rj_num(ag, "max_measured_ppm", 0) <= bound))
        rv_say(file, at, "agree does not follow from max_measured_ppm and bound_ppm", problems, quiet);
}

static void clock_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *refs = json_object_get(sec, "references"), *r;
    const char *source = rj_str(sec, "source", NULL);
    char at[160], msg[256];
    size_t i;

    json_array_foreach(refs, i, r) {
        snprintf(at, sizeof at, "%s.references[%zu] (%s)", where, i, rj_str(r, "name", "?"));
        clock_check_ref(r, at, file, problems, quiet);
    }
    if (source) {
        json_t *s = clock_ref_named(refs, source);
        double chosen = rj_num(sec, "chosen_khz", NAN);
        if (!s)
            rv_say(file, where, "source names no entry of references", problems, quiet);
        else if (!rv_same(chosen, rj_num(s, "khz", NAN))) {
            snprintf(msg, sizeof msg, "chosen_khz %.17g is not the source's khz (%.17g)", chosen, rj_num(s, "khz", NAN));
            rv_say(file, where, msg, problems, quiet);
        }
    } else if (json_is_number(json_object_get(sec, "chosen_khz"))) {
        rv_say(file, where, "chosen_khz is given but no source", problems, quiet);
    }
    clock_check_agreement(sec, where, file, problems, quiet);
    snprintf(at, sizeof at, "%s.quiet", where);
    quiet_check_counts(json_object_get(sec, "quiet"), at, file, problems, quiet);
}

/* min, max and mean of an array of numbers; n = 0 when not an array. */
static size_t rv_arr_stats(json_t *arr, double *mn, double *mx, double *mean)
{
    size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
    double sum = 0;
    *mn = INFINITY;
    *mx = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double v = json_number_value(json_array_get(arr, k));
        sum += v;
        *mn = fmin(*mn, v);
        *mx = fmax(*mx, v);
    }
    *mean = n ? sum / (double)n : NAN;
    return n;
}

static void rv_expect_close(double got, double want, const char *what, const char *at, const char *file,
                            int *problems, int quiet)
{
    char msg[256];
    if (isnan(got) || isnan(want) || rv_close(got, want))
        return;
    snprintf(msg, sizeof msg, "%s is %.10g, the samples give %.10g", what, got, want);
    rv_say(file, at, msg, problems, quiet);
}

/* A method's overhead summary agrees with its raw samples; supported
 * agrees with the status. */
static void methods_check_method(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    json_t *oh = json_object_get(m, "overhead");
    double mn, mx, mean;
    int sup = json_is_true(json_object_get(m, "supported"));
    const char *st = rj_str(m, "status", "");
    if (sup == !strcmp(st, "unsupported"))
        rv_say(file, at, sup ? "supported but its status is \"unsupported\""
                             : "not supported but its status is not \"unsupported\"", problems, quiet);
    if (!sup && oh)
        rv_say(file, at, "not supported, yet it has an overhead (an unsupported method is never executed)",
               problems, quiet);
    size_t n = rv_arr_stats(json_object_get(oh, "samples"), &mn, &mx, &mean);
    if (!oh || !n)
        return;
    rv_expect_close(rj_num(oh, "n", NAN), (double)n, "overhead.n", at, file, problems, quiet);
    rv_expect_close(rj_num(oh, "min", NAN), mn, "overhead.min", at, file, problems, quiet);
    rv_expect_close(rj_num(oh, "max", NAN), mx, "overhead.max", at, file, problems, quiet);
    rv_expect_close(rj_num(oh, "mean", NAN), mean, "overhead.mean", at, file, problems, quiet);
}

/* A measurement's minima and estimators agree with its samples and with
 * each other (methods.h: the three estimators). */
static void methods_check_measurement(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    json_t *pi = json_object_get(m, "per_iteration");
    double mn, mx, mean, pmn, n_it = rj_num(m, "iterations", NAN);
    size_t n = rv_arr_stats(json_object_get(m, "samples"), &mn, &mx, &mean);
    size_t np = rv_arr_stats(json_object_get(m, "placeholder_samples"), &pmn, &mx, &mean);
    if (!strcmp(rj_str(m, "status", ""), "unsupported") && (n || pi))
        rv_say(file, at, "unsupported, yet it has timings (an unsupported method is never executed)", problems, quiet);
    if (!n)
        return;
    rv_expect_close(rj_num(m, "samples_requested", NAN), (double)n, "samples_requested", at, file, problems, quiet);
    rv_expect_close(rj_num(m, "routine_min", NAN), mn, "routine_min", at, file, problems, quiet);
    if (np)
        rv_expect_close(rj_num(m, "placeholder_min", NAN), pmn, "placeholder_min", at, file, problems, quiet);
    if (!pi || !(n_it > 0))
        return;
    double t = rj_num(m, "routine_min", NAN), p = rj_num(m, "placeholder_min", NAN);
    rv_expect_close(rj_num(pi, "minus_placeholder", NAN), (t - p) / n_it,
                    "per_iteration.minus_placeholder vs (routine_min - placeholder_min) / iterations", at, file,
                    problems, quiet);
    rv_expect_close(rj_num(pi, "apple", NAN), (rj_num(m, "min_tn2", NAN) - rj_num(m, "min_t2", NAN)) / n_it,
                    "per_iteration.apple vs (min_tn2 - min_t2) / iterations", at, file, problems, quiet);
    rv_expect_close(rj_num(pi, "n_vs_2n", NAN), (rj_num(m, "min_t2n", NAN) - t) / n_it,
                    "per_iteration.n_vs_2n vs (min_t2n - routine_min) / iterations", at, file, problems, quiet);
}

static void methods_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *list = json_object_get(sec, "methods"), *m;
    json_t *prof = json_object_get(sec, "extended_profile");
    quiet_phases_check(sec, where,
                       (long)(json_array_size(list) + json_array_size(json_object_get(sec, "measurements"))
                              + json_array_size(json_object_get(sec, "paoloni"))), file, problems, quiet);
    size_t i;
    char at[160];
    int found = 0;
    json_array_foreach(list, i, m) {
        snprintf(at, sizeof at, "%s.methods[%zu] (%s)", where, i, rj_str(m, "name", "?"));
        methods_check_method(m, at, file, problems, quiet);
        found |= prof && !strcmp(rj_str(m, "name", ""), rj_str(prof, "best_method", ""));
    }
    json_array_foreach(json_object_get(sec, "measurements"), i, m) {
        snprintf(at, sizeof at, "%s.measurements[%zu] (%s)", where, i, rj_str(m, "name", "?"));
        methods_check_measurement(m, at, file, problems, quiet);
    }
    if (prof && rj_str(prof, "best_method", NULL) && !found)
        rv_say(file, "methods.extended_profile.best_method", "names no method of the methods list", problems, quiet);
}

/* Each comparison: A and B have as many samples as trials, the means are
 * the samples' and the differences the means'. */
static void comparisons_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *c;
    size_t i;
    char at[160];
    quiet_phases_check(sec, where, (long)json_array_size(json_object_get(sec, "comparisons")), file, problems,
                       quiet);
    json_array_foreach(json_object_get(sec, "comparisons"), i, c) {
        json_t *a = json_object_get(c, "a"), *b = json_object_get(c, "b");
        double mn, mx, ma, mb;
        snprintf(at, sizeof at, "%s.comparisons[%zu] (%s)", where, i, rj_str(c, "name", "?"));
        if (!a || !b)
            continue;
        size_t na = rv_arr_stats(json_object_get(a, "samples"), &mn, &mx, &ma);
        size_t nb = rv_arr_stats(json_object_get(b, "samples"), &mn, &mx, &mb);
        if (na != nb)
            rv_say(file, at, "A and B have different numbers of samples (one pair per trial)", problems, quiet);
        rv_expect_close(rj_num(c, "accuracy", NAN), (double)na, "accuracy (trials)", at, file, problems, quiet);
        rv_expect_close(rj_num(a, "mean", NAN), ma, "a.mean", at, file, problems, quiet);
        rv_expect_close(rj_num(b, "mean", NAN), mb, "b.mean", at, file, problems, quiet);
        rv_expect_close(rj_num(c, "diff_mean", NAN), rj_num(a, "mean", NAN) - rj_num(b, "mean", NAN),
                        "diff_mean vs a.mean - b.mean", at, file, problems, quiet);
        const char *expect = rj_str(c, "expect", NULL), *verdict = rj_str(c, "verdict", NULL);
        json_t *ok = json_object_get(c, "as_expected");
        if (expect && verdict && json_is_boolean(ok)
            && json_is_true(ok) != (!strcmp(expect, "none") || !strcmp(expect, verdict)))
            rv_say(file, at, "as_expected disagrees with expect and verdict", problems, quiet);
    }
}

/* bench/bytemark/bytemark.c bytemark_verify(). */
static const struct rv_field verify_fields[] = {
    { "passed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "failed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "kernels", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "kernels[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "kernels[].key", RV_STR, REQ, NULL, NULL, NOMIN },
    { "kernels[].passed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "kernels[].failed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { NULL },
};

const struct rv_section rv_sections[] = {
    { "build", 0, build_fields, NULL },
    { "system", 0, system_fields, NULL },
    { "host", 0, host_fields, NULL },
    { "clock", 0, clock_fields, clock_check },
    { "quiet", 0, quiet_fields, quiet_section_check },
    { "methods", 0, methods_fields, methods_check },
    { "comparisons", 0, comparisons_fields, comparisons_check },
    { "bytemark", 0, bytemark_fields, bytemark_check },
    { "verify", 0, verify_fields, NULL },
    { NULL },
};
