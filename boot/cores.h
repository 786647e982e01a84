/*
 * boot/cores.h - the cores section: every logical CPU, started through the
 * firmware's MP Services protocol (boot/mp.h).
 *
 *  1. the list: processor number, APIC ID, package/core/thread from the
 *     firmware and from CPUID (0x1F or 0xB), the hybrid core type (0x1A);
 *  2. the TSC of every CPU against the bootstrap processor's: a warp check
 *     (largest backward step under a lock), the offset bounded by round
 *     trips (interval and its half-width), and the rate of every CPU's TSC
 *     against the same reference counter (HPET, else the ACPI PM timer);
 *  3. the round trip of a cache line between every pair of CPUs (min and
 *     median): a matrix;
 *  4. BYTEmark tests on each CPU in turn, then on all of them at once
 *     (the sum and its ratio to one core).
 * It runs after the clock section (it needs the calibrated TSC rate).
 * Settings (bench/config.h): CORES (which CPUs; the bootstrap processor,
 * the TSC reference and the driver, always takes part), SMP (which parts),
 * SMPTESTS (which BYTEmark tests), SMPTIMEOUT (how long an AP may take to
 * answer or to finish one piece of work before it is reported and left).
 */
#ifndef BAREMARK_CORES_H
#define BAREMARK_CORES_H

#include <stdint.h>

#include "acpi.h"
#include "config.h"

/* Disagreement worth a warning. */
#define CORES_SKEW_BOUND_NS   1000.0   /* the offset interval lies wholly beyond +-1 us */
#define CORES_RATE_BOUND_PPM  100.0    /* a CPU's TSC rate beyond 100 ppm of the BSP's
                                        * (beyond its uncertainty) */

/* Defaults of the measurements (quick enough for a boot under QEMU). */
#define CORES_WARP_LOOPS       2000    /* lock turns per CPU */
#define CORES_PING_SAMPLES     500     /* round trips each way per CPU */
#define CORES_RATE_WINDOW_MS   20      /* per CPU, by the reference */
#define CORES_BOUNCE_SAMPLES   100     /* samples per pair ... */
#define CORES_BOUNCE_TRIPS     8       /* ... of this many round trips each */
#define CORES_STACK_BYTES      (256u * 1024)
#define CORES_ARENA_BYTES      (8u * 1024 * 1024)

struct section_ctx;
/* The section (bench/sections.c). */
int cores_run(const struct section_ctx *ctx);

#endif
