/*
 * boot/quiet_phase.c - the measuring phase for the image (port/platform.h):
 * the firmware's periodic timer stopped through the Timer Architectural
 * Protocol, NMIs, SMIs and APERF/MPERF read at both ends.
 */
#include <efi.h>
#include <efilib.h>
#include <string.h>

#include "clock.h"
#include "cpu.h"
#include "firmware.h"
#include "quiet.h"
#include "trap.h"

static int qp_depth;
static int qp_stopped;
static UINT64 qp_period;
static const char *qp_note = "";
static struct clock_msrs qp_msr0;
static uint64_t qp_nmi0, qp_tsc0;

void quiet_phase_begin(void)
{
    EFI_STATUS s;

    if (qp_depth++)
        return;
    qp_stopped = 0;
    qp_period = 0;
    qp_note = "";
    if (!((cpu_flags() >> 9) & 1)) {
        /* Firmware calls may enable interrupts: not from a masked section. */
        qp_note = "the phase began with interrupts masked";
    } else {
        s = fw_timer_stop(&qp_period);
        if (s == EFI_SUCCESS)
            qp_stopped = qp_period != 0;
        if (s == EFI_NOT_FOUND)
            qp_note = "the firmware has no Timer Architectural Protocol";
        else if (s != EFI_SUCCESS)
            qp_note = "the Timer Architectural Protocol refused";
        else if (!qp_period)
            qp_note = "the firmware timer was already stopped";
    }
    clock_msrs_read(&qp_msr0);
    qp_nmi0 = trap_nmi_count();
    qp_tsc0 = cpu_rdtsc();
}

void quiet_phase_end(struct quiet_phase_report *rep)
{
    struct clock_msrs m1;
    uint64_t tsc1;

    if (qp_depth == 0 || --qp_depth) {
        if (rep) {              /* an inner (or unmatched) end acts on nothing */
            memset(rep, 0, sizeof *rep);
            rep->timer_note = qp_depth ? "inside an outer phase" : "no phase had begun";
        }
        return;
    }
    tsc1 = cpu_rdtsc();
    clock_msrs_read(&m1);
    if (qp_stopped && fw_timer_restore(qp_period) != EFI_SUCCESS)
        qp_note = "the firmware timer could not be restored";
    if (!rep)
        return;
    memset(rep, 0, sizeof *rep);
    rep->timer_stopped = qp_stopped;
    rep->timer_period_100ns = qp_period;
    rep->timer_note = qp_note;
    rep->smi_counted = qp_msr0.smi_ok && m1.smi_ok;
    rep->smis = rep->smi_counted ? m1.smi - qp_msr0.smi : 0;
    rep->aperf_mperf = qp_msr0.aperf_ok && m1.aperf_ok;
    rep->aperf = rep->aperf_mperf ? m1.aperf - qp_msr0.aperf : 0;
    rep->mperf = rep->aperf_mperf ? m1.mperf - qp_msr0.mperf : 0;
    rep->nmis = trap_nmi_count() - qp_nmi0;
    rep->ticks = tsc1 - qp_tsc0;
}
