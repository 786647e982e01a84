/*
 * bench/results/run_status.h - how a results document says its run ended, read the
 * same way by every reader (the host tools, the run summary, the fleet).
 * docs/results-schema.md, top level: "status" is 0, 2 or 3 once the run
 * ended; in every file written before the end it is the string
 * "interrupted", with the "stage" the run was in (boot/run.c run_stage),
 * so a run cut short by a power loss, a watchdog reset or a hang reads
 * "interrupted during memory", never "0 completed".  Files from images
 * older than "stage" wrote the number with "ended": false: they read as
 * interrupted at a stage not recorded.
 */
#ifndef BAREMARK_RUN_STATUS_H
#define BAREMARK_RUN_STATUS_H

#include <stddef.h>

#include "json_read.h"

#define RS_INTERRUPTED_TEXT "interrupted"   /* the "status" of a run cut short */
#define RS_STAGE_MAX        31              /* longest stage name accepted */

enum rs_kind {
    RS_COMPLETED = 0,      /* status 0: completed and saved */
    RS_WARNINGS = 2,       /* status 2: completed with warnings */
    RS_FAILED = 3,         /* status 3: could not run */
    RS_INTERRUPTED = 4,    /* the run never reached its end */
    RS_UNKNOWN = 5         /* no status, or one this schema does not know */
};

struct rs_state {
    enum rs_kind kind;
    int status;                     /* 0, 2 or 3 for an ended run, else -1 */
    char stage[RS_STAGE_MAX + 1];   /* interrupted: where ("memory"); "" when the file does not say */
};

/* What the members say, however they were read: `word` is "status" when a
 * string (else NULL); has_number/number when it is an integer; ended is
 * "ended" (1 true, 0 false, -1 missing); stage is "stage" (NULL missing). */
void rs_decide(const char *word, int has_number, long long number, int ended, const char *stage,
               struct rs_state *st);

/* Read the top level of a results document with bench/results/json_read.h. */
void rs_read_jr(struct jval doc, struct rs_state *st);

/* The state in words, safe for a terminal and HTML (a stage that is not a
 * plain lowercase word is never kept): "0 completed and saved", "2
 * completed with warnings", "3 could not run", "interrupted during
 * memory", "interrupted after the last section", "interrupted (stage not
 * recorded)", "status unknown".  Returns buf. */
const char *rs_words(const struct rs_state *st, char *buf, size_t n);

/* A stage name as the image writes it: startup, system, end or a section
 * of bench/sections.c.  Returns 1 when `name` is one. */
int rs_stage_known(const char *name);

#endif
