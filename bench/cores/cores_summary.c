/*
 * bench/cores/cores_summary.c - the cores section's part of the run's
 * summary (bench/summary/summary_part.h): how many CPUs the TSC check
 * reached, the largest |TSC offset| against the reference CPU, and the
 * worst core-to-core round trip (every cell of the latency matrix).
 */
#include <math.h>

#include "figures_cores.h"
#include "summary_part.h"

summary_part_fn cores_summary;  /* its column in bench/sections.def */

void cores_summary(struct summary *s, struct jval c, struct jval doc)
{
    const struct figure_table *t = &figures_cores;
    struct jval cpus = figures_array(c, t, FIG_CORES_TSC_OFFSET_NS), e, row, cell;
    size_t it = 0, ir = 0;
    s->cores_cpus = (unsigned)jval_count(cpus);
    while (jval_next(cpus, &it, NULL, &e)) {
        double o = fabs(jval_num(figures_get(e, t, FIG_CORES_TSC_OFFSET_NS), NAN));
        if (!isnan(o) && !(o <= s->cores_offset_ns))
            s->cores_offset_ns = o;
    }
    while (jval_next(figures_array(c, t, FIG_CORES_LATENCY_MEDIAN_NS), &ir, NULL, &row)) {
        size_t ic = 0;
        while (jval_next(row, &ic, NULL, &cell)) {
            double v = jval_num(cell, NAN);
            if (!isnan(v) && !(v <= s->cores_c2c_ns))
                s->cores_c2c_ns = v;
        }
    }
}
