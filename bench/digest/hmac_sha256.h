/*
 * bench/digest/hmac_sha256.h - HMAC-SHA256 (RFC 2104, FIPS 198-1) over
 * bench/digest/sha256.c, portable and freestanding: signs each upload of a run to
 * the results server (docs/results-upload.md) with the lab's shared key.
 */
#ifndef BAREMARK_HMAC_SHA256_H
#define BAREMARK_HMAC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

struct hmac_sha256 {
    struct sha256 inner, outer;          /* the two hashes, keyed */
};

/* Keys longer than the 64-byte block are hashed first, as RFC 2104 says. */
void hmac_sha256_init(struct hmac_sha256 *h, const void *key, size_t key_len);
void hmac_sha256_update(struct hmac_sha256 *h, const void *data, size_t n);
void hmac_sha256_final(struct hmac_sha256 *h, uint8_t out[SHA256_DIGEST]);
/* One call; and its lower-case hex (SHA256_HEX bytes with the NUL). */
void hmac_sha256(const void *key, size_t key_len, const void *data, size_t n, uint8_t out[SHA256_DIGEST]);
void hmac_sha256_hex(const void *key, size_t key_len, const void *data, size_t n, char out[SHA256_HEX]);

#endif
