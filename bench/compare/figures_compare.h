/*
 * bench/compare/figures_compare.h - the comparisons section's figures
 * (bench/compare/compare.c, docs/results-schema.md "comparisons"): see
 * bench/results/figures.h.  compare_NAME is B's median against A's, in %.
 * The settings echoed are COMPARE_PLAN_*: COMPARE_PRECISION, COMPARE_NOISE
 * and COMPARE_SEED are bench/compare/compare.h's defaults (macros), and
 * bench/compare/compare.c includes both.
 */
#ifndef BAREMARK_FIGURES_COMPARE_H
#define BAREMARK_FIGURES_COMPARE_H

#include "figures.h"

#define COMPARE_FIGURES(X) \
    /* pass when the control gave the verdict it must give */ \
    X(FIG_COMPARE_REL_MEDIAN,                 "comparisons[*].rel_median", "compare_{name}", "%", FIG_INFO, 0, .scale = 100, .only = "status=ok", \
      .pass = "as_expected=true") \
    X(FIG_COMPARE_MANN_WHITNEY_P,             "comparisons[*].mann_whitney_p", NULL, "", FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_OPT, 0, "probability")) \
    /* the pair's ratio, slower's time over faster's (stats_ab), its interval and p */ \
    X(FIG_COMPARE_RATIO_ESTIMATE,             "comparisons[*].ratio.estimate", "compare_ratio_{name}", "x", FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, "slower's time over faster's")) \
    X(FIG_COMPARE_RATIO_LO,                   "comparisons[*].ratio.lo",   NULL, "",      FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, "95% interval")) \
    X(FIG_COMPARE_RATIO_HI,                   "comparisons[*].ratio.hi",   NULL, "",      FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, "95% interval")) \
    X(FIG_COMPARE_RATIO_P,                    "comparisons[*].ratio.p",    NULL, "",      FIG_INFO, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_REQ, 0, "probability")) \
    X(FIG_COMPARE_COMPARISONS_ALL,            "comparisons[*].*",          NULL, "",      FIG_DETAIL, 0)   /* samples, statistics, fences */ \
    X(FIG_COMPARE_RESOLUTION_ALL,             "resolution.*",              NULL, "",      FIG_DETAIL, 0) \
    X(FIG_COMPARE_QUIET_PHASES_ALL,           "quiet_phases.*",            NULL, "",      FIG_DETAIL, 0) \
    X(FIG_COMPARE_PLAN_PRECISION,             "precision",                 NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "calls per timing")) \
    X(FIG_COMPARE_PLAN_ACCURACY,              "accuracy",                  NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, "trials")) \
    X(FIG_COMPARE_PLAN_NOISE,                 "noise",                     NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM, FIELD_OPT, 0, "fraction")) \
    X(FIG_COMPARE_PLAN_SEED,                  "seed",                      NULL, "",      FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, NULL)) \
    X(FIG_COMPARE_TICK_HZ,                    "tick_hz",                   NULL, "Hz",    FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "Hz; 0 when the clock was not calibrated"))
FIGURE_IDS(compare_figure, COMPARE_FIGURES);
extern const struct figure_table figures_compare;

#endif
