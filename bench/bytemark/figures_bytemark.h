/*
 * bench/bytemark/figures_bytemark.h - BYTEmark's figures (bench/bytemark/,
 * docs/results-schema.md "bytemark"): see bench/results/figures.h.  Each kernel's
 * mean score in its own unit and its two indexes; the five overall
 * indexes (null when none of their kernels ran).
 */
#ifndef BAREMARK_FIGURES_BYTEMARK_H
#define BAREMARK_FIGURES_BYTEMARK_H

#include "figures.h"

/* A full-profile score that is not 95% certain is a fail (with its value).
 * The profile is the run's (top level); files of older images had it in
 * the bytemark member. */
#define BM_CERTAIN "certain=true or /profile=quick or profile=quick"

#define BYTEMARK_FIGURES(X) \
    X(FIG_BYTEMARK_INDEXES_ORIGINAL_INTEGER, "indexes.original_integer", "bytemark_original_integer", "index", FIG_HIGHER, FIG_HEADLINE, \
      .label = "integer index") \
    X(FIG_BYTEMARK_INDEXES_ORIGINAL_FP,      "indexes.original_fp",   "bytemark_original_fp",   "index", FIG_HIGHER, FIG_HEADLINE, \
      .label = "floating-point index") \
    X(FIG_BYTEMARK_INDEXES_LINUX_MEMORY,     "indexes.linux_memory",  "bytemark_linux_memory",  "index", FIG_HIGHER, 0) \
    X(FIG_BYTEMARK_INDEXES_LINUX_INTEGER,    "indexes.linux_integer", "bytemark_linux_integer", "index", FIG_HIGHER, 0) \
    X(FIG_BYTEMARK_INDEXES_LINUX_FP,         "indexes.linux_fp",      "bytemark_linux_fp",      "index", FIG_HIGHER, 0) \
    X(FIG_BYTEMARK_TESTS_MEAN,               "tests[*].mean",         "bytemark_{key}",         "{unit}", FIG_HIGHER, 0, \
      .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN, .samples = "scores") \
    X(FIG_BYTEMARK_TESTS_OLD_INDEX,          "tests[*].old_index",    "bytemark_{key}_old_index", "index", FIG_HIGHER, 0, .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN) \
    X(FIG_BYTEMARK_TESTS_NEW_INDEX,          "tests[*].new_index",    "bytemark_{key}_new_index", "index", FIG_HIGHER, 0, .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN) \
    X(FIG_BYTEMARK_TESTS_ALL,                "tests[*].*",            NULL, "", FIG_DETAIL, 0)   /* runs, scores, confidence, baselines */ \
    X(FIG_BYTEMARK_INDEXES_ALL,              "indexes.*",             NULL, "", FIG_DETAIL, 0)   /* tests_missing */ \
    X(FIG_BYTEMARK_QUIET_PHASES_ALL,         "quiet_phases.*",        NULL, "", FIG_DETAIL, 0) \
    X(FIG_BYTEMARK_MIN_RUNS,                 "min_runs",              NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_OPT, 1, "runs")) \
    X(FIG_BYTEMARK_MAX_RUNS,                 "max_runs",              NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_OPT, 1, "runs")) \
    X(FIG_BYTEMARK_PROFILE_MIN_SECONDS,      "profile_min_seconds",   NULL, "s", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM, FIELD_OPT, 0, NULL)) \
    X(FIG_BYTEMARK_GLOBAL_MIN_TICKS,         "global_min_ticks",      NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "us of TSC time")) \
    X(FIG_BYTEMARK_ALIGN,                    "align",                 NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "bytes")) \
    X(FIG_BYTEMARK_TICK_HZ,                  "tick_hz",               NULL, "Hz", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL))
FIGURE_IDS(bytemark_figure, BYTEMARK_FIGURES);
extern const struct figure_table figures_bytemark;

/* VERIFY=T: the kernels' checks, counts only. */

#define VERIFY_FIGURES(X) \
    X(FIG_VERIFY_ALL, "*", NULL, "checks", FIG_DETAIL, FIG_SOMETIMES)
FIGURE_IDS(verify_figure, VERIFY_FIGURES);
extern const struct figure_table figures_verify;

#endif
