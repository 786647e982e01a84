/*
 * tools/host/stats/cmd_bench_stats.c - `bench-stats`: what a full summary
 * (stats/stats.h) of 10^5 timing-like samples costs on this host, exact
 * uint64 and double, best of several repetitions.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "stats/stats.h"

/* bench-stats: sample count from the issue, repetitions to take the best of. */
#define BENCH_N     100000
#define BENCH_REPS  9

static const struct cli_opt no_opts[] = { { 0 } };
const struct cli_cmd cli_cmd_bench_stats = {
    "bench-stats", "", "the cost of a full summary of 10^5 samples", no_opts, NULL,
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Timing-like data: a floor plus a skewed tail (xorshift64, fixed seed). */
static void bench_fill(uint64_t *u, double *d, size_t n)
{
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        u[i] = 1000 + (s % 64) * (s % 64) / 8 + ((s >> 32) % 997 == 0 ? 50000 : 0);
        d[i] = (double)u[i] * 0.37;
    }
}

static double bench_best(int is_u64, const uint64_t *u, const double *d, uint64_t *su,
                         double *sd, size_t n)
{
    double best = INFINITY;
    struct stats_summary s;
    for (int r = 0; r < BENCH_REPS; r++) {
        double t0 = now_ns();
        if (is_u64)
            stats_summary_u64(u, n, su, NULL, &s);
        else
            stats_summary_double(d, n, sd, NULL, &s);
        double t = now_ns() - t0;
        best = t < best ? t : best;
    }
    return best;
}

int cmd_bench_stats(int argc, char **argv)
{
    struct cli_iter it = { &cli_cmd_bench_stats, argc, argv, 1, NULL, NULL, 0 };
    int id = cli_next(&it);
    if (id == CLI_ARG) {
        fprintf(stderr, "baremark bench-stats: it takes no arguments (got %s)\n", it.val);
        return 2;
    }
    if (id != CLI_END)
        return 2;
    size_t n = BENCH_N;
    uint64_t *u = malloc(n * sizeof *u), *su = malloc(n * sizeof *su);
    double *d = malloc(n * sizeof *d), *sd = malloc(n * sizeof *sd);
    if (!u || !su || !d || !sd) {
        fprintf(stderr, "baremark: out of memory\n");
        return 1;
    }
    bench_fill(u, d, n);
    double tu = bench_best(1, u, d, su, sd, n), td = bench_best(0, u, d, su, sd, n);
    printf("bench-stats: full summary (copy, sort, moments, percentiles, MAD, trimmed "
           "mean, Karsh mode, outliers) of n = %zu samples, best of %d\n", n, BENCH_REPS);
    printf("  uint64: %12.0f ns per summary, %8.2f ns per sample\n", tu, tu / (double)n);
    printf("  double: %12.0f ns per summary, %8.2f ns per sample\n", td, td / (double)n);
    free(u);
    free(su);
    free(d);
    free(sd);
    return 0;
}
