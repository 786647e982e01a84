/*
 * kernel/hpet.h - the HPET's main counter as a reference counter (IA-PC HPET
 * specification 1.0a).  Only the low 32 bits are read: one MMIO access, no
 * torn 64-bit read, and 32 bits last at least 42 s at the fastest period the
 * specification allows (1 tick per 10 ns is what QEMU gives) - far longer
 * than any calibration window.
 */
#ifndef BAREMARK_HPET_H
#define BAREMARK_HPET_H

#include <stdint.h>

#define HPET_BITS 32

struct hpet {
    uintptr_t base;          /* MMIO base from the ACPI HPET table */
    uint32_t period_fs;      /* counter period, femtoseconds (capabilities) */
    int counter_64bit;       /* COUNT_SIZE_CAP */
    uint32_t vendor_id;      /* capabilities bits 31:16 */
    int was_halted;          /* ENABLE_CNF was clear: hpet_close clears it again */
};

/* Check the block at `base` (capabilities readable, period within the
 * specification's 0 < period <= 100 ns) and start the main counter if it is
 * halted.  Returns 0, or -1 with *why set to a short reason. */
int hpet_open(struct hpet *h, uint64_t base, const char **why);
/* Counting frequency in Hz (10^15 / period). */
double hpet_hz(const struct hpet *h);
/* Low 32 bits of the main counter. */
uint32_t hpet_read(const struct hpet *h);
/* Halt the counter again if hpet_open started it. */
void hpet_close(struct hpet *h);

#endif
