/*
 * bench/clock/clock.h - the TSC calibrated against every fixed-frequency
 * reference the platform has: HPET, ACPI PM timer, PIT channel 2 (measured),
 * CPUID 0x15 and 0x16 (stated by the CPU).
 *
 * clock_run is the clock section (bench/section.h):
 *  1. find the references (ACPI tables, CPUID) and say why each missing one is
 *     missing;
 *  2. in a quiet phase (bench/system/quiet.h: firmware timer stopped), calibrate
 *     against each measured reference: CLOCK_SHORT_WINDOWS short windows,
 *     then one refined window of at least CLOCK_REFINED_MS shared by all of
 *     them, interrupts masked in every window; each window starts and ends
 *     on an edge of the reference's counter, and each edge is bracketed by
 *     TSC reads, so a slow read (an SMI, an emulator exit) is seen and the
 *     edge retried;
 *  3. per reference, the tightest window that agrees with the others (bench/
 *     clock_math.h): kHz and its uncertainty in ppm; pairwise disagreement;
 *  4. the chosen frequency (order of trust below), plat_set_tick_hz, then the
 *     quiet-machine check (bench/system/quiet.h) at that rate.
 *
 * Order of trust (most trusted first), and why:
 *   hpet      finest resolution (QEMU: 10 ns; hardware: about 70 ns), one
 *             MMIO read, a 32-bit count that never wraps inside a window;
 *   pm_timer  279 ns resolution, one I/O read, fixed by the ACPI spec;
 *   pit       838 ns resolution, three I/O accesses a read, a 16-bit count
 *             that wraps every 55 ms;
 *   cpuid_15  stated, not measured: exact ratio to a crystal whose actual
 *             frequency (and its tolerance) nobody measured here;
 *   cpuid_16  stated in whole MHz, the CPU's nominal base frequency.
 * A measured reference is taken only if it agrees (CLOCKM_AGREE_PPM) with at
 * least as many of the other measured references as it disagrees with.
 */
#ifndef BAREMARK_CLOCK_H
#define BAREMARK_CLOCK_H

#include <stdint.h>

/* Short windows per reference, and their length by the reference. */
#define CLOCK_SHORT_WINDOWS 4
#define CLOCK_SHORT_MS      10
/* The refined window: at least this long by every reference. */
#define CLOCK_REFINED_MS    250
/* The whole calibration should take less than this. */
#define CLOCK_BUDGET_MS     1000

/* MSRs read around calibration and measurements, where the CPU has them. */
#define CLOCK_MSR_SMI_COUNT 0x34   /* Intel MSR_SMI_COUNT (Nehalem and later) */
#define CLOCK_MSR_MPERF     0xE7   /* IA32_MPERF (CPUID.6:ECX bit 0) */
#define CLOCK_MSR_APERF     0xE8   /* IA32_APERF */

struct clock_msrs {
    int smi_ok, aperf_ok;          /* the CPU has them and the reads worked */
    uint64_t smi, aperf, mperf;
};

struct section_ctx;

/* The clock section: calibrate, set the run's TSC frequency
 * (plat_set_tick_hz), the quiet-machine check, the "clock" results member.
 * Returns SECTION_OK, or SECTION_WARNINGS when no reference gave a rate. */
int clock_run(const struct section_ctx *ctx);

/* Read the SMI count and APERF/MPERF through cpu_rdmsr_safe (a CPU without
 * them never faults the run).  Call with the exception handlers installed. */
void clock_msrs_read(struct clock_msrs *m);

#endif
