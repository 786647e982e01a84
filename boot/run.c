/*
 * boot/run.c - the run's status and its end (see run.h): the final flush,
 * the run's summary, the fixed last line, and the exit the settings ask for.
 */
#include <efi.h>
#include <efilib.h>
#include <stdarg.h>
#include <stdio.h>

#include "firmware.h"
#include "json.h"
#include "lava.h"
#include "platform.h"
#include "qemu.h"
#include "run.h"
#include "summary.h"
#include "upload.h"
#include "watchdog.h"


static const char *const run_status_text[] = {
    [RUN_OK] = "completed and saved",
    [1] = "",
    [RUN_WARNINGS] = "completed with warnings",
    [RUN_FAILED] = "could not run",
};

/* ---- the summary ------------------------------------------------------------ */

static void run_summary_line(void *ctx, const char *line)
{
    (void)ctx;
    out_show("%s\n", line);
}

/* The run's summary (bench/summary/summary.h), built from the results document as
 * written, between its two marker lines. */
static void run_summary(void)
{
    struct json_writer w;
    struct summary *s = plat_alloc(sizeof *s);
    results_doc_compose(&w, 1);
    if (!s || w.failed)
        out_show("summary: not shown: out of memory (the results are complete; baremark show RUN.json "
                 "prints it on a host)\n");
    else {
        summary_build(s, w.buf, w.len);
        summary_print(s, run_summary_line, NULL);
    }
    plat_free(s);
    json_free(&w);
}

/* ---- status and the end ------------------------------------------------------ */

void run_stage(const char *name)
{
    results_doc_stage(name);
    run_flush();
    watchdog_stage(name);               /* after the flush: the files say the stage first */
}

uint64_t run_end(const struct run_exit *how)
{
    unsigned run_json_changed;
    size_t run_json_changed_at;
    run_files_changed(&run_json_changed, &run_json_changed_at);
    if (run_log_was_lost())
        out_warn("part of the log was lost: out of memory while interrupts were masked");
    if (results_doc()->failed)
        out_warn("the JSON results are incomplete: out of memory");
    if (run_json_changed)
        out_warn("the JSON results changed in memory while the firmware wrote them (%u time%s, first at "
                 "byte %llu); written again, but check the file with baremark validate",
                 run_json_changed, run_json_changed == 1 ? "" : "s", (unsigned long long)run_json_changed_at);
    int run_saving = run_saving_now();
    int outfile = how->outfile && how->outfile[0] && run_saving;
    if (outfile && run_outfile_refused(how->outfile))
        outfile = 0;
    run_files_end();
    watchdog_end();                     /* no marker: this run ended */
    out_show("saved: %s\n", run_saving ? "yes" : "no");
    if (how->outfile && how->outfile[0] && !run_saving)
        out_show("outfile: not written (the results could not be saved on this stick)\n");
    else if (outfile)
        out_show("outfile: this log copied to \\baremark\\%s (OUTFILE)\n", how->outfile);
    int wait = !how->qemu_exit && !how->shutdown && how->end_wait;
    if (wait && how->end_wait_seconds)
        out_show("end: press a key to return to the firmware (or wait %u s)\n", how->end_wait_seconds);
    else if (wait)
        out_show("end: press a key to return to the firmware\n");
    /* LAVA's run_status case and end line (serial only), the summary of
     * the results as written (into the log on the ESP and OUTFILE's copy
     * too), then the fixed last line (tests and tools/run-qemu look for it).
     * With RESULTS set the LAVA lines wait until after the upload: a LAVA
     * job stops the machine as soon as it sees the end line. */
    int uploading = how->results && how->results[0];
    if (!uploading)
        lava_end(run_status());
    run_summary();
    run_flush();
    if (outfile)
        run_outfile(how->outfile);
    run_files_close();
    upload_runs(how->results, how->results_key, how->results_via, how->results_ca);     /* after the files: nothing timed is left */
    if (uploading)
        lava_end(run_status());
    out_show("baremark: run ended, status %d (%s)\n", run_status(), run_status_text[run_status()]);
    if (how->qemu_exit)
        qemu_debug_exit((uint8_t)run_status());
    if (how->shutdown)
        fw_shutdown();
    if (wait)
        fw_wait_key(how->end_wait_seconds);
    return run_status() == RUN_FAILED ? EFI_ABORTED : EFI_SUCCESS;
}

uint64_t run_fatal(const struct run_exit *how, const char *fmt, ...)
{
    char msg[RUN_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    out_show("fatal: %s\n", msg);
    results_error(msg);
    run_status_raise(RUN_FAILED);
    struct run_exit stay = *how;
    stay.shutdown = 0;
    return run_end(&stay);
}
