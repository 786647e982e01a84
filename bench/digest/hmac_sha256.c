/*
 * bench/digest/hmac_sha256.c - HMAC-SHA256: H((K ^ opad) || H((K ^ ipad) || m)),
 * K the key zero-padded to the 64-byte block (hashed first when longer).
 */
#include <string.h>

#include "hmac_sha256.h"

#define HMAC_BLOCK 64

void hmac_sha256_init(struct hmac_sha256 *h, const void *key, size_t key_len)
{
    uint8_t k[HMAC_BLOCK], pad[HMAC_BLOCK];
    memset(k, 0, sizeof k);
    if (key_len > HMAC_BLOCK)
        sha256(key, key_len, k);
    else if (key_len)
        memcpy(k, key, key_len);
    for (int i = 0; i < HMAC_BLOCK; i++)
        pad[i] = k[i] ^ 0x36;
    sha256_init(&h->inner);
    sha256_update(&h->inner, pad, sizeof pad);
    for (int i = 0; i < HMAC_BLOCK; i++)
        pad[i] = k[i] ^ 0x5c;
    sha256_init(&h->outer);
    sha256_update(&h->outer, pad, sizeof pad);
    memset(k, 0, sizeof k);
    memset(pad, 0, sizeof pad);
}

void hmac_sha256_update(struct hmac_sha256 *h, const void *data, size_t n)
{
    sha256_update(&h->inner, data, n);
}

void hmac_sha256_final(struct hmac_sha256 *h, uint8_t out[SHA256_DIGEST])
{
    uint8_t inner[SHA256_DIGEST];
    sha256_final(&h->inner, inner);
    sha256_update(&h->outer, inner, sizeof inner);
    sha256_final(&h->outer, out);
}

void hmac_sha256(const void *key, size_t key_len, const void *data, size_t n, uint8_t out[SHA256_DIGEST])
{
    struct hmac_sha256 h;
    hmac_sha256_init(&h, key, key_len);
    hmac_sha256_update(&h, data, n);
    hmac_sha256_final(&h, out);
}

void hmac_sha256_hex(const void *key, size_t key_len, const void *data, size_t n, char out[SHA256_HEX])
{
    uint8_t d[SHA256_DIGEST];
    hmac_sha256(key, key_len, data, n, d);
    sha256_hex(d, out);
}
