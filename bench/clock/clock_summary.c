/*
 * bench/clock/clock_summary.c - the clock section's part of the run's
 * summary (bench/summary/summary_part.h): the TSC rate the run used, its
 * reference and that reference's ppm, how many references were measured
 * and how far they disagree, the counter's step, and the quiet check (its
 * largest gap in us, gaps over 1 us, NMIs and SMIs counted meanwhile).
 *
 * The figures come by their rows of figures_clock.h; counter_step.ns,
 * quiet.ms and quiet_check_phase's counts have no row of their own (the
 * table's "counter_step.*", "quiet.*" and "quiet_check_phase.*" rows
 * declare them whole), so they are read by name.
 */
#include <math.h>

#include "figures_clock.h"
#include "summary_part.h"

summary_part_fn clock_summary;  /* its column in bench/sections.def */

void clock_summary(struct summary *s, struct jval c, struct jval doc)
{
    const struct figure_table *t = &figures_clock;
    struct jval r;
    size_t it = 0;
    s->tsc_mhz = jval_num(figures_get(c, t, FIG_CLOCK_CHOSEN_KHZ), NAN) / 1000;
    jval_str(jval_get(c, "source"), s->tsc_source, sizeof s->tsc_source);
    while (jval_next(figures_array(c, t, FIG_CLOCK_REFERENCES_PPM), &it, NULL, &r)) {
        if (jval_str_eq(jval_get(r, "kind"), "measured") || jval_is_none(jval_get(r, "kind")))
            s->references++;
        if (s->tsc_source[0] && jval_str_eq(jval_get(r, "name"), s->tsc_source))
            s->tsc_ppm = jval_num(figures_get(r, t, FIG_CLOCK_REFERENCES_PPM), NAN);
    }
    s->agreement_ppm = jval_num(figures_get(c, t, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM), NAN);
    s->step_ticks = jval_num(figures_get(c, t, FIG_CLOCK_COUNTER_STEP_TICKS), NAN);
    s->step_ns = jval_num(jval_path(c, "counter_step.ns"), NAN);
    /* the quiet check's gaps are in ticks of the table's own tick rate */
    double hz = jval_num(jval_path(c, t->tick_hz), NAN);
    s->quiet_ms = jval_num(jval_path(c, "quiet.ms"), NAN);
    s->gap_max_us = hz > 0 ? jval_num(figures_get(c, t, FIG_CLOCK_QUIET_MAX_GAP_TICKS), NAN) * 1e6 / hz : NAN;
    s->gaps_over_1us = jval_num(figures_get(c, t, FIG_CLOCK_QUIET_GAPS_OVER_1US), NAN);
    struct jval ph = jval_get(c, "quiet_check_phase");
    s->nmis = jval_num(jval_get(ph, "nmis"), NAN);
    s->smis = jval_num(jval_get(ph, "smis"), NAN);
}
