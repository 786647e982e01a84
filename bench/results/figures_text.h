/*
 * bench/results/figures_text.h - figures as a person reads them: a
 * section's headline from its FIG_HEADLINE rows, a value to four
 * significant digits, an interval, a p-value (figures_text.c).  Included
 * by figures.h.
 */
#ifndef BAREMARK_FIGURES_TEXT_H
#define BAREMARK_FIGURES_TEXT_H

#include <stddef.h>

#include "json_read.h"

struct figure_table;

/* A section's headline: its FIG_HEADLINE rows as "label value unit" joined
 * by ", ", each as the run summary states the figure: in its headline unit
 * (headline_unit, else LAVA's); a row with [*] by its largest value (the
 * worst time or cost, the best rate or score), a FIG_INFO row, which has
 * no better side, by its largest size, shown as that size (|offset|, as
 * "largest TSC offset" reads).  "" when none is in the document. */
void figures_headline(struct jval doc, const struct figure_table *t, char *out, size_t cap);

/* A figure's value for a person: four significant digits, whole numbers
 * of 10^5 and more with one decimal at most ("2596142.3", "0.169",
 * "73"); "n/a" for NAN. */
void figures_format(double v, char *out, size_t cap);

/* An interval for a person, its two ends formatted as figures_format
 * does: "[4.31, 4.42]" (never "4.31-4.42", which reads as a subtraction
 * once an end is negative); "n/a" when either end is NAN. */
void figures_format_interval(double lo, double hi, char *out, size_t cap);

/* A p-value for a person: "p = 0.412", "p = 3.1e-05", "p < 1e-300",
 * "p n/a". */
void figures_format_p(double p, char *out, size_t cap);

#endif
