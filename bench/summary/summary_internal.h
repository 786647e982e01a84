/*
 * bench/summary/summary_internal.h - between summary.c (the frame: the
 * figures from the results) and summary_text.c (their words).  Not for
 * other callers (a section's part has summary_part.h).
 */
#ifndef BAREMARK_SUMMARY_INTERNAL_H
#define BAREMARK_SUMMARY_INTERNAL_H

#include "json_read.h"
#include "summary.h"

/* ab->text from the pair's fields. */
void summary_ab_text(struct summary_ab *ab);
/* s->rows from every field. */
void summary_rows(struct summary *s);
/* The rows of a text that is not a results document. */
void summary_rows_unreadable(struct summary *s);

#endif
