/*
 * tools/host/stats/stats_sample.h - a sample for `stats` and `compare`: one
 * number a line read from a file (stats_sample.c), kept as exact uint64
 * ticks while every number is a non-negative integer below 2^64, and as
 * doubles always.
 */
#ifndef BAREMARK_STATS_SAMPLE_H
#define BAREMARK_STATS_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct sample {
    const char *name;
    uint64_t *u;        /* valid while all_int */
    double *d;
    size_t n, cap;
    int all_int;
};

/* Read path (standard input for NULL or "-"): blank lines and '#' comments
 * skipped.  0, or 2 after saying why on stderr (no such file, a line that is
 * not a number: named by file and line).  sample_free it either way. */
int read_sample(const char *path, struct sample *x);
void sample_free(struct sample *x);

#endif
