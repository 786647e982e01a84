/*
 * boot/results_doc.c - the image's results document in memory (see
 * results_doc.h): the sections' members as they are written, the errors,
 * the status and stage, and the document as boot/run_files.c writes it.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>

#include "cpu.h"
#include "figures_run.h"
#include "json.h"
#include "platform.h"
#include "results_doc.h"
#include "run_status.h"

static struct json_writer run_doc, run_errors;
static int run_section_is_array;
static int run_state = RUN_OK;
/* The stage the run is in: written into every file before the end, so a
 * run that never ends says where it stopped ("interrupted during memory"). */
static char run_stage_name[32] = "startup";
/* The TSC at the image's entry and at the run's end (0: not read). */
static uint64_t run_tsc_entry, run_tsc_end;

/* ---- the results document ---------------------------------------------------- */

struct json_writer *results_doc_member_begin(const char *name, int array)
{
    run_section_is_array = array;
    if (array)
        json_arr_begin(&run_doc, name);
    else
        json_obj_begin(&run_doc, name);
    return &run_doc;
}

void results_doc_member_end(void)
{
    if (run_section_is_array)
        json_arr_end(&run_doc);
    else
        json_obj_end(&run_doc);
}

/* "duration_ms": the TSC from the image's entry to the run's end (before
 * the end: to this write), by the rate the clock section calibrated; null
 * without that rate (clock not run, or failed) or without a TSC. */
static void results_doc_duration(struct json_writer *w, int ended)
{
    uint64_t hz = plat_tick_hz(), end = ended && run_tsc_end ? run_tsc_end : cpu_rdtsc();
    if (!hz || !run_tsc_entry || end < run_tsc_entry)
        json_fig_null(w, &figures_run, FIG_RUN_DURATION_MS);
    else {  /* in ms to the microsecond, written as such (no binary fraction's digits) */
        char num[32];
        unsigned long long us = (unsigned long long)((double)(end - run_tsc_entry) * 1e6 / (double)hz + 0.5);
        int n = snprintf(num, sizeof num, "%llu.%03llu", us / 1000, us % 1000);
        json_fig_raw(w, &figures_run, FIG_RUN_DURATION_MS, num, (size_t)n);
    }
}

/* The document as written: sections so far, then errors, duration, status,
 * ended. */
void results_doc_compose(struct json_writer *w, int ended)
{
    json_init(w);
    json_raw(w, NULL, run_doc.buf, run_doc.len);
    w->depth = 1;
    w->count[0] = 1;
    struct json_writer e;      /* the errors array, kept open, closed here */
    json_init(&e);
    json_raw(&e, NULL, run_errors.buf, run_errors.len);
    json_raw(&e, NULL, "]", 1);
    json_raw(w, "errors", e.buf, e.len);
    json_free(&e);
    results_doc_duration(w, ended);
    /* Until the end, the file says what it would say if the run stopped
     * now: interrupted, in this stage.  The final write replaces both with
     * the numeric status of the last serial line. */
    if (ended) {
        json_fig_i64(w, &figures_run, FIG_RUN_STATUS, run_state);
    } else {
        json_str(w, "status", RS_INTERRUPTED_TEXT);
        json_str(w, "stage", run_stage_name);
    }
    json_bool(w, "ended", ended);
    json_obj_end(w);
}

void results_doc_init(void)
{
    json_init(&run_errors);
    json_arr_begin(&run_errors, NULL);
    json_init(&run_doc);
    json_obj_begin(&run_doc, NULL);
    json_fig_u64(&run_doc, &figures_run, FIG_RUN_SCHEMA, 1);
}

void results_error(const char *msg) { json_str(&run_errors, NULL, msg); }

const struct json_writer *results_doc(void) { return &run_doc; }

void results_doc_name(const char *name) { json_str(&run_doc, "name", name); }

void results_doc_profile(const char *name) { json_str(&run_doc, "profile", name); }

void results_doc_entry(uint64_t tsc) { run_tsc_entry = tsc; }

void results_doc_end(void)
{
    if (run_tsc_entry)
        run_tsc_end = cpu_rdtsc();
}

void results_doc_stage(const char *name)
{
    snprintf(run_stage_name, sizeof run_stage_name, "%s", name);
}

void run_status_raise(int status)
{
    if (status > run_state)
        run_state = status;
}

int run_status(void) { return run_state; }
