/*
 * tests/unit/test_methods.c - the timing methods, the engine and Karsh's A/B
 * on the host (bench/methods.c, bench/compare.c, the bench .asm files).  The
 * sections' JSON is checked by tests/unit/test_methods_cli.sh.
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
#include "compare.h"
#include "methods.h"
#include "targets.h"

#include "../vectors/methods/methods_vectors.h"

/* ---- the sequences in the table are the code's bytes ---------------------------- */

/* Encodings of the instructions the sequences use (Intel SDM vol. 2). */
static size_t seq_bytes(const char *seq, unsigned char *out)
{
    static const struct { const char *insn; unsigned char b[3]; size_t n; } enc[] = {
        { "xor eax, eax", { 0x31, 0xc0 }, 2 }, { "cpuid", { 0x0f, 0xa2 }, 2 },
        { "rdtscp", { 0x0f, 0x01, 0xf9 }, 3 }, { "rdtsc", { 0x0f, 0x31 }, 2 },
        { "lfence", { 0x0f, 0xae, 0xe8 }, 3 }, { "mfence", { 0x0f, 0xae, 0xf0 }, 3 },
    };
    size_t n = 0;
    char buf[128], *tok, *save;
    snprintf(buf, sizeof buf, "%s", seq);
    for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ')
            tok++;
        size_t k;
        for (k = 0; k < sizeof enc / sizeof enc[0]; k++)
            if (!strcmp(tok, enc[k].insn))
                break;
        if (k == sizeof enc / sizeof enc[0])
            return 0;       /* an instruction the table does not know */
        memcpy(out + n, enc[k].b, enc[k].n);
        n += enc[k].n;
    }
    return n;
}

static int bytes_at(const unsigned char *code, size_t *pos, const unsigned char *want, size_t n)
{
    int ok = !memcmp(code + *pos, want, n);
    *pos += n;
    return ok;
}

static void test_sequences(void)
{
    static const unsigned char merge[] = { 0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09, 0xd0 }; /* shl rdx,32; or rax,rdx */
    static const unsigned char keep[] = { 0x49, 0x89, 0xc7 };                         /* mov r15, rax */
    static const unsigned char sub[] = { 0x4c, 0x29, 0xf8 };                          /* sub rax, r15 */
    static const unsigned char call[] = { 0x4c, 0x89, 0xef, 0x4c, 0x89, 0xf6, 0x41, 0xff, 0xd4 };
    char what[160];
    for (int m = 0; m < METHODS_COUNT; m++) {
        const struct methods_info *mi = &methods_table[m];
        unsigned char seq[32];
        size_t n = seq_bytes(mi->sequence, seq), pos;
        const unsigned char *null = (const unsigned char *)(uintptr_t)mi->null;
        const unsigned char *br = (const unsigned char *)(uintptr_t)mi->bracket;
        snprintf(what, sizeof what, "%s: the listed sequence \"%s\" is known instructions", mi->name, mi->sequence);
        CHECK(n > 0, what);
        /* bm_null_X: push rbx; push r15; SEQ; merge; mov r15, rax; SEQ; merge; sub */
        pos = 3;
        int ok = bytes_at(null, &pos, seq, n) && bytes_at(null, &pos, merge, sizeof merge)
                 && bytes_at(null, &pos, keep, sizeof keep) && bytes_at(null, &pos, seq, n)
                 && bytes_at(null, &pos, merge, sizeof merge) && bytes_at(null, &pos, sub, sizeof sub);
        snprintf(what, sizeof what, "%s: back-to-back routine is exactly start \"%s\", stop \"%s\"", mi->name,
                 mi->sequence, mi->sequence);
        CHECK(ok, what);
        /* bm_method_X: 5 pushes and 3 movs (18 bytes); SEQ; merge; keep; args and call; SEQ; merge; sub */
        pos = 18;
        ok = bytes_at(br, &pos, seq, n) && bytes_at(br, &pos, merge, sizeof merge)
             && bytes_at(br, &pos, keep, sizeof keep) && bytes_at(br, &pos, call, sizeof call)
             && bytes_at(br, &pos, seq, n) && bytes_at(br, &pos, merge, sizeof merge)
             && bytes_at(br, &pos, sub, sizeof sub);
        snprintf(what, sizeof what, "%s: bracketing routine is start, call routine, stop with the listed sequence",
                 mi->name);
        CHECK(ok, what);
    }
    int before, after;
    methods_sequence_split(&methods_table[METHOD_SDM], &before, &after);
    CHECK(before == 2 && after == 1, "sdm-recommended: mfence, lfence before rdtsc, lfence after");
    methods_sequence_split(&methods_table[METHOD_CPUID_RDTSCP], &before, &after);
    CHECK(before == 2 && after == 0, "cpuid+rdtscp: xor, cpuid before rdtscp, nothing after");
    CHECK(!strcmp(methods_table[METHOD_SDM].name, "sdm-recommended") && methods_table[METHOD_SDM].codetune == 0,
          "the ninth method is named as the vendor's recommendation, not a CodeTune number");
}

/* ---- every supported method gives sane ticks ---------------------------------------- */

static unsigned calls;
static void counting_routine(uint64_t iterations, void *data)
{
    (void)iterations;
    (void)data;
    calls++;
}

static void test_methods_sane(const struct methods_cpu *cpu)
{
    char what[160];
    for (int m = 0; m < METHODS_COUNT; m++) {
        const struct methods_info *mi = &methods_table[m];
        if (!methods_supported(cpu, m)) {
            snprintf(what, sizeof what, "%s: unsupported on this CPU (%s)", mi->name, methods_unsupported_why(cpu, m));
            CHECK(mi->uses_rdtscp && !cpu->rdtscp, what);
            continue;
        }
        struct methods_overhead o;
        methods_overhead_measure(m, cpu, 500, &o);
        snprintf(what, sizeof what, "%s: 500 back-to-back timings, median %.0f ticks, below 2^32 (never negative)",
                 mi->name, o.sum.median);
        CHECK(o.status == METHODS_OK && o.sum.n == 500 && o.sum.max_u64 < (1ull << 32) && o.sum.median > 0, what);
        methods_overhead_free(&o);

        /* the bracket times the routine: add1000 x 20 is far longer than an empty call */
        uint64_t te = UINT64_MAX, ta = UINT64_MAX;
        for (int i = 0; i < 50; i++) {
            uint64_t e = mi->bracket(bm_target_empty, 20, NULL), a = mi->bracket(bm_target_add1000, 20, NULL);
            te = e < te ? e : te;
            ta = a < ta ? a : ta;
        }
        snprintf(what, sizeof what, "%s: add1000 x 20 (%llu ticks) takes more than 5000 ticks above empty (%llu)",
                 mi->name, (unsigned long long)ta, (unsigned long long)te);
        CHECK(ta > te + 5000 && ta < (1ull << 32), what);
        calls = 0;
        mi->bracket(counting_routine, 7, NULL);
        snprintf(what, sizeof what, "%s: the bracketing routine calls the routine exactly once", mi->name);
        CHECK(calls == 1, what);
    }
}

/* ---- the engine's status codes --------------------------------------------------------- */

static void test_statuses(const struct methods_cpu *real)
{
    struct methods_result r;
    struct methods_cpu no_rdtscp = *real;
    struct methods_opts opt = { 0, NULL, NULL, &no_rdtscp };
    no_rdtscp.rdtscp = 0;

    CHECK_EQ_I64(METHODS_OK, 8, "status code of success is CodeTune's CT_ANALYSIS_SUCESS (8)");
    calls = 0;
    CHECK_EQ_I64(methods_measure(METHOD_RDTSC, counting_routine, NULL, 0, 1, &r), METHODS_BAD_INPUT,
                 "0 samples: bad input (0)");
    methods_result_free(&r);
    CHECK_EQ_I64(methods_measure(METHOD_RDTSC, counting_routine, NULL, 10, 0, &r), METHODS_BAD_INPUT,
                 "0 iterations: bad input");
    methods_result_free(&r);
    CHECK_EQ_I64(methods_measure(METHOD_RDTSC, counting_routine, NULL, METHODS_MAX_SAMPLES + 1, 1, &r),
                 METHODS_BAD_INPUT, "too many samples: bad input");
    methods_result_free(&r);
    CHECK_EQ_I64(methods_measure(METHODS_COUNT, counting_routine, NULL, 10, 1, &r), METHODS_BAD_INPUT,
                 "no such method: bad input");
    methods_result_free(&r);
    CHECK_EQ_I64(methods_measure(METHOD_RDTSC, NULL, NULL, 10, 1, &r), METHODS_BAD_INPUT, "no routine: bad input");
    methods_result_free(&r);
    CHECK(calls == 0, "bad input: the routine is never called");
    CHECK_STR(methods_status_name(METHODS_BAD_INPUT), "bad_input", "status name of 0");

    for (int m = 0; m < METHODS_COUNT; m++) {
        char what[160];
        if (!methods_table[m].uses_rdtscp)
            continue;
        calls = 0;
        int s = methods_measure_ex(m, counting_routine, NULL, 10, 1, &opt, &r);
        snprintf(what, sizeof what, "%s on a CPU without rdtscp: unsupported (-8), routine never called",
                 methods_table[m].name);
        CHECK(s == METHODS_UNSUPPORTED && calls == 0 && strstr(r.why, "CPUID 0x80000001"), what);
        methods_result_free(&r);
        struct methods_overhead o;
        snprintf(what, sizeof what, "%s overhead on a CPU without rdtscp: unsupported", methods_table[m].name);
        CHECK(methods_overhead_measure(m, &no_rdtscp, 10, &o) == METHODS_UNSUPPORTED && !o.samples, what);
        struct methods_paoloni pa;
        snprintf(what, sizeof what, "%s Paoloni on a CPU without rdtscp: unsupported", methods_table[m].name);
        CHECK(methods_paoloni(m, &no_rdtscp, 2, 2, 2, &pa) == METHODS_UNSUPPORTED, what);
    }
    CHECK(methods_supported(&no_rdtscp, METHOD_RDTSC) && methods_supported(&no_rdtscp, METHOD_SDM)
          && methods_supported(&no_rdtscp, METHOD_CPUID_RDTSC),
          "without rdtscp the five rdtsc methods stay supported");

    CHECK_EQ_I64(methods_measure(METHOD_LFENCE_RDTSC, bm_target_add100, NULL, 1, 1, &r), METHODS_INCONCLUSIVE,
                 "one sample: inconclusive (-4)");
    methods_result_free(&r);

    /* A routine faster than its placeholder cannot be told from it. */
    struct methods_opts slow = { 0, bm_target_add100, "empty", real };
    CHECK_EQ_I64(methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_empty, NULL, 100, 1, &slow, &r),
                 METHODS_TOO_SHORT, "routine not longer than the placeholder: too short (-3)");
    CHECK(strstr(r.why, "placeholder") != NULL, "too short: says why");
    methods_result_free(&r);
}

/* Fast for its first `fast` calls, then 200000 dependent adds per call: the
 * stage's last sample is an outlier and every retake is one too. */
struct turning { unsigned count, fast; };
static void turning_routine(uint64_t iterations, void *data)
{
    struct turning *t = data;
    (void)iterations;
    if (t->count++ >= t->fast)
        bm_target_add1000(200, NULL);
}

static void test_overhead_limits(void)
{
    struct methods_result r;
    struct turning t = { 0, 20 };     /* call 0 is the warm-up, 1..20 the samples */
    struct methods_opts opt = { 50, NULL, NULL, NULL };
    CHECK_EQ_I64(methods_measure_ex(METHOD_LFENCE_RDTSC, turning_routine, &t, 20, 1, &opt, &r),
                 METHODS_BENCH_OVERHEAD, "disturbed benchmark timings beyond the limit: benchmark overhead (-2)");
    CHECK_EQ_U64(r.bench_overheads, 50, "benchmark overhead: the 50 allowed retakes were made");
    methods_result_free(&r);
    t.count = 0;
    struct methods_opts cal = { 50, turning_routine, NULL, NULL };
    CHECK_EQ_I64(methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, &t, 20, 1, &cal, &r),
                 METHODS_CAL_OVERHEAD, "disturbed placeholder timings beyond the limit: calibration overhead (-1)");
    methods_result_free(&r);
}

/* ---- the net-time estimators agree on a target of known instruction count ---------------- */

static void test_estimators(const struct methods_cpu *cpu)
{
    struct methods_result r10, r100, r1000;
    int m = METHOD_LFENCE_RDTSC;
    /* 1000 dependent adds: about 1000 core cycles an iteration whatever the
     * machine; 100 iterations keep the routine far above the method's noise. */
    methods_measure(m, bm_target_add1000, NULL, 200, 100, &r1000);
    methods_measure(m, bm_target_add100, NULL, 200, 100, &r100);
    methods_measure(m, bm_target_add10, NULL, 200, 100, &r10);
    char what[200];
    snprintf(what, sizeof what, "add1000 x 100: ok (status %s, MW p %.3g)", methods_status_name(r1000.status),
             r1000.mw_p);
    CHECK(r1000.status == METHODS_OK, what);
    double e[3] = { r1000.minus_placeholder, r1000.apple, r1000.n_vs_2n };
    double lo = fmin(e[0], fmin(e[1], e[2])), hi = fmax(e[0], fmax(e[1], e[2]));
    snprintf(what, sizeof what, "add1000: the three estimators agree within 5%% (%.2f, %.2f, %.2f ticks/iteration)",
             e[0], e[1], e[2]);
    CHECK(lo > 0 && hi / lo < 1.05, what);
    snprintf(what, sizeof what, "add1000 / add100 per iteration (N vs 2N): %.3f, within 9..11 "
             "(1002/102 instructions, 1000/100 latencies)", r1000.n_vs_2n / r100.n_vs_2n);
    CHECK(r1000.n_vs_2n / r100.n_vs_2n > 9 && r1000.n_vs_2n / r100.n_vs_2n < 11, what);
    /* between the instruction ratio 102/12 = 8.5 and the latency ratio 100/10 */
    snprintf(what, sizeof what, "add100 / add10 per iteration (Apple's): %.3f, within 7.5..11",
             r100.apple / r10.apple);
    CHECK(r100.apple / r10.apple > 7.5 && r100.apple / r10.apple < 11, what);
    CHECK(r1000.samples == 200 && r1000.net_sum.n == 200, "200 good samples kept, summarized");
    CHECK_NEAR(r1000.net_sum.median, (r1000.t_sum.median - r1000.p_sum.median) / 100.0, 1e-9,
               "net samples: (timing - placeholder median) / N");
    methods_result_free(&r10);
    methods_result_free(&r100);
    methods_result_free(&r1000);
    (void)cpu;
}

static void test_paoloni_and_regress(const struct methods_cpu *cpu)
{
    double s, i, r2, rv;
    methods_regress(regress_x, regress_y, 12, &s, &i, &r2, &rv);
    CHECK_NEAR(s, REGRESS_SLOPE, 1e-12, "regression slope (numpy.polyfit)");
    CHECK_NEAR(i, REGRESS_INTERCEPT, 1e-11, "regression intercept (numpy.polyfit)");
    CHECK_NEAR(r2, REGRESS_R2, 1e-12, "regression R^2");
    CHECK_NEAR(rv, REGRESS_RESID_VAR, 1e-12, "regression residual variance");
    double flat[3] = { 5, 5, 5 };
    methods_regress(regress_x, flat, 3, &s, &i, &r2, &rv);
    CHECK(s == 0 && i == 5 && isnan(r2) && rv == 0, "constant minima: slope 0, R^2 undefined");

    struct methods_paoloni pa;
    CHECK_EQ_I64(methods_paoloni(METHOD_LFENCE_RDTSC, cpu, 8, 64, 40, &pa), METHODS_OK, "Paoloni check runs");
    /* Host timings are noisy (the exact figures are asserted in the image
     * under -icount: tests/boot/test_methods.sh); here the figures must be
     * the ones the raw minima imply. */
    CHECK(pa.ensembles == 8 && pa.ensemble_size == 64 && pa.sizes == 40, "Paoloni: the shape asked for");
    uint32_t distinct = 0, spurious = 0;
    double mean = 0, var = 0;
    for (uint32_t e = 0; e < pa.ensembles; e++) {
        uint32_t k = 0;
        while (k < e && pa.fixed_minima[k] != pa.fixed_minima[e])
            k++;
        distinct += k == e;
        mean += (double)pa.fixed_minima[e] / pa.ensembles;
    }
    for (uint32_t e = 0; e < pa.ensembles; e++)
        var += ((double)pa.fixed_minima[e] - mean) * ((double)pa.fixed_minima[e] - mean) / pa.ensembles;
    CHECK(pa.fixed_distinct == distinct, "Paoloni: distinct minima counted from the minima");
    CHECK_NEAR(pa.fixed_var, var, 1e-9 * (1 + var), "Paoloni: variance of the minima (population)");
    double x[40], y[40], s2, i2, r22, rv2;
    for (uint32_t k = 0; k < pa.sizes; k++) {
        x[k] = k + 1;
        y[k] = (double)pa.grow_minima[k];
        spurious += k > 0 && pa.grow_minima[k] < pa.grow_minima[k - 1];
    }
    CHECK(pa.spurious == spurious, "Paoloni: spurious minima = sizes whose minimum is below the previous size's");
    methods_regress(x, y, pa.sizes, &s2, &i2, &r22, &rv2);
    CHECK(pa.slope == s2 && pa.intercept == i2 && (pa.r2 == r22 || (isnan(pa.r2) && isnan(r22))),
          "Paoloni: slope, intercept and R^2 are the least squares of the minima on the size");
    methods_paoloni_free(&pa);
    CHECK_EQ_I64(methods_paoloni(METHOD_LFENCE_RDTSC, cpu, 0, 64, 40, &pa), METHODS_BAD_INPUT,
                 "Paoloni with 0 ensembles: bad input");
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
    char what[160];
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
    methods_cpu_probe(&cpu);
    printf("# CPU %s, rdtscp %s, hypervisor %s\n", cpu.vendor, cpu.rdtscp ? "yes" : "no",
           cpu.hypervisor ? cpu.hypervisor_vendor : "none");
    test_sequences();
    test_methods_sane(&cpu);
    test_statuses(&cpu);
    test_overhead_limits();
    test_estimators(&cpu);
    test_paoloni_and_regress(&cpu);
    test_compare_synthetic();
    test_compare_real(&cpu);
    return check_done();
}
