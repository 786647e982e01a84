/*
 * bench/bytemark/numsort.c - BYTEmark's numeric sort (BYTEMARK.md 4.1):
 * heapsort of arrays of 8111 64-bit signed integers (C `long` on LP64).
 * Unit: arrays sorted per second.  Adjustment grows the number of arrays.
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define NUMSORT_ARRAY_SIZE 8111     /* NUMARRAYSIZE (bdoc's 8001 is wrong) */
#define NUMSORT_MAX_ARRAYS 10000    /* NUMNUMARRAYS: the adjustment cap */

struct numsort {
    int64_t *arrays;        /* numarrays arrays of size elements, back to back */
    uint64_t size, numarrays;
    struct bm_rand rand;
};

/* Operation counters of the instrumented (verification) sort. */
struct numsort_counts { uint64_t compares, swaps; };

/* The reference's NumSift: a 1-based-style heap on a 0-based array, children
 * of node i are 2i and 2i+1.  For i = 0 the "children" are 0 and 1, which is
 * what makes the extraction loop's sift(0, i) correct.  Signed compares.
 * `c` is NULL in the timed sort; inlining with a constant NULL removes the
 * counting. */
static inline void numsort_sift(int64_t *a, uint64_t i, uint64_t j, struct numsort_counts *c)
{
    while (i + i <= j) {
        uint64_t k = i + i;
        if (k < j) {
            if (c)
                c->compares++;
            if (a[k] < a[k + 1])
                k++;
        }
        if (c)
            c->compares++;
        if (a[i] < a[k]) {
            int64_t t = a[k];
            a[k] = a[i];
            a[i] = t;
            if (c)
                c->swaps++;
            i = k;
        } else {
            i = j + 1;
        }
    }
}

/* The reference's NumHeapSort(array, 0, n-1).  Quirk kept: the build loop
 * runs i = top/2 down to 1 and never sifts node 0 (the extraction's first
 * sift(0, top) covers it). */
static inline void numsort_heapsort(int64_t *a, uint64_t n, struct numsort_counts *c)
{
    if (n < 2)
        return;
    uint64_t top = n - 1;
    for (uint64_t i = top / 2; i > 0; --i)
        numsort_sift(a, i, top, c);
    for (uint64_t i = top; i > 0; --i) {
        numsort_sift(a, 0, i, c);
        int64_t t = a[0];
        a[0] = a[i];
        a[i] = t;
    }
}

/* LoadNumArrayWithRand: reseed, fill array 0 with randnum(0), copy it to the
 * other arrays. */
static void numsort_load(struct numsort *ns)
{
    int64_t *a = ns->arrays;
    bm_rand_reset(&ns->rand);
    for (uint64_t i = 0; i < ns->size; i++)
        a[i] = bm_randnum(&ns->rand);
    for (uint64_t k = 1; k < ns->numarrays; k++)
        memcpy(a + k * ns->size, a, ns->size * sizeof *a);
}

static void numsort_init(struct bm_state *s)
{
    /* NUMNUMARRAYS fixes the count and disables adjustment; otherwise the
     * reference starts from one array. */
    s->workload = s->cfg && s->cfg->num_arrays ? s->cfg->num_arrays : 1;
    s->workload_fixed = s->cfg && s->cfg->num_arrays != 0;
}

static void numsort_teardown(struct bm_state *s)
{
    struct numsort *ns = s->priv;
    if (!ns)
        return;
    bm_free(ns->arrays);
    plat_free(ns);
    s->priv = NULL;
}

static int numsort_setup(struct bm_state *s)
{
    numsort_teardown(s);
    struct numsort *ns = plat_alloc(sizeof *ns);
    if (!ns)
        return BM_ENOMEM;
    memset(ns, 0, sizeof *ns);
    s->priv = ns;
    ns->size = s->cfg && s->cfg->num_array_size ? s->cfg->num_array_size : NUMSORT_ARRAY_SIZE;
    ns->numarrays = s->workload;
    if (ns->numarrays && ns->size > (uint64_t)-1 / sizeof(int64_t) / ns->numarrays)
        return BM_ENOMEM;
    ns->arrays = bm_alloc(ns->size * ns->numarrays * sizeof(int64_t), s->align);
    return ns->arrays ? BM_OK : BM_ENOMEM;
}

static uint64_t numsort_iterate(struct bm_state *s, double *units)
{
    struct numsort *ns = s->priv;
    struct bm_timer t;
    numsort_load(ns);                         /* untimed, as in the reference */
    int64_t *a = ns->arrays;
    uint64_t size = ns->size, n = ns->numarrays;
    bm_timer_start(&t);
    for (uint64_t k = 0; k < n; k++)
        numsort_heapsort(a + k * size, size, NULL);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)n;
    return ticks;
}

static int numsort_grow(struct bm_state *s)
{
    /* Reference: `if (numarrays++ > NUMNUMARRAYS) error`, so up to 10001
     * arrays are tried before the cap is an error. */
    if (s->workload > NUMSORT_MAX_ARRAYS)
        return BM_ECAP;
    s->workload++;
    return BM_OK;
}

static void numsort_describe(const struct bm_state *s, char *buf, size_t n)
{
    uint64_t size = s->cfg && s->cfg->num_array_size ? s->cfg->num_array_size : NUMSORT_ARRAY_SIZE;
    snprintf(buf, n, "%llu x %llu arrays", (unsigned long long)size,
             (unsigned long long)s->workload);
}

/* ---- checks ----------------------------------------------------------------- */

/* BYTEMARK.md section 1: outputs after a reset call. */
static const int32_t numsort_rand_first[15] = {
    -515045, 392519, -200022, -924921, 902984, -94185, -995196,
    390494, 510007, 405088, -207274, -79266, -230305, -947785, 149280
};

static void numsort_verify_rand(struct bm_verify *v)
{
    struct bm_rand r;
    r.s0 = 13;
    r.s1 = 117;
    int32_t discarded = bm_randnum(&r);   /* what the reset call returns */
    bm_check(v, discarded == 298961, "generator: the reset call's own value is 298961",
             "got %ld", (long)discarded);
    bm_rand_reset(&r);
    int bad = -1;
    for (int i = 0; i < 15 && bad < 0; i++)
        if (bm_randnum(&r) != numsort_rand_first[i])
            bad = i;
    bm_check(v, bad < 0, "generator: first 15 outputs after a reset (BYTEMARK.md section 1)",
             "output %d differs", bad);
    bm_rand_reset(&r);
    int32_t w = bm_randwc(&r, 76), aw = bm_abs_randwc(&r, 76);
    /* -515045 % 76 = -69 (C truncation); 392519 % 76 = 55. */
    bm_check(v, w == -69 && aw == 55, "generator: randwc keeps the sign, abs_randwc drops it",
             "got %ld and %ld, want -69 and 55", (long)w, (long)aw);
}

static void numsort_verify_data(struct bm_verify *v, const int64_t *a, uint64_t n)
{
    static const int64_t first[8] = { -515045, 392519, -200022, -924921, 902984, -94185,
                                      -995196, 390494 };
    int64_t sum = 0, mn = a[0], mx = a[0];
    uint64_t neg = 0;
    for (uint64_t i = 0; i < n; i++) {
        sum += a[i];
        mn = a[i] < mn ? a[i] : mn;
        mx = a[i] > mx ? a[i] : mx;
        neg += a[i] < 0;
    }
    bm_check(v, memcmp(a, first, sizeof first) == 0, "array: first 8 values (BYTEMARK.md)",
             "starts %lld %lld", (long long)a[0], (long long)a[1]);
    bm_check(v, sum == -34984764 && mn == -999413 && mx == 999511 && neg == 4078,
             "array: sum -34984764, min -999413, max 999511, 4078 negatives",
             "sum %lld min %lld max %lld negatives %llu", (long long)sum, (long long)mn,
             (long long)mx, (unsigned long long)neg);
}

static int numsort_is_sorted(const int64_t *a, uint64_t n)
{
    for (uint64_t i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

static void numsort_verify(struct bm_verify *v)
{
    numsort_verify_rand(v);

    /* The real kernel path with two arrays: load, timed sort of both. */
    struct bm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.num_arrays = 2;
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    numsort_init(&s);
    if (numsort_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate two arrays", "out of memory");
        numsort_teardown(&s);
        return;
    }
    struct numsort *ns = s.priv;
    bm_check(v, ((uintptr_t)ns->arrays & 15) == 8, "arrays start at 8 mod 16 (ALIGN=8)",
             "address %p", (void *)ns->arrays);
    numsort_load(ns);
    numsort_verify_data(v, ns->arrays, ns->size);

    /* Instrumented sort of a fresh copy: the reference's operation counts. */
    int64_t *copy = bm_alloc(ns->size * sizeof(int64_t), 8);
    struct numsort_counts c = { 0, 0 };
    if (copy) {
        memcpy(copy, ns->arrays, ns->size * sizeof(int64_t));
        numsort_heapsort(copy, ns->size, &c);
    }
    bm_check(v, copy && c.compares == 201830 && c.swaps == 98113,
             "heapsort: 201830 compares and 98113 swaps per array (BYTEMARK.md section 7)",
             "%llu compares, %llu swaps", (unsigned long long)c.compares,
             (unsigned long long)c.swaps);

    double units = 0;
    numsort_iterate(&s, &units);
    int ok = units == 2.0;
    for (uint64_t k = 0; k < 2; k++)
        ok = ok && numsort_is_sorted(ns->arrays + k * ns->size, ns->size);
    bm_check(v, ok, "timed sort: both arrays ascending", "units %g", units);
    bm_check(v, copy && memcmp(copy, ns->arrays, ns->size * sizeof(int64_t)) == 0 &&
                 ns->arrays[0] == -999413 && ns->arrays[ns->size - 1] == 999511,
             "timed sort: same result as the instrumented sort, min first, max last",
             "first %lld last %lld", (long long)ns->arrays[0],
             (long long)ns->arrays[ns->size - 1]);
    bm_free(copy);
    numsort_teardown(&s);
}

const struct bm_kernel bm_numsort = {
    .id = BM_NUMSORT,
    .name = "NUMERIC SORT",
    .key = "numsort",
    .unit = "arrays/s",
    .base_p90 = 38.993,     /* BYTEMARK.md section 3 baselines */
    .base_k6 = 118.73,
    .init = numsort_init,
    .setup = numsort_setup,
    .iterate = numsort_iterate,
    .grow = numsort_grow,
    .teardown = numsort_teardown,
    .verify = numsort_verify,
    .describe = numsort_describe,
};
