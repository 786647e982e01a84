/*
  * bench/methods/figures_methods.h - the methods section's figures
 * (bench/methods/methods_section.c, docs/results-schema.md "methods"): see
 * bench/results/figures.h.  A measurement's net time per iteration is the median
 * of (timing - placeholder median) / N; its raw samples are the timings.
 */
#ifndef BAREMARK_FIGURES_METHODS_H
#define BAREMARK_FIGURES_METHODS_H

#include "figures.h"

#define METHODS_FIGURES(X) \
    X(FIG_METHODS_OVERHEAD_MEDIAN,            "methods[*].overhead.median", "method_{name}_overhead_ticks", "ticks", FIG_LOWER, 0, \
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "overhead.samples", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_REQ, NULL)) \
    X(FIG_METHODS_OVERHEAD_NS_MEDIAN,         "methods[*].overhead_ns.median", "method_{name}_overhead_ns", "ns", FIG_LOWER, 0, \
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "overhead.samples", \
      .transform = FIG_SAMPLES_NS, \
      .field = FIG_FIELD(FIELD_NUM_OR_NULL, FIELD_REQ, NULL)) \
    X(FIG_METHODS_NET_MEDIAN,                 "measurements[*].net.median", "meas_{target}_{method}_ticks", "ticks/iter", FIG_LOWER, FIG_SIGNED, \
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "samples", \
      .transform = FIG_SAMPLES_NET) \
    X(FIG_METHODS_NET_MEDIAN_NS,              "measurements[*].net.median", "meas_{target}_{method}_ns", "ns/iter", FIG_LOWER, FIG_TICKS_NS | FIG_SIGNED, \
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "samples", \
      .transform = FIG_SAMPLES_NET_NS, \
      .field = FIG_FIELD(FIELD_NUM_OR_NULL, FIELD_REQ, NULL)) \
    X(FIG_METHODS_PROFILE_BEST_NS,            "extended_profile.best_ns",   NULL, "ns",    FIG_LOWER, FIG_HEADLINE | FIG_SIGNED, .label = "best of the profile") \
    X(FIG_METHODS_PROFILES_BEST_NS,           "extended_profiles[*].best_ns", NULL, "ns",  FIG_LOWER, FIG_SOMETIMES | FIG_SIGNED) \
    X(FIG_METHODS_METHODS_ALL,                "methods[*].*",               NULL, "ticks", FIG_DETAIL, 0)   /* overhead statistics and samples */ \
    X(FIG_METHODS_MEASUREMENTS_ALL,           "measurements[*].*",          NULL, "ticks", FIG_DETAIL, 0)   /* estimators, fences, samples, pmu */ \
    X(FIG_METHODS_EXTENDED_PROFILE_ALL,       "extended_profile.*",         NULL, "",      FIG_DETAIL, 0) \
    X(FIG_METHODS_EXTENDED_PROFILES_ALL,      "extended_profiles[*].*",     NULL, "",      FIG_DETAIL, FIG_SOMETIMES) \
    X(FIG_METHODS_PAOLONI_ALL,                "paoloni[*].*",               NULL, "ticks", FIG_DETAIL, 0) \
    X(FIG_METHODS_NULL_CHECK_ALL,             "null_check.*",               NULL, "",      FIG_DETAIL, 0)   /* the A/A check */ \
    X(FIG_METHODS_PLACEMENT_CHECK_ALL,        "placement_check.*",          NULL, "",      FIG_DETAIL, FIG_SOMETIMES)   /* runs from 23.8 on */ \
    X(FIG_METHODS_PMU_ALL,                    "pmu.*",                      NULL, "",      FIG_DETAIL, 0) \
    X(FIG_METHODS_CPU_ALL,                    "cpu.*",                      NULL, "",      FIG_DETAIL, 0) \
    X(FIG_METHODS_QUIET_PHASES_ALL,           "quiet_phases.*",             NULL, "",      FIG_DETAIL, 0) \
    X(FIG_METHODS_TICK_HZ,                    "tick_hz",                    NULL, "Hz",    FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, "Hz; 0 when the clock was not calibrated")) \
    X(FIG_METHODS_OVERHEAD_SAMPLES,           "overhead_samples",           NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "timings per method")) \
    X(FIG_METHODS_SAMPLES,                    "samples",                    NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "timings per series")) \
    X(FIG_METHODS_ITERATIONS,                 "iterations",                 NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "N"))
FIGURE_IDS(methods_figure, METHODS_FIGURES);
extern const struct figure_table figures_methods;

#endif
