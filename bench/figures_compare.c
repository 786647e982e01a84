/*
 * bench/figures_compare.c - the comparisons section's figures
 * (bench/compare.c, docs/results-schema.md "comparisons"): see
 * bench/figures.h.  compare_NAME is B's median against A's, in %.
 */
#include "figures.h"

static const struct figure compare_rows[] = {
    /* pass when the control gave the verdict it must give */
    { "comparisons[*].rel_median", "compare_{name}", "%", FIG_INFO, 0, .scale = 100, .only = "status=ok",
      .pass = "as_expected=true" },
    { "comparisons[*].mann_whitney_p", NULL, "", FIG_INFO, 0 },
    { "comparisons[*].*",          NULL, "",      FIG_DETAIL, 0 },   /* samples, statistics, fences */
    { "resolution.*",              NULL, "",      FIG_DETAIL, 0 },
    { "quiet_phases.*",            NULL, "",      FIG_DETAIL, 0 },
    { "precision",                 NULL, "",      FIG_DETAIL, 0 },
    { "accuracy",                  NULL, "",      FIG_DETAIL, 0 },
    { "noise",                     NULL, "",      FIG_DETAIL, 0 },
    { "seed",                      NULL, "",      FIG_DETAIL, 0 },
    { "tick_hz",                   NULL, "Hz",    FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_compare, "comparisons", "tick_hz", compare_rows);
