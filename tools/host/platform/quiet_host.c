/*
 * tools/host/platform/quiet_host.c - the measuring phase under Linux (port/platform.h):
 * nothing can be stopped from user space, so the phase only measures its
 * own length; the report says the timer was not stopped and why.
 */
#include <string.h>

#include "platform.h"
#include "quiet.h"

static int qh_depth;
static uint64_t qh_tsc0;

void quiet_phase_begin(void)
{
    if (qh_depth++ == 0)
        qh_tsc0 = plat_ticks();
}

void quiet_phase_end(struct quiet_phase_report *rep)
{
    int outer = qh_depth == 1;

    if (qh_depth)
        qh_depth--;
    if (!rep)
        return;
    memset(rep, 0, sizeof *rep);
    if (!outer) {
        rep->timer_note = qh_depth ? "inside an outer phase" : "no phase had begun";
        return;
    }
    rep->timer_note = "an operating system's timer cannot be stopped from user space";
    rep->ticks = plat_ticks() - qh_tsc0;
}
