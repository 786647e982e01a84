/*
 * bench/methods/methods_summary.c - the methods section's part of the run's
 * summary (bench/summary/summary_part.h): each target's net time per
 * iteration by each timing method, with its 95% interval, and the method
 * the summary reports (the comparisons' method: "method" of their member).
 *
 * Per target and method (docs/statistics.md, "A routine's time per
 * iteration"): the median of (timing - placeholder median) / N over the
 * raw samples, with the 95% interval of that median from order statistics
 * (ranks n/2 -+ 0.98 sqrt(n), the normal approximation of the binomial)
 * widened to the counter's resolution (counter_step_ticks / N), never
 * below 0; too short or below that resolution: unresolved.
 *
 * net.median and tick_hz come by their rows (figures_methods.h); a
 * measurement's placeholder_median, iterations, counter_step_ticks and
 * samples have no row of their own (the table's "measurements[*].*"
 * declares them whole): read by name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_methods.h"
#include "platform.h"
#include "stats.h"
#include "summary_part.h"

summary_part_fn methods_summary;  /* its column in bench/sections.def */

/* z for a two-sided 95% interval. */
#define SUMMARY_Z95 1.959963984540054

/* The median of sorted x and its 95% interval from order statistics. */
static void methods_summary_median_ci(const double *x, size_t n, double *med, double *lo, double *hi)
{
    if (!n) {
        *med = *lo = *hi = NAN;
        return;
    }
    double half = SUMMARY_Z95 * sqrt((double)n) / 2;
    long j = (long)floor(n / 2.0 - half), k = (long)ceil(n / 2.0 + half);   /* 1-based ranks */
    if (j < 1)
        j = 1;
    if (k > (long)n)
        k = (long)n;
    *med = stats_percentile_sorted_double(x, n, 50);
    *lo = x[j - 1];
    *hi = x[k - 1];
}

static struct summary_target *methods_summary_target(struct summary *s, const char *name)
{
    for (unsigned i = 0; i < s->n_targets; i++)
        if (!strcmp(s->targets[i].name, name))
            return &s->targets[i];
    if (s->n_targets >= SUMMARY_TARGETS_MAX)
        return NULL;
    struct summary_target *t = &s->targets[s->n_targets++];
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

/* One measurement (docs/statistics.md, "A routine's time per iteration"):
 * its net samples' median and 95% interval by order statistics, widened
 * to the resolution floor r = counter_step_ticks / iterations and kept
 * at or above 0; unresolved when the run marked it too short or it lies
 * below r (r unknown: below 0).  In ticks and ns. */
static void methods_summary_estimate(struct summary_estimate *e, struct jval m, double hz)
{
    size_t n;
    char status[32] = "";
    const struct figure *row = &figures_methods.rows[FIG_METHODS_NET_MEDIAN];     /* its samples, net by its transform */
    double pm, iters;
    int net = figures_net_inputs(m, &pm, &iters);
    double step = jval_num(jval_get(m, "counter_step_ticks"), NAN);
    double *x = summary_numbers(jval_path(m, row->samples), &n);
    jval_str(jval_get(m, "status"), status, sizeof status);    /* not a row: the measurement's status */
    e->ticks = e->ticks_lo = e->ticks_hi = NAN;
    if (x && net) {
        for (size_t i = 0; i < n; i++)
            x[i] = (x[i] - pm) / iters;
        stats_sort_double(x, n);
        methods_summary_median_ci(x, n, &e->ticks, &e->ticks_lo, &e->ticks_hi);
        e->samples = (unsigned)n;
    }
    /* no raw samples (an old or trimmed file): the run's own median, no interval */
    if (isnan(e->ticks))
        e->ticks = jval_num(figures_get(m, &figures_methods, FIG_METHODS_NET_MEDIAN), NAN);
    plat_free(x);
    e->floor_ticks = step >= 0 && iters > 0 ? step / iters : NAN;
    double r = isnan(e->floor_ticks) ? 0 : e->floor_ticks, os_lo = e->ticks_lo, os_hi = e->ticks_hi;
    e->resolved = strcmp(status, "too_short") && e->ticks >= r ? 1
                  : strcmp(status, "too_short") && isnan(e->ticks) ? -1 : 0;
    e->below_ns = NAN;
    if (e->resolved == 0) {
        /* X = max(hi, r), of the order statistics' hi (NAN ends ignored) */
        double below = fmax(os_hi, e->floor_ticks);
        e->below_ns = fmax(below, 0) * 1e9 / hz;
    }
    if (!isnan(os_lo)) {
        e->ticks_lo = fmax(fmin(os_lo, e->ticks - r), 0);
        e->ticks_hi = fmax(fmax(os_hi, e->ticks + r), 0);
        e->at_floor = e->resolved == 1 && r > 0 && (e->ticks - r < os_lo || e->ticks + r > os_hi);
    }
    e->ns = e->ticks * 1e9 / hz;
    e->ns_lo = e->ticks_lo * 1e9 / hz;
    e->ns_hi = e->ticks_hi * 1e9 / hz;
    e->floor_ns = e->floor_ticks * 1e9 / hz;
}

/* An estimate's interval for "methods agree": the widened one; without raw
 * samples, the estimate -+ r. */
static void methods_summary_agree_interval(const struct summary_estimate *e, double *lo, double *hi)
{
    double r = isnan(e->floor_ticks) ? 0 : e->floor_ticks;
    *lo = isnan(e->ticks_lo) ? fmax(e->ticks - r, 0) : e->ticks_lo;
    *hi = isnan(e->ticks_hi) ? fmax(e->ticks + r, 0) : e->ticks_hi;
}

static int methods_summary_overlap(const struct summary_estimate *a, const struct summary_estimate *b)
{
    double alo, ahi, blo, bhi;
    methods_summary_agree_interval(a, &alo, &ahi);
    methods_summary_agree_interval(b, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

/* The reported estimate, and "k of m": of the m resolved estimates, the k
 * whose interval meets the reported one's. */
static void methods_summary_choose(struct summary_target *t, const char *method)
{
    t->chosen = 0;
    snprintf(t->why, sizeof t->why, "first method that measured it");
    for (unsigned i = 0; i < t->n_est; i++)
        if (!strcmp(t->est[i].method, method)) {
            t->chosen = i;
            snprintf(t->why, sizeof t->why, "the comparisons' method");
        }
    t->est[t->chosen].chosen = 1;
    t->agree = t->resolved = 0;
    for (unsigned i = 0; i < t->n_est; i++) {
        t->est[i].agrees = t->est[i].resolved == 1 && methods_summary_overlap(&t->est[i], &t->est[t->chosen]);
        t->agree += (unsigned)t->est[i].agrees;
        t->resolved += t->est[i].resolved == 1;
    }
}

void methods_summary(struct summary *s, struct jval methods, struct jval doc)
{
    const struct figure_table *ft = &figures_methods;
    struct jval m;
    char target[SUMMARY_NAME_MAX], method[SUMMARY_NAME_MAX], status[32];
    double hz = jval_num(figures_get(methods, ft, FIG_METHODS_TICK_HZ), NAN);
    size_t it = 0;
    if (!(hz > 0))
        hz = NAN;
    while (jval_next(figures_array(methods, ft, FIG_METHODS_NET_MEDIAN), &it, NULL, &m)) {
        jval_str(jval_get(m, "target"), target, sizeof target);
        jval_str(jval_get(m, "method"), method, sizeof method);
        jval_str(jval_get(m, "status"), status, sizeof status);    /* not a row: as above */
        /* a measurement that did not come out is no estimate (the section said why) */
        if (!target[0] || (strcmp(status, "ok") && strcmp(status, "too_short") && strcmp(status, "inconclusive")))
            continue;
        struct summary_target *t = methods_summary_target(s, target);
        if (!t || t->n_est >= SUMMARY_METHODS_MAX)
            continue;
        struct summary_estimate *e = &t->est[t->n_est++];
        snprintf(e->method, sizeof e->method, "%s", method);
        methods_summary_estimate(e, m, hz);
    }
    /* the method the comparisons used (their member's "method", a word) */
    char run_method[SUMMARY_NAME_MAX] = "sdm-recommended";
    jval_str(jval_path(doc, "comparisons.method"), run_method, sizeof run_method);
    for (unsigned i = 0; i < s->n_targets; i++)
        methods_summary_choose(&s->targets[i], run_method);
}
