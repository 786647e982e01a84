/*
 * boot/run.h - one run of the image: its output sinks (COM1, screen, text
 * log), its results document, its files on the ESP and its status.
 *
 * Status (serial's last line, the JSON "status", QEMU's exit code):
 *   0  completed and saved
 *   2  completed, but something a person would want was not done (results not
 *      saved, a test failed or was skipped, a command-file line ignored)
 *   3  could not run
 * Every JSON file written before the end says "status": "interrupted" with
 * the "stage" the run was in (run_stage), so a run cut short (power lost,
 * watchdog reset, a hang) reads as such; the final write puts the number.
 */
#ifndef BAREMARK_RUN_H
#define BAREMARK_RUN_H

#include <stdint.h>

#define RUN_OK       0
#define RUN_WARNINGS 2
#define RUN_FAILED   3

/* Bring up COM1 and the in-memory log; nothing before this can print. */
void run_output_init(void);

/* Choose \baremark\YYYYMMDD-HHMMSS(.log|.json) (with -2, -3... when taken)
 * and create both files.  On a write-protected or full ESP the run goes on:
 * one clear warning, results stay on serial and screen. */
void run_files_open(void);

/* Write what is new in the log and the whole JSON document to the ESP.
 * Called at the end of every section; interrupts must be enabled. */
void run_flush(void);

/* The run enters a stage ("system", a section's name, "end"): recorded as
 * the JSON's "stage" and written to the ESP at once (interrupts on). */
void run_stage(const char *name);

/* Raise the run's status (never lowers it). */
void run_status_raise(int status);
int run_status(void);

/* How a run ends (settings QEMUEXIT, SHUTDOWN, ENDWAIT, ENDWAITSECONDS). */
struct run_exit {
    int qemu_exit;                 /* status to QEMU's isa-debug-exit */
    int shutdown;                  /* power off */
    int end_wait;                  /* otherwise wait for a key before returning */
    unsigned end_wait_seconds;     /* at most this long (0: no limit) */
    const char *outfile;           /* OUTFILE: a copy of the log as \baremark\NAME (NULL or "": none) */
};

/* The last act: final flush, the fixed final serial line, and the exit the
 * settings ask for: QEMU isa-debug-exit, shutdown, or return to the firmware
 * (after a key, so a person can read the screen).  Returns the EFI status to
 * return from efi_main. */
uint64_t run_end(const struct run_exit *how);

/* A fatal problem: one line, status 3, then run_end (no shutdown: a person
 * at the machine should read it).  Returns what efi_main returns. */
uint64_t run_fatal(const struct run_exit *how, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Arm plat_fault_point: a `kind` fault ("divide", "opcode", "page") in the
 * test named `where`. */
void run_set_fault_injection(const char *kind, const char *where);
/* At the end: warn when a fault was asked for and no test reached its point. */
void run_fault_injection_check(void);

/* Name of this run ("20261122-153000" or with a -N suffix). */
const char *run_name(void);

#endif
