/*
 * bench/results/figures_samples.c - a figure's raw samples (declared in
 * figures.h): the values its row's "samples" path lists, as the figure
 * states them (net of the placeholder, per iteration, in ns), so a reader
 * can recompute what the run summarised.
 */
#include <math.h>

#include "figures.h"

int figures_net_inputs(struct jval elem, double *placeholder_median, double *iterations)
{
    *placeholder_median = jval_num(jval_get(elem, "placeholder_median"), NAN);
    *iterations = jval_num(jval_get(elem, "iterations"), NAN);     /* not a row: the measurement's N, its "*" row's */
    return !isnan(*placeholder_median) && *iterations > 0;
}

size_t figures_samples(const struct figure_value *v, double *out, size_t cap)
{
    const struct figure *f = v->fig;
    struct jval base = jval_is_none(v->elem) ? v->member : v->elem, s;
    size_t it = 0, n = 0;
    if (!f->samples || v->only_failed)
        return 0;
    double hz = v->tick_hz;
    double pm, iters;
    int net = f->transform == FIG_SAMPLES_NET || f->transform == FIG_SAMPLES_NET_NS;
    int ns = f->transform == FIG_SAMPLES_NS || f->transform == FIG_SAMPLES_NET_NS;
    if ((net && !figures_net_inputs(base, &pm, &iters)) || (ns && isnan(hz)))
        return 0;
    struct jval arr = jval_path(base, f->samples);
    while (n < cap && jval_next(arr, &it, NULL, &s)) {
        double x = jval_num(s, NAN);
        if (isnan(x))
            continue;
        if (net)
            x = (x - pm) / iters;
        if (ns)
            x = x * 1e9 / hz;
        out[n++] = x;
    }
    return n;
}
