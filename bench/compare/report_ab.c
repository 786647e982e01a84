/*
 * bench/compare/report_ab.c - see report_ab.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures_compare.h"
#include "report_ab.h"
#include "report_util.h"
#include "stats/stats.h"

size_t doc_ab_samples(json_t *cmp, int side, double **out, const char **label)
{
    json_t *o = json_object_get(cmp, side ? "b" : "a");
    *label = doc_name(o, side ? "B" : "A");
    return doc_numbers(doc_samples(o), out);
}

int doc_ab_ratio(json_t *cmp, struct stats_ab *out)
{
    json_t *r = json_object_get(cmp, "ratio");
    const char *side = doc_str(r, "faster", NULL);
    if (side) {
        out->faster = !strcmp(side, "a") ? STATS_AB_A : !strcmp(side, "b") ? STATS_AB_B : STATS_AB_NONE;
        out->estimate = doc_fig_num(cmp, &figures_compare, FIG_COMPARE_RATIO_ESTIMATE);
        out->lo = doc_fig_num(cmp, &figures_compare, FIG_COMPARE_RATIO_LO);
        out->hi = doc_fig_num(cmp, &figures_compare, FIG_COMPARE_RATIO_HI);
        out->p = doc_fig_num(cmp, &figures_compare, FIG_COMPARE_RATIO_P);
        out->u = NAN;
        return 0;
    }
    double *a = NULL, *b = NULL, *work = NULL;
    const char *la, *lb;
    size_t na = doc_ab_samples(cmp, 0, &a, &la), nb = doc_ab_samples(cmp, 1, &b, &lb);
    if (na && nb)
        work = malloc(STATS_AB_WORK(na, nb) * sizeof *work);
    int rc = stats_ab(a, na, b, nb, work, out);
    free(work);
    free(a);
    free(b);
    return rc;
}
