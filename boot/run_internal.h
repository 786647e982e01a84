/*
 * boot/run_internal.h - what the parts of one run share: the log
 * (boot/output.c), the results document (boot/results_doc.c) and the files
 * (boot/run_files.c), for boot/run.c's end of the run.
 */
#ifndef BAREMARK_RUN_INTERNAL_H
#define BAREMARK_RUN_INTERNAL_H

#include <stddef.h>

#include "json.h"

#define RUN_LINE_MAX 4096              /* one printed line at most */

/* ---- the log (boot/output.c) ---- */
int run_irq_enabled(void);
/* Feed the screen what the log holds beyond what it showed (interrupts on). */
void run_console_catch_up(void);
/* The whole log so far and its length. */
const char *run_log_text(size_t *len);
/* Nonzero when a line was lost (no memory while interrupts were masked). */
int run_log_was_lost(void);

/* ---- the results document (boot/results_doc.c) ---- */
void results_doc_init(void);
/* One line of text into the document's "errors" array. */
void results_error(const char *msg);
/* The sections written so far (an open object). */
const struct json_writer *results_doc(void);
/* The run's name member ("name"). */
void results_doc_name(const char *name);
/* The stage the run is in (boot/run.c's run_stage). */
void results_doc_stage(const char *name);
/* The document as written: the sections, then errors, status (before the
 * end: "interrupted" and the stage), ended. */
void results_doc_compose(struct json_writer *w, int ended);

/* ---- the files (boot/run_files.c) ---- */
int run_saving_now(void);              /* the files are open and writable */
void run_files_end(void);              /* from now on the document says "ended" */
void run_files_close(void);
/* OUTFILE: nonzero (and a warning) when the name is refused; otherwise
 * run_outfile writes a copy of the log as \baremark\NAME. */
int run_outfile_refused(const char *name);
void run_outfile(const char *name);
/* How often the document changed under the firmware while it was written. */
void run_files_changed(unsigned *times, size_t *first_at);

#endif
