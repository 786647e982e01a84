/*
 * kernel/pmtimer.c - the ACPI PM timer (see pmtimer.h).
 */
#include <stdint.h>

#include "io.h"
#include "pmtimer.h"

/* reads to wait for the counter to move: longer than one tick (279 ns) even
 * where a read costs a few ns (QEMU -icount) */
#define PMTIMER_PROBE_READS 10000

uint32_t pmtimer_read(const struct pmtimer *p)
{
    uint32_t v = inl(p->port);
    return p->bits == 32 ? v : v & 0xFFFFFFu;
}

int pmtimer_open(struct pmtimer *p, uint32_t port, int is_32bit, const char **why)
{
    uint32_t first;

    if (port == 0 || port > 0xFFFF) {
        *why = "the FADT gives no I/O port for it";
        return -1;
    }
    p->port = (uint16_t)port;
    p->bits = is_32bit ? 32 : 24;
    first = pmtimer_read(p);
    for (int i = 0; i < PMTIMER_PROBE_READS; i++)
        if (pmtimer_read(p) != first)
            return 0;
    *why = "its counter does not count";
    return -1;
}
