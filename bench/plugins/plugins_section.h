/*
 * bench/plugins/plugins_section.h - the plugins section: find every *.efi in
 * \baremark\plugins, load and start it through the port's image loader
 * (port/platform.h; the image: LoadImage from the file's bytes, StartImage,
 * the table through BM_PLUGIN_PROTOCOL_GUID), hand it to bench/plugins/plugins.c
 * for the checks, run the routines' setup and probe each routine once, and
 * at the end of the run tear down and unload.
 *
 * A routine that never returns.  The probe calls each routine once with
 * interrupts enabled and the firmware watchdog armed for PLUGINPROBESECONDS,
 * after the log and the results so far are saved and with a marker file
 * \baremark\plugin-probe.txt naming the file (SHA-256), the routine and the
 * run.  A routine that does not return lets the watchdog reset the machine
 * (QEMU with -no-reboot: QEMU exits; tools/run-qemu reports 3, no final
 * line).  The next boot finds the marker, moves its line to
 * \baremark\plugin-hangs.txt, and every run skips a routine listed there
 * (one warning naming file, routine and the run it hung in, status 2) for
 * as long as the file has the same SHA-256: rebuild it and it is tried again.
 * Only then are routines timed, with interrupts masked and the firmware's
 * timer stopped: a routine that returns when probed but hangs later cannot
 * be stopped by anything but a reset.
 */
#ifndef BAREMARK_PLUGINS_SECTION_H
#define BAREMARK_PLUGINS_SECTION_H

#include <stdint.h>

#define PLUGIN_PROBE_MARKER "\\baremark\\plugin-probe.txt"
#define PLUGIN_HANGS_FILE   "\\baremark\\plugin-hangs.txt"

struct plugins_section_opts {
    const char *routines;             /* PLUGINROUTINES ("" = all) */
    unsigned probe_seconds;           /* watchdog per probe call */
    uint64_t probe_iterations;        /* iterations of the probe call */
    unsigned watchdog_after;          /* re-arm to this after the probes (0 = off) */
};

/* Load, check, list, set up and probe; write the "plugins" results section.
 * Returns 0, or 2 when a file was rejected or a routine taken out. */
int plugins_section_load(const struct plugins_section_opts *o);

/* The section (bench/sections.c): the options from the settings
 * (PLUGINROUTINES, PLUGINPROBESECONDS, WATCHDOGSECONDS; the probe call's
 * iterations are the most any measurement uses: max(2N, N + 2, Karsh's
 * precision) with N = METHODITERATIONS). */
struct section_ctx;
int plugins_run(const struct section_ctx *ctx);

/* End of the run: teardown, free, UnloadImage every plug-in. */
void plugins_section_fini(void);

#endif
