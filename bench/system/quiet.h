/*
 * bench/system/quiet.h - a quiet machine for measuring: the quiet-machine check
 * (portable, bench/system/quiet.c) and the measuring phase (quiet_phase_begin and
 * quiet_phase_end, a service of the port, port/platform.h: one
 * implementation per platform).
 *
 * cli masks maskable interrupts only.  What still interrupts a CPU with
 * interrupts masked shows as a gap between two consecutive TSC reads; the
 * check reads the TSC back to back for a while and counts those gaps.
 */
#ifndef BAREMARK_QUIET_H
#define BAREMARK_QUIET_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

struct json_writer;
struct figure_table;

/* ---- the measuring phase ---------------------------------------------------
 *
 * quiet_phase_begin stops what would interrupt a measurement and can be
 * stopped: in the image, the firmware's periodic timer (Timer Architectural
 * Protocol, SetTimerPeriod(0)); it also reads the SMI count and APERF/MPERF
 * where the CPU has them.  quiet_phase_end puts the timer back at its old
 * period and says what happened during the phase.
 *
 * Rules: call both with interrupts enabled (firmware calls may enable them
 * anyway), pair them, and end the phase before any firmware I/O: the
 * results file (results_section_end), screen output waiting in the log, or
 * anything else that needs the firmware's timer events (USB, disk).  Mask
 * interrupts (plat_irq_off) around each timed interval inside the phase as
 * usual.  Nested phases count: only the outermost pair acts. */
struct quiet_phase_report {
    int timer_stopped;            /* the firmware timer was stopped */
    uint64_t timer_period_100ns;  /* its period, restored at the end (0 = unknown) */
    const char *timer_note;       /* why it was not stopped ("" when it was) */
    int smi_counted;              /* SMI count available (Intel MSR 0x34) */
    uint64_t smis;                /* SMIs during the phase */
    int aperf_mperf;              /* APERF/MPERF available (CPUID.6:ECX bit 0) */
    uint64_t aperf, mperf;        /* their increments during the phase */
    uint64_t nmis;                /* NMIs seen during the phase */
    uint64_t ticks;               /* TSC ticks the phase lasted */
};

/* quiet_phase_begin and quiet_phase_end: port/platform.h. */

/* A section that measures in many short phases (methods, comparisons,
 * BYTEmark: one per measurement or test, each ended before the section
 * prints) adds up their reports here and says once what was quiet. */
struct quiet_phase_totals {
    uint32_t phases;              /* phases added */
    uint32_t timer_stopped;       /* of which with the firmware timer stopped */
    uint64_t timer_period_100ns;  /* the period restored after them (last seen) */
    const char *timer_note;       /* why a phase's timer was not stopped (last seen) */
    uint64_t ticks;               /* TSC ticks inside the phases */
    uint64_t nmis;
    int smi_counted;              /* every phase counted SMIs */
    uint64_t smis;
    int aperf_mperf;              /* every phase read APERF/MPERF */
    uint64_t aperf, mperf;
};

void quiet_phase_totals_init(struct quiet_phase_totals *t);
void quiet_phase_add(struct quiet_phase_totals *t, const struct quiet_phase_report *r);
/* quiet_phase_end, its report added to t. */
void quiet_phase_end_add(struct quiet_phase_totals *t);
/* "SECTION: firmware timer stopped in each of its 54 measuring phases ..."
 * and what stayed unmasked; nothing when no phase was added. */
void quiet_phase_totals_print(const char *section, const struct quiet_phase_totals *t);
/* The totals as object member `key` of w (docs/results-schema.md). */
void quiet_phase_totals_json(struct json_writer *w, const char *key, const struct quiet_phase_totals *t);

/* ---- the quiet-machine check ------------------------------------------------ */

struct quiet_result {
    uint32_t ms;                  /* length asked for, ms */
    uint64_t tick_hz;             /* TSC rate used for the thresholds */
    int masked;                   /* interrupts were masked (the image) */
    uint64_t reads;               /* TSC reads taken */
    uint64_t elapsed_ticks;       /* first to last read */
    uint64_t min_gap_ticks;       /* the cost of one read (back to back) */
    uint64_t max_gap_ticks;       /* the largest gap */
    uint64_t max_gap_at_ticks;    /* when it started, after the first read */
    uint64_t gaps_over_1us, gaps_over_10us, gaps_over_100us, gaps_over_1ms;
    double gaps_per_second;       /* gaps over 1 us per second */
};

/* Gap thresholds in ticks for a TSC rate (1 us, 10 us, 100 us, 1 ms). */
void quiet_thresholds(uint64_t tick_hz, uint64_t th[4]);

/* Count one gap into r against thresholds th (quiet_thresholds). */
void quiet_account(struct quiet_result *r, uint64_t gap, uint64_t at, const uint64_t th[4]);

/* The rates that follow from the counts (gaps_per_second). */
void quiet_finish(struct quiet_result *r);

/* Read the TSC back to back for `ms` milliseconds with interrupts masked
 * (plat_irq_off) and count the gaps.  tick_hz must be the calibrated rate.
 * Returns 0, or -1 when tick_hz is 0. */
int quiet_check(uint32_t ms, uint64_t tick_hz, struct quiet_result *r);

/* One line: "quiet: 200 ms with interrupts masked: largest gap ...". */
void quiet_print(const struct quiet_result *r);

/* The rows of the member's figure table that name the check's tracked
 * counts (clock's "quiet.max_gap_ticks", the hosted "quiet" member's
 * "max_gap_ticks"): the member's other counts are its detail. */
struct quiet_figures {
    const struct figure_table *table;
    unsigned max_gap_ticks, gaps_over_1us;
};

/* The result as an object member `key` of w (docs/results-schema.md). */
void quiet_json(struct json_writer *w, const char *key, const struct quiet_result *r,
                const struct quiet_figures *f);

#endif
