/*
 * boot/run.c - output sinks, the results document, the ESP files and the
 * run's status (see run.h), and bench/platform.h + bench/out.h for the image.
 *
 * Every line goes at once to COM1 (written by our own driver, so it works
 * with interrupts masked) and into an in-memory log.  The screen and the ESP
 * are firmware services, so they are fed from the log only while interrupts
 * are enabled: text printed inside a masked window reaches them right after.
 */
#include <efi.h>
#include <efilib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cpu.h"
#include "firmware.h"
#include "json.h"
#include "lava.h"
#include "mp.h"
#include "out.h"
#include "platform.h"
#include "qemu.h"
#include "results.h"
#include "run.h"
#include "run_status.h"
#include "serial.h"
#include "summary.h"
#include "trap.h"

#define RUN_LOG_INITIAL   (1u << 20)   /* grows while interrupts are on */
#define RUN_LINE_MAX      4096
#define RUN_DIR           "\\baremark"
#define RUN_MAX_SUFFIX    999

static const char *const run_status_text[] = {
    [RUN_OK] = "completed and saved",
    [1] = "",
    [RUN_WARNINGS] = "completed with warnings",
    [RUN_FAILED] = "could not run",
};

static struct serial_port run_com1;
static char *run_log;
static size_t run_log_len, run_log_cap, run_console_done, run_file_done;
static int run_log_lost;
static struct json_writer run_doc, run_errors;
static unsigned run_json_changed;       /* times the buffer changed during a write */
static size_t run_json_changed_at;       /* where it differed first */
static int run_section_is_array;
static int run_state = RUN_OK;
static uint64_t run_tick_hz;
static char run_name_buf[32];
static EFI_FILE_HANDLE run_log_file, run_json_file;
static int run_saving;           /* files are open and writable */
static int run_ended;
/* The stage the run is in: written into every file before the end, so a
 * run that never ends says where it stopped ("interrupted during memory"). */
static char run_stage_name[32] = "startup";

/* ---- the log --------------------------------------------------------------- */

static int run_irq_enabled(void) { return (cpu_flags() >> 9) & 1; }

static void run_log_append(const char *s, size_t n)
{
    if (run_log_len + n + 1 > run_log_cap) {
        size_t cap = run_log_cap ? run_log_cap * 2 : RUN_LOG_INITIAL;
        char *nb;
        while (run_log_len + n + 1 > cap)
            cap *= 2;
        nb = run_irq_enabled() ? AllocatePool(cap) : NULL;
        if (!nb) {
            run_log_lost = 1;
            return;
        }
        if (run_log)
            memcpy(nb, run_log, run_log_len);
        FreePool(run_log);
        run_log = nb;
        run_log_cap = cap;
    }
    memcpy(run_log + run_log_len, s, n);
    run_log_len += n;
    run_log[run_log_len] = 0;
}

static void run_console_catch_up(void)
{
    if (!run_irq_enabled() || run_console_done >= run_log_len)
        return;
    fw_console_write(run_log + run_console_done, run_log_len - run_console_done);
    run_console_done = run_log_len;
}

static void run_emit(const char *s, size_t n)
{
    serial_write(&run_com1, s, n);
    run_log_append(s, n);
    run_console_catch_up();
}

void out_vprintf(const char *fmt, va_list ap)
{
    char line[RUN_LINE_MAX];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    run_emit(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vprintf(fmt, ap);
    va_end(ap);
}

void out_warn(const char *fmt, ...)
{
    char msg[RUN_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    out_printf("warning: %s\n", msg);
    json_str(&run_errors, NULL, msg);
    run_status_raise(RUN_WARNINGS);
}

void run_output_init(void)
{
    serial_init(&run_com1, SERIAL_COM1);
    json_init(&run_errors);
    json_arr_begin(&run_errors, NULL);
    json_init(&run_doc);
    json_obj_begin(&run_doc, NULL);
    json_u64(&run_doc, "schema", 1);
}

/* ---- platform.h for the image ---------------------------------------------- */

/* On an AP (boot/mp.h) the firmware must not be called: memory comes from
 * the arena the BSP set aside for that CPU. */
void *plat_alloc(size_t bytes)
{
    if (mp_on_ap())
        return mp_arena_alloc(bytes ? bytes : 1);
    return AllocatePool(bytes ? bytes : 1);
}

void plat_free(void *p)
{
    if (p && !mp_arena_free(p))
        FreePool(p);
}
uint64_t plat_ticks(void) { return rdtsc(); }
uint64_t plat_tick_hz(void) { return run_tick_hz; }
void plat_serial_write(const char *s, size_t n) { serial_write(&run_com1, s, n); }
unsigned long plat_irq_off(void) { return cpu_irq_save(); }
void plat_irq_restore(unsigned long token) { cpu_irq_restore(token); }
const char *plat_name(void) { return "uefi"; }
void run_set_tick_hz(uint64_t hz) { run_tick_hz = hz; }

void *plat_read_file(const char *name, size_t *size)
{
    char path[260];
    size_t k = 0;
    if (name[0] != '\\' && name[0] != '/')
        path[k++] = '\\';
    for (size_t i = 0; name[i] && k + 1 < sizeof path; i++)
        path[k++] = name[i] == '/' ? '\\' : name[i];
    path[k] = 0;
    return fw_esp_read(path, size, NULL);
}

int plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size)
{
    struct trap_fault f;
    if (trap_run(fn, arg, result, &f) == 0)
        return 0;
    snprintf(why, why_size, "%s (vector %llu) at RIP 0x%llx, error code 0x%llx%s",
             f.name, (unsigned long long)f.vector, (unsigned long long)f.rip,
             (unsigned long long)f.error_code, f.vector == 14 ? ", page fault address in CR2" : "");
    return -1;
}

static char run_inject_kind[16], run_inject_where[32];
static int run_inject_fired;

void run_set_fault_injection(const char *kind, const char *where)
{
    snprintf(run_inject_kind, sizeof run_inject_kind, "%s", kind);
    snprintf(run_inject_where, sizeof run_inject_where, "%s", where);
}

void plat_fault_point(const char *key)
{
    /* An AP cannot print: the cores section injects its own (run_fault_take). */
    if (!run_inject_kind[0] || strcmp(key, run_inject_where) || mp_on_ap())
        return;
    out_printf("fault injection: %s fault in %s (INJECTFAULT setting)\n", run_inject_kind, key);
    run_inject_fired++;
    trap_inject(run_inject_kind);
}

const char *run_fault_take(const char *key)
{
    if (!run_inject_kind[0] || strcmp(key, run_inject_where))
        return NULL;
    run_inject_fired++;
    return run_inject_kind;
}

void run_fault_injection_check(void)
{
    if (run_inject_kind[0] && !run_inject_fired)
        out_warn("INJECTIN=%s named no test that ran: no %s fault was injected",
                 run_inject_where, run_inject_kind);
}

/* ---- the results document ---------------------------------------------------- */

struct json_writer *results_section_begin(const char *name, int array)
{
    run_section_is_array = array;
    if (array)
        json_arr_begin(&run_doc, name);
    else
        json_obj_begin(&run_doc, name);
    return &run_doc;
}

void results_section_end(void)
{
    if (run_section_is_array)
        json_arr_end(&run_doc);
    else
        json_obj_end(&run_doc);
    run_flush();
}

/* The document as written: sections so far, then errors, status, ended. */
static void run_json_compose(struct json_writer *w)
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
    /* Until the end, the file says what it would say if the run stopped
     * now: interrupted, in this stage.  The final write replaces both with
     * the numeric status of the last serial line. */
    if (run_ended) {
        json_i64(w, "status", run_state);
    } else {
        json_str(w, "status", RS_INTERRUPTED_TEXT);
        json_str(w, "stage", run_stage_name);
    }
    json_bool(w, "ended", run_ended);
    json_obj_end(w);
}

/* ---- files ------------------------------------------------------------------ */

const char *run_name(void) { return run_name_buf; }

static void run_saving_failed(const char *what, EFI_STATUS s)
{
    run_saving = 0;
    if (s == EFI_WRITE_PROTECTED)
        out_warn("results not saved: the ESP is write-protected (%s while %s); "
                 "results are on serial and screen only", fw_status_name(s), what);
    else if (s == EFI_VOLUME_FULL)
        out_warn("results not saved completely: the ESP is full (%s while %s); "
                 "what was written before stays, the rest is on serial and screen only",
                 fw_status_name(s), what);
    else
        out_warn("results not saved: %s while %s; results are on serial and screen only",
                 fw_status_name(s), what);
}

static EFI_STATUS run_create_pair(const char *base)
{
    char path[96];
    EFI_STATUS s;

    snprintf(path, sizeof path, RUN_DIR "\\%s.log", base);
    s = fw_esp_create(path, &run_log_file);
    if (s != EFI_SUCCESS)
        return s;
    snprintf(path, sizeof path, RUN_DIR "\\%s.json", base);
    s = fw_esp_create(path, &run_json_file);
    if (s != EFI_SUCCESS) {
        /* Our own empty log, just created: remove it so no half pair stays. */
        run_log_file->Delete(run_log_file);
        run_log_file = NULL;
    }
    return s;
}

static int run_name_taken(const char *base)
{
    char path[96];
    snprintf(path, sizeof path, RUN_DIR "\\%s.log", base);
    if (fw_esp_exists(path))
        return 1;
    snprintf(path, sizeof path, RUN_DIR "\\%s.json", base);
    return fw_esp_exists(path);
}

void run_files_open(void)
{
    char stamp[24], base[32];
    EFI_STATUS s;

    fw_time_name(stamp, sizeof stamp);
    snprintf(run_name_buf, sizeof run_name_buf, "%s", stamp);
    s = fw_esp_open();
    if (s != EFI_SUCCESS) {
        run_saving_failed("opening the ESP", s);
        return;
    }
    s = fw_esp_mkdir(RUN_DIR);
    if (s != EFI_SUCCESS) {
        run_saving_failed("creating \\baremark", s);
        return;
    }
    /* Never open an earlier run's file: find a free name, then create. */
    for (int k = 1; k <= RUN_MAX_SUFFIX; k++) {
        if (k == 1)
            snprintf(base, sizeof base, "%s", stamp);
        else
            snprintf(base, sizeof base, "%s-%d", stamp, k);
        if (run_name_taken(base))
            continue;
        s = run_create_pair(base);
        if (s == EFI_ACCESS_DENIED)
            continue;
        if (s != EFI_SUCCESS) {
            run_saving_failed("creating the result files", s);
            return;
        }
        snprintf(run_name_buf, sizeof run_name_buf, "%s", base);
        run_saving = 1;
        out_printf("results: \\baremark\\%s.log and \\baremark\\%s.json on the ESP\n", base, base);
        json_str(&run_doc, "name", base);
        run_flush();
        return;
    }
    run_saving_failed("finding a free file name", EFI_ACCESS_DENIED);
}

void run_flush(void)
{
    struct json_writer w;
    EFI_STATUS s;

    run_console_catch_up();
    if (!run_saving || !run_irq_enabled())
        return;
    s = fw_file_write_at(run_log_file, run_file_done, run_log + run_file_done,
                         run_log_len - run_file_done);
    if (s != EFI_SUCCESS) {
        /* Nothing of ours reached the ESP yet: leave no empty pair behind. */
        if (run_file_done == 0) {
            run_log_file->Delete(run_log_file);
            run_json_file->Delete(run_json_file);
            run_log_file = run_json_file = NULL;
        }
        run_saving_failed("writing the log", s);
        return;
    }
    run_file_done = run_log_len;
    for (int attempt = 0; attempt < 2; attempt++) {
        run_json_compose(&w);
        s = w.failed ? EFI_OUT_OF_RESOURCES : fw_file_rewrite(run_json_file, w.buf, w.len);
        /* The written buffer starts with the document: if the two differ
         * after the firmware's write, memory we own changed under the
         * firmware (a stray write or DMA into it); say where, write again. */
        size_t at = 0;
        if (s == EFI_SUCCESS && !w.failed)
            while (at < run_doc.len && w.buf[at] == run_doc.buf[at])
                at++;
        json_free(&w);
        if (s != EFI_SUCCESS || at == run_doc.len)
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
static int run_outfile_refused(const char *name)
{
    const char *why = config_outfile_why(name);
    if (why)
        out_warn("OUTFILE '%s' refused: %s", name, why);
    return why != NULL;
}

static void run_outfile(const char *name)
{
    char path[96];
    snprintf(path, sizeof path, RUN_DIR "\\%s", name);
    EFI_STATUS s = fw_esp_write_whole(path, run_log, run_log_len);
    if (s == EFI_SUCCESS)
        return;
    out_warn("OUTFILE: the copy of the log as \\baremark\\%s was not written (%s)", name, fw_status_name(s));
    run_flush();       /* the warning into the log and the JSON errors */
}

/* ---- the summary ------------------------------------------------------------ */

static void run_summary_line(void *ctx, const char *line)
{
    (void)ctx;
    out_printf("%s\n", line);
}

/* The run's summary (bench/summary.h), built from the results document as
 * written, between its two marker lines. */
static void run_summary(void)
{
    struct json_writer w;
    struct summary *s = plat_alloc(sizeof *s);
    run_json_compose(&w);
    if (!s || w.failed)
        out_printf("summary: not shown: out of memory (the results are complete; baremark show RUN.json "
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
    snprintf(run_stage_name, sizeof run_stage_name, "%s", name);
    run_flush();
}

void run_status_raise(int status)
{
    if (status > run_state)
        run_state = status;
}

int run_status(void) { return run_state; }

uint64_t run_end(const struct run_exit *how)
{
    if (run_log_lost)
        out_warn("part of the log was lost: out of memory while interrupts were masked");
    if (run_doc.failed)
        out_warn("the JSON results are incomplete: out of memory");
    if (run_json_changed)
        out_warn("the JSON results changed in memory while the firmware wrote them (%u time%s, first at "
                 "byte %llu); written again, but check the file with baremark validate",
                 run_json_changed, run_json_changed == 1 ? "" : "s", (unsigned long long)run_json_changed_at);
    int outfile = how->outfile && how->outfile[0] && run_saving;
    if (outfile && run_outfile_refused(how->outfile))
        outfile = 0;
    run_ended = 1;
    out_printf("saved: %s\n", run_saving ? "yes" : "no");
    if (how->outfile && how->outfile[0] && !run_saving)
        out_printf("outfile: not written (the results could not be saved on this stick)\n");
    else if (outfile)
        out_printf("outfile: this log copied to \\baremark\\%s (OUTFILE)\n", how->outfile);
    int wait = !how->qemu_exit && !how->shutdown && how->end_wait;
    if (wait && how->end_wait_seconds)
        out_printf("end: press a key to return to the firmware (or wait %u s)\n", how->end_wait_seconds);
    else if (wait)
        out_printf("end: press a key to return to the firmware\n");
    /* LAVA's run_status case and end line (serial only), the summary of
     * the results as written (into the log on the ESP and OUTFILE's copy
     * too), then the fixed last line (tests and tools/run-qemu look for it). */
    lava_end(run_state);
    run_summary();
    run_flush();
    if (outfile)
        run_outfile(how->outfile);
    fw_file_close(run_log_file);
    fw_file_close(run_json_file);
    out_printf("baremark: run ended, status %d (%s)\n", run_state, run_status_text[run_state]);
    if (how->qemu_exit)
        qemu_debug_exit((uint8_t)run_state);
    if (how->shutdown)
        fw_shutdown();
    if (wait)
        fw_wait_key(how->end_wait_seconds);
    return run_state == RUN_FAILED ? EFI_ABORTED : EFI_SUCCESS;
}

uint64_t run_fatal(const struct run_exit *how, const char *fmt, ...)
{
    char msg[RUN_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    out_printf("fatal: %s\n", msg);
    json_str(&run_errors, NULL, msg);
    run_status_raise(RUN_FAILED);
    struct run_exit stay = *how;
    stay.shutdown = 0;
    return run_end(&stay);
}
