/*
 * tools/host/validate/validate_quiet.c - the hosted program's quiet section
 * (tools/host/measure/cmd_quiet.c, bench/system/quiet.c quiet_json()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

static void quiet_section_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    rv_quiet_counts(sec, where, file, problems, quiet);
}

const struct rv_section rv_section_quiet = { "quiet", 0, quiet_section_check };
