/*
 * tests/unit/test_bytemark_a.c - the BYTEmark suite and its first five
 * kernels (numeric sort, string sort, bitfield, emulated FP, Fourier).
 *
 * Expected values and their sources:
 * - generator outputs, data digests, op counts: ../shared/reference/
 *   BYTEMARK.md sections 1 and 7 (instrumented reference build), re-derived
 *   by tests/vectors/bytemark/model_a.py (an independent Python model);
 * - emulated-FP sample lines, Fourier A[i]/B[i]: the BYTEmark document
 *   (seed 002), checked inside each kernel's verify();
 * - Student t values and half-intervals: scipy.stats.t.ppf(0.975, df);
 * - indexes: BYTEMARK.md section 10 run1 raw scores and indexes, and the
 *   same formula in Python for the five kernels alone.
 * The unit test keeps every timed run to MINSECONDS=0 (one iteration).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "bytemark/bytemark_internal.h"
#include "check.h"
#include "results_doc.h"
#include "section.h"

/* The run's environment the suite is handed: the quick profile (the
 * settings' own profile_run stays unsettled, so only this can make it quick). */
static const struct run_env quick_env = { NULL, BM_PROFILE_QUICK, 0 };

/* ---- helpers ------------------------------------------------------------------ */

static const struct bm_kernel *const mine[5] = {
    &bm_numsort, &bm_strsort, &bm_bitfield, &bm_emfloat, &bm_fourier
};

/* A config with BYTEmark's defaults, only our five tests, one iteration a run. */
static void test_config(struct bm_config *c, enum bm_profile profile)
{
    memset(c, 0, sizeof *c);
    c->global_min_ticks = 60;
    c->align = 8;
    c->customrun = 0;
    c->profile = profile;
    for (int i = 0; i < 5; i++) {
        c->enabled[i] = 1;
        c->min_seconds_set[i] = 1;   /* MINSECONDS=0: exactly one iteration */
    }
}

/* ---- tests -------------------------------------------------------------------- */

static void test_generator(void)
{
    static const int32_t want[15] = { -515045, 392519, -200022, -924921, 902984, -94185,
                                      -995196, 390494, 510007, 405088, -207274, -79266,
                                      -230305, -947785, 149280 };
    struct bm_rand r;
    bm_rand_reset(&r);
    int ok = 1;
    for (int i = 0; i < 15; i++)
        ok = ok && bm_randnum(&r) == want[i];
    CHECK(ok, "rand: first 15 outputs after a reset (BYTEMARK.md section 1)");
    bm_rand_reset(&r);
    CHECK_EQ_I64(bm_randwc(&r, 76), -69, "rand: randwc(76) of -515045 is -69 (C remainder)");
    CHECK_EQ_I64(bm_abs_randwc(&r, 76), 55, "rand: abs_randwc(76) of 392519 is 55");
    CHECK_EQ_I64(bm_abs_randwc(&r, 76), 66, "rand: abs_randwc(76) of -200022 is 66");
    /* Two generators do not share state. */
    struct bm_rand a, b;
    bm_rand_reset(&a);
    bm_rand_reset(&b);
    bm_randnum(&a);
    CHECK_EQ_I64(bm_randnum(&b), -515045, "rand: states are independent");
}

static void test_alloc(void)
{
    void *p8 = bm_alloc(100, 8), *p0 = bm_alloc(100, 0), *p1 = bm_alloc(100, 1);
    void *p16 = bm_alloc(100, 16);
    CHECK(p8 && ((uintptr_t)p8 & 15) == 8, "alloc: ALIGN=8 gives 8 mod 16");
    CHECK(p0 && ((uintptr_t)p0 & 15) == 0, "alloc: ALIGN=0 gives malloc's alignment (16)");
    CHECK(p1 && ((uintptr_t)p1 & 1) == 1, "alloc: ALIGN=1 gives an odd address");
    CHECK(p16 && ((uintptr_t)p16 & 31) == 16, "alloc: ALIGN=16 gives 16 mod 32");
    if (p8)
        memset(p8, 0xAB, 100);       /* the whole block is usable */
    bm_free(p8);
    bm_free(p0);
    bm_free(p1);
    bm_free(p16);
    bm_free(NULL);
    CHECK(bm_alloc((size_t)-1, 8) == NULL, "alloc: an impossible size gives NULL");
}

static void test_verify_each(void)
{
    static const int min_checks[5] = { 9, 9, 6, 12, 4 };
    for (int i = 0; i < 5; i++) {
        struct bm_verify v = { 0, 0, mine[i]->key };
        mine[i]->verify(&v);
        char what[96];
        snprintf(what, sizeof what, "%s: verify() passes all its %d+ checks", mine[i]->key,
                 min_checks[i]);
        CHECK(v.failed == 0 && v.passed >= min_checks[i], what);
    }
}

static void test_kernel_ops(void)
{
    struct bm_config cfg;
    test_config(&cfg, BM_PROFILE_QUICK);
    struct bm_state s;

    /* NUMNUMARRAYS fixes the workload; without it adjustment starts at 1. */
    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    bm_numsort.init(&s);
    CHECK(s.workload == 1 && !s.workload_fixed, "numsort: starts at 1 array, adjustable");
    cfg.num_arrays = 3;
    bm_numsort.init(&s);
    CHECK(s.workload == 3 && s.workload_fixed, "numsort: NUMNUMARRAYS=3 fixes 3 arrays");
    double units = 0;
    int rc = bm_numsort.setup(&s);
    uint64_t t = rc == BM_OK ? bm_numsort.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && t > 0 && units == 3.0, "numsort: one iteration sorts 3 arrays");
    bm_numsort.teardown(&s);
    CHECK(s.priv == NULL, "numsort: teardown frees");
    s.workload = 10000;
    CHECK(bm_numsort.grow(&s) == BM_OK && s.workload == 10001,
          "numsort: grows to 10001 (reference's post-increment test)");
    CHECK(bm_numsort.grow(&s) == BM_ECAP, "numsort: cap beyond NUMNUMARRAYS");
    cfg.num_arrays = 0;

    /* A size that cannot be allocated is BM_ENOMEM, not a crash. */
    cfg.num_array_size = (uint64_t)1 << 58;
    bm_numsort.init(&s);
    CHECK(bm_numsort.setup(&s) == BM_ENOMEM, "numsort: impossible NUMARRAYSIZE is BM_ENOMEM");
    bm_numsort.teardown(&s);
    cfg.num_array_size = 0;

    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    cfg.emf_loops = 77;              /* ineffective in the reference */
    bm_emfloat.init(&s);
    CHECK(s.workload == 1 && !s.workload_fixed, "emfloat: EMFLOOPS is ignored, starts at 1 loop");
    s.workload = 131072;
    CHECK(bm_emfloat.grow(&s) == BM_OK && s.workload == 262144, "emfloat: doubles to 262144");
    CHECK(bm_emfloat.grow(&s) == BM_ECAP, "emfloat: 524288 >= CPUEMFLOATLOOPMAX is the cap");
    s.workload = 2;
    rc = bm_emfloat.setup(&s);
    t = rc == BM_OK ? bm_emfloat.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && t > 0 && units == 2.0, "emfloat: an iteration of 2 loops counts 2");
    bm_emfloat.teardown(&s);

    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    bm_bitfield.init(&s);
    CHECK(s.workload == 30, "bitfield: starts at 30 ops");
    bm_bitfield.grow(&s);
    CHECK(s.workload == 130, "bitfield: grows by 100 ops");
    bm_fourier.init(&s);
    CHECK(s.workload == 100 && !s.workload_fixed, "fourier: starts at 100 coefficients");
    bm_fourier.grow(&s);
    CHECK(s.workload == 150, "fourier: grows by 50");
    rc = bm_fourier.setup(&s);
    t = rc == BM_OK ? bm_fourier.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && units == 299.0, "fourier: N=150 counts 2N-1 = 299 coefficients");
    bm_fourier.teardown(&s);
    cfg.four_size = 120;
    bm_fourier.init(&s);
    CHECK(s.workload == 120 && s.workload_fixed, "fourier: FOURSIZE fixes N");
    cfg.four_size = 0;
    cfg.str_arrays = 2;
    bm_strsort.init(&s);
    char d[96];
    bm_strsort.describe(&s, d, sizeof d);
    CHECK_STR(d, "2 arrays of 8111 bytes", "strsort: NUMSTRARRAYS=2 described");
    cfg.str_arrays = 0;
}

static void test_rule(void)
{
    struct bm_run_stats st;
    const double five[5] = { 100, 102, 98, 101, 99 };
    bm_run_rule(five, 4, 5, 30, &st);
    CHECK(!st.done, "rule: 4 runs are never enough in the full profile");
    bm_run_rule(five, 5, 5, 30, &st);
    /* scipy: t.ppf(0.975, 4) = 2.7764451051977987; sd 1.5811388300841898;
     * half = 1.9632431614775607 */
    CHECK_NEAR(st.t, 2.7764451051977987, 1e-9, "rule: t95(4)");
    CHECK_NEAR(st.sd, 1.5811388300841898, 1e-12, "rule: sample sd");
    CHECK_NEAR(st.half, 1.9632431614775607, 1e-8, "rule: half-interval t*sd/sqrt(n)");
    CHECK(st.done && st.certain, "rule: 1.96% of the mean stops at 5 runs");
    const double noisy[3] = { 100, 130, 80 };
    /* scipy: half = 62.51609479610883 of mean 103.33 */
    bm_run_rule(noisy, 3, 3, 5, &st);
    CHECK_NEAR(st.half, 62.51609479610883, 1e-7, "rule: half-interval with 3 runs (t95(2))");
    CHECK(!st.done && !st.certain, "rule: 60% keeps running below the quick limit");
    double many[30];
    for (int i = 0; i < 30; i++)
        many[i] = i % 2 ? 50 : 150;
    bm_run_rule(many, 29, 5, 30, &st);
    CHECK(!st.done, "rule: 29 wild runs go on");
    bm_run_rule(many, 30, 5, 30, &st);
    CHECK(st.done && !st.certain, "rule: 30 wild runs stop, not statistically certain");
    const double flat[5] = { 7, 7, 7, 7, 7 };
    bm_run_rule(flat, 5, 5, 30, &st);
    CHECK(st.done && st.certain && st.half == 0, "rule: identical scores are certain");
}

static void test_profile(void)
{
    struct bm_profile_params p;
    /* Which profile runs is decided once, outside BYTEmark (test_config.c);
     * here: what each one means. */
    bm_profile_params_of(BM_PROFILE_QUICK, BM_PROFILE_AUTO, &p);
    CHECK(p.profile == BM_PROFILE_QUICK && !strcmp(p.name, "quick") && p.min_runs == 3 &&
          p.max_runs == 5 && p.requested == BM_PROFILE_AUTO, "profile: quick is 3..5 runs");
    bm_profile_params_of(BM_PROFILE_FULL, BM_PROFILE_AUTO, &p);
    CHECK(p.profile == BM_PROFILE_FULL && p.min_seconds == 5.0 && p.min_runs == 5 &&
          p.max_runs == 30, "profile: full is BYTEmark's (5 s, 5..30 runs)");
    struct bm_config c;
    test_config(&c, BM_PROFILE_FULL);
    c.min_seconds_set[BM_FOURIER] = 0;
    c.min_seconds[BM_NUMSORT] = 2;
    c.min_seconds_set[BM_NUMSORT] = 1;
    CHECK(bm_profile_min_seconds(&c, &p, BM_NUMSORT) == 2.0, "profile: NUMMINSECONDS wins");
    CHECK(bm_profile_min_seconds(&c, &p, BM_FOURIER) == 5.0, "profile: default per profile");
}

static void test_indexes(void)
{
    /* BYTEMARK.md section 10, run1 raw scores. */
    static const double run1[BM_NTESTS] = { 1745.9, 1803.4, 9.067e8, 828.84, 1.568e5,
                                            53.665, 15366, 8178.6, 172.93, 3693.5 };
    int ran[BM_NTESTS] = { 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 };
    struct bm_indexes ix;
    bm_indexes_compute(run1, ran, &ix);
    /* Python, same formula over the first five tests only. */
    CHECK_NEAR(ix.orig_int, 21.653134740394144, 1e-9, "index: original integer, 5 tests");
    CHECK_NEAR(ix.orig_fp, 5.628583497611608, 1e-9, "index: original FP, Fourier only");
    CHECK_NEAR(ix.lx_mem, 15.942356952155253, 1e-9, "index: Linux memory (strsort, bitfield)");
    CHECK_NEAR(ix.lx_int, 6.060990878435213, 1e-9, "index: Linux integer (numsort, emfloat)");
    CHECK_NEAR(ix.lx_fp, 4.644058289012251, 1e-9, "index: Linux FP (Fourier)");
    CHECK_EQ_I64(ix.missing, 5, "index: 5 tests missing");
    int all = 1;
    for (int i = 0; i < BM_NTESTS; i++)
        all = all && bm_kernels[i];
    if (all) {
        for (int i = 0; i < BM_NTESTS; i++)
            ran[i] = 1;
        bm_indexes_compute(run1, ran, &ix);
        /* BYTEMARK.md: 219.168 211.624 59.871 51.103 117.376 (from raw
         * scores printed to 5 digits, hence the tolerance). */
        CHECK_NEAR(ix.orig_int, 219.168, 0.002, "index: run1 original integer 219.168");
        CHECK_NEAR(ix.orig_fp, 211.624, 0.002, "index: run1 original FP 211.624");
        CHECK_NEAR(ix.lx_mem, 59.871, 0.002, "index: run1 Linux memory 59.871");
        CHECK_NEAR(ix.lx_int, 51.103, 0.002, "index: run1 Linux integer 51.103");
        CHECK_NEAR(ix.lx_fp, 117.376, 0.002, "index: run1 Linux FP 117.376");
    } else {
        printf("# not all ten kernels are built: run1 full-index check skipped\n");
    }
}

static void test_suite_run(void)
{
    struct bm_config cfg;
    test_config(&cfg, BM_PROFILE_QUICK);
    cfg.not_comparable = 1;
    snprintf(cfg.not_comparable_why, sizeof cfg.not_comparable_why, "NUMARRAYSIZE=64");
    cfg.num_array_size = 64;
    cfg.allstats = 1;
    int rc = bytemark_run(&cfg, &quick_env);
    CHECK_EQ_I64(rc, 0, "suite: five tests at MINSECONDS=0 complete with status 0");
    json_t *root = doc_take();
    json_t *bm = json_object_get(root, "bytemark");
    json_t *tests = json_object_get(bm, "tests");
    CHECK(json_is_array(tests) && json_array_size(tests) == BM_NTESTS, "suite: JSON lists 10 tests");
    /* the profile is the run's top-level member, not bytemark's; the quick
     * profile's runs are 3..5 */
    CHECK(!json_object_get(bm, "profile") && json_integer_value(json_object_get(bm, "max_runs")) == 5,
          "suite: JSON: the quick profile's runs, the profile itself recorded once by the run");
    CHECK(json_is_true(json_object_get(bm, "not_comparable")), "suite: JSON not comparable flag");
    CHECK_STR(json_string_value(json_object_get(bm, "not_comparable_why")), "NUMARRAYSIZE=64",
              "suite: JSON says why");
    int scores_ok = 1, status_ok = 1;
    for (int i = 0; i < 5; i++) {
        json_t *t = json_array_get(tests, i);
        json_t *sc = json_object_get(t, "scores");
        size_t n = json_array_size(sc);
        scores_ok = scores_ok && n >= 3 && n <= 5 &&
                    (int)json_integer_value(json_object_get(t, "runs")) == (int)n;
        status_ok = status_ok && !strcmp(json_string_value(json_object_get(t, "status")), "ok");
        if (n) {
            double sum = 0;
            for (size_t k = 0; k < n; k++)
                sum += json_number_value(json_array_get(sc, k));
            double mean = json_number_value(json_object_get(t, "mean"));
            scores_ok = scores_ok && fabs(sum / n - mean) <= 1e-9 * mean;
        }
    }
    CHECK(status_ok, "suite: all five ran");
    CHECK(scores_ok, "suite: 3..5 runs each, every score kept, mean = mean of scores");
    /* 64 elements sort in about a microsecond, far under GLOBALMINTICKS=60
     * us even on a loaded host (where nothing masks interrupts): adjustment
     * must have grown the number of arrays (never their size). */
    const char *size = json_string_value(json_object_get(json_array_get(tests, 0), "size"));
    json_int_t arrays = json_integer_value(json_object_get(json_array_get(tests, 0), "workload"));
    CHECK(size && !strncmp(size, "64 x ", 5) && arrays > 1,
          "suite: NUMARRAYSIZE=64 reached the kernel and adjustment added arrays");
    CHECK_STR(json_string_value(json_object_get(json_array_get(tests, 5), "status")),
              "disabled", "suite: a test switched off is listed as disabled");
    CHECK(json_is_object(json_object_get(bm, "indexes")), "suite: indexes without CUSTOMRUN");
    json_decref(root);

    /* CUSTOMRUN: no indexes; a kernel out of memory is skipped, the rest go on. */
    test_config(&cfg, BM_PROFILE_QUICK);
    cfg.customrun = 1;
    cfg.enabled[BM_STRSORT] = cfg.enabled[BM_EMFLOAT] = cfg.enabled[BM_FOURIER] = 0;
    cfg.num_array_size = (uint64_t)1 << 58;
    rc = bytemark_run(&cfg, &quick_env);
    CHECK_EQ_I64(rc, 2, "suite: a test out of memory makes status 2");
    root = doc_take();
    bm = json_object_get(root, "bytemark");
    tests = json_object_get(bm, "tests");
    CHECK_STR(json_string_value(json_object_get(json_array_get(tests, 0), "status")),
              "skipped_nomem", "suite: numeric sort skipped for memory");
    CHECK_STR(json_string_value(json_object_get(json_array_get(tests, 2), "status")),
              "ok", "suite: bitfield still ran");
    CHECK(json_is_null(json_object_get(bm, "indexes")), "suite: CUSTOMRUN suppresses indexes");
    json_decref(root);
}

static void test_verify_all(void)
{
    struct bm_config cfg;
    test_config(&cfg, BM_PROFILE_QUICK);
    int failed = bytemark_verify(&cfg);
    CHECK_EQ_I64(failed, 0, "verify: bytemark_verify reports no failed check");
    json_t *root = doc_take();
    json_t *v = json_object_get(root, "verify");
    CHECK(json_integer_value(json_object_get(v, "passed")) >= 40 &&
          json_integer_value(json_object_get(v, "failed")) == 0,
          "verify: JSON section with the counts");
    json_decref(root);
}

int main(void)
{
    test_generator();
    test_alloc();
    test_verify_each();
    test_kernel_ops();
    test_rule();
    test_profile();
    test_indexes();
    test_suite_run();
    test_verify_all();
    return check_done();
}
