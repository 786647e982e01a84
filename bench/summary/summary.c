/*
 * bench/summary/summary.c - the run's summary built from its results
 * document (see summary.h): the frame.  Portable: the image runs it on the
 * JSON it has just written, the host on a file.  Its own room, above the
 * results document: it reads the section table and the figure tables, and
 * calls each section's part through a table made from the rows of
 * bench/sections.def (their SUMMARY column), so no section's code is
 * written here; the rows of text are summary_text.c's.
 *
 * Where a figure comes from (docs/results-schema.md):
 *   verdict    "status" (0, 2, 3, or "interrupted"), "ended", "errors";
 *              interrupted during: "interrupted_in" when the run says,
 *              else the first section of settings.sections with no member
 *   machine    system.* (the hosted program: host.*), its numbers by
 *              their rows (figures_run.h, figures_host.h)
 *   headlines  each section's FIG_HEADLINE rows (figures_headline)
 *   the rest   each section's part, in the section's folder:
 *     clock      bench/clock/clock_summary.c (the TSC rate, references,
 *                the counter's step, the quiet check)
 *     targets    bench/methods/methods_summary.c (each target's net time
 *                per iteration and its 95% interval, the reported method)
 *     A/B        bench/compare/compare_summary.c (ratio, interval, p)
 *     BYTEmark   bench/bytemark/bytemark_summary.c (the original indexes)
 *     cores      bench/cores/cores_summary.c (TSC offsets, core to core)
 *     memory     bench/memory/memory_summary.c (latency per level, best
 *                read bandwidth)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "figures_text.h"
#include "figures_host.h"
#include "figures_run.h"
#include "run_profile.h"
#include "section.h"
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
    struct jval st = figures_get(doc, &figures_run, FIG_RUN_STATUS), e, errors = jval_get(doc, "errors");
    char word[32];
    size_t it = 0;
    jval_str(jval_get(doc, "name"), s->run, sizeof s->run);
    s->status = (int)jval_num(st, -1);
    jval_str(st, word, sizeof word);
    int interrupted = !strcmp(word, "interrupted") || jval_bool(jval_get(doc, "ended"), 1) == 0;
    s->warnings = (unsigned)jval_count(errors);
    s->duration_ms = jval_num(figures_get(doc, &figures_run, FIG_RUN_DURATION_MS), NAN);
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
    struct jval sys = jval_get(doc, figures_system.member);
    int host = jval_is_none(sys);
    if (host)
        sys = jval_get(doc, figures_host.member);
    sum_str(jval_get(sys, "cpu_brand"), s->cpu, sizeof s->cpu);
    sum_str(jval_get(sys, "firmware_vendor"), s->firmware, sizeof s->firmware);
    sum_str(jval_get(sys, "hypervisor"), s->hypervisor, sizeof s->hypervisor);
    sum_str(jval_get(sys, "hypervisor_hidden"), s->hypervisor_hidden, sizeof s->hypervisor_hidden);
    s->cpus = (unsigned)jval_num(host ? figures_get(sys, &figures_host, FIG_HOST_LOGICAL_CPUS)
                                      : figures_get(sys, &figures_system, FIG_SYSTEM_LOGICAL_CPUS), 0);
    /* the hosted program's "host" has no row of its own for it ("*") */
    s->memory_mib = jval_num(host ? jval_get(sys, "memory_mib") /* not a row: host.*, which no writer gives it yet */
                                  : figures_get(sys, &figures_system, FIG_SYSTEM_MEMORY_MIB), NAN);
    struct jval sb = jval_get(sys, "secure_boot");
    s->secure_boot = jval_is_none(sb) ? -1 : jval_bool(jval_get(sb, "enabled"), 0);  /* not a row: secure_boot.enabled, system.* */
    s->shim = jval_bool(jval_get(sb, "shim"), 0);
    s->image_signed = jval_bool(jval_get(sb, "image_signed"), 0);
    sum_str(jval_get(sb, "image_sha256"), s->image_sha256, sizeof s->image_sha256);
}

/* ---- the sections' parts ------------------------------------------------------------------ */

/* A row's part declared, unless its column says NULL (section.h). */
#define SECTION(name, label, run, flags, figures, summary, report) \
    SECTION_IF_NAMED(SECTION_NONE_##summary, summary_part_fn summary;)
#include "sections.def"
#undef SECTION

/* Each section's part, from its row of bench/sections.def (and of
 * BAREMARK_EXTRA_SECTIONS), so sum_part_table[k] is section_table[k]'s:
 * listed here, not in the section table, which the figure tables' reader
 * reads and the parts read the figure tables. */
static summary_part_fn *const sum_part_table[] = {
#define SECTION(name, label, run, flags, figures, summary, report) summary,
#include "sections.def"
#undef SECTION
};

/* Each section's part, in run order, with its member (none when the run
 * has none); then each A/B pair's words. */
static void sum_parts(struct summary *s, struct jval doc)
{
    for (unsigned k = 0; k < sizeof sum_part_table / sizeof sum_part_table[0] && k < section_count; k++) {
        const struct figure_table *t = section_table[k].figures;
        if (sum_part_table[k])
            sum_part_table[k](s, t && t->member ? jval_get(doc, t->member) : (struct jval){ 0 }, doc);
    }
    for (unsigned i = 0; i < s->n_ab; i++)
        summary_ab_text(&s->ab[i]);
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
    if (jval_type(doc) != JVAL_OBJECT || jval_type(figures_get(doc, &figures_run, FIG_RUN_SCHEMA)) != JVAL_NUMBER) {
        summary_rows_unreadable(s);
        return -1;
    }
    sum_run(s, doc);
    sum_machine(s, doc);
    sum_parts(s, doc);
    sum_sections(s, doc);
    summary_rows(s);
    return 0;
}
