/*
 * bench/clock/clock_math.h - the arithmetic of TSC calibration, kept apart from the
 * hardware (bench/clock/clock_calib.c) so the host can test it: counter wrap, one
 * window's frequency and uncertainty, which windows to keep, how far two
 * references disagree and which reference the run trusts.  Pure: no I/O, no
 * globals, no allocation.
 *
 * A window is bounded by two edges of the reference counter.  At each edge the
 * TSC is known only to lie inside an interval [lo, hi]: lo is the TSC read
 * just before the last read that still saw the old count, hi the TSC read
 * just after the first read that saw the new count.  The edge is taken at the
 * middle of its interval, so its error is at most half the interval.
 */
#ifndef BAREMARK_CLOCK_MATH_H
#define BAREMARK_CLOCK_MATH_H

#include <stddef.h>
#include <stdint.h>

/* How far a window may sit from the median window before it is dropped as
 * disturbed, in units of the two windows' own uncertainties added. */
#define CLOCKM_REJECT_SIGMAS 3.0
/* Two references whose frequencies differ by more than this disagree: the
 * target of Linux's quick PIT calibration (arch/x86/kernel/tsc.c). */
#define CLOCKM_AGREE_PPM 500.0

/* Ticks a counter of `bits` width (1..64) advanced from `prev` to `cur`,
 * counting up, or down when `down` is set; correct while less than one full
 * wrap passed between the two reads. */
uint64_t clockm_counter_delta(uint64_t prev, uint64_t cur, unsigned bits, int down);

/* One calibration window against a reference counting at ref_hz. */
struct clockm_window {
    uint64_t tsc0_lo, tsc0_hi;  /* TSC interval holding the first edge */
    uint64_t tsc1_lo, tsc1_hi;  /* ... and the last edge */
    uint64_t ref_ticks;         /* reference ticks between the two edges */
    double ref_hz;              /* the reference's nominal frequency */
    /* filled by clockm_window_eval */
    double khz;                 /* TSC frequency, kHz */
    double ppm;                 /* its uncertainty from the two edge intervals */
    double ms;                  /* window length by the reference, ms */
    int rejected;               /* set by clockm_pick_window */
};

/* Frequency, uncertainty and length of a window.  Returns 0, or -1 (khz
 * and ppm NaN) when the window is empty or its edges are out of order. */
int clockm_window_eval(struct clockm_window *w);

/* Among n evaluated windows of one reference (n <= 64): mark as rejected
 * each window farther from the median than CLOCKM_REJECT_SIGMAS x (its ppm +
 * the median's ppm: the middle window's, or for an even count the larger of
 * the two middle windows' plus half their spread), then return the index of the kept window with the smallest
 * uncertainty (ties: the later window), or -1 when none is kept.  This is
 * the "min of windows" rule: disturbances only widen a window's edge
 * intervals or move it off the others, so the tightest consistent window is
 * the best estimate. */
int clockm_pick_window(struct clockm_window *w, size_t n);

/* Median of n values (n >= 1); sorts a copy in scratch[n]. */
double clockm_median(const double *x, size_t n, double *scratch);

/* Disagreement of frequency a from frequency b, in ppm of b. */
double clockm_ppm(double a, double b);

/* A reference's result, as the choice sees it.  The array given to
 * clockm_choose is in the order of trust, most trusted first. */
struct clockm_ref {
    const char *name;
    int valid;          /* it produced a frequency */
    int measured;       /* measured against the TSC (else stated by CPUID) */
    double khz, ppm;
};

/* The reference to take the TSC frequency from: the most trusted valid
 * measured reference that agrees (within agree_ppm) with at least as many
 * other valid measured references as it disagrees with; when measured
 * references exist but none passes that vote, the most trusted measured one
 * (and *contested = 1); when none was measured, the most trusted valid
 * stated one.  Returns its index, or -1 when nothing is valid. */
int clockm_choose(const struct clockm_ref *r, size_t n, double agree_ppm, int *contested);

/* The PIT and the ACPI PM timer count fractions of the PC's 14.31818 MHz
 * crystal (315/22 MHz): the PIT a twelfth, 105/88 MHz = 1193181.818 Hz, the
 * PM timer a quarter, 315/88 MHz = 3579545.454 Hz.  QEMU emulates both at
 * the rounded rates 1193182 and 3579545 Hz (its PIT_FREQ and
 * PM_TIMER_FREQUENCY, and KVM's in-kernel PIT, KVM_PIT_FREQ): taking one
 * for the other biases a reference by +0.152 or -0.127 ppm. */
#define CLOCKM_PIT_CRYSTAL_HZ (105e6 / 88)
#define CLOCKM_PM_CRYSTAL_HZ  (315e6 / 88)
#define CLOCKM_PIT_QEMU_HZ    1193182.0
#define CLOCKM_PM_QEMU_HZ     3579545.0

/* The rates the PIT and the PM timer are taken to count at. */
struct clockm_rates {
    double pit_hz, pm_hz;
    const char *basis;      /* "crystal" or "emulated" */
    const char *why;        /* one line: which rates and why */
};

/* Hardware (no hypervisor: CPUID.1:ECX bit 31 clear, and no virtual
 * machine named by the firmware's SMBIOS, vm_hidden NULL): the crystal's
 * rates.  Under QEMU (CPUID 0x40000000 vendor "TCGTCGTCGTCG"), KVM
 * ("KVMKVMKVM") or a QEMU that hides CPUID's bit (vm_hidden "QEMU"):
 * QEMU's rounded rates.  Under another hypervisor, whose emulated rates
 * are not known here: the crystal's, and `why` says they are assumed. */
void clockm_legacy_rates(int hypervisor_present, const char *hypervisor_vendor, const char *vm_hidden,
                         struct clockm_rates *out);

/* ppm rounded for the results file: 0.001 ppm below 1000, 0.1 above (six
 * significant digits at most, as the report prints them). */
double clockm_round_ppm(double ppm);

/* ---- the counter's effective step ----------------------------------------------------
 *
 * The grid that differences of counter reads fall on: 1 tick on most
 * machines and under QEMU -icount, about 24 under QEMU's TCG, 36 or so on
 * AMD parts whose TSC advances in 10 ns strides.  Found from the values,
 * not from the smallest gap between two of them (one tick of jitter on a
 * grid of 24 puts 171 beside 172).
 *
 * Input: increments d_i of back-to-back reads, each pair dithered by a
 * delay of a varying length so that the increments span many steps.
 * Increments of 0 are counted and left out (0 is a multiple of every
 * step); increments above CLOCKM_STEP_DISTURBED times the median were
 * disturbed (an interrupt, an SMI, a translation) and are left out too
 * (delays drawn uniformly from [0, D) after a fixed cost c give increments
 * up to c + D, under twice the median c + D/2).  For a candidate step q the
 * fit is the circular concentration R(q) = |mean exp(2 pi i d_i / q)|: 1
 * when every increment is a multiple of q, near 0 when they fall anywhere.
 * The step is the largest q (fractional: a grid need not be whole ticks)
 * with
 *   q <= the smallest increment + CLOCKM_STEP_JITTER (the first multiple,
 *        one tick early at most),
 *   q <= (largest - smallest increment) / CLOCKM_STEP_SPAN (the increments
 *        cover at least that many steps, so a single repeated value does
 *        not pass as a grid),
 *   R(q) >= CLOCKM_STEP_FIT,
 * taken at the peak of R near the first q found scanning down from the
 * top; when no q >= 2 passes, the step is 1 tick (every integer fits).
 * Unknown (-1) when fewer than CLOCKM_STEP_MIN_READS increments are left,
 * or when they span fewer than CLOCKM_STEP_SPAN x (smallest + jitter)
 * ticks: a step as large as the smallest increment could not be tested.
 */
#define CLOCKM_STEP_MIN_READS 64
#define CLOCKM_STEP_FIT       0.6
#define CLOCKM_STEP_SPAN      3
#define CLOCKM_STEP_JITTER    1
#define CLOCKM_STEP_DISTURBED 3

struct clockm_step {
    double q;               /* the step, ticks (may be fractional); 0: unknown */
    uint64_t ticks;         /* q to the nearest tick; 1 when no grid above 1; 0: unknown */
    double fit;             /* R(q); NAN when unknown */
    uint32_t reads;         /* increments used */
    uint32_t zeros;         /* increments of 0, left out */
    uint32_t dropped;       /* increments above 3 x the median, left out */
    uint64_t min_ticks, max_ticks;   /* the smallest and largest increment used */
    char why[112];          /* unknown: why, in one line ("" when known) */
};

/* The step from n increments (sorted in place).  Returns 0, or -1 when the
 * evidence is too thin (out->why says which rule). */
int clockm_step_estimate(uint64_t *inc, size_t n, struct clockm_step *out);
/* R(q) of n sorted increments (q > 0): for tests and for the report. */
double clockm_step_fit(const uint64_t *inc, size_t n, double q);

#endif
