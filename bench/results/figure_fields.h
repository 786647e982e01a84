/*
 * bench/results/figure_fields.h - the schema's words: the JSON field a
 * figure row or a field row declares (type, whether it is required, the
 * smallest value, the unit, a string's allowed words), as `baremark
 * validate` walks them.  Included by figures.h; the tables that use it
 * are bench/NAME/figures_NAME.h and bench/NAME/fields_NAME.c.
 */
#ifndef BAREMARK_FIGURE_FIELDS_H
#define BAREMARK_FIGURE_FIELDS_H

/* The JSON field at a path, as `baremark validate` checks it (the schema:
 * docs/results-schema.md): its JSON type, whether it must be there
 * wherever its object is, the smallest valid value, the unit validate
 * names ("timings per series"; NULL: a figure row's unit) and, for a
 * string, the words it may hold ("uefi|linux"; NULL: any text).  A figure
 * row carries one in .field (type FIELD_NONE: checked as its kind says, a
 * number or null); every other member of the results is a field row of
 * its member's table (struct figure_field_row, below).  An array's
 * elements: a row "list[*]" (FIELD_OBJ for a list of objects); FIELD_NUMS
 * and FIELD_STRS say what every element is. */
enum figure_field_type {
    FIELD_NONE, FIELD_UINT, FIELD_INT, FIELD_NUM, FIELD_NUM_OR_NULL,
    FIELD_STR, FIELD_BOOL, FIELD_OBJ, FIELD_OBJ_OR_NULL, FIELD_ARR,
    FIELD_NUMS,     /* an array of numbers (null allowed: a non-finite value) */
    FIELD_STRS,     /* an array of strings */
};
struct figure_field {
    enum figure_field_type type;
    unsigned char required;     /* FIELD_REQ or FIELD_OPT */
    unsigned char has_min;
    double min;
    const char *unit;
    const char *allowed;        /* a string's words, "a|b|c"; NULL: any */
};
#define FIELD_REQ 1
#define FIELD_OPT 0
#define FIG_FIELD(type, req, unit)          { type, req, 0, 0, unit, NULL }
#define FIG_FIELD_MIN(type, req, min, unit) { type, req, 1, min, unit, NULL }
#define FIG_FIELD_WORDS(req, words)         { FIELD_STR, req, 0, 0, NULL, words }

/* A member of the results that is not a figure (a text, a flag, an
 * object, a list, a number no figure consumer reads as one): its path
 * below the member as a figure row's ("references[*].name") and its
 * field.  A table's list of them ends with { NULL }; the figure readers
 * (LAVA, fleet, the report's folds, the summary) never see them, only
 * `baremark validate` and the tests. */
struct figure_field_row {
    const char *path;
    struct figure_field field;
};
#define FIELD_ROW(path, type, req, unit)          { path, FIG_FIELD(type, req, unit) }
#define FIELD_ROW_MIN(path, type, req, min, unit) { path, FIG_FIELD_MIN(type, req, min, unit) }
#define FIELD_ROW_WORDS(path, req, words)         { path, { FIELD_STR, req, 0, 0, NULL, words } }
#define FIELD_ROW_WORDS_UNIT(path, req, unit, words) { path, { FIELD_STR, req, 0, 0, unit, words } }

#endif
