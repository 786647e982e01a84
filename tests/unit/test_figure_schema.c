/*
 * tests/unit/test_figure_schema.c - the figure tables' field schema (a row's
 * .field, bench/results/figures.h) agrees with the writers and is declared
 * once (issue 36 item 2):
 *   - a row with a field names one place (no member wildcard "*"), and
 *     its table has no field row (bench/NAME/fields_NAME.c) for that path
 *     (the row is the one declaration);
 *   - the field's rules do not contradict the row's: an unsigned one is
 *     not FIG_SIGNED, a lower/higher-is-better figure not FIG_SIGNED has
 *     no smallest value below 0, and the field's own unit is not the row's
 *     unit typed again;
 *   - what the writers wrote agrees with it: in tests/fixtures/run-full.json
 *     (an -icount boot with every section, written by the image's writers)
 *     every place the row reaches holds its JSON type (an unsigned integer
 *     has no sign, fraction or exponent), no value below its smallest, and
 *     a required one is there wherever its object is.
 * Usage: test_figure_schema [RUN.json]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "figures.h"
#include "tools/host/common/commands.h"

/* A field row of table t at the row's path: the same field declared twice
 * (validate names a problem once, by the field row). */
static const struct figure_field_row *field_row(const struct figure_table *t, const char *path)
{
    for (const struct figure_field_row *f = t->fields; f && f->path; f++)
        if (!strcmp(f->path, path))
            return f;
    return NULL;
}

struct place_check {
    const struct figure *row;
    unsigned places, bad;
    char first_bad[200];
};

/* The JSON text of a number as the writer wrote it: an integer has no
 * '.', 'e' or 'E'; an unsigned one no '-'. */
static int type_ok(const struct figure_field *f, struct jval v, enum jval_type ty)
{
    int integer = ty == JVAL_NUMBER && !memchr(v.p, '.', v.n) && !memchr(v.p, 'e', v.n) && !memchr(v.p, 'E', v.n);
    switch (f->type) {
    case FIELD_UINT: return integer && v.p[0] != '-';
    case FIELD_INT: return integer;
    case FIELD_NUM: return ty == JVAL_NUMBER;
    case FIELD_NUM_OR_NULL: return ty == JVAL_NUMBER || ty == JVAL_NULL;
    default: return 1;
    }
}

static void place(void *ctx, const struct figure_value *v)
{
    struct place_check *c = ctx;
    const struct figure_field *f = &c->row->field;
    enum jval_type ty = jval_type(v->json);
    const char *why = NULL;
    if (ty == JVAL_NONE) {
        /* figures_each reaches a place only where its array element is,
         * or the member for a row without [*]: a required field is there */
        if (f->required)
            why = "missing, yet required";
    } else {
        c->places++;
        if (!type_ok(f, v->json, ty))
            why = "not of the field's type";
        else if (f->has_min && ty == JVAL_NUMBER && v->value < f->min)
            why = "below the field's smallest value";
    }
    if (why && !c->bad++)
        snprintf(c->first_bad, sizeof c->first_bad, "%s: %s", v->path, why);
}

int main(int argc, char **argv)
{
    const char *json_path = argc > 1 ? argv[1] : "tests/fixtures/run-full.json";
    size_t len = 0;
    char *text = cli_slurp(json_path, &len), what[400];
    unsigned typed = 0;
    const struct figure_table *t;

    if (!CHECK(text != NULL, "the full run's JSON is read"))
        return check_done();
    struct jval doc = jval_doc(text, len);
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++) {
            const struct figure *row = &t->rows[r];
            const struct figure_field *f = &row->field;
            if (f->type == FIELD_NONE)
                continue;
            typed++;
            size_t pl = strlen(row->path);
            snprintf(what, sizeof what, "%s %s: one place (no member wildcard)", t->member ? t->member : "top level",
                     row->path);
            CHECK(!(pl && row->path[pl - 1] == '*' && (pl < 3 || strcmp(row->path + pl - 3, "[*]"))), what);
            snprintf(what, sizeof what, "%s %s: its table has no field row of its own for it",
                     t->member ? t->member : "top level", row->path);
            CHECK(!field_row(t, row->path), what);
            snprintf(what, sizeof what, "%s %s: the field's rules agree with the row's (signed, "
                     "smallest value, unit)", t->member ? t->member : "top level", row->path);
            int agree = !(f->type == FIELD_UINT && (row->flags & FIG_SIGNED)) &&
                        !(f->has_min && f->min < 0 && (row->kind == FIG_LOWER || row->kind == FIG_HIGHER) &&
                          !(row->flags & FIG_SIGNED)) &&
                        !(f->unit && !strcmp(f->unit, row->unit));
            CHECK(agree, what);
            struct place_check pc = { .row = row };
            figures_each(doc, t, row, place, &pc);
            snprintf(what, sizeof what, "%s %s: the writer's %u place(s) in %s hold the field's type and range%s%s",
                     t->member ? t->member : "top level", row->path, pc.places, json_path,
                     pc.bad ? "; first: " : "", pc.bad ? pc.first_bad : "");
            CHECK(pc.bad == 0, what);
        }
    snprintf(what, sizeof what, "the tables declare fields (%u rows with .field)", typed);
    CHECK(typed > 0, what);
    free(text);
    return check_done();
}
