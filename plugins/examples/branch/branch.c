/*
 * plugins/examples/branch/branch.c - a branchy and a branch-free sum of the
 * bytes at or above 128 in 4 KiB of pseudo-random bytes (about half of them,
 * in no pattern a branch predictor can learn).  Compare them with
 * COMPARE=branch:branchy,branch:branchless.
 *
 * setup fills the bytes from a fixed xorshift64 seed through host->alloc, so
 * every run sums the same data; the sum is stored beside the bytes so the
 * work cannot be optimized away.
 * One iteration = one pass over the 4 KiB.
 */
#include <stdint.h>

#include "baremark_plugin.h"

#define BRANCH_BYTES 4096u
#define BRANCH_SEED  0x2545f4914f6cdd1dull

struct branch_data {
    uint8_t bytes[BRANCH_BYTES];
    uint64_t sum;
};

static int branch_setup(const struct bm_plugin_host *host, void **data)
{
    struct branch_data *d = host->alloc(sizeof *d);
    if (!d)
        return 1;
    uint64_t s = BRANCH_SEED;
    for (unsigned i = 0; i < BRANCH_BYTES; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        d->bytes[i] = (uint8_t)(s >> 56);
    }
    *data = d;
    return 0;
}

/* Vectorizing either loop would compare SIMD with scalar code, not a branch
 * with its absence: both stay scalar. */
__attribute__((optimize("no-tree-vectorize")))
static void branch_branchy(uint64_t iterations, void *data)
{
    struct branch_data *d = data;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < iterations; i++) {
        for (unsigned k = 0; k < BRANCH_BYTES; k++) {
            if (d->bytes[k] >= 128) {
                sum += d->bytes[k];
                /* keeps GCC from turning the branch into a cmov */
                __asm__ volatile("" : "+r"(sum));
            }
        }
    }
    d->sum = sum;
}

__attribute__((optimize("no-tree-vectorize")))
static void branch_branchless(uint64_t iterations, void *data)
{
    struct branch_data *d = data;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < iterations; i++) {
        for (unsigned k = 0; k < BRANCH_BYTES; k++) {
            uint64_t v = d->bytes[k];
            sum += v & (0 - (v >> 7));   /* v when its top bit is set, else 0 */
        }
    }
    d->sum = sum;
}

static const struct bm_plugin_routine branch_routines[] = {
    { "branchy", "sum of the bytes >= 128 in 4 KiB of random bytes, with a branch", branch_branchy,
      branch_setup, NULL, -1, -1 },
    { "branchless", "the same sum with a mask instead of a branch", branch_branchless, branch_setup,
      NULL, -1, -1 },
};

BAREMARK_PLUGIN("branch", "a branchy and a branch-free loop over random bytes", branch_routines);
