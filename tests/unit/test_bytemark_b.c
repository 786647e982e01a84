/*
 * tests/unit/test_bytemark_b.c - the BYTEmark assignment, IDEA and Huffman
 * kernels (bench/bytemark/assign.c, idea.c, huffman.c).
 *
 * Expected values and their sources:
 * - cost[0][0..5], cost[100][100], the cost sum, the IDEA key and first
 *   data bytes, the Huffman text's md5, symbols, newlines and start, the
 *   99/98 phase calls, root 286 and 21354 bits: BYTEMARK.md sections 1 and
 *   7 (instrumented reference build);
 * - the column choices R000..R100: the BYTEmark document (seed 002);
 * - IDEA test vector 1 (key 1..8): Lai's thesis / Applied Cryptography;
 * - every digest, the min/max costs, the zeros after reduction, the
 *   optimum 1773239 (scipy's linear_sum_assignment), the subkeys, IDEA
 *   vector 2, the code lengths: tests/vectors/bytemark/model_b.py, an
 *   independent Python model (its output is model_b.out beside it), not
 *   this C code.
 * Every timed run is kept to one iteration (MINSECONDS=0) except the
 * adjustment check.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "bytemark/bytemark_b.h"
#include "bytemark/bytemark_internal.h"
#include "check.h"
#include "results_doc.h"
#include "section.h"

/* The run's environment the suite is handed: the quick profile (the
 * settings' own profile_run stays unsettled, so only this can make it quick). */
static const struct run_env quick_env = { NULL, BM_PROFILE_QUICK, 0 };

/* ---- helpers ------------------------------------------------------------------ */

static const struct bm_kernel *const mine[3] = { &bm_assign, &bm_idea, &bm_huffman };
static const enum bm_test_id mine_id[3] = { BM_ASSIGN, BM_IDEA, BM_HUFFMAN };

/* Defaults, only our three tests, one iteration a run. */
static void test_config(struct bm_config *c)
{
    memset(c, 0, sizeof *c);
    c->global_min_ticks = 60;
    c->align = 8;
    c->customrun = 1;
    c->profile = BM_PROFILE_QUICK;
    for (int i = 0; i < 3; i++) {
        c->enabled[mine_id[i]] = 1;
        c->min_seconds_set[mine_id[i]] = 1;     /* MINSECONDS=0 */
    }
}

/* A string member, "" when missing (so a failed test prints instead of crashing). */
static const char *jstr(json_t *obj, const char *key)
{
    const char *v = json_string_value(json_object_get(obj, key));
    return v ? v : "";
}

static void fresh_state(struct bm_state *s, const struct bm_config *cfg)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->align = 8;
}

/* ---- assignment ------------------------------------------------------------------ */

/* The BYTEmark document: "R000: 056 R001: 066 ... R100: 100". */
static const int doc_columns[101] = {
    56, 66, 52, 65, 43, 23, 16, 77, 95, 4, 64, 76, 78, 91, 13, 29, 44, 14, 41, 42,
    20, 71, 24, 17, 55, 40, 70, 25, 31, 19, 73, 2, 47, 9, 35, 45, 5, 63, 81, 39,
    87, 8, 53, 93, 49, 92, 61, 46, 26, 34, 88, 0, 28, 18, 72, 21, 37, 82, 6, 58,
    96, 68, 69, 54, 57, 86, 97, 84, 99, 51, 98, 3, 74, 62, 80, 33, 11, 94, 12, 50,
    10, 38, 89, 59, 22, 79, 15, 7, 75, 83, 60, 48, 32, 67, 1, 30, 27, 85, 90, 36,
    100
};

static void test_assign_probe(void)
{
    struct bm_assign_probe pr;
    CHECK_EQ_I64(bm_assign_probe(&pr), 0, "assign: probe generates and solves");
    static const int64_t first[6] = { 515045, 392519, 200022, 924921, 902984, 94185 };
    CHECK(!memcmp(pr.cost0, first, sizeof first) && pr.cost_last == 51900,
          "assign: cost[0][0..5] and cost[100][100] = 51900 (BYTEMARK.md 1)");
    CHECK_EQ_I64(pr.sum, 5078987983ll, "assign: sum of the 10201 costs (BYTEMARK.md 1)");
    CHECK(pr.min == 63 && pr.max == 999511,
          "assign: costs 63..999511, within the generator's range (model_b.py)");
    CHECK_STR(pr.cost_md5, "6e9cd6c0191de9fb80709957f18d9156", "assign: cost digest, model_b.py");
    CHECK_STR(pr.reduced_md5, "1fffd6b653fa307f423db2949e000e71",
              "assign: digest after row and column reduction, model_b.py");
    CHECK_EQ_U64(pr.zeros, 138, "assign: 138 zeros after reduction, model_b.py");
    CHECK(pr.firsts == 99 && pr.seconds == 98,
          "assign: first_assignments 99 times, second_assignments 98 (BYTEMARK.md 7)");
    int bad = -1;
    for (int i = 0; i < 101 && bad < 0; i++)
        if (pr.columns[i] != doc_columns[i])
            bad = i;
    char what[96];
    snprintf(what, sizeof what, "assign: column choices R000..R100 as the document (first bad %d)", bad);
    CHECK(bad < 0, what);
    CHECK_EQ_I64(pr.total_cost, 1773239,
                 "assign: total cost 1773239, scipy's optimum (model_b.py)");
    CHECK_STR(pr.final_md5, "4d84b8dd60c99fab8b7d10daf29494d3",
              "assign: final tableau digest, model_b.py");
    CHECK_STR(pr.status_md5, "4258d5deb035accdff6e8c68232e4630",
              "assign: final status table digest (quirks included), model_b.py");
}

static void test_assign_ops(void)
{
    struct bm_config cfg;
    test_config(&cfg);
    struct bm_state s;
    fresh_state(&s, &cfg);
    cfg.assign_arrays = 5;          /* ineffective in the reference */
    bm_assign.init(&s);
    CHECK(s.workload == 1 && !s.workload_fixed,
          "assign: quirk: ASSIGNARRAYS is ignored, adjustment starts at 1 array");
    char d[96];
    bm_assign.describe(&s, d, sizeof d);
    CHECK_STR(d, "1 array of 101x101", "assign: describe() of 1 array");
    CHECK(bm_assign.grow(&s) == BM_OK && s.workload == 2, "assign: grows by 1 array");
    bm_assign.describe(&s, d, sizeof d);
    CHECK_STR(d, "2 arrays of 101x101", "assign: describe() of 2 arrays");
    double units = 0;
    int rc = bm_assign.setup(&s);
    uint64_t t = rc == BM_OK ? bm_assign.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && t > 0 && units == 2.0, "assign: an iteration of 2 arrays counts 2");
    bm_assign.teardown(&s);
    CHECK(s.priv == NULL, "assign: teardown frees");
    bm_assign.teardown(&s);         /* twice is harmless */
    s.workload = 20000;
    CHECK(bm_assign.grow(&s) == BM_OK && s.workload == 20001, "assign: no cap (as the reference)");
    s.workload = (uint64_t)1 << 50;
    CHECK(bm_assign.setup(&s) == BM_ENOMEM, "assign: an impossible count is BM_ENOMEM");
    bm_assign.teardown(&s);
}

/* ---- IDEA ------------------------------------------------------------------------ */

static void test_idea_vectors(void)
{
    static const uint16_t key1[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const uint16_t p1[4] = { 0, 1, 2, 3 }, c1[4] = { 0x11FB, 0xED2B, 0x0198, 0x6DE5 };
    static const uint16_t key2[8] = { 0, 0xFFFF, 1, 0x8000, 0, 2, 0xFFFE, 3 };
    static const uint16_t p2[4] = { 0xFFFF, 0, 0x1234, 0x8000 };
    static const uint16_t c2[4] = { 0x070D, 0x6A05, 0x2FAE, 0x9994 };
    uint16_t c[4], p[4];
    bm_idea_block(key1, 0, p1, c);
    CHECK(!memcmp(c, c1, sizeof c), "idea: test vector 1 (Lai): 0 1 2 3 -> 11FB ED2B 0198 6DE5");
    bm_idea_block(key1, 1, c1, p);
    CHECK(!memcmp(p, p1, sizeof p), "idea: test vector 1 decrypts");
    bm_idea_block(key2, 0, p2, c);
    CHECK(!memcmp(c, c2, sizeof c),
          "idea: vector 2 with zero and all-ones words -> 070D 6A05 2FAE 9994 (model_b.py)");
    bm_idea_block(key2, 1, c2, p);
    CHECK(!memcmp(p, p2, sizeof p), "idea: vector 2 decrypts");
}

static void test_idea_probe(void)
{
    struct bm_idea_probe pr;
    CHECK_EQ_I64(bm_idea_probe(&pr), 0, "idea: probe generates and runs one loop");
    static const uint16_t key[8] = { 35045, 32519, 20022, 24921, 2984, 34185, 35196, 30494 };
    static const uint8_t plain[8] = { 7, 148, 214, 216, 40, 205, 105, 170 };
    CHECK(!memcmp(pr.userkey, key, sizeof key), "idea: user key (BYTEMARK.md 1)");
    CHECK(!memcmp(pr.plain0, plain, sizeof plain), "idea: plain1 starts 7 148 214 ... (BYTEMARK.md 1)");
    static const uint16_t z8[4] = { 3740, 27842, 45591, 20747 }, z48[4] = { 49619, 36248, 22082, 59937 };
    static const uint16_t dk0[6] = { 27515, 29288, 43454, 26601, 12591, 36579 };
    CHECK(!memcmp(pr.z, key, sizeof key) && !memcmp(pr.z + 8, z8, sizeof z8) &&
          !memcmp(pr.z + 48, z48, sizeof z48), "idea: subkeys Z[0..11], Z[48..51] as model_b.py");
    CHECK(!memcmp(pr.dk, dk0, sizeof dk0), "idea: decryption subkeys DK[0..5] as model_b.py");
    CHECK_STR(pr.z_md5, "625285c50261af3fe80c6e738d366876", "idea: 52 subkeys digest, model_b.py");
    CHECK_STR(pr.dk_md5, "263f16273ad5ce9d8ebc8763deb89073",
              "idea: 52 decryption subkeys digest, model_b.py");
    CHECK_STR(pr.plain_md5, "23866a4b326e05ccb0df9f3cd0499dca", "idea: plaintext digest, model_b.py");
    CHECK_STR(pr.crypt_md5, "e43cf702924e52d728b477c94a360eaa", "idea: ciphertext digest, model_b.py");
    CHECK(pr.round_trip, "idea: decrypt == plaintext");
}

static void test_idea_ops(void)
{
    struct bm_config cfg;
    test_config(&cfg);
    struct bm_state s;
    fresh_state(&s, &cfg);
    cfg.idea_loops = 7;             /* ineffective in the reference */
    bm_idea.init(&s);
    CHECK(s.workload == 100 && !s.workload_fixed,
          "idea: quirk: IDEALOOPS is ignored, adjustment starts at 100 loops");
    char d[96];
    bm_idea.describe(&s, d, sizeof d);
    CHECK_STR(d, "100 loops of 4000 bytes", "idea: describe() of the default");
    CHECK(bm_idea.grow(&s) == BM_OK && s.workload == 110, "idea: grows by 10 loops");
    s.workload = 499990;
    CHECK(bm_idea.grow(&s) == BM_OK && s.workload == 500000, "idea: grows to MAXIDEALOOPS 500000");
    CHECK(bm_idea.grow(&s) == BM_OK && s.workload == 500000,
          "idea: stays at 500000 without an error (the suite then accepts it)");
    s.workload = 3;
    cfg.idea_array_size = 800;
    double units = 0;
    int rc = bm_idea.setup(&s);
    uint64_t t = rc == BM_OK ? bm_idea.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && t > 0 && units == 3.0, "idea: IDEARRAYSIZE=800, 3 loops count 3");
    bm_idea.describe(&s, d, sizeof d);
    CHECK_STR(d, "3 loops of 800 bytes", "idea: describe() of IDEARRAYSIZE=800");
    bm_idea.teardown(&s);
    CHECK(s.priv == NULL, "idea: teardown frees");
    cfg.idea_array_size = (uint64_t)1 << 60;
    CHECK(bm_idea.setup(&s) == BM_ENOMEM, "idea: an impossible IDEARRAYSIZE is BM_ENOMEM");
    bm_idea.teardown(&s);
}

/* ---- Huffman ---------------------------------------------------------------------- */

static void test_huffman_probe(void)
{
    struct bm_huffman_probe pr;
    CHECK_EQ_I64(bm_huffman_probe(&pr), 0, "huffman: probe generates and runs one loop");
    CHECK_STR(pr.text_md5, "bd968a204c6a77d72ae8fb754560243a", "huffman: text md5 (BYTEMARK.md 1)");
    CHECK_STR(pr.start, "yourselves togetherness together if were used Entered rough never either of that",
              "huffman: the text's first 80 characters (BYTEMARK.md 1)");
    CHECK(pr.distinct == 32 && pr.newlines == 17, "huffman: 32 symbols, 17 newlines (BYTEMARK.md 1)");
    CHECK(pr.root == 286, "huffman: root 286, 31 inner nodes (BYTEMARK.md 7)");
    CHECK_EQ_U64(pr.bits, 21354, "huffman: 21354 compressed bits (BYTEMARK.md 7)");
    CHECK(pr.shortest == 3 && pr.longest == 10, "huffman: codes of 3..10 bits, model_b.py");
    CHECK_STR(pr.lengths_md5, "b06eae0ed0c5d6243889155357662b88",
              "huffman: every symbol's code length, model_b.py");
    CHECK_STR(pr.nodes_md5, "e82cc92d1909bf402b2f670585cedd31",
              "huffman: inner nodes' links (float32 tie-breaking), model_b.py");
    CHECK_STR(pr.comp_md5, "d85ce52b44f180d28edd7fe8c30ca0c0", "huffman: bit-stream digest, model_b.py");
    CHECK(pr.decompressed == 5000 && pr.round_trip, "huffman: 5000 bytes decompressed == text");
}

static void test_huffman_ops(void)
{
    struct bm_config cfg;
    test_config(&cfg);
    struct bm_state s;
    fresh_state(&s, &cfg);
    bm_huffman.init(&s);
    CHECK(s.workload == 100 && !s.workload_fixed, "huffman: starts at 100 loops, adjustable");
    char d[96];
    bm_huffman.describe(&s, d, sizeof d);
    CHECK_STR(d, "100 loops of 5000 bytes", "huffman: describe() of the default");
    CHECK(bm_huffman.grow(&s) == BM_OK && s.workload == 110, "huffman: grows by 10 loops");
    s.workload = 499990;
    CHECK(bm_huffman.grow(&s) == BM_OK && s.workload == 500000,
          "huffman: grows to MAXHUFFLOOPS 500000");
    CHECK(bm_huffman.grow(&s) == BM_OK && s.workload == 500000,
          "huffman: stays at 500000 without an error");
    cfg.huff_loops = 2;
    cfg.huff_array_size = 1000;
    bm_huffman.init(&s);
    CHECK(s.workload == 2 && s.workload_fixed, "huffman: HUFFLOOPS=2 fixes 2 loops");
    double units = 0;
    int rc = bm_huffman.setup(&s);
    uint64_t t = rc == BM_OK ? bm_huffman.iterate(&s, &units) : 0;
    CHECK(rc == BM_OK && t > 0 && units == 2.0, "huffman: HUFARRAYSIZE=1000, 2 loops count 2");
    bm_huffman.describe(&s, d, sizeof d);
    CHECK_STR(d, "2 loops of 1000 bytes", "huffman: describe() of HUFARRAYSIZE=1000");
    bm_huffman.teardown(&s);
    CHECK(s.priv == NULL, "huffman: teardown frees");
    cfg.huff_array_size = (uint64_t)1 << 60;
    CHECK(bm_huffman.setup(&s) == BM_ENOMEM, "huffman: an impossible HUFARRAYSIZE is BM_ENOMEM");
    bm_huffman.teardown(&s);
}

/* ---- the three in the suite ------------------------------------------------------- */

static void test_verify_each(void)
{
    static const int min_checks[3] = { 8, 9, 8 };
    static const char *const keys[3] = { "assign", "idea", "huffman" };
    static const char *const names[3] = { "ASSIGNMENT", "IDEA", "HUFFMAN" };
    static const double p90[3] = { 0.2628, 65.382, 36.062 }, k6[3] = { 1.0132, 220.21, 112.93 };
    for (int i = 0; i < 3; i++) {
        struct bm_verify v = { 0, 0, mine[i]->key };
        mine[i]->verify(&v);
        char what[128];
        snprintf(what, sizeof what, "%s: verify() passes all its %d+ checks", keys[i], min_checks[i]);
        CHECK(v.failed == 0 && v.passed >= min_checks[i], what);
        snprintf(what, sizeof what, "%s: id, name, key and baselines (BYTEMARK.md 3)", keys[i]);
        CHECK(mine[i]->id == mine_id[i] && !strcmp(mine[i]->name, names[i]) &&
              !strcmp(mine[i]->key, keys[i]) && mine[i]->base_p90 == p90[i] &&
              mine[i]->base_k6 == k6[i], what);
        snprintf(what, sizeof what, "%s: built into the suite's table", keys[i]);
        CHECK(bm_kernels[mine_id[i]] == mine[i], what);
    }
}

static void test_suite(void)
{
    struct bm_config cfg;
    test_config(&cfg);
    cfg.allstats = 1;
    int rc = bytemark_run(&cfg, &quick_env);
    CHECK_EQ_I64(rc, 0, "suite: the three at MINSECONDS=0 complete with status 0");
    json_t *root = doc_take();
    json_t *tests = json_object_get(json_object_get(root, "bytemark"), "tests");
    static const char *const units[3] = { "arrays/s", "loops/s", "loops/s" };
    /* Wide bounds that catch a unit mistake on any machine: BYTEMARK.md 10
     * measured 54..67, 14822..15839 and 8179..11205 on this project's VM. */
    static const double lo[3] = { 0.5, 50, 30 }, hi[3] = { 1e5, 1e7, 1e7 };
    for (int i = 0; i < 3; i++) {
        json_t *t = json_array_get(tests, mine_id[i]);
        double mean = json_number_value(json_object_get(t, "mean"));
        char what[128];
        snprintf(what, sizeof what, "suite: %s ran, unit %s, score %g in %g..%g", mine[i]->key,
                 units[i], mean, lo[i], hi[i]);
        CHECK(!strcmp(jstr(t, "status"), "ok") &&
              !strcmp(jstr(t, "unit"), units[i]) &&
              mean > lo[i] && mean < hi[i], what);
    }
    json_decref(root);

    /* Adjustment grows the work per timed iteration, never the data: one
     * assignment takes about 13 ms here, 100 IDEA loops 6 ms, 100 Huffman
     * loops 11 ms, and GLOBALMINTICKS=60000 us needs more.  Whether it does
     * on the machine at hand is read from the run's own score (units per
     * second): growth is required where the starting workload took under
     * a quarter of the threshold; a host so loaded that one starting
     * workload takes about as long as the threshold needs none (seen on a
     * CI machine running eight builds), and then only the size's form is
     * checked.  (A quarter, not a half: the score is measured after the
     * adjustment, and a load that comes and goes between the two moved a
     * workload across a half once.) */
    test_config(&cfg);
    cfg.global_min_ticks = 60000;
    rc = bytemark_run(&cfg, &quick_env);
    root = doc_take();
    tests = json_object_get(json_object_get(root, "bytemark"), "tests");
    static const char *const fmt[3] = { "%lld arrays of 101x101", "%lld loops of 4000 bytes",
                                        "%lld loops of 5000 bytes" };
    static const long long start[3] = { 1, 100, 100 }, step[3] = { 1, 10, 10 };
    for (int i = 0; i < 3; i++) {
        json_t *t = json_array_get(tests, mine_id[i]);
        long long w = json_integer_value(json_object_get(t, "workload"));
        double mean = json_number_value(json_object_get(t, "mean"));
        double start_us = mean > 0 ? start[i] / mean * 1e6 : INFINITY;
        int must_grow = start_us < 60000 / 4;
        char want[64], what[256];
        snprintf(want, sizeof want, fmt[i], w);
        snprintf(what, sizeof what, "suite: GLOBALMINTICKS=60000 %s %s from %lld to %lld in steps of %lld "
                 "(the starting workload took %.0f us), reported as \"%s\"", must_grow ? "grew" : "may grow",
                 mine[i]->key, start[i], w, step[i], start_us, want);
        CHECK(rc == 0 && (must_grow ? w > start[i] : w >= start[i]) && (w - start[i]) % step[i] == 0 &&
              !strcmp(jstr(t, "size"), want), what);
    }
    json_decref(root);
}

int main(void)
{
    test_assign_probe();
    test_assign_ops();
    test_idea_vectors();
    test_idea_probe();
    test_idea_ops();
    test_huffman_probe();
    test_huffman_ops();
    test_verify_each();
    test_suite();
    return check_done();
}
