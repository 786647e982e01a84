/*
 * boot/run_files.h - the run's files on the ESP (boot/run_files.c):
 * \baremark\NAME.log and NAME.json, and OUTFILE's copy of the log.  It
 * also closes each results member (port/platform.h's results document) with a flush.
 */
#ifndef BAREMARK_RUN_FILES_H
#define BAREMARK_RUN_FILES_H

#include <stddef.h>

/* Choose \baremark\YYYYMMDD-HHMMSS(.log|.json) (with -2, -3... when taken)
 * and create both files.  On a write-protected or full ESP the run goes on:
 * one clear warning, results stay on serial and screen. */
void run_files_open(void);

/* Write what is new in the log and the whole JSON document to the ESP.
 * Called at the end of every section; interrupts must be enabled. */
void run_flush(void);

/* Name of this run ("20261122-153000" or with a -N suffix). */
const char *run_name(void);

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
