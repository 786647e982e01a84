/*
 * bench/cores/figures_cores.h - the cores section's figures (bench/cores/cores_section.c,
 * docs/results-schema.md "cores"): see bench/results/figures.h.  Per CPU: its TSC
 * offset and rate against the reference CPU, its scores alone; per pair:
 * the median round trip; per kernel: all CPUs at once.
 */
#ifndef BAREMARK_FIGURES_CORES_H
#define BAREMARK_FIGURES_CORES_H

#include "figures.h"

/* The reference CPU's own row: no case against itself. */
#define CORES_REFERENCE "cpu={tsc.reference_cpu}"

#define CORES_FIGURES(X) \
    /* against the reference CPU: fail when its check failed or warned (offset_ok) */ \
    X(FIG_CORES_TSC_OFFSET_NS,                      "tsc.cpus[*].offset_ns",   "cores_cpu{cpu}_tsc_offset_ns", "ns",  FIG_INFO, FIG_HEADLINE, \
      .label = "largest TSC offset", .none = CORES_REFERENCE, .lost = "why", .pass = "offset_ok=true", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_OPT, NULL)) \
    X(FIG_CORES_TSC_RATE_PPM,                       "tsc.cpus[*].rate_ppm",    "cores_cpu{cpu}_tsc_rate_ppm",  "ppm", FIG_INFO, 0, \
      .none = CORES_REFERENCE " or tsc.reference=none", .lost = "rate_why", .pass = "rate_ok=true", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_OPT, NULL)) \
    /* a pair that did not answer: null, a fail where the matrix is there */ \
    X(FIG_CORES_LATENCY_MEDIAN_NS,                  "latency.median_ns[*][*]", "cores_latency_cpu{latency.cpus[#1]}_cpu{latency.cpus[#]}_ns", "ns", \
      FIG_LOWER, FIG_UPPER | FIG_HEADLINE, .label = "worst round trip", .lost = "latency.median_ns") \
    X(FIG_CORES_PER_CORE_MEAN,                      "scores.per_core[*].tests[*].mean", "cores_cpu{cpu}_{key}", "{unit}", FIG_HIGHER, 0, \
      .skip = "status=not_run", .only = "status=ok", .samples = "scores", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_OPT, "per s")) \
    /* no CPU completed it: fail */ \
    X(FIG_CORES_ALL_CORES_SUM,                      "scores.all_cores[*].sum", "cores_all_{key}_sum", "{scores.per_core[0].tests[#].unit}", FIG_HIGHER, 0, \
      .only = "!cpus=0", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_REQ, "per s")) \
    X(FIG_CORES_ALL_CORES_RATIO,                    "scores.all_cores[*].ratio_to_one_core", "cores_all_{key}_ratio", "ratio", FIG_HIGHER, 0, .only = "!cpus=0", \
      .field = FIG_FIELD(FIELD_NUM, FIELD_REQ, NULL)) \
    X(FIG_CORES_COUNT,                              "count",                   NULL, "CPUs", FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL)) \
    X(FIG_CORES_TSC_CPUS_ALL,                       "tsc.cpus[*].*",           NULL, "",  FIG_DETAIL, 0)   /* warp handoffs, offset bounds, rate fit */ \
    X(FIG_CORES_TSC_ALL,                            "tsc.*",                   NULL, "",  FIG_DETAIL, 0) \
    X(FIG_CORES_LATENCY_ALL,                        "latency.*",               NULL, "",  FIG_DETAIL, 0)   /* the matrices in ticks, minima, CPUs */ \
    X(FIG_CORES_SCORES_ALL,                         "scores.*",                NULL, "",  FIG_DETAIL, 0)   /* each run, each CPU's share */ \
    X(FIG_CORES_CPUS_ALL,                           "cpus[*].*",               NULL, "",  FIG_DETAIL, 0)   /* topology: firmware's and CPUID's */ \
    X(FIG_CORES_SELECTED,                           "selected[*]",             NULL, "",  FIG_DETAIL, 0) \
    X(FIG_CORES_QUIET_PHASES_ALL,                   "quiet_phases.*",          NULL, "",  FIG_DETAIL, 0) \
    X(FIG_CORES_ENABLED,                            "enabled",                 NULL, "",  FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "CPUs")) \
    X(FIG_CORES_BSP,                                "bsp",                     NULL, "",  FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_CORES_MADT_CPUS,                          "madt_cpus",               NULL, "",  FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "CPUs")) \
    X(FIG_CORES_TICK_HZ,                            "tick_hz",                 NULL, "Hz", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL)) \
    X(FIG_CORES_WARNINGS,                           "warnings",                NULL, "",  FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    /* the section's time, part by part; FIG_SOMETIMES: the recorded full run predates it (the \
     * machine boot tests require it) */ \
    X(FIG_CORES_TOOK_S_ALL,                         "took_s.*",                NULL, "s",  FIG_DETAIL, FIG_SOMETIMES) \
    X(FIG_CORES_KEPT_BYTES,                         "kept_bytes",              NULL, "bytes", FIG_DETAIL, FIG_SOMETIMES, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, NULL))  /* a lost CPU's memory */
FIGURE_IDS(cores_figure, CORES_FIGURES);
extern const struct figure_table figures_cores;

#endif
