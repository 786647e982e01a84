/*
 * bench/bytemark/bytemark_report.h - what the suite (bytemark.c) hands its
 * results writer (bytemark_json.c): each test's outcome and scores.
 */
#ifndef BAREMARK_BYTEMARK_REPORT_H
#define BAREMARK_BYTEMARK_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "buildinfo.h"
#include "bytemark.h"
#include "bytemark_internal.h"
#include "quiet.h"

/* The switches the kernels were built with (BYTEmark asks for them next to
 * every score). */
#ifdef BAREMARK_EFI
#define BM_CFLAGS BUILD_EFI_CFLAGS
#else
#define BM_CFLAGS BUILD_HOST_CFLAGS
#endif


/* Outcome of one test. */
enum bm_outcome { BM_OUT_OK, BM_OUT_DISABLED, BM_OUT_MISSING, BM_OUT_NOMEM, BM_OUT_CAP,
                  BM_OUT_FAILED, BM_OUT_FAULT };

struct bm_result {
    enum bm_outcome outcome;
    double min_seconds;
    uint64_t workload;
    char size[96];              /* the kernel's describe() of the adjusted size */
    char why[160];              /* fault description */
    double scores[BM_RUNS_CAP];
    size_t n;
    struct bm_run_stats st;
};

/* Which overall indexes had every one of their kernels run.  An index is a
 * geometric mean with a fixed exponent (1/7 for the original integer
 * index): with a kernel missing it is a product of fewer factors under the
 * same root, comparable with nothing, so it is no figure (null in the
 * JSON, skip on LAVA, n/a in the summary and in the BYTEmark printout). */
struct bm_index_groups {
    int orig_int, fp, lx_mem, lx_int;
};

struct bm_index_groups bm_index_groups(const int ran[BM_NTESTS]);

/* The "bytemark" member of the results: the profile, each test's scores
 * and statistics, the indexes (ix NULL: a CUSTOMRUN, no indexes). */
void bm_json(const struct bm_config *cfg, const struct bm_profile_params *p, uint64_t hz,
             const struct bm_result *res, const struct bm_indexes *ix, const int ran[BM_NTESTS],
             const struct quiet_phase_totals *qt);

#endif
