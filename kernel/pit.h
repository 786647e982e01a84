/*
 * kernel/pit.h - the 8254 programmable interval timer, channel 2, as a
 * free-running reference counter.  Channel 2 is gated by bit 0 of port 0x61
 * (the speaker's port), so it counts with no interrupt at all; the speaker
 * itself (bit 1) stays off.  Channel 0 (the firmware's timer, perhaps) is
 * never touched.
 */
#ifndef BAREMARK_PIT_H
#define BAREMARK_PIT_H

#include <stdint.h>

/* The PIT's input clock rounded to the hertz, as Linux's PIT_TICK_RATE and
 * QEMU's PIT_FREQ have it.  The crystal's rate is 105/88 MHz = 1193181.818 Hz;
 * the clock takes one or the other (bench/clock/clock_math.h, clockm_legacy_rates). */
#define PIT_HZ 1193182u
/* Channel 2 counts down through 16 bits and wraps: 65536 ticks = 54.9 ms. */
#define PIT_BITS 16

/* Program channel 2 (mode 0, reload 0xFFFF, gate on, speaker off) after
 * saving port 0x61.  Returns 0 when the counter is seen to move, -1 when it
 * stands still (no PIT, or its clock gated off), with port 0x61 restored. */
int pit_start(void);
/* Latch and read channel 2's count (counting down). */
uint32_t pit_read(void);
/* Put port 0x61 back as pit_start found it. */
void pit_stop(void);

#endif
