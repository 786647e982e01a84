/*
 * bench/bytemark/bytemark.h - the ten BYTEmark kernels and the suite that
 * runs them.  Pure C: builds into the UEFI image and into the hosted program.
 * The workloads reproduce nbench-byte 2.2.3 exactly (see
 * ../shared/reference/BYTEMARK.md); each kernel lives in its own file.
 *
 * A kernel is a table of operations (struct bm_kernel).  The suite
 * (bytemark.c) owns adjustment, the run loop, statistics and indexes; a
 * kernel owns its data, its timed work and its checks.
 */
#ifndef BAREMARK_BYTEMARK_H
#define BAREMARK_BYTEMARK_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* ---- the generator (bytemark_rand.c), BYTEMARK.md section 1 ------------- */
struct bm_rand { int32_t s0, s1; };
void bm_rand_reset(struct bm_rand *r);                 /* randnum(nonzero) */
int32_t bm_randnum(struct bm_rand *r);                 /* randnum(0) */
int32_t bm_randwc(struct bm_rand *r, int32_t n);       /* randnum(0) % n */
int32_t bm_abs_randwc(struct bm_rand *r, int32_t n);   /* |randwc(n)| */

/* ---- memory, as the reference allocates it (bytemark_mem.c) -------------- */
/* AllocateMemory's alignment rule (BYTEMARK.md section 2): with align = 8 the
 * returned address is 8 mod 16.  Returns NULL when memory is short. */
void *bm_alloc(size_t bytes, uint32_t align);
void bm_free(void *p);

/* ---- timing inside a kernel's iteration --------------------------------- */
/* bm_timer_start masks interrupts and reads the TSC; bm_timer_stop reads it,
 * restores interrupts and returns elapsed ticks.  Only timed work goes between
 * them: no allocation, no firmware, no checks. */
struct bm_timer { uint64_t t0; unsigned long irq; };
void bm_timer_start(struct bm_timer *t);
uint64_t bm_timer_stop(struct bm_timer *t);

/* ---- checks ---------------------------------------------------------------- */
/* A kernel's verify() reports each check through bm_check; the suite prints
 * "PASS: <kernel>: <what>" or "FAIL: <kernel>: <what> (<detail>)". */
struct bm_verify {
    int passed, failed;
    const char *kernel;          /* set by the caller before verify() */
};
void bm_check(struct bm_verify *v, int ok, const char *what, const char *detail_fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- a kernel ---------------------------------------------------------------- */
#define BM_OK       0
#define BM_ENOMEM  -1   /* not enough memory for the arrays: the test is skipped */
#define BM_ECAP    -2   /* adjustment hit the reference's cap (an error there too) */
#define BM_EFAIL   -3   /* the kernel's own result check failed */

struct bm_state {
    const struct bm_config *cfg;
    uint32_t align;          /* cfg->align, 8 by default */
    /* The workload knob that adjustment grows (number of arrays, loops, ops or
     * coefficients: see BYTEMARK.md section 2's table) and whether it is fixed
     * by the command file (no adjustment). */
    uint64_t workload;
    int workload_fixed;
    int adjusted;            /* set by the suite once adjustment is done */
    void *priv;              /* the kernel's own data */
};

struct bm_kernel {
    enum bm_test_id id;
    const char *name;        /* BYTEmark's report name: "NUMERIC SORT" */
    const char *key;         /* JSON / command-line key: "numsort" */
    const char *unit;        /* what the score counts: "arrays/s" */
    double base_p90;         /* Pentium 90 baseline (Old Index) */
    double base_k6;          /* AMD K6-233 baseline (New Index) */
    /* Start value of the workload from the config (or the reference default)
     * and whether the config fixes it. */
    void (*init)(struct bm_state *s);
    /* Allocate for the current workload (untimed; may call plat_alloc).
     * Returns BM_OK or BM_ENOMEM.  Called before each run and after each
     * adjustment step; teardown is always called after. */
    int (*setup)(struct bm_state *s);
    /* One iteration: untimed reload of the data, then the timed work between
     * bm_timer_start/stop.  Returns the timed ticks; *units gets the work
     * done, in the unit of the score (e.g. arrays sorted).  Returns 0 with
     * *units = 0 on an internal failure (and sets s->priv state for report). */
    uint64_t (*iterate)(struct bm_state *s, double *units);
    /* Grow the workload one adjustment step (BYTEMARK.md section 2), or
     * return BM_ECAP at the reference's cap. */
    int (*grow)(struct bm_state *s);
    void (*teardown)(struct bm_state *s);
    /* Run every check of this kernel (BYTEmark document data and BYTEMARK.md
     * check values); allocates what it needs itself. */
    void (*verify)(struct bm_verify *v);
    /* One line describing the adjusted size, for ALLSTATS ("8111 x 1 arrays"). */
    void (*describe)(const struct bm_state *s, char *buf, size_t n);
};

extern const struct bm_kernel bm_numsort, bm_strsort, bm_bitfield, bm_emfloat,
    bm_fourier, bm_assign, bm_idea, bm_huffman, bm_nnet, bm_lu;

/* The ten, in the reference's order (bytemark_kernels.c). */
extern const struct bm_kernel *const bm_kernels[BM_NTESTS];

/* ---- the suite (bytemark.c) ------------------------------------------------- */
/* Run every enabled test with the run's profile (env->profile, settled once
 * before the sections: bench/section.h struct run_env); text to out_printf,
 * the "bytemark" section to the results document.  Returns 0, or 2 when a
 * test was skipped, failed or not statistically certain. */
struct run_env;
int bytemark_run(const struct bm_config *cfg, const struct run_env *env);
/* One test on the calling CPU, for the cores section: adjustment and runs
 * exactly as the suite does (BYTEmark's rule with the job's profile), but no
 * measuring phase, no output and no fault-injection point, so it can run on
 * an application processor (whose plat_alloc the image serves from memory
 * set aside by the bootstrap processor).  long (*)(void *) so it can be
 * posted to a CPU; returns job->status. */
#define BYTEMARK_CORE_RUNS 30
struct bytemark_core_job {
    const struct bm_config *cfg;     /* sizes and parameters */
    enum bm_test_id id;
    enum bm_profile profile;         /* BM_PROFILE_QUICK or BM_PROFILE_FULL: the run's (run_env) */
    uint64_t hz;                     /* TSC rate (the same on every CPU) */
    /* results */
    int status;                      /* BM_OK, BM_ENOMEM, BM_ECAP, BM_EFAIL */
    double min_seconds;
    uint64_t workload;
    size_t runs;
    double scores[BYTEMARK_CORE_RUNS];
    double mean, sd, half, rel_half;
    int certain;
};
long bytemark_core_test(void *job);
/* The kernel of a test (NULL when not built). */
const struct bm_kernel *bytemark_kernel(enum bm_test_id id);

/* Run every kernel's checks; PASS/FAIL lines to out_printf and a "verify"
 * section.  Returns the number of failed checks. */
int bytemark_verify(const struct bm_config *cfg);

/* The two as sections (bench/sections.c): "bytemark" and "verify" (which
 * returns SECTION_WARNINGS when a check failed). */
struct section_ctx;
int bytemark_section_run(const struct section_ctx *ctx);
int verify_run(const struct section_ctx *ctx);

#endif
