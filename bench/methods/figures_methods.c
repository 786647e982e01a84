/*
 * bench/methods/figures_methods.c - the tables of bench/methods/figures_methods.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_methods.h"

FIGURE_LIST(figures_methods, "methods", "tick_hz", METHODS_FIGURES);
