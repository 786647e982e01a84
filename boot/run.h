/*
 * boot/run.h - one run of the image: its stage, its end and a fatal stop
 * (boot/run.c), over its output (output.h), its results document
 * (results_doc.h: the status) and its files (run_files.h), which it
 * includes for efi_main.
 */
#ifndef BAREMARK_RUN_H
#define BAREMARK_RUN_H

#include <stdint.h>

#include "output.h"
#include "results_doc.h"
#include "run_files.h"

/* The run enters a stage ("system", a section's name, "end"): recorded as
 * the JSON's "stage" and written to the ESP at once (interrupts on). */
void run_stage(const char *name);

/* How a run ends (settings QEMUEXIT, SHUTDOWN, ENDWAIT, ENDWAITSECONDS). */
struct run_exit {
    int qemu_exit;                 /* status to QEMU's isa-debug-exit */
    int shutdown;                  /* power off */
    int end_wait;                  /* otherwise wait for a key before returning */
    unsigned end_wait_seconds;     /* at most this long (0: no limit) */
    const char *outfile;           /* OUTFILE: a copy of the log as \baremark\NAME (NULL or "": none) */
    const char *results;           /* RESULTS: the results server (boot/upload.h; "": none) */
    const char *results_key;       /* RESULTS_KEY */
    int results_via;               /* RESULTS_VIA (BM_VIA_*) */
    const char *results_ca;        /* RESULTS_CA */
};

/* The last act: final flush, the fixed final serial line, and the exit the
 * settings ask for: QEMU isa-debug-exit, shutdown, or return to the firmware
 * (after a key, so a person can read the screen).  Returns the EFI status to
 * return from efi_main. */
uint64_t run_end(const struct run_exit *how);

/* A fatal problem: one line, status 3, then run_end (no shutdown: a person
 * at the machine should read it).  Returns what efi_main returns. */
uint64_t run_fatal(const struct run_exit *how, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
