/*
 * tools/host/common/run_state.h - bench/results/run_status.h for the host tools that hold
 * a results document as a jansson tree (validate, report, diff).
 */
#ifndef BAREMARK_RUN_STATE_H
#define BAREMARK_RUN_STATE_H

#include <jansson.h>

#include "run_status.h"

/* Read the top level of a results document (root may be NULL). */
void rs_read(json_t *root, struct rs_state *st);

#endif
