/*
 * tests/unit/test_changepoint.c - stats/changepoint.c against a plain
 * reference implementation of the same statistic, and its error rates.
 *
 * The reference below computes every candidate split's statistic from
 * scratch (two loops a split, no running sums), Welch's t and its p from
 * first principles (the t distribution's tail by numerical integration of
 * its density), and recurses the same way; on 300 seeded series (flat,
 * one step, two steps, of several lengths and noises) both must give the
 * same change points.  Then the rates, with bounds: on flat series of 50
 * runs no more than 8% have a false alarm at alpha 0.001 (measured about
 * 4%); a step of 3 sd in 50 runs is found within 2 runs of its place in at
 * least 95%; a step smaller than the runs' own intervals is not a change.
 * The permutation test: its p against Python's (exact, or numpy's
 * Monte-Carlo: tests/vectors/stats/make_cp_perm_vectors.py), when it
 * applies (runs scattering beyond their intervals), and flat series of a
 * two-mode noise kept at most 1% false alarms at 3, 5 and 10 runs a side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats.h"
#include "tests/vectors/stats/vectors_cp_perm.h"

/* A check whose name carries figures. */
#define CHECKF(cond, ...) do { char w_[400]; snprintf(w_, sizeof w_, __VA_ARGS__); \
        check_report_(!!(cond), w_, #cond); } while (0)

double history_bench_rate(size_t n, double step, const struct stats_cp_params *par);

static unsigned long long rng = 88172645463325252ull;
static double uni(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2 * log(uni())) * cos(2 * M_PI * uni()); }

/* ---- the reference ---------------------------------------------------------------- */

static double ref_mean(const double *x, size_t a, size_t b)
{
    double s = 0;
    for (size_t i = a; i < b; i++)
        s += x[i];
    return s / (double)(b - a);
}

static double ref_var(const double *x, size_t a, size_t b)
{
    double m = ref_mean(x, a, b), q = 0;
    for (size_t i = a; i < b; i++)
        q += (x[i] - m) * (x[i] - m);
    return q / (double)(b - a - 1);
}

/* P(|T| >= t) for Student's t with df degrees: 1 - 2 * integral of the
 * density from 0 to t (Simpson's rule on 20000 intervals). */
static double ref_t_p(double t, double df)
{
    t = fabs(t);
    if (t > 60)
        return 0;
    double c = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI), s = 0;
    int n = 20000;
    double h = t / n;
    for (int i = 0; i <= n; i++) {
        double u = i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        s += w * c * pow(1 + u * u / df, -(df + 1) / 2);
    }
    double p = 1 - 2 * s * h / 3;
    return p < 0 ? 0 : p;
}

static double ref_welch_p(const double *x, size_t a, size_t m, size_t b)
{
    double va = ref_var(x, a, m) / (double)(m - a), vb = ref_var(x, m, b) / (double)(b - m);
    double d = ref_mean(x, m, b) - ref_mean(x, a, m);
    if (va + vb == 0)
        return d == 0 ? 1 : 0;
    double t = d / sqrt(va + vb);
    double df = (va + vb) * (va + vb) /
                (va * va / (double)(m - a - 1) + vb * vb / (double)(b - m - 1));
    return ref_t_p(t, df);
}

/* Family-wise (stats.h, family): a segment of L runs with at least
 * ref_min a side has L - 2 ref_min + 1 splits to choose from; Bonferroni
 * compares Welch's p with alpha over that many. */
static int ref_family;
static size_t ref_min;

static int ref_change(const double *x, size_t a, size_t m, size_t b, double alpha)
{
    double step = fabs(ref_mean(x, m, b) - ref_mean(x, a, m));
    double splits = ref_family ? (double)(b - a) - 2.0 * (double)ref_min + 1 : 1;
    return ref_welch_p(x, a, m, b) * splits < alpha && step > 1e-9 * fmax(fabs(ref_mean(x, a, m)), fabs(ref_mean(x, m, b)));
}

static void ref_split(const double *x, size_t a, size_t b, size_t min, double alpha, int *is_cp)
{
    double best = -1;
    size_t at = 0;
    if (b - a < 2 * min)
        return;
    for (size_t t = a + min; t + min <= b; t++) {
        double nl = (double)(t - a), nr = (double)(b - t);
        double q = fabs(ref_mean(x, a, t) - ref_mean(x, t, b)) * sqrt(nl * nr / (nl + nr));
        if (q > best + 1e-12 * fabs(best)) {
            best = q;
            at = t;
        }
    }
    if (best <= 0 || !ref_change(x, a, at, b, alpha))
        return;
    is_cp[at] = 1;
    ref_split(x, a, at, min, alpha, is_cp);
    ref_split(x, at, b, min, alpha, is_cp);
}

static size_t ref_changepoints(const double *x, size_t n, size_t min, double alpha, size_t *out)
{
    int *is_cp = calloc(n + 1, sizeof *is_cp);
    size_t k = 0, cps[256];
    ref_split(x, 0, n, min, alpha, is_cp);
    for (size_t i = 0; i < n; i++)
        if (is_cp[i])
            cps[k++] = i;
    for (int dropped = 1; dropped;) {
        dropped = 0;
        for (size_t i = 0; i < k; i++) {
            size_t a = i ? cps[i - 1] : 0, b = i + 1 < k ? cps[i + 1] : n;
            if (!ref_change(x, a, cps[i], b, alpha)) {
                memmove(&cps[i], &cps[i + 1], (k - i - 1) * sizeof *cps);
                k--;
                dropped = 1;
                break;
            }
        }
    }
    memcpy(out, cps, k * sizeof *out);
    free(is_cp);
    return k;
}

/* ---- the tests ------------------------------------------------------------------------ */

static void test_against_reference(int family)
{
    static const size_t lengths[] = { 12, 30, 60, 120 };
    struct stats_cp_params par = { 0.001, 1e-5, 3, 0, family };
    int same = 0, total = 0, found = 0;
    char detail[200] = "";
    for (int s = 0; s < 300; s++) {
        size_t n = lengths[s % 4], ref[256], *scratch = malloc(3 * (n + 1) * sizeof *scratch), kr, kc;
        double *x = malloc(n * sizeof *x), noise = (s % 3 + 1) * 0.5;
        struct stats_change cps[64];
        for (size_t i = 0; i < n; i++) {
            x[i] = 50 + noise * gauss();
            if (s % 5 >= 2 && i >= n / 3)
                x[i] += 3 * noise;               /* one step */
            if (s % 5 >= 4 && i >= 2 * n / 3)
                x[i] -= 5 * noise;               /* and a second */
        }
        kc = stats_changepoints(x, NULL, n, &par, cps, 64, scratch);
        ref_family = family;
        ref_min = par.min_size;
        kr = ref_changepoints(x, n, par.min_size, par.alpha, ref);
        int eq = kc == kr;
        for (size_t i = 0; eq && i < kc; i++)
            eq = cps[i].at == ref[i];
        same += eq;
        found += (int)kc;
        total++;
        if (!eq && !detail[0])
            snprintf(detail, sizeof detail, "series %d (n %zu): %zu changes, the reference %zu", s, n, kc, kr);
        free(x);
        free(scratch);
    }
    CHECKF(same == total, "%s: the same change points as the plain reference on %d of %d series%s%s",
           family ? "Bonferroni's p over the splits" : "Welch's p of the split", same, total,
          detail[0] ? "; first difference: " : "", detail);
    CHECKF(found > 100, "the series have changes to find (%d found)", found);
}

static void test_rates(void)
{
    struct stats_cp_params par = { 0.001, 1e-5, 3 };
    double fa = history_bench_rate(50, 0, &par), hit = history_bench_rate(50, 3, &par);
    CHECKF(fa <= 0.08, "false alarms on flat series of 50 runs: %.1f%% (bound 8%%)", fa * 100);
    CHECKF(hit >= 0.95, "a 3 sd step in 50 runs found within 2 runs: %.1f%% (bound 95%%)", hit * 100);
    /* family-wise, as `history` decides: at most 1% of flat series with a
     * false alarm (the bound; measured 0.2-0.7% on this seed) */
    static const size_t lengths[] = { 20, 50, 200 };
    par.alpha_split = 0.01;
    par.family = 1;
    for (int i = 0; i < 3; i++) {
        fa = history_bench_rate(lengths[i], 0, &par);
        CHECKF(fa <= 0.01, "family-wise: false alarms on flat series of %zu runs: %.1f%% (bound 1%%)", lengths[i],
               fa * 100);
    }
    hit = history_bench_rate(50, 3, &par);
    CHECKF(hit >= 0.95, "family-wise: a 3 sd step in 50 runs found within 2 runs: %.1f%% (bound 95%%)", hit * 100);
}

static void test_own_interval(void)
{
    struct stats_cp_params par = { 0.001, 1e-5, 3 };
    size_t n = 40, scratch[3 * 41];
    double x[40], hw[40];
    struct stats_change cps[8];
    for (size_t i = 0; i < n; i++) {
        x[i] = 100 + (i >= 20 ? 0.5 : 0) + 0.01 * gauss();   /* a clear step of 0.5 ... */
        hw[i] = 1.0;                                         /* ... inside each run's +-1 */
    }
    CHECKF(stats_changepoints(x, hw, n, &par, cps, 8, scratch) == 0,
          "a step inside every run's own interval is not a change");
    for (size_t i = 0; i < n; i++)
        hw[i] = 0.1;
    size_t k = stats_changepoints(x, hw, n, &par, cps, 8, scratch);
    CHECKF(k == 1 && cps[0].at == 20 && cps[0].before_lo < cps[0].before && cps[0].after < cps[0].after_hi &&
              cps[0].strong,
          "the same step beyond the runs' intervals: one strong change at 20 with intervals (%zu)", k);
    double flat[30];
    for (size_t i = 0; i < 30; i++)
        flat[i] = 3.2506718648124173;
    CHECKF(stats_changepoints(flat, NULL, 30, &par, cps, 8, scratch) == 0, "identical values: no change");
}

/* The permutation p against tests/vectors/stats/make_cp_perm_vectors.py:
 * exact over every ordering for up to 8 runs, numpy's Monte-Carlo with
 * 400000 orderings beyond; the C code's 1999 orderings within 4 standard
 * errors (and one ordering's share) of it. */
static void test_perm_p(void)
{
    double work[STATS_CP_PERM_MAX];
    for (size_t i = 0; i < sizeof cp_perm_vectors / sizeof cp_perm_vectors[0]; i++) {
        const struct cp_perm_vector *v = &cp_perm_vectors[i];
        double p = stats_cp_perm_p(v->x, v->n, v->min, 1999, STATS_CP_PERM_SEED, work);
        double tol = 4 * sqrt(v->p * (1 - v->p) / 1999) + 1.0 / 2000;
        CHECKF(fabs(p - v->p) <= tol, "permutation p, %s: %.4f, Python's %s %.4f (tolerance %.4f)", v->what, p,
               v->exact ? "exact" : "Monte-Carlo", v->p, tol);
    }
    CHECKF(stats_cp_perm_p(cp_perm_vectors[0].x, 6, 3, 1999, STATS_CP_PERM_SEED, work) ==
               stats_cp_perm_p(cp_perm_vectors[0].x, 6, 3, 1999, STATS_CP_PERM_SEED, work),
           "the same series and seed: the same p");
}

/* When the permutation test applies: runs whose scatter their intervals
 * explain keep Welch's test (an exact count, 3 runs a side, is found);
 * the same values without intervals, or scattering far beyond them, must
 * pass the permutation test, which 3 runs a side never can (p >= 0.1). */
static void test_perm_gate(void)
{
    double work[STATS_CP_PERM_MAX], x[6] = { 1000, 1000, 1000, 1010, 1010, 1010 }, tight[6], wide[6];
    size_t scratch[3 * 7];
    struct stats_change cps[4];
    struct stats_cp_params par = { 0.001, 1e-5, 3, 0.01, 1, 1999, 0.01, work };
    for (int i = 0; i < 6; i++) {
        tight[i] = 0.5;         /* the runs' own half-widths: the 1% step is 20 of them */
        wide[i] = 0.5;
    }
    size_t k = stats_changepoints(x, tight, 6, &par, cps, 4, scratch);
    CHECKF(k == 1 && cps[0].at == 3 && isnan(cps[0].perm_p),
           "3 exact runs a side, intervals explain the scatter: found by Welch's test alone (%zu changes)", k);
    k = stats_changepoints(x, NULL, 6, &par, cps, 4, scratch);
    CHECKF(k == 0, "the same runs without intervals: the permutation test decides, and cannot at 3 a side (%zu)", k);
    double y[6] = { 1000, 1001.5, 998.5, 1020, 1021.5, 1018.5 };
    k = stats_changepoints(y, wide, 6, &par, cps, 4, scratch);
    CHECKF(k == 0, "runs scattering 6 times their intervals, 3 a side: not a change (%zu)", k);
    par.perm = 0;
    k = stats_changepoints(y, wide, 6, &par, cps, 4, scratch);
    CHECKF(k == 1, "... which Welch's test alone calls one (%zu)", k);
}

/* Flat series whose runs fall into a slow and a fast mode (a machine
 * that is sometimes loaded, each run on its own: noise far from normal),
 * without intervals: at most 1% with a false alarm at 3, 5 and 10 runs a
 * side.  (Modes that persist over runs are a change of the machine's
 * state, which no test of the values alone can tell from a step.) */
static void test_perm_flat_modes(void)
{
    static const size_t lengths[] = { 6, 10, 20 };
    double work[STATS_CP_PERM_MAX], x[20];
    size_t scratch[3 * 21];
    struct stats_change cps[8];
    struct stats_cp_params par = { 0.001, 1e-5, 3, 0.01, 1, 1999, 0.01, work }, bonf = par;
    bonf.perm = 0;
    for (int l = 0; l < 3; l++) {
        size_t n = lengths[l];
        int fa = 0, fa_bonf = 0, series = 400;
        for (int s = 0; s < series; s++) {
            for (size_t i = 0; i < n; i++)
                x[i] = (uni() < 0.3 ? 130 : 100) + gauss();
            fa += stats_changepoints(x, NULL, n, &par, cps, 8, scratch) > 0;
            fa_bonf += stats_changepoints(x, NULL, n, &bonf, cps, 8, scratch) > 0;
        }
        CHECKF(fa <= series / 100, "flat series of two modes, each run on its own, %zu runs a side: %.1f%% with a false alarm "
               "(bound 1%%; Bonferroni-Welch alone %.1f%%)", n / 2, 100.0 * fa / series, 100.0 * fa_bonf / series);
    }
}

int main(void)
{
    test_perm_p();
    test_perm_gate();
    test_perm_flat_modes();
    test_against_reference(0);
    test_against_reference(1);
    test_rates();
    test_own_interval();
    return check_done();
}
