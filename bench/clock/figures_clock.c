/*
 * bench/clock/figures_clock.c - the tables of bench/clock/figures_clock.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_clock.h"

FIGURE_LIST(figures_clock, "clock", "quiet.tick_hz", CLOCK_FIGURES);
