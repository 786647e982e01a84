/*
 * boot/fwvol.c - the firmware's identity (bench/system/fwid.h) from the
 * volumes its EFI_FIRMWARE_VOLUME_BLOCK2 protocols expose (UEFI PI
 * specification, volume 3, "Firmware Volume Block2 Protocol"): each
 * instance's GetPhysicalAddress is a volume's base, read in place when its
 * attributes say it is memory-mapped and readable.  Timed with the ACPI
 * PM timer (the TSC is not calibrated yet at the system block).
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "fwvol.h"
#include "pmtimer.h"

/* EFI_FIRMWARE_VOLUME_BLOCK2_PROTOCOL_GUID (the same as the first FVB's) */
#define FVB2_GUID { 0x8f644fa9, 0xe850, 0x4db1, { 0x9c, 0xe2, 0x0b, 0x44, 0x69, 0x8e, 0x8d, 0xa4 } }
#define FVB2_READ_STATUS    0x00000004u     /* EFI_FVB2_READ_STATUS */
#define FVB2_MEMORY_MAPPED  0x00000800u     /* EFI_FVB2_MEMORY_MAPPED */

struct fvb2;
typedef EFI_STATUS (EFIAPI *fvb2_attributes_fn)(struct fvb2 *self, UINT32 *attributes);
typedef EFI_STATUS (EFIAPI *fvb2_address_fn)(struct fvb2 *self, EFI_PHYSICAL_ADDRESS *address);
struct fvb2 {                   /* the members before GetPhysicalAddress, in order */
    fvb2_attributes_fn GetAttributes;
    void *SetAttributes;
    fvb2_address_fn GetPhysicalAddress;
};

/* Identity-mapped physical memory: the volume is where its address says. */
static const uint8_t *fwvol_map(uint64_t addr, uint64_t len, void *ctx)
{
    (void)ctx;
    if (!addr || addr + len < addr || addr + len - 1 > (uint64_t)UINTPTR_MAX)
        return NULL;
    return (const uint8_t *)(uintptr_t)addr;
}

void fwvol_identity(const struct acpi_info *ai, struct fwid *id, double *ms)
{
    EFI_GUID guid = FVB2_GUID;
    EFI_HANDLE *handles = NULL;
    UINTN count = 0;
    uint64_t bases[FWID_MAX_VOLUMES];
    size_t n = 0, unmapped = 0;
    struct pmtimer pm;
    const char *why = NULL;
    int timed = ai && pmtimer_open(&pm, ai->pm_timer_port, ai->pm_timer_32bit, &why) == 0;
    uint32_t t0 = timed ? pmtimer_read(&pm) : 0;

    *ms = -1;
    memset(id, 0, sizeof *id);
    EFI_STATUS s = BS->LocateHandleBuffer(ByProtocol, &guid, NULL, &count, &handles);
    if (s != EFI_SUCCESS) {
        snprintf(id->why, sizeof id->why, "no firmware volume block protocol (LocateHandleBuffer: %s)",
                 s == EFI_NOT_FOUND ? "none" : "failed");
        return;
    }
    for (UINTN i = 0; i < count && n < FWID_MAX_VOLUMES; i++) {
        struct fvb2 *fvb = NULL;
        UINT32 attr = 0;
        EFI_PHYSICAL_ADDRESS a = 0;
        if (BS->HandleProtocol(handles[i], &guid, (void **)&fvb) != EFI_SUCCESS || !fvb ||
            fvb->GetAttributes(fvb, &attr) != EFI_SUCCESS ||
            (attr & (FVB2_READ_STATUS | FVB2_MEMORY_MAPPED)) != (FVB2_READ_STATUS | FVB2_MEMORY_MAPPED) ||
            fvb->GetPhysicalAddress(fvb, &a) != EFI_SUCCESS) {
            unmapped++;
            continue;
        }
        bases[n++] = a;
    }
    BS->FreePool(handles);
    fwid_compute(bases, n, fwvol_map, NULL, id, NULL);
    id->bad += (unsigned)unmapped;
    if (!id->sha256[0] && unmapped)
        snprintf(id->why, sizeof id->why, "%zu firmware volumes, none readable in memory (not memory-mapped "
                 "or no address)", unmapped + n);
    if (timed) {
        uint32_t t1 = pmtimer_read(&pm), mask = pm.bits == 32 ? 0xFFFFFFFFu : 0xFFFFFFu;
        *ms = (double)((t1 - t0) & mask) * 1000.0 / PMTIMER_HZ;
    }
}
