/*
 * tools/host/validate/validate_clock.c - the clock section (bench/clock/clock_section.c): the references,
 * their windows, the agreement table and the chosen rate.  chosen_khz and
 * agreement.max_measured_ppm are figures (bench/clock/figures_clock.c checks
 * that they are there and numbers); here they are checked against the
 * references they come from.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_clock.h"
#include "report_util.h"
#include "validate.h"

/* A measured reference: its window arrays line up, the window used is in
 * range, not rejected, and its kHz and ppm are the reference's. */
static void clock_check_ref(json_t *ref, const char *at, const char *file, int *problems, int quiet)
{
    static const char *const arrays[] = { "windows_ppm", "windows_ms", "windows_refined", "windows_rejected" };
    json_t *win = json_object_get(ref, "windows");
    char msg[256];
    size_t n;

    if (!json_is_array(win)) {
        if (!strcmp(doc_str(ref, "kind", "measured"), "measured"))
            rv_say(file, at, "a measured reference lists no windows", problems, quiet);
        return;
    }
    n = json_array_size(win);
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        json_t *a = json_object_get(ref, arrays[k]);
        if (a && (!json_is_array(a) || json_array_size(a) != n)) {
            snprintf(msg, sizeof msg, "%s does not have one entry per window (%zu)", arrays[k], n);
            rv_say(file, at, msg, problems, quiet);
        }
    }
    json_t *used = json_object_get(ref, "window_used");
    if (!json_is_integer(used))
        return;
    size_t u = (size_t)json_integer_value(used);
    if (u >= n) {
        snprintf(msg, sizeof msg, "window_used %zu is not one of the %zu windows", u, n);
        rv_say(file, at, msg, problems, quiet);
        return;
    }
    double wk = json_number_value(json_array_get(win, u)), k = doc_fig_num(ref, &figures_clock, FIG_CLOCK_REFERENCES_KHZ);
    if (!rv_same(wk, k)) {
        snprintf(msg, sizeof msg, "khz %.17g is not windows[window_used] (%.17g)", k, wk);
        rv_say(file, at, msg, problems, quiet);
    }
    json_t *wp = json_array_get(json_object_get(ref, "windows_ppm"), u);
    if (json_is_number(wp) && json_is_number(doc_fig(ref, &figures_clock, FIG_CLOCK_REFERENCES_PPM)) && json_number_value(wp) != doc_fig_num(ref, &figures_clock, FIG_CLOCK_REFERENCES_PPM)) {
        snprintf(msg, sizeof msg, "ppm %g is not windows_ppm[window_used] (%g)", doc_fig_num(ref, &figures_clock, FIG_CLOCK_REFERENCES_PPM),
                 json_number_value(wp));
        rv_say(file, at, msg, problems, quiet);
    }
    if (json_is_true(json_array_get(json_object_get(ref, "windows_rejected"), u)))
        rv_say(file, at, "the window used is marked rejected", problems, quiet);
}

static json_t *clock_ref_named(json_t *refs, const char *name)
{
    size_t i;
    json_t *r;
    json_array_foreach(refs, i, r)
        if (!strcmp(doc_str(r, "name", ""), name))
            return r;
    return NULL;
}

/* The agreement table is the references' kHz compared pair by pair. */
static void clock_check_agreement(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *ag = json_object_get(sec, "agreement"), *refs = json_object_get(sec, "references");
    json_t *pairs = json_object_get(ag, "pairs"), *p;
    double worst = 0, bound = doc_num(ag, "bound_ppm", NAN);
    char at[300], msg[256];
    size_t i;

    json_array_foreach(pairs, i, p) {
        json_t *a = clock_ref_named(refs, doc_str(p, "a", "")), *b = clock_ref_named(refs, doc_str(p, "b", ""));
        double ppm = doc_num(p, "ppm", NAN);  /* not a row: agreement.pairs[*].ppm, a pair's (agreement.*) */
        snprintf(at, sizeof at, "%s.agreement.pairs[%zu]", where, i);
        if (!a || !b) {
            rv_say(file, at, "names a reference that is not in references", problems, quiet);
            continue;
        }
        double exact = (doc_fig_num(a, &figures_clock, FIG_CLOCK_REFERENCES_KHZ) - doc_fig_num(b, &figures_clock, FIG_CLOCK_REFERENCES_KHZ)) / doc_fig_num(b, &figures_clock, FIG_CLOCK_REFERENCES_KHZ) * 1e6;
        if (!rv_ppm_close(ppm, exact)) {
            snprintf(msg, sizeof msg, "ppm %g is not (a - b) / b of their kHz (%.4f)", ppm, exact);
            rv_say(file, at, msg, problems, quiet);
        }
        if (json_is_true(json_object_get(p, "measured")) && fabs(ppm) > worst)
            worst = fabs(ppm);
    }
    if (!json_is_object(ag))
        return;
    snprintf(at, sizeof at, "%s.agreement", where);
    if (json_is_array(pairs) && doc_fig_num(sec, &figures_clock, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM) != worst) {
        snprintf(msg, sizeof msg, "max_measured_ppm %g is not the largest measured pair (%g)",
                 doc_fig_num(sec, &figures_clock, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM), worst);
        rv_say(file, at, msg, problems, quiet);
    }
    json_t *agree = json_object_get(ag, "agree");
    if (json_is_boolean(agree) && !isnan(bound) && json_is_true(agree) != (rv_fig_num(sec, &figures_clock, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM, 0) <= bound))
        rv_say(file, at, "agree does not follow from max_measured_ppm and bound_ppm", problems, quiet);
}

/* The PIT and the PM timer counted at the rates legacy_timer_rates names,
 * and those are the crystal's or QEMU's as its basis says. */
static void clock_check_rates(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    static const struct { const char *ref, *key; double crystal, emulated; } t[] = {
        { "pit", "pit_hz", 105e6 / 88, 1193182 }, { "pm_timer", "pm_timer_hz", 315e6 / 88, 3579545 },
    };
    json_t *lr = json_object_get(sec, "legacy_timer_rates");
    char at[160], msg[256];
    if (!json_is_object(lr))
        return;
    snprintf(at, sizeof at, "%s.legacy_timer_rates", where);
    const char *basis = doc_str(lr, "basis", "");
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        double hz = doc_num(lr, t[k].key, NAN);
        double want = !strcmp(basis, "crystal") ? t[k].crystal : !strcmp(basis, "emulated") ? t[k].emulated : NAN;
        if (!isnan(want) && !(fabs(hz - want) <= 1e-6)) {
            snprintf(msg, sizeof msg, "%s %.17g is not the %s rate %.3f Hz", t[k].key, hz, basis, want);
            rv_say(file, at, msg, problems, quiet);
        }
        json_t *ref = clock_ref_named(json_object_get(sec, "references"), t[k].ref);
        if (ref && json_is_number(json_object_get(ref, "counter_hz")) && doc_num(ref, "counter_hz", NAN) != hz) {
            snprintf(msg, sizeof msg, "the %s reference counted at %.17g Hz, not %s %.17g", t[k].ref,
                     doc_num(ref, "counter_hz", NAN), t[k].key, hz);
            rv_say(file, at, msg, problems, quiet);
        }
    }
}

static void clock_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *refs = json_object_get(sec, "references"), *r;
    const char *source = doc_str(sec, "source", NULL);
    char at[300], msg[256], nm[120];
    size_t i;

    json_array_foreach(refs, i, r) {
        snprintf(at, sizeof at, "%s.references[%zu] (%s)", where, i, rv_name(nm, sizeof nm, r, "name"));
        clock_check_ref(r, at, file, problems, quiet);
    }
    if (source) {
        json_t *s = clock_ref_named(refs, source);
        double chosen = doc_fig_num(sec, &figures_clock, FIG_CLOCK_CHOSEN_KHZ);
        if (!s)
            rv_say(file, where, "source names no entry of references", problems, quiet);
        else if (!rv_same(chosen, doc_fig_num(s, &figures_clock, FIG_CLOCK_REFERENCES_KHZ))) {
            snprintf(msg, sizeof msg, "chosen_khz %.17g is not the source's khz (%.17g)", chosen, doc_fig_num(s, &figures_clock, FIG_CLOCK_REFERENCES_KHZ));
            rv_say(file, where, msg, problems, quiet);
        }
    } else if (json_is_number(doc_fig(sec, &figures_clock, FIG_CLOCK_CHOSEN_KHZ))) {
        rv_say(file, where, "chosen_khz is given but no source", problems, quiet);
    }
    clock_check_agreement(sec, where, file, problems, quiet);
    clock_check_rates(sec, where, file, problems, quiet);
    snprintf(at, sizeof at, "%s.quiet", where);
    static const struct rv_quiet_rows rows = { &figures_clock, FIG_CLOCK_QUIET_GAPS_OVER_1US,
                                               FIG_CLOCK_QUIET_MAX_GAP_TICKS };
    rv_quiet_counts(sec, json_object_get(sec, "quiet"), &rows, at, file, problems, quiet);
}

const struct rv_section rv_section_clock = { "clock", 0, clock_check };
