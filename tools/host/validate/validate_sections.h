/*
 * tools/host/validate/validate_sections.h - `baremark validate`'s list of
 * the results members it checks, in the order the image writes them, each
 * with its cross-field check (tools/host/validate/validate_NAME.c), and
 * the top level's check.  The fields themselves are declared once, in
 * each member's table (bench/results/figures.h: the figure rows' .field
 * and the field rows, bench/NAME/fields_NAME.c); docs/results-schema.md
 * is their prose.
 */
#ifndef BAREMARK_VALIDATE_SECTIONS_H
#define BAREMARK_VALIDATE_SECTIONS_H

#include <jansson.h>

#include "figures.h"

/* A cross-field check of a section (units and figures that must agree);
 * adds to *problems and prints "FILE: where: what" unless quiet. */
typedef void (*rv_check_fn)(json_t *section, const char *where, const char *file,
                            int *problems, int quiet);

/* A member validate checks: its fields are its figure table's
 * (figures_find(name)), walked before the check. */
struct rv_section {
    const char *name;        /* top-level member */
    int array;               /* the section is an array (else an object) */
    rv_check_fn check;       /* may be NULL */
};

/* The sections, NULL terminated (tools/host/validate/validate_sections.c
 * says how to add one). */
extern const struct rv_section *const rv_sections[];

/* Checks that span top-level members (errors vs status, schema version). */
void rv_top_check(json_t *root, const char *file, int *problems, int quiet);

/* Check a loaded document (cmd_validate.c): returns the number of problems,
 * each printed (unless quiet) as "FILE: WHERE: what" to rv_out (validate.h,
 * stdout by default); *sections_seen counts the known sections present. */
int rv_document(json_t *root, const char *file, int quiet, int *sections_seen);

/* "a string", "a number", ... for messages. */
const char *rv_type_text(enum figure_field_type t);

#endif
