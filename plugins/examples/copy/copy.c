/*
 * plugins/examples/copy/copy.c - three ways to copy 1 KiB, to set side by
 * side with COMPARE=copy:rep_movsb,copy:sse2 (or `baremark compare
 * --plugin copy.so rep_movsb sse2` under Linux).
 *
 * setup allocates the source and the destination through host->alloc and
 * fills the source from a fixed xorshift64 seed, so every run (bare metal or
 * Linux) copies the same bytes.  One iteration = one copy of COPY_BYTES.
 */
#include <emmintrin.h>
#include <stdint.h>

#include "baremark_plugin.h"

#define COPY_BYTES 1024u          /* a multiple of 64 */
#define COPY_SEED  0x9e3779b97f4a7c15ull

struct copy_buffers {
    uint8_t *src, *dst;
};

static uint64_t copy_xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int copy_setup(const struct bm_plugin_host *host, void **data)
{
    struct copy_buffers *b = host->alloc(sizeof *b);
    if (!b)
        return 1;
    b->src = host->alloc(COPY_BYTES);
    b->dst = host->alloc(COPY_BYTES);
    if (!b->src || !b->dst)
        return 1;
    uint64_t s = COPY_SEED;
    for (unsigned i = 0; i < COPY_BYTES; i += 8) {
        uint64_t v = copy_xorshift(&s);
        for (unsigned k = 0; k < 8; k++)
            b->src[i + k] = (uint8_t)(v >> (8 * k));
    }
    *data = b;
    return 0;
}

/* The string instruction: the CPU's microcode picks the strategy. */
static void copy_rep_movsb(uint64_t iterations, void *data)
{
    struct copy_buffers *b = data;
    for (uint64_t i = 0; i < iterations; i++) {
        void *d = b->dst;
        const void *s = b->src;
        uint64_t n = COPY_BYTES;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
    }
}

/* 16-byte SSE2 loads and stores, four per step (buffers are 64-byte aligned). */
static void copy_sse2(uint64_t iterations, void *data)
{
    struct copy_buffers *b = data;
    for (uint64_t i = 0; i < iterations; i++) {
        const __m128i *s = (const __m128i *)b->src;
        __m128i *d = (__m128i *)b->dst;
        for (unsigned k = 0; k < COPY_BYTES / 16; k += 4) {
            __m128i x0 = _mm_load_si128(s + k), x1 = _mm_load_si128(s + k + 1);
            __m128i x2 = _mm_load_si128(s + k + 2), x3 = _mm_load_si128(s + k + 3);
            _mm_store_si128(d + k, x0);
            _mm_store_si128(d + k + 1, x1);
            _mm_store_si128(d + k + 2, x2);
            _mm_store_si128(d + k + 3, x3);
        }
        __asm__ volatile("" : : : "memory");  /* keep every copy */
    }
}

/* 8 bytes at a time.  The empty asm keeps GCC from turning the loop back
 * into a memcpy call or vectorizing it. */
static void copy_loop8(uint64_t iterations, void *data)
{
    struct copy_buffers *b = data;
    for (uint64_t i = 0; i < iterations; i++) {
        const uint64_t *s = (const uint64_t *)b->src;
        uint64_t *d = (uint64_t *)b->dst;
        for (unsigned k = 0; k < COPY_BYTES / 8; k++) {
            d[k] = s[k];
            __asm__ volatile("" : : : "memory");
        }
    }
}

static const struct bm_plugin_routine copy_routines[] = {
    { "rep_movsb", "copy 1 KiB with rep movsb", copy_rep_movsb, copy_setup, NULL, -1, -1 },
    { "sse2", "copy 1 KiB with 16-byte SSE2 loads and stores", copy_sse2, copy_setup, NULL, -1, -1 },
    { "loop8", "copy 1 KiB 8 bytes at a time", copy_loop8, copy_setup, NULL, -1, -1 },
};

BAREMARK_PLUGIN("copy", "three ways to copy 1 KiB (rep movsb, SSE2, 8-byte loop)", copy_routines);
