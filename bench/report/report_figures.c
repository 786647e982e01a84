/*
 * bench/report/report_figures.c - the report's tables that the figure tables
 * (bench/results/figures.h) give: in each section's fold, every tracked figure of
 * its member (a row with a LAVA id) with its value, unit, kind and better
 * side, as LAVA and `baremark fleet` see it; and a section's headline from
 * its table's FIG_HEADLINE rows where the run summary has none.  A row
 * added to bench/NAME/figures_NAME.c appears here with no report code.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "figures_text.h"
#include "report_parts.h"
#include "report_util.h"

/* What a figure's kind means for a reader (bench/results/figures.h). */
static const char *rf_kind_text(enum figure_kind k)
{
    switch (k) {
    case FIG_LOWER: return "time or cost";
    case FIG_HIGHER: return "rate, score or index";
    case FIG_INFO: return "measured fact";
    default: return "detail";
    }
}

static const char *rf_better(enum figure_kind k)
{
    return k == FIG_LOWER ? "lower" : k == FIG_HIGHER ? "higher" : "neither";
}

struct rf_ctx {
    FILE *f;
    const char *member;
    size_t rows;
};

static void rf_row(void *ctx, const struct figure_value *v)
{
    struct rf_ctx *c = ctx;
    char num[48];
    if (!v->id[0] || jval_is_none(v->json))
        return;
    if (!c->rows++) {
        fprintf(c->f, "<h3>Tracked figures</h3><p class=\"note\">Every figure of this section that LAVA and baremark "
                "fleet track, from its figure table (bench/results/figures.h): the value in the unit LAVA records.</p>"
                "<table class=\"figures\" id=\"figures-%s\"><tr><th>LAVA id</th><th class=\"n\">value</th><th>unit</th>"
                "<th>kind</th><th>better</th></tr>", c->member);
    }
    fputs("<tr><td>", c->f);
    html_put(c->f, v->id);
    if (v->only_failed)
        fputs("</td><td class=\"n none\">did not come out", c->f);
    else {
        figures_format(v->lava_value, num, sizeof num);
        fprintf(c->f, "</td><td class=\"n\">%s", num);
    }
    fputs("</td><td>", c->f);
    html_put(c->f, v->unit);
    fprintf(c->f, "</td><td>%s</td><td>%s</td></tr>", rf_kind_text(v->fig->kind), rf_better(v->fig->kind));
}

/* A member's table; NULL: the run's own, the top level's. */
static const struct figure_table *rf_table(const char *member)
{
    const struct figure_table *t;
    if (member)
        return figures_find(member);
    for (unsigned i = 0; (t = figures_table(i)); i++)
        if (!t->member)
            return t;
    return NULL;
}

size_t rp_figure_table(struct report *r, const char *member)
{
    const struct figure_table *t = rf_table(member);
    struct rf_ctx c = { r->f, member ? member : "run", 0 };
    if (!t || jval_is_none(r->doc))
        return 0;
    figures_each_row(r->doc, t, FIG_ROWS_TRACKED, rf_row, &c);
    if (c.rows)
        fputs("</table>", r->f);
    return c.rows;
}

int rp_table_headline(struct report *r, const char *member, char *out, size_t cap)
{
    const struct figure_table *t = rf_table(member);
    out[0] = 0;
    if (t && !jval_is_none(r->doc))
        figures_headline(r->doc, t, out, cap);
    return out[0] != 0;
}
