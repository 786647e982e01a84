/*
 * bench/clock/clock_section.c - the clock section: the TSC against every reference (see
 * clock.h for the steps and the order of trust; clock_calib.c measures,
 * clock_report.c prints and writes the results), then the quiet-machine
 * check at the chosen rate.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "clock_internal.h"
#include "clock_step.h"
#include "config.h"
#include "cpu.h"
#include "hpet.h"
#include "platform.h"
#include "pit.h"
#include "quiet.h"
#include "section.h"
#include "trap.h"

/* ---- public functions ------------------------------------------------------------ */

void clock_msrs_read(struct clock_msrs *m)
{
    memset(m, 0, sizeof *m);
    if (!cpu_info.has_msr)
        return;
    /* MSR_SMI_COUNT is Intel's (Nehalem on); elsewhere the read may not
     * fault but mean nothing, so it is not even tried. */
    if (cpu_info.is_intel)
        m->smi_ok = cpu_rdmsr_safe(CLOCK_MSR_SMI_COUNT, &m->smi) == 0;
    if (cpu_info.has_aperfmperf)
        m->aperf_ok = cpu_rdmsr_safe(CLOCK_MSR_APERF, &m->aperf) == 0 &&
                      cpu_rdmsr_safe(CLOCK_MSR_MPERF, &m->mperf) == 0;
}

int clock_run(const struct section_ctx *ctx)
{
    static struct clock_state s;   /* large: windows of five references */
    struct quiet_result q;
    struct quiet_phase_report qp;
    double calib_ms = NAN;
    int status = SECTION_OK, have_q = 0;

    memset(&s, 0, sizeof s);
    out_printf("\nclock: calibrating the TSC against every reference (%d short windows of %d ms, "
               "a refined window of %d ms)\n", CLOCK_SHORT_WINDOWS, CLOCK_SHORT_MS, CLOCK_REFINED_MS);
    clock_find(&s, ctx->acpi, ctx->env->cpu, ctx->env->vm_hidden);
    quiet_phase_begin();
    clock_calibrate(&s);
    quiet_phase_end(&s.phase);
    if (s.pit_running)
        pit_stop();
    hpet_close(&s.hpet);

    clock_choose(&s);
    if (s.chosen >= 0)
        calib_ms = (double)(s.t_end - s.t_start) / s.chosen_khz;
    /* The counter's step, once: every timing is known to within it. */
    if (clock_step_measure(&s.step, &s.step_range, s.step_raw) == 0)
        plat_set_tick_step(s.step.ticks);
    clock_print(&s, calib_ms);
    if (s.chosen < 0) {
        out_warn("clock: no reference gave a TSC frequency: times are reported in ticks only");
        out_printf("quiet: skipped (its 1 us and 10 us thresholds need the TSC frequency)\n");
        status = SECTION_WARNINGS;
    } else {
        if (s.contested)
            out_warn("clock: the measured references disagree; %s taken by the order of trust",
                     s.ref[s.chosen].name);
        if (calib_ms > CLOCK_BUDGET_MS)
            out_printf("clock: note: calibration took longer than %d ms (slow reads retried)\n",
                       CLOCK_BUDGET_MS);
        plat_set_tick_hz((uint64_t)llround(s.chosen_khz * 1000));
        quiet_phase_begin();
        have_q = quiet_check(ctx->cfg->quiet_ms, (uint64_t)llround(s.chosen_khz * 1000), &q) == 0;
        quiet_phase_end(&qp);
        if (have_q)
            quiet_print(&q);
    }
    clock_json(&s, calib_ms, have_q ? &q : NULL, &qp);
    return status;
}
