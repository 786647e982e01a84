/*
 * bench/cores/cores_report_tsc.c - the cores section's TSC text (see cores.h):
 * how the reads were fenced, the warp check and the offsets after the TSC
 * part, each CPU's fitted rate at the section's end, their warnings and
 * LAVA cases.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cores.h"
#include "platform.h"

void cores_print_read(const struct cores *c)
{
    if (c->read_chosen)
        out_printf("cores: TSC reads around every cross-CPU access: %s\n", c->read_why);
}

/* IA32_TSC_ADJUST as a column: its value, "-" where CPUID has no MSR. */
static void cores_adjust_text(const struct cores_cpuid *id, char *buf, size_t n)
{
    if (!id->read || id->tsc_adjust_read < 0)
        snprintf(buf, n, "-");
    else if (id->tsc_adjust_read == 0)
        snprintf(buf, n, "unreadable");
    else
        snprintf(buf, n, "%lld", (long long)id->tsc_adjust);
}

void cores_print_tsc(struct cores *c)
{
    uint32_t b = c->mi.bsp;
    out_printf("cores: TSC of every CPU against CPU %u: warp check (%u lock turns each, at least %u "
               "handoffs between the two wanted; only a read right after the other CPU's is "
               "compared), offset from %u round trips each way, IA32_TSC_ADJUST (MSR 0x3B)\n", b,
               CORES_WARP_LOOPS, CORES_WARP_HANDOFFS, CORES_PING_SAMPLES);
    out_printf("  CPU  warp: largest step back (backs/handoffs/turns)  offset ticks (+-)      "
               "offset ns (+-)     TSC_ADJUST\n");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        char warp[64] = "-", off[48] = "-", offns[48] = "-", adj[32];
        cores_adjust_text(&c->cpu[n].id, adj, sizeof adj);
        if (n == b) {
            snprintf(warp, sizeof warp, "(reference)");
        } else if (t->measured) {
            snprintf(warp, sizeof warp, "%llu ticks (%llu/%llu/%llu)", (unsigned long long)t->warp.max_back,
                     (unsigned long long)t->warp.backs, (unsigned long long)t->warp.handoffs,
                     (unsigned long long)t->warp.turns);
            snprintf(off, sizeof off, "%+.1f (%.1f)%s", t->skew_ticks, t->skew_unc_ticks,
                     t->skew_consistent ? "" : " EMPTY");
            snprintf(offns, sizeof offns, "%+.1f (%.1f)", cores_ns(c, t->skew_ticks),
                     cores_ns(c, t->skew_unc_ticks));
        }
        out_printf("  %3u  %-46s  %-21s  %-17s  %s\n", n, warp, off, offns, adj);
        if (t->fail.failed)
            out_printf("       CPU %u: %s\n", n, t->fail.why);
    }
}

/* A firmware that wrote TSC_ADJUST on one CPU and not another explains an
 * offset of the difference. */
static void cores_adjust_note(struct cores *c, uint32_t n)
{
    const struct cores_cpuid *a = &c->cpu[n].id, *r = &c->cpu[c->mi.bsp].id;
    if (a->tsc_adjust_read == 1 && r->tsc_adjust_read == 1 && a->tsc_adjust != r->tsc_adjust)
        out_printf("cores: CPU %u: IA32_TSC_ADJUST %lld against CPU %u's %lld: the firmware (or an "
                   "earlier OS) moved one TSC by %+lld ticks\n", n, (long long)a->tsc_adjust, c->mi.bsp,
                   (long long)r->tsc_adjust, (long long)(a->tsc_adjust - r->tsc_adjust));
}

void cores_warn_tsc(struct cores *c)
{
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        int before = c->warnings;
        if (n == c->mi.bsp)
            continue;
        cores_adjust_note(c, n);
        if (t->fail.failed) {
            out_warn("cores: CPU %u: TSC check not done: %s", n, t->fail.why);
            c->warnings++;
        } else if (t->measured) {
            if (t->warp.max_back) {
                out_warn("cores: CPU %u: the TSC stepped back by up to %llu ticks against CPU %u "
                         "(%llu of %llu handoffs): the TSCs are not synchronised", n,
                         (unsigned long long)t->warp.max_back, c->mi.bsp,
                         (unsigned long long)t->warp.backs, (unsigned long long)t->warp.handoffs);
                c->warnings++;
            }
            if (!t->skew_consistent) {
                out_warn("cores: CPU %u: the round trips allow no constant TSC offset (the TSCs "
                         "drift apart or reads were reordered)", n);
                c->warnings++;
            } else if (cores_ns(c, fabs(t->skew_ticks) - t->skew_unc_ticks) > CORES_SKEW_BOUND_NS) {
                out_warn("cores: CPU %u: TSC offset %+.0f ns (+- %.0f) against CPU %u, beyond "
                         "+-%.0f ns", n, cores_ns(c, t->skew_ticks), cores_ns(c, t->skew_unc_ticks),
                         c->mi.bsp, CORES_SKEW_BOUND_NS);
                c->warnings++;
            }
        }
        t->offset_warned = c->warnings != before;
    }
}

/* ---- rates, fitted over every session ------------------------------------------------- */

static void cores_rate_row(const struct cores *c, uint32_t n)
{
    const struct cores_tsc *t = &c->cpu[n].tsc;
    if (!t->fit.ok) {
        out_printf("  %3u  %s\n", n, t->rate.failed ? "not measured (a session timed out)" : "no fit");
        return;
    }
    out_printf("  %3u  %14.6f  %5u (%u dropped)  %9.1f  %7.3f", n, t->fit.hz / 1e6, t->fit.used, t->fit.dropped,
               (double)t->fit.span_tsc * 1e3 / (double)c->hz, t->fit.se_rel * 1e6);
    if (n == c->mi.bsp)
        out_printf("  (reference)\n");
    else
        out_printf("  %+10.3f  %8.3f  %8.3f%s\n", t->diff.ppm, t->diff.half95_ppm, t->diff.detectable_ppm,
                   fabs(t->diff.ppm) > t->diff.half95_ppm ? "  differs" : "");
}

void cores_print_rate(struct cores *c)
{
    if (c->ref == CORES_REF_NONE) {
        out_printf("cores: TSC rates not compared: no HPET and no PM timer to measure them against\n");
        return;
    }
    out_printf("cores: TSC rate of every CPU, least squares against the %s over %d session%s of %u edges "
               "(%u ms apart) spread over the section; 95%% half-width and the smallest difference this run "
               "could detect (5%% test, 80%% power)\n", c->ref_name, c->rate_sessions,
               c->rate_sessions == 1 ? "" : "s", CORES_RATE_POINTS, CORES_RATE_STEP_MS);
    out_printf("  CPU        rate MHz  edges used     span ms   se ppm  vs CPU %u ppm  +- (95%%)  detectable\n",
               c->mi.bsp);
    for (uint32_t k = 0; k < c->nsel; k++)
        cores_rate_row(c, c->order[k]);
    if (!isnan(c->rate_detectable_ppm))
        out_printf("cores: a TSC rate difference of %.3f ppm or more from CPU %u's would have been seen "
                   "on every CPU; a smaller one may have been missed\n", c->rate_detectable_ppm, c->mi.bsp);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        if (n == c->mi.bsp)
            continue;
        if (t->fit.ok && !isnan(t->diff.ppm) && fabs(t->diff.ppm) - t->diff.half95_ppm > CORES_RATE_BOUND_PPM) {
            out_warn("cores: CPU %u: TSC rate %.6f MHz is %+.2f ppm (+- %.2f) from CPU %u's, beyond %.0f ppm",
                     n, t->fit.hz / 1e6, t->diff.ppm, t->diff.half95_ppm, c->mi.bsp, CORES_RATE_BOUND_PPM);
            c->warnings++;
            t->rate_warned = 1;
        }
    }
}
