/*
 * bench/system/figures_host.h - the figure tables of the members only the hosted
 * program writes (tools/host/): "host", the Linux machine a hosted
 * document was measured on, and "quiet", `baremark quiet`'s check of the
 * machine (the same counts as the clock section's quiet member).  See
 * figures.h.  Every row is FIG_SOMETIMES: an image's run never has them.
 */
#ifndef BAREMARK_FIGURES_HOST_H
#define BAREMARK_FIGURES_HOST_H

#include "figures.h"

#define HOST_FIGURES(X) \
    X(FIG_HOST_LOGICAL_CPUS, "logical_cpus", NULL, "CPUs", FIG_INFO,   FIG_SOMETIMES, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL)) \
    X(FIG_HOST_ALL,          "*",            NULL, "",     FIG_DETAIL, FIG_SOMETIMES)   /* CPUID's vendor and brand, the kernel */
FIGURE_IDS(host_figure, HOST_FIGURES);
extern const struct figure_table figures_host;

#define QUIET_FIGURES(X) \
    X(FIG_QUIET_MAX_GAP_TICKS, "max_gap_ticks", NULL, "ticks", FIG_LOWER,  FIG_SOMETIMES, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_QUIET_GAPS_OVER_1US, "gaps_over_1us", NULL, "gaps",  FIG_LOWER,  FIG_SOMETIMES, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_QUIET_ALL,           "*",             NULL, "",      FIG_DETAIL, FIG_SOMETIMES)   /* reads, the other counts, the rate */
FIGURE_IDS(quiet_figure, QUIET_FIGURES);
extern const struct figure_table figures_quiet;

#endif
