/*
 * bench/report/report_util.h - shared helpers of the results tools (validate,
 * report, diff): reading a results file with jansson, finding raw
 * samples in it, and drawing them as inline SVG.  Host-only.
 *
 * The results format is docs/results-schema.md.  The helpers are tolerant:
 * a missing member gives the caller's default, never a crash.
 *
 * Names: doc_* read the results document (a jansson tree); html_put,
 * term_put and term_text write text made safe for a page or a terminal;
 * num_text formats a figure; svg_* draw.  (The image's own reader of JSON
 * text, over spans and without allocation, is jval_*: bench/results/json_read.h.)
 */
#ifndef BAREMARK_REPORT_UTIL_H
#define BAREMARK_REPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* The schema version these tools understand (the top-level "schema"). */
#define DOC_SCHEMA_VERSION 1

/* Load a results file.  On failure returns NULL and writes "FILE: no such
 * file", "FILE: is a directory" or "FILE:LINE:COL: reason" into err (the
 * name made safe for a terminal). */
json_t *doc_load(const char *path, char *err, size_t err_size);

/* An input file a command names: 0 when it exists and is not a directory,
 * else prints "baremark CMD: PATH: no such file" (or "is a directory")
 * and returns 2. */
int doc_check_input(const char *cmd, const char *path);

/* Member at a dotted path ("system.cpu_brand"); NULL when any step is
 * missing or not an object. */
json_t *doc_get(json_t *root, const char *path);

/* Typed getters of a member of obj (obj may be NULL): the default when the
 * member is missing or of another type. */
double doc_num(json_t *obj, const char *key, double dflt);
const char *doc_str(json_t *obj, const char *key, const char *dflt);
int doc_bool(json_t *obj, const char *key, int dflt);
/* The profile the run used: the first string of run_profile_members[]
 * (bench/results/run_profile.h: the top-level "profile", in older files a
 * section's copy), else dflt. */
const char *doc_run_profile(json_t *root, const char *dflt);

/* The first member of obj, among the NULL-terminated names, that is an
 * array; NULL if none. */
json_t *doc_first_array(json_t *obj, const char *const *names);

/* Raw samples: the numbers of a JSON array as doubles (nulls and other
 * types skipped).  Returns the count; *out is malloc'd (free it), NULL when
 * the count is 0. */
size_t doc_numbers(json_t *arr, double **out);

/* The median of x[0..n-1] (type-7, stats/stats.h), x left as it is; NAN
 * when n is 0 (compare-runs' and the fleet's medians). */
double median_of(const double *x, size_t n);

/* An object's raw samples: its "samples" array (see the schema), NULL
 * when none. */
json_t *doc_samples(json_t *obj);

/* ---- HTML and SVG ----------------------------------------------------------- */

/* Write s HTML-escaped: the one function every text of a page from a
 * results file goes through (markup characters as entities, control
 * characters as a visible \xNN). */
void html_put(FILE *f, const char *s);

/* ---- terminal ---------------------------------------------------------------- */

/* A string from a file made safe for a terminal: control characters (C0,
 * DEL, C1) and bytes that are not UTF-8 become a visible \xNN; more than
 * max characters (0: no limit) are cut with a note "... (N more
 * characters)".  Writes into buf (size bytes) and returns it. */
char *term_text(char *buf, size_t size, const char *s, size_t max);
/* The same, written to f (at most about 4000 bytes). */
void term_put(FILE *f, const char *s, size_t max);
/* Format a number for people: up to 6 significant digits, "-" for NaN. */
const char *num_text(char *buf, size_t n, double v);

/* Histogram bins of an SVG: min(SVG_HIST_BINS, distinct-looking count). */
#define SVG_HIST_BINS 30

/* Histogram as inline SVG: one <rect class="bar bar-a"> per bin of sample
 * A (and class "bar bar-b" per bin of B when nb > 0, drawn over A on the
 * same scale).  Every bin gets a rect, even an empty one (height 0), so a
 * reader (or a test) can count them: the <svg> carries data-bins="K",
 * data-n-a and data-n-b.  unit labels the x axis. */
void svg_histogram(FILE *f, const double *a, size_t na, const double *b, size_t nb,
                      const char *unit, const char *label_a, const char *label_b);

/* Karsh's raw-sample strip: each sample in collection order as a dot, time
 * (value) upward; A and B interleaved in one plot when nb > 0.  The <svg>
 * carries data-n-a and data-n-b. */
void svg_strip(FILE *f, const double *a, size_t na, const double *b, size_t nb,
                  const char *unit);

/* A BYTEmark test's runs: each run's score as a dot on a scale that fits
 * them and the 95% interval of the mean (a band, the mean a line).  The
 * <svg class="runs"> carries data-n. */
void svg_runs(FILE *f, const double *x, size_t n, double mean, double half);

#endif

/* ---- finding things in sections whose layout varies a little --------------- */

/* Name of a list element: its "name" (every list of the schema names its
 * elements so), else dflt. */
const char *doc_name(json_t *el, const char *dflt);
/* A figure by its row (bench/results/figures.h figures_row_tail): the value
 * row id of table t names below base (the member, or an element of the
 * row's last array), NULL when absent; and as a number (NAN when not). */
struct figure_table;
json_t *doc_fig(json_t *base, const struct figure_table *t, unsigned id);
double doc_fig_num(json_t *base, const struct figure_table *t, unsigned id);
/* The array whose elements row id's last [*] walks, below base (the
 * member, or an element of the array before it): "references" of
 * "references[*].khz" below the clock, "tests" of
 * "scores.per_core[*].tests[*].mean" below a per_core element.  NULL when
 * absent, not an array, or the row has no [*]. */
json_t *doc_fig_list(json_t *base, const struct figure_table *t, unsigned id);
/* A BYTEmark test's per-run scores: its "scores" (numbers). */
size_t doc_run_scores(json_t *test, double **out);
/* The samples of a method's measurement: "samples", or inside its
 * "overhead" object. */
size_t doc_method_samples(json_t *m, double **out);
