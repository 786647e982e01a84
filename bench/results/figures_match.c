/*
 * bench/results/figures_match.c - finding a row of the figure tables (see
 * figures.h): by a concrete path, by its LAVA id, and the guard that every
 * number of a results document is declared by one.  The walk over a
 * row's places is figures.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

/* ---- matching a concrete path ------------------------------------------------- */

/* Pattern p against concrete c: [*] matches [N]; a final "*" matches the
 * rest, whatever it is. */
static int fig_match(const char *p, const char *c)
{
    for (;;) {
        if (!strcmp(p, "*"))
            return *c != 0;
        if (!*p || !*c)
            return !*p && !*c;
        if (!strncmp(p, "[*]", 3) && *c == '[') {
            const char *e = c + 1;
            while (*e >= '0' && *e <= '9')
                e++;
            if (e == c + 1 || *e != ']')
                return 0;
            p += 3;
            c = e + 1;
        } else if (*p++ != *c++) {
            return 0;
        }
    }
}

int figures_path_match(const char *pattern, const char *path) { return fig_match(pattern, path); }

const struct figure *figures_match(const char *path, const struct figure_table **table)
{
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++) {
        const char *rest = path;
        if (t->member) {
            size_t k = strlen(t->member);
            if (strncmp(path, t->member, k) || (path[k] != '.' && path[k] != '['))
                continue;
            rest = path + k + (path[k] == '.');
        }
        for (unsigned r = 0; r < t->n; r++)
            if (fig_match(t->rows[r].path, rest)) {
                if (table)
                    *table = t;
                return &t->rows[r];
            }
    }
    return NULL;
}

/* ---- every number declared -------------------------------------------------------- */

struct fig_leaves {
    void (*fn)(void *ctx, const char *path);
    void *ctx;
    unsigned numbers;
    char path[512];
};

static void fig_leaves(struct fig_leaves *L, struct jval v, size_t plen)
{
    struct jval k, e;
    size_t it = 0, i = 0;
    char name[64];
    switch (jval_type(v)) {
    case JVAL_OBJECT:
        while (jval_next(v, &it, &k, &e)) {
            jval_str(k, name, sizeof name);
            snprintf(L->path + plen, sizeof L->path - plen, "%s%s", plen ? "." : "", name);
            fig_leaves(L, e, strlen(L->path));
        }
        break;
    case JVAL_ARRAY:
        while (jval_next(v, &it, NULL, &e)) {
            snprintf(L->path + plen, sizeof L->path - plen, "[%zu]", i++);
            fig_leaves(L, e, strlen(L->path));
        }
        break;
    case JVAL_NUMBER:
        L->numbers++;
        if (!figures_match(L->path, NULL))
            L->fn(L->ctx, L->path);
        break;
    default:
        break;
    }
    L->path[plen] = 0;
}

unsigned figures_undeclared(struct jval doc, void (*fn)(void *ctx, const char *path), void *ctx)
{
    struct fig_leaves L = { fn, ctx, 0, "" };
    fig_leaves(&L, doc, 0);
    return L.numbers;
}

/* An id against a template: each {token} stands for one or more characters. */
static int fig_id_match(const char *t, const char *id)
{
    if (!*t)
        return !*id;
    if (*t == '{') {
        const char *end = strchr(t, '}');
        if (!end)
            return 0;
        for (const char *p = id + 1; p <= id + strlen(id); p++)
            if (*id && fig_id_match(end + 1, p))
                return 1;
        return 0;
    }
    return *t == *id && fig_id_match(t + 1, id + 1);
}

const struct figure *figures_id_row(const char *id)
{
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++)
            if (t->rows[r].lava && fig_id_match(t->rows[r].lava, id))
                return &t->rows[r];
    return NULL;
}
