/*
 * bench/bytemark/bytemark_rules.c - the rules the BYTEmark suite follows,
 * pure functions of their inputs: the profile's parameters (runs, seconds),
 * BYTEmark's 95% confidence rule (5..30 runs) and the per-test and
 * composite indexes (BYTEMARK.md section 3).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_internal.h"
#include "bytemark_report.h"
#include "stats.h"

/* BYTEMARK.md section 3: the index exponents exactly as nbench0.c writes
 * them (not exactly 1/7 and 1/3). */
#define BM_EXP_ORIG_INT 0.142857
#define BM_EXP_ORIG_FP  0.33333
#define BM_EXP_LX_MEM   0.3333333333
#define BM_EXP_LX_INT   0.25
#define BM_EXP_LX_FP    0.3333333333

/* ---- profile ------------------------------------------------------------------ */

void bm_profile_params_of(enum bm_profile run, enum bm_profile requested, struct bm_profile_params *out)
{
    out->requested = requested;
    out->profile = run == BM_PROFILE_QUICK ? BM_PROFILE_QUICK : BM_PROFILE_FULL;
    if (out->profile == BM_PROFILE_QUICK) {
        out->name = "quick";
        out->min_seconds = BM_QUICK_MIN_SECONDS;
        out->min_runs = BM_QUICK_MIN_RUNS;
        out->max_runs = BM_QUICK_MAX_RUNS;
    } else {
        out->name = "full";
        out->min_seconds = BM_FULL_MIN_SECONDS;
        out->min_runs = BM_FULL_MIN_RUNS;
        out->max_runs = BM_FULL_MAX_RUNS;
    }
}

double bm_profile_min_seconds(const struct bm_config *cfg, const struct bm_profile_params *p,
                              enum bm_test_id id)
{
    if (cfg && cfg->min_seconds_set[id])
        return (double)cfg->min_seconds[id];
    return p->min_seconds;
}

/* ---- statistics --------------------------------------------------------------- */

void bm_run_rule(const double *scores, size_t n, unsigned min_runs, unsigned max_runs,
                 struct bm_run_stats *out)
{
    double scratch[BM_RUNS_CAP];
    struct stats_summary sum;
    struct stats_bytemark rule;
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0 || n > BM_RUNS_CAP || stats_summary_double(scores, n, scratch, NULL, &sum) != 0) {
        out->mean = out->sd = out->t = out->half = out->rel_half = NAN;
        out->done = n >= max_runs;
        return;
    }
    stats_bytemark_rule(n, sum.mean, sum.sd_sample, &rule);
    out->mean = sum.mean;
    out->sd = sum.sd_sample;
    out->t = rule.t;
    out->half = rule.half;
    out->rel_half = rule.rel_half;
    /* stats_bytemark_rule's state is for 5..30 runs; the quick profile has
     * its own limits, so the decision is made here from rel_half. */
    out->certain = n >= 2 && rule.rel_half <= STATS_BYTEMARK_REL_HALF;
    out->done = (n >= min_runs && out->certain) || n >= max_runs;
}

void bm_indexes_compute(const double mean[BM_NTESTS], const int ran[BM_NTESTS],
                        struct bm_indexes *out)
{
    double oi = 1.0, of = 1.0, lm = 1.0, li = 1.0, lf = 1.0;
    out->missing = 0;
    for (int i = 0; i < BM_NTESTS; i++) {
        const struct bm_kernel *k = bm_kernels[i];
        if (!ran[i] || !k) {
            out->missing++;
            continue;
        }
        double p90 = mean[i] / k->base_p90, k6 = mean[i] / k->base_k6;
        /* nbench0.c: Fourier, neural net and LU are the FP tests; of the
         * others numeric sort, FP emulation, IDEA and Huffman form the Linux
         * integer index, string sort, bitfield and assignment the memory one. */
        if (i == BM_FOURIER || i == BM_NNET || i == BM_LU) {
            of *= p90;
            lf *= k6;
        } else {
            oi *= p90;
            if (i == BM_NUMSORT || i == BM_EMFLOAT || i == BM_IDEA || i == BM_HUFFMAN)
                li *= k6;
            else
                lm *= k6;
        }
    }
    out->orig_int = pow(oi, BM_EXP_ORIG_INT);
    out->orig_fp = pow(of, BM_EXP_ORIG_FP);
    out->lx_mem = pow(lm, BM_EXP_LX_MEM);
    out->lx_int = pow(li, BM_EXP_LX_INT);
    out->lx_fp = pow(lf, BM_EXP_LX_FP);
}
