/*
 * bench/bytemark/idea.c - BYTEmark's IDEA encryption (BYTEMARK.md 4.7):
 * encrypt a 4000-byte buffer with the International Data Encryption
 * Algorithm (8 rounds, 52 16-bit subkeys; Schneier's Applied Cryptography)
 * and decrypt it again.  Unit: loops per second, one loop = encrypt and
 * decrypt the whole buffer.  Adjustment grows the loops per timed
 * iteration (100, +10, up to MAXIDEALOOPS without an error).
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_b.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define IDEA_ARRAY_SIZE 4000        /* IDEAARRAYSIZE: bytes, a multiple of 8 */
#define IDEA_ROUNDS     8
#define IDEA_KEYLEN     (6 * IDEA_ROUNDS + 4)   /* 52 subkeys */
#define IDEA_BLOCK      8           /* IDEABLOCKSIZE: four 16-bit words */
#define IDEA_KEY_DRAW   60000       /* user key words = abs_randwc(60000) */
#define IDEA_BYTE_DRAW  255         /* data bytes = abs_randwc(255): 0..254 */
#define IDEA_LOOPS_START 100
#define IDEA_LOOPS_STEP  10
#define IDEA_MAX_LOOPS   500000     /* MAXIDEALOOPS */
#define IDEA_MOD        0x10001     /* 2^16 + 1, prime */

struct idea {
    uint8_t *plain1, *crypt1, *plain2;  /* plain1 -> crypt1 -> plain2 */
    uint64_t size;                      /* bytes per buffer */
    uint16_t z[IDEA_KEYLEN], dk[IDEA_KEYLEN];
    uint16_t userkey[8];
    struct bm_rand rand;
};

/* ---- the cipher ---------------------------------------------------------------- */

/* Multiplication modulo 2^16 + 1 with 0 standing for 2^16: the low half
 * minus the high half of the product, plus 1 on a borrow. */
static inline uint16_t idea_mul(uint16_t a, uint16_t b)
{
    if (a) {
        if (b) {
            uint32_t p = (uint32_t)a * b;
            uint16_t lo = (uint16_t)p, hi = (uint16_t)(p >> 16);
            return (uint16_t)(lo - hi + (lo < hi));
        }
        return (uint16_t)(1 - a);
    }
    return (uint16_t)(1 - b);
}

/* Multiplicative inverse modulo 2^16 + 1 (0 and 1 are their own), by the
 * extended Euclidean algorithm. */
static uint16_t idea_inv(uint16_t x)
{
    if (x <= 1)
        return x;
    int32_t r0 = IDEA_MOD, r1 = x, t0 = 0, t1 = 1;
    while (r1 != 1) {
        int32_t q = r0 / r1, r = r0 - q * r1, t = t0 - q * t1;
        r0 = r1;
        r1 = r;
        t0 = t1;
        t1 = t;
    }
    return (uint16_t)(t1 < 0 ? t1 + IDEA_MOD : t1);
}

/* en_key_idea: the first eight subkeys are the user key; each further
 * group of eight is the 128-bit key rotated left by 25 bits, so word p of
 * a group takes the low 7 bits of word p+1 and the high 9 of word p+2 of
 * the group before (indices mod 8). */
static void idea_encrypt_keys(const uint16_t userkey[8], uint16_t *z)
{
    for (int k = 0; k < 8; k++)
        z[k] = userkey[k];
    for (int k = 8; k < IDEA_KEYLEN; k++) {
        const uint16_t *prev = z + (k & ~7) - 8;
        int p = k & 7;
        z[k] = (uint16_t)(prev[(p + 1) & 7] << 9 | prev[(p + 2) & 7] >> 7);
    }
}

/* de_key_idea: decryption round r uses encryption round 8-r's keys
 * inverted (multiplicative inverses of the two multiplication keys,
 * additive inverses of the two addition keys, swapped in the middle
 * rounds) and round 7-r's two MA-structure keys unchanged. */
static void idea_decrypt_keys(const uint16_t *z, uint16_t *dk)
{
    for (int r = 0; r <= IDEA_ROUNDS; r++) {
        const uint16_t *e = z + 6 * (IDEA_ROUNDS - r);
        uint16_t *d = dk + 6 * r;
        int swap = r != 0 && r != IDEA_ROUNDS;
        d[0] = idea_inv(e[0]);
        d[1] = (uint16_t)-e[swap ? 2 : 1];
        d[2] = (uint16_t)-e[swap ? 1 : 2];
        d[3] = idea_inv(e[3]);
        if (r < IDEA_ROUNDS) {
            d[4] = e[-2];
            d[5] = e[-1];
        }
    }
}

/* cipher_idea: one 64-bit block, read as four native-endian (here little-
 * endian) 16-bit words as the reference does through a u16 pointer. */
static inline void idea_cipher(const uint8_t *in, uint8_t *out, const uint16_t *z)
{
    uint16_t x1, x2, x3, x4, t1, t2;
    memcpy(&x1, in, 2);
    memcpy(&x2, in + 2, 2);
    memcpy(&x3, in + 4, 2);
    memcpy(&x4, in + 6, 2);
    for (int r = 0; r < IDEA_ROUNDS; r++) {
        x1 = idea_mul(x1, *z++);
        x2 = (uint16_t)(x2 + *z++);
        x3 = (uint16_t)(x3 + *z++);
        x4 = idea_mul(x4, *z++);
        t2 = idea_mul(x1 ^ x3, *z++);
        t1 = idea_mul((uint16_t)(t2 + (x2 ^ x4)), *z++);
        t2 = (uint16_t)(t1 + t2);
        x1 ^= t1;
        x4 ^= t2;
        t2 ^= x2;
        x2 = x3 ^ t1;
        x3 = t2;
    }
    x1 = idea_mul(x1, z[0]);
    t1 = (uint16_t)(x3 + z[1]);     /* the output transform undoes the last swap */
    t2 = (uint16_t)(x2 + z[2]);
    x4 = idea_mul(x4, z[3]);
    memcpy(out, &x1, 2);
    memcpy(out + 2, &t1, 2);
    memcpy(out + 4, &t2, 2);
    memcpy(out + 6, &x4, 2);
}

/* DoIDEAIteration's work for one loop: every block of plain1 encrypted into
 * crypt1, then every block of crypt1 decrypted into plain2. */
static inline void idea_loop(const uint8_t *plain1, uint8_t *crypt1, uint8_t *plain2,
                             uint64_t size, const uint16_t *z, const uint16_t *dk)
{
    for (uint64_t j = 0; j < size; j += IDEA_BLOCK)
        idea_cipher(plain1 + j, crypt1 + j, z);
    for (uint64_t j = 0; j < size; j += IDEA_BLOCK)
        idea_cipher(crypt1 + j, plain2 + j, dk);
}

/* ---- data ------------------------------------------------------------------------ */

/* DoIDEA's start: reseed; the user key; the subkeys; then the plaintext. */
static void idea_load(struct idea *id)
{
    bm_rand_reset(&id->rand);
    for (int k = 0; k < 8; k++)
        id->userkey[k] = (uint16_t)(bm_abs_randwc(&id->rand, IDEA_KEY_DRAW) & 0xFFFF);
    idea_encrypt_keys(id->userkey, id->z);
    idea_decrypt_keys(id->z, id->dk);
    for (uint64_t i = 0; i < id->size; i++)
        id->plain1[i] = (uint8_t)(bm_abs_randwc(&id->rand, IDEA_BYTE_DRAW) & 0xFF);
}

/* ---- the kernel ---------------------------------------------------------------- */

static uint64_t idea_size(const struct bm_config *cfg)
{
    return cfg && cfg->idea_array_size ? cfg->idea_array_size : IDEA_ARRAY_SIZE;
}

static void idea_init(struct bm_state *s)
{
    /* Quirk kept: IDEALOOPS is ineffective in the reference (it does not
     * set the adjust flag, so adjustment starts from 100 loops regardless). */
    s->workload = IDEA_LOOPS_START;
    s->workload_fixed = 0;
}

static void idea_teardown(struct bm_state *s)
{
    struct idea *id = s->priv;
    if (!id)
        return;
    bm_free(id->plain1);
    bm_free(id->crypt1);
    bm_free(id->plain2);
    bm_priv_free(s);
}

/* DoIDEA's untimed start, once per run: key, buffers, plaintext. */
static int idea_setup(struct bm_state *s)
{
    idea_teardown(s);
    struct idea *id = bm_priv_new(s, sizeof *id);
    if (!id)
        return BM_ENOMEM;
    id->size = idea_size(s->cfg);
    /* The reference needs a multiple of 8 (the command file enforces it);
     * room to the next block boundary keeps any other size in bounds. */
    uint64_t bytes = (id->size + IDEA_BLOCK - 1) / IDEA_BLOCK * IDEA_BLOCK;
    id->plain1 = bm_alloc(bytes, s->align);
    id->crypt1 = bm_alloc(bytes, s->align);
    id->plain2 = bm_alloc(bytes, s->align);
    if (!id->plain1 || !id->crypt1 || !id->plain2)
        return BM_ENOMEM;
    memset(id->plain1, 0, bytes);
    idea_load(id);
    return BM_OK;
}

static uint64_t idea_iterate(struct bm_state *s, double *units)
{
    struct idea *id = s->priv;
    struct bm_timer t;
    const uint8_t *plain1 = id->plain1;
    uint8_t *crypt1 = id->crypt1, *plain2 = id->plain2;
    const uint16_t *z = id->z, *dk = id->dk;
    uint64_t size = id->size, loops = s->workload;
    bm_timer_start(&t);
    for (uint64_t i = 0; i < loops; i++)
        idea_loop(plain1, crypt1, plain2, size, z, dk);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)loops;
    return ticks;
}

static int idea_grow(struct bm_state *s)
{
    return bm_grow_loops_capped(s, IDEA_LOOPS_STEP, IDEA_MAX_LOOPS);   /* the reference's quirk: see there */
}

static void idea_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu loops of %llu bytes", (unsigned long long)s->workload,
             (unsigned long long)idea_size(s->cfg));
}

/* ---- checks --------------------------------------------------------------------- */

/* From tests/vectors/bytemark/model_b.py (independent Python model). */
#define IDEA_PLAIN_MD5 "23866a4b326e05ccb0df9f3cd0499dca"
#define IDEA_CRYPT_MD5 "e43cf702924e52d728b477c94a360eaa"
#define IDEA_Z_MD5     "625285c50261af3fe80c6e738d366876"   /* 52 u16 LE */
#define IDEA_DK_MD5    "263f16273ad5ce9d8ebc8763deb89073"

/* A subkey table's digest, 52 u16 little-endian as model_b.py makes it. */
static void idea_keys_md5(const uint16_t *k, char out[33])
{
    uint8_t le[2 * IDEA_KEYLEN];
    for (int i = 0; i < IDEA_KEYLEN; i++) {
        le[2 * i] = (uint8_t)k[i];
        le[2 * i + 1] = (uint8_t)(k[i] >> 8);
    }
    bm_md5_hex(le, sizeof le, out);
}

void bm_idea_block(const uint16_t userkey[8], int decrypt, const uint16_t in[4], uint16_t out[4])
{
    uint16_t z[IDEA_KEYLEN], dk[IDEA_KEYLEN];
    uint8_t bin[IDEA_BLOCK], bout[IDEA_BLOCK];
    idea_encrypt_keys(userkey, z);
    idea_decrypt_keys(z, dk);
    memcpy(bin, in, sizeof bin);
    idea_cipher(bin, bout, decrypt ? dk : z);
    memcpy(out, bout, sizeof bout);
}

/* The known-answer test of Lai's thesis and Applied Cryptography: key
 * 0001 0002 ... 0008, plaintext 0000 0001 0002 0003 encrypts to
 * 11FB ED2B 0198 6DE5, and back. */
static void idea_verify_vector(struct bm_verify *v)
{
    static const uint16_t key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const uint16_t plain[4] = { 0, 1, 2, 3 };
    static const uint16_t cipher[4] = { 0x11FB, 0xED2B, 0x0198, 0x6DE5 };
    uint16_t c[4], p[4];
    bm_idea_block(key, 0, plain, c);
    bm_idea_block(key, 1, c, p);
    bm_check(v, memcmp(c, cipher, sizeof c) == 0,
             "cipher: IDEA test vector, key 1..8: 0 1 2 3 -> 11FB ED2B 0198 6DE5",
             "got %04X %04X %04X %04X", c[0], c[1], c[2], c[3]);
    bm_check(v, memcmp(p, plain, sizeof p) == 0, "cipher: the test vector decrypts back",
             "got %u %u %u %u", p[0], p[1], p[2], p[3]);
}

static void idea_verify_keys(struct bm_verify *v, const struct idea *id)
{
    static const uint16_t want[8] = { 35045, 32519, 20022, 24921, 2984, 34185, 35196, 30494 };
    bm_check(v, memcmp(id->userkey, want, sizeof want) == 0,
             "key: 35045 32519 20022 24921 2984 34185 35196 30494 (BYTEMARK.md)",
             "key starts %u %u", id->userkey[0], id->userkey[1]);
    char mz[33], md[33];
    idea_keys_md5(id->z, mz);
    idea_keys_md5(id->dk, md);
    bm_check(v, !strcmp(mz, IDEA_Z_MD5) && !strcmp(md, IDEA_DK_MD5),
             "key: the 52 encryption and 52 decryption subkeys as model_b.py's",
             "md5 %s and %s", mz, md);
}

static void idea_verify(struct bm_verify *v)
{
    idea_verify_vector(v);
    struct bm_config cfg;
    struct bm_state s;
    bm_state_for_check(&s, &cfg);
    idea_init(&s);
    if (idea_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate the three buffers", "out of memory");
        idea_teardown(&s);
        return;
    }
    struct idea *id = s.priv;
    bm_check(v, ((uintptr_t)id->plain1 & 15) == 8 && ((uintptr_t)id->crypt1 & 15) == 8 &&
                 ((uintptr_t)id->plain2 & 15) == 8,
             "buffers start at 8 mod 16 (ALIGN=8)", "plain1 %p", (void *)id->plain1);
    idea_verify_keys(v, id);
    static const uint8_t first[8] = { 7, 148, 214, 216, 40, 205, 105, 170 };
    char md5[33];
    bm_md5_hex(id->plain1, id->size, md5);
    bm_check(v, memcmp(id->plain1, first, sizeof first) == 0,
             "data: plain1 starts 7 148 214 216 40 205 105 170 (BYTEMARK.md)",
             "starts %u %u", id->plain1[0], id->plain1[1]);
    bm_check(v, !strcmp(md5, IDEA_PLAIN_MD5), "data: digest of the 4000 bytes as model_b.py's",
             "md5 %s", md5);

    /* The real kernel path, two loops: the ciphertext and the round trip. */
    s.workload = 2;
    memset(id->crypt1, 0, id->size);
    memset(id->plain2, 0, id->size);
    double units = 0;
    idea_iterate(&s, &units);
    bm_md5_hex(id->crypt1, id->size, md5);
    bm_check(v, units == 2.0 && !strcmp(md5, IDEA_CRYPT_MD5),
             "timed loops: ciphertext digest as model_b.py's", "units %g, md5 %s", units, md5);
    bm_check(v, memcmp(id->plain1, id->plain2, id->size) == 0 &&
                 memcmp(id->plain1, id->crypt1, id->size) != 0,
             "timed loops: decrypt == plaintext (the document's DEBUG check)", "%s",
             "plain2 differs from plain1");
    idea_teardown(&s);
}

/* ---- for the unit test (bytemark_b.h) --------------------------------------------- */

int bm_idea_probe(struct bm_idea_probe *out)
{
    memset(out, 0, sizeof *out);
    struct bm_config cfg;
    struct bm_state s;
    bm_state_for_check(&s, &cfg);
    idea_init(&s);
    if (idea_setup(&s) != BM_OK) {
        idea_teardown(&s);
        return -1;
    }
    struct idea *id = s.priv;
    memcpy(out->userkey, id->userkey, sizeof out->userkey);
    memcpy(out->z, id->z, sizeof out->z);
    memcpy(out->dk, id->dk, sizeof out->dk);
    idea_keys_md5(id->z, out->z_md5);
    idea_keys_md5(id->dk, out->dk_md5);
    memcpy(out->plain0, id->plain1, sizeof out->plain0);
    bm_md5_hex(id->plain1, id->size, out->plain_md5);
    idea_loop(id->plain1, id->crypt1, id->plain2, id->size, id->z, id->dk);
    bm_md5_hex(id->crypt1, id->size, out->crypt_md5);
    out->round_trip = memcmp(id->plain1, id->plain2, id->size) == 0;
    idea_teardown(&s);
    return 0;
}

const struct bm_kernel bm_idea = {
    .id = BM_IDEA,
    .name = "IDEA",
    .key = "idea",
    .unit = "loops/s",
    .base_p90 = 65.382,     /* BYTEMARK.md section 3 baselines */
    .base_k6 = 220.21,
    .init = idea_init,
    .setup = idea_setup,
    .iterate = idea_iterate,
    .grow = idea_grow,
    .teardown = idea_teardown,
    .verify = idea_verify,
    .describe = idea_describe,
};
