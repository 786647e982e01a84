/*
 * bench/figures_clock.c - the clock section's figures (kernel/clock*.c,
 * docs/results-schema.md "clock"): see bench/figures.h.
 */
#include "figures.h"

static const struct figure clock_rows[] = {
    /* path                        LAVA id              unit   kind       flags */
    { "references[*].khz",         "clock_{name}_khz",  "kHz", FIG_INFO,  0 },
    { "references[*].ppm",         "clock_{name}_ppm",  "ppm", FIG_LOWER, 0 },
    /* the references without a result (never a value): skip when absent, fail when found */
    { "unavailable[*].khz",        "clock_{name}_khz",  "kHz", FIG_INFO,  FIG_SOMETIMES, .lost = "present=true" },
    { "unavailable[*].ppm",        "clock_{name}_ppm",  "ppm", FIG_LOWER, FIG_SOMETIMES, .lost = "present=true" },
    /* no reference taken: fail */
    { "chosen_khz",                "clock_tsc_khz",     "kHz", FIG_INFO,  FIG_HEADLINE, .label = "TSC",
      .lost = "chosen_khz=null" },
    /* fewer than two measured references: nothing to agree; fail when they disagree */
    { "agreement.max_measured_ppm", "clock_agreement",  "ppm", FIG_LOWER, FIG_HEADLINE,
      .label = "references agree within", .skip = "agreement.measured_references=0|1",
      .pass = "agreement.agree=true" },
    /* in us (ticks by quiet.tick_hz, ns x 1e-3), as the summary says it */
    { "quiet.max_gap_ticks",       NULL,                "us",  FIG_LOWER, FIG_HEADLINE | FIG_TICKS_NS, .scale = 1e-3,
      .label = "largest gap" },
    { "quiet.gaps_over_1us",       NULL,                "gaps", FIG_LOWER, 0 },
    { "quiet.*",                   NULL,                "",    FIG_DETAIL, 0 },   /* the quiet check's counts */
    { "references[*].*",           NULL,                "",    FIG_DETAIL, 0 },   /* windows, counter, read cost */
    { "agreement.*",               NULL,                "ppm", FIG_DETAIL, 0 },   /* each pair, the bound */
    { "legacy_timer_rates.*",      NULL,                "Hz",  FIG_DETAIL, 0 },
    { "quiet_phase.*",             NULL,                "",    FIG_DETAIL, 0 },
    { "quiet_check_phase.*",       NULL,                "",    FIG_DETAIL, 0 },
    { "calibration_ms",            NULL,                "ms",  FIG_DETAIL, 0 },
    { "refined_ms",                NULL,                "ms",  FIG_DETAIL, 0 },
    { "short_windows",             NULL,                "",    FIG_DETAIL, 0 },
    { "short_ms",                  NULL,                "ms",  FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_clock, "clock", "quiet.tick_hz", clock_rows);
