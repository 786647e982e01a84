/*
 * tests/unit/test_smbios.c - bench/system/smbios.c on tables built here: a 3.0
 * and a 2.8 entry point (checksums, a wrong one refused), types 0 and 1
 * with their strings, the UUID's byte order (DSP0134 7.2.1: the first
 * three fields little-endian), an unset UUID, a string index past the
 * strings, non-printable bytes, and the table cut at every length (each
 * read stays in bounds: run under valgrind or ASan it would say so; here
 * the parse must end and never name more than the whole table does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smbios.h"

static size_t put(uint8_t *t, size_t k, const void *p, size_t n)
{
    memcpy(t + k, p, n);
    return k + n;
}

/* type 0 (BIOS), type 1 (system), type 127 (end). */
static size_t build_table(uint8_t *t, const uint8_t uuid[16], unsigned serial_index)
{
    size_t k = 0;
    uint8_t bios[0x12] = { 0, 0x12, 0x00, 0x00, 1, 2, 0, 0, 3 };
    k = put(t, k, bios, sizeof bios);
    static const char bs[] = "Vendor Co.\0" "1.23 \0" "11/25/2026\0";    /* + the literal's NUL */
    k = put(t, k, bs, sizeof bs);
    uint8_t sys[0x1B] = { 1, 0x1B, 0x01, 0x00, 1, 2, 3, (uint8_t)serial_index };
    memcpy(sys + 8, uuid, 16);
    k = put(t, k, sys, sizeof sys);
    static const char ss[] = "Maker\0" "Box \x01\0" "rev A\0" "SN-007\0";
    k = put(t, k, ss, sizeof ss);
    uint8_t end[4] = { 127, 4, 0x02, 0x00 };
    k = put(t, k, end, sizeof end);
    return put(t, k, "\0\0", 2);
}

static void entry3(uint8_t *ep, uint64_t addr, uint32_t len)
{
    memset(ep, 0, 0x18);
    memcpy(ep, "_SM3_", 5);
    ep[6] = 0x18;
    ep[7] = 3;
    ep[8] = 2;
    memcpy(ep + 0x0C, &len, 4);
    memcpy(ep + 0x10, &addr, 8);
    uint8_t s = 0;
    for (int i = 0; i < 0x18; i++)
        s = (uint8_t)(s + ep[i]);
    ep[5] = (uint8_t)-s;
}

int main(void)
{
    static const uint8_t uuid[16] = { 0xba, 0x28, 0x4e, 0x1b, 0xa1, 0x2f, 0xd2, 0x11,
                                      0x88, 0x3f, 0x00, 0x16, 0xd3, 0xcc, 0xa4, 0x27 };
    uint8_t t[256], ep[32];
    size_t n = build_table(t, uuid, 4);
    struct smbios_info in;
    uint64_t addr;
    size_t len;
    unsigned maj, min;

    entry3(ep, 0x12345678u, (uint32_t)n);
    CHECK(smbios_entry(ep, sizeof ep, &addr, &len, &maj, &min) == 0 && addr == 0x12345678u && len == n &&
              maj == 3 && min == 2, "3.0 entry point: table address, maximum size, version");
    ep[9] ^= 1;
    CHECK(smbios_entry(ep, sizeof ep, &addr, &len, &maj, &min) == -1, "a wrong checksum is refused");
    memcpy(ep, "_XX_", 4);
    CHECK(smbios_entry(ep, sizeof ep, &addr, &len, &maj, &min) == -1, "no anchor: refused");

    smbios_parse(t, n, &in);
    CHECK(in.found, "the system structure is found");
    CHECK_STR(in.uuid, "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "UUID: first three fields little-endian");
    CHECK_STR(in.manufacturer, "Maker", "manufacturer");
    CHECK_STR(in.product, "Box ?", "product: a control byte is '?'");
    CHECK_STR(in.serial, "SN-007", "serial");
    CHECK_STR(in.bios_vendor, "Vendor Co.", "BIOS vendor");
    CHECK_STR(in.bios_version, "1.23", "BIOS version, trailing blank dropped");
    CHECK_STR(in.bios_date, "11/25/2026", "BIOS date");

    static const uint8_t zero[16];
    n = build_table(t, zero, 9);
    smbios_parse(t, n, &in);
    CHECK(in.found && in.uuid[0] == 0 && in.serial[0] == 0, "UUID all zero: not set; a string index past the strings: empty");

    n = build_table(t, uuid, 4);
    int ok = 1;
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, t, cut);
        smbios_parse(c, cut, &in);
        if (in.found && strlen(in.serial) > strlen("SN-007"))
            ok = 0;
        free(c);
    }
    CHECK(ok, "the table cut at every length: each parse ends and reads nothing past the cut");

    /* Virtual machines by their type 1 strings, as each product publishes
     * them (QEMU's defaults, VMware's, VirtualBox's, Hyper-V's, Xen HVM's,
     * EC2's and GCE's), and real machines whose makers also make VMs. */
    static const struct { const char *maker, *product, *want; } vm[] = {
        { "QEMU", "Standard PC (Q35 + ICH9, 2009)", "QEMU" },
        { "QEMU", "Standard PC (i440FX + PIIX, 1996)", "QEMU" },
        { "VMware, Inc.", "VMware Virtual Platform", "VMware" },
        { "innotek GmbH", "VirtualBox", "VirtualBox" },
        { "Microsoft Corporation", "Virtual Machine", "Hyper-V" },
        { "Microsoft Corporation", "Surface Pro 7", NULL },
        { "Xen", "HVM domU", "Xen" },
        { "Amazon EC2", "m5.large", "Amazon EC2" },
        { "Google", "Google Compute Engine", "Google Compute Engine" },
        { "Google", "Eve", NULL },
        { "Dell Inc.", "PowerEdge R740", NULL },
        { "", "", NULL },
    };
    for (size_t i = 0; i < sizeof vm / sizeof vm[0]; i++) {
        struct smbios_info m = { .found = 1 };
        snprintf(m.manufacturer, sizeof m.manufacturer, "%s", vm[i].maker);
        snprintf(m.product, sizeof m.product, "%s", vm[i].product);
        const char *got = smbios_vm_maker(&m);
        char what[160];
        snprintf(what, sizeof what, "\"%s\" \"%s\": %s (got %s)", vm[i].maker, vm[i].product,
                 vm[i].want ? vm[i].want : "not a known virtual machine", got ? got : "none");
        CHECK(vm[i].want ? got && !strcmp(got, vm[i].want) : !got, what);
    }
    struct smbios_info none = { .found = 0 };
    snprintf(none.manufacturer, sizeof none.manufacturer, "QEMU");
    CHECK(!smbios_vm_maker(&none) && !smbios_vm_maker(NULL), "no system structure: no virtual machine named");
    return check_done();
}
