/*
 * tools/host/validate/validate_methods.c - the methods section (bench/methods/methods.c): the methods,
 * the measurements and their estimators, the extended profile, Paoloni's
 * ensembles.  The figures' types and signs (the overheads, the net
 * medians, best_ns) are their rows' in bench/methods/figures_methods.c
 * (validate_figures.c); what is here checks them against each other and
 * against the raw samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_util.h"
#include "stats.h"
#include "validate.h"

/* A method's overhead summary agrees with its raw samples; supported
 * agrees with the status. */
static void methods_check_method(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    json_t *oh = json_object_get(m, "overhead");
    double mn, mx, mean;
    int sup = json_is_true(json_object_get(m, "supported"));
    const char *st = doc_str(m, "status", "");     /* not a row: a method's status, methods[*].* */
    if (sup == !strcmp(st, "unsupported"))
        rv_say(file, at, sup ? "supported but its status is \"unsupported\""
                             : "not supported but its status is not \"unsupported\"", problems, quiet);
    if (!sup && oh)
        rv_say(file, at, "not supported, yet it has an overhead (an unsupported method is never executed)",
               problems, quiet);
    size_t n = rv_arr_stats(doc_samples(oh), &mn, &mx, &mean);
    if (!oh || !n)
        return;
    rv_expect_close(doc_num(oh, "n", NAN), (double)n, "overhead.n", at, file, problems, quiet);
    rv_expect_close(doc_num(oh, "min", NAN), mn, "overhead.min", at, file, problems, quiet);
    rv_expect_close(doc_num(oh, "max", NAN), mx, "overhead.max", at, file, problems, quiet);
    rv_expect_close(doc_num(oh, "mean", NAN), mean, "overhead.mean", at, file, problems, quiet); /* not a row: overhead.mean, methods[*].* */
}

/* A measurement's minima and estimators agree with its samples and with
 * each other (methods.h: the three estimators). */
static void methods_check_measurement(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    json_t *pi = json_object_get(m, "per_iteration");
    double mn, mx, mean, pmn, n_it = doc_num(m, "iterations", NAN);   /* not a row: the measurement's N, measurements[*].* */
    size_t n = rv_arr_stats(doc_samples(m), &mn, &mx, &mean);
    size_t np = rv_arr_stats(json_object_get(m, "placeholder_samples"), &pmn, &mx, &mean);
    if (!strcmp(doc_str(m, "status", ""), "unsupported") && (n || pi))    /* not a row: the measurement's status */
        rv_say(file, at, "unsupported, yet it has timings (an unsupported method is never executed)", problems, quiet);
    /* The estimators are computed from these minima: a measurement with
     * per_iteration must state every one of them. */
    static const char *const minima[] = { "routine_min", "placeholder_min", "min_t2", "min_tn2", "min_t2n" };
    static const char *const est[] = { "minus_placeholder", "apple", "n_vs_2n" };
    if (json_is_object(pi)) {
        char pat[340];
        snprintf(pat, sizeof pat, "%s.per_iteration", at);
        for (size_t k = 0; k < sizeof minima / sizeof minima[0]; k++)
            rv_need_num(m, minima[k], "with per_iteration (its estimators are computed from it)", at, file, problems,
                        quiet);
        for (size_t k = 0; k < sizeof est / sizeof est[0]; k++)
            rv_need_num(pi, est[k], "(the minima it is computed from are finite)", pat, file, problems, quiet);
    }
    if (n) {
        rv_expect_close(doc_num(m, "samples_requested", NAN), (double)n, "samples_requested", at, file, problems,
                        quiet);
        rv_expect_close(doc_num(m, "routine_min", NAN), mn, "routine_min", at, file, problems, quiet);
        if (np)
            rv_expect_close(doc_num(m, "placeholder_min", NAN), pmn, "placeholder_min", at, file, problems, quiet);
    }
    if (!json_is_object(pi) || !(n_it > 0))
        return;
    double t = doc_num(m, "routine_min", NAN), p = doc_num(m, "placeholder_min", NAN);
    rv_expect_close(doc_num(pi, "minus_placeholder", NAN), (t - p) / n_it,
                    "per_iteration.minus_placeholder vs (routine_min - placeholder_min) / iterations", at, file,
                    problems, quiet);
    rv_expect_close(doc_num(pi, "apple", NAN), (doc_num(m, "min_tn2", NAN) - doc_num(m, "min_t2", NAN)) / n_it,
                    "per_iteration.apple vs (min_tn2 - min_t2) / iterations", at, file, problems, quiet);
    rv_expect_close(doc_num(pi, "n_vs_2n", NAN), (doc_num(m, "min_t2n", NAN) - t) / n_it,
                    "per_iteration.n_vs_2n vs (min_t2n - routine_min) / iterations", at, file, problems, quiet);
}

/* Median (type 7) of a JSON array of numbers; NaN when empty or not numbers. */
static double methods_arr_median(json_t *arr)
{
    size_t n = json_is_array(arr) ? json_array_size(arr) : 0, i;
    json_t *x;
    if (!n)
        return NAN;
    double *v = malloc(n * sizeof *v), med;
    if (!v)
        return NAN;
    json_array_foreach(arr, i, x)
        v[i] = json_number_value(x);
    stats_sort_double(v, n);
    med = stats_percentile_sorted_double(v, n, 50);
    free(v);
    return med;
}

/* The paired test follows from the untruncated first passes: d = routine -
 * placeholder per pair, Wilcoxon's signed rank (stats/paired.c). */
static void methods_check_paired(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    json_t *pd = json_object_get(m, "paired"), *rt = json_object_get(m, "samples_untruncated");
    json_t *rp = json_object_get(m, "placeholder_samples_untruncated");
    size_t n = json_is_array(rt) ? json_array_size(rt) : 0;
    if (!json_is_object(pd) || !n || !json_is_array(rp) || json_array_size(rp) != n)
        return;
    double *d = malloc(2 * n * sizeof *d), *work = malloc(STATS_SIGNED_RANK_WORK(n < STATS_SIGNED_RANK_EXACT_MAX
                                                                                  ? n : STATS_SIGNED_RANK_EXACT_MAX)
                                                          * sizeof *work);
    struct stats_paired s;
    if (d && work) {
        for (size_t i = 0; i < n; i++)
            d[i] = json_number_value(json_array_get(rt, i)) - json_number_value(json_array_get(rp, i));
        stats_signed_rank(d, n, d + n, work, STATS_SIGNED_RANK_WORK(n < STATS_SIGNED_RANK_EXACT_MAX ? n
                                                                    : STATS_SIGNED_RANK_EXACT_MAX), &s);
        rv_expect_close(doc_num(pd, "pairs", NAN), (double)n, "paired.pairs vs the first passes", at, file, problems,
                        quiet);
        rv_expect_close(doc_num(pd, "mean_diff", NAN), s.mean_diff, "paired.mean_diff vs the first passes", at, file,
                        problems, quiet);
        rv_expect_close(doc_num(pd, "median_diff", NAN), s.median_diff, "paired.median_diff vs the first passes", at,
                        file, problems, quiet);
        rv_expect_close(doc_num(pd, "p", NAN), s.p, "paired.p vs the signed-rank test of the first passes", at, file, /* not a row: paired.p */
                        problems, quiet);
    }
    free(d);
    free(work);
}

/* The measurement's fences (bench/methods/methods.h): each series' fence is its
 * first pass's median plus fence_above_median, no kept sample lies above
 * its series' fence, the untruncated first passes have one value per
 * sample and are the kept value wherever they lie at or below it; N is
 * the N asked for or a doubling of it; the mean estimator follows from the
 * samples; the status follows from Mann-Whitney's p and U. */
static void methods_check_fence(json_t *m, const char *at, const char *file, int *problems, int quiet)
{
    static const char *const pairs[2][3] = {
        { "samples", "samples_untruncated", "benchmark_fence" },
        { "placeholder_samples", "placeholder_samples_untruncated", "calibration_fence" } };
    double above = doc_num(m, "fence_above_median", NAN);
    char msg[300];
    for (int k = 0; k < 2; k++) {
        json_t *kept = json_object_get(m, pairs[k][0]), *raw = json_object_get(m, pairs[k][1]);
        size_t nk = json_is_array(kept) ? json_array_size(kept) : 0;
        double fence = doc_num(m, pairs[k][2], NAN), med = methods_arr_median(raw);
        if (!isnan(above) && !isnan(med) && !rv_same(fence, med + above)) {
            snprintf(msg, sizeof msg, "%s %g is not the first pass's median %g + fence_above_median %g", pairs[k][2],
                     fence, med, above);
            rv_say(file, at, msg, problems, quiet);
        }
        if (!isnan(fence))
            for (size_t i = 0; i < nk; i++)
                if (json_number_value(json_array_get(kept, i)) > fence) {
                    snprintf(msg, sizeof msg, "%s[%zu] = %g lies above the fence %g", pairs[k][0], i,
                             json_number_value(json_array_get(kept, i)), fence);
                    rv_say(file, at, msg, problems, quiet);
                    break;
                }
        if (!json_is_array(raw))
            continue;
        if (json_array_size(raw) != nk) {
            snprintf(msg, sizeof msg, "%s has %zu values, %s %zu", pairs[k][1], json_array_size(raw), pairs[k][0], nk);
            rv_say(file, at, msg, problems, quiet);
            continue;
        }
        for (size_t i = 0; i < nk && !isnan(fence); i++) {
            double r = json_number_value(json_array_get(raw, i)), v = json_number_value(json_array_get(kept, i));
            if (r <= fence && r != v) {
                snprintf(msg, sizeof msg, "%s[%zu] = %g is within the fence, yet %s[%zu] = %g (only a timing "
                         "above the fence is retaken)", pairs[k][1], i, r, pairs[k][0], i, v);
                rv_say(file, at, msg, problems, quiet);
                break;
            }
        }
    }
    methods_check_paired(m, at, file, problems, quiet);
    double req = doc_num(m, "iterations_requested", NAN), used = doc_num(m, "iterations", NAN); /* not a row: the measurement's N */
    if (!isnan(req) && !isnan(used) && req >= 1) {
        double ratio = used / req;
        int ok = ratio >= 1 && ratio == floor(ratio);
        for (double r = ratio; ok && r > 1; r /= 2)
            ok = fmod(r, 2) == 0;
        if (!ok) {
            snprintf(msg, sizeof msg, "iterations %g is neither iterations_requested %g nor a doubling of it", used, req);
            rv_say(file, at, msg, problems, quiet);
        }
    }
    json_t *pi = json_object_get(m, "per_iteration");
    double mx, mt, mp, mn;
    size_t nt = rv_arr_stats(doc_samples(m), &mn, &mx, &mt);
    size_t np = rv_arr_stats(json_object_get(m, "placeholder_samples"), &mn, &mx, &mp);
    if (json_is_object(pi) && json_object_get(pi, "mean_minus_mean") && nt && np && used > 0) {
        /* a difference of two means: the tolerance scales with the means, not with their difference */
        double got = doc_num(pi, "mean_minus_mean", NAN), want = (mt - mp) / used;
        if (!(fabs(got - want) <= 1e-6 * (fabs(mt) + fabs(mp)) / used)) {
            snprintf(msg, sizeof msg, "per_iteration.mean_minus_mean %.17g is not (mean of samples - mean of "
                     "placeholder_samples) / iterations = %.17g", got, want);
            rv_say(file, at, msg, problems, quiet);
        }
    }
    const char *st = doc_str(m, "status", "");     /* not a row: the measurement's status */
    double p = doc_num(m, "mann_whitney_p", NAN), u = doc_num(m, "mann_whitney_u", NAN); /* not a row: measurements[*].* */
    if (nt > 1 && nt == np && !isnan(p) && !isnan(u) && (!strcmp(st, "ok") || !strcmp(st, "too_short"))) {
        int told = p < 0.05 && u > (double)nt * (double)nt / 2;
        if (told != !strcmp(st, "ok")) {
            snprintf(msg, sizeof msg, "status %s does not follow from Mann-Whitney p %g and U %g of %zu^2 (told "
                     "apart when p < 0.05 and U > half)", st, p, u, nt);
            rv_say(file, at, msg, problems, quiet);
        }
    }
}

/* The extended profile's best and fastest mean are the smallest of the ok
 * measurements' estimators, ties to the smaller placeholder_min and then
 * the earlier method. */
static void methods_check_profile(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    static const struct { const char *est, *name, *value; } fig[] = {
        { "minus_placeholder", "best_method", "best_ticks" },
        { "mean_minus_mean", "fastest_mean_method", "fastest_mean_ticks" },
    };
    json_t *prof = json_object_get(sec, "extended_profile"), *m;
    char at[200], msg[300];
    if (!json_is_object(prof) || !json_object_get(prof, "best_estimator"))
        return;     /* an older file: another rule */
    snprintf(at, sizeof at, "%s.extended_profile", where);
    const char *routine = doc_str(prof, "routine", "");
    for (size_t k = 0; k < sizeof fig / sizeof fig[0]; k++) {
        const char *want = NULL;
        double best = NAN, best_p = NAN;
        size_t i, ok = 0;
        json_array_foreach(json_object_get(sec, "measurements"), i, m) {
            if (strcmp(doc_str(m, "target", ""), routine) || strcmp(doc_str(m, "status", ""), "ok")) /* not a row: as above */
                continue;
            double v = doc_num(json_object_get(m, "per_iteration"), fig[k].est, NAN), pm = doc_num(m, "placeholder_min", NAN);
            if (isnan(v))
                continue;
            ok++;
            if (!want || v < best || (v == best && pm < best_p)) {
                want = doc_str(m, "method", "?");
                best = v;
                best_p = pm;
            }
        }
        if (k == 0 && json_is_integer(json_object_get(prof, "methods_measured"))
            && (size_t)json_integer_value(json_object_get(prof, "methods_measured")) != ok) {
            snprintf(msg, sizeof msg, "methods_measured %lld, but %zu %s measurements are ok",
                     (long long)json_integer_value(json_object_get(prof, "methods_measured")), ok, routine);
            rv_say(file, at, msg, problems, quiet);
        }
        if (!want)
            continue;
        if (strcmp(doc_str(prof, fig[k].name, ""), want) || !rv_same(doc_num(prof, fig[k].value, NAN), best)) {
            snprintf(msg, sizeof msg, "%s %s (%g) is not the smallest %s with the tie rule: %s (%g)", fig[k].name,
                     doc_str(prof, fig[k].name, "?"), doc_num(prof, fig[k].value, NAN), fig[k].est, want, best);
            rv_say(file, at, msg, problems, quiet);
        }
    }
}

/* Count of values below x in a JSON array of probabilities; -1 when one is
 * not a probability (said). */
static long methods_count_below(json_t *ps, double x, const char *key, const char *at, const char *file,
                                int *problems, int quiet)
{
    size_t i;
    json_t *v;
    long c = 0;
    char msg[160];
    json_array_foreach(ps, i, v) {
        double p = json_number_value(v);
        if (!json_is_number(v) || !(p >= 0 && p <= 1)) {
            snprintf(msg, sizeof msg, "%s[%zu] is not a probability", key, i);
            rv_say(file, at, msg, problems, quiet);
            return -1;
        }
        c += p < x;
    }
    return c;
}

/* The A/A check's (null_check) or the placement check's counts, bounds and
 * findings follow from its p-values (bench/methods/methods_aa.c). */
static void methods_check_aa(json_t *sec, const char *key, const char *where, const char *file, int *problems,
                             int quiet)
{
    json_t *nc = json_object_get(sec, key), *ps, *mw;
    char at[200];
    if (!json_is_object(nc))
        return;
    snprintf(at, sizeof at, "%s.%s", where, key);
    ps = json_object_get(nc, "paired_p");
    mw = json_object_get(nc, "mann_whitney_p");    /* not a row: the check's list of p, null_check.* */
    if (!json_is_array(ps))     /* a run before the true A/A (issue 23.8): its counts were Mann-Whitney's */
        ps = mw;
    if (!json_is_array(ps) || !json_is_array(mw))
        return;
    uint32_t n = (uint32_t)json_array_size(ps);
    long b05 = methods_count_below(ps, 0.05, "paired_p", at, file, problems, quiet);
    long b5 = methods_count_below(ps, 0.5, "paired_p", at, file, problems, quiet);
    long mw05 = methods_count_below(mw, 0.05, "mann_whitney_p", at, file, problems, quiet);
    if (b05 < 0 || b5 < 0 || mw05 < 0)
        return;
    struct { const char *key; double want; } c[] = {
        { "measured", (double)n }, { "p_below_0_05", (double)b05 }, { "p_below_0_5", (double)b5 },
        { "bound_0_05", (double)stats_binom_quantile(n, 0.05, 0.999) },
        { "band_0_5_low", (double)stats_binom_quantile(n, 0.5, 0.0005) },
        { "band_0_5_high", (double)stats_binom_quantile(n, 0.5, 0.9995) },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        rv_expect_close(doc_num(nc, c[k].key, NAN), c[k].want, c[k].key, at, file, problems, quiet);
    if (json_object_get(nc, "mann_whitney_below_0_05"))
        rv_expect_close(doc_num(nc, "mann_whitney_below_0_05", NAN), (double)mw05, "mann_whitney_below_0_05", at, file,
                        problems, quiet);
    json_t *eff = json_object_get(nc, "effect_ticks");
    if ((eff && json_array_size(eff) != n) || json_array_size(mw) != n)
        rv_say(file, at, "effect_ticks, mann_whitney_p and paired_p differ in length", problems, quiet);
    if (doc_num(nc, "measured", NAN) > doc_num(nc, "measurements", NAN))
        rv_say(file, at, "more measured than measurements", problems, quiet);
    if (doc_num(nc, "told_apart", NAN) > (double)mw05)
        rv_say(file, at, "told_apart exceeds the Mann-Whitney p-values below 0.05", problems, quiet);
    int fp_ok = n > 0 && (double)b05 <= doc_num(nc, "bound_0_05", NAN);
    int even = n > 0 && (double)b5 >= doc_num(nc, "band_0_5_low", NAN) && (double)b5 <= doc_num(nc, "band_0_5_high", NAN);
    json_t *wb = json_object_get(nc, "false_positives_within_bound"), *se = json_object_get(nc, "spread_even");
    json_t *seen = json_object_get(nc, "placement_seen");
    if (json_is_boolean(wb) && json_is_true(wb) != fp_ok)
        rv_say(file, at, "false_positives_within_bound does not follow from p_below_0_05 and bound_0_05", problems,
               quiet);
    if (json_is_boolean(se) && json_is_true(se) != even)
        rv_say(file, at, "spread_even does not follow from p_below_0_5 and the band", problems, quiet);
    if (json_is_boolean(seen) && json_is_true(seen) == fp_ok)
        rv_say(file, at, "placement_seen does not follow from p_below_0_05 and bound_0_05", problems, quiet);
    json_t *same = json_object_get(nc, "same_address");
    if (same && json_is_true(same) != !strcmp(key, "null_check"))
        rv_say(file, at, "same_address: the A/A is one routine at one address, the placement check two", problems,
               quiet);
}

static void methods_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *list = json_object_get(sec, "methods"), *m;
    json_t *prof = json_object_get(sec, "extended_profile");
    char cpu_at[160];
    snprintf(cpu_at, sizeof cpu_at, "%s.cpu", where);
    rv_cpuid_text(json_object_get(sec, "cpu"), "vendor", cpu_at, file, problems, quiet);
    rv_cpuid_text(json_object_get(sec, "cpu"), "hypervisor_vendor", cpu_at, file, problems, quiet);
    rv_quiet_phases(sec, where,
                       (long)(json_array_size(list) + json_array_size(json_object_get(sec, "measurements"))
                              + json_array_size(json_object_get(sec, "paoloni"))
                              + (json_is_object(json_object_get(sec, "null_check")) ? 1 : 0)
                              + (json_is_object(json_object_get(sec, "placement_check")) ? 1 : 0)), file, problems, quiet);
    size_t i;
    char at[300], nm[120];
    int found = 0;
    json_array_foreach(list, i, m) {
        snprintf(at, sizeof at, "%s.methods[%zu] (%s)", where, i, rv_name(nm, sizeof nm, m, "name"));
        methods_check_method(m, at, file, problems, quiet);
        found |= prof && !strcmp(doc_str(m, "name", ""), doc_str(prof, "best_method", ""));
    }
    json_array_foreach(json_object_get(sec, "measurements"), i, m) {
        snprintf(at, sizeof at, "%s.measurements[%zu] (%s)", where, i, rv_name(nm, sizeof nm, m, "name"));
        methods_check_measurement(m, at, file, problems, quiet);
        methods_check_fence(m, at, file, problems, quiet);
    }
    methods_check_profile(sec, where, file, problems, quiet);
    methods_check_aa(sec, "null_check", where, file, problems, quiet);
    methods_check_aa(sec, "placement_check", where, file, problems, quiet);
    if (prof && doc_str(prof, "best_method", NULL) && !found)
        rv_say(file, "methods.extended_profile.best_method", "names no method of the methods list", problems, quiet);
    /* a plug-in routine's profile: its ok measurements are methods_measured */
    json_array_foreach(json_object_get(sec, "extended_profiles"), i, prof) {
        const char *rt = doc_str(prof, "routine", "");
        size_t k, ok = 0;
        json_array_foreach(json_object_get(sec, "measurements"), k, m)
            ok += !strcmp(doc_str(m, "target", ""), rt) && !strcmp(doc_str(m, "status", ""), "ok"); /* not a row: as above */
        if (doc_num(prof, "methods_measured", -1) != (double)ok) {
            snprintf(at, sizeof at, "%s.extended_profiles[%zu] (%s)", where, i, rt);
            rv_say(file, at, "methods_measured is not the number of its ok measurements", problems, quiet);
        }
    }
}

const struct rv_section rv_section_methods = { "methods", 0, methods_check };
