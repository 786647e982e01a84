/*
 * bench/report/report_parts.h - the parts of `baremark report`'s page
 * (tools/host/report/cmd_report.c is the page frame and its order: its
 * own parts, then each section's, from the REPORT column of
 * bench/sections.def).  A section's view is bench/NAME/report_NAME.c; the
 * page's shared pieces are here, in bench/report/: the generic tables that
 * show any object or list (report_tables.c), the tracked figures from the
 * figure tables (report_figures.c), the first screen (report_top.c), and
 * the page's own folds, no section's: its head, the machine and build
 * (report_machine.c) and the quiet machine (report_quiet.c).
 * Host-only (the Makefile's HOST_ONLY_C).
 */
#ifndef BAREMARK_REPORT_PARTS_H
#define BAREMARK_REPORT_PARTS_H

#include <stdio.h>

#include <jansson.h>

#include "json_read.h"

/* Noise threshold for the report's own recomputed verdict: 1% of the
 * median, as `baremark compare` uses by default. */
#define REPORT_NOISE 0.01
/* Arrays longer than this are summarised ("N values") in generic tables. */
#define REPORT_INLINE_MAX 8

struct summary;

struct report {
    FILE *f;
    json_t *root;
    const struct summary *sum;      /* the run's summary (bench/summary/summary.h); NULL without memory */
    struct jval doc;                  /* the document for the figure tables (bench/results/figures.h); none without memory */
};

/* One section of the page: the top-level members it shows ("a|b": the
 * generic part at the end of the page leaves them out), its id and title
 * (the fold's heading; the fold's line is the summary's headline for id)
 * and the function that writes its body.  A body that writes nothing gets
 * no fold.  A section's is report_NAME in bench/NAME/report_NAME.c, named
 * by the REPORT column of its row of bench/sections.def; the page's order
 * is cmd_report.c's. */
struct report_section {
    const char *members, *id, *title;
    void (*write)(struct report *r);
};

/* Whether top-level member k is one of "a|b|c". */
int rp_member_in(const char *members, const char *k);

/* ---- generic tables (report_tables.c) ---------------------------------------- */
int rp_is_scalar(json_t *v);
int rp_array_of_objects(json_t *v);
/* One value in a cell: numbers formatted, strings escaped, short arrays
 * inline, long ones counted. */
void rp_cell_value(FILE *f, json_t *v);
void rp_td(FILE *f, json_t *v);
/* How many rows rp_kv_table would write. */
size_t rp_kv_count(json_t *obj);
/* Key/value rows of an object's scalar members and small nested objects;
 * skip names a member to leave out (or NULL). */
void rp_kv_table_skip(FILE *f, json_t *obj, const char *skip);
void rp_kv_table(FILE *f, json_t *obj);
/* A list of objects as a table, the union of their members as columns. */
void rp_list_table(FILE *f, json_t *arr);
/* Everything of an object: its scalars, then each list as a table. */
void rp_generic_object(FILE *f, json_t *obj, const char *skip);
/* "not run" when sec is NULL (returns 1). */
int rp_section_missing(FILE *f, json_t *sec);

/* ---- from the figure tables (report_figures.c) -------------------------------- */
/* The tracked figures of a results member (its table's rows with a LAVA
 * id; NULL: the top level's, the run's own) as a table: LAVA id, value,
 * unit, kind, better side.  Returns the rows written (0: no table, or
 * none of them in the file). */
size_t rp_figure_table(struct report *r, const char *member);
/* A member's headline from its table's FIG_HEADLINE rows; 0 when none. */
int rp_table_headline(struct report *r, const char *member, char *out, size_t cap);

/* ---- the parts --------------------------------------------------------------- */
void part_header(struct report *r);                 /* report_machine.c */
void part_warnings(struct report *r);               /* report_machine.c */
void part_top(struct report *r);                    /* report_top.c */
void part_badge(struct report *r);                  /* report_top.c */
/* The page's style for narrow screens and the first screen's additions
 * (cmd_report.c writes it after its own). */
extern const char report_css_screens[];             /* report_top.c */
/* A section's one-line headline from the summary (NULL: none). */
const char *report_headline(const struct summary *s, const char *id);   /* report_top.c */
void machine_line(FILE *f, json_t *root);           /* report_machine.c */
/* The page's folds that are no section's: the machine and build
 * (report_machine.c), how quiet the machine was (report_quiet.c); the
 * sections' folds are declared where cmd_report.c reads
 * bench/sections.def. */
extern const struct report_section report_machine, report_quiet;

#endif
