/*
 * tools/host/validate_methods.c - the methods section (bench/methods.c): the methods,
 * the measurements and their estimators, the extended profile, Paoloni's
 * ensembles.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

/* bench/methods.c methods_section(): methods_status_name() and the members
 * written by methods_json_header, methods_part_method, methods_json_result,
 * methods_part_profile and methods_part_paoloni. */
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
    /* The estimators are computed from these minima: a measurement with
     * per_iteration must state every one of them. */
    static const char *const minima[] = { "routine_min", "placeholder_min", "min_t2", "min_tn2", "min_t2n" };
    static const char *const est[] = { "minus_placeholder", "apple", "n_vs_2n" };
    if (json_is_object(pi)) {
        char pat[340];
        snprintf(pat, sizeof pat, "%s.per_iteration", at);
        for (size_t k = 0; k < sizeof minima / sizeof minima[0]; k++)
            rv_need_num(m, minima[k], "with per_iteration (its estimators are computed from it)", at, file, problems,
                        quiet);
        for (size_t k = 0; k < sizeof est / sizeof est[0]; k++)
            rv_need_num(pi, est[k], "(the minima it is computed from are finite)", pat, file, problems, quiet);
    }
    if (n) {
        rv_expect_close(rj_num(m, "samples_requested", NAN), (double)n, "samples_requested", at, file, problems,
                        quiet);
        rv_expect_close(rj_num(m, "routine_min", NAN), mn, "routine_min", at, file, problems, quiet);
        if (np)
            rv_expect_close(rj_num(m, "placeholder_min", NAN), pmn, "placeholder_min", at, file, problems, quiet);
    }
    if (!json_is_object(pi) || !(n_it > 0))
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
    char cpu_at[160];
    snprintf(cpu_at, sizeof cpu_at, "%s.cpu", where);
    rv_cpuid_text(json_object_get(sec, "cpu"), "vendor", cpu_at, file, problems, quiet);
    rv_cpuid_text(json_object_get(sec, "cpu"), "hypervisor_vendor", cpu_at, file, problems, quiet);
    rv_quiet_phases(sec, where,
                       (long)(json_array_size(list) + json_array_size(json_object_get(sec, "measurements"))
                              + json_array_size(json_object_get(sec, "paoloni"))), file, problems, quiet);
    size_t i;
    char at[300], nm[120];
    int found = 0;
    json_array_foreach(list, i, m) {
        snprintf(at, sizeof at, "%s.methods[%zu] (%s)", where, i, rv_name(nm, sizeof nm, m, "name"));
        methods_check_method(m, at, file, problems, quiet);
        found |= prof && !strcmp(rj_str(m, "name", ""), rj_str(prof, "best_method", ""));
    }
    json_array_foreach(json_object_get(sec, "measurements"), i, m) {
        snprintf(at, sizeof at, "%s.measurements[%zu] (%s)", where, i, rv_name(nm, sizeof nm, m, "name"));
        methods_check_measurement(m, at, file, problems, quiet);
    }
    if (prof && rj_str(prof, "best_method", NULL) && !found)
        rv_say(file, "methods.extended_profile.best_method", "names no method of the methods list", problems, quiet);
}

const struct rv_section rv_section_methods = { "methods", 0, methods_fields, methods_check };
