/*
 * bench/compare/compare.c - the comparisons section: the null experiments
 * and the user's pairs, their text and their results member; the A/B
 * timing itself is compare_ab.c's.  See compare.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "figures_compare.h"
#include "figures_text.h"
#include "json.h"
#include "methods.h"
#include "platform.h"
#include "plugins.h"
#include "quiet.h"
#include "section.h"
#include "stats.h"
#include "targets.h"

/* ---- the experiments --------------------------------------------------------------- */

struct compare_spec {
    const char *name, *a, *b;
    const char *kind;           /* what it shows */
    enum compare_order order;
    int expect;                 /* the verdict it must give, or COMPARE_EXPECT_NONE */
    const char *check;          /* what it is, JSON "check": "a/a control" (one routine, the order
                                 * drawn per trial), "order check", "placement check", "a/b" */
};

/* An experiment shown for what it finds (Karsh: an identical copy at
 * another address may well differ), not a control. */
#define COMPARE_EXPECT_NONE (-1)

/* Karsh's null experiments first.  The true A/A is Foo against itself -
 * one routine at one address - with the order of A and B drawn per trial:
 * the labels are then bookkeeping only, and its paired signed-rank p is
 * below 0.05 in 5% of runs at most.  Foo against itself in ABAB order also
 * carries any effect of going first (an order check); Foo against its copy
 * FooBar shows what code placement alone does (a placement check).  Then
 * an A/B with a known answer: 90 more dependent adds per call make B
 * slower, so A is faster. */
static const struct compare_spec compare_specs[] = {
    { "foo vs foo", "foo", "foo", "order check: the same routine, A always timed first (ABAB)", COMPARE_ALTERNATE,
      STATS_NO_DIFFERENCE, "order check" },
    { "foo vs foobar", "foo", "foobar", "placement check: an identical copy at another address (Karsh's Foo vs FooBar)",
      COMPARE_ALTERNATE, COMPARE_EXPECT_NONE, "placement check" },
    { "foo vs foo (random order)", "foo", "foo", "A/A: one routine at one address, the order drawn per trial",
      COMPARE_RANDOM, STATS_NO_DIFFERENCE, "a/a control" },
    { "add10 vs add100", "add10", "add100", "A/B: 90 more dependent adds in B", COMPARE_RANDOM, STATS_FASTER, "a/b" },
};

/* The null experiments' largest relative differences (the resolution). */
struct compare_null {
    double rel_mean, rel_mode;
    int n;
};

/* A target name in COMPARE (PLUGIN:ROUTINE at most). */
#define COMPARE_NAME_MAX 72

/* ---- text -------------------------------------------------------------------------------- */

static void compare_print_side(const char *label, const char *name, const struct stats_summary *s)
{
    out_printf("  %s %-8s %12.2f %10.2f %12.2f %5zu%s %12.2f %10.0f %10.0f\n", label, name, s->mean, s->sd_sample,
               s->mode.value, s->mode.count, s->mode.pure ? "p" : " ", s->median, s->min, s->max);
}

/* One scale for both, between Tukey's outer fences (Q1 - 3 IQR, Q3 + 3 IQR)
 * where the data reach them, so one interrupt does not squeeze the picture
 * into a bin; the whole range when the fences say nothing. */
static void compare_hist_range(const struct compare_result *r, double *lo, double *hi)
{
    double mn = fmin(r->sa.min, r->sb.min), mx = fmax(r->sa.max, r->sb.max);
    *lo = fmax(mn, fmin(r->sa.outliers.outer_lo, r->sb.outliers.outer_lo));
    *hi = fmin(mx, fmax(r->sa.outliers.outer_hi, r->sb.outliers.outer_hi));
    if (!(*hi > *lo)) {
        *lo = mn;
        *hi = mx;
    }
}

static void compare_print_hist(const struct compare_result *r, const char *na, const char *nb)
{
    size_t counts[COMPARE_HIST_BINS];
    char buf[COMPARE_HIST_BINS * (STATS_RENDER_MAX_COLS + 2) + 1];
    double lo, hi;
    compare_hist_range(r, &lo, &hi);
    for (int side = 0; side < 2; side++) {
        size_t left = stats_histogram_double(side ? r->b : r->a, r->accuracy, lo, hi, counts, COMPARE_HIST_BINS);
        stats_render_histogram(buf, sizeof buf, counts, COMPARE_HIST_BINS, lo, hi, 72);
        out_printf("  histogram of %s (%s), ticks, one scale for A and B", side ? "B" : "A", side ? nb : na);
        if (left)
            out_printf("; %zu outside [%.0f, %.0f] (Tukey's outer fences) not drawn", left, lo, hi);
        out_printf(":\n%s", buf);
    }
}

/* The pair's ratio line: the figures every output shows. */
static void compare_print_ratio(const struct compare_spec *sp, const struct stats_ab *ab)
{
    char est[32], ci[64];
    int b_fast = ab->faster == STATS_AB_B;
    const char *fast = b_fast ? sp->b : sp->a, *slow = b_fast ? sp->a : sp->b;
    if (isnan(ab->estimate)) {
        out_printf("  ratio: none (a sample at or below 0 after the overhead, or too many pairs)\n");
        return;
    }
    figures_format(ab->estimate, est, sizeof est);
    figures_format_interval(ab->lo, ab->hi, ci, sizeof ci);
    if (ab->faster == STATS_AB_NONE)
        out_printf("  ratio: neither side is faster by the ranks; B over A %s %s (95%%)\n", est, ci);
    else
        out_printf("  ratio: %s (%s) over %s (%s) %s %s (95%%, Hodges-Lehmann on the logs of the times)\n",
                   b_fast ? "A" : "B", slow, b_fast ? "B" : "A", fast, est, ci);
}

static void compare_print(const struct compare_spec *sp, const struct compare_plan *p,
                          const struct compare_result *r, int as_expected)
{
    const struct stats_compare *c = &r->c;
    out_printf("compare %s (%s): %s, %u trials x %u calls, order %s, overhead median %.1f ticks "
               "subtracted per trial\n", sp->name, sp->kind, methods_table[p->method].name,
               (unsigned)r->accuracy, (unsigned)r->precision, sp->order == COMPARE_RANDOM ? "random" : "ABAB",
               r->so.median);
    out_printf("  %s %-8s %12s %10s %12s %6s %12s %10s %10s\n", " ", "routine", "mean", "sd", "mode", "n",
               "median", "min", "max");
    compare_print_side("A", sp->a, &r->sa);
    compare_print_side("B", sp->b, &r->sb);
    out_printf("  A - B: means %.2f (%+.3f%%), modes %.2f (%+.3f%%), medians %.2f (%+.3f%%)\n",
               c->diff_mean, c->rel_mean * 100, c->diff_mode, c->rel_mode * 100, c->diff_median,
               c->rel_median * 100);
    out_printf("  for reference, not deciding: Karsh Z %.3f (p %.3g); Welch t %.3f, p %.3g\n", c->karsh_z,
               c->karsh_p, c->welch_t, c->welch_p);
    out_printf("  within the pooled outer fences [%.1f, %.1f] (A %llu, B %llu outside): A - B means %.2f, Welch p %.3g "
               "(for reference)\n", c->fence_lo, c->fence_hi, (unsigned long long)c->out_a,
               (unsigned long long)c->out_b, c->fenced_diff_mean, c->fenced_welch_p);
    out_printf("  paired (A - B in each trial): mean %+.2f +- %.2f, median %+.2f ticks; Wilcoxon signed-rank p %.3g "
               "(%s)\n", r->pd.mean_diff, r->pd.mean_half95, r->pd.median_diff, r->pd.p,
               r->pd.exact ? "exact" : "normal approximation");
    compare_print_ratio(sp, &r->ab);
    char pt[32];
    figures_format_p(r->ab.p, pt, sizeof pt);
    if (c->verdict == STATS_NO_DIFFERENCE)
        out_printf("  verdict: no difference between A and B");
    else
        out_printf("  verdict: A is %s than B", stats_verdict_name(c->verdict));
    out_printf(" (95%%: Mann-Whitney %s decides, noise %.0f%%)%s\n", pt, COMPARE_NOISE * 100,
               sp->expect == COMPARE_EXPECT_NONE ? "" : as_expected ? ", as expected" : " - NOT the expected verdict");
    compare_print_hist(r, sp->a, sp->b);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void compare_json_side(struct json_writer *w, const char *key, const char *name, const double *x,
                              size_t n, const struct stats_summary *s)
{
    json_obj_begin(w, key);
    json_str(w, "name", name);
    json_double(w, "mean", s->mean);
    json_double(w, "sd", s->sd_sample);
    json_double(w, "median", s->median);
    json_double(w, "mode", s->mode.value);
    json_u64(w, "mode_count", s->mode.count);
    json_bool(w, "mode_pure", s->mode.pure);
    json_double(w, "min", s->min);
    json_double(w, "max", s->max);
    json_arr_begin(w, "samples");
    for (size_t i = 0; i < n; i++)
        json_i64(w, NULL, (int64_t)x[i]);
    json_arr_end(w);
    json_obj_end(w);
}

/* The pair's figures every output shows (docs/statistics.md, "An A/B
 * comparison"): which side is faster, the slower's time over the
 * faster's with its 95% interval, and the p that decides. */
static void compare_json_ratio(struct json_writer *w, const struct stats_ab *ab)
{
    json_obj_begin(w, "ratio");
    json_str(w, "faster", stats_ab_side_name(ab->faster));
    json_fig_double(w, &figures_compare, FIG_COMPARE_RATIO_ESTIMATE, ab->estimate);
    json_fig_double(w, &figures_compare, FIG_COMPARE_RATIO_LO, ab->lo);
    json_fig_double(w, &figures_compare, FIG_COMPARE_RATIO_HI, ab->hi);
    json_fig_double(w, &figures_compare, FIG_COMPARE_RATIO_P, ab->p);
    json_str(w, "test", "mann-whitney");
    json_obj_end(w);
}

static void compare_json(struct json_writer *w, const struct compare_spec *sp, const struct compare_plan *p,
                         const struct compare_result *r, int as_expected)
{
    const struct stats_compare *c = &r->c;
    json_obj_begin(w, NULL);
    json_str(w, "name", sp->name);
    json_str(w, "kind", sp->kind);
    json_str(w, "method", methods_table[p->method].name);
    json_str(w, "order", sp->order == COMPARE_RANDOM ? "random" : "alternate");
    json_u64(w, "precision", r->precision);
    if (r->precision_why[0])
        json_str(w, "precision_why", r->precision_why);
    json_u64(w, "accuracy", r->accuracy);
    json_str(w, "unit", "ticks");
    json_str(w, "status", methods_status_name(r->status));
    if (r->why[0])
        json_str(w, "why", r->why);
    json_str(w, "expect", sp->expect == COMPARE_EXPECT_NONE ? "none" : stats_verdict_name(sp->expect));
    json_str(w, "check", sp->check);
    if (r->status == METHODS_OK) {
        compare_json_side(w, "a", sp->a, r->a, r->accuracy, &r->sa);
        compare_json_side(w, "b", sp->b, r->b, r->accuracy, &r->sb);
        json_obj_begin(w, "overhead");
        json_double(w, "median", r->so.median);
        json_double(w, "mean", r->so.mean);
        json_double(w, "sd", r->so.sd_sample);
        json_obj_end(w);
        json_arr_begin(w, "b_first");
        for (uint32_t i = 0; i < r->accuracy; i++)
            json_u64(w, NULL, r->b_first[i]);
        json_arr_end(w);
        json_double(w, "diff_mean", c->diff_mean);
        json_double(w, "rel_mean", c->rel_mean);
        json_double(w, "diff_mode", c->diff_mode);
        json_double(w, "rel_mode", c->rel_mode);
        json_double(w, "diff_median", c->diff_median);
        json_fig_double(w, &figures_compare, FIG_COMPARE_REL_MEDIAN, c->rel_median);
        json_double(w, "z", c->karsh_z);
        json_double(w, "z_p", c->karsh_p);
        json_double(w, "welch_t", c->welch_t);
        json_double(w, "welch_df", c->welch_df);
        json_double(w, "welch_p", c->welch_p);
        json_double(w, "mann_whitney_u", c->mw_u);
        json_double(w, "mann_whitney_z", c->mw_z);
        json_fig_double(w, &figures_compare, FIG_COMPARE_MANN_WHITNEY_P, c->mw_p);
        json_double(w, "fence_low", c->fence_lo);
        json_double(w, "fence_high", c->fence_hi);
        json_u64(w, "outside_a", c->out_a);
        json_u64(w, "outside_b", c->out_b);
        json_double(w, "fenced_diff_mean", c->fenced_diff_mean);
        json_double(w, "fenced_welch_p", c->fenced_welch_p);
        json_double(w, "noise", c->noise);
        methods_json_paired(w, "paired", &r->pd);
        compare_json_ratio(w, &r->ab);
        json_str(w, "verdict", stats_verdict_name(c->verdict));
        json_str(w, "verdict_p", "mann_whitney_p");
        json_bool(w, "as_expected", as_expected);
    }
    json_obj_end(w);
}

/* ---- the section -------------------------------------------------------------------------- */

void compare_plan_from_config(const struct bm_config *cfg, const struct run_env *env, struct compare_plan *p)
{
    memset(p, 0, sizeof *p);
    p->cpu = env->cpu;
    p->vm_hidden = env->vm_hidden;
    p->quick = env->profile == BM_PROFILE_QUICK;         /* settled once (run_env_decide) */
    p->method = METHOD_SDM;
    p->precision = COMPARE_PRECISION_AUTO;
    p->accuracy = p->quick ? COMPARE_ACCURACY_QUICK : COMPARE_ACCURACY_FULL;
    p->seed = COMPARE_SEED;
    p->interrupts_maskable = (env->caps & PLAT_CAP_IRQ_MASK) != 0;
    p->user_pairs = cfg->compare;
    p->user_order = cfg->compare_order == BM_ORDER_ABAB ? COMPARE_ALTERNATE : COMPARE_RANDOM;
}

/* One experiment: time, print, JSON; adds to the null experiments'
 * resolution when it is one.  Returns 1 when it failed or a control did not
 * give its verdict. */
static int compare_one(const struct compare_plan *p, const struct methods_cpu *cpu, const struct compare_spec *sp,
                       const struct target *ta, const struct target *tb, uint64_t seed, int null_experiment,
                       struct json_writer *w, struct quiet_phase_totals *qt, struct compare_null *nul)
{
    struct compare_result r;
    int bad = 0;
    plugins_timing_begin(ta);
    plugins_timing_begin(tb);
    quiet_phase_begin();
    compare_ab(p->method, cpu, ta->fn, ta->data, ta->name, tb->fn, tb->data, tb->name, NULL,
               p->precision, p->accuracy, sp->order, seed, &r);
    quiet_phase_end_add(qt);
    plugins_timing_end(tb);
    plugins_timing_end(ta);
    int ok = r.status == METHODS_OK;
    int as_expected = ok && (sp->expect == COMPARE_EXPECT_NONE || (int)r.c.verdict == sp->expect);
    if (!ok) {
        out_warn("compare %s: %s (%s); the comparison is missing", sp->name, methods_status_name(r.status),
                 r.why);
        if (r.status == METHODS_FAULT) {       /* a plug-in routine's line names its file */
            plugins_note_fault(ta, r.why);
            if (tb != ta)
                plugins_note_fault(tb, r.why);
        }
        bad = 1;
    } else {
        compare_print(sp, p, &r, as_expected);
        if (!as_expected) {
            out_warn("compare %s: the verdict is \"%s\", expected \"%s\": %s", sp->name,
                     stats_verdict_name(r.c.verdict), stats_verdict_name((enum stats_verdict)sp->expect),
                     sp->expect == STATS_NO_DIFFERENCE
                     ? "timings depend on order or position; A/B verdicts of this run are suspect"
                     : "the set-up cannot resolve a known difference");
            bad = 1;
        }
        if (null_experiment) {
            nul->rel_mean = fmax(nul->rel_mean, fabs(r.c.rel_mean));
            nul->rel_mode = fmax(nul->rel_mode, fabs(r.c.rel_mode));
            nul->n++;
        }
    }
    if (w)
        compare_json(w, sp, p, &r, as_expected);
    compare_result_free(&r);
    return bad;
}

/* A target of COMPARE: a plug-in routine ready to be timed, or a built-in
 * target; NULL with one warning naming the pair otherwise. */
static const struct target *compare_user_target(const char *name, const char *pair)
{
    struct plugins_routine *r = plugins_find(name);
    if (r && r->state == PLUGINS_READY)
        return &r->t;
    if (r)
        out_warn("COMPARE: %s is not timed (%s%s%s); %s is skipped", name, plugins_state_name(r->state),
                 r->why[0] ? ": " : "", r->why, pair);
    else if (!targets_find(name))
        out_warn("COMPARE: \"%s\" names no routine of a loaded plug-in and no built-in target; %s is skipped",
                 name, pair);
    return r ? NULL : targets_find(name);
}

/* COMPARE=A,B;...: for each pair Karsh's A/B, then the A/A control of A. */
static int compare_user(const struct compare_plan *p, const struct methods_cpu *cpu, struct json_writer *w,
                        struct quiet_phase_totals *qt, struct compare_null *nul, uint64_t seed)
{
    int bad = 0;
    for (const char *s = p->user_pairs; s && *s;) {
        const char *end = strchr(s, ';'), *comma;
        size_t n = end ? (size_t)(end - s) : strlen(s);
        char a[COMPARE_NAME_MAX], b[COMPARE_NAME_MAX], pair[2 * COMPARE_NAME_MAX + 8];
        char name_ab[2 * COMPARE_NAME_MAX + 8], name_aa[2 * COMPARE_NAME_MAX + 8];
        comma = memchr(s, ',', n);
        snprintf(a, sizeof a, "%.*s", comma ? (int)(comma - s) : 0, s);
        snprintf(b, sizeof b, "%.*s", comma ? (int)(n - (size_t)(comma - s) - 1) : 0, comma ? comma + 1 : s);
        s += n + (end != NULL);
        snprintf(pair, sizeof pair, "%s vs %s", a, b);
        const struct target *ta = compare_user_target(a, pair), *tb = ta ? compare_user_target(b, pair) : NULL;
        if (!ta || !tb) {
            bad = 1;
            continue;
        }
        snprintf(name_ab, sizeof name_ab, "%s vs %s", a, b);
        snprintf(name_aa, sizeof name_aa, "%s vs %s", a, a);
        struct compare_spec ab = { name_ab, a, b, p->user_order == COMPARE_RANDOM
                                   ? "A/B from COMPARE, the order drawn per trial as in its A/A control"
                                   : "A/B from COMPARE in ABAB order (COMPAREORDER=abab): A always timed first, "
                                   "which can favour one side", p->user_order, COMPARE_EXPECT_NONE, "a/b" };
        struct compare_spec aa = { name_aa, a, a, "A/A control of the COMPARE above: one routine at one address, "
                                   "the order drawn per trial", COMPARE_RANDOM, STATS_NO_DIFFERENCE, "a/a control" };
        bad |= compare_one(p, cpu, &ab, ta, tb, seed++, 0, w, qt, nul);
        bad |= compare_one(p, cpu, &aa, ta, ta, seed++, 1, w, qt, nul);
    }
    return bad;
}

int compare_section(const struct compare_plan *p, struct json_writer *w)
{
    struct methods_cpu cpu;
    struct compare_null nul = { 0, 0, 0 };
    int bad = 0;
    uint64_t hz = plat_tick_hz(), t0 = plat_ticks();
    struct quiet_phase_totals qt;   /* one phase per comparison */

    quiet_phase_totals_init(&qt);
    methods_cpu_probe(&cpu, p->cpu, p->vm_hidden);
    char prec[96];
    if (p->precision == COMPARE_PRECISION_AUTO)
        snprintf(prec, sizeof prec, "precision from %u calls per timing, doubled per pair until a timing spans %d "
                 "counter steps", COMPARE_PRECISION, COMPARE_SPAN_STEPS);
    else
        snprintf(prec, sizeof prec, "precision %u calls per timing", (unsigned)p->precision);
    out_printf("comparisons: Karsh's A/B with %s; %s, accuracy %u trials; "
               "profile %s\n", methods_table[p->method].name, prec, (unsigned)p->accuracy,
               p->quick ? "quick" : "full");
    if (!p->interrupts_maskable)
        out_printf("comparisons: interrupts cannot be masked here (%s): trials may include interrupts\n",
                   plat_name());
    if (w) {
        json_str(w, "method", methods_table[p->method].name);
        /* the calls per timing each pair started from (its own "precision" is what it timed with) */
        json_fig_u64(w, &figures_compare, FIG_COMPARE_PLAN_PRECISION,
                     p->precision == COMPARE_PRECISION_AUTO ? COMPARE_PRECISION : p->precision);
        json_bool(w, "precision_grown", p->precision == COMPARE_PRECISION_AUTO);
        json_fig_u64(w, &figures_compare, FIG_COMPARE_PLAN_ACCURACY, p->accuracy);
        json_fig_double(w, &figures_compare, FIG_COMPARE_PLAN_NOISE, COMPARE_NOISE);
        json_fig_u64(w, &figures_compare, FIG_COMPARE_PLAN_SEED, p->seed);
        json_fig_u64(w, &figures_compare, FIG_COMPARE_TICK_HZ, hz);
        json_bool(w, "interrupts_masked", p->interrupts_maskable);
        json_arr_begin(w, "comparisons");
    }
    for (size_t i = 0; i < sizeof compare_specs / sizeof compare_specs[0]; i++) {
        const struct compare_spec *sp = &compare_specs[i];
        bad |= compare_one(p, &cpu, sp, targets_find(sp->a), targets_find(sp->b), p->seed + i,
                           sp->expect == STATS_NO_DIFFERENCE || sp->expect == COMPARE_EXPECT_NONE, w, &qt, &nul);
    }
    bad |= compare_user(p, &cpu, w, &qt, &nul, p->seed + sizeof compare_specs / sizeof compare_specs[0]);
    if (nul.n)
        out_printf("comparisons: resolution implied by the null experiments: relative differences up to "
                   "%.3f%% (means), %.3f%% (modes)\n", nul.rel_mean * 100, nul.rel_mode * 100);
    if (w) {
        json_arr_end(w);
        json_obj_begin(w, "resolution");
        json_u64(w, "null_experiments", nul.n);
        json_double(w, "rel_mean", nul.n ? nul.rel_mean : NAN);
        json_double(w, "rel_mode", nul.n ? nul.rel_mode : NAN);
        json_obj_end(w);
    }
    quiet_phase_totals_print("comparisons", &qt);
    quiet_phase_totals_json(w, "quiet_phases", &qt);
    methods_print_elapsed("comparisons", plat_ticks() - t0, hz);
    return bad ? 2 : 0;
}

int compare_run(const struct section_ctx *ctx)
{
    struct compare_plan p;
    compare_plan_from_config(ctx->cfg, ctx->env, &p);
    struct json_writer *w = results_section_begin("comparisons", 0);
    int rc = compare_section(&p, w);
    results_section_end();
    return rc;
}
