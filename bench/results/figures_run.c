/*
 * bench/results/figures_run.c - the tables of bench/results/figures_run.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_run.h"

/* the members' other fields: fields_run.c */
extern const struct figure_field_row fields_run[], fields_build[], fields_system[];
FIGURE_LIST(figures_run, NULL, NULL, RUN_FIGURES, fields_run);
FIGURE_LIST(figures_build, "build", NULL, BUILD_FIGURES, fields_build);
FIGURE_LIST(figures_settings, "settings", NULL, SETTINGS_FIGURES);
FIGURE_LIST(figures_system, "system", NULL, SYSTEM_FIGURES, fields_system);
