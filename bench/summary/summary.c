/*
 * bench/summary/summary.c - the run's summary built from its results document (see
 * summary.h); the rows of text are summary_text.c's.  Portable: the image
 * runs it on the JSON it has just written, the host on a file.  Its own
 * room, above the sections: it reads their figure tables (clock, BYTEmark)
 * and the settings' test keys, and no section reads it.
 *
 * Where a figure comes from (docs/results-schema.md):
 *   verdict    "status" (0, 2, 3, or "interrupted"), "ended", "errors";
 *              interrupted during: "interrupted_in" when the run says,
 *              else the first section of settings.sections with no member
 *   machine    system.* (the hosted program: host.*)
 *   clock      clock.chosen_khz, .source, that reference's ppm, the
 *              agreement of the measured references, the counter's step
 *              (clock.counter_step.ticks and .ns)
 *   quiet      clock.quiet (largest gap, gaps over 1 us), quiet_check_phase
 *   targets    methods.measurements: per target and method the net time
 *              per iteration, median of (timing - placeholder median) / N
 *              over the raw samples, with the 95% interval of that median
 *              from order statistics (ranks n/2 -+ 0.98 sqrt(n), the normal
 *              approximation of the binomial) widened to the counter's
 *              resolution (counter_step_ticks / N), never below 0; too
 *              short or below that resolution: unresolved; the reported
 *              method is the comparisons' (the vendor-recommended one by
 *              default)
 *   A/B        comparisons.comparisons[].ratio: the slower's time over the
 *              faster's, its 95% interval and Mann-Whitney's p, as the
 *              run computed them once (stats_ab on a.samples and
 *              b.samples as stored, already net of the overhead loop);
 *              an older file without "ratio": stats_ab on those samples
 *   BYTEmark   bytemark.indexes (original), profile, every kernel certain
 *   cores      cores.tsc.cpus[].offset_ns, cores.latency.median_ns
 *   memory     memory.latency[] by the level it fits in, best read bandwidth
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark_report.h"
#include "clock/figures_clock.h"
#include "config.h"
#include "figures.h"
#include "platform.h"
#include "run_profile.h"
#include "section.h"
#include "stats.h"
#include "summary.h"
#include "summary_internal.h"

/* z for a two-sided 95% interval. */
#define SUMMARY_Z95 1.959963984540054

/* ---- small helpers ---------------------------------------------------------- */

static void sum_str(struct jval v, char *out, size_t cap)
{
    if (!jval_str(v, out, cap) && jval_type(v) == JVAL_NUMBER)
        snprintf(out, cap, "%g", jval_num(v, 0));
}

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

/* ---- the run ------------------------------------------------------------------- */

/* The section the run was in when it stopped: the run's own word for it,
 * else the first enabled section that wrote nothing. */
static void sum_interrupted_in(struct summary *s, struct jval doc)
{
    static const char *const own[] = { "stage", "interrupted_in", "last_section", "section" };
    struct jval v, name;
    size_t it = 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (jval_str(jval_get(doc, own[i]), s->interrupted_in, sizeof s->interrupted_in) && s->interrupted_in[0])
            return;
    v = jval_path(doc, "settings.sections");
    while (jval_next(v, &it, NULL, &name)) {
        char sec[SUMMARY_NAME_MAX];
        const struct figure_table *t = NULL;
        jval_str(name, sec, sizeof sec);
        for (unsigned k = 0; k < section_count; k++)
            if (!strcmp(section_table[k].name, sec))
                t = section_table[k].figures;
        if (t && t->member && jval_is_none(jval_get(doc, t->member))) {
            snprintf(s->interrupted_in, sizeof s->interrupted_in, "%s", sec);
            return;
        }
    }
}

static void sum_run(struct summary *s, struct jval doc)
{
    struct jval st = jval_get(doc, "status"), e, errors = jval_get(doc, "errors");
    char word[32];
    size_t it = 0;
    jval_str(jval_get(doc, "name"), s->run, sizeof s->run);
    s->status = (int)jval_num(st, -1);
    jval_str(st, word, sizeof word);
    int interrupted = !strcmp(word, "interrupted") || jval_bool(jval_get(doc, "ended"), 1) == 0;
    s->warnings = (unsigned)jval_count(errors);
    s->duration_ms = jval_num(jval_get(doc, "duration_ms"), NAN);
    while (jval_next(errors, &it, NULL, &e) && s->n_reasons < SUMMARY_REASONS_MAX)
        jval_str(e, s->reasons[s->n_reasons++], SUMMARY_TEXT_MAX);
    if (interrupted) {
        s->verdict = SUMMARY_INTERRUPTED;
        s->status = -1;
        sum_interrupted_in(s, doc);
    } else if (s->status == 3) {
        s->verdict = SUMMARY_FAILED;
    } else if (s->status == 0) {
        s->verdict = SUMMARY_COMPLETED;
    } else {
        s->verdict = SUMMARY_WARNINGS;
    }
    /* the profile the run used (run_profile.h: older files mapped there) */
    run_profile_read_jr(doc, s->profile, sizeof s->profile);
    if (!jval_str(jval_path(doc, "methods.platform"), s->platform, sizeof s->platform))
        jval_str(jval_path(doc, "bytemark.platform"), s->platform, sizeof s->platform);
    s->saved = 1;
    for (unsigned i = 0; i < s->n_reasons; i++)
        if (strstr(s->reasons[i], "not saved"))
            s->saved = 0;
    if (s->run[0]) {
        snprintf(s->log_file, sizeof s->log_file, "%.40s.log", s->run);
        snprintf(s->json_file, sizeof s->json_file, "%.40s.json", s->run);
    }
}

static void sum_machine(struct summary *s, struct jval doc)
{
    struct jval sys = jval_get(doc, "system");
    if (jval_is_none(sys))
        sys = jval_get(doc, "host");
    sum_str(jval_get(sys, "cpu_brand"), s->cpu, sizeof s->cpu);
    sum_str(jval_get(sys, "firmware_vendor"), s->firmware, sizeof s->firmware);
    sum_str(jval_get(sys, "hypervisor"), s->hypervisor, sizeof s->hypervisor);
    s->cpus = (unsigned)jval_num(jval_get(sys, "logical_cpus"), 0);
    s->memory_mib = jval_num(jval_get(sys, "memory_mib"), NAN);
    struct jval sb = jval_get(sys, "secure_boot");
    s->secure_boot = jval_is_none(sb) ? -1 : jval_bool(jval_get(sb, "enabled"), 0);
    s->shim = jval_bool(jval_get(sb, "shim"), 0);
    s->image_signed = jval_bool(jval_get(sb, "image_signed"), 0);
    sum_str(jval_get(sb, "image_sha256"), s->image_sha256, sizeof s->image_sha256);
}

/* ---- clock and quiet ------------------------------------------------------------------ */

static void sum_clock(struct summary *s, struct jval doc)
{
    struct jval c = jval_get(doc, "clock"), r;
    size_t it = 0;
    const struct figure_table *t = &figures_clock;
    s->tsc_mhz = jval_num(figures_get(c, t, CLOCK_CHOSEN_KHZ), NAN) / 1000;
    jval_str(jval_get(c, "source"), s->tsc_source, sizeof s->tsc_source);
    while (jval_next(jval_get(c, "references"), &it, NULL, &r)) {
        if (jval_str_eq(jval_get(r, "kind"), "measured") || jval_is_none(jval_get(r, "kind")))
            s->references++;
        if (s->tsc_source[0] && jval_str_eq(jval_get(r, "name"), s->tsc_source))
            s->tsc_ppm = jval_num(figures_get(r, t, CLOCK_REFERENCES_PPM), NAN);
    }
    s->agreement_ppm = jval_num(figures_get(c, t, CLOCK_AGREEMENT_MAX_MEASURED_PPM), NAN);
    s->step_ticks = jval_num(figures_get(c, t, CLOCK_COUNTER_STEP_TICKS), NAN);
    s->step_ns = jval_num(jval_path(c, "counter_step.ns"), NAN);
    struct jval q = jval_get(c, "quiet");
    double hz = jval_num(jval_get(q, "tick_hz"), NAN);
    s->quiet_ms = jval_num(jval_get(q, "ms"), NAN);
    s->gap_max_us = hz > 0 ? jval_num(figures_get(c, t, CLOCK_QUIET_MAX_GAP_TICKS), NAN) * 1e6 / hz : NAN;
    s->gaps_over_1us = jval_num(figures_get(c, t, CLOCK_QUIET_GAPS_OVER_1US), NAN);
    struct jval ph = jval_get(c, "quiet_check_phase");
    s->nmis = jval_num(jval_get(ph, "nmis"), NAN);
    s->smis = jval_num(jval_get(ph, "smis"), NAN);
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

static void sum_targets(struct summary *s, struct jval doc)
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

static void sum_comparisons(struct summary *s, struct jval doc)
{
    struct jval c;
    size_t it = 0;
    while (jval_next(jval_path(doc, "comparisons.comparisons"), &it, NULL, &c) && s->n_ab < SUMMARY_AB_MAX) {
        struct summary_ab *ab = &s->ab[s->n_ab++];
        sum_one_ab(ab, c);
        summary_ab_text(ab);
    }
}

/* ---- BYTEmark, cores, memory ---------------------------------------------------------------- */

/* An index is shown only when the document's tests[] shows every test of it
 * with status "ok" (bm_index_groups, the rule the run itself now follows).
 * An older image gave an index made from fewer tests under the same root,
 * and a document without tests[] does not show which ran: neither index can
 * be told from its tests, so it reads n/a rather than the number stored. */
static struct bm_index_groups sum_bytemark_groups(struct jval bm)
{
    int ran[BM_NTESTS] = { 0 };
    struct jval t;
    size_t it = 0;
    char key[32];
    while (jval_next(jval_get(bm, "tests"), &it, NULL, &t)) {
        if (!jval_str_eq(jval_get(t, "status"), "ok") || !jval_str(jval_get(t, "key"), key, sizeof key))
            continue;
        for (int i = 0; i < BM_NTESTS; i++)
            if (!strcmp(key, cfg_test_keys[i]))
                ran[i] = 1;
    }
    return bm_index_groups(ran);
}

static void sum_bytemark(struct summary *s, struct jval doc)
{
    struct jval bm = jval_get(doc, "bytemark"), t;
    struct bm_index_groups g = sum_bytemark_groups(bm);
    size_t it = 0;
    s->index_integer = g.orig_int ? jval_num(jval_path(bm, "indexes.original_integer"), NAN) : NAN;
    s->index_fp = g.fp ? jval_num(jval_path(bm, "indexes.original_fp"), NAN) : NAN;
    run_profile_read_jr(doc, s->bytemark_profile, sizeof s->bytemark_profile);     /* the run's */
    s->bytemark_ran = !jval_is_none(bm);
    s->bytemark_certain = s->bytemark_ran;
    while (jval_next(jval_get(bm, "tests"), &it, NULL, &t))
        if (jval_str_eq(jval_get(t, "status"), "ok") && !jval_bool(jval_get(t, "certain"), 0))
            s->bytemark_certain = 0;
}

static void sum_cores(struct summary *s, struct jval doc)
{
    struct jval c = jval_get(doc, "cores"), e, row, cell;
    size_t it = 0, ir = 0;
    s->cores_cpus = (unsigned)jval_count(jval_path(c, "tsc.cpus"));
    while (jval_next(jval_path(c, "tsc.cpus"), &it, NULL, &e)) {
        double o = fabs(jval_num(jval_get(e, "offset_ns"), NAN));
        if (!isnan(o) && !(o <= s->cores_offset_ns))
            s->cores_offset_ns = o;
    }
    while (jval_next(jval_path(c, "latency.median_ns"), &ir, NULL, &row)) {
        size_t ic = 0;
        while (jval_next(row, &ic, NULL, &cell)) {
            double v = jval_num(cell, NAN);
            if (!isnan(v) && !(v <= s->cores_c2c_ns))
                s->cores_c2c_ns = v;
        }
    }
}

/* Each level's latency: the middle one of the sizes that fit in it. */
static void sum_memory(struct summary *s, struct jval doc)
{
    struct jval lat = jval_path(doc, "memory.latency"), e;
    size_t it = 0;
    char fits[SUMMARY_NAME_MAX];
    unsigned first[SUMMARY_LEVELS_MAX], count[SUMMARY_LEVELS_MAX], i = 0;
    while (jval_next(lat, &it, NULL, &e)) {
        jval_str(jval_get(e, "fits"), fits, sizeof fits);
        if (!fits[0])
            snprintf(fits, sizeof fits, "memory");
        unsigned k = s->n_levels;
        if (!k || strcmp(s->levels[k - 1].name, fits)) {
            if (k >= SUMMARY_LEVELS_MAX)
                break;
            snprintf(s->levels[k].name, sizeof s->levels[k].name, "%s", fits);
            first[k] = i;
            count[k] = 0;
            s->n_levels++;
        }
        count[s->n_levels - 1]++;
        i++;
    }
    for (unsigned k = 0; k < s->n_levels; k++) {
        struct jval mid = jval_at(lat, first[k] + (count[k] - 1) / 2);
        s->levels[k].bytes = jval_num(jval_get(mid, "size_bytes"), NAN);
        s->levels[k].ns = jval_num(jval_get(mid, "ns_median"), NAN);
    }
    it = 0;
    while (jval_next(jval_path(doc, "memory.bandwidth"), &it, NULL, &e)) {
        double r = jval_num(jval_path(e, "read.best_bytes_per_s"), NAN) / 1e9;
        if (!isnan(r) && !(r <= s->read_gbps))
            s->read_gbps = r;
    }
}

/* ---- sections' headlines ---------------------------------------------------------------------- */

static void sum_sections(struct summary *s, struct jval doc)
{
    for (unsigned k = 0; k < section_count && s->n_sections < SUMMARY_SECTIONS_MAX; k++) {
        const struct figure_table *t = section_table[k].figures;
        if (!t || !t->member || jval_is_none(jval_get(doc, t->member)))
            continue;
        struct summary_section *sec = &s->sections[s->n_sections++];
        snprintf(sec->name, sizeof sec->name, "%s", t->member);
        figures_headline(doc, t, sec->headline, sizeof sec->headline);
    }
}

/* ---- the whole ------------------------------------------------------------------------------ */

static void sum_init(struct summary *s)
{
    memset(s, 0, sizeof *s);
    s->status = -1;
    s->saved = -1;
    s->secure_boot = -1;
    s->memory_mib = s->tsc_mhz = s->tsc_ppm = s->agreement_ppm = NAN;
    s->quiet_ms = s->gap_max_us = s->gaps_over_1us = s->nmis = s->smis = NAN;
    s->index_integer = s->index_fp = NAN;
    s->cores_offset_ns = s->cores_c2c_ns = s->read_gbps = NAN;
}

int summary_build(struct summary *s, const char *json, size_t len)
{
    struct jval doc = jval_doc(json, len);
    sum_init(s);
    if (jval_type(doc) != JVAL_OBJECT || jval_type(jval_get(doc, "schema")) != JVAL_NUMBER) {
        summary_rows_unreadable(s);
        return -1;
    }
    sum_run(s, doc);
    sum_machine(s, doc);
    sum_clock(s, doc);
    sum_targets(s, doc);
    sum_comparisons(s, doc);
    sum_bytemark(s, doc);
    sum_cores(s, doc);
    sum_memory(s, doc);
    sum_sections(s, doc);
    summary_rows(s);
    return 0;
}
