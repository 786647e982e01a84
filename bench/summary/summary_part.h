/*
 * bench/summary/summary_part.h - what a section's summary part may use.
 *
 * The run's summary (summary.h) is built by its frame (summary.c: the
 * verdict, the machine, each section's headline, the rows of text) and by
 * the sections' parts: each row of bench/sections.def names its section's
 * part, a summary_part_fn (summary.h) in the section's own folder
 * (bench/clock/clock_summary.c, ...), or NULL.  summary_build calls every
 * part through its table of them (summary.c, from the same rows), in run
 * order, whether or not the run has the member, with
 *   s       the summary: the part fills its own fields (and only those);
 *   member  the section's results member (its figure table's), none when
 *           the run has none;
 *   doc     the whole document, for what the part reads outside its member
 *           (the run's profile).
 * A part reads a figure by its row (figures_get, figures_array,
 * bench/results/figures.h), not by its name typed again, and leaves the
 * words to the frame (summary_text.c).
 */
#ifndef BAREMARK_SUMMARY_PART_H
#define BAREMARK_SUMMARY_PART_H

#include <stddef.h>

#include "figures.h"
#include "json_read.h"
#include "summary.h"

/* A JSON array of numbers as a new plat_alloc'd array, the non-numbers
 * left out (NULL when empty or out of memory; *n how many). */
double *summary_numbers(struct jval arr, size_t *n);

#endif
