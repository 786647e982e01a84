/*
 * bench/system/fields_quiet.h - the quiet-machine check's fields
 * (bench/system/quiet.c), as field rows (bench/results/figures.h) for the
 * tables of the members that hold them: QUIET_FIELDS(P) the counts of
 * quiet_json() at prefix P (the clock's "quiet.", the hosted program's
 * "quiet" member: "") but max_gap_ticks and gaps_over_1us, figures whose
 * rows carry their field (figures_clock.h, figures_host.h), QUIET_PHASES_FIELDS a section's measuring phases
 * (quiet_phase_totals_json(), "quiet_phases").
 */
#ifndef BAREMARK_FIELDS_QUIET_H
#define BAREMARK_FIELDS_QUIET_H

#include "figures.h"

#define QUIET_FIELDS(P) \
    FIELD_ROW_MIN(P "ms", FIELD_UINT, FIELD_REQ, 1, "ms"), \
    FIELD_ROW_MIN(P "tick_hz", FIELD_UINT, FIELD_REQ, 1, "Hz"), \
    FIELD_ROW(P "masked", FIELD_BOOL, FIELD_REQ, NULL), \
    FIELD_ROW(P "reads", FIELD_UINT, FIELD_REQ, "reads"), \
    FIELD_ROW(P "elapsed_ticks", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW(P "min_gap_ticks", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW(P "max_gap_at_ticks", FIELD_UINT, FIELD_OPT, "ticks after the first read"), \
    FIELD_ROW(P "gaps_over_10us", FIELD_UINT, FIELD_REQ, "gaps"), \
    FIELD_ROW(P "gaps_over_100us", FIELD_UINT, FIELD_OPT, "gaps"), \
    FIELD_ROW(P "gaps_over_1ms", FIELD_UINT, FIELD_OPT, "gaps"), \
    FIELD_ROW_MIN(P "gaps_per_second", FIELD_NUM, FIELD_REQ, 0, "gaps over 1 us per s")

#define QUIET_PHASES_FIELDS \
    FIELD_ROW("quiet_phases", FIELD_OBJ, FIELD_OPT, NULL), \
    FIELD_ROW("quiet_phases.phases", FIELD_UINT, FIELD_REQ, "phases"), \
    FIELD_ROW("quiet_phases.timer_stopped_phases", FIELD_UINT, FIELD_REQ, "phases"), \
    FIELD_ROW("quiet_phases.timer_period_100ns", FIELD_UINT, FIELD_REQ, "100 ns"), \
    FIELD_ROW("quiet_phases.timer_note", FIELD_STR, FIELD_OPT, NULL), \
    FIELD_ROW("quiet_phases.ticks", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW("quiet_phases.nmis", FIELD_UINT, FIELD_REQ, "NMIs"), \
    FIELD_ROW("quiet_phases.smi_counted", FIELD_BOOL, FIELD_REQ, NULL), \
    FIELD_ROW("quiet_phases.smis", FIELD_UINT, FIELD_OPT, "SMIs"), \
    FIELD_ROW("quiet_phases.aperf_mperf", FIELD_BOOL, FIELD_REQ, NULL), \
    FIELD_ROW("quiet_phases.aperf", FIELD_UINT, FIELD_OPT, "cycles"), \
    FIELD_ROW("quiet_phases.mperf", FIELD_UINT, FIELD_OPT, "cycles")

#endif
