/*
 * boot/sections.h - the measuring sections efi_main runs.  The section
 * context (struct section_ctx), the table entry (struct section) and the
 * table itself are portable, so the settings parser (bench/config.c) and
 * the hosted program see the same sections: bench/section.h declares them,
 * bench/sections.c holds the table in run order and says how to add one.
 */
#ifndef BAREMARK_SECTIONS_H
#define BAREMARK_SECTIONS_H

#include "section.h"

#endif
