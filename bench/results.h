/*
 * bench/results.h - the run's machine-readable results document.
 *
 * There is one results document per run.  Each section (system, clock,
 * methods, comparisons, bytemark, ...) is written as a top-level member with
 * results_section_begin / results_section_end; when a section ends the
 * image rewrites the JSON file on the ESP (and the host program its output),
 * so a later hang loses nothing already measured.
 *
 * The "errors" list, the "status" and the "ended" flag are appended by the
 * owner of the document when it is flushed; sections never write them.
 */
#ifndef BAREMARK_RESULTS_H
#define BAREMARK_RESULTS_H

#include "json.h"

/* Start a top-level member named `name`; returns the writer to fill in.
 * The member is an object unless `array` is nonzero. */
struct json_writer *results_section_begin(const char *name, int array);
/* Close the member and flush the document to its sinks. */
void results_section_end(void);

#endif
