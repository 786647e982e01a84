/*
 * tools/host/validate/validate_bytemark.c - the bytemark section (bench/bytemark/bytemark.c
 * bm_json()) and the verify section (bytemark_verify()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_bytemark.h"
#include "report_util.h"
#include "validate.h"

/* A kernel's figures must agree with each other and with its unit: the
 * unit is a rate (".../s"), runs counts the scores, the mean is theirs, the
 * indexes are the mean over the baselines, rel_half is half over mean. */
static void bytemark_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *tests = json_object_get(sec, "tests"), *t;
    size_t i;
    long run = 0;
    json_array_foreach(tests, i, t) {
        const char *st = doc_str(t, "status", "");  /* not a row: a test's status, tests[*].* */
        run += strcmp(st, "disabled") && strcmp(st, "not_built");
    }
    rv_quiet_phases(sec, where, run, file, problems, quiet);
    char at[300], msg[256], nm[120];
    json_array_foreach(tests, i, t) {
        json_t *scores = json_object_get(t, "scores");
        const char *unit = doc_str(t, "unit", NULL);
        double mean = doc_fig_num(t, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN), sum = 0;
        snprintf(at, sizeof at, "%s.tests[%zu] (%s)", where, i, rv_name(nm, sizeof nm, t, "key"));
        if (unit && (strlen(unit) < 3 || strcmp(unit + strlen(unit) - 2, "/s"))) {
            snprintf(msg, sizeof msg, "unit \"%s\" is not a rate (scores are work per second: \".../s\")", unit);
            rv_say(file, at, msg, problems, quiet);
        }
        if (!json_is_array(scores))
            continue;
        if (!strcmp(doc_str(t, "status", ""), "ok") && json_array_size(scores) == 0)   /* not a row: as above */
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
        static const struct { unsigned row; const char *base; } idx[2] = {
            { FIG_BYTEMARK_TESTS_OLD_INDEX, "base_p90" }, { FIG_BYTEMARK_TESTS_NEW_INDEX, "base_k6" } };
        for (int k = 0; k < 2; k++) {
            double v = doc_fig_num(t, &figures_bytemark, idx[k].row), base = doc_num(t, idx[k].base, NAN);
            if (!isnan(v) && !isnan(base) && !isnan(mean) && !rv_close(v, mean / base)) {
                snprintf(msg, sizeof msg, "%s %.10g is not mean / %s (%.10g)", figures_row_tail(&figures_bytemark, idx[k].row),
                         v, idx[k].base, mean / base);
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

/* bench/bytemark/bytemark.c bm_json() and bytemark_verify(): their fields are
 * bench/bytemark/fields_bytemark.c's. */
const struct rv_section rv_section_bytemark = { "bytemark", 0, bytemark_check };
const struct rv_section rv_section_verify = { "verify", 0, NULL };
