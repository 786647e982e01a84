/*
 * tools/host/validate/validate_bytemark.c - the bytemark section (bench/bytemark/bytemark.c
 * bm_json()) and the verify section (bytemark_verify()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

/* bench/bytemark/bytemark.c bm_json() and bm_json_test(). */
/* The kernels' units (the .unit of each kernel in bench/bytemark/). */
#define BM_UNITS "arrays/s|bits/s|coefficients/s|loops/s|sessions/s|systems/s"
#define BM_STATUSES "ok|disabled|not_built|skipped_nomem|failed_cap|failed|failed_fault"

static const struct rv_field bytemark_fields[] = {
    { "profile", RV_STR, OPT, NULL, "quick|full", NOMIN },   /* files before the top-level "profile" */
    { "profile_requested", RV_STR, OPT, NULL, "auto|quick|full", NOMIN },
    { "hypervisor", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "compiler", RV_STR, REQ, NULL, NULL, NOMIN },
    { "cflags", RV_STR, REQ, NULL, NULL, NOMIN },
    { "platform", RV_STR, OPT, NULL, NULL, NOMIN },
    { "comparable", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "not_comparable", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "not_comparable_why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "customrun", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "tests", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "tests[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "tests[].key", RV_STR, REQ, NULL, NULL, NOMIN },
    { "tests[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "tests[].id", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "tests[].status", RV_STR, REQ, NULL, BM_STATUSES, NOMIN },
    { "tests[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    { "tests[].unit", RV_STR, OPT, "work per second", BM_UNITS, NOMIN },
    { "tests[].min_seconds", RV_NUM, OPT, "s", NULL, 0 },
    { "tests[].workload", RV_UINT, OPT, NULL, NULL, NOMIN },
    { "tests[].size", RV_STR, OPT, NULL, NULL, NOMIN },
    { "tests[].scores", RV_NUMS, OPT, "unit", NULL, NOMIN },
    { "tests[].runs", RV_UINT, OPT, "runs", NULL, NOMIN },
    { "tests[].sd", RV_NUM_OR_NULL, OPT, "unit", NULL, 0 },
    { "tests[].t", RV_NUM_OR_NULL, OPT, NULL, NULL, 0 },
    { "tests[].half", RV_NUM_OR_NULL, OPT, "unit", NULL, 0 },
    { "tests[].rel_half", RV_NUM_OR_NULL, OPT, "fraction of the mean", NULL, 0 },
    { "tests[].certain", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "tests[].base_p90", RV_NUM, OPT, "unit", NULL, 0 },
    { "tests[].base_k6", RV_NUM, OPT, "unit", NULL, 0 },
    /* the kernels' means and indexes and the five overall indexes are
     * figures: their rows in bench/bytemark/figures_bytemark.c check them
     * (validate_figures.c) */
    { "indexes", RV_OBJ_OR_NULL, OPT, NULL, NULL, NOMIN },  /* null under CUSTOMRUN */
    { "indexes.tests_missing", RV_UINT, OPT, "tests", NULL, NOMIN },
    QUIET_PHASES_FIELDS,
    { NULL },
};

/* A kernel's figures must agree with each other and with its unit: the
 * unit is a rate (".../s"), runs counts the scores, the mean is theirs, the
 * indexes are the mean over the baselines, rel_half is half over mean. */
static void bytemark_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *tests = json_object_get(sec, "tests"), *t;
    size_t i;
    long run = 0;
    json_array_foreach(tests, i, t) {
        const char *st = doc_str(t, "status", "");
        run += strcmp(st, "disabled") && strcmp(st, "not_built");
    }
    rv_quiet_phases(sec, where, run, file, problems, quiet);
    char at[300], msg[256], nm[120];
    json_array_foreach(tests, i, t) {
        json_t *scores = json_object_get(t, "scores");
        const char *unit = doc_str(t, "unit", NULL);
        double mean = doc_num(t, "mean", NAN), sum = 0;
        snprintf(at, sizeof at, "%s.tests[%zu] (%s)", where, i, rv_name(nm, sizeof nm, t, "key"));
        if (unit && (strlen(unit) < 3 || strcmp(unit + strlen(unit) - 2, "/s"))) {
            snprintf(msg, sizeof msg, "unit \"%s\" is not a rate (scores are work per second: \".../s\")", unit);
            rv_say(file, at, msg, problems, quiet);
        }
        if (!json_is_array(scores))
            continue;
        if (!strcmp(doc_str(t, "status", ""), "ok") && json_array_size(scores) == 0)
            rv_say(file, at, "status ok but no scores", problems, quiet);
        if (json_object_get(t, "runs") && doc_num(t, "runs", -1) != (double)json_array_size(scores)) {
            snprintf(msg, sizeof msg, "runs is %g but %zu scores are listed", doc_num(t, "runs", -1),
                     json_array_size(scores));
            rv_say(file, at, msg, problems, quiet);
        }
        for (size_t k = 0; k < json_array_size(scores); k++)
            sum += json_number_value(json_array_get(scores, k));
        if (!isnan(mean) && json_array_size(scores) && !rv_close(mean, sum / json_array_size(scores))) {
            snprintf(msg, sizeof msg, "mean %.10g is not the mean of the scores (%.10g)", mean,
                     sum / json_array_size(scores));
            rv_say(file, at, msg, problems, quiet);
        }
        static const char *const idx[2][2] = { { "old_index", "base_p90" }, { "new_index", "base_k6" } };
        for (int k = 0; k < 2; k++) {
            double v = doc_num(t, idx[k][0], NAN), base = doc_num(t, idx[k][1], NAN);
            if (!isnan(v) && !isnan(base) && !isnan(mean) && !rv_close(v, mean / base)) {
                snprintf(msg, sizeof msg, "%s %.10g is not mean / %s (%.10g)", idx[k][0], v, idx[k][1], mean / base);
                rv_say(file, at, msg, problems, quiet);
            }
        }
        double half = doc_num(t, "half", NAN), rel = doc_num(t, "rel_half", NAN);
        if (!isnan(half) && !isnan(rel) && !isnan(mean) && mean > 0 && !rv_close(rel, half / mean)) {
            snprintf(msg, sizeof msg, "rel_half %.10g is not half / mean (%.10g)", rel, half / mean);
            rv_say(file, at, msg, problems, quiet);
        }
    }
}

/* bench/bytemark/bytemark.c bytemark_verify(). */
static const struct rv_field verify_fields[] = {
    { "passed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "failed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "kernels", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "kernels[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "kernels[].key", RV_STR, REQ, NULL, NULL, NOMIN },
    { "kernels[].passed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { "kernels[].failed", RV_UINT, REQ, "checks", NULL, NOMIN },
    { NULL },
};

const struct rv_section rv_section_bytemark = { "bytemark", 0, bytemark_fields, bytemark_check };
const struct rv_section rv_section_verify = { "verify", 0, verify_fields, NULL };
