/*
 * bench/plugins/fields_plugins.c - the plugins member's fields that are not
 * figures (bench/plugins/plugins_section.c: the files found, their
 * routines, the probe; the figures are figures_plugins.c's rows).
 * `baremark validate` walks them (bench/results/figures.h, struct
 * figure_field_row).
 */
#include "figures.h"

#define PLUGIN_STATES "ready|not_selected|setup_failed|fault|hung"

const struct figure_field_row fields_plugins[] = {
    FIELD_ROW("folder", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("files", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("files[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("files[*].file", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("files[*].size", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("files[*].sha256", FIELD_STR, FIELD_REQ, "hex"),
    FIELD_ROW_WORDS("files[*].status", FIELD_REQ, "loaded|rejected"),
    FIELD_ROW("files[*].why", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("files[*].name", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("files[*].description", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW_MIN("files[*].version", FIELD_UINT, FIELD_OPT, 1, NULL),
    FIELD_ROW("files[*].routines", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("files[*].routines[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("files[*].routines[*].name", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("files[*].routines[*].target", FIELD_STR, FIELD_REQ, "PLUGIN:ROUTINE"),
    FIELD_ROW("files[*].routines[*].description", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW_MIN("files[*].routines[*].instructions_fixed", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "instructions"),
    FIELD_ROW_MIN("files[*].routines[*].instructions_per_iteration", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "instructions"),
    FIELD_ROW("files[*].routines[*].setup", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("files[*].routines[*].teardown", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("files[*].routines[*].status", FIELD_REQ, PLUGIN_STATES),
    FIELD_ROW("files[*].routines[*].why", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("files[*].routines[*].memory_bytes", FIELD_UINT, FIELD_OPT, "bytes"),
    FIELD_ROW("probe", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW_MIN("probe.iterations", FIELD_UINT, FIELD_REQ, 1, "iterations"),
    FIELD_ROW_MIN("probe.watchdog_seconds", FIELD_UINT, FIELD_REQ, 1, "s"),
    FIELD_ROW("selection", FIELD_STR, FIELD_OPT, NULL),
    { NULL },
};
