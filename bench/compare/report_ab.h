/*
 * bench/compare/report_ab.h - an A/B comparison of a results file as the
 * host's tools read it (report, diff, validate): its raw samples and its
 * figures.  Host-only (the Makefile's HOST_ONLY_C); the comparison's
 * figure table is figures_compare.h.
 */
#ifndef BAREMARK_REPORT_AB_H
#define BAREMARK_REPORT_AB_H

#include <stddef.h>

#include <jansson.h>

/* Raw samples of one side of an A/B comparison (side 0 = A, 1 = B): the
 * "samples" of its member "a" or "b", the label that member's name.
 * Returns the count, *out malloc'd as doc_numbers. */
size_t doc_ab_samples(json_t *cmp, int side, double **out, const char **label);
/* An A/B comparison's figures (struct stats_ab: faster side, the slower's
 * time over the faster's, its interval, Mann-Whitney's p): its "ratio"
 * member as the run wrote it (its rows, figures_compare), else stats_ab
 * on the stored samples (a file from before the member).  Returns 0, or
 * -1 when there are none. */
struct stats_ab;
int doc_ab_ratio(json_t *cmp, struct stats_ab *out);

#endif
