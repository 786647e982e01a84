/*
 * bench/clock/clock_internal.h - what the clock section's files share (clock_section.c
 * runs the section, clock_calib.c finds the references and calibrates,
 * clock_report.c prints and writes the results); not for other code.
 */
#ifndef BAREMARK_CLOCK_INTERNAL_H
#define BAREMARK_CLOCK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "clock_math.h"
#include "clock_step.h"
#include "hpet.h"
#include "pmtimer.h"
#include "quiet.h"

struct acpi_info;

/* ---- constants ----------------------------------------------------------------- */

enum clock_ref_id { REF_HPET, REF_PM, REF_PIT, REF_CPUID15, REF_CPUID16, CLOCK_NREFS };

/* Bracketed reads to find the cost of one read of a reference. */
#define CLOCK_PROBE_READS   64
/* An edge is bracketed by two reads; wider than this many times the
 * narrowest possible (two of the cheapest reads) it was disturbed.  Linux
 * uses ten times the smallest delta for the same test. */
#define CLOCK_SLOW_FACTOR   8
/* Reads to wait for one edge (even the PIT moves within a few reads). */
#define CLOCK_EDGE_READS    100000
/* Slow edges retried before a window is given up. */
#define CLOCK_EDGE_RETRIES  50
/* The refined window runs this much past CLOCK_REFINED_MS by the rough
 * frequency, so it lasts CLOCK_REFINED_MS by every reference. */
#define CLOCK_REFINED_MARGIN 1.02
/* Refined windows tried at most (a second one only if the first failed
 * somewhere and the budget allows). */
#define CLOCK_REFINED_TRIES 2
/* A gap between two reads longer than this part of the counter's wrap
 * period could hide a whole wrap: the window is dropped. */
#define CLOCK_WRAP_SAFETY   0.25
/* Windows kept per reference. */
#define CLOCK_MAX_WINDOWS   (CLOCK_SHORT_WINDOWS + CLOCK_REFINED_TRIES)

/* ---- types --------------------------------------------------------------------- */

/* A measured reference's counter while calibrating. */
struct clock_counter {
    uint32_t (*read)(void *ctx);
    void *ctx;
    unsigned bits;
    int down;
    double hz;                    /* nominal counting rate */
    uint32_t last;                /* last raw value */
    uint64_t total;               /* ticks since the first read (unwrapped) */
    uint64_t prev_before;         /* TSC before the previous read */
    uint64_t max_gap;             /* widest span of two consecutive reads */
    uint64_t read_min;            /* cheapest bracketed read, TSC ticks */
    uint64_t slow_limit;          /* widest acceptable edge interval */
    uint64_t slow_edges;          /* edges retried for a slow read */
};

struct clock_edge { uint64_t lo, hi, ticks; };

struct clock_ref {
    const char *name;
    int measured;                 /* a counter (else a CPUID statement) */
    int present;                  /* found and counting / stated */
    char why[96];                 /* why absent, or why it gave no result */
    struct clock_counter c;
    struct clockm_window win[CLOCK_MAX_WINDOWS];
    int refined[CLOCK_MAX_WINDOWS];
    size_t nwin;
    uint64_t windows_failed;      /* windows given up (edges, wrap safety) */
    int best;                     /* window used, -1 = none */
    int valid;
    double khz, ppm;
    const char *stated_from;      /* for CPUID: what the figure is */
};

struct clock_state {
    struct clock_ref ref[CLOCK_NREFS];
    struct hpet hpet;
    struct pmtimer pm;
    int pit_running;
    int hpet_started;             /* the HPET was halted: started, halted after */
    struct quiet_phase_report phase;
    uint64_t t_start, t_end;      /* TSC at the start and end of calibration */
    double refined_ms;            /* length of the last refined window, by its reference */
    int chosen, contested;
    double chosen_khz;
    struct clockm_rates rates;    /* the PIT's and PM timer's rates, and why */
    struct clockm_step step;      /* the counter's effective step (bench/clock/clock_step.h) */
    uint64_t step_range;          /* the delays' range it was measured with, instructions */
    uint64_t step_raw[CLOCK_STEP_READS];  /* its increments as taken */
};

extern const char *const clock_names[CLOCK_NREFS];

/* clock_calib.c: find every reference (and say why a missing one is
 * missing); calibrate in the quiet phase (no output, no firmware calls);
 * choose the frequency by the order of trust. */
struct cpu_info;
void clock_find(struct clock_state *s, const struct acpi_info *ai, const struct cpu_info *cpu, const char *vm_hidden);
void clock_calibrate(struct clock_state *s);
void clock_choose(struct clock_state *s);

/* clock_report.c: the section's text and its results member. */
void clock_print(const struct clock_state *s, double calib_ms);
void clock_json(const struct clock_state *s, double calib_ms, const struct quiet_result *q,
                const struct quiet_phase_report *qp);

#endif
