/*
 * kernel/clock.c - the clock section: the TSC against every reference (see
 * clock.h for the steps and the order of trust).  The model is Linux's
 * arch/x86/kernel/tsc.c: each reference read bracketed by TSC reads, slow
 * reads retried, the tightest window kept.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acpi.h"
#include "clock.h"
#include "clock_math.h"
#include "config.h"
#include "cpu.h"
#include "hpet.h"
#include "json.h"
#include "out.h"
#include "pit.h"
#include "pmtimer.h"
#include "quiet.h"
#include "results.h"
#include "run.h"
#include "sections.h"
#include "trap.h"

/* ---- constants ----------------------------------------------------------------- */

enum clock_ref_id { REF_HPET, REF_PM, REF_PIT, REF_CPUID15, REF_CPUID16, CLOCK_NREFS };

/* Bracketed reads to find the cost of one read of a reference. */
#define CLOCK_PROBE_READS   64
/* An edge is bracketed by two reads; wider than this many times the
 * narrowest possible (two of the cheapest reads) it was disturbed.  Linux
 * uses ten times the smallest delta for the same test. */
#define CLOCK_SLOW_FACTOR   8
/* Reads to wait for one edge (even the PIT moves within a few reads). */
#define CLOCK_EDGE_READS    100000
/* Slow edges retried before a window is given up. */
#define CLOCK_EDGE_RETRIES  50
/* The refined window runs this much past CLOCK_REFINED_MS by the rough
 * frequency, so it lasts CLOCK_REFINED_MS by every reference. */
#define CLOCK_REFINED_MARGIN 1.02
/* Refined windows tried at most (a second one only if the first failed
 * somewhere and the budget allows). */
#define CLOCK_REFINED_TRIES 2
/* A gap between two reads longer than this part of the counter's wrap
 * period could hide a whole wrap: the window is dropped. */
#define CLOCK_WRAP_SAFETY   0.25
/* Windows kept per reference. */
#define CLOCK_MAX_WINDOWS   (CLOCK_SHORT_WINDOWS + CLOCK_REFINED_TRIES)

/* ---- types --------------------------------------------------------------------- */

/* A measured reference's counter while calibrating. */
struct clock_counter {
    uint32_t (*read)(void *ctx);
    void *ctx;
    unsigned bits;
    int down;
    double hz;                    /* nominal counting rate */
    uint32_t last;                /* last raw value */
    uint64_t total;               /* ticks since the first read (unwrapped) */
    uint64_t prev_before;         /* TSC before the previous read */
    uint64_t max_gap;             /* widest span of two consecutive reads */
    uint64_t read_min;            /* cheapest bracketed read, TSC ticks */
    uint64_t slow_limit;          /* widest acceptable edge interval */
    uint64_t slow_edges;          /* edges retried for a slow read */
};

struct clock_edge { uint64_t lo, hi, ticks; };

struct clock_ref {
    const char *name;
    int measured;                 /* a counter (else a CPUID statement) */
    int present;                  /* found and counting / stated */
    char why[96];                 /* why absent, or why it gave no result */
    struct clock_counter c;
    struct clockm_window win[CLOCK_MAX_WINDOWS];
    int refined[CLOCK_MAX_WINDOWS];
    size_t nwin;
    uint64_t windows_failed;      /* windows given up (edges, wrap safety) */
    int best;                     /* window used, -1 = none */
    int valid;
    double khz, ppm;
    const char *stated_from;      /* for CPUID: what the figure is */
};

struct clock_state {
    struct clock_ref ref[CLOCK_NREFS];
    struct hpet hpet;
    struct pmtimer pm;
    int pit_running;
    int hpet_started;             /* the HPET was halted: started, halted after */
    struct quiet_phase_report phase;
    uint64_t t_start, t_end;      /* TSC at the start and end of calibration */
    double refined_ms;            /* length of the last refined window, by its reference */
    int chosen, contested;
    double chosen_khz;
};

/* ---- private functions ------------------------------------------------------------ */

static const char *const clock_names[CLOCK_NREFS] = {
    [REF_HPET] = "hpet", [REF_PM] = "pm_timer", [REF_PIT] = "pit",
    [REF_CPUID15] = "cpuid_15", [REF_CPUID16] = "cpuid_16",
};

/* The TSC, ordered against the reads around it (lfence: earlier loads
 * done before, later ones not started). */
static inline uint64_t clock_tsc(void)
{
    uint64_t t;
    __asm__ volatile("lfence" ::: "memory");
    t = rdtsc();
    __asm__ volatile("lfence" ::: "memory");
    return t;
}

static uint32_t clock_read_pit(void *ctx) { (void)ctx; return pit_read(); }
static uint32_t clock_read_hpet(void *ctx) { return hpet_read(ctx); }
static uint32_t clock_read_pm(void *ctx) { return pmtimer_read(ctx); }

static void clock_why(struct clock_ref *r, const char *why)
{
    strncpy(r->why, why, sizeof r->why - 1);
    r->why[sizeof r->why - 1] = 0;
}

/* One read bracketed by TSC reads; folds the count into c->total and keeps
 * the widest span between two consecutive reads (wrap safety). */
static void clock_read(struct clock_counter *c, uint64_t *before, uint64_t *after)
{
    uint64_t a = clock_tsc();
    uint32_t v = c->read(c->ctx);
    uint64_t b = clock_tsc();

    c->total += clockm_counter_delta(c->last, v, c->bits, c->down);
    c->last = v;
    if (b - c->prev_before > c->max_gap)
        c->max_gap = b - c->prev_before;
    c->prev_before = a;
    *before = a;
    *after = b;
}

/* Start counting from the current value. */
static void clock_counter_reset(struct clock_counter *c)
{
    c->last = c->read(c->ctx);
    c->total = 0;
    c->prev_before = clock_tsc();
    c->max_gap = 0;
}

/* The cost of a read: the cheapest of CLOCK_PROBE_READS, with interrupts
 * masked; the slow-read limit follows from it. */
static void clock_probe(struct clock_counter *c)
{
    unsigned long irq = cpu_irq_save();
    uint64_t a, b;

    clock_counter_reset(c);
    c->read_min = UINT64_MAX;
    for (int i = 0; i < CLOCK_PROBE_READS; i++) {
        clock_read(c, &a, &b);
        if (b - a < c->read_min)
            c->read_min = b - a;
    }
    cpu_irq_restore(irq);
    c->slow_limit = CLOCK_SLOW_FACTOR * 2 * (c->read_min ? c->read_min : 1);
}

/* Wait for the counter to step and bracket the step: the last read that saw
 * the old value started at lo, the first that saw the new one ended at hi.
 * An interval wider than slow_limit means a read was slow; that edge is
 * skipped and the next one tried.  Returns 0, or -1 after too many. */
static int clock_edge(struct clock_counter *c, struct clock_edge *e)
{
    uint64_t a0, b0, a1, b1, old;
    int slow = 0;

    clock_read(c, &a0, &b0);
    old = c->total;
    for (long i = 0; i < CLOCK_EDGE_READS; i++) {
        clock_read(c, &a1, &b1);
        if (c->total != old) {
            if (b1 - a0 <= c->slow_limit) {
                e->lo = a0;
                e->hi = b1;
                e->ticks = c->total;
                return 0;
            }
            c->slow_edges++;
            if (++slow > CLOCK_EDGE_RETRIES)
                return -1;
            old = c->total;
        }
        a0 = a1;
    }
    return -1;
}

static void clock_fill_window(struct clockm_window *w, const struct clock_counter *c,
                              const struct clock_edge *e0, const struct clock_edge *e1)
{
    memset(w, 0, sizeof *w);
    w->tsc0_lo = e0->lo;
    w->tsc0_hi = e0->hi;
    w->tsc1_lo = e1->lo;
    w->tsc1_hi = e1->hi;
    w->ref_ticks = e1->ticks - e0->ticks;
    w->ref_hz = c->hz;
    clockm_window_eval(w);
}

/* Could a gap of `gap` TSC ticks at `khz` have hidden a wrap of the counter? */
static int clock_gap_unsafe(const struct clock_counter *c, uint64_t gap, double khz)
{
    double wrap_s, gap_s;
    if (c->bits >= 64 || !(khz > 0))
        return 0;
    wrap_s = (double)(1ull << c->bits) / c->hz;
    gap_s = (double)gap / (khz * 1000);
    return gap_s > CLOCK_WRAP_SAFETY * wrap_s;
}

static void clock_keep_window(struct clock_ref *r, const struct clockm_window *w, int refined)
{
    if (r->nwin >= CLOCK_MAX_WINDOWS)
        return;
    r->win[r->nwin] = *w;
    r->refined[r->nwin] = refined;
    r->nwin++;
}

/* One short window: interrupts masked, from an edge to the first edge at
 * least `ms` of reference time later. */
static void clock_short_window(struct clock_ref *r, uint32_t ms)
{
    struct clock_counter *c = &r->c;
    uint64_t need = (uint64_t)(c->hz * ms / 1000), a, b;
    struct clock_edge e0, e1;
    struct clockm_window w;
    unsigned long irq = cpu_irq_save();
    int ok;

    clock_counter_reset(c);
    ok = clock_edge(c, &e0) == 0;
    c->max_gap = 0;
    while (ok && c->total - e0.ticks < need)
        clock_read(c, &a, &b);
    ok = ok && clock_edge(c, &e1) == 0;
    cpu_irq_restore(irq);
    if (!ok) {
        r->windows_failed++;
        return;
    }
    clock_fill_window(&w, c, &e0, &e1);
    if (clock_gap_unsafe(c, c->max_gap, w.khz)) {
        r->windows_failed++;
        return;
    }
    clock_keep_window(r, &w, 0);
}

/* Middle estimate of a reference from its windows so far (NaN when none). */
static double clock_rough_khz(const struct clock_ref *r)
{
    double k[CLOCK_MAX_WINDOWS], scratch[CLOCK_MAX_WINDOWS];
    size_t n = 0;
    for (size_t i = 0; i < r->nwin; i++)
        if (!isnan(r->win[i].khz))
            k[n++] = r->win[i].khz;
    return n ? clockm_median(k, n, scratch) : NAN;
}

/* The refined window, shared: every measured reference's first edge, then
 * reads of all of them (the PIT must be read at least every few ms to
 * count its wraps) until CLOCK_REFINED_MS have passed by the rough rate,
 * then every reference's last edge.  Returns the number of references
 * whose window failed. */
static int clock_refined_window(struct clock_state *s, double rough_khz)
{
    struct clock_edge e0[CLOCK_NREFS], e1[CLOCK_NREFS];
    int ok[CLOCK_NREFS], failed = 0;
    uint64_t a, b, t0, need;
    unsigned long irq = cpu_irq_save();

    for (int i = 0; i < CLOCK_NREFS; i++) {
        struct clock_ref *r = &s->ref[i];
        ok[i] = r->measured && r->present;
        if (!ok[i])
            continue;
        clock_counter_reset(&r->c);
        ok[i] = clock_edge(&r->c, &e0[i]) == 0;
        r->c.max_gap = 0;
    }
    t0 = clock_tsc();
    need = (uint64_t)(rough_khz * CLOCK_REFINED_MS * CLOCK_REFINED_MARGIN);
    while (clock_tsc() - t0 < need)
        for (int i = 0; i < CLOCK_NREFS; i++)
            if (ok[i])
                clock_read(&s->ref[i].c, &a, &b);
    for (int i = 0; i < CLOCK_NREFS; i++)
        if (ok[i])
            ok[i] = clock_edge(&s->ref[i].c, &e1[i]) == 0;
    cpu_irq_restore(irq);

    for (int i = 0; i < CLOCK_NREFS; i++) {
        struct clock_ref *r = &s->ref[i];
        struct clockm_window w;
        if (!r->measured || !r->present)
            continue;
        if (ok[i]) {
            clock_fill_window(&w, &r->c, &e0[i], &e1[i]);
            ok[i] = !clock_gap_unsafe(&r->c, r->c.max_gap, rough_khz);
        }
        if (!ok[i]) {
            r->windows_failed++;
            failed++;
            continue;
        }
        clock_keep_window(r, &w, 1);
        s->refined_ms = w.ms;
    }
    return failed;
}

/* ---- finding the references -------------------------------------------------------- */

static void clock_find_hpet(struct clock_state *s, const struct acpi_info *ai)
{
    struct clock_ref *r = &s->ref[REF_HPET];
    const char *why = NULL;

    if (ai->hpet == ACPI_ABSENT)
        clock_why(r, "absent (no ACPI HPET table)");
    else if (ai->hpet != ACPI_OK)
        clock_why(r, "skipped: the ACPI HPET table is invalid (bad checksum)");
    else if (!ai->hpet_base)
        clock_why(r, "skipped: the ACPI HPET table gives no base address");
    else if (hpet_open(&s->hpet, ai->hpet_base, &why) != 0)
        clock_why(r, why);
    else {
        s->hpet_started = s->hpet.was_halted;
        r->present = 1;
        r->c.read = clock_read_hpet;
        r->c.ctx = &s->hpet;
        r->c.bits = HPET_BITS;
        r->c.hz = hpet_hz(&s->hpet);
    }
}

static void clock_find_pm(struct clock_state *s, const struct acpi_info *ai)
{
    struct clock_ref *r = &s->ref[REF_PM];
    const char *why = NULL;

    if (ai->fadt == ACPI_ABSENT)
        clock_why(r, "absent (no ACPI FADT)");
    else if (ai->fadt != ACPI_OK)
        clock_why(r, "skipped: the ACPI FADT is invalid (bad checksum)");
    else if (!ai->pm_timer_port)
        clock_why(r, "absent (the FADT gives no PM timer port)");
    else if (pmtimer_open(&s->pm, ai->pm_timer_port, ai->pm_timer_32bit, &why) != 0)
        clock_why(r, why);
    else {
        r->present = 1;
        r->c.read = clock_read_pm;
        r->c.ctx = &s->pm;
        r->c.bits = s->pm.bits;
        r->c.hz = PMTIMER_HZ;
    }
}

static void clock_find_pit(struct clock_state *s)
{
    struct clock_ref *r = &s->ref[REF_PIT];

    if (pit_start() != 0) {
        clock_why(r, "absent (channel 2 does not count: no 8254, or its clock is gated off)");
        return;
    }
    s->pit_running = 1;
    r->present = 1;
    r->c.read = clock_read_pit;
    r->c.bits = PIT_BITS;
    r->c.down = 1;
    r->c.hz = PIT_HZ;
}

/* CPUID 0x15: TSC = crystal x EBX / EAX, the crystal in ECX (Hz). The
 * stated figure's own resolution is 1 Hz of crystal: that is its ppm. */
static void clock_find_cpuid15(struct clock_state *s)
{
    struct clock_ref *r = &s->ref[REF_CPUID15];
    const struct cpu_info *c = &cpu_info;

    if (c->max_leaf < 0x15)
        clock_why(r, "absent (CPUID has no leaf 0x15)");
    else if (!c->l15_eax || !c->l15_ebx)
        clock_why(r, "absent (CPUID 0x15 gives no TSC/crystal ratio)");
    else if (!c->l15_ecx)
        clock_why(r, "absent (CPUID 0x15 gives the ratio but not the crystal frequency)");
    else {
        r->present = r->valid = 1;
        r->khz = (double)c->l15_ecx * c->l15_ebx / c->l15_eax / 1000.0;
        r->ppm = 0.5 / c->l15_ecx * 1e6;
        r->stated_from = "crystal x EBX/EAX";
    }
}

/* CPUID 0x16: the base frequency in whole MHz (so +-0.5 MHz). */
static void clock_find_cpuid16(struct clock_state *s)
{
    struct clock_ref *r = &s->ref[REF_CPUID16];
    const struct cpu_info *c = &cpu_info;

    if (c->max_leaf < 0x16)
        clock_why(r, "absent (CPUID has no leaf 0x16)");
    else if (!c->l16_base_mhz)
        clock_why(r, "absent (CPUID 0x16 gives no base frequency)");
    else {
        r->present = r->valid = 1;
        r->khz = c->l16_base_mhz * 1000.0;
        r->ppm = 0.5 / c->l16_base_mhz * 1e6;
        r->stated_from = "base frequency, whole MHz";
    }
}

static void clock_find(struct clock_state *s, const struct acpi_info *ai)
{
    for (int i = 0; i < CLOCK_NREFS; i++) {
        s->ref[i].name = clock_names[i];
        s->ref[i].best = -1;
        s->ref[i].measured = i <= REF_PIT;
    }
    clock_find_hpet(s, ai);
    clock_find_pm(s, ai);
    clock_find_pit(s);
    clock_find_cpuid15(s);
    clock_find_cpuid16(s);
}

/* ---- calibrating ----------------------------------------------------------------- */

static double clock_median_rough(const struct clock_state *s)
{
    double k[CLOCK_NREFS], scratch[CLOCK_NREFS];
    size_t n = 0;
    for (int i = 0; i < CLOCK_NREFS; i++) {
        double v = s->ref[i].measured && s->ref[i].present ? clock_rough_khz(&s->ref[i]) : NAN;
        if (!isnan(v))
            k[n++] = v;
    }
    return n ? clockm_median(k, n, scratch) : NAN;
}

static void clock_pick(struct clock_ref *r)
{
    r->best = clockm_pick_window(r->win, r->nwin);
    if (r->best < 0) {
        clock_why(r, r->nwin ? "no consistent window (all disturbed)" : "every window failed (slow reads)");
        return;
    }
    r->valid = 1;
    r->khz = r->win[r->best].khz;
    r->ppm = r->win[r->best].ppm;
}

/* Everything that runs with the firmware timer stopped: probes, short
 * windows, refined windows.  No output and no firmware calls in here. */
static void clock_calibrate(struct clock_state *s)
{
    double rough;

    s->t_start = clock_tsc();
    for (int i = 0; i <= REF_PIT; i++)
        if (s->ref[i].present)
            clock_probe(&s->ref[i].c);
    for (int k = 0; k < CLOCK_SHORT_WINDOWS; k++)
        for (int i = 0; i <= REF_PIT; i++)
            if (s->ref[i].present)
                clock_short_window(&s->ref[i], CLOCK_SHORT_MS);
    rough = clock_median_rough(s);
    for (int t = 0; t < CLOCK_REFINED_TRIES && !isnan(rough); t++) {
        /* The budget: a second refined window only if it still fits. */
        double spent_ms = (double)(clock_tsc() - s->t_start) / rough;
        if (t > 0 && spent_ms + CLOCK_REFINED_MS * CLOCK_REFINED_MARGIN + CLOCK_SHORT_MS > CLOCK_BUDGET_MS)
            break;
        if (clock_refined_window(s, rough) == 0)
            break;
    }
    s->t_end = clock_tsc();
    for (int i = 0; i <= REF_PIT; i++)
        if (s->ref[i].present)
            clock_pick(&s->ref[i]);
}

static void clock_choose(struct clock_state *s)
{
    struct clockm_ref v[CLOCK_NREFS];
    for (int i = 0; i < CLOCK_NREFS; i++) {
        v[i].name = s->ref[i].name;
        v[i].valid = s->ref[i].valid;
        v[i].measured = s->ref[i].measured;
        v[i].khz = s->ref[i].khz;
        v[i].ppm = s->ref[i].ppm;
    }
    s->chosen = clockm_choose(v, CLOCK_NREFS, CLOCKM_AGREE_PPM, &s->contested);
    s->chosen_khz = s->chosen >= 0 ? s->ref[s->chosen].khz : NAN;
}

/* ---- reporting --------------------------------------------------------------------- */

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
    out_printf("clock: %-8s %.3f kHz +-%.3f ppm (%s window of %.1f ms; %zu windows, %llu dropped; "
               "%.9g Hz counter, %u bits; read %llu ticks, %llu slow edges retried)\n",
               r->name, r->khz, r->ppm, r->refined[r->best] ? "refined" : "short", w->ms, r->nwin,
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

static void clock_print(const struct clock_state *s, double calib_ms)
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
    for (int i = 0; i < CLOCK_NREFS; i++)
        clock_print_ref(&s->ref[i]);
    clock_print_agreement(s);
    if (s->chosen >= 0)
        out_printf("clock: chosen %.3f kHz from %s (order of trust: hpet, pm_timer, pit, cpuid_15, cpuid_16)\n",
                   s->chosen_khz, s->ref[s->chosen].name);
    if (!isnan(calib_ms))
        out_printf("clock: calibration took %.1f ms (refined window %.1f ms)\n", calib_ms, s->refined_ms);
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
    json_double(w, "khz", r->khz);
    json_double(w, "ppm", clockm_round_ppm(r->ppm));
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
    json_obj_begin(w, "agreement");
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
    json_double(w, "max_measured_ppm", clockm_round_ppm(worst));
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

static void clock_json(const struct clock_state *s, double calib_ms, const struct quiet_result *q,
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
    if (s->chosen >= 0) {
        json_double(w, "chosen_khz", s->chosen_khz);
        json_str(w, "source", s->ref[s->chosen].name);
    } else {
        json_null(w, "chosen_khz");   /* and no source */
    }
    json_bool(w, "contested", s->contested);
    json_arr_begin(w, "order_of_trust");
    for (int i = 0; i < CLOCK_NREFS; i++)
        json_str(w, NULL, clock_names[i]);
    json_arr_end(w);
    json_double(w, "calibration_ms", calib_ms);
    json_double(w, "refined_ms", s->refined_ms);
    json_u64(w, "short_windows", CLOCK_SHORT_WINDOWS);
    json_u64(w, "short_ms", CLOCK_SHORT_MS);
    clock_json_phase(w, &s->phase);
    json_str(w, "unmasked", "NMI, SMI");
    if (q) {
        quiet_json(w, "quiet", q);
        json_obj_begin(w, "quiet_check_phase");
        json_bool(w, "timer_stopped", qp->timer_stopped);
        json_u64(w, "nmis", qp->nmis);
        if (qp->smi_counted)
            json_u64(w, "smis", qp->smis);
        json_obj_end(w);
    }
    results_section_end();
}

/* ---- public functions ------------------------------------------------------------ */

void clock_msrs_read(struct clock_msrs *m)
{
    struct cpuid_regs r = { 0 };

    memset(m, 0, sizeof *m);
    if (!cpu_info.has_msr)
        return;
    /* MSR_SMI_COUNT is Intel's (Nehalem on); elsewhere the read may not
     * fault but mean nothing, so it is not even tried. */
    if (cpu_info.is_intel)
        m->smi_ok = cpu_rdmsr_safe(CLOCK_MSR_SMI_COUNT, &m->smi) == 0;
    if (cpu_info.max_leaf >= 6)
        cpuid(6, 0, &r);
    if (r.ecx & 1)
        m->aperf_ok = cpu_rdmsr_safe(CLOCK_MSR_APERF, &m->aperf) == 0 &&
                      cpu_rdmsr_safe(CLOCK_MSR_MPERF, &m->mperf) == 0;
}

int clock_run(const struct bm_config *cfg, const struct acpi_info *ai)
{
    static struct clock_state s;   /* large: windows of five references */
    struct quiet_result q;
    struct quiet_phase_report qp;
    double calib_ms = NAN;
    int status = RUN_OK, have_q = 0;

    memset(&s, 0, sizeof s);
    out_printf("\nclock: calibrating the TSC against every reference (%d short windows of %d ms, "
               "a refined window of %d ms)\n", CLOCK_SHORT_WINDOWS, CLOCK_SHORT_MS, CLOCK_REFINED_MS);
    clock_find(&s, ai);
    quiet_phase_begin();
    clock_calibrate(&s);
    quiet_phase_end(&s.phase);
    if (s.pit_running)
        pit_stop();
    hpet_close(&s.hpet);

    clock_choose(&s);
    if (s.chosen >= 0)
        calib_ms = (double)(s.t_end - s.t_start) / s.chosen_khz;
    clock_print(&s, calib_ms);
    if (s.chosen < 0) {
        out_warn("clock: no reference gave a TSC frequency: times are reported in ticks only");
        out_printf("quiet: skipped (its 1 us and 10 us thresholds need the TSC frequency)\n");
        status = RUN_WARNINGS;
    } else {
        if (s.contested)
            out_warn("clock: the measured references disagree; %s taken by the order of trust",
                     s.ref[s.chosen].name);
        if (calib_ms > CLOCK_BUDGET_MS)
            out_printf("clock: note: calibration took longer than %d ms (slow reads retried)\n",
                       CLOCK_BUDGET_MS);
        run_set_tick_hz((uint64_t)llround(s.chosen_khz * 1000));
        quiet_phase_begin();
        have_q = quiet_check(cfg->quiet_ms, (uint64_t)llround(s.chosen_khz * 1000), &q) == 0;
        quiet_phase_end(&qp);
        if (have_q)
            quiet_print(&q);
    }
    clock_json(&s, calib_ms, have_q ? &q : NULL, &qp);
    return status;
}
