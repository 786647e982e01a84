/*
 * bench/clock/figures_clock.h - the clock section's figures (kernel/clock*.c,
 * docs/results-schema.md "clock"): see bench/results/figures.h.
 */
#ifndef BAREMARK_FIGURES_CLOCK_H
#define BAREMARK_FIGURES_CLOCK_H

#include "figures.h"

#define CLOCK_FIGURES(X) \
    /* path                        LAVA id              unit   kind       flags */ \
    X(FIG_CLOCK_REFERENCES_KHZ,             "references[*].khz",         "clock_{name}_khz",  "kHz", FIG_INFO,  0, \
      .field = FIG_FIELD_MIN(FIELD_NUM, FIELD_REQ, 0, NULL)) \
    X(FIG_CLOCK_REFERENCES_PPM,             "references[*].ppm",         "clock_{name}_ppm",  "ppm", FIG_LOWER, 0, \
      .field = FIG_FIELD(FIELD_NUM, FIELD_REQ, NULL)) \
    /* the references without a result (never a value): skip when absent, fail when found */ \
    X(FIG_CLOCK_UNAVAILABLE_KHZ,            "unavailable[*].khz",        "clock_{name}_khz",  "kHz", FIG_INFO,  FIG_SOMETIMES, .lost = "present=true") \
    X(FIG_CLOCK_UNAVAILABLE_PPM,            "unavailable[*].ppm",        "clock_{name}_ppm",  "ppm", FIG_LOWER, FIG_SOMETIMES, .lost = "present=true") \
    /* no reference taken: fail */ \
    X(FIG_CLOCK_CHOSEN_KHZ,                 "chosen_khz",                "clock_tsc_khz",     "kHz", FIG_INFO,  FIG_HEADLINE, .label = "TSC", \
      .lost = "chosen_khz=null", .headline_unit = "MHz", .headline_scale = 1e-3) \
    /* fewer than two measured references: nothing to agree; fail when they disagree */ \
    X(FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM, "agreement.max_measured_ppm", "clock_agreement",  "ppm", FIG_LOWER, FIG_HEADLINE, \
      .label = "references agree within", .skip = "agreement.measured_references=0|1", \
      .pass = "agreement.agree=true") \
    /* in us (ticks by quiet.tick_hz, ns x 1e-3), as the summary says it */ \
    X(FIG_CLOCK_QUIET_MAX_GAP_TICKS,        "quiet.max_gap_ticks",       NULL,                "us",  FIG_LOWER, FIG_HEADLINE | FIG_TICKS_NS, .scale = 1e-3, \
      .label = "largest gap", .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_CLOCK_QUIET_GAPS_OVER_1US,        "quiet.gaps_over_1us",       NULL,                "gaps", FIG_LOWER, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    /* the counter's effective step (bench/clock/clock_math.h); null when the reads were too few or too narrow; \
     * FIG_SOMETIMES: results written before the step was measured lack the member, and `baremark \
     * validate` would call such a file (tests/fixtures/run-guess.json) invalid without the flag */ \
    X(FIG_CLOCK_COUNTER_STEP_TICKS,         "counter_step.ticks",        "clock_counter_step_ticks", "ticks", FIG_INFO, FIG_SOMETIMES) \
    X(FIG_CLOCK_COUNTER_STEP_ALL,           "counter_step.*",            NULL,                "",    FIG_DETAIL, FIG_SOMETIMES) /* ns, reads, fit */ \
    X(FIG_CLOCK_QUIET_ALL,                  "quiet.*",                   NULL,                "",    FIG_DETAIL, 0)   /* the quiet check's counts */ \
    X(FIG_CLOCK_REFERENCES_ALL,             "references[*].*",           NULL,                "",    FIG_DETAIL, 0)   /* windows, counter, read cost */ \
    X(FIG_CLOCK_AGREEMENT_ALL,              "agreement.*",               NULL,                "ppm", FIG_DETAIL, 0)   /* each pair, the bound */ \
    X(FIG_CLOCK_LEGACY_TIMER_RATES_ALL,     "legacy_timer_rates.*",      NULL,                "Hz",  FIG_DETAIL, 0) \
    X(FIG_CLOCK_QUIET_PHASE_ALL,            "quiet_phase.*",             NULL,                "",    FIG_DETAIL, 0) \
    X(FIG_CLOCK_QUIET_CHECK_PHASE_ALL,      "quiet_check_phase.*",       NULL,                "",    FIG_DETAIL, 0) \
    X(FIG_CLOCK_CALIBRATION_MS,             "calibration_ms",            NULL,                "ms",  FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_OPT, 0, NULL)) \
    X(FIG_CLOCK_REFINED_MS,             "refined_ms",                NULL,                "ms",  FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_NUM, FIELD_OPT, 0, NULL)) \
    X(FIG_CLOCK_SHORT_WINDOWS,           "short_windows",             NULL,                "",    FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, "windows")) \
    X(FIG_CLOCK_SHORT_MS,                "short_ms",                  NULL,                "ms",  FIG_DETAIL, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, NULL))
FIGURE_IDS(clock_figure, CLOCK_FIGURES);
extern const struct figure_table figures_clock;

#endif
