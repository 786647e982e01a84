/*
 * bench/bytemark/bytemark_internal.h - helpers shared by the suite and some
 * kernels, exposed for the unit tests (tests/unit/test_bytemark_a.c).  Not
 * part of the public interface (bytemark.h).
 */
#ifndef BAREMARK_BYTEMARK_INTERNAL_H
#define BAREMARK_BYTEMARK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bytemark.h"

/* MD5 (RFC 1321) of data[0..n-1] as 32 lower-case hex digits and a NUL. */
void bm_md5_hex(const void *data, size_t n, char out[33]);

/* ---- the suite's parameters (bytemark.c) ----------------------------------- */

/* BYTEmark's defaults (BYTEMARK.md sections 2, 3 and 11). */
#define BM_FULL_MIN_SECONDS 5.0     /* MINIMUM_SECONDS */
#define BM_FULL_MIN_RUNS    5
#define BM_FULL_MAX_RUNS    30
/* The quick profile (baremark's own, for QEMU TCG): short runs and fewer of
 * them, so the ten tests take a few seconds; its scores are indicative only. */
#define BM_QUICK_MIN_SECONDS 0.1
#define BM_QUICK_MIN_RUNS    3
#define BM_QUICK_MAX_RUNS    5
/* Room for the most runs any profile makes. */
#define BM_RUNS_CAP          BM_FULL_MAX_RUNS

/* The profile that runs and what it means. */
struct bm_profile_params {
    enum bm_profile profile;   /* BM_PROFILE_QUICK or BM_PROFILE_FULL */
    enum bm_profile requested; /* as the settings asked (AUTO possible) */
    const char *name;          /* "quick" / "full" */
    double min_seconds;        /* per run, unless the settings fix it */
    unsigned min_runs, max_runs;
};

/* The parameters of the profile that runs (`run`: the run's, settled once
 * before the sections, bench/section.h run_env; anything but quick is full), and
 * the one the settings asked for (`requested`, for the header's words). */
void bm_profile_params_of(enum bm_profile run, enum bm_profile requested, struct bm_profile_params *out);

/* Seconds one run of test `id` accumulates: the settings' MINSECONDS /
 * xxxMINSECONDS when set explicitly, else the profile's. */
double bm_profile_min_seconds(const struct bm_config *cfg, const struct bm_profile_params *p,
                              enum bm_test_id id);

/* The statistics of the runs so far and the stopping decision. */
struct bm_run_stats {
    size_t n;
    double mean, sd;           /* sample sd (n - 1) */
    double t, half, rel_half;  /* Student t 95%, t*sd/sqrt(n), half/mean */
    int done;                  /* stop: within 5%, or the run limit hit */
    int certain;               /* half-interval within 5% of the mean */
};

/* BYTEmark's rule (Mayer's 2.2.3 version): with n >= min_runs scores, stop
 * when the 95% Student-t half-interval is within 5% of the mean; stop
 * uncertain at max_runs; otherwise run again, keeping every score.  Uses
 * stats_summary_double and stats_bytemark_rule (stats/). */
void bm_run_rule(const double *scores, size_t n, unsigned min_runs, unsigned max_runs,
                 struct bm_run_stats *out);

/* The composite indexes, exactly as nbench0.c: products over the tests that
 * ran (ran[i] nonzero) of mean/baseline, raised to the fixed exponents
 * 0.142857 (original integer, P90), 0.33333 (original FP, P90),
 * 0.3333333333 (Linux memory, K6), 0.25 (Linux integer, K6), 0.3333333333
 * (Linux FP, K6). */
struct bm_indexes {
    double orig_int, orig_fp, lx_mem, lx_int, lx_fp;
    int missing;               /* tests of the ten not in the products */
};
void bm_indexes_compute(const double mean[BM_NTESTS], const int ran[BM_NTESTS],
                        struct bm_indexes *out);

/* bytemark_mem.c: the test whose timed work bm_timer_start is in (its
 * fault-injection point), NULL outside a test. */
void bm_timer_fault_key(const char *key);

/* Adjustment of IDEA and Huffman, for (loops = 100; loops < MAX; loops +=
 * STEP) in the reference: 100..MAX-STEP are tried, then the loop ends at
 * MAX without an error and that count is used.  Here MAX gets one more
 * (unscored) trial before the suite accepts it unchanged; only a machine
 * where MAX-STEP loops take under GLOBALMINTICKS would tell the
 * difference.  Always BM_OK. */
int bm_grow_loops_capped(struct bm_state *s, uint64_t step, uint64_t max);

/* A kernel's private state, s->priv: bm_priv_new hangs a zeroed block of
 * `bytes` there and returns it (NULL: out of memory); bm_priv_free frees
 * it and clears s->priv (nothing when it is NULL).  What the block points
 * to is the kernel's to free first (its teardown). */
void *bm_priv_new(struct bm_state *s, size_t bytes);
void bm_priv_free(struct bm_state *s);

/* A state for a kernel's check or probe outside a run: the defaults (a
 * zeroed *cfg), BYTEmark's 8-byte alignment; the kernel's init() next. */
void bm_state_for_check(struct bm_state *s, struct bm_config *cfg);

#endif
