/*
 * bench/results/figures_lava.c - a section's LAVA lines made from its figure
 * table and its member of the results document (see figures.h): one case
 * per place of each row with a LAVA id, its result by the row's rules,
 * its measurement and unit from the row.  The sections print none
 * themselves; the image calls figures_lava_print when a section ends.
 */
#include "figures.h"
#include "lava.h"

struct fig_lava_walk {
    void (*fn)(void *ctx, const struct figure_value *v);
    void *ctx;
};

static void fig_lava_place(void *ctx, const struct figure_value *v)
{
    const struct fig_lava_walk *lw = ctx;
    if (v->lava_case)
        lw->fn(lw->ctx, v);
}

void figures_lava(struct jval doc, const struct figure_table *t,
                  void (*fn)(void *ctx, const struct figure_value *v), void *ctx)
{
    struct fig_lava_walk lw = { fn, ctx };
    figures_each_row(doc, t, FIG_ROWS_TRACKED, fig_lava_place, &lw);
}

static void fig_lava_print_one(void *ctx, const struct figure_value *v)
{
    (void)ctx;
    lava_case(v->id, v->result, v->case_value, v->unit);
}

void figures_lava_print(struct jval doc, const struct figure_table *t)
{
    figures_lava(doc, t, fig_lava_print_one, NULL);
}
