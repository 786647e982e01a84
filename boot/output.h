/*
 * boot/output.h - the image's output (boot/output.c): every line at once to
 * COM1 and into an in-memory log, the screen fed from the log while
 * interrupts are enabled.  port/platform.h's text output and plat_serial_write are its
 * portable face.
 */
#ifndef BAREMARK_OUTPUT_H
#define BAREMARK_OUTPUT_H

#include <stddef.h>

#define RUN_LINE_MAX 4096              /* one printed line at most */

/* Bring up COM1 and the in-memory log; nothing before this can print. */
void run_output_init(void);
int run_irq_enabled(void);
/* VERBOSE=T: every line on the console (serial and screen), not only the
 * lines for people; called once, when the settings are read: what was
 * printed before then reaches the console now (all of it, or the lines for
 * people), in order. */
void run_console_verbose(int on);
int run_console_is_verbose(void);
/* Feed the screen what the log holds beyond what it showed (interrupts on). */
void run_console_catch_up(void);
/* The whole log so far and its length. */
const char *run_log_text(size_t *len);
/* Nonzero when a line was lost (no memory while interrupts were masked). */
int run_log_was_lost(void);

#endif
