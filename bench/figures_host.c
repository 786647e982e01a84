/*
 * bench/figures_host.c - the figure tables of the members only the hosted
 * program writes (tools/host/): "host", the Linux machine a hosted
 * document was measured on, and "quiet", `baremark quiet`'s check of the
 * machine (the same counts as the clock section's quiet member).  See
 * figures.h.  Every row is FIG_SOMETIMES: an image's run never has them.
 */
#include "figures.h"

static const struct figure host_rows[] = {
    { "logical_cpus", NULL, "CPUs", FIG_INFO,   FIG_SOMETIMES },
    { "*",            NULL, "",     FIG_DETAIL, FIG_SOMETIMES },   /* CPUID's vendor and brand, the kernel */
};
FIGURE_TABLE(figures_host, "host", NULL, host_rows);

static const struct figure quiet_rows[] = {
    { "max_gap_ticks", NULL, "ticks", FIG_LOWER,  FIG_SOMETIMES },
    { "gaps_over_1us", NULL, "gaps",  FIG_LOWER,  FIG_SOMETIMES },
    { "*",             NULL, "",      FIG_DETAIL, FIG_SOMETIMES },   /* reads, the other counts, the rate */
};
FIGURE_TABLE(figures_quiet, "quiet", "tick_hz", quiet_rows);
