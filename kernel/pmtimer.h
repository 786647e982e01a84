/*
 * kernel/pmtimer.h - the ACPI power-management timer as a reference counter:
 * a free-running 24- or 32-bit up-counter at 3.579545 MHz in I/O space (ACPI
 * specification, section 4.8.3.3 "Power Management Timer").  The 24-bit
 * counter wraps every 4.69 s.
 */
#ifndef BAREMARK_PMTIMER_H
#define BAREMARK_PMTIMER_H

#include <stdint.h>

/* The ACPI PM timer's rate rounded to the hertz (QEMU's PM_TIMER_FREQUENCY);
 * the crystal's is 315/88 MHz = 3579545.454 Hz.  The clock takes one or the
 * other (bench/clock/clock_math.h, clockm_legacy_rates). */
#define PMTIMER_HZ 3579545u

struct pmtimer {
    uint16_t port;           /* FADT PM_TMR_BLK / X_PM_TMR_BLK */
    unsigned bits;           /* 24 or 32 (FADT TMR_VAL_EXT) */
};

/* Check that the counter moves.  Returns 0, or -1 with *why set. */
int pmtimer_open(struct pmtimer *p, uint32_t port, int is_32bit, const char **why);
/* The counter, masked to its width. */
uint32_t pmtimer_read(const struct pmtimer *p);

#endif
