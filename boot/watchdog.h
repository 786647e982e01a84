/*
 * boot/watchdog.h - what ends a run that hangs, and what the next boot says
 * about it (boot/watchdog.c).
 *
 * The firmware's watchdog resets the machine when its countdown runs out;
 * baremark turns it off at start (firmware.c) and WATCHDOGSECONDS arms it
 * again, for each stage of the run: the countdown starts again as each
 * stage (a section, "system", "end") begins.  While the run is in a stage a
 * marker says so: the UEFI variable BaremarkRun under baremark's own vendor
 * GUID, non-volatile, so it is there on the next boot of the same machine
 * whatever the boot path (stick, CD, network with no disk at all).  It
 * holds "RUN STAGE WATCHDOG ROUTINE": the run's name, the stage, the
 * seconds the watchdog was armed for (0: off; a plug-in probe's own
 * countdown included) and the plug-in routine being called ("-": none).  The run's end deletes it, so a marker found at start is a run that
 * did not end: a watchdog reset, a power cut or a manual reset.
 */
#ifndef BAREMARK_WATCHDOG_H
#define BAREMARK_WATCHDOG_H

#include <efi.h>
#include <stddef.h>

/* "watchdog: disabled" (or a warning that the firmware refused). */
void watchdog_report_start(void);
/* Arm the watchdog for `seconds` from now (0: off), as the marker will
 * say; the plug-in probe's own countdown comes through here too. */
EFI_STATUS watchdog_arm(unsigned seconds);
/* WATCHDOGSECONDS: arm the watchdog again now and at each stage (0: leave
 * it off). */
void watchdog_setting(unsigned seconds);
/* At start, before the first stage: the marker an earlier run left, said
 * as one warning (into the JSON's errors, status 2), then deleted.  `skip`
 * gets the section that run stopped in, which this run leaves out once, so
 * a section that hangs cannot reset the machine at every boot; empty when
 * there is none, and when it stopped in a plug-in routine (the plug-ins'
 * own marker skips that routine, plugins_section.h). */
void watchdog_previous_run(char *skip, size_t n);
/* The run enters a stage: the marker says so, the countdown starts again. */
void watchdog_stage(const char *stage);
/* A plug-in routine is about to be called (NULL: it returned). */
void watchdog_routine(const char *routine);
/* The run ended: the marker is deleted and the watchdog turned off. */
void watchdog_end(void);
/* INJECTFAULT=hang INJECTIN=section:NAME: if asked for at the start of
 * this section, stop here for ever, interrupts enabled (a test aid). */
void watchdog_inject_hang(const char *section);

#endif
