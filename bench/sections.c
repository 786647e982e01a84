/*
 * bench/sections.c - the section table: the measuring sections efi_main
 * (boot/main.c) runs, in this order, each when the settings enable it.
 * The settings follow from it: SECTIONS= accepts every name (and label)
 * here, the default set is every entry without SECTION_OFF_BY_DEFAULT, and
 * the settings' "sections" list names the enabled ones in this order.
 *
 * Adding a section is one new folder (bench/NAME/) plus one row in
 * bench/sections.def: docs/adding-a-section.md is the recipe (the folder:
 * its run function and its figure table; the row: its place in the run
 * order).
 *
 * This table is portable (names, labels, flags, figure tables: what the
 * settings, the fleet reader and the summary read).  The run functions are
 * the image's alone: boot/sections.c lists them from the same rows, so a
 * section whose run function is not linked into the image is a link error;
 * the summary parts are the summary's: bench/summary/summary.c lists them
 * from the same rows (the parts read the figure tables, whose reader reads
 * this table: listed here, they would close a circle).
 */
#include <stddef.h>

#include "figures.h"
#include "section.h"

/* Each row of bench/sections.def (and of BAREMARK_EXTRA_SECTIONS, a
 * section built from outside the tree: docs/adding-a-section.md): its
 * figure table. */
#define SECTION(name, label, run, flags, figures, summary, report) extern const struct figure_table figures;
#include "sections.def"
#undef SECTION

const struct section section_table[] = {
#define SECTION(name, label, run, flags, figures, summary, report) { name, label, flags, &figures },
#include "sections.def"
#undef SECTION
};

const unsigned section_count = sizeof section_table / sizeof section_table[0];

_Static_assert(sizeof section_table / sizeof section_table[0] <= SECTION_MAX,
               "more sections than bits in bm_config.sections");
