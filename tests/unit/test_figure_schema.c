/*
 * tests/unit/test_figure_schema.c - the results schema is one table per
 * member (bench/results/figures.h: its figure rows, some with a .field,
 * and its field rows, bench/NAME/fields_NAME.c), it agrees with the
 * writers and every field is declared once (issue 36 item 2):
 *   - the guard: every place a real run's JSON holds (each member of an
 *     object, each element of a list, from the top level down) is
 *     declared by exactly one row of its member's table that names it,
 *     a field row or a figure row; with none, by a figure row's member
 *     wildcard ("quiet.*": numbers kept, not tracked) or, for an element,
 *     by its list's row when that says what every element is (an array of
 *     numbers, of strings, of flags).  Two rows naming one place are the
 *     same field declared twice; none is a field the schema does not know
 *     (for a number that is the rule "every number is declared", whose one
 *     guard is figures_undeclared: validate and test_figures hold every
 *     file to it).
 *     The guard is run on tests/fixtures/run-full.json and run-quick.json
 *     (-icount boots, written by the image's writers) and, to show it can
 *     fail, on copies of the full run with one field made up or retyped;
 *   - a figure row with a field names one place (no member wildcard "*"),
 *     and the field's rules do not contradict the row's (an unsigned one is
 *     not FIG_SIGNED, a lower/higher-is-better figure not FIG_SIGNED has no
 *     smallest value below 0, the field's own unit is not the row's typed
 *     again);
 *   - what the writers wrote agrees with every typed row (a figure row's
 *     .field, a field row): each place it reaches holds its JSON type (an
 *     unsigned integer has no sign, fraction or exponent; a list of
 *     numbers holds numbers or null), one of its words, no value below its
 *     smallest, and a required one is there wherever its object is.
 * Usage: test_figure_schema [RUN.json...]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "figures.h"
#include "tools/host/common/commands.h"

/* ---- a place's JSON against a field ------------------------------------------- */

static int is_integer(struct jval v)
{
    return jval_type(v) == JVAL_NUMBER && !memchr(v.p, '.', v.n) && !memchr(v.p, 'e', v.n) &&
           !memchr(v.p, 'E', v.n);
}

/* Each element of an array is of type ty (JVAL_NUMBER: a number or null). */
static int all_elements(struct jval arr, enum jval_type ty)
{
    struct jval e;
    size_t it = 0;
    while (jval_next(arr, &it, NULL, &e)) {
        enum jval_type et = jval_type(e);
        if (ty == JVAL_TRUE ? et != JVAL_TRUE && et != JVAL_FALSE
                            : et != ty && !(ty == JVAL_NUMBER && et == JVAL_NULL))
            return 0;
    }
    return 1;
}

/* The JSON text as the writer wrote it holds the field's type. */
static int type_ok(const struct figure_field *f, struct jval v)
{
    enum jval_type ty = jval_type(v);
    switch (f->type) {
    case FIELD_UINT: return is_integer(v) && v.p[0] != '-';
    case FIELD_INT: return is_integer(v);
    case FIELD_NUM: return ty == JVAL_NUMBER;
    case FIELD_NUM_OR_NULL: return ty == JVAL_NUMBER || ty == JVAL_NULL;
    case FIELD_STR: return ty == JVAL_STRING;
    case FIELD_BOOL: return ty == JVAL_TRUE || ty == JVAL_FALSE;
    case FIELD_OBJ: return ty == JVAL_OBJECT;
    case FIELD_OBJ_OR_NULL: return ty == JVAL_OBJECT || ty == JVAL_NULL;
    case FIELD_ARR: return ty == JVAL_ARRAY;
    case FIELD_NUMS: return ty == JVAL_ARRAY && all_elements(v, JVAL_NUMBER);
    case FIELD_STRS: return ty == JVAL_ARRAY && all_elements(v, JVAL_STRING);
    default: return 1;
    }
}

/* A string's text is one of the field's words ("a|b|c"). */
static int word_ok(const struct figure_field *f, struct jval v)
{
    char s[200];
    if (!f->allowed || jval_type(v) != JVAL_STRING)
        return 1;
    jval_str(v, s, sizeof s);
    size_t n = strlen(s);
    for (const char *p = f->allowed; p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, s, n))
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* ---- the writers against every typed row ------------------------------------------ */

struct place_check {
    struct jval doc;
    const struct figure_field *field;
    unsigned places, bad;
    char first_bad[240];
};

/* The object a place is in is there: "system.firmware_volumes" for
 * "system.firmware_volumes.hashed" (a required field of an object that is
 * itself optional is required only where that object is). */
static int parent_there(struct jval doc, const char *path)
{
    char parent[256];
    const char *dot = strrchr(path, '.');
    if (!dot)
        return 1;
    snprintf(parent, sizeof parent, "%.*s", (int)(dot - path), path);
    return jval_type(jval_path(doc, parent)) == JVAL_OBJECT;
}

static void place(void *ctx, const struct figure_value *v)
{
    struct place_check *c = ctx;
    const struct figure_field *f = c->field;
    enum jval_type ty = jval_type(v->json);
    const char *why = NULL;
    if (ty == JVAL_NONE) {
        /* figures_each reaches a place only where its array element is,
         * or the member for a path without [*] */
        if (f->required && parent_there(c->doc, v->path))
            why = "missing, yet required";
    } else {
        c->places++;
        if (!type_ok(f, v->json))
            why = "not of the field's type";
        else if (!word_ok(f, v->json))
            why = "not one of the field's words";
        else if (f->has_min && ty == JVAL_NUMBER && v->value < f->min)
            why = "below the field's smallest value";
    }
    if (why && !c->bad++)
        snprintf(c->first_bad, sizeof c->first_bad, "%s: %s", v->path, why);
}

static const char *member_name(const struct figure_table *t)
{
    return t->member ? t->member : "top level";
}

/* Every place of one typed path in the document holds what its field says. */
static void check_places(struct jval doc, const char *doc_name, const struct figure_table *t, const char *path,
                         const struct figure_field *f)
{
    struct figure row = { .path = path, .unit = "", .kind = FIG_DETAIL, .field = *f };
    struct place_check pc = { .doc = doc, .field = f };
    char what[600];
    figures_each(doc, t, &row, place, &pc);
    snprintf(what, sizeof what, "%s %s: the writer's %u place(s) in %s hold the field's type, words and range%s%s",
             member_name(t), path, pc.places, doc_name, pc.bad ? "; first: " : "", pc.bad ? pc.first_bad : "");
    CHECK(pc.bad == 0, what);
}

/* A figure row's own field: one place, rules that agree with the row's,
 * and no field row of its table for the same path. */
static void check_figure_field(const struct figure_table *t, const struct figure *row)
{
    const struct figure_field *f = &row->field;
    char what[400];
    size_t pl = strlen(row->path);
    snprintf(what, sizeof what, "%s %s: one place (no member wildcard)", member_name(t), row->path);
    CHECK(!(pl && row->path[pl - 1] == '*' && (pl < 3 || strcmp(row->path + pl - 3, "[*]"))), what);
    snprintf(what, sizeof what, "%s %s: the field's rules agree with the row's (signed, smallest value, unit)",
             member_name(t), row->path);
    int agree = !(f->type == FIELD_UINT && (row->flags & FIG_SIGNED)) &&
                !(f->has_min && f->min < 0 && (row->kind == FIG_LOWER || row->kind == FIG_HIGHER) &&
                  !(row->flags & FIG_SIGNED)) &&
                !(f->unit && !strcmp(f->unit, row->unit));
    CHECK(agree, what);
}

/* No field row of a table has the path of one of its figure rows: a
 * figure's type is its row's .field, declared once (whatever the fixtures
 * hold: the hosted program's members too). */
static void check_field_rows_once(const struct figure_table *t)
{
    for (const struct figure_field_row *f = t->fields; f && f->path; f++) {
        unsigned same = 0;
        for (const struct figure_field_row *g = t->fields; g->path; g++)
            same += !strcmp(f->path, g->path);
        for (unsigned r = 0; r < t->n; r++)
            same += !strcmp(f->path, t->rows[r].path);
        if (same != 1) {
            char what[300];
            snprintf(what, sizeof what, "%s %s: one row names it (a field row and a figure row, or two field rows)",
                     member_name(t), f->path);
            CHECK(0, what);
        }
    }
}

/* ---- the guard: every place declared by one row --------------------------------------- */

#define GUARD_PATTERNS 32

struct guard {
    struct jval doc;
    unsigned places;
    unsigned n_bad, more;
    char pattern[GUARD_PATTERNS][200];      /* each problem once per path pattern */
    char what[GUARD_PATTERNS][400];
    char path[300];
};

static int wildcard_row(const char *path)
{
    size_t pl = strlen(path);
    return pl && path[pl - 1] == '*' && (pl < 3 || strcmp(path + pl - 3, "[*]"));
}

/* "clock.references[3].name" -> "clock.references[*].name" */
static void to_pattern(const char *path, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 4 < cap; p++)
        if (*p == '[') {
            memcpy(out + o, "[*]", 3);
            o += 3;
            p = strchr(p, ']');
        } else {
            out[o++] = *p;
        }
    out[o] = 0;
}

static void guard_say(struct guard *g, const char *why)
{
    char pattern[200];
    to_pattern(g->path, pattern, sizeof pattern);
    for (unsigned i = 0; i < g->n_bad; i++)
        if (!strcmp(g->pattern[i], pattern))
            return;
    if (g->n_bad == GUARD_PATTERNS) {
        g->more++;
        return;
    }
    snprintf(g->pattern[g->n_bad], sizeof g->pattern[0], "%s", pattern);
    snprintf(g->what[g->n_bad], sizeof g->what[0], "%s: %s", g->path, why);
    g->n_bad++;
}

/* The field row (or typed figure row) that names a list: whether it says
 * what each element is (numbers, strings, flags). */
static int typed_list(const struct figure_table *t, const char *rest)
{
    char list[256];
    size_t n = strlen(rest);
    if (!n || rest[n - 1] != ']')
        return 0;
    snprintf(list, sizeof list, "%.*s", (int)(strrchr(rest, '[') - rest), rest);
    for (const struct figure_field_row *f = t->fields; f && f->path; f++)
        if (figures_path_match(f->path, list))
            return f->field.type == FIELD_NUMS || f->field.type == FIELD_STRS ||
                   (f->field.type == FIELD_ARR && f->field.unit && !strcmp(f->field.unit, "booleans"));
    return 0;
}

/* The rows of table t naming place `rest` (below the member): its field
 * rows, and its figure rows as one (two figure rows may name one number:
 * a time as ticks and as ns, two LAVA cases of one place). */
static void guard_place(struct guard *g, const struct figure_table *t, const char *rest, enum jval_type ty)
{
    unsigned named = 0, figure = 0, wild = 0;
    char below[300];
    snprintf(below, sizeof below, "%s.*", rest);
    for (const struct figure_field_row *f = t->fields; f && f->path; f++)
        named += figures_path_match(f->path, rest);
    for (unsigned r = 0; r < t->n; r++) {
        const char *p = t->rows[r].path;
        if (figures_path_match(p, rest))
            wildcard_row(p) ? wild++ : figure++;
        /* an object whose members a wildcard row declares ("counter_step.*") */
        wild += !strcmp(p, below);
    }
    named += figure > 0;
    g->places++;
    if (named > 1)
        guard_say(g, "declared by more than one row of its table (a field row and a figure row, or two field rows)");
    else if (!named && !wild && !typed_list(t, rest) && ty != JVAL_NUMBER)
        guard_say(g, "declared by no row of its member's table");
    /* a number no row declares: the rule "every number is declared" has one
     * guard, figures_undeclared (bench/results/figures_match.c), which
     * validate and test_figures hold every file to */
}

static void guard_walk(struct guard *g, const struct figure_table *t, size_t member_len, struct jval v, size_t plen)
{
    struct jval k, e;
    size_t it = 0, i = 0;
    char name[64];
    int object = jval_type(v) == JVAL_OBJECT;
    if (!object && jval_type(v) != JVAL_ARRAY)
        return;
    while (jval_next(v, &it, object ? &k : NULL, &e)) {
        const struct figure_table *tt = t;
        size_t ml = member_len;
        if (object) {
            jval_str(k, name, sizeof name);
            snprintf(g->path + plen, sizeof g->path - plen, "%s%s", plen ? "." : "", name);
        } else {
            snprintf(g->path + plen, sizeof g->path - plen, "[%zu]", i++);
        }
        if (!plen) {
            /* a member with a table of its own, else a field of the top level */
            tt = figures_find(name);
            ml = tt ? strlen(g->path) : 0;
            if (!tt)
                tt = figures_table(0);
        }
        if (plen || tt == figures_table(0))
            guard_place(g, tt, g->path + ml + (g->path[ml] == '.'), jval_type(e));
        guard_walk(g, tt, ml, e, strlen(g->path));
    }
    g->path[plen] = 0;
}

/* Runs the guard over a document; returns the problems found. */
static unsigned guard_run(struct jval doc, struct guard *g)
{
    memset(g, 0, sizeof *g);
    g->doc = doc;
    guard_walk(g, NULL, 0, doc, 0);
    return g->n_bad + g->more;
}

static void guard_check(struct jval doc, const char *doc_name)
{
    struct guard *g = malloc(sizeof *g);
    char what[600];
    if (!CHECK(g != NULL, "memory for the guard"))
        return;
    unsigned bad = guard_run(doc, g);
    for (unsigned i = 0; i < g->n_bad; i++) {
        snprintf(what, sizeof what, "%s: %s", doc_name, g->what[i]);
        CHECK(0, what);
    }
    snprintf(what, sizeof what, "%s: every one of its %u places is declared by exactly one row of its member's table "
             "(or a member wildcard, or its list's row)%s", doc_name, g->places, g->more ? "; more not shown" : "");
    CHECK(bad == 0 && g->places > 100, what);
    free(g);
}

/* A copy of text with `from` (its first occurrence) replaced by `to`;
 * NULL when from is not there. */
static char *mutate(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    size_t a = (size_t)(at - text), nf = strlen(from), nt = strlen(to), n = strlen(text);
    char *out = malloc(n - nf + nt + 1);
    if (!out)
        return NULL;
    memcpy(out, text, a);
    memcpy(out + a, to, nt);
    memcpy(out + a + nt, at + nf, n - a - nf + 1);
    return out;
}

/* The guard fails on a copy of the full run with a field no row names,
 * and the type check on one whose field holds another type. */
static void negative_controls(const char *text)
{
    struct guard *g = malloc(sizeof *g);
    char *made_up = mutate(text, "\"clock\":{", "\"clock\":{\"made_up_text\":\"x\",");
    char *retyped = mutate(text, "\"ended\":true", "\"ended\":\"yes\"");
    if (!CHECK(g && made_up && retyped, "the mutated copies of the full run are made"))
        goto out;
    struct jval doc = jval_doc(made_up, strlen(made_up));
    CHECK(guard_run(doc, g) == 1 && strstr(g->what[0], "clock.made_up_text"),
          "the guard finds a made-up field (clock.made_up_text) in a copy of the full run, and only it");
    doc = jval_doc(retyped, strlen(retyped));
    struct place_check pc = { .doc = doc };
    struct figure row = { .path = "ended", .unit = "", .kind = FIG_DETAIL };
    for (const struct figure_field_row *f = figures_table(0)->fields; f && f->path; f++)
        if (!strcmp(f->path, "ended"))
            row.field = f->field, pc.field = &row.field;
    if (CHECK(pc.field != NULL, "the top level's table has a field row for \"ended\""))
        figures_each(doc, figures_table(0), &row, place, &pc);
    CHECK(pc.bad == 1 && strstr(pc.first_bad, "not of the field's type"),
          "a copy with \"ended\": \"yes\" fails the field's type (a boolean)");
out:
    free(g);
    free(made_up);
    free(retyped);
}

int main(int argc, char **argv)
{
    static const char *const fixtures[] = { "tests/fixtures/run-full.json", "tests/fixtures/run-quick.json" };
    const char *const *docs = argc > 1 ? (const char *const *)argv + 1 : fixtures;
    int n_docs = argc > 1 ? argc - 1 : 2;
    unsigned typed = 0, field_rows = 0;
    const struct figure_table *t;
    char what[200];

    for (unsigned i = 0; (t = figures_table(i)); i++) {
        for (unsigned r = 0; r < t->n; r++)
            if (t->rows[r].field.type != FIELD_NONE) {
                typed++;
                check_figure_field(t, &t->rows[r]);
            }
        for (const struct figure_field_row *f = t->fields; f && f->path; f++)
            field_rows++;
        check_field_rows_once(t);
    }
    snprintf(what, sizeof what, "the tables declare fields (%u figure rows with .field, %u field rows), each path "
             "named by one row of its table", typed, field_rows);
    CHECK(typed > 0 && field_rows > 0, what);

    for (int d = 0; d < n_docs; d++) {
        size_t len = 0;
        char *text = cli_slurp(docs[d], &len);
        snprintf(what, sizeof what, "%s is read", docs[d]);
        if (!CHECK(text != NULL, what))
            continue;
        struct jval doc = jval_doc(text, len);
        guard_check(doc, docs[d]);
        for (unsigned i = 0; (t = figures_table(i)); i++) {
            for (unsigned r = 0; r < t->n; r++)
                if (t->rows[r].field.type != FIELD_NONE)
                    check_places(doc, docs[d], t, t->rows[r].path, &t->rows[r].field);
            for (const struct figure_field_row *f = t->fields; f && f->path; f++)
                check_places(doc, docs[d], t, f->path, &f->field);
        }
        free(text);
    }
    /* the negative controls: on the full run, whichever documents were given */
    size_t len = 0;
    char *full = cli_slurp(fixtures[0], &len);
    if (CHECK(full != NULL, "the full run is read for the negative controls"))
        negative_controls(full);
    free(full);
    return check_done();
}
