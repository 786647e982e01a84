/*
 * tests/unit/test_cores_tsc.c - what QEMU cannot show about the cores
 * section (issue 23.1-23.5), on simulated CPUs, counters and MSR spaces:
 *  1. the TSC read's fences follow every CPU's LFENCE and RDTSCP answers
 *     (AMD with DE_CFG bit 1 clear gets MFENCE, never a bare LFENCE);
 *  2. the rate fit over sessions spread across the section sees a 20 ppm
 *     difference that a 20 ms window cannot, its 95% interval covers the
 *     truth, disturbed reads are dropped, the PM timer's wrap is unwound;
 *  3. the warp check compares only handoffs between two CPUs; TSC_ADJUST
 *     is read where CPUID.7 says it exists, and only there;
 *  4. ping and pong each own a 128-byte block (adjacent-line prefetch);
 *  5. SMT siblings are grouped, and the overlap of the all-core run.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cores_math.h"
#include "methods.h"
#include "cores_work.h"
#include "check.h"
#include "cpu.h"

/* ---- a simulated CPU ------------------------------------------------------------------ */

static struct sim {
    const char *vendor;
    uint32_t leaf1_eax;
    int rdtscp;                 /* CPUID 0x80000001 EDX bit 27 */
    int de_cfg;                 /* MSR 0xC0011029 bit 1; -1 #GP */
    int tsc_adjust_bit;         /* CPUID.7.0:EBX bit 1 */
    int tsc_adjust_gp;          /* RDMSR 0x3B faults */
    int64_t tsc_adjust;
    int adjust_reads;
} sim;

static void sim_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    memset(r, 0, 4 * sizeof r[0]);
    if (leaf == 0) {
        r[0] = 0xB;
        memcpy(&r[1], sim.vendor, 4);
        memcpy(&r[3], sim.vendor + 4, 4);
        memcpy(&r[2], sim.vendor + 8, 4);
    } else if (leaf == 1) {
        r[0] = sim.leaf1_eax;
        r[1] = 3u << 24;
    } else if (leaf == 7 && sub == 0) {
        r[1] = sim.tsc_adjust_bit ? CORES_CPUID7_EBX_TSC_ADJUST : 0;
    } else if (leaf == 0xB && sub < 2) {
        r[0] = sub == 0 ? 1 : 4;
        r[1] = 1;
        r[2] = (sub + 1) << 8 | sub;
        r[3] = 3;
    } else if (leaf == 0x80000000u) {
        r[0] = 0x80000008u;
    } else if (leaf == 0x80000001u) {
        r[3] = sim.rdtscp ? 1u << 27 : 0;
    }
}

/* The simulated CPU's identity record: one pass through sim_cpuid, as
 * cpu_identify reads a real one (kernel/cpu.h). */
static const struct cpu_info *sim_id(void)
{
    static struct cpu_info id;
    cpu_identify_from(&id, sim_cpuid);
    return &id;
}

static int sim_msr(uint32_t msr, uint64_t *v)
{
    if (msr == CORES_MSR_TSC_ADJUST) {
        sim.adjust_reads++;
        if (sim.tsc_adjust_gp)
            return -1;
        *v = (uint64_t)sim.tsc_adjust;
        return 0;
    }
    if (msr == METHODS_AMD_DE_CFG_MSR && sim.de_cfg >= 0) {
        *v = sim.de_cfg ? METHODS_AMD_DE_CFG_LFENCE : 0;
        return 0;
    }
    return -1;
}

static struct cores_cpuid probe(const char *vendor, uint32_t eax, int rdtscp, int de_cfg)
{
    struct methods_cpu_source src = { NULL, sim_msr };
    struct cores_cpuid c;
    memset(&sim, 0, sizeof sim);
    sim.vendor = vendor;
    sim.leaf1_eax = eax;
    sim.rdtscp = rdtscp;
    sim.de_cfg = de_cfg;
    src.id = sim_id();      /* the record of the CPU as simulated now */
    cores_probe_from(&c, &src);
    return c;
}

#define ZEN1 0x00800F11u         /* family 17h */
#define INTEL_SKL 0x000506E3u

static void fences(void)
{
    char why[200], w[300];
    struct cores_cpuid cpu[3];
    struct { const char *what; const char *vendor; uint32_t eax; int rdtscp, de_cfg; enum cores_read want; } k[] = {
        { "Intel with RDTSCP", "GenuineIntel", INTEL_SKL, 1, -1, CORES_READ_RDTSCP_LFENCE },
        { "Intel without RDTSCP", "GenuineIntel", INTEL_SKL, 0, -1, CORES_READ_LFENCE },
        { "AMD 17h, DE_CFG bit 1 set, RDTSCP", "AuthenticAMD", ZEN1, 1, 1, CORES_READ_RDTSCP_LFENCE },
        { "AMD 17h, DE_CFG bit 1 clear, RDTSCP", "AuthenticAMD", ZEN1, 1, 0, CORES_READ_RDTSCP_MFENCE },
        { "AMD 17h, DE_CFG bit 1 clear, no RDTSCP", "AuthenticAMD", ZEN1, 0, 0, CORES_READ_MFENCE },
        { "AMD 17h, DE_CFG unreadable, no RDTSCP", "AuthenticAMD", ZEN1, 0, -1, CORES_READ_MFENCE },
        { "AMD K8 (0Fh: LFENCE always serialising), no RDTSCP", "AuthenticAMD", 0x00000F48, 0, -1, CORES_READ_LFENCE },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        cpu[0] = probe(k[i].vendor, k[i].eax, k[i].rdtscp, k[i].de_cfg);
        enum cores_read r = cores_read_choose(cpu, 1, why, sizeof why);
        snprintf(w, sizeof w, "fence: %s -> %s (got %s: %s)", k[i].what, cores_read_text(k[i].want),
                 cores_read_text(r), why);
        CHECK(r == k[i].want, w);
    }
    /* The firmware set DE_CFG's bit on the BSP only: one AP decides. */
    cpu[0] = probe("AuthenticAMD", ZEN1, 0, 1);
    cpu[1] = probe("AuthenticAMD", ZEN1, 0, 1);
    cpu[2] = probe("AuthenticAMD", ZEN1, 0, 0);
    CHECK(cores_read_choose(cpu, 3, why, sizeof why) == CORES_READ_MFENCE && strstr(why, "MFENCE"),
          "fence: DE_CFG bit clear on one AP of three: MFENCE for all");
    CHECK(cores_read_choose(cpu, 2, why, sizeof why) == CORES_READ_LFENCE,
          "fence: DE_CFG bit set on both: LFENCE");
    cpu[2] = probe("AuthenticAMD", ZEN1, 1, 1);
    CHECK(cores_read_choose(cpu, 3, why, sizeof why) == CORES_READ_LFENCE,
          "fence: RDTSCP on one CPU only: not used");
    cpu[1].read = 0;         /* a CPU that was not probed does not vote */
    cpu[2] = probe("AuthenticAMD", ZEN1, 0, 0);
    cpu[2].read = 0;
    CHECK(cores_read_choose(cpu, 3, why, sizeof why) == CORES_READ_LFENCE, "fence: unprobed CPUs do not vote");
    CHECK_STR(cores_read_key(CORES_READ_RDTSCP_MFENCE), "rdtscp_mfence", "fence: key");
}

/* ---- TSC_ADJUST on a simulated MSR space ---------------------------------------------- */

static void tsc_adjust(void)
{
    struct methods_cpu_source src = { NULL, sim_msr };
    struct cores_cpuid c;
    memset(&sim, 0, sizeof sim);
    sim.vendor = "GenuineIntel";
    sim.leaf1_eax = INTEL_SKL;
    sim.tsc_adjust_bit = 1;
    sim.tsc_adjust = -123456789;
    src.id = sim_id();      /* the record of the CPU as simulated now */
    cores_probe_from(&c, &src);
    CHECK(c.tsc_adjust_cpuid && c.tsc_adjust_read == 1 && c.tsc_adjust == -123456789,
          "TSC_ADJUST: CPUID.7 bit 1 set: MSR 0x3B read, a negative value kept");
    CHECK(c.topo_leaf == 0xB && c.levels == 2 && c.x2apic_id == 3, "probe: the topology leaf as before");
    sim.tsc_adjust_bit = 0;
    sim.adjust_reads = 0;
    src.id = sim_id();      /* the record of the CPU as simulated now */
    cores_probe_from(&c, &src);
    CHECK(!c.tsc_adjust_cpuid && c.tsc_adjust_read == -1 && sim.adjust_reads == 0,
          "TSC_ADJUST: no CPUID bit: the MSR is never read");
    sim.tsc_adjust_bit = 1;
    sim.tsc_adjust_gp = 1;
    src.id = sim_id();      /* the record of the CPU as simulated now */
    cores_probe_from(&c, &src);
    CHECK(c.tsc_adjust_cpuid && c.tsc_adjust_read == 0, "TSC_ADJUST: the bit set but RDMSR faults: said so");
    struct methods_cpu_source nomsr = { NULL, NULL };
    nomsr.id = sim_id();
    cores_probe_from(&c, &nomsr);
    CHECK(c.tsc_adjust_read == 0, "TSC_ADJUST: no MSR access at all: not read");
}

/* ---- warp handoffs ------------------------------------------------------------------ */

/* Two CPUs take turns under a lock; CPU 1's TSC runs `lag` ticks behind
 * CPU 0's.  order: the CPU of each turn; turns 10 ticks apart in real time. */
static void warp_run(const char *order, uint64_t lag, struct cores_warp_count w[2])
{
    uint32_t prev_cpu = CORES_NO_CPU;
    uint64_t prev = 0;
    memset(w, 0, 2 * sizeof w[0]);
    for (size_t i = 0; order[i]; i++) {
        uint32_t self = (uint32_t)(order[i] - '0');
        uint64_t now = 1000000 + 10 * i - (self ? lag : 0);
        cores_warp_turn(&w[self], self, prev_cpu, prev, now);
        prev = now;
        prev_cpu = self;
    }
}

static void warp(void)
{
    struct cores_warp_count w[2];
    /* An unfair lock: CPU 0 takes 6 turns, then CPU 1 takes 6: one handoff. */
    warp_run("000000111111", 25, w);
    CHECK_EQ_U64(w[0].turns + w[1].turns, 12, "warp: 12 turns");
    CHECK_EQ_U64(w[0].handoffs + w[1].handoffs, 1, "warp: one handoff in 12 turns of an unfair lock");
    CHECK(w[1].backs == 1 && w[1].max_back == 15, "warp: the one handoff 0->1 sees CPU 1 15 ticks behind");
    /* CPU 1 behind by less than a turn's gap: no step back. */
    warp_run("0101010101", 5, w);
    CHECK(w[0].handoffs + w[1].handoffs == 9 && w[0].backs + w[1].backs == 0,
          "warp: 9 handoffs, a 5-tick lag within a 10-tick gap shows nothing");
    /* A CPU's reads after its own never count as warps (nor as handoffs). */
    warp_run("0000", 0, w);
    CHECK(w[0].handoffs == 0 && w[0].backs == 0, "warp: one CPU alone: no handoffs");
}

/* ---- the rate fit on a simulated counter -------------------------------------------- */

static uint64_t rng = 88172645463325252ull;
static double uni(void)            /* xorshift64: [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Points of a CPU whose TSC runs at tsc_hz, against a reference of ref_hz
 * read through a bus that takes read_s per read (the bracket, 2 to 3 reads
 * wide, holds the edge anywhere inside): sessions of k
 * edges every step_s, sessions gap_s apart.  Every 7th point is stretched
 * by a 40 us disturbance when disturb is set. */
static uint32_t sim_points(struct cores_rate_point *p, double tsc_hz, double ref_hz, double read_s,
                           int sessions, int k, double step_s, double gap_s, int disturb)
{
    uint32_t n = 0;
    for (int s = 0; s < sessions; s++)
        for (int i = 0; i < k; i++) {
            double t = 0.05 + s * gap_s + i * step_s + uni() / ref_hz;     /* some moment */
            uint64_t edge = (uint64_t)ceil(t * ref_hz);                   /* the next edge */
            double te = (double)edge / ref_hz;
            /* the polling loop's reads bracket the edge anywhere inside */
            double width = read_s * (2 + uni()), before = te - uni() * width, after = before + width;
            if (disturb && n % 7 == 3)
                after += 40e-6;
            p[n].ref = edge;
            p[n].tsc = (uint64_t)((before + after) / 2 * tsc_hz);
            p[n].width = (uint64_t)((after - before) * tsc_hz);
            n++;
        }
    return n;
}

static void rate_fit(void)
{
    const double hpet = 14318180.0, base = 2.5e9, off_ppm = 20.0;
    struct cores_rate_point a[64], b[64];
    struct cores_rate_fit fa, fb;
    struct cores_rate_diff d;
    int covered = 0, detected = 0, trials = 200;
    double worst_detectable = 0;
    for (int t = 0; t < trials; t++) {
        uint32_t na = sim_points(a, base, hpet, 1e-6, 2, 12, 4e-3, 3.0, 1);
        uint32_t nb = sim_points(b, base * (1 + off_ppm * 1e-6), hpet, 1e-6, 2, 12, 4e-3, 3.0, 1);
        if (cores_rate_fit(a, na, hpet, &fa) || cores_rate_fit(b, nb, hpet, &fb))
            break;
        cores_rate_compare(&fb, &fa, &d);
        covered += fabs(d.ppm - off_ppm) <= d.half95_ppm;
        detected += fabs(d.ppm) > d.half95_ppm;
        worst_detectable = d.detectable_ppm > worst_detectable ? d.detectable_ppm : worst_detectable;
    }
    char w[200];
    snprintf(w, sizeof w, "rate fit: the 95%% interval covers the true +20 ppm in %d of %d runs (>= 180)",
             covered, trials);
    CHECK(covered >= 180, w);
    snprintf(w, sizeof w, "rate fit: +20 ppm told from 0 in %d of %d runs", detected, trials);
    CHECK(detected == trials, w);
    snprintf(w, sizeof w, "rate fit: smallest detectable difference %.2f ppm (< 5)", worst_detectable);
    CHECK(worst_detectable < 5, w);
    CHECK(fa.dropped == 3 && fa.used == 21, "rate fit: the 3 disturbed reads of 24 (every 7th) dropped");
    CHECK(fa.span_ref > (uint64_t)(3.0 * hpet), "rate fit: the span is the sessions' distance (3 s)");
    /* What one 20 ms window gave: the edge brackets over the window. */
    uint32_t n1 = sim_points(a, base, hpet, 1e-6, 1, 2, 20e-3, 0, 0);
    double window_unc = ((double)a[0].width / 2 + (double)a[n1 - 1].width / 2) / (double)(a[n1 - 1].tsc - a[0].tsc) * 1e6;
    snprintf(w, sizeof w, "a 20 ms window's own uncertainty (%.0f ppm, one CPU) hides 20 ppm", window_unc);
    CHECK(window_unc > off_ppm, w);
    /* Too few points, or none spread: no fit. */
    CHECK(cores_rate_fit(a, 2, hpet, &fa) != 0 && !fa.ok, "rate fit: 2 points are not a fit");
    cores_rate_compare(&fa, &fb, &d);
    CHECK(isnan(d.ppm), "rate compare: no fit, no figure");
}

static void ref_wrap(void)
{
    /* The PM timer: 24 bits at 3.579545 MHz wraps every 4.69 s. */
    const double pm = 3579545.0, hz = 2e9;
    const uint32_t mask = 0xFFFFFF;
    uint64_t ext0 = 1000, tsc0 = 5000000;
    double per = pm / hz * (1 + 300e-6);            /* a rate estimate 300 ppm off */
    for (int k = 0; k < 4; k++) {
        double s = 3.1 + 4.3 * k;                   /* seconds later */
        uint64_t truth = ext0 + (uint64_t)(s * pm);
        uint64_t got = cores_ref_extend(ext0, tsc0, (uint32_t)(truth & mask), tsc0 + (uint64_t)(s * hz), mask, per);
        char w[120];
        snprintf(w, sizeof w, "PM timer wrap: %.1f s later (%d wraps) extended exactly", s, (int)(s / 4.69));
        CHECK_EQ_U64(got, truth, w);
    }
    CHECK_EQ_U64(cores_ref_extend(0xFFFFFFF0ull, 0, 0x10, 100, 0xFFFFFFFFu, 0.32), 0x100000010ull,
                 "HPET wrap past 2^32 just after");
}

/* ---- the latency's lines -------------------------------------------------------------- */

static void lines(void)
{
    CHECK(offsetof(struct cores_ping_shared, ping) % CORES_BLOCK == 0
          && offsetof(struct cores_ping_shared, pong) % CORES_BLOCK == 0
          && offsetof(struct cores_ping_shared, pong) - offsetof(struct cores_ping_shared, ping) >= CORES_BLOCK
          && offsetof(struct cores_ping_shared, start) - offsetof(struct cores_ping_shared, pong) >= CORES_BLOCK,
          "offset round trips: ping and pong (with its TSC) each alone in a 128-byte block");
    CHECK(offsetof(struct cores_bounce_shared, ping) % CORES_BLOCK == 0
          && offsetof(struct cores_bounce_shared, pong) - offsetof(struct cores_bounce_shared, ping) >= CORES_BLOCK
          && offsetof(struct cores_bounce_shared, start) - offsetof(struct cores_bounce_shared, pong) >= CORES_BLOCK,
          "latency: ping and pong each alone in a 128-byte block");
    CHECK(_Alignof(struct cores_bounce_shared) >= CORES_BLOCK && _Alignof(struct cores_ping_shared) >= CORES_BLOCK,
          "both shared blocks are 128-byte aligned");
    CHECK(CORES_BLOCK == 128, "a block is two 64-byte lines (the adjacent-line prefetcher's pair)");
}

/* ---- SMT siblings and overlap -------------------------------------------------------- */

static void smt(void)
{
    /* 5 CPUs: package 0 core 0 threads 0/1, core 1 threads 0/1, one without topology. */
    uint32_t pk[] = { 0, 0, 0, 0, 0 }, co[] = { 0, 0, 1, 1, 0 }, g[5], th[5];
    uint8_t ok[] = { 1, 1, 1, 1, 0 };
    CHECK_EQ_U64(cores_smt_groups(pk, co, ok, 5, g, th), 3, "SMT: 2 cores of 2 threads and an unknown CPU: 3");
    CHECK(g[1] == 0 && g[3] == 2 && th[0] == 2 && th[3] == 2 && g[4] == 4 && th[4] == 1,
          "SMT: siblings grouped with their core's first CPU; the unknown one alone");
    uint32_t pk2[] = { 0, 1 }, co2[] = { 0, 0 };
    uint8_t ok2[] = { 1, 1 };
    CHECK_EQ_U64(cores_smt_groups(pk2, co2, ok2, 2, g, th), 2, "SMT: core 0 of two packages: two cores");
}

static void overlap(void)
{
    struct cores_overlap o;
    uint64_t s[] = { 100, 150, 120 }, e[] = { 400, 300, 500 };
    cores_overlap_of(s, e, 3, &o);
    CHECK(o.span == 400 && o.all == 150 && o.busy == 830, "overlap: span 400, all three at once 150, busy 830");
    CHECK_NEAR(o.all_fraction, 0.375, 1e-12, "overlap: all at once 37.5% of the span");
    CHECK_NEAR(o.mean_running, 2.075, 1e-12, "overlap: 2.075 running on average");
    uint64_t s2[] = { 0, 500 }, e2[] = { 400, 900 };
    cores_overlap_of(s2, e2, 2, &o);
    CHECK(o.all == 0 && o.all_fraction == 0, "overlap: one after the other: never at once");
}

int main(void)
{
    fences();
    tsc_adjust();
    warp();
    rate_fit();
    ref_wrap();
    lines();
    smt();
    overlap();
    return check_done();
}
