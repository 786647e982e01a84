/*
 * bench/figures_memory.c - the memory section's figures (bench/memory_section.c,
 * docs/results-schema.md "memory"): see bench/figures.h.  Per working-set
 * size: the median latency of a dependent load and the best read, write,
 * copy, non-temporal write and triad bandwidths (each the peak over the
 * vector widths measured; every width, the TLB chase and the page census
 * are details).
 */
#include "figures.h"

static const struct figure memory_rows[] = {
    /* a chain that is not one cycle through every line measured something else */
    { "latency[*].ns_median", "memory_latency_{size_bytes}_ns", "ns", FIG_LOWER, 0, .pass = "cycle_lines={lines}" },
    { "bandwidth[*].read.best_bytes_per_s",  "memory_read_{size_bytes}_gbps",  "GB/s", FIG_HIGHER, FIG_HEADLINE,
      .scale = 1e-9, .label = "read" },
    { "bandwidth[*].write.best_bytes_per_s", "memory_write_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0, .scale = 1e-9 },
    { "bandwidth[*].copy.best_bytes_per_s",  "memory_copy_{size_bytes}_gbps",  "GB/s", FIG_HIGHER, 0, .scale = 1e-9 },
    { "bandwidth[*].write_nt.best_bytes_per_s", "memory_write_nt_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0,
      .scale = 1e-9 },
    { "bandwidth[*].triad.best_bytes_per_s", "memory_triad_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0, .scale = 1e-9 },
    { "latency[*].*",     NULL, "", FIG_DETAIL, 0 },   /* sizes, loads, ticks, minima */
    { "bandwidth[*].*",   NULL, "", FIG_DETAIL, 0 },
    { "caches.*",         NULL, "", FIG_DETAIL, 0 },
    { "bandwidth_peaks.*", NULL, "", FIG_DETAIL, 0 },
    { "vector.*",         NULL, "", FIG_DETAIL, 0 },
    { "pages.*",          NULL, "", FIG_DETAIL, 0 },
    { "tlb.*",            NULL, "", FIG_DETAIL, 0 },
    { "knees[*].*",       NULL, "", FIG_DETAIL, FIG_SOMETIMES },
    { "quiet_phases.*",   NULL, "", FIG_DETAIL, 0 },
    /* where the buffer lies (MEMORYHIGH=T: above 4 GiB); FIG_SOMETIMES: the
     * recorded full run predates it */
    { "buffer_address",   NULL, "",      FIG_DETAIL, FIG_SOMETIMES },
    { "free_bytes",       NULL, "bytes", FIG_DETAIL, 0 },
    { "allocated_bytes",  NULL, "bytes", FIG_DETAIL, 0 },
    { "want_top_bytes",   NULL, "bytes", FIG_DETAIL, 0 },
    { "top_bytes",        NULL, "bytes", FIG_DETAIL, 0 },
    { "line_bytes",       NULL, "bytes", FIG_DETAIL, 0 },
    { "samples",          NULL, "", FIG_DETAIL, 0 },
    { "bw_samples",       NULL, "", FIG_DETAIL, 0 },
    { "min_loads",        NULL, "", FIG_DETAIL, 0 },
    { "bw_min_bytes",     NULL, "bytes", FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_memory, "memory", NULL, memory_rows);
