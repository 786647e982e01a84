/*
 * bench/memory/figures_memory.c - the tables of bench/memory/figures_memory.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_memory.h"

FIGURE_LIST(figures_memory, "memory", NULL, MEMORY_FIGURES);
