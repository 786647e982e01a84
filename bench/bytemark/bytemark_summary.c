/*
 * bench/bytemark/bytemark_summary.c - the BYTEmark section's part of the
 * run's summary (bench/summary/summary_part.h): the original integer and
 * floating-point indexes, the profile, and whether every kernel that ran
 * is 95% certain.
 *
 * An index is shown only when the member's tests[] shows every test of it
 * with status "ok" (bm_index_groups, the rule the run itself now follows).
 * An older image gave an index made from fewer tests under the same root,
 * and a member without tests[] does not show which ran: neither index can
 * be told from its tests, so it reads n/a rather than the number stored.
 */
#include <math.h>
#include <string.h>

#include "bytemark_report.h"
#include "config.h"
#include "figures_bytemark.h"
#include "run_profile.h"
#include "summary_part.h"

summary_part_fn bytemark_summary;  /* its column in bench/sections.def */

static struct bm_index_groups bytemark_summary_groups(struct jval tests)
{
    int ran[BM_NTESTS] = { 0 };
    struct jval t;
    size_t it = 0;
    char key[32];
    while (jval_next(tests, &it, NULL, &t)) {
        if (!jval_str_eq(jval_get(t, "status"), "ok") || !jval_str(jval_get(t, "key"), key, sizeof key)) /* not a row: a test's status */
            continue;
        for (int i = 0; i < BM_NTESTS; i++)
            if (!strcmp(key, cfg_test_keys[i]))
                ran[i] = 1;
    }
    return bm_index_groups(ran);
}

void bytemark_summary(struct summary *s, struct jval bm, struct jval doc)
{
    const struct figure_table *t = &figures_bytemark;
    struct jval tests = figures_array(bm, t, FIG_BYTEMARK_TESTS_MEAN), e;
    struct bm_index_groups g = bytemark_summary_groups(tests);
    size_t it = 0;
    s->index_integer = g.orig_int ? jval_num(figures_get(bm, t, FIG_BYTEMARK_INDEXES_ORIGINAL_INTEGER), NAN) : NAN;
    s->index_fp = g.fp ? jval_num(figures_get(bm, t, FIG_BYTEMARK_INDEXES_ORIGINAL_FP), NAN) : NAN;
    run_profile_read_jr(doc, s->bytemark_profile, sizeof s->bytemark_profile);     /* the run's */
    s->bytemark_ran = !jval_is_none(bm);
    s->bytemark_certain = s->bytemark_ran;
    while (jval_next(tests, &it, NULL, &e))
        if (jval_str_eq(jval_get(e, "status"), "ok") && !jval_bool(jval_get(e, "certain"), 0))  /* not a row: as above */
            s->bytemark_certain = 0;
}
