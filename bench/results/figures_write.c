/*
 * bench/results/figures_write.c - the figure tables as the JSON writer's check
 * (see figures.h, json.h): each number the results document is given is
 * held against the table of the member it lands in, as it is written.
 *
 * The rule: a row that names one place ("chosen_khz",
 * "references[*].khz") is the only way to write that place, through
 * json_fig_*; numbers under a container a row declares as a whole
 * ("quiet.*") are written with names of their own.  The three ways to
 * break it are problems: counted, the first put in words, the number
 * written all the same.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "json.h"
#include "platform.h"

/* The table of the member a document path lands in, and the path below
 * it; the run's own table (member NULL) for the top level's numbers. */
static const struct figure_table *fw_table(const char *path, const char **rel)
{
    char member[48];
    size_t n = strcspn(path, ".[");
    const struct figure_table *t;
    if (n < sizeof member) {
        memcpy(member, path, n);
        member[n] = 0;
        if ((t = figures_find(member))) {
            *rel = path + n + (path[n] == '.');
            return t;
        }
    }
    for (unsigned i = 0; (t = figures_table(i)); i++)
        if (!t->member) {
            *rel = path;
            return t;
        }
    return NULL;
}

static void fw_problem(struct figures_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fw_problem(struct figures_check *c, const char *fmt, ...)
{
    va_list ap;
    if (c->problems++)
        return;
    va_start(ap, fmt);
    vsnprintf(c->first, sizeof c->first, fmt, ap);
    va_end(ap);
}

/* The first row naming one place that reaches rel; and whether a whole
 * container's row does. */
static const struct figure *fw_row(const struct figure_table *t, const char *rel, int *wild)
{
    *wild = 0;
    for (unsigned r = 0; r < t->n; r++) {
        const char *p = t->rows[r].path;
        if (!figures_path_match(p, rel))
            continue;
        if (!figures_row_whole(p))
            return &t->rows[r];
        *wild = 1;
    }
    return NULL;
}

int figures_json_check(void *ctx, const char *path, const struct figure_table *t,
                       const struct figure *row, int what)
{
    struct figures_check *c = ctx;
    const char *rel = path;
    const struct figure_table *at = fw_table(path, &rel);
    if (what == JSON_CHECK_CONTAINER)
        return at && figures_covers(at, rel);
    if (row) {                  /* through a row: at its own path, in the member's table */
        if (at != t || !figures_path_match(row->path, rel))
            fw_problem(c, "figure row %s was written at %s, not at its path", row->path, path);
        return 0;
    }
    int wild = 0;
    const struct figure *own = at ? fw_row(at, rel, &wild) : NULL;
    if (own)
        fw_problem(c, "figure %s is written by name, not through its row %s (json_fig_*)", path, own->path);
    else if (!wild && what == JSON_CHECK_NUMBER)     /* a null may stand for an object */
        fw_problem(c, "figure %s is not declared in any figure table", path);
    return 0;
}

unsigned figures_check_take(struct figures_check *c, char *msg, size_t cap)
{
    unsigned n = c->problems;
    snprintf(msg, cap, "%s", n ? c->first : "");
    c->problems = 0;
    c->first[0] = 0;
    return n;
}

void figures_check_warn(struct figures_check *c)
{
    char msg[sizeof c->first];
    unsigned n = figures_check_take(c, msg, sizeof msg);
    if (n > 1)
        out_warn("results: %s (and %u more numbers of this member)", msg, n - 1);
    else if (n)
        out_warn("results: %s", msg);
}
