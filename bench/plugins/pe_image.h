/*
 * bench/plugins/pe_image.h - a look at a file before the firmware loads it: is it a
 * whole PE32+ image for x86-64 of the kind a plug-in must be (a UEFI
 * boot-service driver)?  The firmware's LoadImage would refuse a bad file
 * too, but only with a status code; this says what is wrong with it, in
 * words a person can act on ("truncated: ...").  Portable: bounds-checked
 * reads of a buffer, no firmware.
 *
 * Layout (Microsoft PE/COFF specification): "MZ" at 0, the offset of the
 * PE header at 0x3C; "PE\0\0", the COFF header (machine, sections, size of
 * the optional header), the optional header (magic 0x20B for PE32+, the
 * image size at 56, the headers' size at 60, the subsystem at 68), then the
 * section table, 40 bytes a section (raw size at 16, raw offset at 20).
 */
#ifndef BAREMARK_PE_IMAGE_H
#define BAREMARK_PE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define PE_MACHINE_X64             0x8664
#define PE_MAGIC_PE32PLUS          0x20B
#define PE_SUBSYSTEM_EFI_APP       10
#define PE_SUBSYSTEM_EFI_BOOT_DRV  11
#define PE_SUBSYSTEM_EFI_RT_DRV    12

struct pe_info {
    uint16_t machine, subsystem, sections;
    uint32_t image_size;          /* SizeOfImage: memory the loaded image takes */
    uint64_t needed;              /* bytes of file the headers and sections need */
};

/* 0 when buf[0..n-1] is a whole PE32+ x86-64 UEFI boot-service driver;
 * otherwise -1 and one line in why ("not a UEFI image: ...", "truncated:
 * ...", "a UEFI application, not a boot-service driver ...").  info is
 * filled as far as the file could be read (may be NULL). */
int pe_check_plugin(const void *buf, size_t n, struct pe_info *info, char *why, size_t why_size);

/* Bytes of the image's Authenticode certificate table (data directory 4):
 * > 0 when the file carries a signature (sbsign's), 0 when it does not, -1
 * when buf is not a whole PE32+ image or the table lies past its end.  Says
 * nothing about whether the signature is valid or trusted: the firmware
 * decides that. */
int64_t pe_signature_bytes(const void *buf, size_t n);

/* The image's Authenticode SHA-256 (what a db or dbx hash entry, efitools'
 * hash-to-efi-sig-list and a TPM's PCR 4 event record): 0, or -1 when buf
 * is not a whole PE32+ image. */
int pe_authenticode_sha256(const void *buf, size_t n, uint8_t out[SHA256_DIGEST]);

#endif
