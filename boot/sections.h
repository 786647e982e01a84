/*
 * boot/sections.h - the measuring sections efi_main runs, in order.  Each
 * prints its text, writes its results section and returns 0, or 2 when
 * something was skipped or failed.  Declared weak so the image builds while a
 * section is still being written; efi_main reports a missing one.
 */
#ifndef BAREMARK_SECTIONS_H
#define BAREMARK_SECTIONS_H

#include "acpi.h"
#include "config.h"
#include "section.h"

#define SECTION_WEAK __attribute__((weak))
/* kernel/clock.c: calibrate the TSC against every reference; sets the
 * frequency portable code sees (ctx->set_tick_hz). */
int clock_run(const struct section_ctx *ctx) SECTION_WEAK;
/* bench/methods.c: the timing methods, their overhead and resolution. */
int methods_run(const struct section_ctx *ctx) SECTION_WEAK;
/* bench/compare.c: A/A and A/B comparisons. */
int compare_run(const struct section_ctx *ctx) SECTION_WEAK;
/* kernel/trap.c: install the image's exception handlers. */
int trap_init(void) SECTION_WEAK;
void trap_fini(void) SECTION_WEAK;
#undef SECTION_WEAK

#endif
