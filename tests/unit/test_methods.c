/*
 * tests/unit/test_methods.c - the timing methods and the engine on the host
 * (bench/methods/methods.c, the bench .asm files); the extended profile, the LFENCE
 * rules and Karsh's A/B are tests/unit/test_methods_ab.c.  The sections'
 * JSON is checked by tests/unit/test_methods_cli.sh.
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
    struct methods_opts opt = { 50, NULL, NULL, NULL, 0, 1, NULL };     /* N fixed: no growth probes */
    CHECK_EQ_I64(methods_measure_ex(METHOD_LFENCE_RDTSC, turning_routine, &t, 20, 1, &opt, &r),
                 METHODS_BENCH_OVERHEAD, "disturbed benchmark timings beyond the limit: benchmark overhead (-2)");
    CHECK_EQ_U64(r.bench_overheads, 50, "benchmark overhead: the 50 allowed retakes were made");
    methods_result_free(&r);
    t.count = 0;
    struct methods_opts cal = { 50, turning_routine, NULL, NULL, 0, 1, NULL };
    CHECK_EQ_I64(methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, &t, 20, 1, &cal, &r),
                 METHODS_CAL_OVERHEAD, "disturbed placeholder timings beyond the limit: calibration overhead (-1)");
    methods_result_free(&r);
}

/* ---- the net-time estimators agree on a target of known instruction count ---------------- */

/* Whether the three estimators agree on add1000 and scale from add100 and
 * add10 as the instruction counts say (the checks below, as one test). */
static int estimators_agree(const struct methods_result *r10, const struct methods_result *r100,
                            const struct methods_result *r1000)
{
    double lo = fmin(r1000->minus_placeholder, fmin(r1000->apple, r1000->n_vs_2n));
    double hi = fmax(r1000->minus_placeholder, fmax(r1000->apple, r1000->n_vs_2n));
    double n2n = r1000->n_vs_2n / r100->n_vs_2n, apple = r100->apple / r10->apple;
    return lo > 0 && hi / lo < 1.05 && n2n > 9 && n2n < 11 && apple > 7.5 && apple < 11;
}

static void test_estimators(const struct methods_cpu *cpu)
{
    struct methods_result r10, r100, r1000;
    int m = METHOD_LFENCE_RDTSC, attempt;
    /* 1000 dependent adds: about 1000 core cycles an iteration whatever the
     * machine; 100 iterations keep the routine far above the method's noise.
     * This times real code on a host that may be running other work (CI
     * boots QEMU beside it): a measurement the host disturbed is taken again,
     * up to 3 times, and the checks read the last one.  Wrong estimators
     * disagree on every attempt. */
    for (attempt = 1; ; attempt++) {
        methods_measure(m, bm_target_add1000, NULL, 200, 100, &r1000);
        methods_measure(m, bm_target_add100, NULL, 200, 100, &r100);
        methods_measure(m, bm_target_add10, NULL, 200, 100, &r10);
        if (attempt == 3 || estimators_agree(&r10, &r100, &r1000))
            break;
        methods_result_free(&r10);
        methods_result_free(&r100);
        methods_result_free(&r1000);
    }
    char what[200];
    snprintf(what, sizeof what, "add1000 x 100: ok (status %s, MW p %.3g)", methods_status_name(r1000.status),
             r1000.mw_p);
    CHECK(r1000.status == METHODS_OK, what);
    double e[3] = { r1000.minus_placeholder, r1000.apple, r1000.n_vs_2n };
    double lo = fmin(e[0], fmin(e[1], e[2])), hi = fmax(e[0], fmax(e[1], e[2]));
    snprintf(what, sizeof what, "add1000: the three estimators agree within 5%% (%.2f, %.2f, %.2f ticks/iteration; "
             "measurement %d of at most 3)", e[0], e[1], e[2], attempt);
    CHECK(lo > 0 && hi / lo < 1.05, what);
    snprintf(what, sizeof what, "add1000 / add100 per iteration (N vs 2N): %.3f, within 9..11 "
             "(1002/102 instructions, 1000/100 latencies)", r1000.n_vs_2n / r100.n_vs_2n);
    CHECK(r1000.n_vs_2n / r100.n_vs_2n > 9 && r1000.n_vs_2n / r100.n_vs_2n < 11, what);
    /* between the instruction ratio 102/12 = 8.5 and the latency ratio 100/10 */
    snprintf(what, sizeof what, "add100 / add10 per iteration (Apple's): %.3f, within 7.5..11",
             r100.apple / r10.apple);
    CHECK(r100.apple / r10.apple > 7.5 && r100.apple / r10.apple < 11, what);
    CHECK(r1000.samples == 200 && r1000.net_sum.n == 200, "200 good samples kept, summarized");
    CHECK_NEAR(r1000.net_sum.median, (r1000.t_sum.median - r1000.p_sum.median) / (double)r1000.iterations, 1e-9,
               "net samples: (timing - placeholder median) / N (the N used)");
    CHECK(r1000.iterations >= 100 && r1000.iterations_requested == 100, "add1000: N used is at least the 100 asked for");
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

/* ---- the engine on a simulated counter (issue 14.1, 14.2) ------------------------------- */

/* A counter read on a grid of `grid` ticks, as under QEMU TCG (21 ticks
 * there).  Mode AA: every timing, placeholder or routine, is 1, 2 or 3 grid
 * steps (74%, 25%, 1%): two identical routines.  Mode COST: a routine of
 * `fixed` + `per_iter` x N ticks (the placeholder: `fixed` only) plus up to
 * 3 ticks of jitter, started at a random phase of the grid. */
static struct sim_counter {
    uint64_t state, grid;
    int cost;
    double fixed, per_iter;
} simc;

static uint64_t simc_next(void)     /* xorshift64* */
{
    simc.state ^= simc.state >> 12;
    simc.state ^= simc.state << 25;
    simc.state ^= simc.state >> 27;
    return simc.state * UINT64_C(2685821657736338717);
}

static double simc_unit(void)
{
    return (double)(simc_next() >> 11) / 9007199254740992.0;
}

static uint64_t sim_bracket(bm_routine f, uint64_t n, void *data)
{
    (void)data;
    if (!simc.cost) {
        double u = simc_unit();
        return simc.grid * (u < 0.74 ? 1 : u < 0.99 ? 2 : 3);
    }
    double d = simc.fixed + (f == bm_target_placeholder ? 0 : simc.per_iter * (double)n) + 3 * simc_unit();
    double phase = simc_unit() * (double)simc.grid;
    return simc.grid * (uint64_t)((phase + d) / (double)simc.grid);
}

/* ---- the A/A check on simulated counters (issue 23.8) ----------------------------------- */

/* A/A counters: every timing of either label is drawn from one
 * distribution, plus a position effect - the first timing of each pair
 * `first_extra` ticks slower in half the pairs (a cache refilled, a
 * branch predictor retrained) - and, for the placement check, `empty` a
 * fixed `empty_extra` ticks slower than the placeholder.  The engine's
 * calls: warm-up 2, then the first passes in pairs, so the parity of the
 * call count tells first from second while the first passes run. */
static struct sim_aa {
    uint64_t grid;                  /* 21: TCG's counter; 1: a fine counter */
    double first_extra, empty_extra;
    uint64_t calls;
} sima;

static uint64_t sim_aa_bracket(bm_routine f, uint64_t n, void *data)
{
    (void)n;
    (void)data;
    double t = sima.grid == 1 ? 200 + 8 * simc_unit() : 0;
    if (sima.grid != 1) {
        double u = simc_unit();
        t = (double)sima.grid * (u < 0.74 ? 1 : u < 0.99 ? 2 : 3);
    }
    if (sima.calls >= 2 && sima.calls % 2 == 0 && simc_unit() < 0.5)
        t += sima.first_extra;
    if (f == bm_target_empty)
        t += sima.empty_extra;
    sima.calls++;
    return (uint64_t)t;
}

/* R measurements of routine against the placeholder; counts of the
 * signed-rank p below 0.01, 0.05, 0.25, 0.5. */
struct aa_counts {
    unsigned below[4], exact, kept_all;
};
static const double aa_alpha[4] = { 0.01, 0.05, 0.25, 0.5 };

static void aa_run(const struct methods_cpu *cpu, bm_routine f, int fixed_order, int R, struct aa_counts *c)
{
    memset(c, 0, sizeof *c);
    c->kept_all = 1;
    for (int k = 0; k < R; k++) {
        struct methods_opts opt = { 0, NULL, NULL, cpu, sima.grid, 1, sim_aa_bracket, fixed_order, (uint64_t)k + 1 };
        struct methods_result r;
        sima.calls = 0;
        methods_measure_ex(METHOD_LFENCE_RDTSC, f, NULL, 100, 10, &opt, &r);
        for (int a = 0; a < 4; a++)
            c->below[a] += r.paired.p < aa_alpha[a];
        c->exact += (unsigned)r.paired.exact;
        c->kept_all &= r.paired.n == 100;
        methods_result_free(&r);
    }
}

/* The null distribution of the A/A's p over R = 300 measurements, against
 * the binomial quantiles of Bin(300, alpha) (scipy.stats.binom.ppf): on a
 * fine counter p is uniform (each count inside the two-sided 99.9% band);
 * on TCG's 21-tick grid the exact test is conservative (each count at most
 * the 99.9% bound).  With the order fixed (placeholder first) the same
 * position effect is a difference in every measurement. */
static void test_aa_null(const struct methods_cpu *cpu)
{
    static const unsigned lo[4] = { 0, 4, 51, 122 }, hi[4] = { 10, 29, 100, 178 }, bound[4] = { 10, 28, 99, 177 };
    struct aa_counts c;
    char what[240];
    simc.state = UINT64_C(0x2545F4914F6CDD1D);
    sima.first_extra = 3;
    sima.empty_extra = 0;
    sima.grid = 1;
    aa_run(cpu, bm_target_placeholder, 0, 300, &c);
    snprintf(what, sizeof what, "A/A on a fine counter with a 3-tick position effect, order drawn per pair: "
             "signed-rank p < 0.01/0.05/0.25/0.5 in %u/%u/%u/%u of 300 (99.9%% bands 0..10, 4..29, 51..100, "
             "122..178); exact p in %u", c.below[0], c.below[1], c.below[2], c.below[3], c.exact);
    int ok = c.exact == 300 && c.kept_all;
    for (int a = 0; a < 4; a++)
        ok &= c.below[a] >= lo[a] && c.below[a] <= hi[a];
    CHECK(ok, what);

    sima.grid = 21;
    sima.first_extra = 21;
    aa_run(cpu, bm_target_placeholder, 0, 300, &c);
    snprintf(what, sizeof what, "A/A on a 21-tick grid with a one-step position effect: p < 0.01/0.05/0.25/0.5 in "
             "%u/%u/%u/%u of 300 (99.9%% bounds 10, 28, 99, 177: an exact test on ties is conservative)",
             c.below[0], c.below[1], c.below[2], c.below[3]);
    ok = c.below[3] > 0;
    for (int a = 0; a < 4; a++)
        ok &= c.below[a] <= bound[a];
    CHECK(ok, what);

    sima.grid = 1;
    sima.first_extra = 3;
    aa_run(cpu, bm_target_placeholder, 1, 50, &c);
    snprintf(what, sizeof what, "the same A/A with the placeholder always first: the position effect is a "
             "difference (p < 0.05 in %u of 50)", c.below[1]);
    CHECK(c.below[1] >= 45, what);

    /* Placement: empty 1 tick slower than the placeholder on a fine counter. */
    sima.first_extra = 0;
    sima.empty_extra = 1;
    aa_run(cpu, bm_target_empty, 0, 50, &c);
    snprintf(what, sizeof what, "placement check: a 1-tick placement effect found (p < 0.05 in %u of 50; bound "
             "for none: Bin(50, 0.05) 99.9%% = 8)", c.below[1]);
    CHECK(c.below[1] > 8, what);
    aa_run(cpu, bm_target_placeholder, 0, 50, &c);
    snprintf(what, sizeof what, "the true A/A cannot see it: one routine at one address (p < 0.05 in %u of 50)",
             c.below[1]);
    CHECK(c.below[1] <= 8, what);
}

/* ---- the fences on slow and fast routines (issue 23.10) --------------------------------- */

/* A counter with disturbances: a timing is its cost plus 0..4 ticks of
 * jitter, and 5% of timings (either routine) are disturbed by 30..300
 * ticks more (an SMI, an emulator exit).  The placeholder costs 100
 * ticks, the routine 100 + `extra`. */
static double simd_extra;

static uint64_t sim_dist_bracket(bm_routine f, uint64_t n, void *data)
{
    (void)data;
    double t = 100 + (f == bm_target_placeholder ? 0 : simd_extra * (double)n / 10) + 4 * simc_unit();
    if (simc_unit() < 0.05)
        t += 30 + 270 * simc_unit();
    return (uint64_t)t;
}

/* The net time (mean T - mean P and median T - median P over N = 10) must
 * come out as the routine's true extra cost whether the routine is fast
 * (2 ticks: inside the jitter), slow compared with the fences' spread (60
 * ticks) or far slower (5000).  One fence from both series pooled put Q1
 * in the placeholder and Q3 in the routine at 60 ticks: the placeholder
 * kept disturbances the routine lost, and the mean came out 1.5 ticks low. */
static void test_fence_scale(const struct methods_cpu *cpu)
{
    static const double extras[3] = { 2, 60, 5000 };
    enum { R = 40 };
    for (int e = 0; e < 3; e++) {
        double mean_bias = 0, median_bias = 0;
        unsigned cut = 1;
        simd_extra = extras[e];
        simc.state = UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)e;
        for (int k = 0; k < R; k++) {
            struct methods_opts opt = { 0, NULL, NULL, cpu, 1, 1, sim_dist_bracket, 0, (uint64_t)k + 1 };
            struct methods_result r;
            methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 200, 10, &opt, &r);
            mean_bias += (r.mean_net * 10 - extras[e]) / R;
            median_bias += (r.net_sum.median * 10 - extras[e]) / R;
            cut &= r.p_sum.max < 100 + 30 && r.t_sum.max < 100 + extras[e] + 30;
            if (!cut && k == 0)
                printf("# extra %g: P max %g, T max %g, fences %g %g (+%g)\n", extras[e], r.p_sum.max, r.t_sum.max,
                       r.cal_fence, r.bench_fence, r.fence_above);
            methods_result_free(&r);
        }
        char what[240];
        snprintf(what, sizeof what, "fences at a routine %g ticks slower than the placeholder: mean net off by %+.3f, "
                 "median net by %+.3f ticks over %d measurements (|bias| <= 0.3)", extras[e], mean_bias, median_bias, R);
        CHECK(fabs(mean_bias) <= 0.3 && fabs(median_bias) <= 0.3, what);
        snprintf(what, sizeof what, "fences at %g ticks: every disturbance of either series cut", extras[e]);
        CHECK(cut, what);
    }
}

/* A routine 4 ticks longer than the placeholder per iteration, asked for
 * with N = 1 on a 21-tick grid: at N = 1 both medians sit on the same
 * grid step (42).  Growing N until the net time spans 100 steps (2100
 * ticks) tells it apart and measures 4 ticks/iteration; with N fixed at 1,
 * Mann-Whitney's U still tells the routine is longer though the medians
 * tie. */
static void test_grow_n(const struct methods_cpu *cpu)
{
    struct methods_result r;
    struct methods_opts opt = { 0, NULL, NULL, cpu, 21, 0, sim_bracket };
    char what[240];
    simc.state = UINT64_C(0x9E3779B97F4A7C15);
    simc.grid = 21;
    simc.cost = 1;
    simc.fixed = 33;
    simc.per_iter = 4;
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 100, 1, &opt, &r);
    snprintf(what, sizeof what, "grid tie: N grown from 1 to %llu (4 x 512 = 2048 < 2100 ticks <= 4 x 1024), "
             "status %s, why \"%s\"", (unsigned long long)r.iterations, methods_status_name(r.status),
             r.iterations_why);
    CHECK(r.iterations == 1024 && r.iterations_requested == 1 && r.status == METHODS_OK
          && strstr(r.iterations_why, "grown"), what);
    snprintf(what, sizeof what, "grid tie: at N = 1024 the net time is 4 ticks/iteration within 2 grid steps "
             "over N (%.4f)", r.minus_placeholder);
    CHECK(fabs(r.minus_placeholder - 4) <= 2 * 21.0 / 1024, what);
    CHECK(r.step == 21 && r.step_known, "grid tie: the counter step given (21) is the one used");
    methods_result_free(&r);

    /* 4 ticks on a 21-tick grid move a timing up one step 19% more often:
     * 400 pairs tell that apart with room to spare (100 did with 80-90%
     * power, so the result hung on the random stream). */
    opt.fixed_iterations = 1;
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 400, 1, &opt, &r);
    snprintf(what, sizeof what, "grid tie, N fixed at 1: medians %.0f and %.0f, Mann-Whitney p %.2g, U %.0f of "
             "160000: told apart (%s)", r.t_sum.median, r.p_sum.median, r.mw_p, r.mw_u,
             methods_status_name(r.status));
    CHECK(r.t_sum.median == r.p_sum.median && r.iterations == 1 && r.status == METHODS_OK, what);
    methods_result_free(&r);

    /* A routine whose time does not grow with N gets N back as asked. */
    simc.per_iter = 0;
    opt.fixed_iterations = 0;
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 100, 3, &opt, &r);
    snprintf(what, sizeof what, "time independent of N: N stays 3 as asked (%llu, \"%s\")",
             (unsigned long long)r.iterations, r.iterations_why);
    CHECK(r.iterations == 3 && strstr(r.iterations_why, "does not grow"), what);
    methods_result_free(&r);
}

/* The counter step the engine uses (issue 33.2): on a TCG-like counter, a
 * grid of 24 ticks with one tick of jitter, the smallest gap between two
 * timings is 1 tick.  The step the clock measured (plat_tick_step) is the
 * one used for N; the caller's still wins; the smallest gap only when
 * neither is known, and the result says which.  With 24 ticks, a routine
 * 4 ticks/iteration longer than the placeholder needs a net time of 2400
 * ticks: N doubles from 1 to 1024 (4 x 512 = 2048 is short of it, give or
 * take a grid step; 4 x 1024 = 4096 is not). */
static uint64_t sim_jitter_bracket(bm_routine f, uint64_t n, void *data)
{
    uint64_t t = sim_bracket(f, n, data), u = simc_next() % 3;
    return t + u - 1;
}

static void test_step_source(const struct methods_cpu *cpu)
{
    struct methods_result r;
    struct methods_opts opt = { 0, NULL, NULL, cpu, 0, 0, sim_jitter_bracket };
    char what[240];
    simc.state = UINT64_C(0x2545F4914F6CDD1D);
    simc.grid = 24;
    simc.cost = 1;
    simc.fixed = 100;
    simc.per_iter = 4;

    plat_set_tick_step(0);
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 50, 1, &opt, &r);
    snprintf(what, sizeof what, "no measured step: the smallest gap (1 on a grid of 24 +-1) is the fallback, "
             "said so (step %llu, %s, \"%s\")", (unsigned long long)r.step, methods_step_source_name(r.step_source),
             r.iterations_why);
    CHECK(r.step == 1 && r.step_source == METHODS_STEP_SEEN && strstr(r.iterations_why, "smallest gap"), what);
    methods_result_free(&r);

    plat_set_tick_step(24);
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 50, 1, &opt, &r);
    snprintf(what, sizeof what, "measured step 24: used for N (grown to %llu, want 1024) and recorded (step %llu, "
             "%s, \"%s\")", (unsigned long long)r.iterations, (unsigned long long)r.step,
             methods_step_source_name(r.step_source), r.iterations_why);
    CHECK(r.step == 24 && r.step_source == METHODS_STEP_CLOCK && r.iterations == 1024
          && strstr(r.iterations_why, "steps of 24 (measured)"), what);
    methods_result_free(&r);

    opt.step = 21;
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 50, 1, &opt, &r);
    snprintf(what, sizeof what, "the caller's step (21) wins over the measured one (24): step %llu, %s",
             (unsigned long long)r.step, methods_step_source_name(r.step_source));
    CHECK(r.step == 21 && r.step_source == METHODS_STEP_CALLER, what);
    methods_result_free(&r);

    opt.step = 0;
    opt.fixed_iterations = 1;
    methods_measure_ex(METHOD_LFENCE_RDTSC, bm_target_add10, NULL, 50, 1, &opt, &r);
    snprintf(what, sizeof what, "N fixed: the measured step still sets the fences' least spread (step %llu, fence "
             "allowance %.1f >= 1.5 x 24)", (unsigned long long)r.step, r.fence_above);
    CHECK(r.step == 24 && r.step_source == METHODS_STEP_CLOCK && r.fence_above >= 1.5 * 24, what);
    methods_result_free(&r);
    plat_set_tick_step(0);
}

int main(void)
{
    struct methods_cpu cpu;
    methods_cpu_probe(&cpu, cpu_identity(), NULL);
    printf("# CPU %s, rdtscp %s, hypervisor %s\n", cpu.vendor, cpu.rdtscp ? "yes" : "no",
           cpu.hypervisor ? cpu.hypervisor_vendor : "none");
    test_sequences();
    test_methods_sane(&cpu);
    test_statuses(&cpu);
    test_overhead_limits();
    test_estimators(&cpu);
    test_paoloni_and_regress(&cpu);
    test_aa_null(&cpu);
    test_fence_scale(&cpu);
    test_grow_n(&cpu);
    test_step_source(&cpu);
    return check_done();
}
