/*
 * bench/plugins/pe_image.c - the PE32+ checks of a plug-in file (see pe_image.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pe_image.h"
#include "sha256.h"

#define PE_DOS_LFANEW      0x3C
#define PE_COFF_SIZE       20      /* after "PE\0\0" */
#define PE_OPT_MAGIC       0
#define PE_OPT_IMAGE_SIZE  56
#define PE_OPT_HDR_SIZE    60
#define PE_OPT_SUBSYSTEM   68
#define PE_OPT_MIN         70      /* through the subsystem */
#define PE_SECTION_SIZE    40
#define PE_SEC_RAW_SIZE    16
#define PE_SEC_RAW_OFFSET  20

static uint16_t pe_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t pe_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int pe_fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int pe_fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *pe_subsystem_name(unsigned s)
{
    switch (s) {
    case PE_SUBSYSTEM_EFI_APP: return "a UEFI application";
    case PE_SUBSYSTEM_EFI_RT_DRV: return "a UEFI runtime driver";
    case 1: return "a native (non-UEFI) image";
    case 2: case 3: return "a Windows program";
    default: return "an image of an unknown subsystem";
    }
}

int pe_check_plugin(const void *buf, size_t n, struct pe_info *info, char *why, size_t why_size)
{
    const uint8_t *b = buf;
    struct pe_info dummy;
    info = info ? info : &dummy;
    memset(info, 0, sizeof *info);
    if (n < 2 || b[0] != 'M' || b[1] != 'Z')
        return pe_fail(why, why_size, "not a UEFI image: %s", n == 0 ? "the file is empty"
                       : "no \"MZ\" signature at its start");
    if (n < PE_DOS_LFANEW + 4)
        return pe_fail(why, why_size, "truncated: %zu bytes, shorter than the DOS header (64 bytes)", n);
    uint64_t pe = pe_u32(b + PE_DOS_LFANEW);
    if (pe + 4 + PE_COFF_SIZE > n)
        return pe_fail(why, why_size, "truncated: %zu bytes, the PE header is at byte %llu", n, (unsigned long long)pe);
    if (memcmp(b + pe, "PE\0\0", 4))
        return pe_fail(why, why_size, "not a UEFI image: no \"PE\" signature at byte %llu", (unsigned long long)pe);
    const uint8_t *coff = b + pe + 4;
    info->machine = pe_u16(coff);
    info->sections = pe_u16(coff + 2);
    uint64_t opt_size = pe_u16(coff + 16), opt = pe + 4 + PE_COFF_SIZE;
    if (info->machine != PE_MACHINE_X64)
        return pe_fail(why, why_size, "not an x86-64 image: machine 0x%04x (x86-64 is 0x8664)", info->machine);
    if (opt_size < PE_OPT_MIN)
        return pe_fail(why, why_size, "not a UEFI image: optional header of %llu bytes", (unsigned long long)opt_size);
    uint64_t sec = opt + opt_size, sec_end = sec + (uint64_t)info->sections * PE_SECTION_SIZE;
    info->needed = sec_end;
    if (sec_end > n)
        return pe_fail(why, why_size, "truncated: %zu bytes, the headers need %llu", n, (unsigned long long)sec_end);
    if (pe_u16(b + opt + PE_OPT_MAGIC) != PE_MAGIC_PE32PLUS)
        return pe_fail(why, why_size, "not a PE32+ (64-bit) image: optional header magic 0x%x",
                       pe_u16(b + opt + PE_OPT_MAGIC));
    info->image_size = pe_u32(b + opt + PE_OPT_IMAGE_SIZE);
    info->subsystem = pe_u16(b + opt + PE_OPT_SUBSYSTEM);
    uint64_t hdr = pe_u32(b + opt + PE_OPT_HDR_SIZE);
    if (hdr > info->needed)
        info->needed = hdr;
    for (unsigned i = 0; i < info->sections; i++) {
        const uint8_t *s = b + sec + (uint64_t)i * PE_SECTION_SIZE;
        uint64_t end = (uint64_t)pe_u32(s + PE_SEC_RAW_OFFSET) + pe_u32(s + PE_SEC_RAW_SIZE);
        if (pe_u32(s + PE_SEC_RAW_SIZE) && end > info->needed)
            info->needed = end;
    }
    if (info->needed > n) {
        return pe_fail(why, why_size, "truncated: %zu bytes, its headers and sections need %llu",
                       n, (unsigned long long)info->needed);
    }
    if (info->subsystem != PE_SUBSYSTEM_EFI_BOOT_DRV)
        return pe_fail(why, why_size, "%s (subsystem %u), not a boot-service driver (11): build plug-ins "
                       "with tools/baremark-plugin", pe_subsystem_name(info->subsystem), info->subsystem);
    why[0] = 0;
    return 0;
}

/* The certificate table (Authenticode signatures, PE/COFF "The Attribute
 * Certificate Table"): data directory 4 of the optional header; its
 * "address" is a file offset.  The directories of a PE32+ image start at
 * byte 112 of the optional header, after NumberOfRvaAndSizes at 108. */
#define PE_OPT_DIR_COUNT   108
#define PE_OPT_DIRS        112
#define PE_DIR_SIZE        8
#define PE_DIR_SECURITY    4

int64_t pe_signature_bytes(const void *buf, size_t n)
{
    const uint8_t *b = buf;
    if (n < PE_DOS_LFANEW + 4 || b[0] != 'M' || b[1] != 'Z')
        return -1;
    uint64_t pe = pe_u32(b + PE_DOS_LFANEW), opt = pe + 4 + PE_COFF_SIZE;
    if (opt + PE_OPT_MAGIC + 2 > n || memcmp(b + pe, "PE\0\0", 4) ||
        pe_u16(b + opt + PE_OPT_MAGIC) != PE_MAGIC_PE32PLUS)
        return -1;
    uint64_t opt_size = pe_u16(b + pe + 4 + 16);
    uint64_t dir = opt + PE_OPT_DIRS + (uint64_t)PE_DIR_SECURITY * PE_DIR_SIZE;
    /* An optional header that stops before the certificate directory has
     * none: not signed, however short the file (a 158-byte driver broke
     * the invariant of tests/fuzz/fuzz_pe_image.c: this once said -1). */
    if (dir + PE_DIR_SIZE > opt + opt_size)
        return 0;
    if (dir + PE_DIR_SIZE > n)
        return -1;                /* the header itself is cut off */
    if (pe_u32(b + opt + PE_OPT_DIR_COUNT) <= PE_DIR_SECURITY)
        return 0;                 /* no such directory: nothing signed */
    uint64_t at = pe_u32(b + dir), size = pe_u32(b + dir + 4);
    if (size && at + size > n)
        return -1;                /* a table past the end: a cut-off copy */
    return (int64_t)size;
}

/* Authenticode's image hash (Microsoft, "Windows Authenticode Portable
 * Executable Signature Format"; what UEFI 2.10 32.2.3 and db/dbx hash entries
 * use): the headers without the checksum and the certificate directory
 * entry, each section's raw data in file order, then any data after the
 * sections except the certificate table. */
#define PE_OPT_CHECKSUM    64
#define PE_AUTH_SECTIONS   96      /* the PE/COFF limit on sections */

static int pe_span(struct sha256 *h, const uint8_t *b, size_t n, uint64_t from, uint64_t to)
{
    if (from > to || to > n)
        return -1;
    sha256_update(h, b + from, (size_t)(to - from));
    return 0;
}

int pe_authenticode_sha256(const void *buf, size_t n, uint8_t out[SHA256_DIGEST])
{
    const uint8_t *b = buf;
    int64_t cert = pe_signature_bytes(buf, n);
    if (cert < 0)
        return -1;
    uint64_t pe = pe_u32(b + PE_DOS_LFANEW), opt = pe + 4 + PE_COFF_SIZE;
    uint64_t opt_size = pe_u16(b + pe + 4 + 16), nsec = pe_u16(b + pe + 4 + 2);
    /* The header must hold the certificate directory before anything past
     * the magic is read: pe_signature_bytes vouches for that much only then. */
    if (opt_size < PE_OPT_DIRS + (PE_DIR_SECURITY + 1) * PE_DIR_SIZE)
        return -1;
    uint64_t sec = opt + opt_size, hdr = pe_u32(b + opt + PE_OPT_HDR_SIZE);
    uint64_t dir = opt + PE_OPT_DIRS + (uint64_t)PE_DIR_SECURITY * PE_DIR_SIZE;
    if (nsec > PE_AUTH_SECTIONS || sec + nsec * PE_SECTION_SIZE > hdr || hdr > n)
        return -1;
    unsigned order[PE_AUTH_SECTIONS], k = 0;
    for (unsigned i = 0; i < nsec; i++) {          /* insertion sort by raw offset */
        const uint8_t *s = b + sec + (uint64_t)i * PE_SECTION_SIZE;
        if (!pe_u32(s + PE_SEC_RAW_SIZE))
            continue;
        unsigned j = k++;
        while (j > 0 && pe_u32(b + sec + (uint64_t)order[j - 1] * PE_SECTION_SIZE + PE_SEC_RAW_OFFSET)
                            > pe_u32(s + PE_SEC_RAW_OFFSET)) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    struct sha256 h;
    sha256_init(&h);
    uint64_t sum = hdr;
    if (pe_span(&h, b, n, 0, opt + PE_OPT_CHECKSUM) || pe_span(&h, b, n, opt + PE_OPT_CHECKSUM + 4, dir) ||
        pe_span(&h, b, n, dir + PE_DIR_SIZE, hdr))
        return -1;
    for (unsigned i = 0; i < k; i++) {
        const uint8_t *s = b + sec + (uint64_t)order[i] * PE_SECTION_SIZE;
        uint64_t at = pe_u32(s + PE_SEC_RAW_OFFSET), size = pe_u32(s + PE_SEC_RAW_SIZE);
        if (pe_span(&h, b, n, at, at + size))
            return -1;
        sum += size;
    }
    /* trailing data (a COFF symbol table objcopy leaves): up to the table */
    if (n > sum + (uint64_t)cert && pe_span(&h, b, n, sum, n - (uint64_t)cert))
        return -1;
    sha256_final(&h, out);
    return 0;
}
