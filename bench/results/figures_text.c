/*
 * bench/results/figures_text.c - a figure in words for a person (see
 * figures.h): a number, an interval and a p value formatted, and a
 * section's headline (its best headline row).  The walk over a row's
 * places is figures.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

void figures_format(double v, char *out, size_t cap)
{
    if (isnan(v)) {
        snprintf(out, cap, "n/a");
    } else if (fabs(v) >= 1e5 && fabs(v) < 1e15) {
        size_t n = (size_t)snprintf(out, cap, "%.1f", v);
        if (n >= 2 && n < cap && !strcmp(out + n - 2, ".0"))
            out[n - 2] = 0;
    } else {
        snprintf(out, cap, "%.4g", v);
    }
}

void figures_format_interval(double lo, double hi, char *out, size_t cap)
{
    char a[32], b[32];
    if (isnan(lo) || isnan(hi)) {
        snprintf(out, cap, "n/a");
        return;
    }
    figures_format(lo, a, sizeof a);
    figures_format(hi, b, sizeof b);
    snprintf(out, cap, "[%s, %s]", a, b);
}

void figures_format_p(double p, char *out, size_t cap)
{
    if (isnan(p))
        snprintf(out, cap, "p n/a");
    else if (p < 1e-300)
        snprintf(out, cap, "p < 1e-300");
    else if (p < 0.001)
        snprintf(out, cap, "p = %.1e", p);
    else
        snprintf(out, cap, "p = %.3f", p);
}

/* ---- a section's headline --------------------------------------------------------- */

struct fig_best {
    double v;
    char unit[32];
    int any;
};

/* Over a row's places: the largest; for a figure with no better side (a
 * TSC offset, either sign), the largest in size, as that size.  The one
 * place a headline's value and sign are decided. */
static void fig_best_of(void *ctx, const struct figure_value *v)
{
    struct fig_best *b = ctx;
    double x = v->fig->kind == FIG_INFO ? fabs(v->lava_value) : v->lava_value;
    if (isnan(x))
        return;
    if (!b->any || x > b->v) {
        b->v = x;
        snprintf(b->unit, sizeof b->unit, "%s", v->unit);
    }
    b->any = 1;
}

void figures_headline(struct jval doc, const struct figure_table *t, char *out, size_t cap)
{
    size_t o = 0;
    if (!cap)
        return;
    out[0] = 0;
    for (unsigned r = 0; t && r < t->n; r++) {
        const struct figure *f = &t->rows[r];
        struct fig_best b = { 0 };
        if (!(f->flags & FIG_HEADLINE))
            continue;
        figures_each(doc, t, f, fig_best_of, &b);
        if (!b.any || o + 1 >= cap)
            continue;
        char num[32];
        if (f->headline_unit) {     /* in a person's unit rather than LAVA's */
            b.v *= f->headline_scale;
            snprintf(b.unit, sizeof b.unit, "%s", f->headline_unit);
        }
        figures_format(b.v, num, sizeof num);
        o += (size_t)snprintf(out + o, cap - o, "%s%s %s%s%s", o ? ", " : "", f->label ? f->label : f->lava,
                              num, b.unit[0] && strcmp(b.unit, "%") ? " " : "", b.unit);
        if (o >= cap)
            o = cap - 1;
    }
}
