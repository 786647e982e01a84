/*
 * bench/system/smbios.c - SMBIOS entry points and the system and BIOS structures
 * (DMTF DSP0134 3.x: 5.2 entry points, 6.1 structure format, 7.1 BIOS
 * information, 7.2 system information).  See smbios.h.
 */
#include <stdio.h>
#include <string.h>

#include "smbios.h"

/* DSP0134 5.2.1: the 2.1 (32-bit) entry point; 5.2.2: the 3.0 (64-bit) one. */
#define SM2_LEN_MIN     0x1F
#define SM3_LEN_MIN     0x18
#define TYPE_BIOS       0
#define TYPE_SYSTEM     1
#define TYPE_END        127
#define HEADER_LEN      4

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static int sum_ok(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    for (size_t i = 0; i < n; i++)
        s = (uint8_t)(s + p[i]);
    return s == 0;
}

int smbios_entry(const uint8_t *ep, size_t ep_len, uint64_t *table, size_t *table_len,
                 unsigned *major, unsigned *minor)
{
    if (ep_len >= SM3_LEN_MIN && !memcmp(ep, "_SM3_", 5)) {
        size_t n = ep[6];
        if (n < SM3_LEN_MIN || n > ep_len || !sum_ok(ep, n))
            return -1;
        *major = ep[7];
        *minor = ep[8];
        *table_len = le32(ep + 0x0C);      /* structure table maximum size */
        *table = le64(ep + 0x10);
        return 0;
    }
    if (ep_len >= SM2_LEN_MIN && !memcmp(ep, "_SM_", 4)) {
        size_t n = ep[5];
        if (n < SM2_LEN_MIN || n > ep_len || !sum_ok(ep, n) || memcmp(ep + 0x10, "_DMI_", 5))
            return -1;
        *major = ep[6];
        *minor = ep[7];
        *table_len = le16(ep + 0x16);
        *table = le32(ep + 0x18);
        return 0;
    }
    return -1;
}

/* String number k (1-based) of a structure: its strings follow the
 * formatted area, each NUL-terminated, the set ended by an empty one. */
static void sm_string(const uint8_t *strings, const uint8_t *end, unsigned k, char *out)
{
    out[0] = 0;
    if (!k)
        return;
    for (const uint8_t *p = strings; p < end && *p;) {
        const uint8_t *e = memchr(p, 0, (size_t)(end - p));
        if (!e)
            return;
        if (--k == 0) {
            size_t n = 0;
            for (; p < e && n + 1 < SMBIOS_TEXT; p++)
                out[n++] = *p >= 0x20 && *p < 0x7F ? (char)*p : '?';   /* printable ASCII only */
            while (n && out[n - 1] == ' ')
                n--;
            out[n] = 0;
            return;
        }
        p = e + 1;
    }
}

static void sm_uuid(const uint8_t *u, char *out)
{
    int zero = 1, ff = 1;
    for (int i = 0; i < 16; i++) {
        zero &= u[i] == 0;
        ff &= u[i] == 0xFF;
    }
    out[0] = 0;
    if (zero || ff)
        return;
    /* DSP0134 7.2.1: the first three fields are little-endian. */
    snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)le32(u), le16(u + 4),
             le16(u + 6), u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

void smbios_parse(const uint8_t *table, size_t table_len, struct smbios_info *out)
{
    const uint8_t *p = table, *end = table + table_len;
    unsigned major = out->major, minor = out->minor;
    memset(out, 0, sizeof *out);
    out->major = major;
    out->minor = minor;
    while (end - p >= HEADER_LEN) {
        unsigned type = p[0], len = p[1];
        if (len < HEADER_LEN || len > (size_t)(end - p))
            return;
        const uint8_t *strings = p + len, *next = strings;
        while (next + 1 < end && (next[0] || next[1]))      /* the double NUL */
            next++;
        if (next + 1 >= end)
            next = end;
        else
            next += 2;
        if (type == TYPE_BIOS && len >= 0x09) {
            sm_string(strings, next, p[0x04], out->bios_vendor);
            sm_string(strings, next, p[0x05], out->bios_version);
            sm_string(strings, next, p[0x08], out->bios_date);
        } else if (type == TYPE_SYSTEM && len >= 0x08) {
            out->found = 1;
            sm_string(strings, next, p[0x04], out->manufacturer);
            sm_string(strings, next, p[0x05], out->product);
            sm_string(strings, next, p[0x06], out->version);
            sm_string(strings, next, p[0x07], out->serial);
            if (len >= 0x18)
                sm_uuid(p + 0x08, out->uuid);
        } else if (type == TYPE_END)
            return;
        p = next;
    }
}

/* Whether s begins with w, letters of either case alike. */
static int sm_starts(const char *s, const char *w)
{
    for (; *w; s++, w++) {
        char a = *s >= 'A' && *s <= 'Z' ? (char)(*s + 32) : *s, b = *w >= 'A' && *w <= 'Z' ? (char)(*w + 32) : *w;
        if (a != b)
            return 0;
    }
    return 1;
}

const char *smbios_vm_maker(const struct smbios_info *in)
{
    /* Each virtual machine's own type 1 strings (manufacturer, and the
     * product where the manufacturer also makes real machines: Microsoft's
     * Surface, Google's Chromebooks). */
    static const struct { const char *maker, *product, *name; } known[] = {
        { "QEMU", NULL, "QEMU" },
        { "VMware", NULL, "VMware" },
        { "innotek GmbH", NULL, "VirtualBox" },
        { "Oracle Corporation", "VirtualBox", "VirtualBox" },
        { "Microsoft Corporation", "Virtual Machine", "Hyper-V" },
        { "Xen", NULL, "Xen" },
        { "Bochs", NULL, "Bochs" },
        { "Parallels", NULL, "Parallels" },
        { "BHYVE", NULL, "bhyve" },
        { "Red Hat", "KVM", "KVM" },
        { "Amazon EC2", NULL, "Amazon EC2" },
        { "Google", "Google Compute Engine", "Google Compute Engine" },
        { "OpenStack", NULL, "OpenStack" },
    };
    if (!in || !in->found)
        return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (sm_starts(in->manufacturer, known[i].maker) &&
            (!known[i].product || sm_starts(in->product, known[i].product)))
            return known[i].name;
    return NULL;
}
