/*
 * bench/bytemark/bytemark_c.h - what the neural net (nnet.c) and LU
 * decomposition (lu.c) kernels expose for their unit test
 * (tests/unit/test_bytemark_c.c): the untimed computations behind their
 * checks, so that the test can compare them with the independent Python
 * model (tests/vectors/bytemark/model_c.py).  Not used by the suite.
 */
#ifndef BAREMARK_BYTEMARK_C_H
#define BAREMARK_BYTEMARK_C_H

#include <stddef.h>
#include <stdint.h>

#include "bytemark.h"

#define BM_NNET_PROBE_SESSIONS 4

struct bm_nnet_probe {
    int patterns_in_file;        /* the count NNET.DAT claims (26) */
    int patterns_used;           /* after the MAXPATS clamp (10) */
    char letters[11];            /* the targets read as ASCII ("ABCDEFGHIJ") */
    char patterns_md5[33];       /* inputs [10][35] then targets [10][8], doubles */
    char weights_md5[33];        /* first weights: mid [8][35] then out [8][8], doubles */
    double mid0[4], out0[4];     /* mid[0][0..3], out[0][0..3] of the first weights */
    /* One iteration of `sessions` loops from a reset generator. */
    int sessions;
    int passes[BM_NNET_PROBE_SESSIONS];  /* passes each session took */
    int learned;                 /* every session learned (none diverged) */
    uint64_t presentations;      /* pattern presentations of session 1 */
    double weight_sum;           /* session 1's final weights: sum(mid) + sum(out) */
};

/* Parse the built-in NNET.DAT and run `sessions` (1..4) learning sessions
 * the way one timed iteration does.  Returns 0, or -1 (no memory, bad data
 * or sessions out of range). */
int bm_nnet_probe(int sessions, struct bm_nnet_probe *out);

struct bm_lu_probe {
    int32_t b0[101], diag[101]; /* the problem before scrambling */
    uint64_t adds, subs;         /* scrambles that added / subtracted a row */
    char matrix_md5[33];         /* scrambled A, 101x101 doubles, row-major */
    char rhs_md5[33];            /* scrambled b, 101 doubles */
    uint64_t swaps;              /* row interchanges of the decomposition */
    double x[101];               /* the solution */
    char x_md5[33];
};

/* Build the problem and solve one copy, counting.  Returns 0 or -1. */
int bm_lu_probe(struct bm_lu_probe *out);

/* The number of systems lu.c's setup allocated for the state (after a
 * successful bm_lu.setup): numarrays, or numarrays + 1 while adjusting. */
uint64_t bm_lu_allocated(const struct bm_state *s);

#endif
