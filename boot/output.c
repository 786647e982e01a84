/*
 * boot/output.c - the image's output (port/platform.h's text output, plat_serial_write): every
 * line goes into an in-memory log (the .log on the ESP: the full text);
 * the console (COM1, written by our own driver, so it works with
 * interrupts masked, and the screen) gets the lines for people (out_show,
 * out_warn) and, with VERBOSE=T, every line (docs/console.md).  The screen
 * and the ESP are firmware services, so they are fed only while interrupts
 * are enabled: text printed inside a masked window reaches them right after
 * (the screen from its queue here, the ESP in boot/run_files.c).
 */
#include <efi.h>
#include <efilib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "firmware.h"
#include "platform.h"
#include "output.h"
#include "results_doc.h"
#include "serial.h"

#define RUN_LOG_INITIAL   (1u << 20)   /* grows while interrupts are on */

#define RUN_HELD_MAX      (16u << 10)  /* detail printed before VERBOSE is known */
#define RUN_SCREEN_MAX    (256u << 10) /* console text waiting for the screen */

static struct serial_port run_com1;
static char *run_log;
static size_t run_log_len, run_log_cap;
static int run_log_lost;
/* VERBOSE: -1 until the settings are read (a moment after the banner).
 * The text printed until then waits: all of it in run_held, the lines for
 * people also in run_held_shown; the console gets one or the other, in the
 * order printed, once the setting is known. */
static int run_verbose = -1;
static char run_held[RUN_HELD_MAX], run_held_shown[RUN_HELD_MAX];
static size_t run_held_len, run_held_shown_len;
/* What the console shows, waiting for interrupts to reach the screen. */
static char run_screen[RUN_SCREEN_MAX];
static size_t run_screen_len, run_screen_lost;

/* ---- the log --------------------------------------------------------------- */

int run_irq_enabled(void) { return (cpu_flags() >> 9) & 1; }

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

void run_console_catch_up(void)
{
    char note[128];
    if (!run_irq_enabled() || !run_screen_len)
        return;
    fw_console_write(run_screen, run_screen_len);
    run_screen_len = 0;
    if (run_screen_lost) {
        int k = snprintf(note, sizeof note, "(%llu bytes printed with interrupts masked are not on this screen; "
                         "serial and the log have them)\n", (unsigned long long)run_screen_lost);
        run_screen_lost = 0;
        fw_console_write(note, (size_t)k < sizeof note ? (size_t)k : sizeof note - 1);
    }
}

static void run_console(const char *s, size_t n)
{
    serial_write(&run_com1, s, n);
    if (run_screen_len + n <= sizeof run_screen) {
        memcpy(run_screen + run_screen_len, s, n);
        run_screen_len += n;
    } else
        run_screen_lost += n;
    run_console_catch_up();
}

static void run_emit(const char *s, size_t n, int show)
{
    run_log_append(s, n);
    if (run_verbose < 0) {
        if (run_held_len + n <= sizeof run_held) {
            memcpy(run_held + run_held_len, s, n);
            run_held_len += n;
        }
        if (show && run_held_shown_len + n <= sizeof run_held_shown) {
            memcpy(run_held_shown + run_held_shown_len, s, n);
            run_held_shown_len += n;
        }
    } else if (show || run_verbose)
        run_console(s, n);
}

void run_console_verbose(int on)
{
    if (run_verbose >= 0)
        return;
    run_verbose = on != 0;
    if (run_verbose && run_held_len)
        run_console(run_held, run_held_len);
    else if (!run_verbose && run_held_shown_len)
        run_console(run_held_shown, run_held_shown_len);
    run_held_len = run_held_shown_len = 0;
}

int run_console_is_verbose(void) { return run_verbose == 1; }

static void run_vprint(int show, const char *fmt, va_list ap)
{
    char line[RUN_LINE_MAX];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    run_emit(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, show);
}

void out_vprintf(const char *fmt, va_list ap) { run_vprint(0, fmt, ap); }

void out_show(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    run_vprint(1, fmt, ap);
    va_end(ap);
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
    out_show("warning: %s\n", msg);
    results_error(msg);
    run_status_raise(RUN_WARNINGS);
}

void run_output_init(void)
{
    serial_init(&run_com1, SERIAL_COM1);
    results_doc_init();
}

void plat_serial_write(const char *s, size_t n) { serial_write(&run_com1, s, n); }

const char *run_log_text(size_t *len)
{
    *len = run_log_len;
    return run_log;
}

int run_log_was_lost(void) { return run_log_lost; }
