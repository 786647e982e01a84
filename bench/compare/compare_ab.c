/*
 * bench/compare/compare_ab.c - Karsh's A/B timing (seed 000): the two
 * routines timed in pairs, in a drawn or alternating order, each timing
 * interrupts masked, then the statistics of the two samples; see compare.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "methods.h"
#include "platform.h"
#include "stats.h"
#include "targets.h"

/* ---- timing ------------------------------------------------------------------------- */

struct compare_job {
    const struct methods_info *m;
    bm_routine fa, fb, fo;
    void *da, *db;
    uint32_t precision, accuracy;
    int grow;                   /* precision asked as COMPARE_PRECISION_AUTO */
    enum compare_order order;
    uint64_t seed;
    char points[3][48];
    struct compare_result *r;
};

static uint64_t compare_xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* One untimed call to fill the caches, then the timing (Karsh's Loop). */
static uint64_t compare_loop(const struct methods_info *m, bm_routine f, void *d, uint32_t precision)
{
    f(1, d);
    return m->bracket(f, precision, d);
}

/* The least of COMPARE_GROW_PROBES timings of f at the job's precision. */
static uint64_t compare_probe_min(const struct compare_job *j, bm_routine f, void *d)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < COMPARE_GROW_PROBES; i++) {
        unsigned long irq = plat_irq_off();
        uint64_t t = compare_loop(j->m, f, d, j->precision);
        plat_irq_restore(irq);
        best = t < best ? t : best;
    }
    return best;
}

/* COMPARE_PRECISION_AUTO: double the calls per timing until the faster
 * routine's least net timing spans COMPARE_SPAN_STEPS counter steps. */
static void compare_grow(struct compare_job *j)
{
    struct compare_result *r = j->r;
    uint64_t step = plat_tick_step() ? plat_tick_step() : 1;
    double net = 0;
    for (;;) {
        uint64_t ta = compare_probe_min(j, j->fa, j->da), tb = compare_probe_min(j, j->fb, j->db);
        uint64_t to = compare_probe_min(j, j->fo, NULL);
        net = (double)(ta < tb ? ta : tb) - (double)to;
        if (net >= (double)COMPARE_SPAN_STEPS * (double)step || j->precision > COMPARE_PRECISION_MAX / 2)
            break;
        j->precision *= 2;
    }
    r->precision = j->precision;
    int spans = net >= (double)COMPARE_SPAN_STEPS * (double)step;
    snprintf(r->precision_why, sizeof r->precision_why, "%s: the faster's net timing %.0f ticks %s %d%s counter "
             "steps of %llu%s", j->precision == COMPARE_PRECISION ? "as started" : spans ? "grown" : "grown to the limit",
             net, spans ? "spans" : "is under", COMPARE_SPAN_STEPS, spans ? "+" : "", (unsigned long long)step,
             plat_tick_step() ? "" : " (step not measured: 1 assumed)");
}

static long compare_body(void *arg)
{
    struct compare_job *j = arg;
    struct compare_result *r = j->r;
    uint64_t s = j->seed ? j->seed : COMPARE_SEED;
    for (int k = 0; k < 3; k++)
        if (j->points[k][0])
            plat_fault_point(j->points[k]);
    if (j->grow)
        compare_grow(j);
    for (uint32_t i = 0; i < j->accuracy; i++) {
        int b_first = j->order == COMPARE_RANDOM ? (int)(compare_xorshift(&s) >> 63) : 0;
        uint64_t ta, tb, to;
        unsigned long irq = plat_irq_off();
        if (b_first) {
            tb = compare_loop(j->m, j->fb, j->db, j->precision);
            ta = compare_loop(j->m, j->fa, j->da, j->precision);
        } else {
            ta = compare_loop(j->m, j->fa, j->da, j->precision);
            tb = compare_loop(j->m, j->fb, j->db, j->precision);
        }
        to = compare_loop(j->m, j->fo, NULL, j->precision);
        plat_irq_restore(irq);
        r->a[i] = (double)ta - (double)to;
        r->b[i] = (double)tb - (double)to;
        r->ov[i] = (double)to;
        r->b_first[i] = (unsigned char)b_first;
    }
    return 0;
}

static int compare_alloc(struct compare_result *r, size_t na, size_t nb)
{
    size_t n = na > nb ? na : nb;
    r->a = plat_alloc((na ? na : 1) * sizeof(double));
    r->b = plat_alloc((nb ? nb : 1) * sizeof(double));
    r->ov = plat_alloc((n ? n : 1) * sizeof(double));
    r->b_first = plat_alloc(n ? n : 1);
    return r->a && r->b && r->ov && r->b_first ? 0 : -1;
}

/* The paired test on the trials (A and B timed in the same trial): d = A -
 * B per trial, in which the trial's overhead cancels. */
static void compare_paired(struct compare_result *out, size_t n, double *d, double *scratch)
{
    size_t wl = STATS_SIGNED_RANK_WORK(n < STATS_SIGNED_RANK_EXACT_MAX ? n : STATS_SIGNED_RANK_EXACT_MAX);
    double *work = plat_alloc(wl * sizeof(double));
    for (size_t i = 0; i < n; i++)
        d[i] = out->a[i] - out->b[i];
    stats_signed_rank(d, n, scratch, work, work ? wl : 0, &out->pd);
    plat_free(work);
}

/* The pair's ratio, interval, p and faster side, once, from the samples as
 * they are stored (stats_ab; no memory: all NAN and no faster side). */
static void compare_ratio(struct compare_result *out, size_t na, size_t nb)
{
    double *work = plat_alloc(STATS_AB_WORK(na, nb) * sizeof(double));
    if (stats_ab(out->a, na, out->b, nb, work, &out->ab))
        out->ab.faster = STATS_AB_NONE;
    plat_free(work);
}

/* Summaries and the comparison of out->a[0..na-1] against out->b[0..nb-1];
 * the paired test when they are trials (na == nb). */
static int compare_stats(struct compare_result *out, size_t na, size_t nb, double noise)
{
    double *sa = plat_alloc((na ? na : 1) * sizeof(double)), *sb = plat_alloc((nb ? nb : 1) * sizeof(double));
    double *so = plat_alloc((na ? na : 1) * sizeof(double));
    out->pd.p = out->pd.mean_diff = out->pd.median_diff = NAN;
    if (!sa || !sb || !so) {
        out->status = METHODS_NOMEM;
        snprintf(out->why, sizeof out->why, "no memory for the analysis");
    } else if (na < 1 || nb < 1 || stats_summary_double(out->a, na, sa, NULL, &out->sa)
               || stats_summary_double(out->b, nb, sb, NULL, &out->sb)) {
        out->status = METHODS_BAD_INPUT;
        snprintf(out->why, sizeof out->why, "empty or non-finite samples");
    } else {
        stats_summary_double(out->ov, na, so, NULL, &out->so);
        stats_compare_sorted_double(sa, &out->sa, sb, &out->sb, noise, &out->c);
        if (na == nb)
            compare_paired(out, na, sa, sb);    /* sorted copies no longer needed */
        compare_ratio(out, na, nb);
        out->status = METHODS_OK;
    }
    plat_free(sa);
    plat_free(sb);
    plat_free(so);
    return out->status;
}

int compare_analyse(const double *a, size_t na, const double *b, size_t nb, double noise,
                    struct compare_result *out)
{
    size_t n = na > nb ? na : nb;
    memset(out, 0, sizeof *out);
    out->accuracy = (uint32_t)(na < nb ? na : nb);
    if (compare_alloc(out, na, nb)) {
        compare_result_free(out);
        out->status = METHODS_NOMEM;
        snprintf(out->why, sizeof out->why, "no memory for the samples");
        return out->status;
    }
    memcpy(out->a, a, na * sizeof *a);
    memcpy(out->b, b, nb * sizeof *b);
    memset(out->ov, 0, (n ? n : 1) * sizeof(double));
    memset(out->b_first, 0, n ? n : 1);
    return compare_stats(out, na, nb, noise);
}

int compare_ab(int method, const struct methods_cpu *cpu, bm_routine a, void *da, const char *name_a,
               bm_routine b, void *db, const char *name_b, bm_routine overhead, uint32_t precision,
               uint32_t accuracy, enum compare_order order, uint64_t seed, struct compare_result *out)
{
    struct compare_job j;
    char why[160];
    long rc;

    memset(out, 0, sizeof *out);
    out->method = method;
    out->precision = precision;
    out->accuracy = accuracy;
    out->order = order;
    if (method < 0 || method >= METHODS_COUNT || !a || !b || accuracy < 2) {
        out->status = METHODS_BAD_INPUT;
        snprintf(out->why, sizeof out->why, "bad input: method, routines, accuracy >= 2");
        return out->status;
    }
    if (!methods_supported(cpu, method)) {
        out->status = METHODS_UNSUPPORTED;
        snprintf(out->why, sizeof out->why, "%s", methods_unsupported_why(cpu, method));
        return out->status;
    }
    memset(&j, 0, sizeof j);
    j.m = &methods_table[method];
    j.fa = a;
    j.fb = b;
    j.fo = overhead ? overhead : bm_target_placeholder;
    j.da = da;
    j.db = db;
    j.grow = precision == COMPARE_PRECISION_AUTO;
    j.precision = j.grow ? COMPARE_PRECISION : precision;
    out->precision = j.precision;
    if (!j.grow)
        snprintf(out->precision_why, sizeof out->precision_why, "as asked (fixed by the caller)");
    j.accuracy = accuracy;
    j.order = order;
    j.seed = seed;
    j.r = out;
    snprintf(j.points[0], sizeof j.points[0], "method:%s", j.m->key);
    if (name_a)
        snprintf(j.points[1], sizeof j.points[1], "target:%s", name_a);
    if (name_b && (!name_a || strcmp(name_a, name_b)))
        snprintf(j.points[2], sizeof j.points[2], "target:%s", name_b);
    if (compare_alloc(out, accuracy, accuracy)) {
        compare_result_free(out);
        out->status = METHODS_NOMEM;
        snprintf(out->why, sizeof out->why, "no memory for the samples");
        return out->status;
    }
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    if (plat_protected(compare_body, &j, &rc, why, sizeof why) != NULL) {
        plat_irq_restore(irq);
        out->status = METHODS_FAULT;
        snprintf(out->why, sizeof out->why, "%s", why);
        return out->status;
    }
    return compare_stats(out, accuracy, accuracy, COMPARE_NOISE);
}

void compare_result_free(struct compare_result *r)
{
    plat_free(r->a);
    plat_free(r->b);
    plat_free(r->ov);
    plat_free(r->b_first);
    r->a = r->b = r->ov = NULL;
    r->b_first = NULL;
}
