/*
 * bench/clock/clock_report.c - the clock section's output: its serial text and
 * its "clock" results member (docs/results-schema.md).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "clock_internal.h"
#include "clock_step.h"
#include "figures_clock.h"
#include "json.h"
#include "platform.h"

static void clock_print_ref(const struct clock_ref *r)
{
    if (!r->present || !r->valid) {
        out_printf("clock: %-8s %s\n", r->name, r->why);
        return;
    }
    if (!r->measured) {
        out_printf("clock: %-8s %.3f kHz stated (%s; +-%.3f ppm resolution)\n", r->name, r->khz,
                   r->stated_from, r->ppm);
        return;
    }
    const struct clockm_window *w = &r->win[r->best];
    size_t rejected = 0;
    for (size_t i = 0; i < r->nwin; i++)
        rejected += r->win[i].rejected != 0;
    out_printf("clock: %-8s %.3f kHz +-%.3f ppm (%s window of %.1f ms; %zu windows, windows_rejected %zu, "
               "windows_failed %llu; %.3f Hz counter, %u bits; read %llu ticks, %llu slow edges retried)\n",
               r->name, r->khz, r->ppm, r->refined[r->best] ? "refined" : "short", w->ms, r->nwin, rejected,
               (unsigned long long)r->windows_failed, r->c.hz, r->c.bits,
               (unsigned long long)r->c.read_min, (unsigned long long)r->c.slow_edges);
}

static void clock_print_agreement(const struct clock_state *s)
{
    double worst = 0;
    int pairs = 0;
    for (int i = 0; i < CLOCK_NREFS; i++) {
        for (int j = i + 1; j < CLOCK_NREFS; j++) {
            const struct clock_ref *a = &s->ref[i], *b = &s->ref[j];
            if (!a->valid || !b->valid)
                continue;
            double d = clockm_ppm(a->khz, b->khz);
            out_printf("clock: %s vs %s: %+.3f ppm\n", a->name, b->name, d);
            if (a->measured && b->measured) {
                if (fabs(d) > worst)
                    worst = fabs(d);
                if (fabs(d) > CLOCKM_AGREE_PPM)
                    out_warn("clock: %s calibration deviates from %s by %+.1f ppm (more than %.0f ppm)",
                             a->name, b->name, d, CLOCKM_AGREE_PPM);
            }
            pairs++;
        }
    }
    if (!pairs)
        out_printf("clock: agreement: fewer than two references, nothing to compare\n");
    else
        out_printf("clock: agreement: measured references within %.3f ppm of each other (bound %.0f ppm)\n",
                   worst, CLOCKM_AGREE_PPM);
}

/* One line: the step, or why it is not known (the methods then fall back
 * to the smallest gap their timings show). */
static void clock_print_step(const struct clock_state *s)
{
    char b[160];
    clock_step_describe(&s->step, s->chosen >= 0 ? (uint64_t)llround(s->chosen_khz * 1000) : 0, b, sizeof b);
    if (s->step.ticks)
        out_printf("clock: counter step %s (largest grid the increments of back-to-back reads fall on; "
                   "delays over %llu instructions)\n", b, (unsigned long long)s->step_range);
    else
        out_printf("clock: counter step %s: timings take the smallest gap they show instead\n", b);
}

void clock_print(const struct clock_state *s, double calib_ms)
{
    const struct quiet_phase_report *p = &s->phase;

    if (s->hpet_started)
        out_printf("clock: the HPET's main counter was halted: started for calibration, halted again after\n");
    if (p->timer_stopped)
        out_printf("clock: firmware timer stopped while calibrating (Timer Architectural Protocol; "
                   "period %llu x 100 ns restored after)\n", (unsigned long long)p->timer_period_100ns);
    else
        out_printf("clock: firmware timer not stopped (%s); interrupts masked in every window\n",
                   p->timer_note);
    out_printf("clock: PIT %.3f Hz, PM timer %.3f Hz (%s: %s)\n", s->rates.pit_hz, s->rates.pm_hz,
               s->rates.basis, s->rates.why);
    for (int i = 0; i < CLOCK_NREFS; i++)
        clock_print_ref(&s->ref[i]);
    clock_print_agreement(s);
    if (s->chosen >= 0)
        out_printf("clock: chosen %.3f kHz from %s (order of trust: hpet, pm_timer, pit, cpuid_15, cpuid_16)\n",
                   s->chosen_khz, s->ref[s->chosen].name);
    if (!isnan(calib_ms))
        out_printf("clock: calibration took %.1f ms (refined window %.1f ms)\n", calib_ms, s->refined_ms);
    clock_print_step(s);
    out_printf("clock: unmasked while calibrating: NMI (%llu seen), SMI (%s",
               (unsigned long long)p->nmis, p->smi_counted ? "" : "not counted: no SMI counter on this CPU");
    if (p->smi_counted)
        out_printf("%llu counted in MSR 0x34", (unsigned long long)p->smis);
    out_printf(")\n");
    if (p->aperf_mperf && p->mperf)
        out_printf("clock: APERF/MPERF during calibration %.4f (actual over nominal clock)\n",
                   (double)p->aperf / (double)p->mperf);
    else
        out_printf("clock: APERF/MPERF not available on this CPU\n");
}

static void clock_json_ref(struct json_writer *w, const struct clock_state *s, const struct clock_ref *r)
{
    json_obj_begin(w, NULL);
    json_str(w, "name", r->name);
    json_str(w, "kind", r->measured ? "measured" : "stated");
    json_fig_double(w, &figures_clock, FIG_CLOCK_REFERENCES_KHZ, r->khz);
    json_fig_double(w, &figures_clock, FIG_CLOCK_REFERENCES_PPM, clockm_round_ppm(r->ppm));
    if (!r->measured) {
        json_str(w, "stated_from", r->stated_from);
        json_obj_end(w);
        return;
    }
    json_double(w, "counter_hz", r->c.hz);
    json_u64(w, "counter_bits", r->c.bits);
    if (!strcmp(r->name, "hpet"))
        json_bool(w, "counter_started", s->hpet_started);
    json_arr_begin(w, "windows");
    for (size_t i = 0; i < r->nwin; i++)
        json_double(w, NULL, r->win[i].khz);
    json_arr_end(w);
    json_arr_begin(w, "windows_ppm");
    for (size_t i = 0; i < r->nwin; i++)
        json_double(w, NULL, clockm_round_ppm(r->win[i].ppm));
    json_arr_end(w);
    json_arr_begin(w, "windows_ms");
    for (size_t i = 0; i < r->nwin; i++)
        json_double(w, NULL, round(r->win[i].ms * 1e6) / 1e6);   /* to the ns */
    json_arr_end(w);
    json_arr_begin(w, "windows_refined");
    for (size_t i = 0; i < r->nwin; i++)
        json_bool(w, NULL, r->refined[i]);
    json_arr_end(w);
    json_arr_begin(w, "windows_rejected");
    for (size_t i = 0; i < r->nwin; i++)
        json_bool(w, NULL, r->win[i].rejected);
    json_arr_end(w);
    json_u64(w, "window_used", (uint64_t)r->best);
    json_u64(w, "windows_failed", r->windows_failed);
    json_u64(w, "read_ticks", r->c.read_min);
    json_u64(w, "slow_limit_ticks", r->c.slow_limit);
    json_u64(w, "slow_edges", r->c.slow_edges);
    json_obj_end(w);
}

static void clock_json_agreement(struct json_writer *w, const struct clock_state *s)
{
    double worst = 0;
    int measured = 0;
    for (int i = 0; i < CLOCK_NREFS; i++)
        measured += s->ref[i].valid && s->ref[i].measured;
    json_obj_begin(w, "agreement");
    json_u64(w, "measured_references", (uint64_t)measured);   /* under two: nothing to agree */
    json_double(w, "bound_ppm", CLOCKM_AGREE_PPM);
    json_arr_begin(w, "pairs");
    for (int i = 0; i < CLOCK_NREFS; i++)
        for (int j = i + 1; j < CLOCK_NREFS; j++) {
            const struct clock_ref *a = &s->ref[i], *b = &s->ref[j];
            if (!a->valid || !b->valid)
                continue;
            double d = clockm_ppm(a->khz, b->khz);
            if (a->measured && b->measured && fabs(d) > worst)
                worst = fabs(d);
            json_obj_begin(w, NULL);
            json_str(w, "a", a->name);
            json_str(w, "b", b->name);
            json_double(w, "ppm", clockm_round_ppm(d));
            json_bool(w, "measured", a->measured && b->measured);
            json_obj_end(w);
        }
    json_arr_end(w);
    json_fig_double(w, &figures_clock, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM, clockm_round_ppm(worst));
    json_bool(w, "agree", worst <= CLOCKM_AGREE_PPM);
    json_obj_end(w);
}

static void clock_json_phase(struct json_writer *w, const struct quiet_phase_report *p)
{
    json_obj_begin(w, "quiet_phase");
    json_bool(w, "timer_stopped", p->timer_stopped);
    json_u64(w, "timer_period_100ns", p->timer_period_100ns);
    if (!p->timer_stopped)
        json_str(w, "timer_note", p->timer_note);
    json_u64(w, "nmis", p->nmis);
    json_bool(w, "smi_counted", p->smi_counted);
    if (p->smi_counted)
        json_u64(w, "smis", p->smis);
    json_bool(w, "aperf_mperf", p->aperf_mperf);
    if (p->aperf_mperf) {
        json_u64(w, "aperf", p->aperf);
        json_u64(w, "mperf", p->mperf);
    }
    json_obj_end(w);
}

static void clock_json_step(struct json_writer *w, const struct clock_state *s)
{
    const struct clockm_step *st = &s->step;
    json_obj_begin(w, "counter_step");
    if (st->ticks) {
        json_fig_u64(w, &figures_clock, FIG_CLOCK_COUNTER_STEP_TICKS, st->ticks);
        if (s->chosen >= 0)
            json_double(w, "ns", round((double)st->ticks * 1e9 / (s->chosen_khz * 1000) * 1e4) / 1e4);
        else
            json_null(w, "ns");
        json_double(w, "grid_ticks", round(st->q * 1000) / 1000);
        json_double(w, "fit", round(st->fit * 1e4) / 1e4);
    } else {
        json_fig_null(w, &figures_clock, FIG_CLOCK_COUNTER_STEP_TICKS);
        json_null(w, "ns");
        json_str(w, "why", st->why);
    }
    json_bool(w, "measured", st->ticks != 0);
    json_u64(w, "reads", st->reads);
    json_u64(w, "zeros", st->zeros);
    json_u64(w, "dropped", st->dropped);
    json_u64(w, "min_ticks", st->min_ticks);
    json_u64(w, "max_ticks", st->max_ticks);
    json_u64(w, "delay_range", s->step_range);
    json_double(w, "fit_threshold", CLOCKM_STEP_FIT);
    json_str(w, "method", CLOCK_STEP_METHOD);
    json_arr_begin(w, "increments");     /* as taken: the step can be recomputed from them */
    for (size_t i = 0; st->reads + st->zeros + st->dropped && i < CLOCK_STEP_READS; i++)
        json_u64(w, NULL, s->step_raw[i]);
    json_arr_end(w);
    json_obj_end(w);
}

void clock_json(const struct clock_state *s, double calib_ms, const struct quiet_result *q,
                const struct quiet_phase_report *qp)
{
    struct json_writer *w = results_section_begin("clock", 0);

    json_arr_begin(w, "references");
    for (int i = 0; i < CLOCK_NREFS; i++)
        if (s->ref[i].valid)
            clock_json_ref(w, s, &s->ref[i]);
    json_arr_end(w);
    json_arr_begin(w, "unavailable");
    for (int i = 0; i < CLOCK_NREFS; i++) {
        if (s->ref[i].valid)
            continue;
        json_obj_begin(w, NULL);
        json_str(w, "name", s->ref[i].name);
        json_bool(w, "present", s->ref[i].present);
        json_str(w, "why", s->ref[i].why);
        json_obj_end(w);
    }
    json_arr_end(w);
    clock_json_agreement(w, s);
    json_obj_begin(w, "legacy_timer_rates");
    json_double(w, "pit_hz", s->rates.pit_hz);
    json_double(w, "pm_timer_hz", s->rates.pm_hz);
    json_str(w, "basis", s->rates.basis);
    json_str(w, "why", s->rates.why);
    json_obj_end(w);
    if (s->chosen >= 0) {
        json_fig_double(w, &figures_clock, FIG_CLOCK_CHOSEN_KHZ, s->chosen_khz);
        json_str(w, "source", s->ref[s->chosen].name);
    } else {
        json_fig_null(w, &figures_clock, FIG_CLOCK_CHOSEN_KHZ);   /* and no source */
    }
    json_bool(w, "contested", s->contested);
    clock_json_step(w, s);
    json_arr_begin(w, "order_of_trust");
    for (int i = 0; i < CLOCK_NREFS; i++)
        json_str(w, NULL, clock_names[i]);
    json_arr_end(w);
    json_fig_double(w, &figures_clock, FIG_CLOCK_CALIBRATION_MS, calib_ms);
    json_fig_double(w, &figures_clock, FIG_CLOCK_REFINED_MS, s->refined_ms);
    json_fig_u64(w, &figures_clock, FIG_CLOCK_SHORT_WINDOWS, CLOCK_SHORT_WINDOWS);
    json_fig_u64(w, &figures_clock, FIG_CLOCK_SHORT_MS, CLOCK_SHORT_MS);
    clock_json_phase(w, &s->phase);
    json_str(w, "unmasked", "NMI, SMI");
    if (q) {
        static const struct quiet_figures rows = {
            &figures_clock, FIG_CLOCK_QUIET_MAX_GAP_TICKS, FIG_CLOCK_QUIET_GAPS_OVER_1US };
        quiet_json(w, "quiet", q, &rows);
        json_obj_begin(w, "quiet_check_phase");
        json_bool(w, "timer_stopped", qp->timer_stopped);
        json_u64(w, "nmis", qp->nmis);
        if (qp->smi_counted)
            json_u64(w, "smis", qp->smis);
        json_obj_end(w);
    }
    results_section_end();
}
