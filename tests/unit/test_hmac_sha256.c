/*
 * tests/unit/test_hmac_sha256.c - bench/digest/hmac_sha256.c against RFC 4231's
 * HMAC-SHA256 test cases 1, 2, 6 and 7 and against Python's hmac/hashlib on
 * 72 generated key/message pairs (tests/vectors/hmac/make_vectors.py: keys
 * around the 64-byte block, messages around SHA-256's padding boundaries),
 * in one call and fed byte by byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hmac_sha256.h"
#include "check.h"
#include "tests/vectors/hmac/vectors.h"

static void rfc4231(void)
{
    char got[SHA256_HEX];
    uint8_t key20[20], key131[131];
    memset(key20, 0x0b, sizeof key20);
    memset(key131, 0xaa, sizeof key131);
    hmac_sha256_hex(key20, sizeof key20, "Hi There", 8, got);
    CHECK_STR(got, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", "RFC 4231 test case 1");
    hmac_sha256_hex("Jefe", 4, "what do ya want for nothing?", 28, got);
    CHECK_STR(got, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "RFC 4231 test case 2");
    const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    hmac_sha256_hex(key131, sizeof key131, m6, strlen(m6), got);
    CHECK_STR(got, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
              "RFC 4231 test case 6 (131-byte key)");
    const char *m7 = "This is a test using a larger than block-size key and a larger than block-size data. "
                     "The key needs to be hashed before being used by the HMAC algorithm.";
    hmac_sha256_hex(key131, sizeof key131, m7, strlen(m7), got);
    CHECK_STR(got, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
              "RFC 4231 test case 7 (131-byte key, 152-byte message)");
}

static void python_vectors(void)
{
    int bad_whole = 0, bad_pieces = 0, bad_sha = 0;
    char got[SHA256_HEX], first[200] = "";
    for (size_t i = 0; i < sizeof hmac_vectors / sizeof hmac_vectors[0]; i++) {
        const struct hmac_vector *v = &hmac_vectors[i];
        hmac_sha256_hex(v->key, v->key_len, v->msg, v->msg_len, got);
        if (strcmp(got, v->hmac)) {
            if (!bad_whole++)
                snprintf(first, sizeof first, "key %u bytes, message %u bytes: %s", v->key_len, v->msg_len, got);
        }
        struct hmac_sha256 h;
        uint8_t d[SHA256_DIGEST];
        hmac_sha256_init(&h, v->key, v->key_len);
        for (unsigned k = 0; k < v->msg_len; k++)
            hmac_sha256_update(&h, v->msg + k, 1);
        hmac_sha256_final(&h, d);
        sha256_hex(d, got);
        bad_pieces += strcmp(got, v->hmac) != 0;
        sha256(v->msg, v->msg_len, d);
        sha256_hex(d, got);
        bad_sha += strcmp(got, v->sha256) != 0;
    }
    check_report_(!bad_whole, "72 Python hmac vectors, one call", first[0] ? first : "-");
    CHECK_EQ_I64(bad_pieces, 0, "72 Python hmac vectors, message fed one byte at a time");
    CHECK_EQ_I64(bad_sha, 0, "72 Python hashlib SHA-256 digests of the same messages");
}

int main(void)
{
    rfc4231();
    python_vectors();
    return check_done();
}
