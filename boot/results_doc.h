/*
 * boot/results_doc.h - the image's results document in memory
 * (boot/results_doc.c): the sections' members, the errors (every warning's
 * and fatal line's text), the run's status and stage, and the document as
 * boot/run_files.c writes it.
 *
 * Status (serial's last line, the JSON "status", QEMU's exit code):
 *   0  completed and saved
 *   2  completed, but something a person would want was not done (results not
 *      saved, a test failed or was skipped, a command-file line ignored)
 *   3  could not run
 * Every JSON file written before the end says "status": "interrupted" with
 * the "stage" the run was in, so a run cut short (power lost, watchdog
 * reset, a hang) reads as such; the final write puts the number.
 */
#ifndef BAREMARK_RESULTS_DOC_H
#define BAREMARK_RESULTS_DOC_H

#include <stdint.h>

#include "json.h"

#define RUN_OK       0
#define RUN_WARNINGS 2
#define RUN_FAILED   3

/* Raise the run's status (never lowers it). */
void run_status_raise(int status);
int run_status(void);

void results_doc_init(void);
/* A member of the document: open (an array when `array`), then closed. */
struct json_writer *results_doc_member_begin(const char *name, int array);
void results_doc_member_end(void);
/* One line of text into the document's "errors" array. */
void results_error(const char *msg);
/* The sections written so far (an open object). */
const struct json_writer *results_doc(void);
/* The run's name member ("name"). */
void results_doc_name(const char *name);
/* The profile the run uses ("profile": "quick" or "full"), written once,
 * before the sections (efi_main, from config_profile_settle). */
void results_doc_profile(const char *name);
/* The TSC at the image's entry (efi_main, once the CPU is known to have
 * one), and the run's end: "duration_ms" is the time between them by the
 * calibrated rate (before the end, up to each write). */
void results_doc_entry(uint64_t tsc);
void results_doc_end(void);
/* The stage the run is in ("system", a section's name, "end"). */
void results_doc_stage(const char *name);
/* The document as written: the sections, then errors, status (before the
 * end: "interrupted" and the stage), ended. */
void results_doc_compose(struct json_writer *w, int ended);

#endif
