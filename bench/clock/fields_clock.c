/*
 * bench/clock/fields_clock.c - the clock member's fields that are not
 * figures (bench/clock/clock_section.c writes them; the figures are
 * figures_clock.c's rows): the references, their windows, the agreement
 * table.  `baremark validate` walks them (bench/results/figures.h,
 * struct figure_field_row).
 */
#include "figures.h"
#include "fields_quiet.h"

/* bench/clock/clock_calib.c clock_names[], in its order of trust. */
#define CLOCK_REFS "hpet|pm_timer|pit|cpuid_15|cpuid_16"

const struct figure_field_row fields_clock[] = {
    FIELD_ROW("references", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("references[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("references[*].name", FIELD_REQ, CLOCK_REFS),
    FIELD_ROW_WORDS("references[*].kind", FIELD_OPT, "measured|stated"),
    FIELD_ROW("references[*].stated_from", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW_MIN("references[*].counter_hz", FIELD_NUM, FIELD_OPT, 0, "Hz"),
    FIELD_ROW_MIN("references[*].counter_bits", FIELD_UINT, FIELD_OPT, 1, "bits"),
    FIELD_ROW("references[*].counter_started", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("references[*].windows", FIELD_NUMS, FIELD_OPT, "kHz"),
    FIELD_ROW("references[*].windows_ppm", FIELD_NUMS, FIELD_OPT, "ppm"),
    FIELD_ROW("references[*].windows_ms", FIELD_NUMS, FIELD_OPT, "ms"),
    FIELD_ROW("references[*].windows_refined", FIELD_ARR, FIELD_OPT, "booleans"),
    FIELD_ROW("references[*].windows_rejected", FIELD_ARR, FIELD_OPT, "booleans"),
    FIELD_ROW("references[*].window_used", FIELD_UINT, FIELD_OPT, "index into windows"),
    FIELD_ROW("references[*].windows_failed", FIELD_UINT, FIELD_OPT, "windows"),
    FIELD_ROW("references[*].read_ticks", FIELD_UINT, FIELD_OPT, "ticks"),
    FIELD_ROW("references[*].slow_limit_ticks", FIELD_UINT, FIELD_OPT, "ticks"),
    FIELD_ROW("references[*].slow_edges", FIELD_UINT, FIELD_OPT, "edges"),
    FIELD_ROW("unavailable", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("unavailable[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("unavailable[*].name", FIELD_REQ, CLOCK_REFS),
    FIELD_ROW("unavailable[*].present", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("unavailable[*].why", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("agreement", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_MIN("agreement.bound_ppm", FIELD_NUM, FIELD_REQ, 0, "ppm"),
    FIELD_ROW("agreement.pairs", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("agreement.pairs[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("agreement.pairs[*].a", FIELD_REQ, CLOCK_REFS),
    FIELD_ROW_WORDS("agreement.pairs[*].b", FIELD_REQ, CLOCK_REFS),
    FIELD_ROW("agreement.pairs[*].ppm", FIELD_NUM, FIELD_REQ, "ppm of b"),
    FIELD_ROW("agreement.pairs[*].measured", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("agreement.agree", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("legacy_timer_rates", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW_MIN("legacy_timer_rates.pit_hz", FIELD_NUM, FIELD_REQ, 0, "Hz"),
    FIELD_ROW_MIN("legacy_timer_rates.pm_timer_hz", FIELD_NUM, FIELD_REQ, 0, "Hz"),
    FIELD_ROW_WORDS("legacy_timer_rates.basis", FIELD_REQ, "crystal|emulated"),
    FIELD_ROW("legacy_timer_rates.why", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("source", FIELD_OPT, CLOCK_REFS),
    FIELD_ROW("contested", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("order_of_trust", FIELD_STRS, FIELD_OPT, NULL),
    FIELD_ROW("quiet_phase", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("quiet_phase.timer_stopped", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("quiet_phase.timer_period_100ns", FIELD_UINT, FIELD_OPT, "100 ns"),
    FIELD_ROW("quiet_phase.timer_note", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("quiet_phase.nmis", FIELD_UINT, FIELD_OPT, "NMIs"),
    FIELD_ROW("quiet_phase.smi_counted", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("quiet_phase.smis", FIELD_UINT, FIELD_OPT, "SMIs"),
    FIELD_ROW("quiet_phase.aperf_mperf", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("quiet_phase.aperf", FIELD_UINT, FIELD_OPT, "cycles"),
    FIELD_ROW("quiet_phase.mperf", FIELD_UINT, FIELD_OPT, "cycles"),
    FIELD_ROW("unmasked", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("quiet", FIELD_OBJ, FIELD_OPT, NULL),
    QUIET_FIELDS("quiet."),
    FIELD_ROW("quiet_check_phase", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("quiet_check_phase.timer_stopped", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("quiet_check_phase.nmis", FIELD_UINT, FIELD_OPT, "NMIs"),
    FIELD_ROW("quiet_check_phase.smis", FIELD_UINT, FIELD_OPT, "SMIs"),
    { NULL },
};
