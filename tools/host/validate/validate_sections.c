/*
 * tools/host/validate/validate_sections.c - the members `baremark validate`
 * checks, in the order the image writes them, and the top level's own
 * check (the status and the stage, the errors, the schema version).  The
 * fields of every member and of the top level are its table's
 * (bench/NAME/fields_NAME.c, bench/results/fields_run.c); each member's
 * cross-field check lives in its own validate_NAME.c (shared helpers:
 * validate.h, validate_common.c).  Keep in step with
 * docs/results-schema.md and with the code that writes each section.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_run.h"
#include "report_util.h"
#include "run_state.h"
#include "validate.h"

/* ---- top level (boot/results_doc.c) ------------------------------------------------- */

/* "status" is a number once the run ended; before that "interrupted",
 * with the "stage" the run was in (boot/run.c, tools/host/common/run_state.h). */
static void rv_top_status(json_t *root, const char *file, int *problems, int quiet)
{
    json_t *status = doc_fig(root, &figures_run, FIG_RUN_STATUS), *stage = json_object_get(root, "stage");
    int ended = json_is_true(json_object_get(root, "ended"));
    char msg[160];

    if (!status) {
        rv_say(file, "status", "missing: 0, 2, 3 or \"" RS_INTERRUPTED_TEXT "\" is required", problems, quiet);
    } else if (json_is_string(status)) {
        if (strcmp(json_string_value(status), RS_INTERRUPTED_TEXT))
            rv_say(file, "status", "a string other than \"" RS_INTERRUPTED_TEXT "\" (0, 2, 3 or \"" RS_INTERRUPTED_TEXT "\")",
                   problems, quiet);
        else if (ended)
            rv_say(file, "status", "\"" RS_INTERRUPTED_TEXT "\" but \"ended\" is true (an ended run has 0, 2 or 3)",
                   problems, quiet);
        else if (!json_is_string(stage))
            rv_say(file, "stage", "missing: an interrupted run names the stage it was in", problems, quiet);
    } else if (!json_is_integer(status) || json_integer_value(status) < 0) {
        snprintf(msg, sizeof msg, "is %s, not 0, 2, 3 or \"" RS_INTERRUPTED_TEXT "\"", json_is_null(status) ? "null" : "another type");
        rv_say(file, "status", msg, problems, quiet);
    }
    if (stage && !json_is_string(stage))
        rv_say(file, "stage", "is not a string", problems, quiet);
    else if (stage && !rs_stage_known(json_string_value(stage)))
        rv_say(file, "stage", "not a stage of the run (startup, system, a section of SECTIONS=, end)", problems, quiet);
}

void rv_top_check(json_t *root, const char *file, int *problems, int quiet)
{
    json_t *schema = doc_fig(root, &figures_run, FIG_RUN_SCHEMA);
    json_t *status = doc_fig(root, &figures_run, FIG_RUN_STATUS);
    json_t *errors = json_object_get(root, "errors");
    char msg[160];

    rv_top_status(root, file, problems, quiet);
    /* The image always lists its errors; the hosted program's documents
     * (tools/host/measure/cmd_bytemark.c, "platform": "linux") may leave them out. */
    if (!errors && strcmp(doc_str(root, "platform", "uefi"), "linux"))
        rv_say(file, "errors", "missing: an array of strings is required in an image's results", problems, quiet);
    if (json_is_integer(schema) && json_integer_value(schema) != DOC_SCHEMA_VERSION) {
        snprintf(msg, sizeof msg, "version %lld is not %d, the version these tools know",
                 (long long)json_integer_value(schema), DOC_SCHEMA_VERSION);
        rv_say(file, "schema", msg, problems, quiet);
    }
    if (json_is_integer(status)) {
        long long s = json_integer_value(status);
        if (s != 0 && s != 2 && s != 3) {
            snprintf(msg, sizeof msg, "%lld is not a run status (0 completed and saved, 2 with warnings, 3 could not run)", s);
            rv_say(file, "status", msg, problems, quiet);
        }
        /* Every warning or fatal error raises the status (boot/run.c). */
        if (s == 0 && json_is_array(errors) && json_array_size(errors) > 0)
            rv_say(file, "status", "is 0 but the errors list is not empty (a warning makes it 2, a fatal error 3)",
                   problems, quiet);
    }
}

/* ---- the sections ----------------------------------------------------------------
 * A section's fields need nothing here: its table's field rows
 * (bench/NAME/fields_NAME.c) and figure rows are walked for every member
 * a table names, listed below or not, and a number in the file that no
 * figure row declares is a problem (validate_figures.c).  To give a
 * section NAME a cross-field check: write tools/host/validate/validate_NAME.c
 * ending in
 *     const struct rv_section rv_section_NAME = { "NAME", 0, NAME_check };
 * then declare it below and add &rv_section_NAME to the table, in the order
 * the image writes its sections.  A section missing from a file is fine (it
 * did not run). */
extern const struct rv_section rv_section_build, rv_section_system, rv_section_host, rv_section_clock,
    rv_section_quiet, rv_section_cores, rv_section_plugins, rv_section_methods, rv_section_comparisons,
    rv_section_bytemark, rv_section_verify, rv_section_memory;

const struct rv_section *const rv_sections[] = {
    &rv_section_build,
    &rv_section_system,
    &rv_section_host,
    &rv_section_clock,
    &rv_section_quiet,
    &rv_section_cores,
    &rv_section_plugins,
    &rv_section_methods,
    &rv_section_comparisons,
    &rv_section_bytemark,
    &rv_section_verify,
    &rv_section_memory,
    NULL,
};
