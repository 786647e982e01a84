/*
 * tests/unit/test_fwid.c - the firmware identity's walk (bench/system/fwid.c)
 * over a simulated memory of five volumes: the variable store, a bad
 * checksum, a duplicate base, a base without a volume and one outside the
 * memory are left out; the identity does not depend on the order of the
 * bases; a changed byte in a volume changes it, one in the variable store
 * does not.  Expected values: tests/vectors/fwid/vectors_fwid.h, written by
 * tests/vectors/fwid/make_fwid_vectors.py (hashlib, from the definition),
 * which builds the same memory from the same recipe (its SHA-256 is checked
 * first, so the two recipes cannot drift apart unseen).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fwid.h"
#include "sha256.h"
#include "check.h"
#include "tests/vectors/fwid/vectors_fwid.h"

#define SIM_BASE 0x80000000ull
#define SIM_SIZE 0x10000u

static uint8_t sim[SIM_SIZE];
static unsigned sim_reads;

static const uint8_t *sim_map(uint64_t addr, uint64_t len, void *ctx)
{
    (void)ctx;
    sim_reads++;
    if (addr < SIM_BASE || addr - SIM_BASE > SIM_SIZE || len > SIM_SIZE - (addr - SIM_BASE))
        return NULL;
    return sim + (addr - SIM_BASE);
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (uint8_t)(x >> 16);
    }
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* The volume header the recipe describes (make_fwid_vectors.py volume()). */
static void volume(uint32_t off, uint32_t length, const uint8_t guid[16], uint32_t seed, int bad_sum)
{
    uint8_t *h = sim + off;
    fill(h, length, seed);
    memset(h, 0, 72);
    memcpy(h + 16, guid, 16);
    put64(h + 32, length);
    memcpy(h + 40, "_FVH", 4);
    put32(h + 44, 0x0004FEFF);
    put16(h + 48, 72);
    h[55] = 2;
    put32(h + 56, length / 0x1000 ? length / 0x1000 : 1);
    put32(h + 60, 0x1000);
    uint16_t s = 0;
    for (int i = 0; i < 72; i += 2)
        s = (uint16_t)(s + (h[i] | h[i + 1] << 8));
    put16(h + 50, (uint16_t)((uint16_t)-s ^ (bad_sum ? 1 : 0)));
}

static const uint8_t FFS2[16] = { 0x78, 0xe5, 0x8c, 0x8c, 0x3d, 0x8a, 0x1c, 0x4f,
                                  0x99, 0x35, 0x89, 0x61, 0x85, 0xc3, 0x2d, 0xd3 };
static const uint8_t NV[16] = { 0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c,
                                0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };

static void layout(void)
{
    fill(sim, SIM_SIZE, 0);
    volume(0x0000, 0x3000, FFS2, 1, 0);
    volume(0x4000, 0x1F4C, FFS2, 2, 0);
    volume(0x8000, 0x2000, NV, 3, 0);
    volume(0xA000, 0x1000, FFS2, 4, 1);
    volume(0xC000, 0x2000, FFS2, 5, 0);
}

#define A   (SIM_BASE + 0x0000)
#define B   (SIM_BASE + 0x4000)
#define NVS (SIM_BASE + 0x8000)
#define BAD (SIM_BASE + 0xA000)
#define C   (SIM_BASE + 0xC000)

int main(void)
{
    uint8_t d[SHA256_DIGEST], lanes[FWID_LANES_BYTES];
    char hex[SHA256_HEX], lhex[2 * FWID_LANES_BYTES + 1];
    struct fwid id;
    enum fwid_kind kinds[FWID_MAX_VOLUMES];

    layout();
    sha256(sim, SIM_SIZE, d);
    sha256_hex(d, hex);
    CHECK_STR(hex, FWID_V_MEMORY, "the simulated memory is the Python recipe's, byte for byte");

    fwid_lanes(sim + 0x4000, 0x1F4C, lanes);
    for (int i = 0; i < FWID_LANES_BYTES; i++)
        snprintf(lhex + 2 * i, 3, "%02x", lanes[i]);
    CHECK_STR(lhex, FWID_V_LANES_B, "lane digest of volume B (0x1F4C bytes: a zero-padded tail)");

    /* every kind of base in one list */
    const uint64_t bases[] = { C, A, NVS, B, A, BAD, SIM_BASE + 0x7000, 0x90000000ull };
    fwid_compute(bases, 8, sim_map, NULL, &id, kinds);
    CHECK_STR(id.sha256, FWID_V_ABC, "identity of A, B, C; the variable store and the rest left out");
    CHECK_EQ_U64(id.hashed, 3, "three volumes hashed");
    CHECK_EQ_U64(id.bytes, 0x3000 + 0x1F4C + 0x2000, "their FvLengths summed");
    CHECK_EQ_U64(id.nv_stores, 1, "one variable store left out");
    CHECK_EQ_U64(id.duplicates, 1, "A named twice counts once");
    CHECK_EQ_U64(id.bad, 3, "bad checksum, no volume, outside memory: three bad");
    CHECK(kinds[0] == FWID_HASHED && kinds[1] == FWID_HASHED && kinds[2] == FWID_NV_STORE &&
          kinds[3] == FWID_HASHED && kinds[4] == FWID_DUPLICATE && kinds[5] == FWID_BAD_HEADER &&
          kinds[6] == FWID_BAD_HEADER && kinds[7] == FWID_UNREADABLE, "each base's kind");

    const uint64_t other[] = { B, NVS, A, C };
    fwid_compute(other, 4, sim_map, NULL, &id, NULL);
    CHECK_STR(id.sha256, FWID_V_ABC, "the same volumes in another order: the same identity");

    const uint64_t one[] = { A };
    fwid_compute(one, 1, sim_map, NULL, &id, NULL);
    CHECK_STR(id.sha256, FWID_V_A, "A alone");

    /* the variable store's contents change each boot: no effect */
    sim[0x8000 + 0x200] ^= 0xFF;
    fwid_compute(other, 4, sim_map, NULL, &id, NULL);
    CHECK_STR(id.sha256, FWID_V_ABC, "a byte of the variable store changed: the same identity");

    layout();
    sim[0x4000 + 0x100] ^= 0x01;
    fwid_compute(other, 4, sim_map, NULL, &id, NULL);
    CHECK_STR(id.sha256, FWID_V_B_BYTE, "one bit of B changed: the identity Python gives that memory");

    layout();
    sim[0xC000 + 0x2000 - 1] ^= 0x80;
    fwid_compute(other, 4, sim_map, NULL, &id, NULL);
    CHECK_STR(id.sha256, FWID_V_C_LAST, "the last byte of C changed: the identity Python gives that memory");

    /* nothing to hash: "" and one line why, never a failure */
    layout();
    fwid_compute(NULL, 0, sim_map, NULL, &id, NULL);
    CHECK(!id.sha256[0] && id.why[0] && !strchr(id.why, '\n'), "no volumes: no identity, one line why");
    const uint64_t nv_only[] = { NVS, BAD };
    fwid_compute(nv_only, 2, sim_map, NULL, &id, NULL);
    CHECK(!id.sha256[0] && id.why[0] && id.nv_stores == 1 && id.bad == 1,
          "only the variable store and a bad header: no identity, one line why");

    /* headers that cannot be (fwid_header) */
    uint64_t len;
    int nv;
    CHECK(fwid_header(sim + 0x0000, 72, &len, &nv) == 0 && len == 0x3000 && !nv, "A's header: 0x3000 bytes");
    CHECK(fwid_header(sim + 0x8000, 72, &len, &nv) == 0 && nv, "the variable store's header is known as such");
    CHECK(fwid_header(sim + 0xA000, 72, &len, &nv) == -1, "a bad checksum is refused");
    CHECK(fwid_header(sim + 0x0000, 71, &len, &nv) == -1, "fewer bytes than the header's length: refused");
    uint8_t h[72];
    memcpy(h, sim, 72);
    put64(h + 32, 40);      /* FvLength below HeaderLength (checksum repaired below) */
    uint16_t s = 0;
    put16(h + 50, 0);
    for (int i = 0; i < 72; i += 2)
        s = (uint16_t)(s + (h[i] | h[i + 1] << 8));
    put16(h + 50, (uint16_t)-s);
    CHECK(fwid_header(h, 72, &len, &nv) == -1, "an FvLength shorter than the header: refused");
    put64(h + 32, FWID_MAX_LENGTH + 8);
    put16(h + 50, 0);
    s = 0;
    for (int i = 0; i < 72; i += 2)
        s = (uint16_t)(s + (h[i] | h[i + 1] << 8));
    put16(h + 50, (uint16_t)-s);
    CHECK(fwid_header(h, 72, &len, &nv) == -1, "an FvLength over the limit: refused, not read");
    return check_done();
}
