/*
 * bench/cores/figures_cores.c - the tables of bench/cores/figures_cores.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_cores.h"

/* the members' other fields: fields_cores.c */
extern const struct figure_field_row fields_cores[];
FIGURE_LIST(figures_cores, "cores", "tick_hz", CORES_FIGURES, fields_cores);
