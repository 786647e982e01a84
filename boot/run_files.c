/*
 * boot/run_files.c - the run's files on the ESP: \\baremark\\NAME.log and
 * NAME.json, named from the firmware clock and never over an earlier run's,
 * written at the end of every section (run_flush: the port's
 * results_section_end), and OUTFILE's copy.
 *
 * What a power cut can leave: the JSON and OUTFILE's copy are replaced
 * whole through NAME.json.new (boot/file_replace.c), so NAME.json is the
 * previous complete document, the new one, or absent for an instant, and a
 * leftover *.new is dealt with by the next boot (replace_leftovers).  The
 * log is only appended to, each part flushed: a cut leaves a prefix of
 * what serial printed (the part being appended may be missing).
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "file_replace.h"
#include "esp_files.h"
#include "firmware.h"
#include "json.h"
#include "platform.h"
#include "output.h"
#include "results_doc.h"
#include "run_files.h"
#include "volumes.h"

#define RUN_DIR           "\\baremark"
#define RUN_MAX_SUFFIX    999
#define RUN_VOLUME_NAME_MAX 160       /* "LABEL" at DEVICE-PATH, cut if longer */

static size_t run_file_done;
static unsigned run_json_changed;       /* times the buffer changed during a write */
static size_t run_json_changed_at;       /* where it differed first */
static char run_name_buf[32];
static EFI_FILE_HANDLE run_log_file;
static int run_saving;           /* files are open and writable */
static int run_ended;            /* the document says "ended": true */

/* ---- files ------------------------------------------------------------------ */

const char *run_name(void) { return run_name_buf; }

/* Set when no writable FAT volume besides the boot one was found. */
static int run_no_other_volume;

static void run_saving_failed(const char *what, EFI_STATUS s)
{
    const char *only = run_no_other_volume
        ? "no other writable FAT volume was found: results are on serial and screen only"
        : "results are on serial and screen only";
    run_saving = 0;
    if (s == EFI_WRITE_PROTECTED)
        out_warn("results not saved: the ESP is write-protected (%s while %s); %s",
                 fw_status_name(s), what, only);
    else if (s == EFI_VOLUME_FULL)
        out_warn("results not saved completely: the ESP is full (%s while %s); "
                 "what was written before stays, the rest is on serial and screen only",
                 fw_status_name(s), what);
    else
        out_warn("results not saved: %s while %s; %s", fw_status_name(s), what, only);
}

/* The boot volume cannot take the results (read-only media, a network
 * boot): move them to another writable FAT volume if the firmware has one
 * (boot/volumes.c) and say where.  A full ESP is not moved from: its
 * earlier runs are there and the user should see it is full. */
static int run_move_results(const char *what, EFI_STATUS s)
{
    char where[RUN_VOLUME_NAME_MAX];

    if (s == EFI_VOLUME_FULL)
        return 0;
    if (!volume_find_writable(where, sizeof where)) {
        run_no_other_volume = 1;
        return 0;
    }
    out_show("results: the boot volume cannot take them (%s while %s); "
             "they go to the writable FAT volume %s\n", fw_status_name(s), what, where);
    return 1;
}

/* The log is created now and holds the name; the JSON first appears, whole,
 * at the first run_flush. */
static EFI_STATUS run_create_log(const char *base)
{
    char path[96];
    snprintf(path, sizeof path, RUN_DIR "\\%s.log", base);
    return esp_create(path, &run_log_file);
}

static int run_name_taken(const char *base)
{
    static const char *const ext[] = { ".log", ".json", ".json" REPLACE_SUFFIX };
    char path[96];
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        snprintf(path, sizeof path, RUN_DIR "\\%s%s", base, ext[i]);
        if (esp_exists(path))
            return 1;
    }
    return 0;
}

/* Find the run's name and create its files; 1 once the name is in the
 * document (the files' own, with a suffix if the stamp was taken). */
static int run_files_create(void)
{
    char stamp[24], base[32];
    EFI_STATUS s;

    fw_time_name(stamp, sizeof stamp);
    snprintf(run_name_buf, sizeof run_name_buf, "%s", stamp);
    const char *what = "opening the ESP";
    s = esp_open();
    if (s == EFI_SUCCESS) {
        what = "creating \\baremark";
        s = esp_mkdir(RUN_DIR);
    }
    if (s != EFI_SUCCESS && run_move_results(what, s))
        s = esp_mkdir(RUN_DIR);
    if (s != EFI_SUCCESS) {
        run_saving_failed(what, s);
        return 0;
    }
    replace_leftovers(RUN_DIR);            /* what a cut during a write left */
    /* Never open an earlier run's file: find a free name, then create. */
    for (int k = 1; k <= RUN_MAX_SUFFIX; k++) {
        if (k == 1)
            snprintf(base, sizeof base, "%s", stamp);
        else
            snprintf(base, sizeof base, "%s-%d", stamp, k);
        if (run_name_taken(base))
            continue;
        s = run_create_log(base);
        if (s == EFI_ACCESS_DENIED)
            continue;
        /* A write-protected stick that has \baremark already: the
         * directory was there, the first file is refused.  Move as above
         * and look for a free name on the new volume from the start. */
        if (s == EFI_WRITE_PROTECTED && !esp_save_moved() && run_move_results("creating the result files", s)) {
            if ((s = esp_mkdir(RUN_DIR)) != EFI_SUCCESS) {
                run_saving_failed("creating \\baremark", s);
                return 0;
            }
            replace_leftovers(RUN_DIR);
            k = 0;
            continue;
        }
        if (s != EFI_SUCCESS) {
            run_saving_failed("creating the result files", s);
            return 0;
        }
        snprintf(run_name_buf, sizeof run_name_buf, "%s", base);
        run_saving = 1;
        out_show("results: \\baremark\\%s.log and \\baremark\\%s.json on the %s\n", base, base,
                 esp_save_moved() ? "volume named above" : "ESP");
        results_doc_name(base);
        run_flush();
        return 1;
    }
    run_saving_failed("finding a free file name", EFI_ACCESS_DENIED);
    return 0;
}

/* With no file (a diskless network boot, a read-only stick), the document
 * still carries the name the run would have had: the server it is sent to
 * lists it by that name. */
void run_files_open(void)
{
    if (!run_files_create())
        results_doc_name(run_name_buf);
}

/* INJECTFAULT=hang INJECTIN=files:end-written (end-scrubbed, end-deleted): the run
 * stops between two steps of its final JSON write, so the power-cord test
 * can cut there (tests/boot/test_powercut.sh). */
static void run_json_step(const char *step)
{
    char key[32];
    snprintf(key, sizeof key, "files:end-%s", step);
    const char *kind = plat_fault_take(key);
    if (!kind)
        return;
    out_show("fault injection: %s in %s (INJECTFAULT setting): the run stops here\n", kind, key);
    for (;;)
        __asm__ volatile("pause");
}

static EFI_STATUS run_write_json(const struct json_writer *w)
{
    char path[96];
    if (w->failed)
        return EFI_OUT_OF_RESOURCES;
    snprintf(path, sizeof path, RUN_DIR "\\%s.json", run_name_buf);
    return replace_whole(path, w->buf, w->len, run_ended ? run_json_step : NULL);
}

void run_flush(void)
{
    struct json_writer w;
    EFI_STATUS s;

    size_t run_log_len;
    const char *run_log = run_log_text(&run_log_len);
    const struct json_writer *doc = results_doc();

    run_console_catch_up();
    if (!run_saving || !run_irq_enabled())
        return;
    s = esp_file_write_at(run_log_file, run_file_done, run_log + run_file_done,
                         run_log_len - run_file_done);
    if (s != EFI_SUCCESS) {
        /* Nothing of ours reached the ESP yet: leave no empty log behind. */
        if (run_file_done == 0) {
            esp_file_delete(run_log_file);
            run_log_file = NULL;
        }
        run_saving_failed("writing the log", s);
        return;
    }
    run_file_done = run_log_len;
    for (int attempt = 0; attempt < 2; attempt++) {
        results_doc_compose(&w, run_ended);
        s = run_write_json(&w);
        /* The written buffer starts with the document: if the two differ
         * after the firmware's write, memory we own changed under the
         * firmware (a stray write or DMA into it); say where, write again. */
        size_t at = 0;
        if (s == EFI_SUCCESS && !w.failed)
            while (at < doc->len && w.buf[at] == doc->buf[at])
                at++;
        json_free(&w);
        if (s != EFI_SUCCESS || at == doc->len)
            break;
        if (run_json_changed++ == 0)
            run_json_changed_at = at;
    }
    if (s != EFI_SUCCESS)
        run_saving_failed("writing the JSON results", s);
}

/* OUTFILE (BYTEmark's): a copy of the whole log as \baremark\NAME.  The
 * name was checked by the parser (config_outfile_why: no drive, path or
 * ".."); run_outfile_refused checks it again before the summary (its
 * warning is part of the run), as the file it writes must stay inside
 * \baremark\ whatever reached this point. */
int run_outfile_refused(const char *name)
{
    const char *why = config_outfile_why(name);
    if (why)
        out_warn("OUTFILE '%s' refused: %s", name, why);
    return why != NULL;
}

void run_outfile(const char *name)
{
    char path[96];
    size_t run_log_len;
    const char *run_log = run_log_text(&run_log_len);
    snprintf(path, sizeof path, RUN_DIR "\\%s", name);
    EFI_STATUS s = replace_whole(path, run_log, run_log_len, NULL);
    if (s == EFI_SUCCESS)
        return;
    out_warn("OUTFILE: the copy of the log as \\baremark\\%s was not written (%s)", name, fw_status_name(s));
    run_flush();       /* the warning into the log and the JSON errors */
}

int run_saving_now(void) { return run_saving; }

void run_files_end(void)
{
    run_ended = 1;
    results_doc_end();      /* the duration the summary and the final file both say */
}

void run_files_close(void)
{
    esp_file_close(run_log_file);
}

void run_files_changed(unsigned *times, size_t *first_at)
{
    *times = run_json_changed;
    *first_at = run_json_changed_at;
}

/* ---- port/platform.h's results document: each member closed is written at once ---- */

struct json_writer *results_section_begin(const char *name, int array)
{
    return results_doc_member_begin(name, array);
}

void results_section_end(void)
{
    results_doc_member_end();
    run_flush();
}
