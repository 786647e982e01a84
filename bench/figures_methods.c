/*
  * bench/figures_methods.c - the methods section's figures
 * (bench/methods_section.c, docs/results-schema.md "methods"): see
 * bench/figures.h.  A measurement's net time per iteration is the median
 * of (timing - placeholder median) / N; its raw samples are the timings.
 */
#include "figures.h"

static const struct figure methods_rows[] = {
    { "methods[*].overhead.median", "method_{name}_overhead_ticks", "ticks", FIG_LOWER, 0,
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "overhead.samples" },
    { "methods[*].overhead_ns.median", "method_{name}_overhead_ns", "ns", FIG_LOWER, 0,
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "overhead.samples",
      .transform = FIG_SAMPLES_NS },
    { "measurements[*].net.median", "meas_{target}_{method}_ticks", "ticks/iter", FIG_LOWER, FIG_SIGNED,
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "samples",
      .transform = FIG_SAMPLES_NET },
    { "measurements[*].net.median", "meas_{target}_{method}_ns", "ns/iter", FIG_LOWER, FIG_TICKS_NS | FIG_SIGNED,
      .skip = "status=unsupported", .only = "status=ok|too_short|inconclusive", .samples = "samples",
      .transform = FIG_SAMPLES_NET_NS },
    { "extended_profile.best_ns",   NULL, "ns",    FIG_LOWER, FIG_HEADLINE | FIG_SIGNED, .label = "best of the profile" },
    { "extended_profiles[*].best_ns", NULL, "ns",  FIG_LOWER, FIG_SOMETIMES | FIG_SIGNED },
    { "methods[*].*",               NULL, "ticks", FIG_DETAIL, 0 },   /* overhead statistics and samples */
    { "measurements[*].*",          NULL, "ticks", FIG_DETAIL, 0 },   /* estimators, fences, samples, pmu */
    { "extended_profile.*",         NULL, "",      FIG_DETAIL, 0 },
    { "extended_profiles[*].*",     NULL, "",      FIG_DETAIL, FIG_SOMETIMES },
    { "paoloni[*].*",               NULL, "ticks", FIG_DETAIL, 0 },
    { "null_check.*",               NULL, "",      FIG_DETAIL, 0 },   /* the A/A check */
    { "placement_check.*",          NULL, "",      FIG_DETAIL, FIG_SOMETIMES },   /* runs from 23.8 on */
    { "pmu.*",                      NULL, "",      FIG_DETAIL, 0 },
    { "cpu.*",                      NULL, "",      FIG_DETAIL, 0 },
    { "quiet_phases.*",             NULL, "",      FIG_DETAIL, 0 },
    { "tick_hz",                    NULL, "Hz",    FIG_DETAIL, 0 },
    { "overhead_samples",           NULL, "",      FIG_DETAIL, 0 },
    { "samples",                    NULL, "",      FIG_DETAIL, 0 },
    { "iterations",                 NULL, "",      FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_methods, "methods", "tick_hz", methods_rows);
