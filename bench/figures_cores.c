/*
 * bench/figures_cores.c - the cores section's figures (kernel/cores_section.c,
 * docs/results-schema.md "cores"): see bench/figures.h.  Per CPU: its TSC
 * offset and rate against the reference CPU, its scores alone; per pair:
 * the median round trip; per kernel: all CPUs at once.
 */
#include "figures.h"

/* The reference CPU's own row: no case against itself. */
#define CORES_REFERENCE "cpu={tsc.reference_cpu}"

static const struct figure cores_rows[] = {
    /* against the reference CPU: fail when its check failed or warned (offset_ok) */
    { "tsc.cpus[*].offset_ns",   "cores_cpu{cpu}_tsc_offset_ns", "ns",  FIG_INFO, FIG_HEADLINE,
      .label = "largest TSC offset", .none = CORES_REFERENCE, .lost = "why", .pass = "offset_ok=true" },
    { "tsc.cpus[*].rate_ppm",    "cores_cpu{cpu}_tsc_rate_ppm",  "ppm", FIG_INFO, 0,
      .none = CORES_REFERENCE " or tsc.reference=none", .lost = "rate_why", .pass = "rate_ok=true" },
    /* a pair that did not answer: null, a fail where the matrix is there */
    { "latency.median_ns[*][*]", "cores_latency_cpu{latency.cpus[#1]}_cpu{latency.cpus[#]}_ns", "ns",
      FIG_LOWER, FIG_UPPER | FIG_HEADLINE, .label = "worst round trip", .lost = "latency.median_ns" },
    { "scores.per_core[*].tests[*].mean", "cores_cpu{cpu}_{key}", "{unit}", FIG_HIGHER, 0,
      .skip = "status=not_run", .only = "status=ok", .samples = "scores" },
    /* no CPU completed it: fail */
    { "scores.all_cores[*].sum", "cores_all_{key}_sum", "{scores.per_core[0].tests[#].unit}", FIG_HIGHER, 0,
      .only = "!cpus=0" },
    { "scores.all_cores[*].ratio_to_one_core", "cores_all_{key}_ratio", "ratio", FIG_HIGHER, 0, .only = "!cpus=0" },
    { "count",                   NULL, "CPUs", FIG_INFO, 0 },
    { "tsc.cpus[*].*",           NULL, "",  FIG_DETAIL, 0 },   /* warp handoffs, offset bounds, rate fit */
    { "tsc.*",                   NULL, "",  FIG_DETAIL, 0 },
    { "latency.*",               NULL, "",  FIG_DETAIL, 0 },   /* the matrices in ticks, minima, CPUs */
    { "scores.*",                NULL, "",  FIG_DETAIL, 0 },   /* each run, each CPU's share */
    { "cpus[*].*",               NULL, "",  FIG_DETAIL, 0 },   /* topology: firmware's and CPUID's */
    { "selected[*]",             NULL, "",  FIG_DETAIL, 0 },
    { "quiet_phases.*",          NULL, "",  FIG_DETAIL, 0 },
    { "enabled",                 NULL, "",  FIG_DETAIL, 0 },
    { "bsp",                     NULL, "",  FIG_DETAIL, 0 },
    { "madt_cpus",               NULL, "",  FIG_DETAIL, 0 },
    { "tick_hz",                 NULL, "Hz", FIG_DETAIL, 0 },
    { "warnings",                NULL, "",  FIG_DETAIL, 0 },
    /* the section's time, part by part; FIG_SOMETIMES: the recorded full run predates it (the
     * machine boot tests require it) */
    { "took_s.*",                NULL, "s",  FIG_DETAIL, FIG_SOMETIMES },
    { "kept_bytes",              NULL, "bytes", FIG_DETAIL, FIG_SOMETIMES },  /* a lost CPU's memory */
};
FIGURE_TABLE(figures_cores, "cores", "tick_hz", cores_rows);
