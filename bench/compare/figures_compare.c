/*
 * bench/compare/figures_compare.c - the tables of bench/compare/figures_compare.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_compare.h"

/* the members' other fields: fields_compare.c */
extern const struct figure_field_row fields_compare[];
FIGURE_LIST(figures_compare, "comparisons", "tick_hz", COMPARE_FIGURES, fields_compare);
