/*
 * bench/system/fields_host.c - the fields that are not figures of the
 * members only the hosted program writes (figures_host.h): "host"
 * (tools/host/platform/platform_host.c host_doc_begin(): the machine of a
 * hosted document) and "quiet" (tools/host/measure/cmd_quiet.c,
 * bench/system/quiet.c quiet_json()).  `baremark validate` walks them
 * (bench/results/figures.h, struct figure_field_row).
 */
#include "figures.h"
#include "fields_quiet.h"

const struct figure_field_row fields_host[] = {
    FIELD_ROW("cpu_vendor", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("cpu_brand", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("os", FIELD_STR, FIELD_OPT, NULL),
    { NULL },
};

const struct figure_field_row fields_quiet[] = {
    QUIET_FIELDS(""),
    { NULL },
};
