/*
 * bench/memory/figures_memory.h - the memory section's figures (bench/memory/memory_section.c,
 * docs/results-schema.md "memory"): see bench/results/figures.h.  Per working-set
 * size: the median latency of a dependent load and the best read, write,
 * copy, non-temporal write and triad bandwidths (each the peak over the
 * vector widths measured; every width, the TLB chase and the page census
 * are details).
 */
#ifndef BAREMARK_FIGURES_MEMORY_H
#define BAREMARK_FIGURES_MEMORY_H

#include "figures.h"

/* a kernel's best rate at a size, in bytes/s (the LAVA value in GB/s) */
#define MEMORY_BEST_FIELD FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, "bytes/s")
#define MEMORY_FIGURES(X) \
    /* a chain that is not one cycle through every line measured something else */ \
    X(FIG_MEMORY_LATENCY_NS_MEDIAN,                   "latency[*].ns_median", "memory_latency_{size_bytes}_ns", "ns", FIG_LOWER, 0, .pass = "cycle_lines={lines}", \
      .field = FIG_FIELD(FIELD_NUM_OR_NULL, FIELD_REQ, NULL)) \
    X(FIG_MEMORY_READ_BEST,                           "bandwidth[*].read.best_bytes_per_s",  "memory_read_{size_bytes}_gbps",  "GB/s", FIG_HIGHER, FIG_HEADLINE, \
      .scale = 1e-9, .label = "read", .field = MEMORY_BEST_FIELD) \
    X(FIG_MEMORY_WRITE_BEST,                          "bandwidth[*].write.best_bytes_per_s", "memory_write_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0, .scale = 1e-9, \
      .field = MEMORY_BEST_FIELD) \
    X(FIG_MEMORY_COPY_BEST,                           "bandwidth[*].copy.best_bytes_per_s",  "memory_copy_{size_bytes}_gbps",  "GB/s", FIG_HIGHER, 0, .scale = 1e-9, \
      .field = MEMORY_BEST_FIELD) \
    X(FIG_MEMORY_WRITE_NT_BEST,                       "bandwidth[*].write_nt.best_bytes_per_s", "memory_write_nt_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0, \
      .scale = 1e-9, .field = MEMORY_BEST_FIELD) \
    X(FIG_MEMORY_TRIAD_BEST,                          "bandwidth[*].triad.best_bytes_per_s", "memory_triad_{size_bytes}_gbps", "GB/s", FIG_HIGHER, 0, .scale = 1e-9, \
      .field = MEMORY_BEST_FIELD) \
    X(FIG_MEMORY_LATENCY_ALL,                         "latency[*].*",     NULL, "", FIG_DETAIL, 0)   /* sizes, loads, ticks, minima */ \
    X(FIG_MEMORY_BANDWIDTH_ALL,                       "bandwidth[*].*",   NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_CACHES_ALL,                          "caches.*",         NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_BANDWIDTH_PEAKS_ALL,                 "bandwidth_peaks.*", NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_VECTOR_ALL,                          "vector.*",         NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_PAGES_ALL,                           "pages.*",          NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_TLB_ALL,                             "tlb.*",            NULL, "", FIG_DETAIL, 0) \
    X(FIG_MEMORY_KNEES_ALL,                           "knees[*].*",       NULL, "", FIG_DETAIL, FIG_SOMETIMES) \
    X(FIG_MEMORY_QUIET_PHASES_ALL,                    "quiet_phases.*",   NULL, "", FIG_DETAIL, 0) \
    /* where the buffer lies (MEMORYHIGH=T: above 4 GiB); FIG_SOMETIMES: the \
     * recorded full run predates it */ \
    X(FIG_MEMORY_BUFFER_ADDRESS,                      "buffer_address",   NULL, "",      FIG_DETAIL, FIG_SOMETIMES, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "address")) \
    X(FIG_MEMORY_FREE_BYTES,                          "free_bytes",       NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, NULL)) \
    X(FIG_MEMORY_ALLOCATED_BYTES,                     "allocated_bytes",  NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_MEMORY_WANT_TOP_BYTES,                      "want_top_bytes",   NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_MEMORY_TOP_BYTES,                           "top_bytes",        NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_MEMORY_LINE_BYTES,                          "line_bytes",       NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 8, NULL)) \
    X(FIG_MEMORY_SAMPLES,                             "samples",          NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "timings per size")) \
    X(FIG_MEMORY_BW_SAMPLES,                          "bw_samples",       NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "timings per size and kernel")) \
    X(FIG_MEMORY_MIN_LOADS,                           "min_loads",        NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "loads per timing")) \
    X(FIG_MEMORY_BW_MIN_BYTES,                        "bw_min_bytes",     NULL, "bytes", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "bytes per timing"))
FIGURE_IDS(memory_figure, MEMORY_FIGURES);
extern const struct figure_table figures_memory;

#endif
