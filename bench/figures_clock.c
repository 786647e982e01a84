/*
 * bench/figures_clock.c - the clock section's figures (kernel/clock*.c,
 * docs/results-schema.md "clock"): see bench/figures.h.
 */
#include "figures.h"

static const struct figure clock_rows[] = {
    /* path                        LAVA id              unit   kind       flags */
    { "chosen_khz",                "clock_tsc_khz",     "kHz", FIG_INFO,  FIG_HEADLINE, .label = "TSC" },
    { "agreement.max_measured_ppm", "clock_agreement",  "ppm", FIG_LOWER, FIG_HEADLINE,
      .label = "references agree within" },
    { "references[*].khz",         "clock_{name}_khz",  "kHz", FIG_INFO,  0 },
    { "references[*].ppm",         "clock_{name}_ppm",  "ppm", FIG_LOWER, 0 },
    { "quiet.max_gap_ticks",       NULL,                "ticks", FIG_LOWER, FIG_HEADLINE, .label = "largest gap" },
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
