/*
 * bench/compare/compare.h - Karsh's A/B timing of two routines (seed 000,
 * GatherTimes/TStats).
 *
 * One trial (his accuracy loop) times A and B once each, in alternation
 * (A then B every trial: ABAB...) or in a randomized order (a fair coin per
 * trial decides AB or BA, from a fixed seed so a run can be repeated).  Each
 * timing is one call of routine(precision, data): his precision loop, the
 * routine run `precision` times while the clock runs, after one untimed
 * call that fills the caches.  The empty Overhead routine is timed the same
 * way in the same trial and subtracted from both A and B (kept signed, not
 * clipped).  Interrupts are masked for the whole trial.
 *
 * The analysis is stats/: summaries (mean, Karsh's iterative mode), the
 * differences A - B and relative differences (A - B) / B of means, modes
 * and medians, Karsh's Z with its probability, Welch's t and Mann-Whitney's
 * U with their two-sided p, and the verdict at 95% (Mann-Whitney's p below
 * 0.05, medians and ranks on the same side, medians more than COMPARE_NOISE
 * apart; Welch and Karsh's Z are shown for reference only).  The ratio of
 * the slower's time to the faster's, its 95% interval and that same p come
 * from stats_ab once and are written in the comparison's "ratio" member,
 * which every reader shows.  The null experiments Foo vs Foo (the same routine) and Foo vs
 * FooBar (an identical copy, as in Karsh's TestFuncs) show the resolution
 * the set-up can claim: their relative differences.  Each comparison also
 * gets the paired test of its trials (A - B per trial, Wilcoxon's signed
 * rank, stats/paired.c): with the order drawn per trial and A = B (one
 * routine at one address) its p is below 0.05 in 5% of runs at most.
 */
#ifndef BAREMARK_COMPARE_H
#define BAREMARK_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "methods.h"
#include "stats.h"
#include "targets.h"

struct json_writer;
struct bm_config;
struct cpu_info;
struct section_ctx;

enum compare_order { COMPARE_ALTERNATE = 0, COMPARE_RANDOM = 1 };

/* Karsh's GatherTimes: Precision 100, Accuracy 1000. */
#define COMPARE_PRECISION      TARGET_CALLS_START
#define COMPARE_ACCURACY_FULL  1000
#define COMPARE_ACCURACY_QUICK 200
/* precision 0 (COMPARE_PRECISION_AUTO): start at COMPARE_PRECISION calls
 * and double, per pair, until the faster routine's net timing (less the
 * overhead loop's) spans COMPARE_SPAN_STEPS steps of the counter
 * (plat_tick_step; 1 when unmeasured), so that one step is at most 1% of
 * a timing, as the methods engine's N; at most COMPARE_PRECISION_MAX. */
#define COMPARE_PRECISION_AUTO 0
#define COMPARE_SPAN_STEPS     100
#define COMPARE_PRECISION_MAX  (1u << 20)
#define COMPARE_GROW_PROBES    5
/* Smallest relative difference of medians called a difference: Karsh's
 * "the best you can hope for is a relative difference of about 1%". */
#define COMPARE_NOISE          0.01
/* Seed of the randomized order (xorshift64). */
#define COMPARE_SEED           0x6b61727368ull   /* "karsh" */
/* Bins of the ASCII histograms. */
#define COMPARE_HIST_BINS      16

struct compare_result {
    int status;                 /* METHODS_OK, _UNSUPPORTED, _FAULT, _NOMEM, _BAD_INPUT */
    char why[160];
    int method;
    uint32_t precision, accuracy;   /* precision: as timed (grown when asked for AUTO) */
    char precision_why[120];
    enum compare_order order;
    double *a, *b, *ov;         /* per trial: A and B net of the overhead; the overhead */
    unsigned char *b_first;     /* per trial: 1 when B was timed first */
    struct stats_summary sa, sb, so;
    struct stats_compare c;
    struct stats_paired pd;     /* A - B per trial: Wilcoxon's signed rank and the signed effect */
    struct stats_ab ab;         /* the pair's ratio, interval, p and faster side (stats_ab, on a and b) */
};

/* Time A against B (trials = accuracy) with `method`; the overhead routine
 * NULL means bm_target_placeholder.  Fault points "method:KEY",
 * "target:NAME_A", "target:NAME_B" (names may be NULL).  Then analyses. */
int compare_ab(int method, const struct methods_cpu *cpu, bm_routine a, void *da, const char *name_a,
               bm_routine b, void *db, const char *name_b, bm_routine overhead, uint32_t precision,
               uint32_t accuracy, enum compare_order order, uint64_t seed, struct compare_result *out);

/* The analysis alone, of samples given (copied into out): summaries and
 * stats_compare with `noise`.  Used by compare_ab and by the tests. */
int compare_analyse(const double *a, size_t na, const double *b, size_t nb, double noise,
                    struct compare_result *out);
void compare_result_free(struct compare_result *r);

struct compare_plan {
    const struct cpu_info *cpu;  /* the CPU's identity (the run environment's) */
    const char *vm_hidden;       /* the run environment's hidden hypervisor, or NULL */
    int quick;
    int method;                 /* METHOD_SDM: every x86-64 has it */
    uint32_t precision, accuracy;
    uint64_t seed;
    int interrupts_maskable;
    /* COMPARE=A,B;C,D (NULL or "": none): each pair's A/B, then the A/A
     * control of A, after the built-in experiments. */
    const char *user_pairs;
    /* COMPAREORDER: the order of those pairs' A/B; COMPARE_RANDOM (drawn
     * per trial, as the A/A controls) unless the file asks for abab. */
    enum compare_order user_order;
};

/* The plan a configuration asks for in the run's environment (its CPU and
 * its settled profile: bench/section.h). */
struct run_env;
void compare_plan_from_config(const struct bm_config *cfg, const struct run_env *env, struct compare_plan *p);
/* Print the experiments and write their members into the open object w
 * (NULL: text only).  Returns 0, or 2 when one failed or a control did not
 * give its expected verdict. */
int compare_section(const struct compare_plan *p, struct json_writer *w);
/* The section (bench/section.h), into the run's results document. */
int compare_run(const struct section_ctx *ctx);

#endif
