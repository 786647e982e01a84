/*
 * bench/results/figures.h - every figure a run reports, declared once: one table
 * per results member (a section's, or the run's own: system, settings,
 * build), each row naming a JSON path, its LAVA test-case id, its unit and
 * how it is summarised.  Portable: the image and the host read the same
 * tables.
 *
 * Who reads them:
 *   - the writers (json_fig_*, below; figures_write.c): a figure a row
 *     names is written through the row, its name the path's last segment;
 *     the JSON writer itself (bench/results/json.h) knows no figures;
 *   - the LAVA result lines (bench/results/lava.h): made from the tables, not by
 *     the sections.  When a section ends the image walks its table over
 *     the member it just wrote (figures_lava): one case per place of each
 *     row with a LAVA id, its measurement and unit from the row, its
 *     result by the row's rules (below), printed in one block after the
 *     section's text;
 *   - the fleet reader (tools/host/fleet/fleet_*.c): every row with a LAVA id
 *     is a figure it tracks across machines, read from the JSON here;
 *   - the run summary (bench/summary/summary.h): each section's headline is its
 *     FIG_HEADLINE rows;
 *   - `baremark validate` and the tests: every numeric leaf of a document
 *     must match a row (figures_undeclared), and every row must name a
 *     path a full run's JSON has.
 *
 * A path is relative to the member: "references[*].khz", where [*] is
 * every element of an array and, for FIG_DETAIL rows only, a last segment
 * "*" is every member of an object ("firmware.*").  A LAVA id is a
 * template: {KEY} is the member KEY of the innermost array element that
 * has it (then the next one out, then a path below the member:
 * "{tsc.reference_cpu}"), {#} the innermost element's index, {#1} the next
 * one out.  lava_id() cleans the result as LAVA does.
 *
 * A condition (only, none, skip, lost, pass) is clauses joined by " or ":
 * "KEY=WORD|WORD" (KEY's value is one of the words: a string's text, a
 * number as in an id, true, false, null; a word may be a template:
 * "cycle_lines={lines}"), "KEY" (KEY is there and not null or false), and
 * either with "!" before it for the opposite.  KEY is a path below the
 * innermost array element that has it, else the next one out, else the
 * member ("status", "agreement.agree"); "/KEY" is KEY at the document's
 * top level ("/profile": the profile the run used).
 *
 * A place's LAVA case, the first rule that applies:
 *   1. `none` holds: no case (a CPU against itself);
 *   2. `skip` holds: skip (the machine lacks it, the settings left it out);
 *   3. `only` fails: fail, no measurement (the figure did not come out);
 *   4. an object on the path before the value is absent or null: no case
 *      (a kernel that ran at no width, no indexes under CUSTOMRUN);
 *   5. no value (absent, null, not a number): skip, or fail where `lost`
 *      holds (a reference found that gave no rate, a CPU that failed);
 *   6. `pass` fails: fail with the measurement (a check the section made
 *      and recorded: the references disagree, a control's wrong verdict);
 *   7. pass with the measurement (the JSON's value x scale, in the unit).
 */
#ifndef BAREMARK_FIGURES_H
#define BAREMARK_FIGURES_H

#include <stddef.h>
#include <stdint.h>

#include "figure_fields.h"   /* the JSON field a row declares (struct figure_field) */
#include "json_read.h"
#include "lava.h"

/* How a figure is summarised. */
enum figure_kind {
    FIG_LOWER,      /* a time or a cost: lower is better */
    FIG_HIGHER,     /* a rate, a score, an index: higher is better */
    FIG_INFO,       /* a measured fact with no better side (a rate, an offset) */
    FIG_DETAIL,     /* raw samples, counts, settings echoed: kept for checking, not tracked */
};

/* Row flags. */
#define FIG_HEADLINE  0x1u  /* in the section's one-line headline */
#define FIG_TICKS_NS  0x2u  /* the LAVA value is the JSON's ticks in ns, by the table's tick_hz
                             * (x scale first: 1e-3 gives us) */
#define FIG_UPPER     0x4u  /* a matrix [*][*]: only cells whose inner index is above the outer one */
#define FIG_SOMETIMES 0x8u  /* only in some runs (plug-ins loaded, a knee found, VERIFY=T): the
                             * tests do not ask the full run to have it */
#define FIG_SIGNED    0x10u /* a lower/higher figure that may be below zero (a net time: the
                             * timing less the placeholder's); validate refuses others below 0 */

/* How the raw samples beside a value become samples of the figure. */
enum figure_samples {
    FIG_SAMPLES_AS_IS,
    FIG_SAMPLES_NS,         /* ticks -> ns by the table's tick_hz */
    FIG_SAMPLES_NET,        /* timings -> net per iteration: (t - placeholder_median) / iterations */
    FIG_SAMPLES_NET_NS,     /* both */
};
/* FIG_SAMPLES_NET's inputs beside an element's raw samples (a measurement's
 * "placeholder_median" and "iterations"), each NAN when absent; 1 when
 * they make the net samples (both numbers, iterations > 0), else 0. */
int figures_net_inputs(struct jval elem, double *placeholder_median, double *iterations);

struct figure {
    const char *path;       /* below the member, with [*] wildcards */
    const char *lava;       /* LAVA test-case id template; NULL: none (FIG_DETAIL rows) */
    const char *unit;       /* of the LAVA value ("kHz", "ns/iter"); may be a template ("{unit}") */
    enum figure_kind kind;
    unsigned flags;
    double scale;           /* LAVA value = JSON value x scale (0: 1) */
    /* Only where the element's member is so: "status=ok", "status=ok|too_short"
     * (NULL: always).
     * A place that fails it is a figure of that run that did not come out
     * (LAVA's fail), not a value. */
    const char *only;
    const char *samples;    /* raw samples beside the value, relative to the element; NULL none */
    enum figure_samples transform;
    const char *label;      /* headline words before the value ("TSC"); NULL: the LAVA id */
    /* The headline's unit where a person reads the figure in another unit
     * than LAVA's (the TSC in MHz as the summary says it, LAVA's in kHz):
     * the headline shows the LAVA value x headline_scale in headline_unit.
     * NULL: LAVA's unit and value. */
    const char *headline_unit;
    double headline_scale;
    /* The LAVA case's result (figures_lava, below), conditions as `only`: */
    const char *none;       /* where it holds: no case at all (the reference CPU against itself) */
    const char *skip;       /* where it holds: skip (the machine lacks it, the settings switched it off) */
    const char *lost;       /* where the value is missing and it holds: fail, not skip (a figure that
                             * should have come out: a reference found that gave no rate) */
    const char *pass;       /* where it does not hold: fail, with the value (a control's verdict, a
                             * check the section made: "agree=true", "cycle_lines={lines}") */
    struct figure_field field;  /* .field = FIG_FIELD(...): its schema for validate */
};

struct figure_table {
    const char *member;     /* the results member: "clock", "comparisons"; NULL: the top level */
    const struct figure *rows;
    unsigned n;
    const char *tick_hz;    /* member path of the tick rate for FIG_TICKS_NS and ns samples */
    /* The member's other fields (bench/NAME/fields_NAME.c), ending with
     * { NULL }; NULL: none declared. */
    const struct figure_field_row *fields;
};

/* The table's rows and, optionally, its field rows:
 * FIGURE_TABLE(figures_NAME, "NAME", NULL, rows, fields_NAME).  The
 * image reads no field row (the Makefile builds bench/NAME/fields_NAME.c
 * into the hosted program only): its tables have none. */
#ifdef BAREMARK_EFI
#define FIGURE_FIELDS_(...) NULL
#else
#define FIGURE_FIELDS_(...) __VA_ARGS__
#endif
#define FIGURE_TABLE(var, member, tick_hz, rows, ...) \
    const struct figure_table var = { member, rows, sizeof rows / sizeof rows[0], tick_hz, FIGURE_FIELDS_(__VA_ARGS__) }

/*
 * A table and the names its writer uses, from one list: LIST(X) holds one
 * X(ID, path, LAVA id, unit, kind, flags, .field = ...) per row, the
 * fields after ID those of struct figure.  FIGURE_IDS makes the enum of
 * the IDs (in a header the writer includes), FIGURE_LIST the table (in
 * bench/figures_SECTION.c); the writer names a row by its ID,
 * json_fig_double(w, &figures_clock, FIG_CLOCK_CHOSEN_KHZ, khz) (below),
 * and takes its name from the row.  A row's ID is its index in the table.
 */
#define FIGURE_ID_(id, ...)  id,
#define FIGURE_ROW_(id, ...) [id] = { __VA_ARGS__ },
#define FIGURE_IDS(name, LIST) enum name { LIST(FIGURE_ID_) name##_count }
#define FIGURE_LIST(var, member, tick_hz, LIST, ...) \
    static const struct figure var##_rows[] = { LIST(FIGURE_ROW_) }; \
    FIGURE_TABLE(var, member, tick_hz, var##_rows, __VA_ARGS__)

/* Writing a figure through row `id` of table t (figures_write.c): the
 * member's name is the row path's last segment ("references[*].khz" ->
 * "khz"; a path ending in "[*]" is an array element, no name), the value
 * as the plain writer (json_u64, ...) gives it. */
struct json_writer;
void json_fig_u64(struct json_writer *w, const struct figure_table *t, unsigned id, uint64_t value);
void json_fig_i64(struct json_writer *w, const struct figure_table *t, unsigned id, int64_t value);
void json_fig_double(struct json_writer *w, const struct figure_table *t, unsigned id, double value);
void json_fig_null(struct json_writer *w, const struct figure_table *t, unsigned id);
/* A number already formatted ("1444.612": no binary fraction's digits). */
void json_fig_raw(struct json_writer *w, const struct figure_table *t, unsigned id, const char *text, size_t n);
/* Where the same code writes a row's place and places a "*" row declares
 * whole (a latency row's ns_median, a TLB chase's): through row id of t,
 * or, t NULL, plainly under key. */
void json_fig_or_double(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key,
                        double value);
void json_fig_or_null(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key);
/* Its name, as the row gives it: the tail of the row's path (NULL for an
 * array element). */
const char *json_fig_key(const struct figure_table *t, unsigned id);

/* Reading a figure by its row, not by its name typed again: the part of
 * row id's path below its last array element ("references[*].ppm" ->
 * "ppm"; the whole path for a row without [*]: "agreement.max_measured_ppm"),
 * and its value below base (the member, or an element of that array). */
const char *figures_row_tail(const struct figure_table *t, unsigned id);
struct jval figures_get(struct jval base, const struct figure_table *t, unsigned id);
/* The array row id's first [*] runs over, below base (the member):
 * "references" for "references[*].ppm", "latency.median_ns" for
 * "latency.median_ns[*][*]"; none for a row without [*]. */
struct jval figures_array(struct jval base, const struct figure_table *t, unsigned id);

/* Every table: the run's own (figures_run.h), then the sections' in run
 * order (bench/sections.c).  NULL past the end. */
const struct figure_table *figures_table(unsigned i);
/* The table of a results member, NULL when none. */
const struct figure_table *figures_find(const char *member);

/* One figure found in a document. */
struct figure_value {
    const struct figure_table *table;
    const struct figure *fig;
    char id[LAVA_ID_MAX + 1];   /* the LAVA id, cleaned; "" when the row has none */
    char path[160];             /* where: "clock.references[0].khz" */
    struct jval json;             /* the value (none when absent) */
    struct jval elem;             /* the innermost array element (none without [*]) */
    struct jval member;           /* the table's member of the document (the walk found it once) */
    double tick_hz;               /* the table's tick rate there (NAN: none), for ns samples */
    double value;               /* the JSON number; NAN when null, absent or not a number */
    double lava_value;          /* in the LAVA unit (scaled); NAN when none or `only` fails */
    int only_failed;            /* the row's `only` condition is not met here */
    char unit[32];              /* the unit, its template filled in */
    int lava_case;              /* the place is a LAVA case (figures_lava) */
    enum lava_result result;    /* ... with this result by the row's rules */
    double case_value;          /* ... and this measurement (NAN: none) */
};

/* Call fn for each place row `fig` of table t reaches in the document doc
 * (the whole results document): once per element of its last [*], once
 * when it has none.  The member absent: no call. */
void figures_each(struct jval doc, const struct figure_table *t, const struct figure *fig,
                  void (*fn)(void *ctx, const struct figure_value *v), void *ctx);
/* The same for every row of t in its order (FIG_ROWS_ALL) or every row
 * with a LAVA id (FIG_ROWS_TRACKED), the member found once: a walk of a
 * whole table costs one look-up of its member, not one a row. */
enum figure_rows { FIG_ROWS_ALL, FIG_ROWS_TRACKED };
void figures_each_row(struct jval doc, const struct figure_table *t, enum figure_rows which,
                      void (*fn)(void *ctx, const struct figure_value *v), void *ctx);

/* The LAVA cases of table t's member of the results document doc: for
 * each row with a LAVA id, in the table's order, each place figures_each
 * reaches that is a case (lava_case), passed to fn.  The image prints
 * them when the section ends (figures_lava_print, bench/results/figures_lava.c);
 * the tests compare them with what a run printed. */
void figures_lava(struct jval doc, const struct figure_table *t,
                  void (*fn)(void *ctx, const struct figure_value *v), void *ctx);
/* The same printed with lava_case (bench/results/lava.h). */
void figures_lava_print(struct jval doc, const struct figure_table *t);

/* Whether a concrete path from the document's root ("clock.references[2].windows[0]")
 * is declared by a row; returns it (and its table), or NULL. */
const struct figure *figures_match(const char *path, const struct figure_table **table);

/* Whether a row's path (with [*] and a last "*") reaches a concrete path
 * below the member ("references[*].khz", "references[2].khz"). */
int figures_path_match(const char *pattern, const char *path);
/* The rule "every number is declared": fn(ctx, path) for each number of
 * the document doc (from its root) that no row declares, with its concrete
 * path ("clock.made_up_ns"); returns how many numbers doc holds.  The
 * tests hold every document a run or a section's writer makes to it, and
 * `baremark validate` every file it is given; the writers cannot break
 * it for a row's figure, which they name by its row's ID (below). */
unsigned figures_undeclared(struct jval doc, void (*fn)(void *ctx, const char *path), void *ctx);

/* The row whose LAVA id template gives this id ("meas_add10_rdtsc_ns" ->
 * "meas_{target}_{method}_ns"), NULL when none: for a figure known only
 * by its id (LAVA's recorded results). */
const struct figure *figures_id_row(const char *id);

/* The raw samples of a figure found, transformed (figure_samples) into
 * out (at most cap); returns how many. */
size_t figures_samples(const struct figure_value *v, double *out, size_t cap);

/* "lower", "higher", "info", "detail". */
const char *figure_kind_name(enum figure_kind k);

#endif
