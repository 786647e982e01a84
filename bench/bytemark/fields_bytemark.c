/*
 * bench/bytemark/fields_bytemark.c - the bytemark and verify members'
 * fields that are not figures (bench/bytemark/bytemark.c bm_json() and
 * bm_json_test(), bytemark_verify(); the figures are figures_bytemark.c's
 * rows).  `baremark validate` walks them (bench/results/figures.h, struct
 * figure_field_row).
 */
#include "figures.h"
#include "fields_quiet.h"

/* The kernels' units (the .unit of each kernel in bench/bytemark/). */
#define BM_UNITS "arrays/s|bits/s|coefficients/s|loops/s|sessions/s|systems/s"
#define BM_STATUSES "ok|disabled|not_built|skipped_nomem|failed_cap|failed|failed_fault"

const struct figure_field_row fields_bytemark[] = {
    FIELD_ROW_WORDS("profile", FIELD_OPT, "quick|full"),   /* files before the top-level "profile" */
    FIELD_ROW_WORDS("profile_requested", FIELD_OPT, "auto|quick|full"),
    FIELD_ROW("hypervisor", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("compiler", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("cflags", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("platform", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("tick", FIELD_STR, FIELD_OPT, NULL),   /* what a tick is ("1 us of TSC time") */
    FIELD_ROW("comparable", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("not_comparable", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("not_comparable_why", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("customrun", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("tests", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("tests[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("tests[*].key", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("tests[*].name", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("tests[*].id", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW_WORDS("tests[*].status", FIELD_REQ, BM_STATUSES),
    FIELD_ROW("tests[*].why", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW_WORDS_UNIT("tests[*].unit", FIELD_OPT, "work per second", BM_UNITS),
    FIELD_ROW_MIN("tests[*].min_seconds", FIELD_NUM, FIELD_OPT, 0, "s"),
    FIELD_ROW("tests[*].workload", FIELD_UINT, FIELD_OPT, NULL),
    FIELD_ROW("tests[*].size", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("tests[*].scores", FIELD_NUMS, FIELD_OPT, "unit"),
    FIELD_ROW("tests[*].runs", FIELD_UINT, FIELD_OPT, "runs"),
    FIELD_ROW_MIN("tests[*].sd", FIELD_NUM_OR_NULL, FIELD_OPT, 0, "unit"),
    FIELD_ROW_MIN("tests[*].t", FIELD_NUM_OR_NULL, FIELD_OPT, 0, NULL),
    FIELD_ROW_MIN("tests[*].half", FIELD_NUM_OR_NULL, FIELD_OPT, 0, "unit"),
    FIELD_ROW_MIN("tests[*].rel_half", FIELD_NUM_OR_NULL, FIELD_OPT, 0, "fraction of the mean"),
    FIELD_ROW("tests[*].certain", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW_MIN("tests[*].base_p90", FIELD_NUM, FIELD_OPT, 0, "unit"),
    FIELD_ROW_MIN("tests[*].base_k6", FIELD_NUM, FIELD_OPT, 0, "unit"),
    /* the kernels' means and indexes and the five overall indexes are
     * figures: their rows in bench/bytemark/figures_bytemark.c check them
     * (validate_figures.c) */
    FIELD_ROW("indexes", FIELD_OBJ_OR_NULL, FIELD_OPT, NULL),  /* null under CUSTOMRUN */
    FIELD_ROW("indexes.tests_missing", FIELD_UINT, FIELD_OPT, "tests"),
    QUIET_PHASES_FIELDS,
    { NULL },
};

const struct figure_field_row fields_verify[] = {
    FIELD_ROW("passed", FIELD_UINT, FIELD_REQ, "checks"),
    FIELD_ROW("failed", FIELD_UINT, FIELD_REQ, "checks"),
    FIELD_ROW("kernels", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("kernels[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("kernels[*].key", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("kernels[*].passed", FIELD_UINT, FIELD_REQ, "checks"),
    FIELD_ROW("kernels[*].failed", FIELD_UINT, FIELD_REQ, "checks"),
    { NULL },
};
