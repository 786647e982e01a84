/*
 * bench/figures_bytemark.c - BYTEmark's figures (bench/bytemark/,
 * docs/results-schema.md "bytemark"): see bench/figures.h.  Each kernel's
 * mean score in its own unit and its two indexes; the five overall
 * indexes (null when none of their kernels ran).
 */
#include "figures.h"

/* A full-profile score that is not 95% certain is a fail (with its value). */
#define BM_CERTAIN "certain=true or profile=quick"

static const struct figure bytemark_rows[] = {
    { "indexes.original_integer", "bytemark_original_integer", "index", FIG_HIGHER, FIG_HEADLINE,
      .label = "integer index" },
    { "indexes.original_fp",   "bytemark_original_fp",   "index", FIG_HIGHER, FIG_HEADLINE,
      .label = "floating-point index" },
    { "indexes.linux_memory",  "bytemark_linux_memory",  "index", FIG_HIGHER, 0 },
    { "indexes.linux_integer", "bytemark_linux_integer", "index", FIG_HIGHER, 0 },
    { "indexes.linux_fp",      "bytemark_linux_fp",      "index", FIG_HIGHER, 0 },
    { "tests[*].mean",         "bytemark_{key}",         "{unit}", FIG_HIGHER, 0,
      .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN, .samples = "scores" },
    { "tests[*].old_index",    "bytemark_{key}_old_index", "index", FIG_HIGHER, 0, .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN },
    { "tests[*].new_index",    "bytemark_{key}_new_index", "index", FIG_HIGHER, 0, .skip = "status=disabled", .only = "status=ok", .pass = BM_CERTAIN },
    { "tests[*].*",            NULL, "", FIG_DETAIL, 0 },   /* runs, scores, confidence, baselines */
    { "indexes.*",             NULL, "", FIG_DETAIL, 0 },   /* tests_missing */
    { "quiet_phases.*",        NULL, "", FIG_DETAIL, 0 },
    { "min_runs",              NULL, "", FIG_DETAIL, 0 },
    { "max_runs",              NULL, "", FIG_DETAIL, 0 },
    { "profile_min_seconds",   NULL, "s", FIG_DETAIL, 0 },
    { "global_min_ticks",      NULL, "", FIG_DETAIL, 0 },
    { "align",                 NULL, "", FIG_DETAIL, 0 },
    { "tick_hz",               NULL, "Hz", FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_bytemark, "bytemark", "tick_hz", bytemark_rows);

/* VERIFY=T: the kernels' checks, counts only. */
static const struct figure verify_rows[] = {
    { "*", NULL, "checks", FIG_DETAIL, FIG_SOMETIMES },
};
FIGURE_TABLE(figures_verify, "verify", NULL, verify_rows);
