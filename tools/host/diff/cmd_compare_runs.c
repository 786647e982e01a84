/*
 * tools/host/diff/cmd_compare_runs.c - `baremark diff [--json|--html]
 * [--noise F] A.json B.json`: two runs side by side (two machines, two
 * firmware settings, bare metal against the hosted Linux program).
 *
 * Per timing method (its overhead samples), per measured target (the
 * built-in targets and plug-in routines, PLUGIN:ROUTINE, of
 * methods.measurements: their net time per iteration) and per BYTEmark
 * kernel (its per-run scores), and per CPU and BYTEmark test of the cores
 * section (its per-run scores; then each test's all-core sum, a single
 * figure): both values, the ratio A/B, Welch's and
 * Mann-Whitney's two-sided p from the raw samples (stats/), and a verdict at
 * 95%: A is faster or slower only when Mann-Whitney's p is below 0.05 (the
 * p the text and HTML show; Welch's is in --json for reference), the
 * medians and the ranks move the same way and the medians differ by more
 * than the noise threshold (stats_compare_sorted_double).  Method overheads are compared in ns when
 * both runs carry a calibrated clock (tick rates differ between machines),
 * else in ticks.  Kernel scores are rates: larger is faster.
 *
 * A target's samples are its net times per iteration, (timing - placeholder
 * median) / iterations, the engine's own net samples (bench/methods/methods.h), taken
 * with one method for both runs: --method NAME, by default the SDM's
 * sequence (sdm-recommended), else the first method good in both runs.  A/B
 * comparisons present in both runs (the built-in ones and COMPARE= pairs)
 * are listed after the table with each run's verdict and the pair's figures
 * (doc_ab_ratio: the slower's time over the faster's, its interval and
 * Mann-Whitney's p, as the run wrote them or stats_ab on its samples).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare_runs.h"
#include "figures_bytemark.h"
#include "figures_clock.h"
#include "figures_compare.h"
#include "figures_cores.h"
#include "figures_methods.h"
#include "report_util.h"
#include "stats/stats.h"

/* Default noise threshold: 1% of the median, as `baremark compare`. */
#define CR_DEFAULT_NOISE 0.01

static double cr_khz(json_t *root)
{
    double k = doc_fig_num(json_object_get(root, "clock"), &figures_clock, FIG_CLOCK_CHOSEN_KHZ);
    if (isnan(k)) {   /* no clock section (the hosted program): the tick rate the suite used */
        k = doc_fig_num(json_object_get(root, "bytemark"), &figures_bytemark, FIG_BYTEMARK_TICK_HZ) / 1000;
        if (!(k > 0))   /* the methods section's tick_hz (0: not calibrated) */
            k = doc_fig_num(json_object_get(root, "methods"), &figures_methods, FIG_METHODS_TICK_HZ) / 1000;
    }
    return k > 0 ? k : NAN;
}

static double cr_mean(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : NAN;
}

/* p-values and verdict from raw samples; larger_is_faster for rates. */
static void cr_test(struct cr_item *it, const double *a, const double *b, double noise,
                    int larger_is_faster)
{
    double *sa, *sb;
    struct stats_summary xa, xb;
    struct stats_compare c;
    it->welch_p = it->mw_p = NAN;
    it->verdict = "no raw samples";
    if (it->na < 2 || it->nb < 2)
        return;
    sa = malloc(it->na * sizeof *sa);
    sb = malloc(it->nb * sizeof *sb);
    if (sa && sb && !stats_summary_double(a, it->na, sa, NULL, &xa) &&
        !stats_summary_double(b, it->nb, sb, NULL, &xb)) {
        stats_compare_sorted_double(sa, &xa, sb, &xb, noise, &c);
        it->welch_p = c.welch_p;
        it->mw_p = c.mw_p;
        if (c.verdict == STATS_NO_DIFFERENCE)
            it->verdict = "no difference";
        else if ((c.verdict == STATS_FASTER) != larger_is_faster)
            it->verdict = "A faster";
        else
            it->verdict = "A slower";
    }
    free(sa);
    free(sb);
}

/* The element of list named `name`, or NULL. */
static json_t *cr_find(json_t *list, const char *name)
{
    size_t i;
    json_t *el;
    json_array_foreach(list, i, el)
        if (json_is_object(el) && !strcmp(doc_name(el, ""), name))
            return el;
    return NULL;
}

static void cr_scale(double *x, size_t n, double f)
{
    for (size_t i = 0; i < n; i++)
        x[i] *= f;
}

static size_t cr_methods(struct cr_run *A, struct cr_run *B, double noise, struct cr_item *out, size_t cap)
{
    json_t *la = doc_fig_list(json_object_get(A->root, figures_methods.member), &figures_methods, FIG_METHODS_OVERHEAD_MEDIAN);
    json_t *lb = doc_fig_list(json_object_get(B->root, figures_methods.member), &figures_methods, FIG_METHODS_OVERHEAD_MEDIAN);
    int ns = !isnan(A->khz) && !isnan(B->khz);
    size_t i, n = 0;
    json_t *ea;
    json_array_foreach(la, i, ea) {
        const char *name = doc_name(ea, NULL);
        json_t *eb = name ? cr_find(lb, name) : NULL;
        double *a, *b;
        if (!eb || n == cap)
            continue;
        struct cr_item *it = &out[n++];
        it->kind = "method";
        it->name = name;
        it->na = doc_method_samples(ea, &a);
        it->nb = doc_method_samples(eb, &b);
        it->unit = ns ? "ns" : "ticks";
        if (ns) {   /* ns = ticks * 1e6 / kHz */
            cr_scale(a, it->na, 1e6 / A->khz);
            cr_scale(b, it->nb, 1e6 / B->khz);
        }
        it->a = it->na ? median_of(a, it->na) : NAN;
        it->b = it->nb ? median_of(b, it->nb) : NAN;
        it->ratio = it->a / it->b;
        cr_test(it, a, b, noise, 0);
        free(a);
        free(b);
    }
    return n;
}

/* The measurement of `target` with `method` in a run's measurements, if it
 * has net samples (any status that kept its timings: ok, too_short,
 * inconclusive). */
static json_t *cr_measurement(json_t *list, const char *target, const char *method)
{
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m) {
        if (!strcmp(doc_str(m, "target", ""), target) && !strcmp(doc_str(m, "method", ""), method)
            && json_array_size(json_object_get(m, "samples")) /* not a row: its raw samples */
            && json_is_number(json_object_get(m, "placeholder_median")))
            return m;
    }
    return NULL;
}

/* Net samples per iteration of one measurement, ticks (or ns with khz). */
static size_t cr_net_samples(json_t *m, double khz, double **out)
{
    size_t n = doc_numbers(json_object_get(m, "samples"), out);      /* not a row: its raw samples */
    double p = doc_num(m, "placeholder_median", NAN);
    double it = doc_num(m, "iterations", NAN);                     /* not a row: its N */
    if (isnan(p) || !(it > 0)) {
        free(*out);
        *out = NULL;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        (*out)[i] = ((*out)[i] - p) / it;
        if (!isnan(khz))
            (*out)[i] *= 1e6 / khz;
    }
    return n;
}

/* Every target measured in both runs (once each, in A's order). */
static size_t cr_targets(struct cr_run *A, struct cr_run *B, const char *want_method, double noise,
                         struct cr_item *out, size_t cap)
{
    json_t *la = json_object_get(json_object_get(A->root, "methods"), "measurements");
    json_t *lb = json_object_get(json_object_get(B->root, "methods"), "measurements");
    int ns = !isnan(A->khz) && !isnan(B->khz);
    size_t i, n = 0;
    json_t *ea;
    json_array_foreach(la, i, ea) {
        const char *target = doc_str(ea, "target", NULL), *method = NULL;
        int seen = 0;
        if (!target || n == cap)
            continue;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(out[k].name, target);
        if (seen)
            continue;
        /* the method: the one asked for, else the usual one, else the first good in both */
        const char *first = want_method ? want_method : CR_DEFAULT_TARGET_METHOD;
        if (cr_measurement(la, target, first) && cr_measurement(lb, target, first))
            method = first;
        size_t j;
        json_t *m;
        json_array_foreach(la, j, m) {
            const char *mm = doc_str(m, "method", "");
            if (method || want_method)
                break;
            if (!strcmp(doc_str(m, "target", ""), target) && cr_measurement(la, target, mm)
                && cr_measurement(lb, target, mm))
                method = mm;
        }
        int in_b = 0;
        json_array_foreach(lb, j, m)
            in_b |= !strcmp(doc_str(m, "target", ""), target);
        if (!in_b)
            continue;
        struct cr_item *it = &out[n++];
        it->kind = strchr(target, ':') ? "routine" : "target";
        it->name = target;
        it->unit = ns ? "ns/iteration" : "ticks/iteration";
        it->method = method;
        if (!method) {
            snprintf(it->label, sizeof it->label, "%s", target);
            it->a = it->b = it->ratio = it->welch_p = it->mw_p = NAN;
            it->verdict = want_method ? "method not good in both" : "no method good in both";
            continue;
        }
        if (!strcmp(method, CR_DEFAULT_TARGET_METHOD) || want_method)
            snprintf(it->label, sizeof it->label, "%s", target);
        else
            snprintf(it->label, sizeof it->label, "%s [%s]", target, method);
        double *a = NULL, *b = NULL;
        it->na = cr_net_samples(cr_measurement(la, target, method), ns ? A->khz : NAN, &a);
        it->nb = cr_net_samples(cr_measurement(lb, target, method), ns ? B->khz : NAN, &b);
        it->a = it->na ? median_of(a, it->na) : NAN;
        it->b = it->nb ? median_of(b, it->nb) : NAN;
        it->ratio = it->a / it->b;
        cr_test(it, a, b, noise, 0);
        free(a);
        free(b);
    }
    return n;
}

/* A BYTEmark test in both runs (a kernel of the suite, or one on a CPU):
 * its unit, the means of its runs' scores (fa, fb where a run kept no
 * scores), the ratio and the tests; a test that did not run says why
 * instead of "no raw samples". */
static void cr_scored(struct cr_item *it, json_t *ea, json_t *eb, double noise, double fa, double fb)
{
    double *a, *b;
    it->unit = doc_str(ea, "unit", "score");
    it->na = doc_run_scores(ea, &a);
    it->nb = doc_run_scores(eb, &b);
    it->a = it->na ? cr_mean(a, it->na) : fa;
    it->b = it->nb ? cr_mean(b, it->nb) : fb;
    it->ratio = it->a / it->b;
    cr_test(it, a, b, noise, 1);
    if (strcmp(doc_str(ea, "status", "ok"), "ok"))      /* not a row: a test's status */
        it->verdict = "not run in A";
    else if (strcmp(doc_str(eb, "status", "ok"), "ok")) /* not a row: as above */
        it->verdict = "not run in B";
    free(a);
    free(b);
}

static size_t cr_kernels(struct cr_run *A, struct cr_run *B, double noise, struct cr_item *out, size_t cap)
{
    json_t *la = doc_fig_list(json_object_get(A->root, figures_bytemark.member), &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN);
    json_t *lb = doc_fig_list(json_object_get(B->root, figures_bytemark.member), &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN);
    size_t i, n = 0;
    json_t *ea;
    json_array_foreach(la, i, ea) {
        const char *name = doc_name(ea, NULL);
        json_t *eb = name ? cr_find(lb, name) : NULL;
        if (!eb || n == cap || !strcmp(name, "?"))   /* "?": not built into that program */
            continue;
        struct cr_item *it = &out[n++];
        it->kind = "kernel";
        it->name = name;
        cr_scored(it, ea, eb, noise, doc_fig_num(ea, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN),
                  doc_fig_num(eb, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN));
    }
    return n;
}

/* ---- the cores section: each CPU's scores, then all CPUs at once ----------------- */

/* The per_core entry of CPU `cpu`, or NULL. */
static json_t *cr_core(json_t *cores, double cpu)
{
    json_t *p;
    size_t i;
    json_array_foreach(json_object_get(json_object_get(cores, "scores"), "per_core"), i, p)
        if (doc_num(p, "cpu", -1) == cpu)
            return p;
    return NULL;
}

static json_t *cr_key(json_t *list, const char *key)
{
    json_t *t;
    size_t i;
    json_array_foreach(list, i, t)
        if (!strcmp(doc_str(t, "key", ""), key))
            return t;
    return NULL;
}

/* Every (CPU, test) both runs measured, side by side, with the same tests as
 * the suite's kernels; then each test's all-core sum (no samples: no test). */
static size_t cr_cores(struct cr_run *A, struct cr_run *B, double noise, struct cr_item *out, size_t cap)
{
    json_t *ca = json_object_get(A->root, "cores"), *cb = json_object_get(B->root, "cores");
    json_t *pa, *ta;
    size_t i, k, n = 0;
    json_array_foreach(json_object_get(json_object_get(ca, "scores"), "per_core"), i, pa) {
        json_t *pb = cr_core(cb, doc_num(pa, "cpu", -1));
        if (!pb)
            continue;
        json_array_foreach(json_object_get(pa, "tests"), k, ta) {
            json_t *tb = cr_key(json_object_get(pb, "tests"), doc_str(ta, "key", ""));
            if (!tb || n == cap)
                continue;
            struct cr_item *it = &out[n++];
            it->kind = "core";
            snprintf(it->label, sizeof it->label, "CPU %.0f %s", doc_num(pa, "cpu", -1), doc_str(ta, "key", "?"));
            it->name = it->label;
            cr_scored(it, ta, tb, noise, NAN, NAN);
        }
    }
    json_array_foreach(json_object_get(json_object_get(ca, "scores"), "all_cores"), i, ta) {
        json_t *tb = cr_key(json_object_get(json_object_get(cb, "scores"), "all_cores"), doc_str(ta, "key", ""));
        if (!tb || n == cap)
            continue;
        struct cr_item *it = &out[n++];
        it->kind = "cores";
        snprintf(it->label, sizeof it->label, "all %.0f/%.0f CPUs %s (sum)", doc_num(ta, "cpus", NAN),
                 doc_num(tb, "cpus", NAN), doc_str(ta, "key", "?"));
        it->name = it->label;
        it->unit = "sum of means";
        it->a = doc_fig_num(ta, &figures_cores, FIG_CORES_ALL_CORES_SUM);
        it->b = doc_fig_num(tb, &figures_cores, FIG_CORES_ALL_CORES_SUM);
        it->ratio = it->a / it->b;
        it->welch_p = it->mw_p = NAN;
        it->verdict = "a sum: no samples to test";
    }
    return n;
}

/* ---- A/B comparisons present in both runs ------------------------------------- */

static size_t cr_pairs(struct cr_run *A, struct cr_run *B, struct cr_pair *out, size_t cap)
{
    json_t *la = doc_fig_list(json_object_get(A->root, figures_compare.member), &figures_compare, FIG_COMPARE_REL_MEDIAN);
    json_t *lb = doc_fig_list(json_object_get(B->root, figures_compare.member), &figures_compare, FIG_COMPARE_REL_MEDIAN);
    size_t i, n = 0;
    json_t *ea;
    json_array_foreach(la, i, ea) {
        const char *name = doc_name(ea, NULL);
        json_t *eb = name ? cr_find(lb, name) : NULL;
        if (eb && n < cap)
            out[n++] = (struct cr_pair){ name, ea, eb };
    }
    return n;
}

/* Items at most: nine methods, the targets (built-in and every plug-in
 * routine: up to 256) and ten kernels. */
#define CR_MAX_ITEMS 512
#define CR_MAX_PAIRS 64

enum { CR_OPT_JSON = 1, CR_OPT_HTML, CR_OPT_NOISE, CR_OPT_METHOD };
static const struct cli_opt cr_opts[] = {
    { CR_OPT_JSON, "--json", NULL, "the comparison as JSON" },
    { CR_OPT_HTML, "--html", NULL, "the comparison as an HTML page" },
    { CR_OPT_NOISE, "--noise", "F", "a difference below this fraction is \"same\" (default 0.01)" },
    { CR_OPT_METHOD, "--method", "NAME", "compare the routines' times by this timing method" },
    { 0 },
};
const struct cli_cmd cli_cmd_diff = {
    "diff", "[--json|--html] [--noise F] [--method NAME] A.json B.json",
    "two runs side by side, figure by figure", cr_opts,
    "exit status: 0 compared, 2 usage or a file that is not a results document\n",
};

int cmd_compare_runs(int argc, char **argv)
{
    enum cr_format fmt = CR_TEXT;
    double noise = CR_DEFAULT_NOISE;
    const char *files[2] = { NULL, NULL };
    int nfiles = 0;
    const char *method = NULL;
    const struct cli_cmd *c = &cli_cmd_diff;
    struct cli_iter it = { c, argc, argv, 1, NULL, NULL, 0 };
    char what[300];

    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == CR_OPT_JSON || id == CR_OPT_HTML) {
            enum cr_format want = id == CR_OPT_JSON ? CR_JSON : CR_HTML;
            if (fmt != CR_TEXT && fmt != want)
                return cli_usage_error(c, "--json and --html contradict each other: give one");
            fmt = want;
        } else if (id == CR_OPT_NOISE) {
            char *end;
            noise = strtod(it.val, &end);
            if (*end || noise < 0 || noise >= 1) {
                snprintf(what, sizeof what, "--noise %s: want a fraction in [0, 1), e.g. 0.01", it.val);
                return cli_usage_error(c, what);
            }
        } else if (id == CR_OPT_METHOD)
            method = it.val;
        else if (id == CLI_ARG && nfiles < 2)
            files[nfiles++] = it.val;
        else if (id == CLI_ARG) {
            snprintf(what, sizeof what, "one file too many: %s (give two: A.json B.json)", it.val);
            return cli_usage_error(c, what);
        } else
            return 2;
    }
    if (nfiles != 2)
        return cli_usage_error(c, "give two results files: A.json B.json");
    for (int k = 0; k < 2; k++)
        if (doc_check_input("diff", files[k]))
            return 2;
    struct cr_run runs[2];
    char err[512];
    for (int k = 0; k < 2; k++) {
        runs[k].path = files[k];
        runs[k].root = doc_load(files[k], err, sizeof err);
        if (!runs[k].root) {
            fprintf(stderr, "baremark diff: %s\n", err);
            if (k)
                json_decref(runs[0].root);
            return 2;
        }
        runs[k].khz = cr_khz(runs[k].root);
    }
    struct cr_item *items = calloc(CR_MAX_ITEMS, sizeof *items);
    if (!items) {
        json_decref(runs[0].root);
        json_decref(runs[1].root);
        return 2;
    }
    struct cr_pair pairs[CR_MAX_PAIRS];
    size_t n = cr_methods(&runs[0], &runs[1], noise, items, CR_MAX_ITEMS);
    n += cr_targets(&runs[0], &runs[1], method, noise, items + n, CR_MAX_ITEMS - n);
    n += cr_kernels(&runs[0], &runs[1], noise, items + n, CR_MAX_ITEMS - n);
    n += cr_cores(&runs[0], &runs[1], noise, items + n, CR_MAX_ITEMS - n);
    size_t np = cr_pairs(&runs[0], &runs[1], pairs, CR_MAX_PAIRS);
    if (fmt == CR_JSON)
        cr_json(&runs[0], &runs[1], items, n, noise, pairs, np);
    else if (fmt == CR_HTML)
        cr_html(&runs[0], &runs[1], items, n, noise, pairs, np);
    else
        cr_text(&runs[0], &runs[1], items, n, noise, method, pairs, np);
    free(items);
    json_decref(runs[0].root);
    json_decref(runs[1].root);
    return 0;
}
