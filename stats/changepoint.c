/*
 * stats/changepoint.c - change points in a series of runs: E-Divisive
 * means with Student's t-test in place of permutations, as Hunter / Apache
 * Otava do (Fleming et al., "Hunter: Using Change Point Detection to Hunt
 * for Performance Regressions", ICPE 2023; Daly et al., ICPE 2020).
 * Deterministic: the same series gives the same change points.
 *
 * 1. Split: in a segment, the candidate split is the one that maximises
 *    the distance between the means of its two sides weighted by their
 *    sizes, |mean_L - mean_R| * sqrt(L R / (L + R)) (the means-only form
 *    of the E-divisive statistic, and Student's t up to the pooled sd).
 * 2. Test: Welch's t-test between the two sides; the split is a change
 *    when p < alpha AND the step is larger than the runs' own
 *    uncertainty (the mean half-width of their intervals on both sides):
 *    a step inside what each run already says it cannot resolve is not
 *    called a change, however many runs agree on it.  With par->family,
 *    Welch's p is multiplied by the number of splits the segment allows
 *    (Bonferroni): the split is the best of them, so alpha then bounds
 *    the chance that a flat segment shows a change anywhere.
 *    With par->perm, a segment of at most STATS_CP_PERM_MAX points must
 *    also pass a Monte-Carlo permutation test of its largest split (the
 *    E-Divisive original's test, Matteson and James 2014): Welch's p
 *    assumes normal noise, which with 3 runs a side (df about 2) a
 *    machine's noise (a slow boot, a loaded host) breaks.  Its smallest
 *    attainable p is about 2 / C(n, k) for k runs a side of n: 0.1 with 3
 *    a side, 0.008 with 5, so with alpha_perm 0.01 a segment of 3 runs a
 *    side never shows a change, one of 5 only a clean separation.  So it
 *    applies only where the runs (hw given) scatter more about their
 *    sides' means than their own intervals say: runs whose scatter their
 *    intervals explain (medians of many samples, a steady machine, or
 *    -icount's exact counts) keep Welch's test alone.
 * 3. Recurse into both sides, then re-test every change against its
 *    neighbours (from the change before it to the change after it) until
 *    none is dropped: a change found early in a long segment must still
 *    hold between its actual neighbours.  With par->alpha_split the
 *    splitting pass keeps splits at that weaker p and the re-test, at
 *    alpha, drops the weakest first (Hunter's split and merge): a step
 *    that comes back is then found, though its first split compares one
 *    level with a mixture of both.
 *
 * Pure and freestanding like the rest of stats/: no I/O, no allocation
 * (the caller's scratch).
 */
#include <math.h>

#include "stats.h"

#define CP_EPSILON 1e-9     /* relative: below it two means are the same */

/* Welch's t-test of x[a..m) against x[m..b): p (1 = no difference). */
static double cp_welch_p(const double *x, size_t a, size_t m, size_t b)
{
    double sl = 0, sr = 0, ql = 0, qr = 0;
    size_t nl = m - a, nr = b - m;
    for (size_t i = a; i < m; i++)
        sl += x[i];
    for (size_t i = m; i < b; i++)
        sr += x[i];
    double ml = sl / nl, mr = sr / nr;
    for (size_t i = a; i < m; i++)
        ql += (x[i] - ml) * (x[i] - ml);
    for (size_t i = m; i < b; i++)
        qr += (x[i] - mr) * (x[i] - mr);
    double t, df, p;
    if (nl < 2 || nr < 2)
        return 1;
    stats_welch(ml, ql / (nl - 1), nl, mr, qr / (nr - 1), nr, &t, &df, &p);
    return isnan(p) ? 1 : p;
}

static double cp_mean(const double *x, size_t a, size_t b)
{
    double s = 0;
    size_t n = 0;
    for (size_t i = a; i < b; i++)
        if (!isnan(x[i])) {
            s += x[i];
            n++;
        }
    return n ? s / n : NAN;
}

/* The best split of x[a..b) with at least min points a side; 0: none. */
static size_t cp_best_split(const double *x, size_t a, size_t b, size_t min)
{
    double total = 0, left = 0, best = -1;
    size_t at = 0;
    if (b - a < 2 * min)
        return 0;
    for (size_t i = a; i < b; i++)
        total += x[i];
    for (size_t i = a; i < a + min; i++)
        left += x[i];
    for (size_t t = a + min; t + min <= b; t++) {
        double nl = (double)(t - a), nr = (double)(b - t);
        double q = fabs(left / nl - (total - left) / nr) * sqrt(nl * nr / (nl + nr));
        if (q > best) {         /* the first of equal maxima: deterministic */
            best = q;
            at = t;
        }
        left += x[t];
    }
    return best > 0 ? at : 0;
}

/* The largest size-weighted difference of means over the splits of
 * x[0..n) with min a side (cp_best_split's statistic). */
static double cp_max_stat(const double *x, size_t n, size_t min)
{
    double total = 0, left = 0, best = 0;
    for (size_t i = 0; i < n; i++)
        total += x[i];
    for (size_t i = 0; i < min; i++)
        left += x[i];
    for (size_t t = min; t + min <= n; t++) {
        double nl = (double)t, nr = (double)(n - t);
        double q = fabs(left / nl - (total - left) / nr) * sqrt(nl * nr / (nl + nr));
        if (q > best)
            best = q;
        left += x[t];
    }
    return best;
}

double stats_cp_perm_p(const double *x, size_t n, size_t min, unsigned perm, uint64_t seed, double *work)
{
    uint64_t st = seed ? seed : 1;
    size_t hits = 0;
    if (!min)
        min = 1;
    if (n < 2 * min || !perm)
        return 1;
    double obs = cp_max_stat(x, n, min);
    /* a tie within rounding counts as at least as large */
    double tol = 1e-12 * (obs > 0 ? obs : 1);
    for (size_t i = 0; i < n; i++)
        work[i] = x[i];
    for (unsigned b = 0; b < perm; b++) {
        for (size_t i = n - 1; i > 0; i--) {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            size_t j = (size_t)(st % (i + 1));
            double t = work[i];
            work[i] = work[j];
            work[j] = t;
        }
        hits += cp_max_stat(work, n, min) >= obs - tol;
    }
    return (double)(1 + hits) / (double)(perm + 1);
}

/* Whether the runs of x[a..b) split at m scatter more about their sides'
 * means than their own intervals say (pooled sd above STATS_CP_SCATTER
 * times the mean half-width over 1.96, or no intervals): then the noise
 * is the machine's from run to run, of unknown shape, and Welch's normal
 * model is not to be trusted on a short segment. */
static int cp_scatter_unexplained(const double *x, const double *hw, size_t a, size_t m, size_t b)
{
    double ml = cp_mean(x, a, m), mr = cp_mean(x, m, b), q = 0;
    double h = hw ? cp_mean(hw, a, b) : NAN;
    if (b - a < 3 || !(h > 0))
        return 1;
    for (size_t i = a; i < b; i++)
        q += (x[i] - (i < m ? ml : mr)) * (x[i] - (i < m ? ml : mr));
    return sqrt(q / (double)(b - a - 2)) > STATS_CP_SCATTER * h / 1.959963984540054;
}

/* Whether the permutation test applies to x[a..b) split at m. */
static int cp_perm_applies(const double *x, const double *hw, size_t a, size_t m, size_t b,
                           const struct stats_cp_params *par)
{
    return par->family && par->perm && par->work && b - a <= STATS_CP_PERM_MAX &&
           cp_scatter_unexplained(x, hw, a, m, b);
}

/* Whether splitting x[a..b) at m is a change (fills p). */
static int cp_is_change(const double *x, const double *hw, size_t a, size_t m, size_t b,
                        const struct stats_cp_params *par, double *p)
{
    size_t min = par->min_size ? par->min_size : 1;
    double step = fabs(cp_mean(x, m, b) - cp_mean(x, a, m));
    double floor_ = hw ? (cp_mean(hw, a, m) + cp_mean(hw, m, b)) / 2 : 0;
    double scale = fmax(fabs(cp_mean(x, a, m)), fabs(cp_mean(x, m, b)));
    *p = cp_welch_p(x, a, m, b);
    /* With par->family the p is Bonferroni's over the b - a + 1 - 2 min
     * splits the segment allows: the split tested is the best of them, so
     * Welch's p alone (a given split's) understates how often a flat
     * segment has one split that far apart. */
    if (par->family && b - a + 1 > 2 * min)
        *p = fmin(1, *p * (double)(b - a + 1 - 2 * min));
    if (isnan(floor_))
        floor_ = 0;
    /* A step within the rounding of the sums is none: identical values
     * would otherwise have a tiny variance and a huge t. */
    if (!(*p < par->alpha && step > floor_ && step > CP_EPSILON * scale))
        return 0;
    /* A short segment: its largest split must also stand out among the
     * segment's own values in random order (no assumption about the
     * noise's distribution); costs perm passes over at most
     * STATS_CP_PERM_MAX points, only for a split Welch's test passed. */
    if (cp_perm_applies(x, hw, a, m, b, par) &&
        !(stats_cp_perm_p(x + a, b - a, min, par->perm, STATS_CP_PERM_SEED, par->work) < par->alpha_perm))
        return 0;
    return 1;
}

/* The 95% interval of the mean of x[a..b) (Student's t). */
static void cp_interval(const double *x, size_t a, size_t b, double *lo, double *hi)
{
    double m = cp_mean(x, a, b), q = 0;
    size_t n = b - a;
    for (size_t i = a; i < b; i++)
        q += (x[i] - m) * (x[i] - m);
    double h = n > 1 ? stats_t95(n - 1) * sqrt(q / (n - 1) / n) : NAN;
    *lo = m - h;
    *hi = m + h;
}

static void cp_insert(size_t *cps, size_t *n, size_t at)
{
    size_t i = *n;
    while (i > 0 && cps[i - 1] > at) {
        cps[i] = cps[i - 1];
        i--;
    }
    cps[i] = at;
    (*n)++;
}

size_t stats_changepoints(const double *x, const double *hw, size_t n, const struct stats_cp_params *par,
                          struct stats_change *out, size_t cap, size_t *scratch)
{
    /* scratch: n + 1 change positions, then 2 (n + 1) for the stack. */
    size_t *cps = scratch, ncp = 0, *stack = scratch + n + 1, top = 0;
    size_t min = par->min_size ? par->min_size : 1;
    double p;
    struct stats_cp_params split = *par;
    int weak = par->alpha_split > par->alpha;
    if (weak) {
        split.alpha = par->alpha_split;
        split.family = 0;       /* candidates; the re-test below decides */
    }
    if (n < 2 * min)
        return 0;
    stack[top++] = 0;
    stack[top++] = n;
    while (top) {
        size_t b = stack[--top], a = stack[--top];
        size_t m = cp_best_split(x, a, b, min);
        if (!m || !cp_is_change(x, hw, a, m, b, &split, &p))
            continue;
        cp_insert(cps, &ncp, m);
        stack[top++] = a;
        stack[top++] = m;
        stack[top++] = m;
        stack[top++] = b;
    }
    /* Re-test each change between its neighbours until none drops: the
     * first that fails, or with a weaker splitting pass the one with the
     * largest p among those that fail (its neighbours then change). */
    for (int dropped = 1; dropped;) {
        size_t drop = ncp;
        double worst = -1;
        dropped = 0;
        for (size_t i = 0; i < ncp; i++) {
            size_t a = i ? cps[i - 1] : 0, b = i + 1 < ncp ? cps[i + 1] : n;
            if (!cp_is_change(x, hw, a, cps[i], b, par, &p) && p > worst) {
                worst = p;
                drop = i;
                if (!weak)
                    break;
            }
        }
        if (drop < ncp) {
            for (size_t j = drop; j + 1 < ncp; j++)
                cps[j] = cps[j + 1];
            ncp--;
            dropped = 1;
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < ncp && k < cap; i++, k++) {
        size_t a = i ? cps[i - 1] : 0, b = i + 1 < ncp ? cps[i + 1] : n, m = cps[i];
        struct stats_change *c = &out[k];
        c->at = m;
        c->from = a;
        c->to = b;
        c->before = cp_mean(x, a, m);
        c->after = cp_mean(x, m, b);
        c->before_hw = hw ? cp_mean(hw, a, m) : NAN;
        c->after_hw = hw ? cp_mean(hw, m, b) : NAN;
        cp_interval(x, a, m, &c->before_lo, &c->before_hi);
        cp_interval(x, m, b, &c->after_lo, &c->after_hi);
        c->p = cp_welch_p(x, a, m, b);
        c->perm_p = cp_perm_applies(x, hw, a, m, b, par)
                        ? stats_cp_perm_p(x + a, b - a, min, par->perm, STATS_CP_PERM_SEED, par->work) : NAN;
        c->strong = c->p < par->alpha_strong;
    }
    return k;
}
