/*
 * tests/fuzz/fuzz_pe_image.c - libFuzzer target for bench/plugins/pe_image.c, the
 * checks of a plug-in file read from a stick (untrusted bytes) before the
 * firmware is asked to load it.
 *
 * Built by tests/fuzz/run.sh (and replayed over the seed corpus by
 * tests/unit/test_fuzz_pe_replay.sh) with clang -fsanitize=fuzzer,address,
 * undefined.  The input is copied into a buffer of exactly its size, so a
 * read one byte past the end is an AddressSanitizer report.  Besides "no
 * crash", every input must keep these properties (a violation aborts):
 *   - pe_check_plugin returns 0 or -1, the same twice in a row; on -1 the
 *     reason is one non-empty printable line; on 0 it is empty, the image
 *     is an x86-64 boot-service driver and everything it needs (headers,
 *     sections) lies inside the file;
 *   - an accepted image cut one byte short of what it needs is refused as
 *     "truncated: ...";
 *   - pe_signature_bytes is -1 or a size that fits in the file; for an
 *     accepted image whose optional header has no certificate directory it
 *     is 0 (not signed), never -1;
 *   - pe_authenticode_sha256 returns 0 or -1, the same digest twice, and 0
 *     only for a file pe_signature_bytes reads as a whole image.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pe_image.h"
#include "sha256.h"

#define FUZZ_WHY_MAX      256
#define FUZZ_OPT_CERT_END (112 + 5 * 8)   /* the optional header through data directory 4 */

static void fuzz_require(int ok)
{
    if (!ok)
        abort();
}

static void fuzz_one_line(const char *why, int want_empty)
{
    size_t n = strlen(why);
    fuzz_require(want_empty ? n == 0 : n > 0 && n < FUZZ_WHY_MAX - 1);
    for (size_t i = 0; i < n; i++)
        fuzz_require((unsigned char)why[i] >= 0x20 && (unsigned char)why[i] < 0x7F);
}

/* The optional header's size as the COFF header states it (0 when the
 * file is too short to say). */
static uint32_t fuzz_opt_size(const uint8_t *b, size_t n)
{
    if (n < 0x40)
        return 0;
    uint64_t pe = (uint32_t)b[0x3C] | (uint32_t)b[0x3D] << 8 | (uint32_t)b[0x3E] << 16 | (uint32_t)b[0x3F] << 24;
    if (pe + 24 > n)
        return 0;
    return (uint32_t)b[pe + 20] | (uint32_t)b[pe + 21] << 8;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *b = malloc(size ? size : 1);
    char why[FUZZ_WHY_MAX], why2[FUZZ_WHY_MAX];
    struct pe_info info, info2;
    if (!b)
        return 0;
    memcpy(b, data, size);

    int rc = pe_check_plugin(b, size, &info, why, sizeof why);
    fuzz_require(rc == 0 || rc == -1);
    fuzz_one_line(why, rc == 0);
    int rc2 = pe_check_plugin(b, size, &info2, why2, sizeof why2);
    fuzz_require(rc2 == rc && !strcmp(why, why2) && !memcmp(&info, &info2, sizeof info));
    fuzz_require(pe_check_plugin(b, size, NULL, why2, sizeof why2) == rc);

    int64_t sig = pe_signature_bytes(b, size);
    fuzz_require(sig >= -1 && (sig < 0 || (uint64_t)sig <= size));

    uint8_t d1[SHA256_DIGEST], d2[SHA256_DIGEST];
    int h1 = pe_authenticode_sha256(b, size, d1), h2 = pe_authenticode_sha256(b, size, d2);
    fuzz_require((h1 == 0 || h1 == -1) && h1 == h2 && (h1 || !memcmp(d1, d2, sizeof d1)));
    fuzz_require(h1 == -1 || sig >= 0);

    if (rc == 0) {
        fuzz_require(info.machine == PE_MACHINE_X64 && info.subsystem == PE_SUBSYSTEM_EFI_BOOT_DRV);
        fuzz_require(info.needed > 0 && info.needed <= size);
        /* one byte short of what it needs: truncated */
        fuzz_require(pe_check_plugin(b, (size_t)info.needed - 1, NULL, why2, sizeof why2) == -1);
        fuzz_require(!strncmp(why2, "truncated: ", 11));
        if (fuzz_opt_size(b, size) < FUZZ_OPT_CERT_END)
            fuzz_require(sig == 0);
    }
    free(b);
    return 0;
}
