/*
 * bench/system/figures_host.c - the tables of bench/system/figures_host.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_host.h"

/* the members' other fields: fields_host.c */
extern const struct figure_field_row fields_host[], fields_quiet[];
FIGURE_LIST(figures_host, "host", NULL, HOST_FIGURES, fields_host);
FIGURE_LIST(figures_quiet, "quiet", "tick_hz", QUIET_FIGURES, fields_quiet);
