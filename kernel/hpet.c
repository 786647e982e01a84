/*
 * kernel/hpet.c - the HPET main counter (see hpet.h).  Register offsets and
 * fields: IA-PC HPET specification 1.0a, section 2.3.
 */
#include <stdint.h>

#include "hpet.h"
#include "io.h"

#define HPET_REG_CAPS         0x000   /* General Capabilities and ID */
#define HPET_REG_CONFIG       0x010   /* General Configuration */
#define HPET_REG_COUNTER      0x0F0   /* Main Counter Value */
#define HPET_CAPS_64BIT       (1u << 13)    /* COUNT_SIZE_CAP */
#define HPET_CONFIG_ENABLE    1u            /* ENABLE_CNF */
#define HPET_MAX_PERIOD_FS    100000000u    /* 100 ns: the specification's limit */
/* reads to wait for the counter to move once started */
#define HPET_PROBE_READS      10000

int hpet_open(struct hpet *h, uint64_t base, const char **why)
{
    uint32_t caps_lo, first;

    h->base = (uintptr_t)base;
    h->was_halted = 0;
    caps_lo = mmio_read32(h->base + HPET_REG_CAPS);
    h->period_fs = mmio_read32(h->base + HPET_REG_CAPS + 4);
    if (caps_lo == 0xFFFFFFFFu && h->period_fs == 0xFFFFFFFFu) {
        *why = "nothing answers at its address";
        return -1;
    }
    if (h->period_fs == 0 || h->period_fs > HPET_MAX_PERIOD_FS) {
        *why = "its counter period is outside 0..100 ns";
        return -1;
    }
    h->counter_64bit = !!(caps_lo & HPET_CAPS_64BIT);
    h->vendor_id = caps_lo >> 16;
    if (!(mmio_read32(h->base + HPET_REG_CONFIG) & HPET_CONFIG_ENABLE)) {
        h->was_halted = 1;
        mmio_write32(h->base + HPET_REG_CONFIG,
                     mmio_read32(h->base + HPET_REG_CONFIG) | HPET_CONFIG_ENABLE);
    }
    first = hpet_read(h);
    for (int i = 0; i < HPET_PROBE_READS; i++)
        if (hpet_read(h) != first)
            return 0;
    hpet_close(h);
    *why = "its main counter does not count";
    return -1;
}

double hpet_hz(const struct hpet *h)
{
    return 1e15 / (double)h->period_fs;
}

uint32_t hpet_read(const struct hpet *h)
{
    return mmio_read32(h->base + HPET_REG_COUNTER);
}

void hpet_close(struct hpet *h)
{
    if (!h->was_halted)
        return;
    mmio_write32(h->base + HPET_REG_CONFIG,
                 mmio_read32(h->base + HPET_REG_CONFIG) & ~HPET_CONFIG_ENABLE);
    h->was_halted = 0;
}
