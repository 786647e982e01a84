/*
 * bench/summary/summary_estimates.c - the summary's statistics (see
 * summary.c for where each figure comes from): each target's net time per
 * iteration with its 95% interval and the reported method, and each A/B
 * pair's ratio, interval and p.  Called by summary_build (summary.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "platform.h"
#include "stats.h"
#include "summary.h"
#include "summary_internal.h"

/* z for a two-sided 95% interval. */
#define SUMMARY_Z95 1.959963984540054

/* ---- small helpers ---------------------------------------------------------- */

/* A JSON array of numbers into a new plat_alloc'd array (NULL when empty). */
static double *sum_numbers(struct jval arr, size_t *n)
{
    size_t cap = jval_count(arr), it = 0;
    struct jval v;
    double *x = cap ? plat_alloc(cap * sizeof *x) : NULL;
    *n = 0;
    if (!x)
        return NULL;
    while (jval_next(arr, &it, NULL, &v) && *n < cap) {
        double d = jval_num(v, NAN);
        if (!isnan(d))
            x[(*n)++] = d;
    }
    return x;
}

/* The median of sorted x and its 95% interval from order statistics. */
static void sum_median_ci(const double *x, size_t n, double *med, double *lo, double *hi)
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


/* ---- targets --------------------------------------------------------------------------- */

static struct summary_target *sum_target(struct summary *s, const char *name)
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
static void sum_estimate(struct summary_estimate *e, struct jval m, double hz)
{
    size_t n;
    char status[32] = "";
    double pm = jval_num(jval_get(m, "placeholder_median"), NAN), iters = jval_num(jval_get(m, "iterations"), NAN);
    double step = jval_num(jval_get(m, "counter_step_ticks"), NAN);
    double *x = sum_numbers(jval_get(m, "samples"), &n);
    jval_str(jval_get(m, "status"), status, sizeof status);
    e->ticks = e->ticks_lo = e->ticks_hi = NAN;
    if (x && !isnan(pm) && iters > 0) {
        for (size_t i = 0; i < n; i++)
            x[i] = (x[i] - pm) / iters;
        stats_sort_double(x, n);
        sum_median_ci(x, n, &e->ticks, &e->ticks_lo, &e->ticks_hi);
        e->samples = (unsigned)n;
    }
    /* no raw samples (an old or trimmed file): the run's own median, no interval */
    if (isnan(e->ticks))
        e->ticks = jval_num(jval_path(m, "net.median"), NAN);
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
static void sum_agree_interval(const struct summary_estimate *e, double *lo, double *hi)
{
    double r = isnan(e->floor_ticks) ? 0 : e->floor_ticks;
    *lo = isnan(e->ticks_lo) ? fmax(e->ticks - r, 0) : e->ticks_lo;
    *hi = isnan(e->ticks_hi) ? fmax(e->ticks + r, 0) : e->ticks_hi;
}

static int sum_overlap(const struct summary_estimate *a, const struct summary_estimate *b)
{
    double alo, ahi, blo, bhi;
    sum_agree_interval(a, &alo, &ahi);
    sum_agree_interval(b, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

/* The reported estimate, and "k of m": of the m resolved estimates, the k
 * whose interval meets the reported one's. */
static void sum_choose(struct summary_target *t, const char *method)
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
        t->est[i].agrees = t->est[i].resolved == 1 && sum_overlap(&t->est[i], &t->est[t->chosen]);
        t->agree += (unsigned)t->est[i].agrees;
        t->resolved += t->est[i].resolved == 1;
    }
}

void summary_targets(struct summary *s, struct jval doc)
{
    struct jval methods = jval_get(doc, "methods"), m;
    char target[SUMMARY_NAME_MAX], method[SUMMARY_NAME_MAX], status[32];
    double hz = jval_num(jval_get(methods, "tick_hz"), NAN);
    size_t it = 0;
    if (!(hz > 0))
        hz = NAN;
    while (jval_next(jval_get(methods, "measurements"), &it, NULL, &m)) {
        jval_str(jval_get(m, "target"), target, sizeof target);
        jval_str(jval_get(m, "method"), method, sizeof method);
        jval_str(jval_get(m, "status"), status, sizeof status);
        /* a measurement that did not come out is no estimate (the section said why) */
        if (!target[0] || (strcmp(status, "ok") && strcmp(status, "too_short") && strcmp(status, "inconclusive")))
            continue;
        struct summary_target *t = sum_target(s, target);
        if (!t || t->n_est >= SUMMARY_METHODS_MAX)
            continue;
        struct summary_estimate *e = &t->est[t->n_est++];
        snprintf(e->method, sizeof e->method, "%s", method);
        sum_estimate(e, m, hz);
    }
    char run_method[SUMMARY_NAME_MAX] = "sdm-recommended";
    jval_str(jval_path(doc, "comparisons.method"), run_method, sizeof run_method);
    for (unsigned i = 0; i < s->n_targets; i++)
        sum_choose(&s->targets[i], run_method);
}

/* ---- comparisons ------------------------------------------------------------------------ */

/* The pair's figures as the run wrote them ("ratio"), else stats_ab on the
 * stored samples (an older file): the same function either way. */
static void sum_ab_figures(struct summary_ab *ab, struct jval c)
{
    struct jval r = jval_get(c, "ratio");
    char side[8] = "";
    if (jval_str(jval_get(r, "faster"), side, sizeof side)) {
        ab->side = !strcmp(side, "a") ? STATS_AB_A : !strcmp(side, "b") ? STATS_AB_B : STATS_AB_NONE;
        ab->ratio = jval_num(jval_get(r, "estimate"), NAN);
        ab->ratio_lo = jval_num(jval_get(r, "lo"), NAN);
        ab->ratio_hi = jval_num(jval_get(r, "hi"), NAN);
        ab->p = jval_num(jval_get(r, "p"), NAN);
        return;
    }
    size_t na, nb;
    double *xa = sum_numbers(jval_path(c, "a.samples"), &na), *xb = sum_numbers(jval_path(c, "b.samples"), &nb);
    double *work = xa && xb ? plat_alloc(STATS_AB_WORK(na, nb) * sizeof *work) : NULL;
    struct stats_ab st;
    stats_ab(xa, na, xb, nb, work, &st);
    ab->side = (int)st.faster;
    ab->ratio = st.estimate;
    ab->ratio_lo = st.lo;
    ab->ratio_hi = st.hi;
    ab->p = st.p;
    plat_free(work);
    plat_free(xa);
    plat_free(xb);
}

/* What the pair is: the run's "check", else (an older file) from what it
 * expects, its order and its two routines. */
static void sum_ab_check(struct summary_ab *ab, struct jval c)
{
    char expect[32] = "", order[16] = "", kind[SUMMARY_NAME_MAX] = "";
    int same = !strcmp(ab->a, ab->b);
    jval_str(jval_get(c, "expect"), expect, sizeof expect);
    jval_str(jval_get(c, "order"), order, sizeof order);
    jval_str(jval_get(c, "kind"), kind, sizeof kind);
    ab->abab = !strcmp(order, "alternate");
    if (!jval_str(jval_get(c, "check"), ab->check, sizeof ab->check))
        snprintf(ab->check, sizeof ab->check, "%s",
                 !strncmp(kind, "order check", 11) || (same && ab->abab) ? "order check"
                 : !strncmp(kind, "placement check", 15) || strstr(kind, "identical copy") ? "placement check"
                 : same && !strcmp(expect, "no difference") ? "a/a control" : "a/b");
    ab->control = !strcmp(ab->check, "a/a control");
    const char *how = ab->as_expected == 0 ? ": NOT as expected" : ab->as_expected == 1 ? ", as expected" : "";
    if (ab->control)
        snprintf(ab->note, sizeof ab->note, " (A/A control%s)", how);
    else if (!strcmp(ab->check, "order check"))
        snprintf(ab->note, sizeof ab->note, " (order check, ABAB%s)", how);
    else if (!strcmp(ab->check, "placement check"))
        snprintf(ab->note, sizeof ab->note, " (placement check)");
    else if (ab->abab)
        snprintf(ab->note, sizeof ab->note, " (ABAB order%s)", ab->as_expected == 0 ? ", NOT as expected" : "");
    else if (ab->as_expected == 0)
        snprintf(ab->note, sizeof ab->note, " (not what the run expected)");
}

static void sum_one_ab(struct summary_ab *ab, struct jval c)
{
    char verdict[32] = "";
    jval_str(jval_get(c, "name"), ab->name, sizeof ab->name);
    jval_str(jval_path(c, "a.name"), ab->a, sizeof ab->a);
    jval_str(jval_path(c, "b.name"), ab->b, sizeof ab->b);
    jval_str(jval_get(c, "verdict"), verdict, sizeof verdict);
    ab->detected = verdict[0] && strcmp(verdict, "no difference");
    if (!jval_str(jval_get(c, "status"), ab->status, sizeof ab->status))
        snprintf(ab->status, sizeof ab->status, "ok");
    ab->as_expected = jval_bool(jval_get(c, "as_expected"), -1);
    sum_ab_check(ab, c);
    sum_ab_figures(ab, c);
    ab->rel_median = jval_num(jval_get(c, "rel_median"), NAN);
    ab->noise = jval_num(jval_get(c, "noise"), NAN);
    ab->within_noise = !ab->detected && ab->p < STATS_ALPHA && !isnan(ab->rel_median) && !isnan(ab->noise) &&
                       fabs(ab->rel_median) <= ab->noise;
    int b_faster = ab->side == STATS_AB_B;
    memcpy(ab->faster, b_faster ? ab->b : ab->a, sizeof ab->faster);
    memcpy(ab->slower, b_faster ? ab->a : ab->b, sizeof ab->slower);
}

void summary_comparisons(struct summary *s, struct jval doc)
{
    struct jval c;
    size_t it = 0;
    while (jval_next(jval_path(doc, "comparisons.comparisons"), &it, NULL, &c) && s->n_ab < SUMMARY_AB_MAX) {
        struct summary_ab *ab = &s->ab[s->n_ab++];
        sum_one_ab(ab, c);
        summary_ab_text(ab);
    }
}
