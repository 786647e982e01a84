/*
 * boot/progress.h - the console's progress lines (boot/progress.c); the
 * sections' own steps go through out_progress (port/platform.h).
 */
#ifndef BAREMARK_PROGRESS_H
#define BAREMARK_PROGRESS_H

/* Section `label` starts, `index` of the `total` that run (1-based). */
void progress_section_begin(const char *label, unsigned index, unsigned total);
/* It ended; status nonzero: with warnings. */
void progress_section_end(int status);

#endif
