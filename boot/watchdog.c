/*
 * boot/watchdog.c - the watchdog for each stage and the marker that lets
 * the next boot name a stage that hung (see watchdog.h).
 *
 * Why a UEFI variable: the results may have no writable home at all (a
 * network boot with no stick, a CD alone), but every UEFI firmware keeps
 * non-volatile variables (UEFI 2.x, 8.2 "Variable Services"; OVMF in its
 * VARS flash, kept across a reset).  BS|RT access as well, so an operating
 * system booted later can read it too (efivarfs:
 * BaremarkRun-62956c7a-134d-4f60-95fe-8c17c53c5856).  It is written only
 * when the stage or routine changes, a few dozen small writes a run.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "firmware.h"
#include "platform.h"
#include "run_files.h"
#include "sections.h"
#include "watchdog.h"

#define WD_VAR   L"BaremarkRun"
#define WD_GUID  { 0x62956c7a, 0x134d, 0x4f60, { 0x95, 0xfe, 0x8c, 0x17, 0xc5, 0x3c, 0x58, 0x56 } }
#define WD_GUID_TEXT "62956c7a-134d-4f60-95fe-8c17c53c5856"
#define WD_ATTR  (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define WD_MAX   160                    /* the marker's text, at most */

static EFI_GUID wd_guid = WD_GUID;
static unsigned wd_seconds;             /* WATCHDOGSECONDS (0: off) */
static unsigned wd_armed;               /* the countdown now (the plug-in probe's own too) */
static char wd_stage[32] = "startup";
static char wd_last[WD_MAX];            /* what the variable holds now */
static int wd_failed;                   /* SetVariable refused once: stop trying */
static int wd_said;                     /* the line naming the variable was printed */

void watchdog_report_start(void)
{
    EFI_STATUS s = fw_watchdog_status();
    if (s == EFI_SUCCESS)
        out_printf("watchdog: disabled\n");
    else
        out_warn("the firmware watchdog could not be disabled (%s): a run over 5 minutes may be reset",
                 fw_status_name(s));
}

EFI_STATUS watchdog_arm(unsigned seconds)
{
    EFI_STATUS s = fw_watchdog_arm(seconds);
    if (s == EFI_SUCCESS)
        wd_armed = seconds;
    return s;
}

void watchdog_setting(unsigned seconds)
{
    wd_seconds = seconds;
    if (!seconds)
        return;
    EFI_STATUS s = watchdog_arm(seconds);
    if (s == EFI_SUCCESS)
        out_printf("watchdog: armed again for %u s, restarted as each stage begins (WATCHDOGSECONDS setting)\n",
                   seconds);
    else
        out_warn("WATCHDOGSECONDS: the watchdog could not be armed (%s)", fw_status_name(s));
}

/* ---- the marker ------------------------------------------------------------------ */

static void wd_mark(const char *routine)
{
    char text[WD_MAX];
    int n = snprintf(text, sizeof text, "%s %s %u %s", run_name(), wd_stage, wd_armed,
                     routine && routine[0] ? routine : "-");
    if (wd_failed || n <= 0 || (size_t)n >= sizeof text || !strcmp(text, wd_last))
        return;
    EFI_STATUS s = fw_set_variable(WD_VAR, &wd_guid, WD_ATTR, text, (UINTN)n);
    if (s != EFI_SUCCESS) {
        wd_failed = 1;
        out_show("watchdog: the firmware refused the hang marker (SetVariable: %s): if this run hangs, the "
                 "next boot cannot name where\n", fw_status_name(s));
        return;
    }
    if (!wd_last[0] && !wd_said++)
        out_printf("watchdog: run %s keeps its stage in the UEFI variable BaremarkRun-%s, so the next boot can "
                   "say where it stopped if it never ends\n", run_name(), WD_GUID_TEXT);
    memcpy(wd_last, text, (size_t)n + 1);
}

static int wd_is_section(const char *name)
{
    for (unsigned i = 0; i < section_count; i++)
        if (!strcmp(section_table[i].name, name))
            return 1;
    return 0;
}

void watchdog_previous_run(char *skip, size_t n)
{
    char text[WD_MAX + 1], run[40], stage[32], routine[WD_MAX];
    unsigned seconds = 0;
    UINTN size = WD_MAX;

    skip[0] = 0;
    EFI_STATUS s = fw_variable(WD_VAR, &wd_guid, text, &size, NULL);
    if (s == EFI_NOT_FOUND)
        return;
    if (s == EFI_SUCCESS)
        text[size] = 0;
    fw_set_variable(WD_VAR, &wd_guid, WD_ATTR, NULL, 0);
    if (s != EFI_SUCCESS || sscanf(text, "%39s %31s %u %159s", run, stage, &seconds, routine) != 4) {
        out_warn("an earlier run left a hang marker that cannot be read (%s); deleted",
                 s == EFI_SUCCESS ? "not RUN STAGE SECONDS ROUTINE" : fw_status_name(s));
        return;
    }
    int section = wd_is_section(stage), plugin = strcmp(routine, "-") != 0;
    char where[WD_MAX + 64], why[96], then[64] = "";
    snprintf(where, sizeof where, "%s %s%s%s", section ? "section" : "stage", stage,
             plugin ? " calling plug-in routine " : "", plugin ? routine : "");
    if (seconds)
        snprintf(why, sizeof why, "with the watchdog armed for %u s (a hang the watchdog ended, a power cut or a "
                 "manual reset)", seconds);
    else
        snprintf(why, sizeof why, "with the watchdog off (a power cut or a manual reset)");
    if (section && !plugin) {
        snprintf(skip, n, "%s", stage);
        snprintf(then, sizeof then, "; this run leaves %s out once", stage);
    }
    out_warn("the previous run (%s) did not end: it stopped in %s, %s%s", run, where, why, then);
}

void watchdog_stage(const char *stage)
{
    snprintf(wd_stage, sizeof wd_stage, "%s", stage);
    if (wd_seconds)
        watchdog_arm(wd_seconds);       /* the countdown starts again */
    wd_mark(NULL);
}

void watchdog_routine(const char *routine) { wd_mark(routine); }

void watchdog_end(void)
{
    if (wd_last[0])
        fw_set_variable(WD_VAR, &wd_guid, WD_ATTR, NULL, 0);
    wd_last[0] = 0;
    if (wd_armed)
        watchdog_arm(0);                /* the run is over: waiting for a key is not a hang */
}

/* ---- the test aid ------------------------------------------------------------------ */

void watchdog_inject_hang(const char *section)
{
    char key[48];
    snprintf(key, sizeof key, "section:%s", section);
    const char *kind = plat_fault_take(key);
    if (!kind)
        return;
    if (strcmp(kind, "hang")) {
        out_warn("INJECTIN=%s takes only INJECTFAULT=hang: no %s fault injected", key, kind);
        return;
    }
    out_show("fault injection: %s hangs here (INJECTFAULT setting): idle with interrupts enabled until the "
             "watchdog resets the machine\n", section);
    run_flush();
    for (;;)
        fw_idle(3600);
}
