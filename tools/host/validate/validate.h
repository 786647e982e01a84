/*
 * tools/host/validate/validate.h - what the per-section validators share
 * (tools/host/validate_*.c, implemented in validate_common.c).  A section's
 * validator is a table of its fields (struct rv_field, report_schema.h), the
 * fields its member's figure table declares (a row's .field,
 * bench/results/figures.h: walked by cmd_validate.c rv_table_fields, so a
 * field is declared once) and an optional cross-field check (what one field
 * says of another, which no table can); it is listed in rv_sections[]
 * (tools/host/validate/report_schema.c).
 */
#ifndef BAREMARK_VALIDATE_H
#define BAREMARK_VALIDATE_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "report_schema.h"

#define REQ 1
#define OPT 0
#define NOMIN NAN

/* bench/system/quiet.c quiet_json(): the clock's "quiet" member and the hosted
 * program's top-level "quiet" section (tools/host/measure/cmd_quiet.c). */
#define QUIET_FIELDS(P) \
    { P "ms", RV_UINT, REQ, "ms", NULL, 1 }, \
    { P "tick_hz", RV_UINT, REQ, "Hz", NULL, 1 }, \
    { P "masked", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { P "reads", RV_UINT, REQ, "reads", NULL, NOMIN }, \
    { P "elapsed_ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { P "min_gap_ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { P "max_gap_ticks", RV_UINT, REQ, NULL, NULL, NOMIN }, \
    { P "max_gap_at_ticks", RV_UINT, OPT, "ticks after the first read", NULL, NOMIN }, \
    { P "gaps_over_1us", RV_UINT, REQ, NULL, NULL, NOMIN }, \
    { P "gaps_over_10us", RV_UINT, REQ, "gaps", NULL, NOMIN }, \
    { P "gaps_over_100us", RV_UINT, OPT, "gaps", NULL, NOMIN }, \
    { P "gaps_over_1ms", RV_UINT, OPT, "gaps", NULL, NOMIN }, \
    { P "gaps_per_second", RV_NUM, REQ, "gaps over 1 us per s", NULL, 0 }

/* bench/system/quiet.c quiet_phase_totals_json(): a section's measuring phases. */
#define QUIET_PHASES_FIELDS \
    { "quiet_phases", RV_OBJ, OPT, NULL, NULL, NOMIN }, \
    { "quiet_phases.phases", RV_UINT, REQ, "phases", NULL, NOMIN }, \
    { "quiet_phases.timer_stopped_phases", RV_UINT, REQ, "phases", NULL, NOMIN }, \
    { "quiet_phases.timer_period_100ns", RV_UINT, REQ, "100 ns", NULL, NOMIN }, \
    { "quiet_phases.timer_note", RV_STR, OPT, NULL, NULL, NOMIN }, \
    { "quiet_phases.ticks", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "quiet_phases.nmis", RV_UINT, REQ, "NMIs", NULL, NOMIN }, \
    { "quiet_phases.smi_counted", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { "quiet_phases.smis", RV_UINT, OPT, "SMIs", NULL, NOMIN }, \
    { "quiet_phases.aperf_mperf", RV_BOOL, REQ, NULL, NULL, NOMIN }, \
    { "quiet_phases.aperf", RV_UINT, OPT, "cycles", NULL, NOMIN }, \
    { "quiet_phases.mperf", RV_UINT, OPT, "cycles", NULL, NOMIN }

/* bench/methods/methods.c methods_section(): methods_status_name() and the members
 * written by methods_json_header, methods_part_method, methods_json_result,
 * methods_part_profile and methods_part_paoloni. */
#define METHODS_STATUSES "ok|bad_input|calibration_overhead|benchmark_overhead|too_short|inconclusive|" \
                         "unsupported|fault|no_memory"

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

/* min, max and mean of an array of numbers; returns n, 0 when not an array. */
size_t rv_arr_stats(json_t *arr, double *mn, double *mx, double *mean);
/* A stated figure `got` against the one the samples give, `want`; NaN on
 * either side is not compared (a figure that must be there is required
 * with rv_need_num or by its field's type). */
void rv_expect_close(double got, double want, const char *what, const char *at, const char *file,
                     int *problems, int quiet);

/* The quiet-machine counts (bench/system/quiet.c quiet_json()) nest and the rate
 * is the count over the elapsed time. */
void rv_quiet_counts(json_t *q, const char *where, const char *file, int *problems, int quiet);
/* A section's quiet_phases: one phase per unit of work (`want`; negative:
 * not checked). */
void rv_quiet_phases(json_t *sec, const char *where, long want, const char *file, int *problems, int quiet);

/* The checks the figure tables drive (validate_figures.c): every row's
 * places hold what its kind says, a run that ended has every row not
 * FIG_SOMETIMES, and every number in the document is declared by a row
 * ("figure X is not declared in any figure table"). */
void rv_figures(json_t *root, const char *file, int *problems, int quiet);

#endif
