/*
 * bench/bytemark/bytemark.c - the BYTEmark suite: the ten kernels in the
 * reference's order, workload adjustment (GLOBALMINTICKS on the TSC), the
 * run loop (MINSECONDS of timed work per run), raw scores, the text table
 * and the "bytemark" results section; and the kernels' verification
 * (bytemark_verify).  The rules the suite follows (the profile's
 * parameters, the 95% confidence rule, the indexes) are bytemark_rules.c's.
 *
 * Timing: a "tick" is 1 microsecond of TSC time (plat_tick_hz), standing in
 * for the reference's clock() ticks (1 us of CPU time on glibc).  Timed ticks
 * are accumulated exactly, not truncated to whole microseconds per iteration
 * as clock() differences are (at most 0.5 us per iteration of difference).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buildinfo.h"
#include "bytemark.h"
#include "bytemark_internal.h"
#include "bytemark_report.h"
#include "json.h"
#include "platform.h"
#include "quiet.h"
#include "section.h"
#include "stats.h"

/* Everything one test needs, passed through plat_protected. */
struct bm_job {
    const struct bm_kernel *k;
    const struct bm_config *cfg;
    const struct bm_profile_params *prof;
    uint64_t hz;
    struct bm_state s;
    struct bm_result *r;
    struct quiet_phase_totals *qt;     /* the suite's measuring phases */
};

/* ---- running one test --------------------------------------------------------- */

static double bm_ticks_to_us(uint64_t ticks, uint64_t hz)
{
    return (double)ticks * 1e6 / (double)hz;
}

/* One run ("one call of the test"): iterate until the accumulated timed
 * ticks reach min_seconds (TicksToSecs(accum) < request_secs with integer
 * seconds is the same as accum < request_secs exactly); MINSECONDS=0 makes
 * exactly one iteration.  Returns the score, or -1 on a kernel failure. */
static double bm_one_run(struct bm_job *j, double min_seconds)
{
    double limit = min_seconds * (double)j->hz, units = 0;
    uint64_t accum = 0;
    do {
        double u = 0;
        accum += j->k->iterate(&j->s, &u);
        if (u <= 0)
            return -1;
        units += u;
    } while ((double)accum < limit);
    return accum ? units / ((double)accum / (double)j->hz) : -1;
}

/* Adjustment (first call only in the reference): try the current workload;
 * accept when the iteration took STRICTLY more than GLOBALMINTICKS ticks,
 * otherwise grow and retry.  The accepted allocation is kept for run 1. */
static int bm_adjust(struct bm_job *j)
{
    const struct bm_kernel *k = j->k;
    for (;;) {
        int rc = k->setup(&j->s);
        if (rc != BM_OK)
            return rc;
        if (j->s.workload_fixed)
            return BM_OK;
        double u = 0;
        uint64_t t = k->iterate(&j->s, &u);
        if (u <= 0)
            return BM_EFAIL;
        if (bm_ticks_to_us(t, j->hz) > (double)j->cfg->global_min_ticks)
            return BM_OK;
        uint64_t before = j->s.workload;
        k->teardown(&j->s);
        rc = k->grow(&j->s);
        if (rc != BM_OK)
            return rc;
        /* IDEA, Huffman and the neural net stop growing at their caps
         * without an error in the reference: accept the capped size. */
        if (j->s.workload == before)
            return k->setup(&j->s);
    }
}

/* The whole test: adjustment, then runs until the rule says stop. */
static long bm_test_body(void *arg)
{
    struct bm_job *j = arg;
    const struct bm_kernel *k = j->k;
    struct bm_result *r = j->r;
    k->init(&j->s);
    int rc = bm_adjust(j);
    j->s.adjusted = 1;
    r->workload = j->s.workload;
    k->describe(&j->s, r->size, sizeof r->size);
    while (rc == BM_OK) {
        double score = bm_one_run(j, r->min_seconds);
        if (score < 0) {
            rc = BM_EFAIL;
            break;
        }
        r->scores[r->n++] = score;
        bm_run_rule(r->scores, r->n, j->prof->min_runs, j->prof->max_runs, &r->st);
        if (r->st.done || r->n == BM_RUNS_CAP)
            break;
        /* Each further run is a new call of the test: free, allocate and set
         * up again (untimed), as the reference's DoXxx functions do. */
        k->teardown(&j->s);
        rc = k->setup(&j->s);
    }
    k->teardown(&j->s);
    return rc;
}

static void bm_run_test(struct bm_job *j)
{
    char why[sizeof j->r->why];
    long rc = BM_EFAIL;
    why[0] = 0;
    /* The interrupt state before the test, to put back after a fault: an
     * exception inside a timed region never reaches bm_timer_stop. */
    unsigned long irq = plat_irq_off();
    plat_irq_restore(irq);
    /* The whole test is one measuring phase (bench/system/quiet.h): it allocates
     * memory but does no firmware I/O until the phase has ended. */
    quiet_phase_begin();
    bm_timer_fault_key(j->k->key);
    int faulted = plat_protected(bm_test_body, j, &rc, why, sizeof why) != NULL;
    bm_timer_fault_key(NULL);
    if (faulted)
        plat_irq_restore(irq);
    quiet_phase_end_add(j->qt);
    if (faulted) {
        /* The kernel's state is unknown after a CPU exception: its memory is
         * not freed (teardown could fault again). */
        j->r->outcome = BM_OUT_FAULT;
        snprintf(j->r->why, sizeof j->r->why, "%s", why);
        return;
    }
    j->r->outcome = rc == BM_OK ? BM_OUT_OK : rc == BM_ENOMEM ? BM_OUT_NOMEM
                    : rc == BM_ECAP ? BM_OUT_CAP : BM_OUT_FAILED;
}

/* ---- one test on one CPU (cores section) ------------------------------------------- */

const struct bm_kernel *bytemark_kernel(enum bm_test_id id)
{
    return (unsigned)id < BM_NTESTS ? bm_kernels[id] : NULL;
}

long bytemark_core_test(void *arg)
{
    struct bytemark_core_job *cj = arg;
    struct bm_profile_params p;
    struct bm_result *r;
    struct bm_job j;
    cj->status = BM_EFAIL;
    cj->runs = 0;
    const struct bm_kernel *k = bytemark_kernel(cj->id);
    if (!k || !cj->hz)
        return cj->status;
    bm_profile_params_of(cj->profile, cj->profile, &p);
    r = plat_alloc(sizeof *r);
    if (!r)
        return cj->status = BM_ENOMEM;
    memset(r, 0, sizeof *r);
    memset(&j, 0, sizeof j);
    j.k = k;
    j.cfg = cj->cfg;
    j.prof = &p;
    j.hz = cj->hz;
    j.s.cfg = cj->cfg;
    j.s.align = cj->cfg->align;
    j.r = r;
    r->min_seconds = bm_profile_min_seconds(cj->cfg, &p, cj->id);
    cj->min_seconds = r->min_seconds;
    cj->status = (int)bm_test_body(&j);
    cj->workload = r->workload;
    cj->runs = r->n < BYTEMARK_CORE_RUNS ? r->n : BYTEMARK_CORE_RUNS;
    memcpy(cj->scores, r->scores, cj->runs * sizeof cj->scores[0]);
    cj->mean = r->st.mean;
    cj->sd = r->st.sd;
    cj->half = r->st.half;
    cj->rel_half = r->st.rel_half;
    cj->certain = r->st.certain;
    plat_free(r);
    return cj->status;
}

/* ---- text ----------------------------------------------------------------------- */

static void bm_print_header(const struct bm_config *cfg, const struct bm_profile_params *p,
                            uint64_t hz)
{
    out_printf("\nBYTEmark (nbench-byte 2.2.3 workloads) on %s, TSC %.3f MHz, a tick = 1 us\n",
               plat_name(), (double)hz / 1e6);
    out_printf("Compiler: %s, flags: %s\n", BUILD_COMPILER, BM_CFLAGS);
    if (p->profile == BM_PROFILE_QUICK)
        out_printf("Profile: quick%s: %.1f s of timed work per run, %u..%u runs "
                   "(BYTEmark: %.0f s, %d..%d runs); scores are indicative only\n",
                   p->requested == BM_PROFILE_AUTO ? " (auto: hypervisor present)" : "",
                   p->min_seconds, p->min_runs, p->max_runs, BM_FULL_MIN_SECONDS,
                   BM_FULL_MIN_RUNS, BM_FULL_MAX_RUNS);
    else
        out_printf("Profile: full%s: BYTEmark's defaults, %.0f s per run, %u..%u runs\n",
                   p->requested == BM_PROFILE_AUTO ? " (auto: no hypervisor)" : "",
                   p->min_seconds, p->min_runs, p->max_runs);
    out_printf("GLOBALMINTICKS %llu, ALIGN %u\n", (unsigned long long)cfg->global_min_ticks,
               (unsigned)cfg->align);
    if (cfg->not_comparable)
        out_printf("NOT COMPARABLE with published BYTEmark results: %s\n", cfg->not_comparable_why);
    out_printf("\nTEST                : Iterations/sec.  : Old Index   : New Index\n"
               "                    :                  : Pentium 90* : AMD K6/233*\n"
               "--------------------:------------------:-------------:------------\n");
}

static const char *bm_outcome_text(enum bm_outcome o)
{
    switch (o) {
    case BM_OUT_OK: return "ok";
    case BM_OUT_DISABLED: return "disabled";
    case BM_OUT_MISSING: return "not built";
    case BM_OUT_NOMEM: return "skipped: not enough memory";
    case BM_OUT_CAP: return "failed: adjustment cap hit";
    case BM_OUT_FAILED: return "failed";
    default: return "failed: CPU exception";
    }
}

static void bm_print_test(const struct bm_kernel *k, const struct bm_result *r,
                          const struct bm_config *cfg, const struct bm_profile_params *p)
{
    if (r->outcome != BM_OUT_OK) {
        out_printf("%-20s: %s%s%s\n", k->name, bm_outcome_text(r->outcome),
                   r->why[0] ? ": " : "", r->why);
        return;
    }
    const struct bm_run_stats *st = &r->st;
    out_printf("%-20s:%15.5g  :%9.2f  :%9.2f\n", k->name, st->mean, st->mean / k->base_p90,
               st->mean / k->base_k6);
    if (cfg->allstats)
        out_printf("  %zu runs of %g s: mean %.6g %s, sd %.4g (%.2f%%), 95%% half-interval %.4g "
                   "(%.2f%%); size: %s\n", st->n, r->min_seconds, st->mean, k->unit, st->sd,
                   100.0 * st->sd / st->mean, st->half, 100.0 * st->rel_half, r->size);
    /* BYTEmark prints its warning next to the mean; here it follows the
     * test's line so that it cannot be read as the next test's. */
    if (st->certain)
        return;
    if (p->profile == BM_PROFILE_FULL)
        out_printf("  ** WARNING: The current test result is NOT 95 %% statistically certain.\n"
                   "  ** WARNING: The variation among the individual results is too large.\n");
    else
        out_printf("  ** note: not 95 %% statistically certain (the quick profile stops at %u runs)\n",
                   p->max_runs);
}

/* One index line: the value, or n/a when a kernel of its group did not run. */
static const char *bm_index_text(char *buf, size_t cap, int whole, double v)
{
    if (whole)
        snprintf(buf, cap, "%.3f", v);
    else
        snprintf(buf, cap, "n/a (a test of it did not run)");
    return buf;
}

static void bm_print_indexes(const struct bm_indexes *ix, const int ran[BM_NTESTS])
{
    struct bm_index_groups g = bm_index_groups(ran);
    char b[5][40];
    out_printf("==========================ORIGINAL BYTEMARK RESULTS==========================\n"
               "INTEGER INDEX       : %s\n"
               "FLOATING-POINT INDEX: %s\n"
               "Baseline (MSDOS*)   : Pentium* 90, 256 KB L2-cache, Watcom* compiler 10.0\n"
               "==============================LINUX DATA BELOW===============================\n"
               "MEMORY INDEX        : %s\n"
               "INTEGER INDEX       : %s\n"
               "FLOATING-POINT INDEX: %s\n"
               "Baseline (LINUX)    : AMD K6/233*, 512 KB L2-cache, gcc 2.7.2.3, libc-5.4.38\n",
               bm_index_text(b[0], 40, g.orig_int, ix->orig_int), bm_index_text(b[1], 40, g.fp, ix->orig_fp),
               bm_index_text(b[2], 40, g.lx_mem, ix->lx_mem), bm_index_text(b[3], 40, g.lx_int, ix->lx_int),
               bm_index_text(b[4], 40, g.fp, ix->lx_fp));
    if (ix->missing)
        out_printf("(%d of the 10 tests did not run: an index missing one of its tests is not given; BYTEmark "
                   "itself would print a product of fewer factors under the same root, comparable with nothing)\n",
                   ix->missing);
}

/* ---- the suite ------------------------------------------------------------------ */

/* Run one enabled test and report problems.  Returns 1 when the run status
 * must become "warnings". */
static int bm_suite_one(const struct bm_config *cfg, const struct bm_profile_params *p,
                        uint64_t hz, enum bm_test_id i, struct bm_result *r, struct quiet_phase_totals *qt)
{
    const struct bm_kernel *k = bm_kernels[i];
    if (!k) {
        r->outcome = BM_OUT_MISSING;
        out_warn("bytemark: test %d is not built into this program; skipped", (int)i + 1);
        return 1;
    }
    struct bm_job j;
    memset(&j, 0, sizeof j);
    j.k = k;
    j.cfg = cfg;
    j.prof = p;
    j.hz = hz;
    j.s.cfg = cfg;
    j.s.align = cfg->align;
    j.r = r;
    r->min_seconds = bm_profile_min_seconds(cfg, p, i);
    j.qt = qt;
    bm_run_test(&j);
    bm_print_test(k, r, cfg, p);
    switch (r->outcome) {
    case BM_OUT_OK:
        if (!r->st.certain && p->profile == BM_PROFILE_FULL) {
            out_warn("bytemark: %s is not 95%% statistically certain after %zu runs", k->name, r->n);
            return 1;
        }
        return 0;
    case BM_OUT_NOMEM:
        out_warn("bytemark: %s skipped: not enough memory for %s; the other tests go on",
                 k->name, r->size);
        return 1;
    case BM_OUT_CAP:
        out_warn("bytemark: %s: workload adjustment hit the reference's cap (%s) without "
                 "reaching GLOBALMINTICKS=%llu; test abandoned", k->name, r->size,
                 (unsigned long long)cfg->global_min_ticks);
        return 1;
    case BM_OUT_FAULT:
        out_warn("bytemark: %s stopped by a CPU exception: %s", k->name, r->why);
        return 1;
    default:
        out_warn("bytemark: %s failed: the kernel reported an internal error", k->name);
        return 1;
    }
}

int bytemark_run(const struct bm_config *cfg, const struct run_env *env)
{
    struct bm_profile_params p;
    bm_profile_params_of((enum bm_profile)env->profile, cfg->profile, &p);     /* settled once (run_env) */
    uint64_t hz = plat_tick_hz();
    if (!hz) {
        out_warn("bytemark: the TSC frequency is unknown, nothing can be timed; suite skipped");
        return 2;
    }
    struct bm_result *res = plat_alloc(BM_NTESTS * sizeof *res);
    if (!res) {
        out_warn("bytemark: no memory for the results; suite skipped");
        return 2;
    }
    memset(res, 0, BM_NTESTS * sizeof *res);
    bm_print_header(cfg, &p, hz);
    struct quiet_phase_totals qt;   /* one measuring phase per test */
    quiet_phase_totals_init(&qt);
    int warn = 0;
    double mean[BM_NTESTS];
    int ran[BM_NTESTS];
    unsigned steps = 0, done = 0;
    for (int i = 0; i < BM_NTESTS; i++)
        steps += cfg->enabled[i] != 0;
    for (int i = 0; i < BM_NTESTS; i++) {
        ran[i] = 0;
        mean[i] = 0;
        if (!cfg->enabled[i]) {
            res[i].outcome = BM_OUT_DISABLED;
            continue;
        }
        warn |= bm_suite_one(cfg, &p, hz, (enum bm_test_id)i, &res[i], &qt);
        out_progress(++done, steps, bm_kernels[i] ? bm_kernels[i]->key : "test");
        ran[i] = res[i].outcome == BM_OUT_OK;
        mean[i] = res[i].st.mean;
    }
    struct bm_indexes ix;
    bm_indexes_compute(mean, ran, &ix);
    if (!cfg->customrun)          /* indexes only when CUSTOMRUN is not set */
        bm_print_indexes(&ix, ran);
    if (cfg->not_comparable)
        out_printf("* NOT COMPARABLE with published BYTEmark results: %s\n", cfg->not_comparable_why);
    out_printf("* profile %s%s\n", p.name,
               p.profile == BM_PROFILE_QUICK ? " (shortened runs: indicative scores only)" : "");
    quiet_phase_totals_print("bytemark", &qt);
    bm_json(cfg, &p, hz, res, cfg->customrun ? NULL : &ix, ran, &qt);
    plat_free(res);
    return warn ? 2 : 0;
}

/* ---- verification ------------------------------------------------------------- */

int bytemark_verify(const struct bm_config *cfg)
{
    (void)cfg;
    int passed[BM_NTESTS], failed[BM_NTESTS], total_failed = 0, total_passed = 0;
    out_printf("\nBYTEmark kernel checks (BYTEmark document data and BYTEMARK.md check values)\n");
    for (int i = 0; i < BM_NTESTS; i++) {
        const struct bm_kernel *k = bm_kernels[i];
        passed[i] = failed[i] = 0;
        if (!k || !k->verify) {
            out_printf("note: test %d has no checks in this build\n", i + 1);
            continue;
        }
        struct bm_verify v = { 0, 0, k->key };
        k->verify(&v);
        passed[i] = v.passed;
        failed[i] = v.failed;
        total_passed += v.passed;
        total_failed += v.failed;
    }
    out_printf("BYTEmark checks: %d passed, %d failed\n", total_passed, total_failed);
    struct json_writer *w = results_section_begin("verify", 0);
    json_u64(w, "passed", (uint64_t)total_passed);
    json_u64(w, "failed", (uint64_t)total_failed);
    json_arr_begin(w, "kernels");
    for (int i = 0; i < BM_NTESTS; i++) {
        if (!bm_kernels[i])
            continue;
        json_obj_begin(w, NULL);
        json_str(w, "key", bm_kernels[i]->key);
        json_u64(w, "passed", (uint64_t)passed[i]);
        json_u64(w, "failed", (uint64_t)failed[i]);
        json_obj_end(w);
    }
    json_arr_end(w);
    results_section_end();
    return total_failed;
}

/* ---- the sections (bench/sections.c) --------------------------------------------- */

int bytemark_section_run(const struct section_ctx *ctx)
{
    return bytemark_run(ctx->cfg, ctx->env);
}

int verify_run(const struct section_ctx *ctx)
{
    return bytemark_verify(ctx->cfg) ? SECTION_WARNINGS : SECTION_OK;
}
