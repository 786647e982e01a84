/*
 * boot/sections.c - the image's run function of every section, from the
 * rows of bench/sections.def (and BAREMARK_EXTRA_SECTIONS, make
 * extra-section), so section_runs[i] runs section_table[i].  Each is linked
 * explicitly: a section without one does not link.
 */
#include "sections.h"

#define SECTION(name, label, run, flags, figures, summary, report) int run(const struct section_ctx *ctx);
#include "sections.def"
#undef SECTION

const section_run_fn section_runs[] = {
#define SECTION(name, label, run, flags, figures, summary, report) run,
#include "sections.def"
#undef SECTION
};

_Static_assert(sizeof section_runs / sizeof section_runs[0] <= SECTION_MAX,
               "more sections than bits in bm_config.sections");
