/*
 * bench/bytemark/bytemark_kernels.c - the ten kernels in the reference's
 * order (enum bm_test_id, bytemark.h): the one table the suite
 * (bytemark.c) and its results member (bytemark_json.c) look a kernel up
 * in.
 */
#include "bytemark.h"

const struct bm_kernel *const bm_kernels[BM_NTESTS] = {
    &bm_numsort, &bm_strsort, &bm_bitfield, &bm_emfloat, &bm_fourier,
    &bm_assign, &bm_idea, &bm_huffman, &bm_nnet, &bm_lu
};
