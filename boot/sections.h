/*
 * boot/sections.h - the measuring sections efi_main runs.  The section
 * context (struct section_ctx), the table entry (struct section) and the
 * table itself are portable, so the settings parser (bench/config/config_parse.c)
 * and the hosted program see the same sections: bench/section.h declares
 * them, bench/sections.def holds the rows in run order and
 * docs/adding-a-section.md says how to add one.  The run functions are the image's
 * alone (boot/sections.c).
 */
#ifndef BAREMARK_SECTIONS_H
#define BAREMARK_SECTIONS_H

#include "section.h"

/* section_runs[i] runs section_table[i]. */
typedef int (*section_run_fn)(const struct section_ctx *ctx);
extern const section_run_fn section_runs[];

#endif
