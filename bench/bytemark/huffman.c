/*
 * bench/bytemark/huffman.c - BYTEmark's Huffman compression (BYTEMARK.md
 * 4.8): build a Huffman tree from the byte frequencies of a 5000-byte text,
 * compress the text bit by bit and decompress it again.  Unit: loops per
 * second, one loop = tree + compression + decompression.  Adjustment grows
 * the loops per timed iteration (100, +10, up to MAXHUFFLOOPS without an
 * error).
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_b.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define HUFF_ARRAY_SIZE  5000       /* HUFFARRAYSIZE: text bytes, final NUL included */
#define HUFF_LINE_MAX    500        /* create_text_block's maximum line length */
#define HUFF_LINE_MIN    6          /* line length = abs_randwc(500 - 6) + 6 */
#define HUFF_WORDS       50         /* WORDCATSIZE */
#define HUFF_NODES       512        /* 256 leaves and room for the inner nodes */
#define HUFF_EXCLUDED    32000      /* parent of a node not in the tree */
#define HUFF_NEW         (-2)       /* parent of a node made but not yet merged */
#define HUFF_LOOPS_START 100
#define HUFF_LOOPS_STEP  10
#define HUFF_MAX_LOOPS   500000     /* MAXHUFFLOOPS (bdoc says 50000) */
/* The reference collects a code in char bitstring[30]: codes here are at
 * most 10 bits, but any tree of 256 leaves fits in 256. */
#define HUFF_CODE_MAX    256

/* The reference's huff_node; its float frequencies decide ties. */
struct huff_node {
    uint8_t c;              /* the byte of a leaf */
    float freq;             /* count/size for a leaf, the sum for an inner node */
    int32_t parent, left, right;
};

struct huffman {
    uint8_t *text, *comp, *decomp;
    struct huff_node *tree;
    uint64_t size;
    struct bm_rand rand;
};

/* What the instrumented (verification) loop reports. */
struct huff_counts { int root; uint64_t bits, decompressed; };

/* The word catalogue, in index order ("that" is there twice). */
static const char *const huff_words[HUFF_WORDS] = {
    "Hello", "He", "Him", "the", "this", "that", "though", "rough", "cough", "obviously",
    "But", "but", "bye", "begin", "beginning", "beginnings", "of", "our", "ourselves",
    "yourselves", "to", "together", "togetherness", "from", "either", "I", "A", "return",
    "However", "that", "example", "yet", "quickly", "all", "if", "were", "includes",
    "always", "never", "not", "small", "returns", "set", "basic", "Entered", "with",
    "used", "shown", "you", "know"
};

/* ---- one loop (timed) ------------------------------------------------------------ */

/* SetCompBit: bit b of the stream is bit b%8 of byte b/8, set or cleared
 * explicitly. */
static inline void huff_set_bit(uint8_t *comp, uint64_t b, char bit)
{
    if (bit == '1')
        comp[b >> 3] |= (uint8_t)(1u << (b & 7));
    else
        comp[b >> 3] &= (uint8_t)~(1u << (b & 7));
}

static inline int huff_get_bit(const uint8_t *comp, uint64_t b)
{
    return comp[b >> 3] & (1u << (b & 7));
}

/* The frequency table: counts, then count/size in single precision for the
 * bytes present; the inner nodes cleared (Mayer's fix: all 256 of them);
 * absent bytes and unused inner nodes excluded. */
static inline void huff_frequencies(const uint8_t *text, uint64_t n, struct huff_node *tree)
{
    for (int i = 0; i < 256; i++) {
        tree[i].freq = 0.0f;
        tree[i].c = (uint8_t)i;
    }
    /* The reference indexes with a plain (signed) char: the same for this
     * ASCII text. */
    for (uint64_t j = 0; j < n; j++)
        tree[text[j]].freq += 1.0f;
    for (int i = 0; i < 256; i++)
        if (tree[i].freq != 0.0f)
            tree[i].freq /= (float)n;
    memset(tree + 256, 0, sizeof(struct huff_node) * (HUFF_NODES - 256));
    for (int i = 0; i < HUFF_NODES; i++) {
        if (tree[i].freq == 0.0f)
            tree[i].parent = HUFF_EXCLUDED;
        else
            tree[i].parent = tree[i].left = tree[i].right = -1;
    }
}

/* Merge the two lowest-frequency parentless nodes until one is left.  The
 * searches run over 0..root with a strict <, so the lowest index wins a
 * tie; the second search skips the first's node.  Returns the root. */
static inline int huff_build(struct huff_node *tree)
{
    int root = 255;
    for (;;) {
        float low1 = 2.0f, low2 = 2.0f;
        int i1 = -1, i2 = -1;
        for (int i = 0; i <= root; i++)
            if (tree[i].parent < 0 && tree[i].freq < low1) {
                low1 = tree[i].freq;
                i1 = i;
            }
        if (i1 == -1)
            break;
        for (int i = 0; i <= root; i++)
            if (tree[i].parent < 0 && i != i1 && tree[i].freq < low2) {
                low2 = tree[i].freq;
                i2 = i;
            }
        if (i2 == -1)
            break;
        root++;
        tree[i1].parent = root;
        tree[i2].parent = root;
        tree[root].freq = low1 + low2;
        tree[root].left = i1;
        tree[root].right = i2;
        tree[root].parent = HUFF_NEW;
    }
    return root;
}

/* Compression: for each byte, walk from its leaf to the root collecting
 * '0' (left child) or '1' as characters, then write them root first.
 * Returns the number of bits. */
static inline uint64_t huff_compress(const uint8_t *text, uint64_t n, const struct huff_node *tree,
                                     uint8_t *comp)
{
    char code[HUFF_CODE_MAX];
    uint64_t bit = 0;
    for (uint64_t i = 0; i < n; i++) {
        int node = text[i], len = 0;
        while (tree[node].parent != HUFF_NEW) {
            code[len++] = tree[tree[node].parent].left == node ? '0' : '1';
            node = tree[node].parent;
        }
        while (len--)
            huff_set_bit(comp, bit++, code[len]);
    }
    return bit;
}

/* Decompression: from the root, 0 = left, down to a leaf (left == -1), its
 * byte out; until every bit is used (a do-while, as the reference).
 * Returns the bytes written. */
static inline uint64_t huff_decompress(const uint8_t *comp, uint64_t bits,
                                       const struct huff_node *tree, int root, uint8_t *out)
{
    uint64_t bit = 0, pos = 0;
    do {
        int node = root;
        while (tree[node].left != -1) {
            node = huff_get_bit(comp, bit) == 0 ? tree[node].left : tree[node].right;
            bit++;
        }
        out[pos++] = tree[node].c;
    } while (bit < bits);
    return pos;
}

/* DoHuffIteration's work for one loop; `c` is NULL in the timed loops. */
static inline void huff_loop(const uint8_t *text, uint8_t *comp, uint8_t *decomp, uint64_t n,
                             struct huff_node *tree, struct huff_counts *c)
{
    huff_frequencies(text, n, tree);
    int root = huff_build(tree);
    uint64_t bits = huff_compress(text, n, tree, comp);
    uint64_t out = huff_decompress(comp, bits, tree, root, decomp);
    if (c) {
        c->root = root;
        c->bits = bits;
        c->decompressed = out;
    }
}

/* ---- the text ------------------------------------------------------------------- */

/* create_text_line: exactly n bytes of random catalogue words, each
 * followed by a space; the last word is cut to fit. */
static void huff_text_line(struct bm_rand *r, uint8_t *dt, uint64_t n)
{
    uint64_t done = 0;
    do {
        const char *w = huff_words[bm_abs_randwc(r, HUFF_WORDS)];
        char word[40];
        size_t len = strlen(w);
        memcpy(word, w, len);
        word[len++] = ' ';
        if (len + done > n)
            len = (size_t)(n - done);
        memcpy(dt, word, len);
        dt += len;
        done += len;
    } while (done < n);
}

/* create_text_block: lines of 6..499 bytes (the last one cut to fit), each
 * ending in '\n' written over its last byte.  Quirk kept: a line of one
 * byte draws no words and is just the '\n'. */
static void huff_text_block(struct bm_rand *r, uint8_t *tb, uint64_t n)
{
    uint64_t done = 0;
    do {
        uint64_t len = (uint64_t)bm_abs_randwc(r, HUFF_LINE_MAX - HUFF_LINE_MIN) + HUFF_LINE_MIN;
        if (len + done > n)
            len = n - done;
        if (len > 1)
            huff_text_line(r, tb, len);
        tb += len - 1;
        *tb++ = '\n';
        done += len;
    } while (done < n);
}

/* DoHuffman's data: reseed (Mayer's addition), size-1 bytes of text, then a
 * NUL that is compressed with the rest. */
static void huff_load(struct huffman *h)
{
    bm_rand_reset(&h->rand);
    huff_text_block(&h->rand, h->text, h->size - 1);
    h->text[h->size - 1] = 0;
}

/* ---- the kernel ---------------------------------------------------------------- */

static uint64_t huff_size(const struct bm_config *cfg)
{
    uint64_t n = cfg && cfg->huff_array_size ? cfg->huff_array_size : HUFF_ARRAY_SIZE;
    return n < 2 ? 2 : n;
}

static void huff_init(struct bm_state *s)
{
    /* HUFFLOOPS fixes the loops and disables adjustment. */
    s->workload = s->cfg && s->cfg->huff_loops ? s->cfg->huff_loops : HUFF_LOOPS_START;
    s->workload_fixed = s->cfg && s->cfg->huff_loops != 0;
}

static void huff_teardown(struct bm_state *s)
{
    struct huffman *h = s->priv;
    if (!h)
        return;
    bm_free(h->text);
    bm_free(h->comp);
    bm_free(h->decomp);
    bm_free(h->tree);
    bm_priv_free(s);
}

/* DoHuffman's untimed start, once per run: the three buffers, the tree and
 * the text. */
static int huff_setup(struct bm_state *s)
{
    huff_teardown(s);
    struct huffman *h = bm_priv_new(s, sizeof *h);
    if (!h)
        return BM_ENOMEM;
    h->size = huff_size(s->cfg);
    h->text = bm_alloc(h->size, s->align);
    h->comp = bm_alloc(h->size, s->align);
    h->decomp = bm_alloc(h->size, s->align);
    h->tree = bm_alloc(sizeof(struct huff_node) * HUFF_NODES, s->align);
    if (!h->text || !h->comp || !h->decomp || !h->tree)
        return BM_ENOMEM;
    /* The reference leaves the buffers as malloc gives them; every bit the
     * loop uses is written before it is read, so clearing them (untimed)
     * only makes the unused bits of the last byte defined. */
    memset(h->comp, 0, h->size);
    memset(h->decomp, 0, h->size);
    huff_load(h);
    return BM_OK;
}

static uint64_t huff_iterate(struct bm_state *s, double *units)
{
    struct huffman *h = s->priv;
    struct bm_timer t;
    const uint8_t *text = h->text;
    uint8_t *comp = h->comp, *decomp = h->decomp;
    struct huff_node *tree = h->tree;
    uint64_t n = h->size, loops = s->workload;
    bm_timer_start(&t);
    for (uint64_t i = 0; i < loops; i++)
        huff_loop(text, comp, decomp, n, tree, NULL);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)loops;
    return ticks;
}

static int huff_grow(struct bm_state *s)
{
    return bm_grow_loops_capped(s, HUFF_LOOPS_STEP, HUFF_MAX_LOOPS);   /* the reference's quirk: see there */
}

static void huff_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu loops of %llu bytes", (unsigned long long)s->workload,
             (unsigned long long)huff_size(s->cfg));
}

/* ---- checks --------------------------------------------------------------------- */

/* From tests/vectors/bytemark/model_b.py (independent Python model). */
#define HUFF_COMP_MD5  "d85ce52b44f180d28edd7fe8c30ca0c0"   /* the 2670 bytes of bits */
#define HUFF_NODES_MD5 "e82cc92d1909bf402b2f670585cedd31"   /* inner nodes' links */
#define HUFF_START "yourselves togetherness together if were used Entered rough never either of that"

static int huff_code_length(const struct huff_node *tree, int leaf)
{
    int len = 0;
    for (int node = leaf; tree[node].parent != HUFF_NEW; node = tree[node].parent)
        len++;
    return len;
}

/* The inner nodes' left, right and parent as int32 little-endian. */
static void huff_nodes_md5(const struct huff_node *tree, int root, char out[33])
{
    uint8_t le[12 * (HUFF_NODES - 256)];
    size_t n = 0;
    for (int i = 256; i <= root && i < HUFF_NODES; i++) {
        const int32_t v[3] = { tree[i].left, tree[i].right, tree[i].parent };
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < 4; b++)
                le[n++] = (uint8_t)((uint32_t)v[k] >> (8 * b));
    }
    bm_md5_hex(le, n, out);
}

static void huff_verify_text(struct bm_verify *v, const uint8_t *text, uint64_t n)
{
    char md5[33];
    bm_md5_hex(text, n, md5);
    int seen[256] = { 0 }, distinct = 0, newlines = 0;
    for (uint64_t i = 0; i < n; i++) {
        distinct += !seen[text[i]]++;
        newlines += text[i] == '\n';
    }
    bm_check(v, !strcmp(md5, "bd968a204c6a77d72ae8fb754560243a"),
             "text: md5 of the 5000 bytes bd968a204c6a77d72ae8fb754560243a (BYTEMARK.md)",
             "md5 %s", md5);
    bm_check(v, distinct == 32 && newlines == 17 && text[n - 1] == 0,
             "text: 32 distinct bytes, 17 newlines, a final NUL (BYTEMARK.md)",
             "%d distinct, %d newlines, last %u", distinct, newlines, text[n - 1]);
    bm_check(v, memcmp(text, HUFF_START, strlen(HUFF_START)) == 0,
             "text: starts \"yourselves togetherness together if were used ...\" (BYTEMARK.md)",
             "starts \"%.20s\"", (const char *)text);
}

static void huff_verify(struct bm_verify *v)
{
    struct bm_config cfg;
    struct bm_state s;
    bm_state_for_check(&s, &cfg);
    huff_init(&s);
    if (huff_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate the buffers and the tree", "out of memory");
        huff_teardown(&s);
        return;
    }
    struct huffman *h = s.priv;
    bm_check(v, ((uintptr_t)h->text & 15) == 8 && ((uintptr_t)h->comp & 15) == 8 &&
                 ((uintptr_t)h->tree & 15) == 8,
             "buffers start at 8 mod 16 (ALIGN=8)", "text %p", (void *)h->text);
    huff_verify_text(v, h->text, h->size);

    /* One instrumented loop: the tree and the bit count. */
    struct huff_counts c = { 0, 0, 0 };
    huff_loop(h->text, h->comp, h->decomp, h->size, h->tree, &c);
    char nodes[33], comp[33];
    huff_nodes_md5(h->tree, c.root, nodes);
    uint64_t nbytes = (c.bits + 7) / 8;
    bm_md5_hex(h->comp, nbytes, comp);
    bm_check(v, c.root == 286 && !strcmp(nodes, HUFF_NODES_MD5),
             "tree: 31 inner nodes, root 286 (BYTEMARK.md section 7), links as model_b.py's",
             "root %d, md5 %s", c.root, nodes);
    bm_check(v, c.bits == 21354 && !strcmp(comp, HUFF_COMP_MD5),
             "compression: 21354 bits (BYTEMARK.md section 7), digest as model_b.py's",
             "%llu bits, md5 %s", (unsigned long long)c.bits, comp);
    bm_check(v, c.decompressed == h->size && memcmp(h->decomp, h->text, h->size) == 0,
             "decompression: the 5000 bytes back (the document's DEBUG check)",
             "%llu bytes", (unsigned long long)c.decompressed);

    /* The real kernel path, two loops from cleared buffers. */
    memset(h->comp, 0, h->size);
    memset(h->decomp, 0, h->size);
    s.workload = 2;
    double units = 0;
    huff_iterate(&s, &units);
    bm_md5_hex(h->comp, nbytes, comp);
    bm_check(v, units == 2.0 && !strcmp(comp, HUFF_COMP_MD5) &&
                 memcmp(h->decomp, h->text, h->size) == 0,
             "timed loops: the same bits, and the round trip gives the text back",
             "units %g, md5 %s", units, comp);
    huff_teardown(&s);
}

/* ---- for the unit test (bytemark_b.h) --------------------------------------------- */

int bm_huffman_probe(struct bm_huffman_probe *out)
{
    memset(out, 0, sizeof *out);
    struct bm_config cfg;
    struct bm_state s;
    bm_state_for_check(&s, &cfg);
    huff_init(&s);
    if (huff_setup(&s) != BM_OK) {
        huff_teardown(&s);
        return -1;
    }
    struct huffman *h = s.priv;
    bm_md5_hex(h->text, h->size, out->text_md5);
    memcpy(out->start, h->text, sizeof out->start - 1);
    int seen[256] = { 0 };
    for (uint64_t i = 0; i < h->size; i++) {
        out->distinct += !seen[h->text[i]]++;
        out->newlines += h->text[i] == '\n';
    }
    struct huff_counts c = { 0, 0, 0 };
    huff_loop(h->text, h->comp, h->decomp, h->size, h->tree, &c);
    out->root = c.root;
    out->bits = c.bits;
    out->decompressed = c.decompressed;
    out->round_trip = c.decompressed == h->size && memcmp(h->decomp, h->text, h->size) == 0;
    bm_md5_hex(h->comp, (c.bits + 7) / 8, out->comp_md5);
    huff_nodes_md5(h->tree, c.root, out->nodes_md5);
    uint8_t lens[256];
    out->shortest = HUFF_CODE_MAX;
    for (int i = 0; i < 256; i++) {
        lens[i] = seen[i] ? (uint8_t)huff_code_length(h->tree, i) : 0;
        if (seen[i]) {
            out->longest = lens[i] > out->longest ? lens[i] : out->longest;
            out->shortest = lens[i] < out->shortest ? lens[i] : out->shortest;
        }
    }
    bm_md5_hex(lens, sizeof lens, out->lengths_md5);
    huff_teardown(&s);
    return 0;
}

const struct bm_kernel bm_huffman = {
    .id = BM_HUFFMAN,
    .name = "HUFFMAN",
    .key = "huffman",
    .unit = "loops/s",
    .base_p90 = 36.062,     /* BYTEMARK.md section 3 baselines */
    .base_k6 = 112.93,
    .init = huff_init,
    .setup = huff_setup,
    .iterate = huff_iterate,
    .grow = huff_grow,
    .teardown = huff_teardown,
    .verify = huff_verify,
    .describe = huff_describe,
};
