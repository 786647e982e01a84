/*
 * bench/plugins/figures_plugins.c - the tables of bench/plugins/figures_plugins.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_plugins.h"

/* the members' other fields: fields_plugins.c */
extern const struct figure_field_row fields_plugins[];
FIGURE_LIST(figures_plugins, "plugins", NULL, PLUGINS_FIGURES, fields_plugins);
