/*
 * bench/bytemark/strsort.c - BYTEmark's string sort (BYTEMARK.md 4.2): a
 * heapsort of packed Pascal strings that moves the strings physically, so the
 * work is dominated by memmove of the array's tail.  Unit: string arrays
 * sorted per second.  Adjustment grows the number of arrays (no cap).
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define STRSORT_ARRAY_SIZE 8111   /* STRINGARRAYSIZE: bytes per array */
#define STRSORT_PAD        100    /* arrays are laid out size+100 apart: room
                                     for a string to grow mid-exchange */
#define STRSORT_LEN_DRAW   76     /* length = 1 + abs_randwc(76): 1..76 */
#define STRSORT_BYTE_DRAW  254    /* content = abs_randwc(254): 0..253 */
#define STRSORT_TEMP       256    /* a length byte indexes at most 255 bytes */

struct strsort {
    uint8_t *arrays;        /* numarrays arrays, stride size + 100 */
    uint64_t *offsets;      /* nstrings offsets per array */
    uint64_t size, numarrays, nstrings;
    struct bm_rand rand;
};

/* Counters of the instrumented (verification) sort. */
struct strsort_counts { uint64_t compares, moves, bytes; };

/* The reference's str_is_less.  Quirk kept: strncmp starts AT the length
 * byte, so lengths are compared first and only n-1 content bytes follow (and
 * strncmp stops at a 0 byte); equal prefixes order the longer string first.
 * Effective order: by length byte, then content. */
static inline int strsort_less(const uint64_t *off, const uint8_t *s, uint64_t a, uint64_t b,
                               struct strsort_counts *c)
{
    const uint8_t *pa = s + off[a], *pb = s + off[b];
    size_t n = *pa < *pb ? *pa : *pb;
    if (c)
        c->compares++;
    int r = strncmp((const char *)pa, (const char *)pb, n);
    if (r == 0)
        return *pa > *pb;
    return r < 0;
}

/* The reference's stradjust: give slot `index` the length `newlen` by moving
 * every later string (memmove of the whole tail by the length difference)
 * and fixing their offsets.  Resizing the last string only rewrites its
 * length byte.  Quirk kept: there is no early return for an unchanged
 * length, so equal-length exchanges still memmove the tail by 0 bytes (the
 * reference's unused `adjamount` variable is the trace of this). */
static inline void strsort_adjust(uint64_t *off, uint8_t *s, uint64_t n, uint64_t index,
                                  uint8_t newlen, struct strsort_counts *c)
{
    if (index == n - 1) {
        s[off[index]] = newlen;
        return;
    }
    int64_t direction = (int64_t)newlen - (int64_t)s[off[index]];
    uint64_t from = off[index + 1];
    uint64_t nbytes = off[n - 1] + s[off[n - 1]] + 1 - from;
    memmove(s + from + direction, s + from, nbytes);
    for (uint64_t i = index + 1; i < n; i++)
        off[i] += (uint64_t)direction;
    if (c) {
        c->moves++;
        c->bytes += nbytes;
    }
    s[off[index]] = newlen;
}

/* Exchange strings i and k the reference's way: temp = str[k]; str[k] =
 * str[i] (resize k, copy); str[i] = temp (resize i, copy). */
static inline void strsort_swap(uint64_t *off, uint8_t *s, uint64_t n, uint64_t k, uint64_t i,
                                struct strsort_counts *c)
{
    uint8_t temp[STRSORT_TEMP];
    uint8_t len = s[off[k]];
    memmove(temp, s + off[k], (size_t)len + 1);
    len = s[off[i]];
    strsort_adjust(off, s, n, k, len, c);
    memmove(s + off[k], s + off[i], (size_t)len + 1);
    len = temp[0];
    strsort_adjust(off, s, n, i, len, c);
    memmove(s + off[i], temp, (size_t)len + 1);
}

/* The reference's strsift: the numeric sort's heap shape over string slots. */
static inline void strsort_sift(uint64_t *off, uint8_t *s, uint64_t n, uint64_t i, uint64_t j,
                                struct strsort_counts *c)
{
    while (i + i <= j) {
        uint64_t k = i + i;
        if (k < j && strsort_less(off, s, k, k + 1, c))
            k++;
        if (strsort_less(off, s, i, k, c)) {
            strsort_swap(off, s, n, k, i, c);
            i = k;
        } else {
            i = j + 1;
        }
    }
}

/* The reference's StrHeapSort(offsets, strings, n, 0, n-1): build from n/2
 * down to 1 (node 0 left to the first extraction, as in the numeric sort),
 * then extract with str[0] <-> str[i]. */
static inline void strsort_heapsort(uint64_t *off, uint8_t *s, uint64_t n, struct strsort_counts *c)
{
    if (n < 2)
        return;
    uint64_t top = n - 1;
    for (uint64_t i = top / 2; i > 0; --i)
        strsort_sift(off, s, n, i, top, c);
    for (uint64_t i = top; i > 0; --i) {
        strsort_sift(off, s, n, 0, i, c);
        strsort_swap(off, s, n, 0, i, c);
    }
}

/* LoadStringArray: reseed, fill array 0 with packed strings, copy it into
 * the other arrays.  Returns the number of strings. */
static uint64_t strsort_load(struct strsort *st)
{
    uint8_t *a = st->arrays;
    uint64_t cur = 0, n = 0;
    int full = 0;
    bm_rand_reset(&st->rand);
    do {
        uint8_t len = (uint8_t)((bm_abs_randwc(&st->rand, STRSORT_LEN_DRAW) + 1) & 0xFF);
        /* The last string is cut so the array is filled exactly. */
        if ((uint64_t)len + cur + 1 >= st->size) {
            len = (uint8_t)((st->size - cur - 1) & 0xFF);
            full = 1;
        }
        a[cur++] = len;
        for (unsigned i = 0; i < len; i++)
            a[cur++] = (uint8_t)bm_abs_randwc(&st->rand, STRSORT_BYTE_DRAW);
        n++;
    } while (!full);
    for (uint64_t k = 1; k < st->numarrays; k++)
        memcpy(a + k * (st->size + STRSORT_PAD), a, st->size);
    return n;
}

/* The offsets of each string, for every array (untimed). */
static void strsort_offsets(struct strsort *st)
{
    uint64_t cur = 0;
    for (uint64_t j = 0; j < st->nstrings; j++) {
        st->offsets[j] = cur;
        cur += (uint64_t)st->arrays[cur] + 1;
    }
    for (uint64_t k = 1; k < st->numarrays; k++)
        memcpy(st->offsets + k * st->nstrings, st->offsets, st->nstrings * sizeof(uint64_t));
}

static void strsort_init(struct bm_state *s)
{
    /* NUMSTRARRAYS fixes the count and disables adjustment. */
    s->workload = s->cfg && s->cfg->str_arrays ? s->cfg->str_arrays : 1;
    s->workload_fixed = s->cfg && s->cfg->str_arrays != 0;
}

static void strsort_teardown(struct bm_state *s)
{
    struct strsort *st = s->priv;
    if (!st)
        return;
    bm_free(st->arrays);
    bm_free(st->offsets);
    plat_free(st);
    s->priv = NULL;
}

static int strsort_setup(struct bm_state *s)
{
    strsort_teardown(s);
    struct strsort *st = plat_alloc(sizeof *st);
    if (!st)
        return BM_ENOMEM;
    memset(st, 0, sizeof *st);
    s->priv = st;
    st->size = s->cfg && s->cfg->str_array_size ? s->cfg->str_array_size : STRSORT_ARRAY_SIZE;
    if (st->size < 2)
        st->size = 2;
    st->numarrays = s->workload;
    uint64_t stride = st->size + STRSORT_PAD;
    if (st->numarrays && stride > (uint64_t)-1 / st->numarrays)
        return BM_ENOMEM;
    st->arrays = bm_alloc(stride * st->numarrays, s->align);
    if (!st->arrays)
        return BM_ENOMEM;
    st->nstrings = strsort_load(st);
    /* The reference allocates the offset array inside every iteration
     * (untimed); its size never changes, so it is allocated once here. */
    st->offsets = bm_alloc(st->nstrings * st->numarrays * sizeof(uint64_t), s->align);
    return st->offsets ? BM_OK : BM_ENOMEM;
}

static uint64_t strsort_iterate(struct bm_state *s, double *units)
{
    struct strsort *st = s->priv;
    struct bm_timer t;
    strsort_load(st);                       /* untimed reload, as the reference */
    strsort_offsets(st);
    uint64_t n = st->nstrings, stride = st->size + STRSORT_PAD;
    bm_timer_start(&t);
    for (uint64_t k = 0; k < st->numarrays; k++)
        strsort_heapsort(st->offsets + k * n, st->arrays + k * stride, n, NULL);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)st->numarrays;
    return ticks;
}

static int strsort_grow(struct bm_state *s)
{
    s->workload++;                          /* no cap in the reference */
    return BM_OK;
}

static void strsort_describe(const struct bm_state *s, char *buf, size_t n)
{
    uint64_t size = s->cfg && s->cfg->str_array_size ? s->cfg->str_array_size : STRSORT_ARRAY_SIZE;
    snprintf(buf, n, "%llu arrays of %llu bytes", (unsigned long long)s->workload,
             (unsigned long long)size);
}

/* ---- checks ----------------------------------------------------------------- */

/* Order-independent digest of the strings of one array: a sum of FNV-1a
 * hashes, to show the sort only permuted them. */
static uint64_t strsort_bag(const uint8_t *a, const uint64_t *off, uint64_t n)
{
    uint64_t sum = 0;
    for (uint64_t j = 0; j < n; j++) {
        uint64_t h = 1469598103934665603ull;
        for (unsigned i = 0; i <= a[off[j]]; i++)
            h = (h ^ a[off[j] + i]) * 1099511628211ull;
        sum += h;
    }
    return sum;
}

static void strsort_verify_data(struct bm_verify *v, struct strsort *st)
{
    static const uint8_t first_lens[10] = { 70, 20, 48, 64, 44, 18, 28, 12, 17, 5 };
    int lens_ok = 1;
    for (int j = 0; j < 10; j++)
        lens_ok = lens_ok && st->arrays[st->offsets[j]] == first_lens[j];
    uint64_t last = st->offsets[st->nstrings - 1];
    char md5[33];
    bm_md5_hex(st->arrays, st->size, md5);
    bm_check(v, st->nstrings == 215, "array: 215 strings (BYTEMARK.md)", "%llu strings",
             (unsigned long long)st->nstrings);
    bm_check(v, lens_ok, "array: lengths start 70 20 48 64 44 18 28 12 17 5",
             "first length %u", st->arrays[0]);
    bm_check(v, st->arrays[last] == 46 && last + 47 == st->size,
             "array: last (cut) string has length 46 and ends the array",
             "length %u at offset %llu", st->arrays[last], (unsigned long long)last);
    bm_check(v, strcmp(md5, "be8b89c35fe2b7adf1316554408ced51") == 0,
             "array: md5 of the 8111 bytes be8b89c35fe2b7adf1316554408ced51", "md5 %s", md5);
}

static int strsort_is_sorted(const uint64_t *off, const uint8_t *s, uint64_t n)
{
    for (uint64_t j = 1; j < n; j++)
        if (strsort_less(off, s, j, j - 1, NULL))
            return 0;
    return 1;
}

static void strsort_verify(struct bm_verify *v)
{
    struct bm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.str_arrays = 2;
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    strsort_init(&s);
    if (strsort_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate two arrays", "out of memory");
        strsort_teardown(&s);
        return;
    }
    struct strsort *st = s.priv;
    uint64_t n = st->nstrings, stride = st->size + STRSORT_PAD;
    strsort_load(st);
    strsort_offsets(st);
    strsort_verify_data(v, st);
    uint64_t bag = strsort_bag(st->arrays, st->offsets, n);

    /* Instrumented sort of array 1: the reference's operation counts. */
    struct strsort_counts c = { 0, 0, 0 };
    strsort_heapsort(st->offsets + n, st->arrays + stride, n, &c);
    bm_check(v, c.compares == 3117 && c.moves == 3398 && c.bytes == 24136964,
             "heapsort: 3117 compares, 3398 memmoves of 24136964 bytes (BYTEMARK.md section 7)",
             "%llu compares, %llu memmoves, %llu bytes", (unsigned long long)c.compares,
             (unsigned long long)c.moves, (unsigned long long)c.bytes);

    uint8_t *instrumented = bm_alloc(st->size, 8);
    if (instrumented)
        memcpy(instrumented, st->arrays + stride, st->size);
    double units = 0;
    strsort_iterate(&s, &units);
    int ok = units == 2.0;
    for (uint64_t k = 0; k < 2; k++)
        ok = ok && strsort_is_sorted(st->offsets + k * n, st->arrays + k * stride, n);
    bm_check(v, ok, "timed sort: both arrays in order (length byte, then content)",
             "units %g", units);
    bm_check(v, strsort_bag(st->arrays, st->offsets, n) == bag &&
                 st->offsets[n - 1] + st->arrays[st->offsets[n - 1]] + 1 == st->size,
             "timed sort: the same 215 strings, still filling 8111 bytes", "%s", "bag differs");
    bm_check(v, instrumented && memcmp(instrumented, st->arrays, st->size) == 0,
             "timed sort: same bytes as the instrumented sort", "%s", "arrays differ");
    bm_check(v, st->arrays[0] == 1 && st->arrays[st->offsets[n - 1]] == 76,
             "timed sort: shortest string first (length 1), longest last (76)",
             "first %u last %u", st->arrays[0], st->arrays[st->offsets[n - 1]]);
    bm_free(instrumented);
    strsort_teardown(&s);
}

const struct bm_kernel bm_strsort = {
    .id = BM_STRSORT,
    .name = "STRING SORT",
    .key = "strsort",
    .unit = "arrays/s",
    .base_p90 = 2.238,      /* BYTEMARK.md section 3 baselines */
    .base_k6 = 14.459,
    .init = strsort_init,
    .setup = strsort_setup,
    .iterate = strsort_iterate,
    .grow = strsort_grow,
    .teardown = strsort_teardown,
    .verify = strsort_verify,
    .describe = strsort_describe,
};
