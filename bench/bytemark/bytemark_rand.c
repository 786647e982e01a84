/*
 * bench/bytemark/bytemark_rand.c - BYTEmark's pseudo-random generator
 * (BYTEMARK.md section 1).  The only generator any kernel uses; its state is
 * the caller's (struct bm_rand) instead of the reference's statics so that a
 * kernel and its checks can never disturb each other's stream.
 */
#include "bytemark.h"

/* BYTEMARK.md section 1 / 11: initial state and the recurrence constants. */
#define BM_RAND_S0   13
#define BM_RAND_S1   117
#define BM_RAND_A0   254754
#define BM_RAND_A1   529562
#define BM_RAND_MOD  999563

/* One step: s0*254754 + s1*529562 wraps modulo 2^32 as the reference's int32
 * arithmetic does (computed unsigned to avoid C's signed-overflow UB, then
 * reinterpreted), and C's truncating % keeps the sign of the sum. */
static int32_t bm_rand_step(struct bm_rand *r)
{
    uint32_t t = (uint32_t)r->s0 * (uint32_t)BM_RAND_A0 + (uint32_t)r->s1 * (uint32_t)BM_RAND_A1;
    int32_t v = (int32_t)t % BM_RAND_MOD;
    r->s1 = r->s0;
    r->s0 = v;
    return v;
}

void bm_rand_reset(struct bm_rand *r)
{
    r->s0 = BM_RAND_S0;
    r->s1 = BM_RAND_S1;
    /* Quirk kept: the reference's randnum(nonzero) resets AND advances the
     * state once, returning a value (298961) every caller discards, so the
     * first value a kernel uses is the 2nd output of the recurrence. */
    (void)bm_rand_step(r);
}

int32_t bm_randnum(struct bm_rand *r)
{
    return bm_rand_step(r);
}

int32_t bm_randwc(struct bm_rand *r, int32_t n)
{
    /* C signed remainder: the result has the sign of the draw. */
    return bm_rand_step(r) % n;
}

int32_t bm_abs_randwc(struct bm_rand *r, int32_t n)
{
    int32_t v = bm_randwc(r, n);
    return v < 0 ? -v : v;
}
