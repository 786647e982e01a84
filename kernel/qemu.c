/*
 * kernel/qemu.c - isa-debug-exit and fw_cfg (QEMU docs/specs/fw_cfg.rst).
 */
#include <string.h>

#include "io.h"
#include "qemu.h"

#define FWCFG_PORT_SEL   0x510
#define FWCFG_PORT_DATA  0x511
#define FWCFG_SIGNATURE  0x0000
#define FWCFG_FILE_DIR   0x0019
#define FWCFG_NAME_LEN   56

void qemu_debug_exit(uint8_t status) { outb(QEMU_DEBUG_EXIT_PORT, status); }

static void fwcfg_read(uint16_t sel, void *buf, size_t n)
{
    uint8_t *p = buf;
    outw(FWCFG_PORT_SEL, sel);
    for (size_t i = 0; i < n; i++)
        p[i] = inb(FWCFG_PORT_DATA);
}

/* Continue reading the currently selected item. */
static void fwcfg_read_more(void *buf, size_t n)
{
    uint8_t *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = inb(FWCFG_PORT_DATA);
}

static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]; }

int fwcfg_present(void)
{
    char sig[4];
    fwcfg_read(FWCFG_SIGNATURE, sig, 4);
    return memcmp(sig, "QEMU", 4) == 0;
}

int fwcfg_read_file(const char *name, char *buf, size_t n)
{
    uint8_t hdr[4], ent[64];

    if (!n || !fwcfg_present())
        return -1;
    fwcfg_read(FWCFG_FILE_DIR, hdr, 4);
    for (uint32_t i = 0, count = be32(hdr); i < count; i++) {
        fwcfg_read_more(ent, sizeof ent);
        if (strncmp((char *)ent + 8, name, FWCFG_NAME_LEN))
            continue;
        uint32_t size = be32(ent);
        uint16_t sel = (uint16_t)(ent[4] << 8 | ent[5]);
        size_t len = size < n - 1 ? size : n - 1;
        fwcfg_read(sel, buf, len);
        buf[len] = 0;
        return (int)len;
    }
    return -1;
}
