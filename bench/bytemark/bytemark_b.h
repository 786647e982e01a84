/*
 * bench/bytemark/bytemark_b.h - what the assignment (assign.c), IDEA
 * (idea.c) and Huffman (huffman.c) kernels expose for their unit test
 * (tests/unit/test_bytemark_b.c): the untimed computations behind their
 * checks, so that the test can compare them with the independent Python
 * model (tests/vectors/bytemark/model_b.py).  Not used by the suite.
 */
#ifndef BAREMARK_BYTEMARK_B_H
#define BAREMARK_BYTEMARK_B_H

#include <stddef.h>
#include <stdint.h>

#include "bytemark.h"

#define BM_ASSIGN_N 101

struct bm_assign_probe {
    int64_t cost0[6];            /* cost[0][0..5] as generated */
    int64_t cost_last;           /* cost[100][100] */
    int64_t sum, min, max;       /* over all 10201 costs */
    char cost_md5[33];           /* the matrix, int64 little-endian, row-major */
    char reduced_md5[33];        /* after the row and column reductions */
    uint64_t zeros;              /* zeros after the reductions */
    uint64_t firsts, seconds;    /* calls of first_ / second_assignments */
    int columns[BM_ASSIGN_N];    /* each row's assigned column, -1 if not one */
    int64_t total_cost;          /* of the assignment, in the original costs */
    char final_md5[33];          /* the tableau when the method stops */
    char status_md5[33];         /* the status table (int16) when it stops */
};

/* Generate the default problem and solve a copy, counting.  Returns 0 or -1
 * (no memory). */
int bm_assign_probe(struct bm_assign_probe *out);

struct bm_idea_probe {
    uint16_t userkey[8];
    uint16_t z[52], dk[52];      /* encryption and decryption subkeys */
    char z_md5[33], dk_md5[33];  /* 52 u16 little-endian each */
    uint8_t plain0[8];           /* plain1[0..7] */
    char plain_md5[33];          /* plain1, 4000 bytes */
    char crypt_md5[33];          /* crypt1 after one loop */
    int round_trip;              /* plain2 == plain1 */
};

/* Generate the default key and data, encrypt and decrypt once.  Returns 0
 * or -1 (no memory). */
int bm_idea_probe(struct bm_idea_probe *out);

/* One block through the cipher with subkeys made from `userkey` (decrypt:
 * the inverted subkeys), for known-answer tests. */
void bm_idea_block(const uint16_t userkey[8], int decrypt, const uint16_t in[4], uint16_t out[4]);

struct bm_huffman_probe {
    char text_md5[33];           /* the 5000 bytes, final NUL included */
    char start[81];              /* the first 80 characters */
    int distinct, newlines;
    int root;                    /* index of the root node */
    uint64_t bits;               /* compressed bits */
    int longest, shortest;       /* code lengths */
    char comp_md5[33];           /* the bits' bytes (buffer zeroed first) */
    char nodes_md5[33];          /* left, right, parent (int32 LE) of 256..root */
    char lengths_md5[33];        /* 256 code lengths as bytes, 0 = absent */
    uint64_t decompressed;       /* bytes decompression produced */
    int round_trip;              /* decompressed == text */
};

/* Generate the default text and run one instrumented loop.  Returns 0 or
 * -1 (no memory). */
int bm_huffman_probe(struct bm_huffman_probe *out);

#endif
