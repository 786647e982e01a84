/*
 * bench/summary/summary_internal.h - between summary.c (the figures from the
 * results), summary_estimates.c (the targets' and A/B pairs' statistics)
 * and summary_text.c (their words).  Not for other callers.
 */
#ifndef BAREMARK_SUMMARY_INTERNAL_H
#define BAREMARK_SUMMARY_INTERNAL_H

#include "json_read.h"
#include "summary.h"

/* s->targets from methods.measurements (summary_estimates.c). */
void summary_targets(struct summary *s, struct jval doc);
/* s->ab from comparisons.comparisons (summary_estimates.c). */
void summary_comparisons(struct summary *s, struct jval doc);
/* ab->text from its fields. */
void summary_ab_text(struct summary_ab *ab);
/* s->rows from every field. */
void summary_rows(struct summary *s);
/* The rows of a text that is not a results document. */
void summary_rows_unreadable(struct summary *s);

#endif
