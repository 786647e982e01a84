/*
 * bench/bytemark/bytemark_json.c - the suite's "bytemark" member of the
 * results (docs/results-schema.md): the profile, the build, each test's
 * outcome, scores and statistics, and the indexes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark_report.h"
#include "figures_bytemark.h"
#include "json.h"
#include "platform.h"

static const char *bm_outcome_key(enum bm_outcome o)
{
    static const char *const keys[] = { "ok", "disabled", "not_built", "skipped_nomem",
                                        "failed_cap", "failed", "failed_fault" };
    return keys[o];
}

static void bm_json_test(struct json_writer *w, const struct bm_kernel *k, enum bm_test_id id,
                         const struct bm_result *r)
{
    json_obj_begin(w, NULL);
    json_str(w, "key", k ? k->key : "?");
    json_str(w, "name", k ? k->name : "?");
    json_i64(w, "id", id);
    json_str(w, "status", bm_outcome_key(r->outcome));
    if (r->why[0])
        json_str(w, "why", r->why);
    if (k && r->outcome != BM_OUT_DISABLED && r->outcome != BM_OUT_MISSING) {
        json_str(w, "unit", k->unit);
        json_double(w, "min_seconds", r->min_seconds);
        json_u64(w, "workload", r->workload);
        json_str(w, "size", r->size);
        json_arr_begin(w, "scores");
        for (size_t i = 0; i < r->n; i++)
            json_double(w, NULL, r->scores[i]);
        json_arr_end(w);
    }
    if (k && r->outcome == BM_OUT_OK) {
        json_u64(w, "runs", r->n);
        json_fig_double(w, &figures_bytemark, FIG_BYTEMARK_TESTS_MEAN, r->st.mean);
        json_double(w, "sd", r->st.sd);
        json_double(w, "t", r->st.t);
        json_double(w, "half", r->st.half);
        json_double(w, "rel_half", r->st.rel_half);
        json_bool(w, "certain", r->st.certain);
        json_fig_double(w, &figures_bytemark, FIG_BYTEMARK_TESTS_OLD_INDEX, r->st.mean / k->base_p90);
        json_fig_double(w, &figures_bytemark, FIG_BYTEMARK_TESTS_NEW_INDEX, r->st.mean / k->base_k6);
        json_double(w, "base_p90", k->base_p90);
        json_double(w, "base_k6", k->base_k6);
    }
    json_obj_end(w);
}

struct bm_index_groups bm_index_groups(const int ran[BM_NTESTS])
{
    struct bm_index_groups g;
    g.fp = ran[BM_FOURIER] && ran[BM_NNET] && ran[BM_LU];
    g.lx_int = ran[BM_NUMSORT] && ran[BM_EMFLOAT] && ran[BM_IDEA] && ran[BM_HUFFMAN];
    g.lx_mem = ran[BM_STRSORT] && ran[BM_BITFIELD] && ran[BM_ASSIGN];
    g.orig_int = g.lx_int && g.lx_mem;
    return g;
}

/* An index through its row, null unless every one of its kernels ran. */
static void bm_json_index(struct json_writer *w, enum bytemark_figure id, int any, double v)
{
    if (any)
        json_fig_double(w, &figures_bytemark, id, v);
    else
        json_fig_null(w, &figures_bytemark, id);
}

void bm_json(const struct bm_config *cfg, const struct bm_profile_params *p, uint64_t hz,
                const struct bm_result *res, const struct bm_indexes *ix, const int ran[BM_NTESTS],
                const struct quiet_phase_totals *qt)
{
    struct json_writer *w = results_section_begin("bytemark", 0);
    /* the profile is the run's top-level "profile" (and settings.profile as asked) */
    json_fig_u64(w, &figures_bytemark, FIG_BYTEMARK_MIN_RUNS, p->min_runs);
    json_fig_u64(w, &figures_bytemark, FIG_BYTEMARK_MAX_RUNS, p->max_runs);
    json_fig_double(w, &figures_bytemark, FIG_BYTEMARK_PROFILE_MIN_SECONDS, p->min_seconds);
    json_fig_u64(w, &figures_bytemark, FIG_BYTEMARK_GLOBAL_MIN_TICKS, cfg->global_min_ticks);
    json_fig_u64(w, &figures_bytemark, FIG_BYTEMARK_ALIGN, cfg->align);
    json_fig_u64(w, &figures_bytemark, FIG_BYTEMARK_TICK_HZ, hz);
    json_str(w, "tick", "1 us of TSC time");
    json_str(w, "compiler", BUILD_COMPILER);
    json_str(w, "cflags", BM_CFLAGS);
    json_str(w, "platform", plat_name());
    json_bool(w, "comparable", !cfg->not_comparable);
    json_bool(w, "not_comparable", cfg->not_comparable);
    if (cfg->not_comparable)
        json_str(w, "not_comparable_why", cfg->not_comparable_why);
    json_bool(w, "customrun", cfg->customrun);
    json_arr_begin(w, "tests");
    for (int i = 0; i < BM_NTESTS; i++)
        bm_json_test(w, bm_kernels[i], (enum bm_test_id)i, &res[i]);
    json_arr_end(w);
    if (ix) {
        struct bm_index_groups g = bm_index_groups(ran);
        json_obj_begin(w, "indexes");
        bm_json_index(w, FIG_BYTEMARK_INDEXES_ORIGINAL_INTEGER, g.orig_int, ix->orig_int);
        bm_json_index(w, FIG_BYTEMARK_INDEXES_ORIGINAL_FP, g.fp, ix->orig_fp);
        bm_json_index(w, FIG_BYTEMARK_INDEXES_LINUX_MEMORY, g.lx_mem, ix->lx_mem);
        bm_json_index(w, FIG_BYTEMARK_INDEXES_LINUX_INTEGER, g.lx_int, ix->lx_int);
        bm_json_index(w, FIG_BYTEMARK_INDEXES_LINUX_FP, g.fp, ix->lx_fp);
        json_u64(w, "tests_missing", (uint64_t)ix->missing);
        json_obj_end(w);
    } else {
        json_null(w, "indexes");
    }
    quiet_phase_totals_json(w, "quiet_phases", qt);
    results_section_end();
}
