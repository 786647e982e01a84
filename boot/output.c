/*
 * boot/output.c - the image's output (bench/platform.h's text output, plat_serial_write): every
 * line goes at once to COM1 (written by our own driver, so it works with
 * interrupts masked) and into an in-memory log.  The screen and the ESP are
 * firmware services, so they are fed from the log only while interrupts are
 * enabled: text printed inside a masked window reaches them right after
 * (the screen here, the ESP in boot/run_files.c).
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

static struct serial_port run_com1;
static char *run_log;
static size_t run_log_len, run_log_cap, run_console_done;
static int run_log_lost;

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
