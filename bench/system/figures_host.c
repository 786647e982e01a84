/*
 * bench/system/figures_host.c - the tables of bench/system/figures_host.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_host.h"

FIGURE_LIST(figures_host, "host", NULL, HOST_FIGURES);
FIGURE_LIST(figures_quiet, "quiet", "tick_hz", QUIET_FIGURES);
