/*
 * tools/host/report_glance.c - the report's first screen as figures (see
 * report_glance.h; ADAPTER until bench/summary.h is read instead).
 *
 * Choices, stated on the page and in the README:
 *  - a target's estimate by one method is the median of its net timings,
 *    (T(N) - median P(N)) / N, with the distribution-free 95% interval of
 *    a median (order statistics, binomial(n, 1/2) by its normal
 *    approximation), in ticks and in ns per iteration;
 *  - the chosen method is the extended profile's rule (docs/results-
 *    schema.md): the smallest (min T - min P) / N among the methods whose
 *    status is ok, ties to the smaller placeholder minimum, then the
 *    earlier method;
 *  - methods agree with the chosen one when their intervals overlap;
 *  - an A/B pair is the ratio of B's mean net time to A's (timing minus
 *    the method's overhead median, within the pooled outer fences the run
 *    states, as the verdict's means test), its interval by the delta
 *    method on the log scale.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_glance.h"
#include "report_util.h"
#include "run_state.h"
#include "stats/stats.h"

/* z of a two-sided 95% interval (normal). */
#define RG_Z95 1.959963984540054

/* ---- the verdict ------------------------------------------------------------ */

static void rg_read_verdict(json_t *root, struct rg_summary *s)
{
    json_t *errors = json_object_get(root, "errors");
    struct rs_state st;

    s->profile = rj_str(json_object_get(root, "settings"), "profile", NULL);
    s->started = rj_str(json_object_get(root, "system"), "started", NULL);
    s->warnings = json_array_size(errors);
    s->first_warning = json_string_value(json_array_get(errors, 0));
    /* status, ended and stage as every host tool reads them (run_state.h;
     * the stage only when a plain word) */
    rs_read(root, &st);
    switch (st.kind) {
    case RS_COMPLETED: s->verdict = RG_COMPLETED; break;
    case RS_WARNINGS: s->verdict = RG_WARNINGS; break;
    case RS_FAILED: s->verdict = RG_FAILED; break;
    case RS_INTERRUPTED: s->verdict = RG_INTERRUPTED; break;
    default: s->verdict = RG_UNKNOWN; break;
    }
    snprintf(s->stage, sizeof s->stage, "%s", st.stage);
}

const char *rg_verdict_words(const struct rg_summary *s, char *buf, size_t n)
{
    switch (s->verdict) {
    case RG_COMPLETED: snprintf(buf, n, "completed"); break;
    case RG_WARNINGS: snprintf(buf, n, "warnings: %zu", s->warnings); break;
    case RG_FAILED: snprintf(buf, n, "failed"); break;
    case RG_INTERRUPTED:
        if (s->stage[0])
            snprintf(buf, n, "interrupted during %s", s->stage);
        else
            snprintf(buf, n, "interrupted (section not recorded)");
        break;
    default: snprintf(buf, n, "status unknown"); break;
    }
    return buf;
}

/* ---- one target by one method ------------------------------------------------ */

/* The median of sorted x and its distribution-free 95% interval: the
 * order statistics at ranks n/2 -+ z sqrt(n)/2 (1-based, rounded
 * outward); the whole range for fewer than 6 values. */
static void rg_median_ci(const double *x, size_t n, double *med, double *lo, double *hi)
{
    double h = RG_Z95 * sqrt((double)n) / 2;
    long j = (long)floor((double)n / 2 - h), k = (long)ceil((double)n / 2 + 1 + h);
    *med = stats_percentile_sorted_double(x, n, 50.0);
    if (j < 1 || n < 6)
        j = 1;
    if (k > (long)n || n < 6)
        k = (long)n;
    *lo = x[j - 1];
    *hi = x[k - 1];
}

static void rg_method_fill(json_t *el, double tick_hz, struct rg_method *m)
{
    double *t = NULL, p50 = rj_num(el, "placeholder_median", NAN), iters = rj_num(el, "iterations", NAN);
    size_t n = rj_numbers(json_object_get(el, "samples"), &t);
    double med = rj_num(json_object_get(el, "net"), "median", NAN), lo = NAN, hi = NAN;
    double ns_per_tick = tick_hz > 0 ? 1e9 / tick_hz : NAN;

    m->name = rj_str(el, "method", "?");
    m->status = rj_str(el, "status", "?");
    m->ok = !strcmp(m->status, "ok");
    if (n && !isnan(p50) && iters >= 1) {
        for (size_t i = 0; i < n; i++)
            t[i] = (t[i] - p50) / iters;
        stats_sort_double(t, n);
        rg_median_ci(t, n, &med, &lo, &hi);
    }
    free(t);
    m->ticks = med;
    m->ns = med * ns_per_tick;
    m->lo_ns = lo * ns_per_tick;
    m->hi_ns = hi * ns_per_tick;
}

/* The extended profile's order: smaller (min T - min P) / N, then the
 * smaller placeholder minimum; equal keeps the earlier method. */
static int rg_better(json_t *a, json_t *b)
{
    double ea = rj_num(json_object_get(a, "per_iteration"), "minus_placeholder", NAN);
    double eb = rj_num(json_object_get(b, "per_iteration"), "minus_placeholder", NAN);
    if (isnan(eb))
        return !isnan(ea);
    if (isnan(ea) || ea != eb)
        return ea < eb;
    return rj_num(a, "placeholder_min", INFINITY) < rj_num(b, "placeholder_min", INFINITY);
}

static int rg_overlap(const struct rg_method *a, const struct rg_method *b)
{
    if (isnan(a->lo_ns) || isnan(b->lo_ns))
        return a->ns == b->ns;
    return a->lo_ns <= b->hi_ns && b->lo_ns <= a->hi_ns;
}

/* Index of target name in s, adding it (room for every measurement) when new. */
static long rg_target_of(struct rg_summary *s, const char *name, size_t room)
{
    for (size_t i = 0; i < s->ntargets; i++)
        if (!strcmp(s->targets[i].name, name))
            return (long)i;
    struct rg_target *t = &s->targets[s->ntargets];
    t->m = calloc(room, sizeof *t->m);
    if (!t->m)
        return -1;
    t->name = name;
    t->chosen = -1;
    return (long)s->ntargets++;
}

static int rg_read_targets(json_t *root, struct rg_summary *s)
{
    json_t *methods = json_object_get(root, "methods");
    json_t *list = json_object_get(methods, "measurements"), *el;
    double tick_hz = rj_num(methods, "tick_hz", NAN);
    size_t n = json_array_size(list), i;
    json_t **best;

    if (!n)
        return 0;
    s->targets = calloc(n, sizeof *s->targets);
    best = calloc(n, sizeof *best);
    if (!s->targets || !best) {
        free(best);
        return -1;
    }
    json_array_foreach(list, i, el) {
        long k = json_is_object(el) ? rg_target_of(s, rj_str(el, "target", "?"), n) : -2;
        if (k == -1) {
            free(best);
            return -1;
        }
        if (k < 0)
            continue;
        struct rg_target *t = &s->targets[k];
        rg_method_fill(el, tick_hz, &t->m[t->n]);
        if (t->m[t->n].ok) {
            t->ok++;
            if (!best[k] || rg_better(el, best[k])) {
                best[k] = el;
                t->chosen = (int)t->n;
            }
        }
        t->n++;
    }
    free(best);
    for (i = 0; i < s->ntargets; i++) {
        struct rg_target *t = &s->targets[i];
        for (size_t k = 0; t->chosen >= 0 && k < t->n; k++)
            t->agree += t->m[k].ok && rg_overlap(&t->m[k], &t->m[t->chosen]);
    }
    return 0;
}

/* ---- A/B pairs ------------------------------------------------------------------ */

/* Mean and variance of one side's net timings within [flo, fhi]. */
static int rg_side(json_t *side, double ovh, double flo, double fhi, double *mean, double *var, size_t *count)
{
    double *x = NULL, sum = 0, sq = 0;
    size_t n = rj_numbers(json_object_get(side, "samples"), &x), k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= flo && x[i] <= fhi) {
            sum += x[i] - ovh;
            k++;
        }
    *mean = k ? sum / k : NAN;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= flo && x[i] <= fhi)
            sq += (x[i] - ovh - *mean) * (x[i] - ovh - *mean);
    *var = k > 1 ? sq / (k - 1) : NAN;
    *count = k;
    free(x);
    return k > 1 && *mean > 0 ? 0 : -1;
}

static void rg_pair_fill(json_t *c, struct rg_pair *p)
{
    json_t *a = json_object_get(c, "a"), *b = json_object_get(c, "b");
    double ovh = rj_num(json_object_get(c, "overhead"), "median", 0);
    double flo = rj_num(c, "fence_low", -INFINITY), fhi = rj_num(c, "fence_high", INFINITY);
    double ma, va, mb, vb;
    size_t na, nb;

    p->name = rj_name(c, "comparison");
    p->a = rj_str(a, "name", "A");
    p->b = rj_str(b, "name", "B");
    p->verdict = rj_str(c, "verdict", NULL);
    p->kind = rj_str(c, "kind", "");
    p->control = !strcmp(p->a, p->b);
    p->as_expected = json_is_boolean(json_object_get(c, "as_expected")) ? rj_bool(c, "as_expected", 0) : -1;
    p->p = rj_num(c, "mann_whitney_p", NAN);
    p->ratio = p->lo = p->hi = NAN;
    if (rg_side(a, ovh, flo, fhi, &ma, &va, &na) || rg_side(b, ovh, flo, fhi, &mb, &vb, &nb))
        return;
    double se = sqrt(va / (na * ma * ma) + vb / (nb * mb * mb));
    p->ratio = mb / ma;
    p->lo = p->ratio * exp(-RG_Z95 * se);
    p->hi = p->ratio * exp(RG_Z95 * se);
}

static int rg_read_pairs(json_t *root, struct rg_summary *s)
{
    json_t *list = rj_comparisons_list(json_object_get(root, "comparisons")), *el;
    size_t i;
    if (!json_array_size(list))
        return 0;
    s->pairs = calloc(json_array_size(list), sizeof *s->pairs);
    if (!s->pairs)
        return -1;
    json_array_foreach(list, i, el)
        if (json_is_object(el))
            rg_pair_fill(el, &s->pairs[s->npairs++]);
    return 0;
}

/* ---- the whole -------------------------------------------------------------------- */

int rg_build(json_t *root, struct rg_summary *s)
{
    memset(s, 0, sizeof *s);
    rg_read_verdict(root, s);
    int rc = rg_read_targets(root, s);
    rc |= rg_read_pairs(root, s);
    rg_headlines(root, s);      /* last: the methods line counts the targets */
    return rc ? -1 : 0;
}

void rg_free(struct rg_summary *s)
{
    for (size_t i = 0; i < s->ntargets; i++)
        free(s->targets[i].m);
    free(s->targets);
    free(s->pairs);
    memset(s, 0, sizeof *s);
}

const char *rg_headline(const struct rg_summary *s, const char *section)
{
    for (size_t i = 0; i < s->nlines; i++)
        if (!strcmp(s->lines[i].section, section))
            return s->lines[i].text;
    return NULL;
}
