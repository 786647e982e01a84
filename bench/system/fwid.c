/*
 * bench/system/fwid.c - the firmware's identity from its volumes (fwid.h).
 *
 * EFI_FIRMWARE_VOLUME_HEADER (PI specification, volume 3, 3.2.1):
 *   0  ZeroVector[16]     16  FileSystemGuid     32  FvLength (UINT64)
 *   40 Signature "_FVH"   44  Attributes (UINT32) 48  HeaderLength (UINT16)
 *   50 Checksum (UINT16: the header's 16-bit words sum to 0)
 *   52 ExtHeaderOffset    54  Reserved   55 Revision   56 BlockMap[] ending {0, 0}
 */
#include <string.h>

#include "fwid.h"

#define FV_LENGTH_AT      32
#define FV_SIGNATURE_AT   40
#define FV_HDRLEN_AT      48

/* EFI_SYSTEM_NV_DATA_FV_GUID fff12b8d-7696-4c8b-a985-2747075b4f50, as stored */
static const uint8_t fwid_nv_guid[16] = { 0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c,
                                          0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };

#define LANE_K            0x9E3779B97F4A7C15ull   /* 2^64 / golden ratio, odd */
#define LANE_ROT          29

/* The 32-byte lane digest of a volume (fwid.h): four chains, lane l taking
 * the 8-byte little-endian words l, l + 4, l + 8 ... (the tail zero-padded
 * to 32 bytes), each step h = rotl(h ^ w, 29) * K.  Every step is a
 * bijection of h, so a difference in one word of a lane always reaches
 * its final value. */
void fwid_lanes(const uint8_t *p, uint64_t len, uint8_t out[FWID_LANES_BYTES])
{
    uint64_t h[4] = { LANE_K, 2 * LANE_K, 3 * LANE_K, 4 * LANE_K }, w;
    uint64_t whole = len - len % 32;
    for (uint64_t i = 0; i < whole; i += 32)
        for (int l = 0; l < 4; l++) {
            memcpy(&w, p + i + 8 * l, 8);       /* x86: little-endian */
            w ^= h[l];
            h[l] = (w << LANE_ROT | w >> (64 - LANE_ROT)) * LANE_K;
        }
    if (len % 32) {
        uint8_t tail[32] = { 0 };
        memcpy(tail, p + whole, (size_t)(len % 32));
        for (int l = 0; l < 4; l++) {
            memcpy(&w, tail + 8 * l, 8);
            w ^= h[l];
            h[l] = (w << LANE_ROT | w >> (64 - LANE_ROT)) * LANE_K;
        }
    }
    for (int l = 0; l < 4; l++)
        for (int b = 0; b < 8; b++)
            out[8 * l + b] = (uint8_t)(h[l] >> (8 * b));
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

int fwid_header(const uint8_t *h, size_t avail, uint64_t *length, int *nv_store)
{
    if (!h || avail < FWID_HEADER_MIN || memcmp(h + FV_SIGNATURE_AT, "_FVH", 4))
        return -1;
    size_t hl = le16(h + FV_HDRLEN_AT);
    uint64_t fl = le64(h + FV_LENGTH_AT);
    if (hl < FWID_HEADER_MIN || hl % 2 || hl > avail || fl < hl || fl > FWID_MAX_LENGTH)
        return -1;
    uint16_t sum = 0;
    for (size_t i = 0; i < hl; i += 2)
        sum = (uint16_t)(sum + le16(h + i));
    if (sum)
        return -1;
    *length = fl;
    *nv_store = !memcmp(h + 16, fwid_nv_guid, 16);
    return 0;
}

void fwid_compute(const uint64_t *bases, size_t n, fwid_map_fn map, void *ctx, struct fwid *out,
                  enum fwid_kind *kinds)
{
    uint8_t digests[FWID_MAX_VOLUMES][FWID_RECORD];
    size_t nd = 0;
    memset(out, 0, sizeof *out);
    if (n > FWID_MAX_VOLUMES)
        n = FWID_MAX_VOLUMES;
    for (size_t i = 0; i < n; i++) {
        enum fwid_kind k = FWID_HASHED;
        uint64_t len = 0;
        int nv = 0;
        const uint8_t *h = NULL;
        for (size_t j = 0; j < i; j++)
            if (bases[j] == bases[i])
                k = FWID_DUPLICATE;
        if (k == FWID_HASHED && !(h = map(bases[i], FWID_HEADER_MIN, ctx)))
            k = FWID_UNREADABLE;
        if (k == FWID_HASHED) {
            /* the header to its own length (its block map), then the whole volume */
            size_t hl = le16(h + FV_HDRLEN_AT);
            if (hl > FWID_HEADER_MIN && hl <= 4096)
                h = map(bases[i], hl, ctx);
            else
                hl = FWID_HEADER_MIN;
            if (!h)
                k = FWID_UNREADABLE;
            else if (fwid_header(h, hl, &len, &nv))
                k = FWID_BAD_HEADER;
            else if (nv)
                k = FWID_NV_STORE;
            else if (!(h = map(bases[i], len, ctx)))
                k = FWID_UNREADABLE;
        }
        if (kinds)
            kinds[i] = k;
        switch (k) {
        case FWID_HASHED:
            for (int b = 0; b < 8; b++)
                digests[nd][b] = (uint8_t)(len >> (8 * b));
            fwid_lanes(h, len, digests[nd++] + 8);
            out->hashed++;
            out->bytes += len;
            break;
        case FWID_NV_STORE: out->nv_stores++; break;
        case FWID_DUPLICATE: out->duplicates++; break;
        default: out->bad++; break;
        }
    }
    if (!nd) {
        if (!n)
            strcpy(out->why, "the firmware exposes no firmware volume");
        else
            strcpy(out->why, "no firmware volume could be read (only the variable store, or bad headers)");
        return;
    }
    /* sorted, so the firmware's order of its handles does not matter */
    for (size_t i = 1; i < nd; i++)
        for (size_t j = i; j > 0 && memcmp(digests[j - 1], digests[j], FWID_RECORD) > 0; j--) {
            uint8_t t[FWID_RECORD];
            memcpy(t, digests[j], FWID_RECORD);
            memcpy(digests[j], digests[j - 1], FWID_RECORD);
            memcpy(digests[j - 1], t, FWID_RECORD);
        }
    uint8_t id[SHA256_DIGEST];
    sha256(digests, nd * FWID_RECORD, id);
    sha256_hex(id, out->sha256);
}
