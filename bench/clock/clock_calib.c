/*
 * bench/clock/clock_calib.c - the clock section's measuring part: find the
 * references, calibrate the TSC against each (see clock.h for the steps and
 * the order of trust), choose.  The model is Linux's arch/x86/kernel/tsc.c:
 * each reference read bracketed by TSC reads, slow reads retried, the
 * tightest window kept.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acpi.h"
#include "clock_internal.h"
#include "cpu.h"
#include "hpet.h"
#include "pit.h"
#include "pmtimer.h"

/* ---- reading the references ------------------------------------------------------- */

const char *const clock_names[CLOCK_NREFS] = {
    [REF_HPET] = "hpet", [REF_PM] = "pm_timer", [REF_PIT] = "pit",
    [REF_CPUID15] = "cpuid_15", [REF_CPUID16] = "cpuid_16",
};

/* The TSC, ordered against the reads around it (lfence: earlier loads
 * done before, later ones not started). */
static inline uint64_t clock_tsc(void)
{
    uint64_t t;
    __asm__ volatile("lfence" ::: "memory");
    t = cpu_rdtsc();
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
        r->c.hz = s->rates.pm_hz;
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
    r->c.hz = s->rates.pit_hz;
}

/* CPUID 0x15: TSC = crystal x EBX / EAX, the crystal in ECX (Hz). The
 * stated figure's own resolution is 1 Hz of crystal: that is its ppm. */
static void clock_find_cpuid15(struct clock_state *s, const struct cpu_info *c)
{
    struct clock_ref *r = &s->ref[REF_CPUID15];

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
static void clock_find_cpuid16(struct clock_state *s, const struct cpu_info *c)
{
    struct clock_ref *r = &s->ref[REF_CPUID16];

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

void clock_find(struct clock_state *s, const struct acpi_info *ai, const struct cpu_info *cpu, const char *vm_hidden)
{
    for (int i = 0; i < CLOCK_NREFS; i++) {
        s->ref[i].name = clock_names[i];
        s->ref[i].best = -1;
        s->ref[i].measured = i <= REF_PIT;
    }
    /* The crystal's rates on hardware, the emulated ones under QEMU/KVM
     * (CPUID.1:ECX bit 31 and the CPUID 0x40000000 vendor, or the run's
     * environment's SMBIOS word where CPUID hides the hypervisor). */
    clockm_legacy_rates(cpu->hypervisor_present, cpu->hypervisor, vm_hidden, &s->rates);
    clock_find_hpet(s, ai);
    clock_find_pm(s, ai);
    clock_find_pit(s);
    clock_find_cpuid15(s, cpu);
    clock_find_cpuid16(s, cpu);
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
void clock_calibrate(struct clock_state *s)
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

void clock_choose(struct clock_state *s)
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
