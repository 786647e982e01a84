/*
 * bench/methods/figures_methods.c - the tables of bench/methods/figures_methods.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_methods.h"

/* the members' other fields: fields_methods.c */
extern const struct figure_field_row fields_methods[];
FIGURE_LIST(figures_methods, "methods", "tick_hz", METHODS_FIGURES, fields_methods);
