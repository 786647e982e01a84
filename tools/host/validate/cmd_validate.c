/*
 * tools/host/validate/cmd_validate.c - `baremark validate RUN.json...`: check results
 * files against docs/results-schema.md (schema 1).
 *
 * Two kinds of check.  The figures are the figure tables' (bench/results/figures.h,
 * validate_figures.c): each row's places hold a number or null, finite,
 * not below zero where lower or higher is better; a run that ended has
 * every row not FIG_SOMETIMES; and every number in the file is declared
 * by a row, else "figure X is not declared in any figure table".  The
 * structure around them is each member's table's too: its field rows
 * (bench/NAME/fields_NAME.c) and its figure rows' .field give each
 * field's JSON type, whether it is required and its unit (or allowed
 * words), a path component ending in "[*]" being an array whose every
 * element is checked.  What one figure says of another is each section's
 * cross-field check (validate_NAME.c, listed in validate_sections.c).  A missing section is
 * fine (the section did not run); texts and objects the schema does not
 * name are ignored.  Every problem is printed as "FILE: PATH: what is
 * wrong" on standard error, a verdict per file on standard output; the
 * exit status is 0 when every file is valid, 1 when one is not, 2 on usage
 * errors and files that cannot be read or are not JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "figures.h"
#include "report_util.h"
#include "run_state.h"
#include "validate.h"

struct rv_ctx {
    const char *file;
    int problems;
    int quiet;
};

static void rv_problem(struct rv_ctx *c, const char *where, const char *fmt, const char *a,
                       const char *b)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, a, b);
    rv_say(c->file, where, msg, &c->problems, c->quiet);
}

static const char *rv_type_name(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a fraction";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static int rv_in_enum(const char *allowed, const char *s)
{
    size_t n = strlen(s);
    const char *p = allowed;
    while (p && *p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, s, n))
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* A field's unit: its own, else (a figure's) its figure table row's, so a
 * figure's unit is declared once (bench/NAME/figures_NAME.c). */
static const char *rv_unit(const struct figure_field *s, const char *where)
{
    const struct figure *f = s->unit ? NULL : figures_match(where, NULL);
    if (s->unit || !f || f->kind == FIG_DETAIL || !f->unit[0] || strchr(f->unit, '{'))
        return s->unit;
    return f->unit;
}

static void rv_want(const struct figure_field *s, const char *where, char *buf, size_t n)
{
    const char *unit = rv_unit(s, where);
    snprintf(buf, n, "%s%s%s%s", rv_type_text(s->type), unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
}

/* Check one value against a field's type, range and allowed words. */
static void rv_check_value(struct rv_ctx *c, json_t *v, const char *where, const struct figure_field *s)
{
    char want[160];
    int ok;
    rv_want(s, where, want, sizeof want);
    switch (s->type) {
    case FIELD_STR: ok = json_is_string(v); break;
    case FIELD_UINT: ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
    case FIELD_INT: ok = json_is_integer(v); break;
    case FIELD_NUM: ok = json_is_number(v); break;
    case FIELD_NUM_OR_NULL: ok = json_is_number(v) || json_is_null(v); break;
    case FIELD_BOOL: ok = json_is_boolean(v); break;
    case FIELD_OBJ: ok = json_is_object(v); break;
    case FIELD_OBJ_OR_NULL: ok = json_is_object(v) || json_is_null(v); break;
    case FIELD_ARR: ok = json_is_array(v); break;
    case FIELD_NUMS: ok = json_is_array(v); break;
    case FIELD_STRS: ok = json_is_array(v); break;
    default: ok = 1;
    }
    if (!ok) {
        rv_problem(c, where, "expected %s, found %s", want, rv_type_name(v));
        return;
    }
    if (s->type == FIELD_STR && s->allowed && !rv_in_enum(s->allowed, json_string_value(v))) {
        char got[200];
        snprintf(got, sizeof got, "\"%s\"", json_string_value(v));
        rv_problem(c, where, "%s is not one of: %s", got, s->allowed);
    }
    if (json_is_number(v) && s->has_min && json_number_value(v) < s->min) {
        char got[64], lim[64];
        snprintf(got, sizeof got, "%g", json_number_value(v));
        snprintf(lim, sizeof lim, "%g (%s)", s->min, rv_unit(s, where) ? rv_unit(s, where) : "");
        rv_problem(c, where, "%s is below the smallest valid value %s", got, lim);
    }
    if (s->type == FIELD_NUMS || s->type == FIELD_STRS) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            int good = s->type == FIELD_NUMS ? json_is_number(e) || json_is_null(e) : json_is_string(e);
            if (!good) {
                char at[256];
                snprintf(at, sizeof at, "%s[%zu]", where, i);
                rv_problem(c, at, "expected %s, found %s",
                           s->type == FIELD_NUMS ? "a number" : "a string", rv_type_name(e));
                break;   /* one line per array is enough */
            }
        }
    }
}

/* Walk `path` (a table row's: "references[*].khz", a component ending in
 * "[*]" being every element of that array) from node; report a missing
 * last component when required. */
static void rv_walk(struct rv_ctx *c, json_t *node, const char *path, const char *where,
                    const struct figure_field *s)
{
    char comp[64], at[512];
    const char *dot = strchr(path, '.');
    size_t n = dot ? (size_t)(dot - path) : strlen(path);
    int each = n >= 3 && !strncmp(path + n - 3, "[*]", 3);
    const char *rest = dot ? dot + 1 : "";
    json_t *child;

    if (n >= sizeof comp)
        return;
    memcpy(comp, path, n);
    comp[n - (each ? 3 : 0)] = 0;
    if (comp[0]) {
        if (!json_is_object(node))
            return;          /* the parent's own spec reports its type */
        child = json_object_get(node, comp);
        snprintf(at, sizeof at, "%s%s%s", where, where[0] ? "." : "", comp);
    } else {
        child = node;
        snprintf(at, sizeof at, "%s", where);
    }
    if (!child) {
        if (s->required && !*rest && !each) {
            char want[160];
            rv_want(s, at, want, sizeof want);
            rv_problem(c, at, "missing: %s is required%s", want, "");
        }
        return;
    }
    if (each) {
        size_t i;
        json_t *e;
        if (!json_is_array(child))
            return;           /* reported by the array's own spec */
        json_array_foreach(child, i, e) {
            char at2[600];
            snprintf(at2, sizeof at2, "%s[%zu]", at, i);
            if (*rest)
                rv_walk(c, e, rest, at2, s);
            else
                rv_check_value(c, e, at2, s);
        }
        return;
    }
    if (*rest)
        rv_walk(c, child, rest, at, s);
    else
        rv_check_value(c, child, at, s);
}

/* The fields a member's table declares (bench/results/figures.h): its
 * field rows (bench/NAME/fields_NAME.c) in their order, then its figure
 * rows' .field, whose unit is the field's own, else the row's (when it is
 * one, not a template). */
static void rv_table_fields(struct rv_ctx *c, json_t *node, const struct figure_table *t, const char *where)
{
    for (const struct figure_field_row *f = t ? t->fields : NULL; f && f->path; f++)
        rv_walk(c, node, f->path, where, &f->field);
    for (unsigned r = 0; t && r < t->n; r++) {
        const struct figure *f = &t->rows[r];
        struct figure_field s = f->field;
        if (s.type == FIELD_NONE)
            continue;
        if (!s.unit && f->unit[0] && !strchr(f->unit, '{'))
            s.unit = f->unit;
        rv_walk(c, node, f->path, where, &s);
    }
}

static int rv_listed(const char *member)
{
    for (const struct rv_section *const *s = rv_sections; *s; s++)
        if (!strcmp((*s)->name, member))
            return 1;
    return 0;
}

static void rv_section(struct rv_ctx *c, json_t *root, const struct rv_section *sec)
{
    json_t *v = json_object_get(root, sec->name);
    if (!v)
        return;
    if (sec->array ? !json_is_array(v) : !json_is_object(v)) {
        rv_problem(c, sec->name, "expected %s, found %s", sec->array ? "an array" : "an object",
                   rv_type_name(v));
        return;
    }
    rv_table_fields(c, v, figures_find(sec->name), sec->name);
    if (sec->check)
        sec->check(v, sec->name, c->file, &c->problems, c->quiet);
}

int rv_document(json_t *root, const char *file, int quiet, int *sections_seen)
{
    struct rv_ctx c = { file, 0, quiet };
    const struct figure_table *t;
    rv_table_fields(&c, root, figures_table(0), "");
    rv_top_check(root, file, &c.problems, quiet);
    *sections_seen = 0;
    for (const struct rv_section *const *s = rv_sections; *s; s++) {
        rv_section(&c, root, *s);
        if (json_object_get(root, (*s)->name))
            (*sections_seen)++;
    }
    /* a member validate has no check of its own for (a section added in
     * its folder, bench/NAME/): its table's fields all the same */
    for (unsigned i = 1; (t = figures_table(i)); i++) {
        json_t *v = t->member ? json_object_get(root, t->member) : NULL;
        if (v && json_is_object(v) && !rv_listed(t->member))
            rv_table_fields(&c, v, t, t->member);
    }
    rv_figures(root, file, &c.problems, quiet);
    return c.problems;
}

/* The whole file: top-level members, then each known section. */
static int rv_file(const char *path, int quiet, int *sections_seen, struct rs_state *st)
{
    char err[1024];
    json_t *root = doc_load(path, err, sizeof err);
    if (!root) {
        fprintf(stderr, "baremark validate: %s\n", err);
        return -1;
    }
    rs_read(root, st);
    int problems = rv_document(root, path, quiet, sections_seen);
    json_decref(root);
    return problems;
}

enum { RV_OPT_QUIET = 1 };
static const struct cli_opt rv_opts[] = {
    { RV_OPT_QUIET, "-q|--quiet", NULL, "only the verdict line per file, not each problem" },
    { 0 },
};
const struct cli_cmd cli_cmd_validate = {
    "validate", "[-q] RUN.json...", "check results files against the schema (docs/results-schema.md)", rv_opts,
    "Each problem goes to standard error as \"FILE: PATH: what is wrong\"; one verdict line per file\n"
    "(valid / INVALID) to standard output.\n"
    "exit status: 0 every file valid, 1 a file is invalid (the check failed),\n"
    "  2 usage or a file that cannot be read or is not JSON (named with its place)\n",
};

int cmd_validate(int argc, char **argv)
{
    int quiet = 0, bad = 0, files = 0;
    struct cli_iter it = { &cli_cmd_validate, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == RV_OPT_QUIET)
            quiet = 1;
        else if (id != CLI_ARG)
            return 2;
    }
    it.i = 1;
    rv_out = stderr;        /* each problem; the verdict lines on standard output */
    fflush(stdout);
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id != CLI_ARG)
            continue;
        fflush(stdout);
        struct rs_state st;
        char words[64];
        const char *path = it.val;
        if (doc_check_input("validate", path)) {
            bad = 2;
            files++;
            continue;
        }
        int seen = 0, p = rv_file(path, quiet, &seen, &st);
        files++;
        if (p < 0) {
            bad = 2;
            continue;
        }
        if (p > 0) {
            term_put(stdout, path, 200);
            printf(": INVALID: %d problem%s (schema %d, docs/results-schema.md)\n", p, p == 1 ? "" : "s",
                   DOC_SCHEMA_VERSION);
            bad = bad ? bad : 1;
        } else {
            term_put(stdout, path, 200);
            printf(": valid (schema %d, %d section%s)%s%s\n", DOC_SCHEMA_VERSION, seen, seen == 1 ? "" : "s",
                   st.kind == RS_INTERRUPTED ? "; the run was " : "",
                   st.kind == RS_INTERRUPTED ? rs_words(&st, words, sizeof words) : "");
        }
    }
    if (!files)
        return cli_usage_error(&cli_cmd_validate, "give one or more RUN.json");
    return bad;
}
