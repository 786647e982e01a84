/*
 * tools/host/history/history_bench.c - `baremark history bench`: the figures the
 * README states for the history, measured here.
 *
 * Detection, on synthetic series (normal noise of sd 1, a deterministic
 * generator): the false-alarm rate on flat series, and for each step size
 * (in units of the noise's sd) the share of series with one planted step
 * in the middle whose change is found within 2 runs of where it was
 * planted, for several series lengths; the smallest step found in 95% of
 * series is printed per length.
 *
 * Scale: RUNS runs of FIGURES figures each stored (one transaction a run,
 * through the same tables `history add` fills) and every series analysed,
 * with the time each took and the process's peak memory.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "history.h"

#define HB_SERIES     1000    /* synthetic series per cell */
#define HB_FOUND_SHARE 0.95

static uint64_t hb_state = 0x9e3779b97f4a7c15ull;

static double hb_uniform(void)
{
    hb_state ^= hb_state << 13;
    hb_state ^= hb_state >> 7;
    hb_state ^= hb_state << 17;
    return ((hb_state >> 11) + 0.5) / 9007199254740992.0;
}

static double hb_normal(void)
{
    return sqrt(-2 * log(hb_uniform())) * cos(2 * M_PI * hb_uniform());
}

static double hb_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Share of HB_SERIES series of length n with a step of `step` sd at n/2
 * where a change is found within 2 runs of it (step 0: any change, the
 * false-alarm rate). */
double history_bench_rate(size_t n, double step, const struct stats_cp_params *par)
{
    double *x = malloc(n * sizeof *x);
    size_t *scratch = malloc(3 * (n + 1) * sizeof *scratch), hits = 0;
    struct stats_change cps[32];
    for (int s = 0; s < HB_SERIES; s++) {
        for (size_t i = 0; i < n; i++)
            x[i] = 100 + hb_normal() + (i >= n / 2 ? step : 0);
        size_t k = stats_changepoints(x, NULL, n, par, cps, 32, scratch), hit = 0;
        for (size_t i = 0; i < k; i++)
            hit |= step == 0 || (cps[i].at + 2 >= n / 2 && cps[i].at <= n / 2 + 2);
        hits += hit;
    }
    free(x);
    free(scratch);
    return (double)hits / HB_SERIES;
}

static void hb_table(const struct stats_cp_params *par)
{
    static const size_t lengths[] = { 6, 10, 20, 50, 200 };      /* 3, 5, 10, 25, 100 runs a side */
    static const double steps[] = { 0.5, 1, 1.5, 2, 3, 4 };
    hb_state = 0x9e3779b97f4a7c15ull;       /* every table from the same seed: the same series */
    printf("  runs  false alarms");
    for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++)
        printf("  step %.1f", steps[j]);
    printf("  smallest step found in %.0f%%\n", HB_FOUND_SHARE * 100);
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        double smallest = NAN;
        printf("  %4zu  %11.1f%%", lengths[i], 100 * history_bench_rate(lengths[i], 0, par));
        for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++) {
            double r = history_bench_rate(lengths[i], steps[j], par);
            printf("  %7.1f%%", 100 * r);
            if (isnan(smallest) && r >= HB_FOUND_SHARE)
                smallest = steps[j];
        }
        if (isnan(smallest))
            printf("  none up to %.0f sd\n", steps[sizeof steps / sizeof steps[0] - 1]);
        else
            printf("  %.1f sd\n", smallest);
    }
}

static void hb_detection(void)
{
    static double work[STATS_CP_PERM_MAX];
    struct stats_cp_params par = { 0.001, 1e-5, 3, HISTORY_SPLIT * 0.001, 1, HISTORY_PERM, HISTORY_ALPHA_PERM, work };
    struct stats_cp_params bonf = par, one = par;
    bonf.perm = 0;
    one.family = 0;
    one.perm = 0;
    printf("detection (noise sd 1, normal, xorshift64 seed 0x9e3779b97f4a7c15, %d series a cell, the step at the middle; "
           "splits at p < %g re-tested at p < %g, at least %zu runs a side)\n", HB_SERIES, par.alpha_split, par.alpha,
           par.min_size);
    printf(" as `history` decides: Welch's p times the splits the segment allows (Bonferroni) below %g, and a segment "
           "of at most %d runs by a permutation test too (%u orderings, seed 0x%llx) below %g\n", par.alpha,
           STATS_CP_PERM_MAX, par.perm, (unsigned long long)STATS_CP_PERM_SEED, par.alpha_perm);
    hb_table(&par);
    printf(" without the permutation test (Bonferroni-Welch alone)\n");
    hb_table(&bonf);
    printf(" for comparison, Welch's p of the split alone (Hunter's and Otava's test)\n");
    hb_table(&one);
}

static const char HB_RUN[] =
    "INSERT INTO runs (hash, machine_id, name, started, added, status, profile, build, image_sha256, plugins,"
    " settings, firmware, microcode, memory_mib, secure_boot, source)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id";
static const char HB_POINT[] =
    "INSERT INTO points (run_id, figure_id, value, lo, hi) VALUES ($1, $2, $3, $4, $5)";

static int hb_id(void *ctx, int n, const char *const *v)
{
    snprintf(ctx, 24, "%s", n > 0 && v[0] ? v[0] : "");
    return 1;
}

static long hb_series_changes;
static void hb_count(void *ctx, const struct history_change *c)
{
    (void)ctx;
    (void)c;
    hb_series_changes++;
}

/* Store o->runs runs of o->figures figures on 10 machines, each figure a
 * noisy level with one step in some series, then analyse everything. */
static int hb_scale(const char *target, long runs, long figures)
{
    char err[600], path[64], mid[24] = "", rid[24], fid[24], num[3][48];
    int own = !target;
    if (own) {
        snprintf(path, sizeof path, "/tmp/baremark-history-bench-%d.db", (int)getpid());
        target = path;
    }
    struct hdb *db = hdb_open(target, err, sizeof err);
    if (!db) {
        fprintf(stderr, "baremark history bench: %s\n", err);
        return 1;
    }
    double t0 = hb_now();
    hdb_begin(db);
    for (long f = 0; f < figures; f++) {
        char name[48];
        snprintf(name, sizeof name, "bench_figure_%04ld_ns", f);
        const char *p[3] = { name, "ns", "lower" };
        hdb_exec(db, "INSERT INTO figures (name, unit, kind) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", 3, p,
                 NULL, NULL);
    }
    for (int m = 0; m < 10; m++) {
        char key[32];
        snprintf(key, sizeof key, "name:bench-box-%02d", m);
        const char *p[3] = { key, key + 5, "synthetic" };
        hdb_exec(db, "INSERT INTO machines (key, name, cpu) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING", 3, p,
                 NULL, NULL);
    }
    hdb_commit(db);
    for (long r = 0; r < runs; r++) {
        char hash[40], name[40], started[40], build[24];
        int m = (int)(r % 10);
        snprintf(hash, sizeof hash, "bench-%d-%ld", (int)getpid(), r);
        snprintf(name, sizeof name, "bench-%06ld", r);
        snprintf(started, sizeof started, "2026-01-01T00:00:00+%06ld", r);
        snprintf(build, sizeof build, "bench%ld", r / 500);
        snprintf(mid, sizeof mid, "%d", m + 1);
        const char *rp[16] = { hash, mid, name, started, started, "0", "quick", build, "-", "-", "-", "fw", "-",
                               NULL, "-", "bench" };
        if (hdb_begin(db) || hdb_exec(db, HB_RUN, 16, rp, hb_id, rid))
            goto fail;
        for (long f = 0; f < figures; f++) {
            double level = 100 + f, v = level * (1 + 0.01 * hb_normal());
            if (f % 50 == 0 && r / 10 >= runs / 20)
                v *= 1.10;      /* a planted 10% step in every 50th figure, halfway */
            snprintf(fid, sizeof fid, "%ld", f + 1);
            snprintf(num[0], sizeof num[0], "%.6f", v);
            snprintf(num[1], sizeof num[1], "%.6f", v * 0.995);
            snprintf(num[2], sizeof num[2], "%.6f", v * 1.005);
            const char *pp[5] = { rid, fid, num[0], num[1], num[2] };
            if (hdb_exec(db, HB_POINT, 5, pp, NULL, NULL))
                goto fail;
        }
        if (hdb_commit(db))
            goto fail;
    }
    double t1 = hb_now();
    struct history_filter flt = { NULL, NULL, 0.001, 1e-5, 3 };
    long series = history_changes(db, &flt, hb_count, NULL, NULL);
    double t2 = hb_now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("scale (%s): %ld runs x %ld figures = %ld points stored in %.1f s (%.0f points/s); "
           "%ld series analysed in %.1f s, %ld changes (%ld series planted with a 10%% step); peak memory %ld MiB\n",
           hdb_kind(db), runs, figures, runs * figures, t1 - t0, runs * figures / (t1 - t0), series, t2 - t1,
           hb_series_changes, 10 * ((figures + 49) / 50), ru.ru_maxrss / 1024);
    hdb_close(db);
    if (own)
        hdb_remove_sqlite(path);
    return 0;
fail:
    fprintf(stderr, "baremark history bench: %s\n", hdb_error(db));
    hdb_close(db);
    return 1;
}

int history_bench_run(const char *db, long runs, long figures)
{
    hb_detection();
    return hb_scale(db, runs, figures);
}
