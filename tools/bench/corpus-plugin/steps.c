/*
 * tools/bench/corpus-plugin/steps.c - routines whose cost differs by known
 * amounts, for the history's labelled corpus (tools/bench/history-corpus.sh,
 * docs/guide-history.md "How well it detects").  Within a family every
 * routine runs the same code; only the amount of work, read from its data,
 * differs.
 *
 *   addP      P passes of a 2000-add dependent chain per iteration
 *             (steps.asm): P = 400 the base and 401, 402, 404, 408, 420
 *             (+0.25%, +0.5%, +1%, +2%, +5% of the passes)
 *   walkL     a walk of L dependent loads along a random cycle through
 *             256 KiB: L = 8000 the base and 8080, 8160, 8400 (+1%, +2%, +5%)
 *   sortR     R passes of insertion sort over 64 pseudo-random words (the
 *             same words each pass, so each pass is the same work), a small
 *             BYTEmark-like numeric-sort workload: R = 20 and 21 (+5%)
 *
 * Build: tools/baremark-plugin build steps.c steps.asm -o steps.efi
 */
#include <stdint.h>

#include "baremark_plugin.h"

void steps_chain(uint64_t iterations, void *data);

#define WALK_NODES   (256 * 1024 / 8)
#define SORT_WORDS   64

/* ---- the add chain: the passes in data ---------------------------------- */

static int chain_setup(const struct bm_plugin_host *host, void **data, uint64_t passes)
{
    uint64_t *p = host->alloc(sizeof *p);
    if (!p)
        return 1;
    *p = passes;
    *data = p;
    return 0;
}

#define CHAIN(P) \
    static int chain_setup_##P(const struct bm_plugin_host *h, void **d) { return chain_setup(h, d, P); }
CHAIN(400)
CHAIN(401)
CHAIN(402)
CHAIN(404)
CHAIN(408)
CHAIN(420)

/* ---- the memory walk: the loads in data --------------------------------- */

struct walk {
    uint64_t *next;
    uint64_t at, steps;
};

static int walk_setup(const struct bm_plugin_host *host, void **data, uint64_t steps)
{
    struct walk *w = host->alloc(sizeof *w);
    uint64_t *perm = host->alloc(WALK_NODES * sizeof *perm);
    uint64_t s = 0x2545f4914f6cdd1dull;
    if (!w || !perm)
        return 1;
    w->next = host->alloc(WALK_NODES * sizeof *w->next);
    if (!w->next)
        return 1;
    for (uint64_t i = 0; i < WALK_NODES; i++)
        perm[i] = i;
    for (uint64_t i = WALK_NODES - 1; i > 0; i--) {   /* Fisher-Yates with xorshift64 */
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        uint64_t j = s % (i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (uint64_t i = 0; i < WALK_NODES; i++)         /* one cycle through every node */
        w->next[perm[i]] = perm[(i + 1) % WALK_NODES];
    w->at = perm[0];
    w->steps = steps;
    *data = w;
    return 0;
}

static void walk(uint64_t iterations, void *data)
{
    struct walk *w = data;
    uint64_t at = w->at, steps = w->steps;
    for (uint64_t i = 0; i < iterations; i++)
        for (uint64_t k = 0; k < steps; k++)
            at = w->next[at];
    w->at = at;
}

#define WALK(L) \
    static int walk_setup_##L(const struct bm_plugin_host *h, void **d) { return walk_setup(h, d, L); }
WALK(8000)
WALK(8080)
WALK(8160)
WALK(8400)

/* ---- the sort: the passes in data --------------------------------------- */

struct sortbuf {
    uint64_t seed, passes, a[SORT_WORDS];
};

static int sort_setup(const struct bm_plugin_host *host, void **data, uint64_t passes)
{
    struct sortbuf *b = host->alloc(sizeof *b);
    if (!b)
        return 1;
    b->seed = 88172645463325252ull;
    b->passes = passes;
    *data = b;
    return 0;
}

static void sort(uint64_t iterations, void *data)
{
    struct sortbuf *b = data;
    for (uint64_t i = 0; i < iterations; i++)
        for (uint64_t p = 0; p < b->passes; p++) {
            uint64_t s = b->seed;
            for (int k = 0; k < SORT_WORDS; k++) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                b->a[k] = s;
            }
            for (int k = 1; k < SORT_WORDS; k++) {
                uint64_t v = b->a[k];
                int j = k - 1;
                while (j >= 0 && b->a[j] > v) {
                    b->a[j + 1] = b->a[j];
                    j--;
                }
                b->a[j + 1] = v;
            }
        }
}

static int sort_setup_20(const struct bm_plugin_host *h, void **d) { return sort_setup(h, d, 20); }
static int sort_setup_21(const struct bm_plugin_host *h, void **d) { return sort_setup(h, d, 21); }

/* instructions per call (steps.asm): 6 + iterations * (3 + P * 2002) */
#define ADD(P, what) { "add" #P, #P " passes of a 2000-add chain (" what ")", steps_chain, chain_setup_##P, NULL, \
                       6, 3 + (P) * 2002 }
static const struct bm_plugin_routine steps_routines[] = {
    ADD(400, "base"), ADD(401, "+0.25%"), ADD(402, "+0.5%"), ADD(404, "+1%"), ADD(408, "+2%"), ADD(420, "+5%"),
    { "walk8000", "8000 dependent loads along a 256 KiB cycle (base)", walk, walk_setup_8000, NULL, -1, -1 },
    { "walk8080", "8080 dependent loads (+1%)", walk, walk_setup_8080, NULL, -1, -1 },
    { "walk8160", "8160 dependent loads (+2%)", walk, walk_setup_8160, NULL, -1, -1 },
    { "walk8400", "8400 dependent loads (+5%)", walk, walk_setup_8400, NULL, -1, -1 },
    { "sort20", "20 passes of insertion sort over 64 words (base)", sort, sort_setup_20, NULL, -1, -1 },
    { "sort21", "21 passes (+5%)", sort, sort_setup_21, NULL, -1, -1 },
};

BAREMARK_PLUGIN("steps", "routines whose cost differs by known amounts (the history corpus)", steps_routines);
