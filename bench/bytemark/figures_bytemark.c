/*
 * bench/bytemark/figures_bytemark.c - the tables of bench/bytemark/figures_bytemark.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_bytemark.h"

FIGURE_LIST(figures_bytemark, "bytemark", "tick_hz", BYTEMARK_FIGURES);
FIGURE_LIST(figures_verify, "verify", NULL, VERIFY_FIGURES);
