/*
 * bench/results/figures_run.c - the tables of bench/results/figures_run.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_run.h"

FIGURE_LIST(figures_run, NULL, NULL, RUN_FIGURES);
FIGURE_LIST(figures_build, "build", NULL, BUILD_FIGURES);
FIGURE_LIST(figures_settings, "settings", NULL, SETTINGS_FIGURES);
FIGURE_LIST(figures_system, "system", NULL, SYSTEM_FIGURES);
