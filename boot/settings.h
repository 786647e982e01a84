/*
 * boot/settings.h - where the run's settings come from, in order (later
 * wins): baremark's defaults, the command file (\baremark.cfg on the ESP, or
 * the file named with -c in the options), then the options themselves:
 * UEFI load options (a boot entry or the shell's command line) and, under
 * QEMU, the fw_cfg file opt/org.baremark/options (tools/run-qemu --options).
 */
#ifndef BAREMARK_SETTINGS_H
#define BAREMARK_SETTINGS_H

#include "config.h"

#define SETTINGS_DEFAULT_FILE "\\baremark.cfg"
#define SETTINGS_FWCFG_NAME   "opt/org.baremark/options"

/* Fill *cfg; every problem is reported as a warning with its line. */
void settings_load(struct bm_config *cfg);

#endif
