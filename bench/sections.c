/*
 * bench/sections.c - the section table: the measuring sections efi_main
 * (boot/main.c) runs, in this order, each when the settings enable it.
 * The settings follow from it: SECTIONS= accepts every name (and label)
 * here, the default set is every entry without SECTION_OFF_BY_DEFAULT, and
 * the settings' "sections" list names the enabled ones in this order.
 *
 * Adding a section is one new file plus one entry here:
 *  1. the file (bench/NAME.c, or kernel/NAME.c for image-only code) defines
 *     int NAME_run(const struct section_ctx *ctx)   (bench/section.h)
 *     which prints its text, writes its results member ("NAME") with
 *     results_section_begin/_end and returns SECTION_OK, or
 *     SECTION_WARNINGS when something was skipped or failed.  It reads the
 *     settings from ctx->cfg (a setting of its own: one entry in
 *     bench/config_params.c's table);
 *  2. its entry: SECTION_RUN(NAME_run) below, and its row in
 *     section_table, e.g.  { "memory", NULL, memory_run, SECTION_OFF_BY_DEFAULT },
 *     at the place in the run order where it belongs.  Flags: 0 (on by
 *     default), SECTION_OFF_BY_DEFAULT (something slow: runs only when
 *     SECTIONS= names it, e.g. SECTIONS=all or SECTIONS=clock,memory).
 * Then: its results member in docs/results-schema.md, its report and
 * validator parts (tools/host/), an icount boot test (tests/boot/), and
 * its figures for a LAVA lab: lava_case("NAME_...", result, value, unit)
 * (bench/lava.h) where it prints each one, which tools/baremark-fleet
 * then reads from LAVA's results (and, with a line in
 * tools/host/cmd_fleet.c, from the JSON too).
 *
 * The run functions are weak: a section whose file is not linked (kernel/
 * code in the hosted program, a section still being written) is NULL, and
 * efi_main says "not built into this image".
 */
#include <stddef.h>

#include "figures.h"
#include "section.h"

#define SECTION_RUN(fn) int fn(const struct section_ctx *ctx) __attribute__((weak))

SECTION_RUN(clock_run);                /* kernel/clock_section.c */
SECTION_RUN(cores_run);                /* kernel/cores.c */
SECTION_RUN(plugins_run);              /* boot/plugin_load.c */
SECTION_RUN(methods_run);              /* bench/methods_section.c */
SECTION_RUN(compare_run);              /* bench/compare.c */
SECTION_RUN(verify_run);               /* bench/bytemark/bytemark.c */
SECTION_RUN(bytemark_section_run);     /* bench/bytemark/bytemark.c */
SECTION_RUN(memory_run);               /* bench/memory.c */

/* Each section's figure table (bench/figures_NAME.c). */
extern const struct figure_table figures_clock, figures_cores, figures_plugins, figures_methods,
    figures_compare, figures_verify, figures_bytemark, figures_memory;

const struct section section_table[] = {
    /* name        label          run                    flags, figures */
    { "clock",     NULL,          clock_run,             0, &figures_clock },
    /* every logical CPU: after clock (it needs the calibrated TSC rate) */
    { "cores",     NULL,          cores_run,             0, &figures_cores },
    /* your routines: loaded, checked and probed before they are timed */
    { "plugins",   NULL,          plugins_run,           0, &figures_plugins },
    { "methods",   NULL,          methods_run,           0, &figures_methods },
    { "compare",   "comparisons", compare_run,           0, &figures_compare },
    /* BYTEmark's kernel checks: VERIFY=T (bench/config_params.c) */
    { "verify",    NULL,          verify_run,            SECTION_OFF_BY_DEFAULT | SECTION_OWN_SETTING,
                                                       &figures_verify },
    { "bytemark",  NULL,          bytemark_section_run,  0, &figures_bytemark },
    /* quick profile: a few seconds under TCG; full: the whole sweep */
    { "memory",    NULL,          memory_run,            0, &figures_memory },
};

const unsigned section_count = sizeof section_table / sizeof section_table[0];

_Static_assert(sizeof section_table / sizeof section_table[0] <= SECTION_MAX,
               "more sections than bits in bm_config.sections");
