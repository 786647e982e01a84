/*
 * boot/cores.c - the cores section (see cores.h): the BSP drives, the APs'
 * workers (boot/mp.h) run kernel/cores_work.h and BYTEmark tests, the BSP
 * prints and writes the "cores" member of the results.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "cores.h"
#include "lava.h"
#include "section.h"
#include "cores_math.h"
#include "cores_work.h"
#include "cpu.h"
#include "hpet.h"
#include "json.h"
#include "mp.h"
#include "out.h"
#include "platform.h"
#include "pmtimer.h"
#include "quiet.h"
#include "results.h"
#include "run.h"
#include "trap.h"

#define CORES_DEFAULT_TIMEOUT_S 30
#define CORES_ANSWER_S          5     /* an AP must take its worker job within this */
#define CORES_DEFAULT_TESTS     ((1u << BM_NUMSORT) | (1u << BM_FOURIER))

/* ---- types ------------------------------------------------------------------------ */

/* What went wrong with one CPU's piece of work. */
struct cores_fail {
    int failed;                   /* 0: fine */
    char why[160];
};

struct cores_tsc {
    int measured;
    uint64_t warp_max_back, warp_backs, warp_loops;
    struct cores_offset_bounds bounds;
    double skew_ticks, skew_unc_ticks;
    int skew_consistent;
    struct cores_rate rate;
    double rate_ppm, rate_unc_ppm;    /* vs the BSP's rate by the same reference */
    struct cores_fail fail;
};

struct cores_score {
    int ran;
    struct bytemark_core_job job;
    struct cores_fail fail;
};

struct cores_cpu {
    int selected;
    struct cores_cpuid id;
    struct cores_topo topo;
    struct cores_tsc tsc;
    struct cores_score score[BM_NTESTS];      /* per core */
    struct cores_score all[BM_NTESTS];        /* all cores at once */
    struct cores_fail fail;                   /* the CPU itself (no answer, lost) */
    const char *inject;                       /* INJECTIN=cores:cpuN */
};

struct cores {
    const struct bm_config *cfg;
    const struct acpi_info *ai;
    struct mp_info mi;
    uint64_t hz, timeout_ticks;
    uint32_t parts, tests, nsel;
    uint8_t *sel;
    struct cores_cpu *cpu;
    uint32_t *order;                          /* selected processor numbers */
    /* latency matrix over order[], nsel x nsel, row-major */
    uint64_t *lat_min, *lat_med;
    struct cores_fail lat_fail;
    int lat_measured;
    enum cores_ref ref;
    const char *ref_name;
    struct quiet_phase_totals qt;
    int warnings;
};

/* ---- running work on a CPU ---------------------------------------------------------- */

static uint64_t cores_ms_ticks(const struct cores *c, uint64_t ms) { return c->hz / 1000 * ms; }

static int cores_alive(const struct cores *c, uint32_t n)
{
    return n == c->mi.bsp || mp_worker_state(n) == MP_W_READY;
}

static void cores_fault_text(const struct trap_fault *f, char *buf, size_t n)
{
    snprintf(buf, n, "%s (vector %llu) at RIP 0x%llx, error code 0x%llx", f->name ? f->name : "?",
             (unsigned long long)f->vector, (unsigned long long)f->rip,
             (unsigned long long)f->error_code);
}

static long cores_score_fn(void *arg);

/* The BSP's share: protected, interrupts masked.  A BYTEmark test is the
 * exception: it allocates through the firmware (plat_alloc), which must not
 * be called with interrupts masked, and masks its timed work itself. */
static int cores_bsp_call(long (*fn)(void *), void *arg, struct cores_fail *fail)
{
    struct trap_fault f;
    long r = 0;
    unsigned long irq = fn == cores_score_fn ? cpu_flags() : cpu_irq_save();
    int faulted = trap_run(fn, arg, &r, &f);
    cpu_irq_restore(irq);
    if (faulted) {
        fail->failed = 1;
        cores_fault_text(&f, fail->why, sizeof fail->why);
        return -1;
    }
    return (int)r;
}

/* Collect an AP's call; a fault or a timeout is written into fail. */
static int cores_ap_collect(struct cores *c, uint32_t n, uint64_t timeout, struct cores_fail *fail)
{
    struct trap_fault f;
    long r = 0;
    memset(&f, 0, sizeof f);
    switch (mp_collect(n, timeout, &r, &f)) {
    case MP_CALL_DONE:
        return (int)r;
    case MP_CALL_FAULT:
        fail->failed = 1;
        cores_fault_text(&f, fail->why, sizeof fail->why);
        return -1;
    case MP_CALL_TIMEOUT:
        fail->failed = 1;
        if (mp_worker_state(n) == MP_W_HALTED) {
            char t[120];
            cores_fault_text(&f, t, sizeof t);
            snprintf(fail->why, sizeof fail->why, "CPU halted after a fault outside its work: %s", t);
        } else {
            snprintf(fail->why, sizeof fail->why, "no answer within %llu s: CPU left alone",
                     (unsigned long long)(timeout / c->hz));
        }
        snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why, "%s", fail->why);
        c->cpu[n].fail.failed = 1;
        return -1;
    default:
        fail->failed = 1;
        snprintf(fail->why, sizeof fail->why, "CPU not available");
        return -1;
    }
}

/* Run each task's fn(arg) on its CPU, all at once (one of them may be the
 * BSP, which runs its share itself).  Returns the number that failed. */
struct cores_task { uint32_t cpu; long (*fn)(void *); void *arg; struct cores_fail *fail; int rc; };

static int cores_group(struct cores *c, struct cores_task *t, uint32_t n, uint64_t timeout)
{
    int failed = 0;
    int bsp = -1;
    for (uint32_t i = 0; i < n; i++) {
        t[i].rc = 0;
        if (t[i].cpu == c->mi.bsp) {
            bsp = (int)i;
        } else if (mp_post(t[i].cpu, t[i].fn, t[i].arg)) {
            t[i].fail->failed = 1;
            snprintf(t[i].fail->why, sizeof t[i].fail->why, "CPU %u not available (%s)", t[i].cpu,
                     mp_worker_state_name(mp_worker_state(t[i].cpu)));
            t[i].rc = -2;
        }
    }
    if (bsp >= 0)
        t[bsp].rc = cores_bsp_call(t[bsp].fn, t[bsp].arg, t[bsp].fail);
    for (uint32_t i = 0; i < n; i++) {
        if ((int)i != bsp && t[i].rc != -2)
            t[i].rc = cores_ap_collect(c, t[i].cpu, timeout, t[i].fail);
        failed += t[i].rc != 0;
    }
    return failed;
}

static int cores_one(struct cores *c, uint32_t cpu, long (*fn)(void *), void *arg,
                     struct cores_fail *fail, uint64_t timeout)
{
    struct cores_task t = { cpu, fn, arg, fail, 0 };
    return cores_group(c, &t, 1, timeout);
}

/* ---- 1. the list ---------------------------------------------------------------------- */

static void cores_probe_all(struct cores *c)
{
    quiet_phase_begin();
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_fail f = { 0, "" };
        if (cores_alive(c, n))
            cores_one(c, n, cores_probe, &c->cpu[n].id, &f, c->timeout_ticks);
        cores_topo_decode(&c->cpu[n].id, &c->cpu[n].topo);
    }
    quiet_phase_end_add(&c->qt);
}

static const char *cores_worker_text(const struct cores *c, uint32_t n)
{
    if (n == c->mi.bsp)
        return "bsp";
    if (!c->cpu[n].selected)
        return "not selected";
    if (!(c->mi.cpu[n].flags & MP_FLAG_ENABLED))
        return "disabled";
    return mp_worker_state_name(mp_worker_state(n));
}

static void cores_print_list(const struct cores *c)
{
    out_printf("  CPU   APIC ID  firmware pkg/core/thread  CPUID 0x%X pkg/core/thread  type    state\n",
               c->cpu[c->mi.bsp].id.topo_leaf ? c->cpu[c->mi.bsp].id.topo_leaf : 0xB);
    for (uint32_t n = 0; n < c->mi.count; n++) {
        const struct mp_cpu *m = &c->mi.cpu[n];
        const struct cores_cpu *p = &c->cpu[n];
        char t[8], cp[40];
        if (p->id.read && p->topo.valid)
            snprintf(cp, sizeof cp, "%u/%u/%u", p->topo.package, p->topo.core, p->topo.thread);
        else
            snprintf(cp, sizeof cp, "%s", p->id.read ? "no topology leaf" : "-");
        out_printf("  %3u  %8llu  %12u/%u/%u  %24s  %-6s  %s\n", n, (unsigned long long)m->apic_id,
                   m->package, m->core, m->thread, cp,
                   p->id.read ? cores_type_name(p->topo.core_type, t, sizeof t) : "-",
                   cores_worker_text(c, n));
    }
}

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
    proto->window_ref_ticks = (uint64_t)(proto->ref_hz * CORES_RATE_WINDOW_MS / 1000.0);
    proto->timeout_ticks = c->timeout_ticks;
}

/* Warp check and round trips between the BSP and CPU n. */
static void cores_tsc_pair(struct cores *c, uint32_t n)
{
    uint32_t b = c->mi.bsp;
    struct cores_tsc *t = &c->cpu[n].tsc;
    static struct cores_warp_shared wsh;
    static struct cores_ping_shared psh;
    struct cores_warp_side wb = { &wsh }, wn = { &wsh };
    struct cores_fail fb = { 0, "" };
    memset((void *)&wsh, 0, sizeof wsh);
    wsh.start.parties = 2;
    wsh.start.deadline_ticks = c->timeout_ticks;
    wsh.loops = CORES_WARP_LOOPS;
    struct cores_task w[2] = { { b, cores_warp, &wb, &fb, 0 }, { n, cores_warp, &wn, &t->fail, 0 } };
    if (cores_group(c, w, 2, c->timeout_ticks) || wb.timed_out || wn.timed_out) {
        if (!t->fail.failed) {
            t->fail.failed = 1;
            snprintf(t->fail.why, sizeof t->fail.why, "warp check: %s",
                     fb.failed ? fb.why : "the other CPU did not keep up (timeout)");
        }
        return;
    }
    t->warp_max_back = wb.max_back > wn.max_back ? wb.max_back : wn.max_back;
    t->warp_backs = wb.backs + wn.backs;
    t->warp_loops = wb.done + wn.done;

    /* Round trips both ways: BSP first, then CPU n initiates. */
    struct cores_offset_bounds dir[2];
    for (int way = 0; way < 2; way++) {
        struct cores_ping_side pb = { &psh, way == 0 }, pn = { &psh, way == 1 };
        memset((void *)&psh, 0, sizeof psh);
        psh.start.parties = 2;
        psh.start.deadline_ticks = c->timeout_ticks;
        psh.samples = CORES_PING_SAMPLES;
        struct cores_task p[2] = { { b, cores_ping, &pb, &fb, 0 }, { n, cores_ping, &pn, &t->fail, 0 } };
        if (cores_group(c, p, 2, c->timeout_ticks) || pb.timed_out || pn.timed_out) {
            if (!t->fail.failed) {
                t->fail.failed = 1;
                snprintf(t->fail.why, sizeof t->fail.why, "round trips: %s",
                         fb.failed ? fb.why : "the other CPU did not keep up (timeout)");
            }
            return;
        }
        dir[way] = way == 0 ? pb.bounds : pn.bounds;
    }
    cores_bounds_merge(&dir[0], &dir[1], &t->bounds);
    t->skew_consistent = cores_bounds_estimate(&t->bounds, &t->skew_ticks, &t->skew_unc_ticks) == 0;
    t->measured = 1;
}

static void cores_tsc_all(struct cores *c)
{
    struct cores_rate proto;
    uint32_t b = c->mi.bsp;
    cores_ref_open(c, &proto);
    quiet_phase_begin();
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        c->cpu[n].tsc.rate = proto;
        if (!cores_alive(c, n))
            continue;
        if (proto.ref != CORES_REF_NONE)
            cores_one(c, n, cores_rate, &c->cpu[n].tsc.rate, &c->cpu[n].tsc.fail,
                      c->timeout_ticks + cores_ms_ticks(c, CORES_RATE_WINDOWS * CORES_RATE_WINDOW_MS));
        if (n == b) {
            c->cpu[n].tsc.measured = 1;
            c->cpu[n].tsc.skew_consistent = 1;
            c->cpu[n].tsc.bounds.samples = 0;
        } else if (cores_alive(c, n)) {
            cores_tsc_pair(c, n);
        }
    }
    quiet_phase_end_add(&c->qt);
    const struct cores_rate *rb = &c->cpu[b].tsc.rate;
    for (uint32_t k = 0; k < c->nsel; k++) {
        struct cores_tsc *t = &c->cpu[c->order[k]].tsc;
        if (c->order[k] == b || t->rate.failed || rb->failed || rb->hz <= 0 || proto.ref == CORES_REF_NONE)
            continue;
        t->rate_ppm = (t->rate.hz / rb->hz - 1) * 1e6;
        /* each edge is known to within its bracket; both windows' edges count */
        t->rate_unc_ppm = ((double)t->rate.edge_width / 2 / (double)t->rate.tsc_ticks
                           + (double)rb->edge_width / 2 / (double)rb->tsc_ticks) * 1e6;
    }
}

static double cores_ns(const struct cores *c, double ticks) { return ticks * 1e9 / (double)c->hz; }

static void cores_print_tsc(struct cores *c)
{
    uint32_t b = c->mi.bsp;
    out_printf("cores: TSC of every CPU against CPU %u: warp check (%u lock turns each), offset from "
               "%u round trips each way, rate against the %s (median of %u windows of %u ms)\n", b,
               CORES_WARP_LOOPS, CORES_PING_SAMPLES, c->ref_name, CORES_RATE_WINDOWS, CORES_RATE_WINDOW_MS);
    out_printf("  CPU  warp: largest step back  offset ticks (+-)      offset ns (+-)     "
               "rate MHz       vs CPU %u ppm (+-)\n", b);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        char rate[64] = "-", warp[40] = "-", off[48] = "-", offns[48] = "-";
        if (!t->rate.failed && t->rate.hz > 0 && n == b)
            snprintf(rate, sizeof rate, "%12.6f  (reference)", t->rate.hz / 1e6);
        else if (!t->rate.failed && t->rate.hz > 0)
            snprintf(rate, sizeof rate, "%12.6f  %+9.2f (%.2f)", t->rate.hz / 1e6, t->rate_ppm,
                     t->rate_unc_ppm);
        if (n == b) {
            snprintf(warp, sizeof warp, "(reference)");
        } else if (t->measured) {
            snprintf(warp, sizeof warp, "%llu ticks (%llu of %llu)",
                     (unsigned long long)t->warp_max_back, (unsigned long long)t->warp_backs,
                     (unsigned long long)t->warp_loops);
            snprintf(off, sizeof off, "%+.1f (%.1f)%s", t->skew_ticks, t->skew_unc_ticks,
                     t->skew_consistent ? "" : " EMPTY");
            snprintf(offns, sizeof offns, "%+.1f (%.1f)", cores_ns(c, t->skew_ticks),
                     cores_ns(c, t->skew_unc_ticks));
        }
        out_printf("  %3u  %-24s  %-21s  %-17s  %s\n", n, warp, off, offns, rate);
        if (t->fail.failed)
            out_printf("       CPU %u: %s\n", n, t->fail.why);
    }
}

/* LAVA cases of CPU n's TSC (bench/lava.h): offset and rate against the
 * BSP, fail when a warning was given for them. */
static void cores_lava_tsc(const struct cores *c, uint32_t n, int offset_bad, int rate_bad)
{
    const struct cores_tsc *t = &c->cpu[n].tsc;
    if (n == c->mi.bsp)
        return;
    if (t->fail.failed) {
        lava_casef(LAVA_FAIL, NAN, NULL, "cores_cpu%u_tsc_offset_ns", n);
        lava_casef(LAVA_FAIL, NAN, NULL, "cores_cpu%u_tsc_rate_ppm", n);
        return;
    }
    if (t->measured)
        lava_casef(offset_bad ? LAVA_FAIL : LAVA_PASS, cores_ns(c, t->skew_ticks), "ns",
                   "cores_cpu%u_tsc_offset_ns", n);
    else
        lava_casef(LAVA_SKIP, NAN, NULL, "cores_cpu%u_tsc_offset_ns", n);
    if (!t->rate.failed && t->rate.hz > 0)
        lava_casef(rate_bad ? LAVA_FAIL : LAVA_PASS, t->rate_ppm, "ppm", "cores_cpu%u_tsc_rate_ppm", n);
    else
        lava_casef(LAVA_SKIP, NAN, NULL, "cores_cpu%u_tsc_rate_ppm", n);
}

static void cores_warn_tsc(struct cores *c)
{
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        int before = c->warnings, offset_bad = 0;
        if (t->fail.failed) {
            out_warn("cores: CPU %u: TSC check not done: %s", n, t->fail.why);
            c->warnings++;
            cores_lava_tsc(c, n, 1, 1);
            continue;
        }
        if (n != c->mi.bsp && t->measured) {
            if (t->warp_max_back) {
                out_warn("cores: CPU %u: the TSC stepped back by up to %llu ticks against CPU %u "
                         "(%llu times): the TSCs are not synchronised", n,
                         (unsigned long long)t->warp_max_back, c->mi.bsp,
                         (unsigned long long)t->warp_backs);
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
        offset_bad = c->warnings != before;
        if (n != c->mi.bsp && !t->rate.failed && t->rate.hz > 0
            && fabs(t->rate_ppm) - t->rate_unc_ppm > CORES_RATE_BOUND_PPM) {
            out_warn("cores: CPU %u: TSC rate %.6f MHz is %+.1f ppm (+- %.1f) from CPU %u's, beyond "
                     "%.0f ppm", n, t->rate.hz / 1e6, t->rate_ppm, t->rate_unc_ppm, c->mi.bsp,
                     CORES_RATE_BOUND_PPM);
            c->warnings++;
        }
        cores_lava_tsc(c, n, offset_bad, c->warnings != before + offset_bad);
    }
}

/* ---- 3. cache-line round trips --------------------------------------------------------- */

static void cores_latency(struct cores *c)
{
    uint32_t s = CORES_BOUNCE_SAMPLES;
    uint64_t *ticks = plat_alloc(s * sizeof *ticks);
    size_t cells = (size_t)c->nsel * c->nsel;
    c->lat_min = plat_alloc(cells * sizeof *c->lat_min);
    c->lat_med = plat_alloc(cells * sizeof *c->lat_med);
    static struct cores_bounce_shared sh;
    if (!ticks || !c->lat_min || !c->lat_med) {
        c->lat_fail.failed = 1;
        snprintf(c->lat_fail.why, sizeof c->lat_fail.why, "no memory for the matrix");
        plat_free(ticks);
        return;
    }
    memset(c->lat_min, 0, cells * sizeof *c->lat_min);
    memset(c->lat_med, 0, cells * sizeof *c->lat_med);
    quiet_phase_begin();
    for (uint32_t i = 0; i < c->nsel; i++)
        for (uint32_t j = i + 1; j < c->nsel; j++) {
            uint32_t a = c->order[i], b = c->order[j];
            if (!cores_alive(c, a) || !cores_alive(c, b))
                continue;
            memset((void *)&sh, 0, sizeof sh);
            sh.start.parties = 2;
            sh.start.deadline_ticks = c->timeout_ticks;
            sh.samples = s;
            sh.trips = CORES_BOUNCE_TRIPS;
            sh.sample_ticks = ticks;
            struct cores_bounce_side sa = { &sh, 1 }, sb = { &sh, 0 };
            struct cores_fail fa = { 0, "" }, fb = { 0, "" };
            struct cores_task t[2] = { { a, cores_bounce, &sa, &fa, 0 }, { b, cores_bounce, &sb, &fb, 0 } };
            if (cores_group(c, t, 2, c->timeout_ticks) || sa.timed_out || sb.timed_out)
                continue;                 /* the cell stays 0: not measured */
            double med = cores_median_u64(ticks, s);   /* sorts: ticks[0] is the minimum */
            uint64_t mn = (ticks[0] + CORES_BOUNCE_TRIPS / 2) / CORES_BOUNCE_TRIPS;
            uint64_t md = (uint64_t)(med / CORES_BOUNCE_TRIPS + 0.5);
            c->lat_min[i * c->nsel + j] = c->lat_min[j * c->nsel + i] = mn ? mn : 1;
            c->lat_med[i * c->nsel + j] = c->lat_med[j * c->nsel + i] = md ? md : 1;
        }
    quiet_phase_end_add(&c->qt);
    plat_free(ticks);
    c->lat_measured = 1;
}

static void cores_print_latency(struct cores *c)
{
    uint32_t missing = 0;
    out_printf("cores: cache-line round trip between CPUs, min/median ns (%u samples of %u round "
               "trips per pair)\n     ", CORES_BOUNCE_SAMPLES, CORES_BOUNCE_TRIPS);
    for (uint32_t j = 0; j < c->nsel; j++)
        out_printf(" %11u", c->order[j]);
    out_printf("\n");
    for (uint32_t i = 0; i < c->nsel; i++) {
        out_printf("  %3u", c->order[i]);
        for (uint32_t j = 0; j < c->nsel; j++) {
            uint64_t mn = c->lat_min[i * c->nsel + j], md = c->lat_med[i * c->nsel + j];
            if (i == j) {
                out_printf(" %11s", "-");
            } else if (!mn) {
                out_printf(" %11s", "n/a");
                missing++;
            } else {
                char cell[32];
                snprintf(cell, sizeof cell, "%.0f/%.0f", cores_ns(c, (double)mn), cores_ns(c, (double)md));
                out_printf(" %11s", cell);
            }
        }
        out_printf("\n");
    }
    /* LAVA cases after the table (their lines must not split its rows) */
    for (uint32_t i = 0; i < c->nsel; i++)
        for (uint32_t j = i + 1; j < c->nsel; j++) {
            uint64_t md = c->lat_med[i * c->nsel + j];
            lava_casef(md ? LAVA_PASS : LAVA_FAIL, md ? cores_ns(c, (double)md) : NAN, "ns",
                       "cores_latency_cpu%u_cpu%u_ns", c->order[i], c->order[j]);
        }
    if (missing) {
        out_warn("cores: %u cells of the latency matrix were not measured (a CPU did not answer)",
                 missing / 2);
        c->warnings++;
    }
}

/* ---- 4. BYTEmark on each CPU, then on all at once --------------------------------------- */

struct cores_score_arg {
    struct bytemark_core_job *job;
    const char *inject;
    struct cores_sync *start;       /* all cores: begin together */
};

static long cores_score_fn(void *arg)
{
    struct cores_score_arg *a = arg;
    if (a->inject)
        cores_inject((void *)a->inject);
    if (a->start) {
        /* a partner that never comes only delays the start */
        uint64_t deadline = rdtsc() + a->start->deadline_ticks;
        __atomic_fetch_add(&a->start->arrived, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&a->start->arrived, __ATOMIC_ACQUIRE) < a->start->parties
               && rdtsc() < deadline)
            __asm__ volatile("pause");
    }
    return bytemark_core_test(a->job) == BM_OK ? 0 : 1;
}

static void cores_job_init(struct cores *c, struct bytemark_core_job *j, enum bm_test_id id)
{
    memset(j, 0, sizeof *j);
    j->cfg = c->cfg;
    j->id = id;
    j->profile = c->cfg->profile == BM_PROFILE_FULL ? BM_PROFILE_FULL : BM_PROFILE_QUICK;
    j->hz = c->hz;
}

static const char *cores_bm_status(const struct cores_score *s)
{
    if (!s->ran)
        return "not_run";
    if (s->fail.failed)
        return "failed_fault";
    switch (s->job.status) {
    case BM_OK: return "ok";
    case BM_ENOMEM: return "skipped_nomem";
    case BM_ECAP: return "failed_cap";
    default: return "failed";
    }
}

static void cores_scores(struct cores *c)
{
    struct cores_score_arg *args = plat_alloc(c->nsel * sizeof *args);
    struct cores_task *tasks = plat_alloc(c->nsel * sizeof *tasks);
    if (!args || !tasks || mp_arena_reserve(&c->mi, c->sel, CORES_ARENA_BYTES)) {
        out_warn("cores: no memory for the per-core BYTEmark runs; skipped");
        c->warnings++;
        plat_free(args);
        plat_free(tasks);
        return;
    }
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        c->cpu[n].inject = n == c->mi.bsp ? NULL : c->cpu[n].inject;
    }
    /* each CPU in turn */
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            struct cores_score *s = &c->cpu[n].score[id];
            if (!cores_alive(c, n))
                continue;
            cores_job_init(c, &s->job, (enum bm_test_id)id);
            args[k].job = &s->job;
            args[k].inject = c->cpu[n].inject;
            args[k].start = NULL;
            c->cpu[n].inject = NULL;         /* one fault per CPU */
            s->ran = 1;
            quiet_phase_begin();
            cores_one(c, n, cores_score_fn, &args[k], &s->fail, c->timeout_ticks);
            quiet_phase_end_add(&c->qt);
        }
    }
    /* all at once */
    static struct cores_sync start;
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        uint32_t m = 0;
        memset((void *)&start, 0, sizeof start);
        start.deadline_ticks = c->timeout_ticks;
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            struct cores_score *s = &c->cpu[n].all[id];
            if (!cores_alive(c, n))
                continue;
            cores_job_init(c, &s->job, (enum bm_test_id)id);
            s->ran = 1;
            args[m].job = &s->job;
            args[m].inject = NULL;
            args[m].start = &start;
            tasks[m] = (struct cores_task){ n, cores_score_fn, &args[m], &s->fail, 0 };
            m++;
        }
        start.parties = m;
        quiet_phase_begin();
        cores_group(c, tasks, m, c->timeout_ticks);
        quiet_phase_end_add(&c->qt);
    }
    mp_arena_release();
    plat_free(args);
    plat_free(tasks);
}

/* Sum over the CPUs that ran test id at once; ratio to the mean of their
 * own per-core scores.  Returns the number of CPUs that counted. */
static uint32_t cores_all_sum(const struct cores *c, int id, double *sum, double *ratio)
{
    double one = 0;
    uint32_t m = 0, m1 = 0;
    *sum = 0;
    for (uint32_t k = 0; k < c->nsel; k++) {
        const struct cores_cpu *p = &c->cpu[c->order[k]];
        if (!p->all[id].ran || p->all[id].fail.failed || p->all[id].job.status != BM_OK)
            continue;
        *sum += p->all[id].job.mean;
        m++;
        if (p->score[id].ran && !p->score[id].fail.failed && p->score[id].job.status == BM_OK) {
            one += p->score[id].job.mean;
            m1++;
        }
    }
    *ratio = m1 && one > 0 ? *sum / (one / m1) : 0;
    return m;
}

static void cores_print_scores(struct cores *c)
{
    const char *prof = c->cfg->profile == BM_PROFILE_FULL ? "full" : "quick";
    out_printf("cores: BYTEmark on each CPU in turn (%s profile), mean and 95%% half-interval\n  CPU", prof);
    for (int id = 0; id < BM_NTESTS; id++)
        if (c->tests & (1u << id))
            out_printf("  %-26s", bytemark_kernel((enum bm_test_id)id)->name);
    out_printf("\n");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        out_printf("  %3u", n);
        for (int id = 0; id < BM_NTESTS; id++) {
            if (!(c->tests & (1u << id)))
                continue;
            const struct cores_score *s = &c->cpu[n].score[id];
            char cell[40];
            if (s->ran && !s->fail.failed && s->job.status == BM_OK)
                snprintf(cell, sizeof cell, "%.5g +-%.1f%%", s->job.mean, 100 * s->job.rel_half);
            else
                snprintf(cell, sizeof cell, "%s", cores_bm_status(s));
            out_printf("  %-26s", cell);
        }
        out_printf("\n");
    }
    /* LAVA cases after the table (their lines must not split its rows) */
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        for (int id = 0; id < BM_NTESTS; id++) {
            const struct cores_score *s = &c->cpu[n].score[id];
            const struct bm_kernel *ki = bytemark_kernel((enum bm_test_id)id);
            if (!(c->tests & (1u << id)))
                continue;
            if (s->ran && !s->fail.failed && s->job.status == BM_OK)
                lava_casef(LAVA_PASS, s->job.mean, ki->unit, "cores_cpu%u_%s", n, ki->key);
            else
                lava_casef(s->ran ? LAVA_FAIL : LAVA_SKIP, NAN, NULL, "cores_cpu%u_%s", n, ki->key);
        }
    }
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        for (int id = 0; id < BM_NTESTS; id++) {
            const struct cores_score *s = &c->cpu[n].score[id];
            if (!s->ran || (!s->fail.failed && s->job.status == BM_OK))
                continue;
            out_warn("cores: CPU %u: %s %s%s%s", n, bytemark_kernel((enum bm_test_id)id)->name,
                     s->fail.failed ? "stopped: " : "did not complete: ",
                     s->fail.failed ? s->fail.why : cores_bm_status(s), "");
            c->warnings++;
        }
    }
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        double sum, ratio;
        uint32_t m = cores_all_sum(c, id, &sum, &ratio);
        out_printf("cores: %s on %u CPU%s at once: sum %.5g %s, %.2f times one core\n",
                   bytemark_kernel((enum bm_test_id)id)->name, m, m == 1 ? "" : "s", sum,
                   bytemark_kernel((enum bm_test_id)id)->unit, ratio);
        lava_casef(m ? LAVA_PASS : LAVA_FAIL, m ? sum : NAN, bytemark_kernel((enum bm_test_id)id)->unit,
                   "cores_all_%s_sum", bytemark_kernel((enum bm_test_id)id)->key);
        lava_casef(m ? LAVA_PASS : LAVA_FAIL, m ? ratio : NAN, "ratio", "cores_all_%s_ratio",
                   bytemark_kernel((enum bm_test_id)id)->key);
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            const struct cores_score *s = &c->cpu[n].all[id];
            if (s->ran && (s->fail.failed || s->job.status != BM_OK)) {
                out_warn("cores: CPU %u: %s with all CPUs: %s", n,
                         bytemark_kernel((enum bm_test_id)id)->name,
                         s->fail.failed ? s->fail.why : cores_bm_status(s));
                c->warnings++;
            }
        }
    }
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void cores_json_fail(struct json_writer *w, const char *key, const struct cores_fail *f)
{
    if (f->failed)
        json_str(w, key, f->why);
}

static void cores_json_score(struct json_writer *w, const struct cores_score *s, enum bm_test_id id)
{
    const struct bm_kernel *k = bytemark_kernel(id);
    json_obj_begin(w, NULL);
    json_str(w, "key", k->key);
    json_str(w, "status", cores_bm_status(s));
    cores_json_fail(w, "why", &s->fail);
    if (s->ran && !s->fail.failed) {
        json_str(w, "unit", k->unit);
        json_double(w, "min_seconds", s->job.min_seconds);
        json_u64(w, "workload", s->job.workload);
        json_arr_begin(w, "scores");
        for (size_t i = 0; i < s->job.runs; i++)
            json_double(w, NULL, s->job.scores[i]);
        json_arr_end(w);
    }
    if (s->ran && !s->fail.failed && s->job.status == BM_OK) {
        json_u64(w, "runs", s->job.runs);
        json_double(w, "mean", s->job.mean);
        json_double(w, "sd", s->job.sd);
        json_double(w, "half", s->job.half);
        json_double(w, "rel_half", s->job.rel_half);
        json_bool(w, "certain", s->job.certain);
    }
    json_obj_end(w);
}

static void cores_json_cpu(struct json_writer *w, const struct cores *c, uint32_t n)
{
    const struct mp_cpu *m = &c->mi.cpu[n];
    const struct cores_cpu *p = &c->cpu[n];
    char t[8];
    json_obj_begin(w, NULL);
    json_u64(w, "number", n);
    json_u64(w, "apic_id", m->apic_id);
    json_bool(w, "bsp", n == c->mi.bsp);
    json_bool(w, "enabled", (m->flags & MP_FLAG_ENABLED) != 0);
    json_bool(w, "healthy", (m->flags & MP_FLAG_HEALTHY) != 0);
    json_bool(w, "selected", p->selected);
    json_str(w, "state", cores_worker_text(c, n));
    cores_json_fail(w, "why", &p->fail);
    json_obj_begin(w, "firmware");
    json_u64(w, "package", m->package);
    json_u64(w, "core", m->core);
    json_u64(w, "thread", m->thread);
    if (m->has_location2) {
        json_u64(w, "module", m->module);
        json_u64(w, "tile", m->tile);
        json_u64(w, "die", m->die);
    }
    json_obj_end(w);
    if (p->id.read) {
        json_obj_begin(w, "cpuid");
        json_u64(w, "leaf", p->id.topo_leaf);
        json_u64(w, "initial_apic_id", p->id.leaf1_ebx >> 24);
        json_u64(w, "signature", p->id.leaf1_eax);
        if (p->topo.valid) {
            json_u64(w, "x2apic_id", p->topo.apic_id);
            json_u64(w, "smt_bits", p->topo.smt_bits);
            json_u64(w, "core_bits", p->topo.core_bits);
            json_u64(w, "package", p->topo.package);
            json_u64(w, "core", p->topo.core);
            json_u64(w, "thread", p->topo.thread);
        }
        json_bool(w, "hybrid", p->id.hybrid);
        json_str(w, "core_type", cores_type_name(p->topo.core_type, t, sizeof t));
        json_obj_end(w);
    } else {
        json_null(w, "cpuid");
    }
    json_obj_end(w);
}

static void cores_json_tsc(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "tsc");
    json_str(w, "reference", c->ref_name);
    json_u64(w, "reference_cpu", c->mi.bsp);
    json_u64(w, "warp_loops", CORES_WARP_LOOPS);
    json_u64(w, "round_trips_each_way", CORES_PING_SAMPLES);
    json_u64(w, "rate_window_ms", CORES_RATE_WINDOW_MS);
    json_u64(w, "rate_windows", CORES_RATE_WINDOWS);
    json_double(w, "skew_bound_ns", CORES_SKEW_BOUND_NS);
    json_double(w, "rate_bound_ppm", CORES_RATE_BOUND_PPM);
    json_arr_begin(w, "cpus");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        const struct cores_tsc *t = &c->cpu[n].tsc;
        json_obj_begin(w, NULL);
        json_u64(w, "cpu", n);
        cores_json_fail(w, "why", &t->fail);
        if (t->measured && n != c->mi.bsp) {
            json_u64(w, "warp_max_back_ticks", t->warp_max_back);
            json_u64(w, "warp_backs", t->warp_backs);
            json_u64(w, "warp_turns", t->warp_loops);
            json_u64(w, "offset_samples", t->bounds.samples);
            json_i64(w, "offset_lo_ticks", t->bounds.lo);
            json_i64(w, "offset_hi_ticks", t->bounds.hi);
            json_u64(w, "min_round_trip_ticks", t->bounds.min_rtt);
            json_bool(w, "offset_consistent", t->skew_consistent);
            json_double(w, "offset_ticks", t->skew_ticks);
            json_double(w, "offset_uncertainty_ticks", t->skew_unc_ticks);
            json_double(w, "offset_ns", cores_ns(c, t->skew_ticks));
            json_double(w, "offset_uncertainty_ns", cores_ns(c, t->skew_unc_ticks));
        }
        if (!t->rate.failed && t->rate.hz > 0) {
            json_double(w, "rate_hz", t->rate.hz);
            json_u64(w, "rate_tsc_ticks", t->rate.tsc_ticks);
            json_u64(w, "rate_ref_ticks", t->rate.ref_ticks);
            json_u64(w, "rate_edge_ticks", t->rate.edge_width);
            if (n != c->mi.bsp) {
                json_double(w, "rate_ppm", t->rate_ppm);
                json_double(w, "rate_uncertainty_ppm", t->rate_unc_ppm);
            }
        }
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void cores_json_matrix(struct json_writer *w, const struct cores *c, const char *key,
                              const uint64_t *m, int ns)
{
    json_arr_begin(w, key);
    for (uint32_t i = 0; i < c->nsel; i++) {
        json_arr_begin(w, NULL);
        for (uint32_t j = 0; j < c->nsel; j++) {
            uint64_t v = m[i * c->nsel + j];
            if (i == j || !v)
                json_null(w, NULL);
            else if (ns)
                json_double(w, NULL, cores_ns(c, (double)v));
            else
                json_u64(w, NULL, v);
        }
        json_arr_end(w);
    }
    json_arr_end(w);
}

static void cores_json_latency(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "latency");
    json_u64(w, "samples", CORES_BOUNCE_SAMPLES);
    json_u64(w, "round_trips_per_sample", CORES_BOUNCE_TRIPS);
    cores_json_fail(w, "why", &c->lat_fail);
    json_arr_begin(w, "cpus");
    for (uint32_t k = 0; k < c->nsel; k++)
        json_u64(w, NULL, c->order[k]);
    json_arr_end(w);
    if (c->lat_min && c->lat_med && !c->lat_fail.failed) {
        cores_json_matrix(w, c, "min_ticks", c->lat_min, 0);
        cores_json_matrix(w, c, "median_ticks", c->lat_med, 0);
        cores_json_matrix(w, c, "min_ns", c->lat_min, 1);
        cores_json_matrix(w, c, "median_ns", c->lat_med, 1);
    }
    json_obj_end(w);
}

static void cores_json_scores(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "scores");
    json_str(w, "profile", c->cfg->profile == BM_PROFILE_FULL ? "full" : "quick");
    json_arr_begin(w, "tests");
    for (int id = 0; id < BM_NTESTS; id++)
        if (c->tests & (1u << id))
            json_str(w, NULL, bytemark_kernel((enum bm_test_id)id)->key);
    json_arr_end(w);
    json_arr_begin(w, "per_core");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        json_obj_begin(w, NULL);
        json_u64(w, "cpu", n);
        json_arr_begin(w, "tests");
        for (int id = 0; id < BM_NTESTS; id++)
            if (c->tests & (1u << id))
                cores_json_score(w, &c->cpu[n].score[id], (enum bm_test_id)id);
        json_arr_end(w);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_arr_begin(w, "all_cores");
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        double sum, ratio;
        uint32_t m = cores_all_sum(c, id, &sum, &ratio);
        json_obj_begin(w, NULL);
        json_str(w, "key", bytemark_kernel((enum bm_test_id)id)->key);
        json_u64(w, "cpus", m);
        json_double(w, "sum", sum);
        json_double(w, "ratio_to_one_core", ratio);
        json_arr_begin(w, "per_cpu");
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            json_obj_begin(w, NULL);
            json_u64(w, "cpu", n);
            const struct cores_score *s = &c->cpu[n].all[id];
            json_str(w, "status", cores_bm_status(s));
            cores_json_fail(w, "why", &s->fail);
            if (s->ran && !s->fail.failed && s->job.status == BM_OK) {
                json_u64(w, "runs", s->job.runs);
                json_double(w, "mean", s->job.mean);
                json_double(w, "rel_half", s->job.rel_half);
            }
            json_obj_end(w);
        }
        json_arr_end(w);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void cores_json(const struct cores *c)
{
    struct json_writer *w = results_section_begin("cores", 0);
    json_bool(w, "mp_services", c->mi.present);
    if (c->mi.why && c->mi.why[0])
        json_str(w, "note", c->mi.why);
    json_u64(w, "count", c->mi.present ? c->mi.count : 1);
    json_u64(w, "enabled", c->mi.present ? c->mi.enabled : 1);
    json_u64(w, "bsp", c->mi.bsp);
    if (c->ai)
        json_u64(w, "madt_cpus", c->ai->madt_cpus);
    json_u64(w, "tick_hz", c->hz);
    json_str(w, "cores_setting", c->cfg->cores_list);
    json_arr_begin(w, "selected");
    for (uint32_t k = 0; k < c->nsel; k++)
        json_u64(w, NULL, c->order[k]);
    json_arr_end(w);
    json_bool(w, "tsc_measured", (c->parts & BM_SMP_TSC) != 0);
    json_bool(w, "latency_measured", (c->parts & BM_SMP_LATENCY) != 0);
    json_bool(w, "scores_measured", (c->parts & BM_SMP_SCORES) != 0);
    json_arr_begin(w, "cpus");
    if (c->mi.present && c->cpu)
        for (uint32_t n = 0; n < c->mi.count; n++)
            cores_json_cpu(w, c, n);
    json_arr_end(w);
    if (c->parts & BM_SMP_TSC)
        cores_json_tsc(w, c);
    if (c->parts & BM_SMP_LATENCY)
        cores_json_latency(w, c);
    if (c->parts & BM_SMP_SCORES)
        cores_json_scores(w, c);
    json_u64(w, "warnings", (uint64_t)c->warnings);
    quiet_phase_totals_json(w, "quiet_phases", &c->qt);
    results_section_end();
}

/* ---- the section ----------------------------------------------------------------------- */

static int cores_select(struct cores *c)
{
    const char *why = "";
    const char *list = c->cfg->cores_list;
    uint32_t n = c->mi.count;
    c->sel = plat_alloc(n);
    c->order = plat_alloc(n * sizeof *c->order);
    c->cpu = plat_alloc(n * sizeof *c->cpu);
    if (!c->sel || !c->order || !c->cpu)
        return -1;
    memset(c->cpu, 0, n * sizeof *c->cpu);
    if (cores_list_parse(list, c->sel, n, &why)) {
        out_warn("cores: CORES=%s: %s; all CPUs are used", list, why);
        c->warnings++;
        memset(c->sel, 1, n);
    } else if (strcmp(list, "all") && cores_list_max(list) >= n) {
        out_warn("cores: CORES=%s names CPU %u, but there are %u (0..%u): the others are used", list,
                 cores_list_max(list), n, n - 1);
        c->warnings++;
    }
    c->nsel = 0;
    c->sel[c->mi.bsp] = 1;        /* the reference and the driver: always in */
    for (uint32_t i = 0; i < n; i++) {
        if (c->sel[i] && !(c->mi.cpu[i].flags & MP_FLAG_ENABLED) && i != c->mi.bsp)
            c->sel[i] = 0;
        c->cpu[i].selected = c->sel[i];
        if (c->sel[i])
            c->order[c->nsel++] = i;
    }
    return 0;
}

/* INJECTIN=cores:cpuN with INJECTFAULT=divide|opcode|page|hang: into AP
 * N's first BYTEmark test, so only when the scores run (otherwise the run's
 * end says the fault went nowhere). */
static void cores_injections(struct cores *c)
{
    if (!(c->parts & BM_SMP_SCORES))
        return;
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        char key[32];
        snprintf(key, sizeof key, "cores:cpu%u", n);
        if (n == c->mi.bsp)
            continue;          /* not taken: the run's end warns it went nowhere */
        const char *kind = run_fault_take(key);
        if (!kind)
            continue;
        c->cpu[n].inject = kind;
        out_printf("fault injection: %s %s on CPU %u's first BYTEmark test (INJECTFAULT setting)\n",
                   kind, strcmp(kind, "hang") ? "fault" : "(stops answering)", n);
    }
}

static void cores_single(struct cores *c, const char *why)
{
    out_printf("cores: one logical CPU in use (%s): the run goes on on the bootstrap processor alone\n",
               why);
    cores_json(c);
}

static void cores_start_workers(struct cores *c)
{
    uint32_t want = 0;
    for (uint32_t k = 0; k < c->nsel; k++)
        want += c->order[k] != c->mi.bsp;
    uint32_t ready = mp_workers_start(&c->mi, c->sel, CORES_STACK_BYTES, c->hz * CORES_ANSWER_S);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        enum mp_worker_state s = mp_worker_state(n);
        if (n == c->mi.bsp || s == MP_W_READY)
            continue;
        c->cpu[n].fail.failed = 1;
        if (s == MP_W_REFUSED)
            snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why,
                     "StartupThisAP refused the work (EFI status 0x%llx)",
                     (unsigned long long)mp_worker_status(n));
        else
            snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why,
                     "did not start its work within %u s: left alone", CORES_ANSWER_S);
        out_warn("cores: CPU %u %s", n, c->cpu[n].fail.why);
        c->warnings++;
    }
    out_printf("cores: %u of %u application processors answered and wait with interrupts masked\n",
               ready, want);
}

int cores_run(const struct section_ctx *ctx)
{
    static struct cores c;
    const struct bm_config *cfg = ctx->cfg;
    const struct acpi_info *ai = ctx->acpi;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.ai = ai;
    c.hz = plat_tick_hz();
    c.parts = cfg->smp_parts & BM_SMP_ALL;
    c.tests = cfg->smp_tests ? cfg->smp_tests : CORES_DEFAULT_TESTS;
    c.timeout_ticks = c.hz * (cfg->smp_timeout ? cfg->smp_timeout : CORES_DEFAULT_TIMEOUT_S);
    quiet_phase_totals_init(&c.qt);
    out_printf("\n");
    if (!c.hz) {
        out_warn("cores: the TSC frequency is unknown (the clock section did not run): section skipped");
        return SECTION_WARNINGS;
    }
    if (mp_init(&c.mi)) {
        cores_single(&c, c.mi.why);
        return SECTION_OK;
    }
    if (cores_select(&c)) {
        out_warn("cores: no memory for the list of CPUs; section skipped");
        return SECTION_WARNINGS;
    }
    if (c.mi.count == 1) {
        cores_probe_all(&c);
        c.parts = 0;
        cores_single(&c, "the firmware's MP Services list one");
        return SECTION_OK;
    }
    out_printf("cores: %u logical CPUs (%u enabled) through the firmware's MP Services; bootstrap "
               "processor CPU %u; ACPI MADT lists %u; selected (CORES=%s): %u\n", c.mi.count,
               c.mi.enabled, c.mi.bsp, ai ? ai->madt_cpus : 0, cfg->cores_list, c.nsel);
    if (c.mi.why[0])
        out_printf("cores: note: %s\n", c.mi.why);
    if (c.nsel <= 1) {
        cores_probe_all(&c);
        cores_print_list(&c);
        c.parts = 0;
        cores_single(&c, "CORES selects only the bootstrap processor");
        return c.warnings ? SECTION_WARNINGS : SECTION_OK;
    }
    cores_injections(&c);
    cores_start_workers(&c);
    cores_probe_all(&c);
    cores_print_list(&c);
    if (c.parts & BM_SMP_TSC) {
        cores_tsc_all(&c);
        cores_print_tsc(&c);
        cores_warn_tsc(&c);
    }
    if (c.parts & BM_SMP_LATENCY) {
        cores_latency(&c);
        if (c.lat_measured)
            cores_print_latency(&c);
    }
    if (c.parts & BM_SMP_SCORES) {
        cores_scores(&c);
        cores_print_scores(&c);
    }
    mp_workers_stop(c.hz * CORES_ANSWER_S);
    quiet_phase_totals_print("cores", &c.qt);
    cores_json(&c);
    return c.warnings ? SECTION_WARNINGS : SECTION_OK;
}
