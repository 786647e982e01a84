/*
 * tools/host/fleet/fleet_store.c - `baremark fleet`: the machines and the figures
 * with their cells, as the readers (fleet_runs.c: results JSON, files and
 * folders; fleet_lava.c: LAVA's recorded results) add them.  It reads no
 * file and calls no reader.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "fleet.h"

/* ---- growing arrays ------------------------------------------------------------ */

void *fl_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        fprintf(stderr, "baremark fleet: out of memory\n");
        exit(2);
    }
    *cap = c;
    return q;
}

size_t fl_machine_index(struct fleet *F, const char *name)
{
    for (size_t i = 0; i < F->nmachines; i++)
        if (!strcmp(F->machines[i].name, name))
            return i;
    F->machines = fl_grow(F->machines, &F->capmachines, F->nmachines + 1, sizeof *F->machines);
    struct fl_machine *m = &F->machines[F->nmachines];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    return F->nmachines++;
}

enum fl_sense fl_kind_sense(enum figure_kind k)
{
    return k == FIG_LOWER ? FL_LOWER_FASTER : k == FIG_HIGHER ? FL_HIGHER_FASTER : FL_NEUTRAL;
}

static struct fl_figure *fl_figure(struct fleet *F, const char *id, const char *unit)
{
    char clean[LAVA_ID_MAX + 1];
    lava_id(clean, sizeof clean, id);
    for (size_t i = 0; i < F->nfigs; i++)
        if (!strcmp(F->figs[i].id, clean))
            return &F->figs[i];
    F->figs = fl_grow(F->figs, &F->capfigs, F->nfigs + 1, sizeof *F->figs);
    struct fl_figure *g = &F->figs[F->nfigs++];
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", clean);
    snprintf(g->unit, sizeof g->unit, "%s", unit ? unit : "");
    const struct figure *row = figures_id_row(clean);
    g->sense = row ? (int)fl_kind_sense(row->kind) : -1;
    return g;
}

static struct fl_cell *fl_cell(struct fl_figure *g, size_t machine)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->cells[i].machine == machine)
            return &g->cells[i];
    g->cells = fl_grow(g->cells, &g->cap, g->n + 1, sizeof *g->cells);
    struct fl_cell *c = &g->cells[g->n++];
    memset(c, 0, sizeof *c);
    c->machine = machine;
    return c;
}

void fl_add(struct fleet *F, size_t machine, const char *id, const char *label, const char *unit, double value,
            const double *samples, size_t ns, int sense)
{
    if (!isfinite(value))
        return;
    struct fl_figure *g = fl_figure(F, id, unit);
    if (!g->unit[0] && unit)
        snprintf(g->unit, sizeof g->unit, "%s", unit);
    if (!g->label[0] && label)
        snprintf(g->label, sizeof g->label, "%s", label);
    if (sense >= 0)
        g->sense = sense;
    struct fl_cell *c = fl_cell(g, machine);
    c->vals = fl_grow(c->vals, &c->capv, c->nv + 1, sizeof *c->vals);
    c->vals[c->nv++] = value;
    if (samples && ns) {
        c->samples = fl_grow(c->samples, &c->caps, c->ns + ns, sizeof *c->samples);
        memcpy(c->samples + c->ns, samples, ns * sizeof *samples);
        c->ns += ns;
    }
}

void fl_machine_what(struct fleet *F, size_t m, const char *what)
{
    if (!F->machines[m].what[0] && what)
        snprintf(F->machines[m].what, sizeof F->machines[m].what, "%s", what);
}
