/*
 * bench/system/quiet.c - the quiet-machine check (see quiet.h).  Portable: the
 * image runs it with interrupts masked and the firmware timer stopped, the
 * hosted program runs the same loop under Linux so the two can be compared.
 */
#include <stdint.h>
#include <string.h>

#include "figures.h"
#include "json.h"
#include "platform.h"
#include "quiet.h"

void quiet_thresholds(uint64_t tick_hz, uint64_t th[4])
{
    /* 1 us, 10 us, 100 us, 1 ms in ticks, rounded up so a gap must exceed
     * the full time to count (never 0: a gap of one tick is not a stall). */
    static const uint64_t per_second[4] = { 1000000, 100000, 10000, 1000 };
    for (int i = 0; i < 4; i++) {
        th[i] = (tick_hz + per_second[i] - 1) / per_second[i];
        if (th[i] == 0)
            th[i] = 1;
    }
}

void quiet_account(struct quiet_result *r, uint64_t gap, uint64_t at, const uint64_t th[4])
{
    r->reads++;
    if (r->reads == 1 || gap < r->min_gap_ticks)
        r->min_gap_ticks = gap;
    if (gap > r->max_gap_ticks) {
        r->max_gap_ticks = gap;
        r->max_gap_at_ticks = at;
    }
    if (gap <= th[0])
        return;
    r->gaps_over_1us++;
    r->gaps_over_10us += gap > th[1];
    r->gaps_over_100us += gap > th[2];
    r->gaps_over_1ms += gap > th[3];
}

void quiet_finish(struct quiet_result *r)
{
    double s = r->tick_hz ? (double)r->elapsed_ticks / (double)r->tick_hz : 0;
    r->gaps_per_second = s > 0 ? (double)r->gaps_over_1us / s : 0;
}

int quiet_check(uint32_t ms, uint64_t tick_hz, struct quiet_result *r)
{
    uint64_t th[4], t0, prev, now, end;
    unsigned long irq;

    memset(r, 0, sizeof *r);
    r->ms = ms;
    r->tick_hz = tick_hz;
    if (!tick_hz)
        return -1;
    quiet_thresholds(tick_hz, th);
    irq = plat_irq_off();
    t0 = prev = plat_ticks();
    end = t0 + tick_hz * ms / 1000;
    do {
        now = plat_ticks();
        quiet_account(r, now - prev, prev - t0, th);
        prev = now;
    } while (now < end);
    plat_irq_restore(irq);
    r->masked = (plat_caps() & PLAT_CAP_IRQ_MASK) != 0;
    r->elapsed_ticks = prev - t0;
    quiet_finish(r);
    return 0;
}

/* ticks to microseconds for printing */
static double quiet_us(uint64_t ticks, uint64_t hz)
{
    return hz ? (double)ticks * 1e6 / (double)hz : 0;
}

void quiet_print(const struct quiet_result *r)
{
    out_printf("quiet: %u ms %s: %llu reads, each %.3f us; largest gap %llu ticks (%.3f us) "
               "%.1f ms in\n", r->ms, r->masked ? "with interrupts masked" : "(interrupts not masked)",
               (unsigned long long)r->reads, quiet_us(r->min_gap_ticks, r->tick_hz),
               (unsigned long long)r->max_gap_ticks, quiet_us(r->max_gap_ticks, r->tick_hz),
               quiet_us(r->max_gap_at_ticks, r->tick_hz) / 1000);
    out_printf("quiet: gaps over 1 us %llu, 10 us %llu, 100 us %llu, 1 ms %llu; %.1f gaps over 1 us per second\n",
               (unsigned long long)r->gaps_over_1us, (unsigned long long)r->gaps_over_10us,
               (unsigned long long)r->gaps_over_100us, (unsigned long long)r->gaps_over_1ms,
               r->gaps_per_second);
}

void quiet_json(struct json_writer *w, const char *key, const struct quiet_result *r,
                const struct quiet_figures *f)
{
    json_obj_begin(w, key);
    json_u64(w, "ms", r->ms);
    json_u64(w, "tick_hz", r->tick_hz);
    json_bool(w, "masked", r->masked);
    json_u64(w, "reads", r->reads);
    json_u64(w, "elapsed_ticks", r->elapsed_ticks);
    json_u64(w, "min_gap_ticks", r->min_gap_ticks);
    json_fig_u64(w, f->table, f->max_gap_ticks, r->max_gap_ticks);
    json_u64(w, "max_gap_at_ticks", r->max_gap_at_ticks);
    json_fig_u64(w, f->table, f->gaps_over_1us, r->gaps_over_1us);
    json_u64(w, "gaps_over_10us", r->gaps_over_10us);
    json_u64(w, "gaps_over_100us", r->gaps_over_100us);
    json_u64(w, "gaps_over_1ms", r->gaps_over_1ms);
    json_double(w, "gaps_per_second", r->gaps_per_second);
    json_obj_end(w);
}

/* ---- totals of a section's measuring phases ------------------------------------------- */

void quiet_phase_totals_init(struct quiet_phase_totals *t)
{
    memset(t, 0, sizeof *t);
    t->timer_note = "";
    t->smi_counted = 1;
    t->aperf_mperf = 1;
}

void quiet_phase_add(struct quiet_phase_totals *t, const struct quiet_phase_report *r)
{
    t->phases++;
    if (r->timer_stopped) {
        t->timer_stopped++;
        t->timer_period_100ns = r->timer_period_100ns;
    } else if (r->timer_note && r->timer_note[0]) {
        t->timer_note = r->timer_note;
    }
    t->ticks += r->ticks;
    t->nmis += r->nmis;
    t->smi_counted &= r->smi_counted != 0;
    t->smis += r->smis;
    t->aperf_mperf &= r->aperf_mperf != 0;
    t->aperf += r->aperf;
    t->mperf += r->mperf;
}

void quiet_phase_end_add(struct quiet_phase_totals *t)
{
    struct quiet_phase_report r;
    quiet_phase_end(&r);
    quiet_phase_add(t, &r);
}

void quiet_phase_totals_print(const char *section, const struct quiet_phase_totals *t)
{
    if (!t->phases)
        return;
    if (!(plat_caps() & PLAT_CAP_IRQ_MASK)) {
        out_printf("%s: %u measuring phases under %s: %s, interrupts not masked\n", section,
                   (unsigned)t->phases, plat_name(), t->timer_note);
        return;
    }
    if (t->timer_stopped == t->phases)
        out_printf("%s: firmware timer stopped in each of its %u measuring phases (Timer Architectural "
                   "Protocol; period %llu x 100 ns restored after each)\n", section, (unsigned)t->phases,
                   (unsigned long long)t->timer_period_100ns);
    else
        out_printf("%s: firmware timer stopped in %u of its %u measuring phases (%s); interrupts masked "
                   "in every timed interval\n", section, (unsigned)t->timer_stopped, (unsigned)t->phases,
                   t->timer_note[0] ? t->timer_note : "no reason given");
    out_printf("%s: unmasked while measuring: NMI (%llu seen), SMI (", section, (unsigned long long)t->nmis);
    if (t->smi_counted)
        out_printf("%llu counted in MSR 0x34)", (unsigned long long)t->smis);
    else
        out_printf("not counted: no SMI counter on this CPU)");
    if (t->aperf_mperf && t->mperf)
        out_printf("; APERF/MPERF %.4f", (double)t->aperf / (double)t->mperf);
    out_printf("\n");
}

void quiet_phase_totals_json(struct json_writer *w, const char *key, const struct quiet_phase_totals *t)
{
    if (!w)
        return;
    json_obj_begin(w, key);
    json_u64(w, "phases", t->phases);
    json_u64(w, "timer_stopped_phases", t->timer_stopped);
    json_u64(w, "timer_period_100ns", t->timer_period_100ns);
    if (t->timer_stopped != t->phases)
        json_str(w, "timer_note", t->timer_note);
    json_u64(w, "ticks", t->ticks);
    json_u64(w, "nmis", t->nmis);
    json_bool(w, "smi_counted", t->phases && t->smi_counted);
    if (t->phases && t->smi_counted)
        json_u64(w, "smis", t->smis);
    json_bool(w, "aperf_mperf", t->phases && t->aperf_mperf);
    if (t->phases && t->aperf_mperf) {
        json_u64(w, "aperf", t->aperf);
        json_u64(w, "mperf", t->mperf);
    }
    json_obj_end(w);
}
