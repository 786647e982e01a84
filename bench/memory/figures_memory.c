/*
 * bench/memory/figures_memory.c - the tables of bench/memory/figures_memory.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_memory.h"

/* the members' other fields: fields_memory.c */
extern const struct figure_field_row fields_memory[];
FIGURE_LIST(figures_memory, "memory", NULL, MEMORY_FIGURES, fields_memory);
