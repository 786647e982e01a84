/*
 * tools/host/validate/validate_quiet.c - the hosted program's quiet section
 * (tools/host/measure/cmd_quiet.c, bench/system/quiet.c quiet_json()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_host.h"
#include "report_util.h"
#include "validate.h"

static void quiet_section_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    static const struct rv_quiet_rows rows = { &figures_quiet, FIG_QUIET_GAPS_OVER_1US, FIG_QUIET_MAX_GAP_TICKS };
    rv_quiet_counts(sec, sec, &rows, where, file, problems, quiet);
}

const struct rv_section rv_section_quiet = { "quiet", 0, quiet_section_check };
