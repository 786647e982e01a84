/*
 * tools/host/validate/validate_figures.c - the part of `baremark validate` that the
 * figure tables (bench/results/figures.h) drive, one pass for every section:
 *   - each place a row reaches holds a number or null where the row is a
 *     figure (lower, higher or info; a place whose `only` condition fails
 *     did not come out and may hold anything, a row naming whole elements
 *     reaches objects), finite, and not below zero for a lower- or
 *     higher-is-better one unless the row is FIG_SIGNED;
 *   - in a run that ended, a row that names one place (no [*]) and is not
 *     FIG_SOMETIMES is there in each member that is (a row over an array
 *     is checked where its elements have it: the reference CPU has no
 *     offset against itself); below a null ("indexes": null) is null;
 *   - every number in the document is a row's: one that no table declares
 *     is named once per path pattern.
 * The fields (types, allowed words, integers, presence) are walked by
 * cmd_validate.c; what a table cannot say (one figure against another,
 * against the raw samples) stays in the sections' validate_NAME.c.  A
 * figure whose row carries a field (its type, whether it is required) has
 * a problem of type or presence said once, by the field.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "run_state.h"
#include "validate.h"

#define VF_PATH_MAX   512
#define VF_PATTERNS   64        /* undeclared path patterns kept (each named once) */

struct vf_undeclared {
    char pattern[VF_PATH_MAX];  /* indexes as [*] */
    char first[VF_PATH_MAX];    /* the first place found */
    unsigned places;
};

struct vf_ctx {
    const char *file;
    int *problems;
    int quiet;
    int ended;                  /* the run ended: every row not FIG_SOMETIMES is there */
    struct jval doc;
    struct vf_undeclared *und;
    size_t n_und;
    unsigned more;              /* patterns beyond VF_PATTERNS */
};

static void vf_say(struct vf_ctx *c, const char *where, const char *msg)
{
    rv_say(c->file, where, msg, c->problems, c->quiet);
}

/* "the clock figure table's row quiet.max_gap_ticks" */
static void vf_row_name(const struct figure_value *v, char *out, size_t cap)
{
    snprintf(out, cap, "row %s of the %s figure table", v->fig->path, v->table->member ? v->table->member : "top level");
}

/* Whether a place absent from the document is below a null: "indexes":
 * null says none of its figures came out. */
static int vf_under_null(struct jval doc, const char *path)
{
    char prefix[VF_PATH_MAX];
    for (size_t k = 1; path[k] && k < sizeof prefix; k++)
        if (path[k] == '.' || path[k] == '[') {
            memcpy(prefix, path, k);
            prefix[k] = 0;
            if (jval_type(jval_path(doc, prefix)) == JVAL_NULL)
                return 1;
        }
    return 0;
}

static void vf_place(void *ctx, const struct figure_value *v)
{
    struct vf_ctx *c = ctx;
    const struct figure *f = v->fig;
    enum jval_type ty = jval_type(v->json);
    char row[200], msg[400], what[64];

    vf_row_name(v, row, sizeof row);
    snprintf(what, sizeof what, "a %s%sfigure", f->kind == FIG_INFO ? "" : figure_kind_name(f->kind),
             f->kind == FIG_INFO ? "" : "-is-better ");
    if (ty == JVAL_NONE) {
        if (c->ended && !(f->flags & FIG_SOMETIMES) && !v->only_failed && !strstr(f->path, "[*]") &&
            !vf_under_null(c->doc, v->path) && !f->field.required) {
            snprintf(msg, sizeof msg, "missing: every run that ended has it (%s; FIG_SOMETIMES would say otherwise)",
                     row);
            vf_say(c, v->path, msg);
        }
        return;
    }
    if (f->kind == FIG_DETAIL || v->only_failed || ty == JVAL_NULL)
        return;
    /* a row naming whole elements ("unavailable[*]": a clock the machine
     * lacks, listed for its LAVA case) reaches the element, not a number */
    size_t plen = strlen(f->path);
    if (ty == JVAL_OBJECT && plen >= 3 && !strcmp(f->path + plen - 3, "[*]"))
        return;
    if (ty != JVAL_NUMBER && f->field.type != FIELD_NONE) {
        return;                 /* named by the row's field (cmd_validate.c) */
    } else if (ty != JVAL_NUMBER) {
        snprintf(msg, sizeof msg, "is not a number or null: %s in %s (%s)", what,
                 v->unit[0] ? v->unit : "no unit", row);
        vf_say(c, v->path, msg);
    } else if (!isfinite(v->value)) {
        snprintf(msg, sizeof msg, "is not a finite number (%s)", row);
        vf_say(c, v->path, msg);
    } else if (v->value < 0 && (f->kind == FIG_LOWER || f->kind == FIG_HIGHER) && !(f->flags & FIG_SIGNED)) {
        snprintf(msg, sizeof msg, "%.10g is below zero: %s in %s never is (%s)", v->value, what,
                 v->unit[0] ? v->unit : "no unit", row);
        vf_say(c, v->path, msg);
    }
}

/* ---- every number is declared ------------------------------------------------------ */

static void vf_pattern(const char *path, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 4 < cap; p++) {
        if (*p == '[' && p[1] >= '0' && p[1] <= '9') {
            memcpy(out + o, "[*]", 3);
            o += 3;
            p += strspn(p + 1, "0123456789");   /* to the last digit; ']' follows */
            p++;
        } else
            out[o++] = *p;
    }
    out[o] = 0;
}

/* A number no row declares (figures_undeclared): counted by its pattern,
 * the first place kept. */
static void vf_undeclared(void *ctx, const char *path)
{
    struct vf_ctx *c = ctx;
    char pattern[VF_PATH_MAX];
    vf_pattern(path, pattern, sizeof pattern);
    for (size_t i = 0; i < c->n_und; i++)
        if (!strcmp(c->und[i].pattern, pattern)) {
            c->und[i].places++;
            return;
        }
    if (c->n_und == VF_PATTERNS) {
        c->more++;
        return;
    }
    struct vf_undeclared *u = &c->und[c->n_und++];
    snprintf(u->pattern, sizeof u->pattern, "%s", pattern);
    snprintf(u->first, sizeof u->first, "%s", path);
    u->places = 1;
}

static void vf_say_undeclared(struct vf_ctx *c)
{
    char msg[VF_PATH_MAX + 200], top[64];
    for (size_t i = 0; i < c->n_und; i++) {
        const struct vf_undeclared *u = &c->und[i];
        size_t k = strcspn(u->pattern, ".[");
        snprintf(top, sizeof top, "%.*s", (int)(k < sizeof top ? k : sizeof top - 1), u->pattern);
        snprintf(msg, sizeof msg, "figure %s is not declared in any figure table (%s%s%s; %u place%s)", u->pattern,
                 figures_find(top) ? "bench/*/figures_*.c: the " : "no table for the member \"",
                 top, figures_find(top) ? " table has no row for it" : "\"", u->places, u->places == 1 ? "" : "s");
        vf_say(c, u->first, msg);
    }
    if (c->more) {
        snprintf(msg, sizeof msg, "%u more undeclared figure%s", c->more, c->more == 1 ? "" : "s");
        vf_say(c, "", msg);
    }
}

void rv_figures(json_t *root, const char *file, int *problems, int quiet)
{
    struct vf_ctx c = { .file = file, .problems = problems, .quiet = quiet };
    struct rs_state st;
    char *text = json_dumps(root, JSON_COMPACT);
    const struct figure_table *t;

    c.und = calloc(VF_PATTERNS, sizeof *c.und);
    if (!text || !c.und) {
        vf_say(&c, "", "out of memory: the figure tables' checks were not made");
        free(text);
        free(c.und);
        return;
    }
    rs_read(root, &st);
    c.ended = st.kind == RS_COMPLETED || st.kind == RS_WARNINGS || st.kind == RS_FAILED;
    struct jval doc = c.doc = jval_doc(text, strlen(text));
    for (unsigned i = 0; (t = figures_table(i)); i++)
        figures_each_row(doc, t, FIG_ROWS_ALL, vf_place, &c);
    figures_undeclared(doc, vf_undeclared, &c);
    vf_say_undeclared(&c);
    free(text);
    free(c.und);
}
