/*
 * tools/host/common/run_state.c - the run's end from a jansson tree: the members
 * handed to rs_decide (bench/results/run_status.c), which every reader shares.
 */
#include "run_state.h"

#include "figures_run.h"
#include "report_util.h"

void rs_read(json_t *root, struct rs_state *st)
{
    json_t *status = doc_fig(root, &figures_run, FIG_RUN_STATUS), *ended = json_object_get(root, "ended");
    json_t *stage = json_object_get(root, "stage");
    rs_decide(json_string_value(status), json_is_integer(status), json_integer_value(status),
              json_is_boolean(ended) ? json_is_true(ended) : -1, json_string_value(stage), st);
}
