/*
 * tools/host/validate/report_schema.h - schema 1 of the results file as a table
 * (docs/results-schema.md is its prose), used by `baremark validate`;
 * one validator per section in tools/host/validate_NAME.c.
 */
#ifndef BAREMARK_REPORT_SCHEMA_H
#define BAREMARK_REPORT_SCHEMA_H

#include <jansson.h>

enum rv_type {
    RV_STR, RV_UINT, RV_INT, RV_NUM, RV_NUM_OR_NULL, RV_BOOL, RV_OBJ, RV_OBJ_OR_NULL, RV_ARR,
    RV_NUMS,     /* an array of numbers (null allowed: a non-finite value) */
    RV_STRS      /* an array of strings */
};

/* One field: a path inside its section ("references[].khz"), its type,
 * whether it must be present, its unit (or NULL), allowed string values
 * ("a|b|c" or NULL) and the smallest valid number (NAN for none). */
struct rv_field {
    const char *path;
    enum rv_type type;
    int required;
    const char *unit;
    const char *allowed;
    double min;
};

/* A cross-field check of a section (units and figures that must agree);
 * adds to *problems and prints "FILE: where: what" unless quiet. */
typedef void (*rv_check_fn)(json_t *section, const char *where, const char *file,
                            int *problems, int quiet);

struct rv_section {
    const char *name;        /* top-level member */
    int array;               /* the section is an array (else an object) */
    const struct rv_field *fields;
    rv_check_fn check;       /* may be NULL */
};

/* The top level's own members (schema, name, errors, status, ended). */
extern const struct rv_field rv_top_fields[];
/* The sections, NULL terminated (tools/host/validate/report_schema.c says how to
 * add one). */
extern const struct rv_section *const rv_sections[];

/* Checks that span top-level members (errors vs status, schema version). */
void rv_top_check(json_t *root, const char *file, int *problems, int quiet);

/* Check a loaded document (cmd_validate.c): returns the number of problems,
 * each printed (unless quiet) as "FILE: WHERE: what" to rv_out (validate.h,
 * stdout by default); *sections_seen counts the known sections present. */
int rv_document(json_t *root, const char *file, int quiet, int *sections_seen);

/* "a string", "a number", ... for messages. */
const char *rv_type_text(enum rv_type t);

#endif
