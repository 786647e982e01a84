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

/* ---- small helpers ---------------------------------------------------------- */

static void sum_str(struct jval v, char *out, size_t cap)
{
    if (!jval_str(v, out, cap) && jval_type(v) == JVAL_NUMBER)
        snprintf(out, cap, "%g", jval_num(v, 0));
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
    summary_targets(s, doc);
    summary_comparisons(s, doc);
    sum_bytemark(s, doc);
    sum_cores(s, doc);
    sum_memory(s, doc);
    sum_sections(s, doc);
    summary_rows(s);
    return 0;
}
