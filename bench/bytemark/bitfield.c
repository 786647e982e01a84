/*
 * bench/bytemark/bitfield.c - BYTEmark's bitfield test (BYTEMARK.md 4.3):
 * runs of bits set, cleared and complemented one bit at a time in a bitmap
 * of 64-bit words (the reference's `long` on LP64).  Unit: bits operated on
 * per second.  Adjustment grows the number of operations (30, +100, no cap).
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define BITFIELD_WORDS      16384   /* BITFARRAYSIZE with LONG64: 1,048,576 bits */
#define BITFIELD_OP_RANGE   262140  /* offsets abs_randwc(262140), lengths
                                       abs_randwc(262140 - offset) */
#define BITFIELD_OPS_START  30
#define BITFIELD_OPS_STEP   100
#define BITFIELD_FILL       0x5555555555555555ull
/* Words the operations can reach: bits 0..262139. */
#define BITFIELD_TOUCHED_WORDS ((BITFIELD_OP_RANGE + 63) / 64)

struct bitfield {
    uint64_t *bitmap;
    uint64_t words;         /* BITFIELDSIZE: words reset every iteration */
    uint64_t *ops;          /* nops (offset, length) pairs */
    uint64_t nops;
    struct bm_rand rand;
};

/* ToggleBitRun with val = 1 / 0 and FlipBitRun, bit by bit as the reference
 * (one shift and one or/and/xor per bit; bit b is word b/64, bit b%64). */
static inline void bitfield_set(uint64_t *map, uint64_t bit, uint64_t n)
{
    while (n--) {
        map[bit >> 6] |= 1ull << (bit & 63);
        bit++;
    }
}

static inline void bitfield_clear(uint64_t *map, uint64_t bit, uint64_t n)
{
    while (n--) {
        map[bit >> 6] &= ~(1ull << (bit & 63));
        bit++;
    }
}

static inline void bitfield_flip(uint64_t *map, uint64_t bit, uint64_t n)
{
    while (n--) {
        map[bit >> 6] ^= 1ull << (bit & 63);
        bit++;
    }
}

/* The untimed part of DoBitfieldIteration.  Quirk kept: the generator is
 * reset, the bitmap refilled, and the generator reset AGAIN before the
 * (offset, length) pairs are drawn.  Returns the bits the ops will touch. */
static uint64_t bitfield_load(struct bitfield *bf)
{
    uint64_t nbits = 0;
    bm_rand_reset(&bf->rand);
    for (uint64_t i = 0; i < bf->words; i++)
        bf->bitmap[i] = BITFIELD_FILL;
    bm_rand_reset(&bf->rand);
    for (uint64_t i = 0; i < bf->nops; i++) {
        int32_t off = bm_abs_randwc(&bf->rand, BITFIELD_OP_RANGE);
        int32_t len = bm_abs_randwc(&bf->rand, BITFIELD_OP_RANGE - off);
        bf->ops[2 * i] = (uint64_t)off;
        bf->ops[2 * i + 1] = (uint64_t)len;
        nbits += (uint64_t)len;
    }
    return nbits;
}

/* The timed part: op i sets (i%3 == 0), clears (1) or complements (2). */
static void bitfield_run(uint64_t *map, const uint64_t *ops, uint64_t nops)
{
    for (uint64_t i = 0; i < nops; i++) {
        switch (i % 3) {
        case 0: bitfield_set(map, ops[2 * i], ops[2 * i + 1]); break;
        case 1: bitfield_clear(map, ops[2 * i], ops[2 * i + 1]); break;
        default: bitfield_flip(map, ops[2 * i], ops[2 * i + 1]); break;
        }
    }
}

static void bitfield_init(struct bm_state *s)
{
    /* NUMBITOPS fixes the count and disables adjustment. */
    s->workload = s->cfg && s->cfg->bit_ops ? s->cfg->bit_ops : BITFIELD_OPS_START;
    s->workload_fixed = s->cfg && s->cfg->bit_ops != 0;
}

static void bitfield_teardown(struct bm_state *s)
{
    struct bitfield *bf = s->priv;
    if (!bf)
        return;
    bm_free(bf->bitmap);
    bm_free(bf->ops);
    plat_free(bf);
    s->priv = NULL;
}

static int bitfield_setup(struct bm_state *s)
{
    bitfield_teardown(s);
    struct bitfield *bf = plat_alloc(sizeof *bf);
    if (!bf)
        return BM_ENOMEM;
    memset(bf, 0, sizeof *bf);
    s->priv = bf;
    bf->words = s->cfg && s->cfg->bitfield_size ? s->cfg->bitfield_size : BITFIELD_WORDS;
    bf->nops = s->workload;
    /* A BITFIELDSIZE below 4096 words would let the reference write past its
     * bitmap (the ops always reach bit 262139): allocate at least that much,
     * reset only the configured words. */
    uint64_t alloc_words = bf->words > BITFIELD_TOUCHED_WORDS ? bf->words : BITFIELD_TOUCHED_WORDS;
    if (bf->nops > (uint64_t)-1 / 16 || alloc_words > (uint64_t)-1 / 8)
        return BM_ENOMEM;
    bf->bitmap = bm_alloc(alloc_words * sizeof(uint64_t), s->align);
    bf->ops = bm_alloc((bf->nops ? bf->nops : 1) * 2 * sizeof(uint64_t), s->align);
    return bf->bitmap && bf->ops ? BM_OK : BM_ENOMEM;
}

static uint64_t bitfield_iterate(struct bm_state *s, double *units)
{
    struct bitfield *bf = s->priv;
    struct bm_timer t;
    uint64_t nbits = bitfield_load(bf);      /* untimed */
    uint64_t *map = bf->bitmap, *ops = bf->ops, nops = bf->nops;
    bm_timer_start(&t);
    bitfield_run(map, ops, nops);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)nbits;
    return ticks;
}

static int bitfield_grow(struct bm_state *s)
{
    s->workload += BITFIELD_OPS_STEP;        /* no cap in the reference */
    return BM_OK;
}

static void bitfield_describe(const struct bm_state *s, char *buf, size_t n)
{
    uint64_t words = s->cfg && s->cfg->bitfield_size ? s->cfg->bitfield_size : BITFIELD_WORDS;
    snprintf(buf, n, "%llu ops on %llu 64-bit words", (unsigned long long)s->workload,
             (unsigned long long)words);
}

/* ---- checks ----------------------------------------------------------------- */

/* Expected values of one default iteration.  The op list and bit count are
 * BYTEMARK.md's (verified there with an instrumented reference build); the
 * bitmap digest is from an independent Python model of section 4.3
 * (tests/vectors/bytemark/model_a.py), the stand-in for comparing
 * with the reference's debugbit.good. */
#define BITFIELD_EXPECT_BITS    2258842ull
#define BITFIELD_EXPECT_MD5     "5b910fa32bd0c237ad36467e0d9eb9f1"
#define BITFIELD_EXPECT_ONES    540253ull

static void bitfield_verify(struct bm_verify *v)
{
    static const uint64_t first[10] = { 252905, 4649, 200022, 55269, 116564, 94185,
                                        208776, 16946, 247867, 5444 };
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.align = 8;                             /* cfg NULL: the defaults */
    bitfield_init(&s);
    if (bitfield_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate the bitmap", "out of memory");
        bitfield_teardown(&s);
        return;
    }
    struct bitfield *bf = s.priv;
    uint64_t nbits = bitfield_load(bf);
    bm_check(v, bf->nops == 30 && memcmp(bf->ops, first, sizeof first) == 0,
             "ops: 30, first (offset,length) (252905,4649) (200022,55269) ... (BYTEMARK.md)",
             "%llu ops, first (%llu,%llu)", (unsigned long long)bf->nops,
             (unsigned long long)bf->ops[0], (unsigned long long)bf->ops[1]);
    bm_check(v, nbits == BITFIELD_EXPECT_BITS, "ops: 2258842 bits per iteration",
             "%llu bits", (unsigned long long)nbits);
    uint64_t max_end = 0;
    for (uint64_t i = 0; i < bf->nops; i++)
        if (bf->ops[2 * i] + bf->ops[2 * i + 1] > max_end)
            max_end = bf->ops[2 * i] + bf->ops[2 * i + 1];
    bm_check(v, max_end <= BITFIELD_OP_RANGE, "ops: only bits 0..262139 are touched",
             "a run ends at %llu", (unsigned long long)max_end);

    double units = 0;
    bitfield_iterate(&s, &units);
    uint64_t ones = 0;
    for (uint64_t i = 0; i < bf->words; i++)
        ones += (uint64_t)__builtin_popcountll(bf->bitmap[i]);
    char md5[33];
    bm_md5_hex(bf->bitmap, bf->words * sizeof(uint64_t), md5);
    bm_check(v, units == (double)BITFIELD_EXPECT_BITS, "timed iteration counts 2258842 bits",
             "units %.0f", units);
    bm_check(v, ones == BITFIELD_EXPECT_ONES && strcmp(md5, BITFIELD_EXPECT_MD5) == 0,
             "bitmap after one iteration matches the independent model (ones, md5)",
             "%llu ones, md5 %s", (unsigned long long)ones, md5);
    int tail_ok = 1;
    for (uint64_t i = BITFIELD_TOUCHED_WORDS; i < bf->words; i++)
        tail_ok = tail_ok && bf->bitmap[i] == BITFIELD_FILL;
    bm_check(v, tail_ok, "bitmap beyond bit 262139 keeps its 0x55.. fill", "%s", "changed");
    bitfield_teardown(&s);
}

const struct bm_kernel bm_bitfield = {
    .id = BM_BITFIELD,
    .name = "BITFIELD",
    .key = "bitfield",
    .unit = "bits/s",
    .base_p90 = 5829704,    /* BYTEMARK.md section 3 baselines */
    .base_k6 = 27910000,
    .init = bitfield_init,
    .setup = bitfield_setup,
    .iterate = bitfield_iterate,
    .grow = bitfield_grow,
    .teardown = bitfield_teardown,
    .verify = bitfield_verify,
    .describe = bitfield_describe,
};
