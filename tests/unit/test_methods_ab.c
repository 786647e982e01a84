/*
 * tests/unit/test_methods_ab.c - the extended profile's best, the LFENCE
 * rules on simulated CPUs and Karsh's A/B on the host (bench/methods/methods.c,
 * bench/compare/compare.c); the methods and the engine are tests/unit/test_methods.c.
 *
 * Under Linux the counters and fences work in user space but interrupts
 * cannot be masked, so the timing checks are about sanity and agreement;
 * the exact figures are checked under QEMU -icount (tests/boot/test_methods.sh).
 * Expected statistics come from numpy/scipy (tests/vectors/methods/).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "compare.h"
#include "methods.h"
#include "platform.h"
#include "targets.h"

#include "../vectors/methods/methods_vectors.h"

/* ---- the extended profile's best (issue 14.5) ------------------------------------------ */

static struct methods_result fake_result(int method, int status, uint64_t min_t, uint64_t min_p, double median_p,
                                         double mean_t, double mean_p, double n)
{
    struct methods_result r;
    memset(&r, 0, sizeof r);
    r.method = method;
    r.status = status;
    r.iterations = (uint64_t)n;
    r.min_t = min_t;
    r.min_p = min_p;
    r.minus_placeholder = ((double)min_t - (double)min_p) / n;
    r.mean_net = (mean_t - mean_p) / n;
    r.net_sum.min = ((double)min_t - median_p) / n;    /* what "best" used to take */
    return r;
}

static void test_best(void)
{
    struct methods_best b;
    /* The strlen: cpuid+rdtsc has a noisy placeholder (min 100,
     * median 300), so its smallest net sample (min T - median P = 700) looks
     * best, while its own min - min is 900; rdtscp's is 850. */
    struct methods_result r[4] = {
        fake_result(METHOD_CPUID_RDTSC, METHODS_OK, 1000, 100, 300, 1500, 400, 1),
        fake_result(METHOD_RDTSCP, METHODS_OK, 900, 50, 60, 1300, 55, 1),
        fake_result(METHOD_RDTSC, METHODS_TOO_SHORT, 10, 5, 5, 10, 5, 1),
        fake_result(METHOD_SDM, METHODS_OK, 950, 60, 70, 1100, 70, 1),
    };
    methods_best_init(&b);
    for (int i = 0; i < 4; i++)
        methods_best_add(&b, &r[i]);
    CHECK(b.measured == 3, "best: only good measurements count (3 of 4)");
    CHECK(b.best_method == METHOD_RDTSCP && b.best == 850,
          "best: smallest (min T - min P)/N, rdtscp 850, not cpuid+rdtsc's 700 from a noisy placeholder median");
    CHECK(b.mean_method == METHOD_SDM && b.mean == 1030, "fastest mean: smallest (mean T - mean P)/N, sdm 1030");

    /* Ties, as under -icount: the smaller placeholder minimum, then table order. */
    struct methods_result t[3] = {
        fake_result(METHOD_CPUID_RDTSC, METHODS_OK, 500, 100, 100, 500, 100, 4),
        fake_result(METHOD_LFENCE_RDTSC, METHODS_OK, 410, 10, 10, 410, 10, 4),
        fake_result(METHOD_RDTSC, METHODS_OK, 410, 10, 10, 410, 10, 4),
    };
    methods_best_init(&b);
    for (int i = 0; i < 3; i++)
        methods_best_add(&b, &t[i]);
    CHECK(b.best == 100 && b.best_method == METHOD_LFENCE_RDTSC,
          "best: a tie goes to the smaller placeholder minimum (10 < 100), then the earlier method");
    CHECK(b.mean_method == METHOD_LFENCE_RDTSC, "fastest mean: the same tie rule");
    methods_best_init(&b);
    CHECK(b.best_method < 0 && b.measured == 0 && isnan(b.best), "best: none before a good measurement");
}
/* ---- the LFENCE check on simulated CPUs (issue 14.4) ------------------------------------ */

/* A simulated CPU: what CPUID and the MSR say. */
static struct sim_cpu {
    const char *vendor, *hv_vendor;   /* hv_vendor NULL: no hypervisor */
    uint32_t leaf1_eax;               /* family/model/stepping */
    int ext21;                        /* CPUID 0x80000021 EAX bit 2: -1 leaf absent */
    int msr;                          /* MSR 0xC0011029 bit 1: -1 #GP */
    int msr_reads;                    /* how often the MSR was read */
} sim;

static void sim_regs(const char *s, uint32_t *a, uint32_t *b, uint32_t *c)
{
    memcpy(a, s, 4);
    memcpy(b, s + 4, 4);
    memcpy(c, s + 8, 4);
}

static void sim_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    (void)subleaf;
    memset(r, 0, 4 * sizeof r[0]);
    if (leaf == 0) {
        r[0] = 0xd;
        sim_regs(sim.vendor, &r[1], &r[3], &r[2]);         /* ebx, edx, ecx */
    } else if (leaf == 1) {
        r[0] = sim.leaf1_eax;
        r[2] = sim.hv_vendor ? 1u << 31 : 0;
    } else if (leaf == 0x40000000u && sim.hv_vendor) {
        sim_regs(sim.hv_vendor, &r[1], &r[2], &r[3]);      /* ebx, ecx, edx */
    } else if (leaf == 0x80000000u) {
        r[0] = sim.ext21 >= 0 ? 0x80000021u : 0x80000008u;
    } else if (leaf == 0x80000001u) {
        r[3] = 1u << 27;
    } else if (leaf == 0x80000021u && sim.ext21 >= 0) {
        r[0] = sim.ext21 ? 1u << 2 : 0;
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
    sim.msr_reads++;
    if (msr != METHODS_AMD_DE_CFG_MSR || sim.msr < 0)
        return -1;
    *v = sim.msr ? METHODS_AMD_DE_CFG_LFENCE | 0x100 : 0x100;
    return 0;
}

static void lfence_case(const char *what, const char *vendor, uint32_t eax, const char *hv, int ext21, int msr,
                        int msr_hook, int want, const char *why_has, int want_family, int want_msr_reads)
{
    struct methods_cpu c;
    struct methods_cpu_source src = { NULL, msr_hook ? sim_msr : NULL };
    char w[300];
    sim.vendor = vendor;
    sim.hv_vendor = hv;
    sim.leaf1_eax = eax;
    sim.ext21 = ext21;
    sim.msr = msr;
    sim.msr_reads = 0;
    src.id = sim_id();      /* the record of the CPU as simulated now */
    methods_cpu_probe_from(&c, &src);
    snprintf(w, sizeof w, "lfence: %s -> %s (got %d: \"%s\")", what,
             want < 0 ? "unknown" : want ? "yes" : "no", c.lfence_serializing, c.lfence_why);
    CHECK(c.lfence_serializing == want && strstr(c.lfence_why, why_has) != NULL, w);
    if (want_family >= 0) {
        snprintf(w, sizeof w, "lfence: %s: family %02Xh from CPUID.1 EAX %08X (got %02Xh)", what,
                 (unsigned)want_family, (unsigned)eax, (unsigned)c.family);
        CHECK(c.family == (unsigned)want_family, w);
    }
    if (want_msr_reads >= 0) {
        snprintf(w, sizeof w, "lfence: %s: MSR 0xC0011029 read %d times (want %d)", what, sim.msr_reads,
                 want_msr_reads);
        CHECK(sim.msr_reads == want_msr_reads, w);
    }
}

static void test_lfence_check(void)
{
    /* AMD families 0Fh (K8) and 11h: always dispatch-serializing, no DE_CFG MSR (not even tried). */
    lfence_case("AMD K8 (family 0Fh), bare metal", "AuthenticAMD", 0x00000F48, NULL, -1, -1, 1, 1, "0Fh", 0x0F, 0);
    lfence_case("AMD family 11h, bare metal", "AuthenticAMD", 0x00200F31, NULL, -1, -1, 1, 1, "11h", 0x11, 0);
    lfence_case("AMD family 11h under a hypervisor", "AuthenticAMD", 0x00200F31, "KVMKVMKVM\0\0\0", -1, -1, 1, 1,
                "11h", 0x11, 0);
    /* Family 17h (Zen): the MSR decides on bare metal... */
    lfence_case("AMD family 17h, MSR bit set, bare metal", "AuthenticAMD", 0x00830F10, NULL, -1, 1, 1, 1,
                "MSR 0xC0011029 bit 1 set", 0x17, 1);
    lfence_case("AMD family 17h, MSR bit clear, bare metal", "AuthenticAMD", 0x00830F10, NULL, -1, 0, 1, 0,
                "clear", 0x17, 1);
    /* ... but under a hypervisor the MSR may be emulated: it proves nothing. */
    lfence_case("AMD family 17h, MSR bit set, under KVM", "AuthenticAMD", 0x00830F10, "KVMKVMKVM\0\0\0", -1, 1, 1,
                -1, "hypervisor", 0x17, -1);
    lfence_case("AMD family 17h, MSR bit clear, under a hypervisor", "AuthenticAMD", 0x00830F10, "TCGTCGTCGTCG",
                -1, 0, 1, -1, "hypervisor", 0x17, -1);
    lfence_case("AMD family 10h, MSR not readable (#GP)", "AuthenticAMD", 0x00100F42, NULL, -1, -1, 1, -1,
                "not readable", 0x10, 1);
    lfence_case("AMD family 10h, no MSR access (hosted)", "AuthenticAMD", 0x00100F42, NULL, -1, 1, 0, -1,
                "not readable here", 0x10, 0);
    /* Family 19h: CPUID 0x80000021 EAX bit 2 states it, hypervisor or not. */
    lfence_case("AMD family 19h, CPUID 0x80000021 bit set, under a hypervisor", "AuthenticAMD", 0x00A20F10,
                "KVMKVMKVM\0\0\0", 1, -1, 1, 1, "0x80000021", 0x19, -1);
    lfence_case("Hygon family 18h, MSR bit set, bare metal", "HygonGenuine", 0x00900F01, NULL, -1, 1, 1, 1,
                "set", 0x18, 1);
    lfence_case("Intel (architectural)", "GenuineIntel", 0x000906EA, "KVMKVMKVM\0\0\0", -1, -1, 1, 1, "Intel",
                0x06, 0);
    lfence_case("another vendor", "CentaurHauls", 0x000006F2, NULL, -1, -1, 1, -1, "CentaurHauls", -1, 0);

    /* A hypervisor that clears CPUID's bit but that SMBIOS names (the run
     * environment's vm_hidden): as under any hypervisor, the MSR proves
     * nothing, and cpuid exits to it. */
    struct methods_cpu c;
    sim.vendor = "AuthenticAMD";
    sim.hv_vendor = NULL;
    sim.leaf1_eax = 0x00830F10;
    sim.ext21 = -1;
    sim.msr = 1;
    struct methods_cpu_source hidden = { sim_id(), sim_msr, "QEMU" };
    methods_cpu_probe_from(&c, &hidden);
    CHECK(c.hypervisor && !c.hypervisor_vendor[0] && c.hypervisor_hidden && !strcmp(c.hypervisor_hidden, "QEMU") &&
          c.lfence_serializing == -1 && strstr(c.lfence_why, "hypervisor"),
          "lfence: AMD family 17h, MSR bit set, hypervisor hidden from CPUID but named by SMBIOS -> unknown; "
          "counted as under a hypervisor");
}

/* ---- Karsh's A/B ----------------------------------------------------------------------------- */

static void test_compare_synthetic(void)
{
    struct compare_result r;
    size_t n = sizeof aa_a / sizeof aa_a[0];
    CHECK_EQ_I64(compare_analyse(aa_a, n, aa_b, n, COMPARE_NOISE, &r), METHODS_OK, "A/A synthetic: analysed");
    CHECK(r.c.verdict == STATS_NO_DIFFERENCE, "A/A (one distribution, two draws): no difference");
    CHECK_NEAR(r.c.welch_p, AA_WELCH_P, 1e-9, "A/A: Welch p (scipy)");
    CHECK_NEAR(r.c.mw_p, AA_MW_P, 1e-9, "A/A: Mann-Whitney p (scipy)");
    CHECK_NEAR(r.c.karsh_z, AA_Z, 1e-9, "A/A: Karsh Z");
    compare_result_free(&r);

    compare_analyse(ab_a, n, ab_b, n, COMPARE_NOISE, &r);
    CHECK(r.c.verdict == STATS_FASTER, "A/B (B 5% slower): A faster");
    CHECK_NEAR(r.c.welch_t, AB_WELCH_T, 1e-9, "A/B: Welch t (scipy)");
    CHECK_NEAR(r.c.welch_p / AB_WELCH_P, 1.0, 1e-6, "A/B: Welch p (scipy, relative)");
    CHECK_NEAR(r.c.mw_p / AB_MW_P, 1.0, 1e-6, "A/B: Mann-Whitney p (scipy, relative)");
    compare_result_free(&r);

    /* What QEMU -icount gives: constant samples. */
    compare_analyse(const_a, n, const_b, n, COMPARE_NOISE, &r);
    CHECK(isinf(r.c.welch_t) && r.c.welch_t < 0 && r.c.welch_p == CONST_WELCH_P,
          "constant samples that differ: Welch t -inf, p 0 (as scipy)");
    CHECK_NEAR(r.c.mw_p / CONST_MW_P, 1.0, 1e-6, "constant samples: Mann-Whitney p (scipy)");
    CHECK(r.c.verdict == STATS_FASTER && r.c.diff_mean == -9000, "constant samples 1203 vs 10203: A faster by 9000");
    compare_result_free(&r);
    compare_analyse(const_a, n, const_a, n, COMPARE_NOISE, &r);
    CHECK(r.c.verdict == STATS_NO_DIFFERENCE && r.c.diff_mean == 0 && r.c.karsh_z == 0 && r.c.mw_p == 1,
          "the same constant sample twice: difference exactly 0, Z 0, no difference");
    compare_result_free(&r);
}

static void test_compare_real(const struct methods_cpu *cpu)
{
    struct compare_result r;
    const struct target *foo = targets_find("foo"), *a10 = targets_find("add10"), *a100 = targets_find("add100");
    CHECK(foo && a10 && a100, "targets foo, add10, add100 exist");
    CHECK_EQ_I64(compare_ab(METHOD_SDM, cpu, foo->fn, foo->data, "foo", foo->fn, foo->data, "foo", NULL, 100, 50,
                            COMPARE_ALTERNATE, 1, &r), METHODS_OK, "foo vs foo, ABAB: runs");
    int alternating = 1;
    for (int i = 0; i < 50; i++)
        alternating &= r.b_first[i] == 0;
    CHECK(alternating && r.sa.n == 50 && r.sb.n == 50, "ABAB: A timed first in all 50 trials");
    compare_result_free(&r);
    compare_ab(METHOD_SDM, cpu, a10->fn, NULL, "add10", a100->fn, NULL, "add100", NULL, 100, 200, COMPARE_RANDOM,
               COMPARE_SEED, &r);
    int bf = 0;
    for (int i = 0; i < 200; i++)
        bf += r.b_first[i];
    char what[320];
    snprintf(what, sizeof what, "random order: B first in %d of 200 trials (a fair coin)", bf);
    CHECK(bf > 60 && bf < 140, what);
    /* Under Linux one preemption in A can turn its mean against the medians,
     * and the verdict (which wants means and medians to agree) then says "no
     * difference": what the host can promise is the ranks.  The exact verdict
     * is the icount boot test's (tests/boot/test_methods.sh). */
    snprintf(what, sizeof what, "add10 vs add100: A's median below B's, Mann-Whitney p %.2g < 1e-6 (medians %.0f vs %.0f ticks, verdict %d)",
             r.c.mw_p, r.sa.median, r.sb.median, (int)r.c.verdict);
    CHECK(r.sa.median < r.sb.median && r.c.mw_p < 1e-6, what);
    compare_result_free(&r);
    /* COMPARE_PRECISION_AUTO: with a counter step of 1 tick, add10's 100 calls
     * (about 1000 ticks net) already span 100 steps; with a step of 50 they
     * need 5000 ticks, so the calls double past 100 until they do. */
    plat_set_tick_step(1);
    compare_ab(METHOD_SDM, cpu, a10->fn, NULL, "add10", a100->fn, NULL, "add100", NULL, COMPARE_PRECISION_AUTO, 20,
               COMPARE_RANDOM, COMPARE_SEED, &r);
    snprintf(what, sizeof what, "precision auto, step 1: 100 calls as started (%u: %s)", (unsigned)r.precision,
             r.precision_why);
    CHECK(r.status == METHODS_OK && r.precision == COMPARE_PRECISION && strstr(r.precision_why, "as started: ") &&
          strstr(r.precision_why, " spans 100+ counter steps of 1"), what);
    compare_result_free(&r);
    plat_set_tick_step(50);
    compare_ab(METHOD_SDM, cpu, a10->fn, NULL, "add10", a100->fn, NULL, "add100", NULL, COMPARE_PRECISION_AUTO, 20,
               COMPARE_RANDOM, COMPARE_SEED, &r);
    unsigned k = r.precision / COMPARE_PRECISION;
    snprintf(what, sizeof what, "precision auto, step 50: grown to 100 x 2^k calls (%u: %s)", (unsigned)r.precision,
             r.precision_why);
    CHECK(r.status == METHODS_OK && r.precision > COMPARE_PRECISION && r.precision % COMPARE_PRECISION == 0 &&
          (k & (k - 1)) == 0 && strstr(r.precision_why, "grown: ") && strstr(r.precision_why, " spans 100+ counter steps of 50"),
          what);
    compare_result_free(&r);
    plat_set_tick_step(0);
    struct methods_cpu none = *cpu;
    none.rdtscp = 0;
    CHECK_EQ_I64(compare_ab(METHOD_RDTSCP, &none, foo->fn, foo->data, "foo", foo->fn, foo->data, "foo", NULL, 100,
                            50, COMPARE_ALTERNATE, 1, &r), METHODS_UNSUPPORTED, "compare with rdtscp on a CPU without it: unsupported");
    CHECK_EQ_I64(compare_ab(METHOD_SDM, cpu, foo->fn, NULL, "foo", NULL, NULL, "x", NULL, 100, 50, COMPARE_ALTERNATE,
                            1, &r), METHODS_BAD_INPUT, "compare without a routine: bad input");
}

int main(void)
{
    struct methods_cpu cpu;
    methods_cpu_probe(&cpu, cpu_identity(), NULL);
    test_best();
    test_lfence_check();
    test_compare_synthetic();
    test_compare_real(&cpu);
    return check_done();
}
