/*
 * tools/host/validate/validate.h - what the per-section validators share
 * (tools/host/validate_*.c, implemented in validate_common.c).  A section's
 * validator is the fields its member's figure table declares (its rows'
 * .field and its field rows, bench/results/figures.h, walked by
 * cmd_validate.c rv_table_fields: a field is declared once, in the
 * member's folder) and an optional cross-field check (what one field
 * says of another, which no table can); it is listed in rv_sections[]
 * (tools/host/validate/validate_sections.c).
 */
#ifndef BAREMARK_VALIDATE_H
#define BAREMARK_VALIDATE_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "validate_sections.h"

/* Where problems are printed (NULL: stdout); `baremark report` points it
 * at the page's warning list. */
extern FILE *rv_out;

/* A list element's name or key for a message, cut to RV_NAME_MAX
 * characters with a note. */
#define RV_NAME_MAX 48
const char *rv_name(char *buf, size_t n, json_t *el, const char *key);

/* One problem: prints "FILE: WHERE: MSG" unless quiet (safe for a
 * terminal: control characters shown as \xNN, long names cut), and counts
 * it. */
void rv_say(const char *file, const char *where, const char *msg, int *problems, int quiet);

/* obj.key must be a number (missing or null is a problem) because `why`
 * ("to check per_iteration.apple"). */
void rv_need_num(json_t *obj, const char *key, const char *why, const char *at, const char *file, int *problems,
                 int quiet);
/* obj.key, when a string, must be a CPUID vendor string (12 letters,
 * digits, spaces). */
void rv_cpuid_text(json_t *obj, const char *key, const char *where, const char *file, int *problems, int quiet);

/* Two figures the file states separately agree to a relative 1e-6. */
int rv_close(double a, double b);
/* Two copies of one figure the writer printed twice (exact to the printed
 * digits). */
int rv_same(double a, double b);
/* A ppm figure as written against the one recomputed from the kHz. */
int rv_ppm_close(double written, double exact);

/* A figure read by its row (doc_fig, report_util.h): its number, dflt
 * when absent or not a number (doc_fig_num's NAN is dflt NAN). */
struct figure_table;
double rv_fig_num(json_t *base, const struct figure_table *t, unsigned id, double dflt);

/* min, max and mean of an array of numbers; returns n, 0 when not an array. */
size_t rv_arr_stats(json_t *arr, double *mn, double *mx, double *mean);
/* A stated figure `got` against the one the samples give, `want`; NaN on
 * either side is not compared (a figure that must be there is required
 * with rv_need_num or by its field's type). */
void rv_expect_close(double got, double want, const char *what, const char *at, const char *file,
                     int *problems, int quiet);

/* The quiet-machine counts (bench/system/quiet.c quiet_json()) nest and the rate
 * is the count over the elapsed time.  q is the counts' object; the two
 * figures it has rows for are read by those rows of table t below base
 * (the clock's quiet.gaps_over_1us and quiet.max_gap_ticks, the quiet
 * member's own). */
struct rv_quiet_rows {
    const struct figure_table *t;
    unsigned gaps_over_1us, max_gap_ticks;
};
void rv_quiet_counts(json_t *base, json_t *q, const struct rv_quiet_rows *rows, const char *where, const char *file,
                     int *problems, int quiet);
/* A section's quiet_phases: one phase per unit of work (`want`; negative:
 * not checked). */
void rv_quiet_phases(json_t *sec, const char *where, long want, const char *file, int *problems, int quiet);

/* The checks the figure tables drive (validate_figures.c): every row's
 * places hold what its kind says, a run that ended has every row not
 * FIG_SOMETIMES, and every number in the document is declared by a row
 * ("figure X is not declared in any figure table"). */
void rv_figures(json_t *root, const char *file, int *problems, int quiet);

#endif
