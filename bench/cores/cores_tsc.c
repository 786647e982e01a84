/*
 * bench/cores/cores_tsc.c - the cores section's TSC part (see bench/cores/cores.h):
 * the warp check and the offset round trips of every CPU against the
 * BSP, and each CPU's rate against the reference counter in a session at
 * the start and one at the end of the section, fitted over both.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acpi.h"
#include "cores.h"
#include "cores_internal.h"
#include "cores_math.h"
#include "cores_work.h"
#include "hpet.h"
#include "platform.h"
#include "pmtimer.h"
#include "quiet.h"

/* ---- 2. TSC -------------------------------------------------------------------------- */

static void cores_ref_open(struct cores *c, struct cores_rate *proto)
{
    static struct hpet h;
    static struct pmtimer pm;
    const char *why = "";
    memset(proto, 0, sizeof *proto);
    c->ref = CORES_REF_NONE;
    c->ref_name = "none";
    if (c->ai && c->ai->hpet_base && hpet_open(&h, c->ai->hpet_base, &why) == 0) {
        proto->ref = c->ref = CORES_REF_HPET;
        proto->hpet_base = h.base;
        proto->ref_hz = hpet_hz(&h);
        c->ref_name = "hpet";
    } else if (c->ai && c->ai->pm_timer_port
               && pmtimer_open(&pm, c->ai->pm_timer_port, c->ai->pm_timer_32bit, &why) == 0) {
        proto->ref = c->ref = CORES_REF_PMTIMER;
        proto->pm_port = pm.port;
        proto->pm_mask = pm.bits == 32 ? 0xFFFFFFFFu : 0xFFFFFFu;
        proto->ref_hz = PMTIMER_HZ;
        c->ref_name = "pm_timer";
    }
    proto->step_ref_ticks = (uint64_t)(proto->ref_hz * CORES_RATE_STEP_MS / 1000.0);
    proto->ref_per_tsc = proto->ref_hz / (double)c->hz;
    proto->timeout_ticks = c->timeout_ticks;
}

static void cores_pair_fail(struct cores_tsc *t, const char *what, const struct cores_fail *fb)
{
    if (t->fail.failed)
        return;
    t->fail.failed = 1;
    snprintf(t->fail.why, sizeof t->fail.why, "%s: %s", what,
             fb->failed ? fb->why : "the other CPU did not keep up (timeout)");
}

/* Warp check between the BSP (side 0) and CPU n (side 1). */
static int cores_warp_pair(struct cores *c, uint32_t n)
{
    struct cores_tsc *t = &c->cpu[n].tsc;
    struct cores_shared m;
    struct cores_fail fb = { 0, "" };
    if (cores_shared_get(&m, sizeof(struct cores_warp_shared))) {
        cores_pair_fail(t, "warp check", &(struct cores_fail){ 1, "no memory" });
        return -1;
    }
    struct cores_warp_shared *sh = m.p;
    sh->last_cpu = CORES_NO_CPU;
    sh->start.parties = 2;
    sh->start.deadline_ticks = c->timeout_ticks;
    sh->loops = CORES_WARP_LOOPS;
    sh->min_handoffs = CORES_WARP_HANDOFFS;
    sh->handoff_ticks = cores_ms_ticks(c, CORES_WARP_HANDOFF_MS);
    struct cores_warp_side wb = { sh, 0 }, wn = { sh, 1 };
    struct cores_task w[2] = { { c->mi.bsp, cores_warp, &wb, &fb, 0 }, { n, cores_warp, &wn, &t->fail, 0 } };
    int bad = cores_group(c, w, 2, c->timeout_ticks) || wb.timed_out || wn.timed_out;
    if (bad) {
        cores_pair_fail(t, "warp check", &fb);
    } else {
        t->warp.turns = wb.count.turns + wn.count.turns;
        t->warp.handoffs = wb.count.handoffs + wn.count.handoffs;
        t->warp.backs = wb.count.backs + wn.count.backs;
        t->warp.max_back = wb.count.max_back > wn.count.max_back ? wb.count.max_back : wn.count.max_back;
    }
    cores_shared_put(c, &m, c->mi.bsp, n);
    return bad ? -1 : 0;
}

/* Round trips both ways: BSP first, then CPU n initiates. */
static void cores_tsc_pair(struct cores *c, uint32_t n)
{
    struct cores_tsc *t = &c->cpu[n].tsc;
    struct cores_fail fb = { 0, "" };
    struct cores_offset_bounds dir[2];
    if (cores_warp_pair(c, n))
        return;
    for (int way = 0; way < 2; way++) {
        struct cores_shared m;
        if (cores_shared_get(&m, sizeof(struct cores_ping_shared))) {
            cores_pair_fail(t, "round trips", &(struct cores_fail){ 1, "no memory" });
            return;
        }
        struct cores_ping_shared *sh = m.p;
        sh->start.parties = 2;
        sh->start.deadline_ticks = c->timeout_ticks;
        sh->samples = CORES_PING_SAMPLES;
        struct cores_ping_side pb = { sh, way == 0 }, pn = { sh, way == 1 };
        struct cores_task p[2] = { { c->mi.bsp, cores_ping, &pb, &fb, 0 }, { n, cores_ping, &pn, &t->fail, 0 } };
        int bad = cores_group(c, p, 2, c->timeout_ticks) || pb.timed_out || pn.timed_out;
        cores_shared_put(c, &m, c->mi.bsp, n);
        if (bad) {
            cores_pair_fail(t, "round trips", &fb);
            return;
        }
        dir[way] = way == 0 ? pb.bounds : pn.bounds;
    }
    cores_bounds_merge(&dir[0], &dir[1], &t->bounds);
    t->skew_consistent = cores_bounds_estimate(&t->bounds, &t->skew_ticks, &t->skew_unc_ticks) == 0;
    t->measured = 1;
}

/* One rate session on every selected CPU that still answers. */
static void cores_rate_session(struct cores *c)
{
    if (c->ref == CORES_REF_NONE)
        return;
    uint64_t t = c->timeout_ticks + cores_ms_ticks(c, CORES_RATE_POINTS * CORES_RATE_STEP_MS);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        if (cores_alive(c, n) && !c->cpu[n].tsc.rate.failed)
            cores_one(c, n, cores_rate, &c->cpu[n].tsc.rate, &c->cpu[n].tsc.fail, t);
    }
    c->rate_sessions++;
}

void cores_tsc_all(struct cores *c)
{
    struct cores_rate proto;
    cores_ref_open(c, &proto);
    quiet_phase_begin();
    for (uint32_t k = 0; k < c->nsel; k++)
        c->cpu[c->order[k]].tsc.rate = proto;
    cores_rate_session(c);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        if (n == c->mi.bsp) {
            c->cpu[n].tsc.measured = 1;
            c->cpu[n].tsc.skew_consistent = 1;
            c->cpu[n].tsc.bounds.samples = 0;
        } else if (cores_alive(c, n)) {
            cores_tsc_pair(c, n);
        }
    }
    quiet_phase_end_add(&c->qt);
}

/* The second session at the section's end, the fits and the comparison
 * with the BSP: the fit spans everything the section did in between. */
void cores_rate_finish(struct cores *c)
{
    const struct cores_tsc *rb = &c->cpu[c->mi.bsp].tsc;
    quiet_phase_begin();
    cores_rate_session(c);
    quiet_phase_end_add(&c->qt);
    c->rate_detectable_ppm = NAN;
    for (uint32_t k = 0; k < c->nsel; k++) {
        struct cores_tsc *t = &c->cpu[c->order[k]].tsc;
        cores_rate_fit(t->rate.points, t->rate.n, t->rate.ref_hz, &t->fit);
    }
    for (uint32_t k = 0; k < c->nsel; k++) {
        struct cores_tsc *t = &c->cpu[c->order[k]].tsc;
        if (c->order[k] == c->mi.bsp)
            continue;
        cores_rate_compare(&t->fit, &rb->fit, &t->diff);
        if (!isnan(t->diff.detectable_ppm)
            && (isnan(c->rate_detectable_ppm) || t->diff.detectable_ppm > c->rate_detectable_ppm))
            c->rate_detectable_ppm = t->diff.detectable_ppm;
    }
}

