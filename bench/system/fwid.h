/*
 * bench/system/fwid.h - the firmware's identity: a SHA-256 over the
 * firmware volumes it exposes, so two builds of one firmware that report
 * the same vendor, revision and SMBIOS strings (Debian's 2 MiB and 4 MiB
 * OVMF) are told apart, and boots of one build agree.
 *
 * The volumes are the PI firmware volumes (UEFI PI specification, volume
 * 3, "Firmware Storage": EFI_FIRMWARE_VOLUME_HEADER) whose base addresses
 * the image collects from the firmware's EFI_FIRMWARE_VOLUME_BLOCK2
 * protocols.  Each volume whose header is sound is read over its
 * FvLength, except the variable store (file system GUID
 * EFI_SYSTEM_NV_DATA_FV_GUID), whose contents change as variables are
 * written.  A volume's record is its FvLength (8 bytes, little-endian)
 * and a 32-byte lane digest of its bytes (fwid.c: four multiply-rotate
 * chains over its 8-byte words, about 30 times cheaper than SHA-256
 * under QEMU's TCG, where SHA-256 of OVMF's 12 MiB DXE volume takes
 * seconds); the identity is the SHA-256 of the records sorted (so the
 * order the firmware lists them in does not matter):
 *
 *   sha256(sorted(len8(v) + lanes(v) for each volume v) joined)
 *
 * It tells builds apart (any change to one 8-byte word of a volume always
 * changes it); it is no attestation: the lane digest is not built to
 * resist a deliberate collision, and a firmware can expose what it likes
 * (measured boot, the TPM's PCR 0, is the trustworthy record).
 *
 * Portable and allocation-free: memory is reached through a map callback,
 * so the unit test walks a simulated layout and the image its own.
 */
#ifndef BAREMARK_FWID_H
#define BAREMARK_FWID_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define FWID_MAX_VOLUMES   32
#define FWID_MAX_LENGTH    (256ull << 20)   /* a volume's FvLength above this is not believed */
#define FWID_LANES_BYTES   32
#define FWID_RECORD        (8 + FWID_LANES_BYTES)
#define FWID_HEADER_MIN    64               /* the header to the first block map entry and its end */

/* What one volume was taken as. */
enum fwid_kind { FWID_HASHED, FWID_NV_STORE, FWID_DUPLICATE, FWID_BAD_HEADER, FWID_UNREADABLE };

struct fwid {
    char sha256[SHA256_HEX];    /* the identity, "" when no volume was hashed */
    char why[128];              /* when sha256 is "": one line saying why */
    unsigned hashed, nv_stores, duplicates, bad;
    uint64_t bytes;             /* hashed */
};

/* The bytes [addr, addr + len) of the memory the volumes live in, or NULL
 * when they cannot be read. */
typedef const uint8_t *(*fwid_map_fn)(uint64_t addr, uint64_t len, void *ctx);

/* Check a volume header (avail bytes at h): 0 with its FvLength and
 * whether it is the variable store, or -1 (no "_FVH" signature, a header
 * length or FvLength that cannot be, or a bad checksum). */
int fwid_header(const uint8_t *h, size_t avail, uint64_t *length, int *nv_store);

/* A volume's 32-byte lane digest (the chains' final values, little-endian). */
void fwid_lanes(const uint8_t *p, uint64_t len, uint8_t out[FWID_LANES_BYTES]);

/* The identity of the volumes at bases[0..n) (n at most FWID_MAX_VOLUMES;
 * the same base twice counts once).  kinds (may be NULL) gets each
 * base's kind. */
void fwid_compute(const uint64_t *bases, size_t n, fwid_map_fn map, void *ctx, struct fwid *out,
                  enum fwid_kind *kinds);

#endif
