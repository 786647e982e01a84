/*
 * bench/digest/sha256.h - SHA-256 (FIPS 180-4), portable and freestanding: names a
 * plug-in file by its contents in the results, so a run on the stick and a
 * build on the desk can be matched byte for byte; under HMAC-SHA256
 * (hmac_sha256.h) it signs uploads, and history names runs by it.  The
 * digest room holds what several rooms hash with and nothing else.
 */
#ifndef BAREMARK_SHA256_H
#define BAREMARK_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST 32                 /* bytes */
#define SHA256_HEX    (2 * SHA256_DIGEST + 1)

struct sha256 {
    uint32_t h[8];
    uint64_t bytes;                      /* message length so far */
    uint8_t block[64];
    size_t fill;                         /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST]);
/* One call: the digest of data[0..n-1]. */
void sha256(const void *data, size_t n, uint8_t out[SHA256_DIGEST]);
/* Lower-case hex, NUL-terminated (SHA256_HEX bytes). */
void sha256_hex(const uint8_t digest[SHA256_DIGEST], char out[SHA256_HEX]);

#endif
