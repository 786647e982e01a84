/*
 * bench/bytemark/figures_bytemark.c - the tables of bench/bytemark/figures_bytemark.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_bytemark.h"

/* the members' other fields: fields_bytemark.c */
extern const struct figure_field_row fields_bytemark[], fields_verify[];
FIGURE_LIST(figures_bytemark, "bytemark", "tick_hz", BYTEMARK_FIGURES, fields_bytemark);
FIGURE_LIST(figures_verify, "verify", NULL, VERIFY_FIGURES, fields_verify);
