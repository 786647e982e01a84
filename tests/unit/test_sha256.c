/*
 * tests/unit/test_sha256.c - bench/digest/sha256.c against the FIPS 180-2 example
 * messages (appendix B: "abc", the 448-bit message, one million 'a'), the
 * empty message and the 896-bit message of the NIST examples, every split
 * of a message into two updates, and coreutils' sha256sum at the padding
 * boundaries (55, 56, 63, 64, 65, 119, 120 bytes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "check.h"

static void hex_of(const void *data, size_t n, char out[SHA256_HEX])
{
    uint8_t d[SHA256_DIGEST];
    sha256(data, n, d);
    sha256_hex(d, out);
}

static void vectors(void)
{
    static const struct { const char *msg, *want; } v[] = {
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
          "mnopqrstnopqrstu", "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
    };
    char got[SHA256_HEX], what[96];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hex_of(v[i].msg, strlen(v[i].msg), got);
        snprintf(what, sizeof what, "FIPS 180 vector %zu (%zu bytes)", i, strlen(v[i].msg));
        CHECK_STR(got, v[i].want, what);
    }
    /* one million 'a', fed in pieces of 1000 */
    struct sha256 s;
    char block[1000];
    uint8_t d[SHA256_DIGEST];
    memset(block, 'a', sizeof block);
    sha256_init(&s);
    for (int i = 0; i < 1000; i++)
        sha256_update(&s, block, sizeof block);
    sha256_final(&s, d);
    sha256_hex(d, got);
    CHECK_STR(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
              "FIPS 180 vector: one million 'a'");
}

static void splits(void)
{
    uint8_t msg[200], whole[SHA256_DIGEST], part[SHA256_DIGEST];
    int bad = 0;
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 37 + 11);
    sha256(msg, sizeof msg, whole);
    for (size_t k = 0; k <= sizeof msg; k++) {
        struct sha256 s;
        sha256_init(&s);
        sha256_update(&s, msg, k);
        sha256_update(&s, msg + k, sizeof msg - k);
        sha256_final(&s, part);
        bad += memcmp(whole, part, sizeof whole) != 0;
    }
    CHECK_EQ_I64(bad, 0, "every split of a 200-byte message into two updates gives the same digest");
}

static void against_sha256sum(void)
{
    static const size_t lens[] = { 1, 55, 56, 63, 64, 65, 119, 120, 1000 };
    char path[] = "/tmp/test_sha256.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        CHECK(0, "sha256sum comparison: temporary file");
        return;
    }
    close(fd);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t msg[1000];
        char got[SHA256_HEX], want[SHA256_HEX] = "", cmd[128], what[96];
        for (size_t k = 0; k < lens[i]; k++)
            msg[k] = (uint8_t)(k * 131 + lens[i]);
        FILE *f = fopen(path, "wb");
        fwrite(msg, 1, lens[i], f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "sha256sum %s", path);
        FILE *p = popen(cmd, "r");
        if (!p || fscanf(p, "%64s", want) != 1)
            want[0] = 0;
        if (p)
            pclose(p);
        hex_of(msg, lens[i], got);
        snprintf(what, sizeof what, "%zu bytes: the same digest as coreutils sha256sum", lens[i]);
        CHECK_STR(got, want, what);
    }
    remove(path);
}

int main(void)
{
    vectors();
    splits();
    against_sha256sum();
    return check_done();
}
