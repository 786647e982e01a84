/*
 * bench/clock/figures_clock.c - the tables of bench/clock/figures_clock.h's lists (the rows and their
 * IDs are declared there, for the writer to name them).
 */
#include "figures_clock.h"

/* the members' other fields: fields_clock.c */
extern const struct figure_field_row fields_clock[];
FIGURE_LIST(figures_clock, "clock", "quiet.tick_hz", CLOCK_FIGURES, fields_clock);
