/*
 * boot/file_replace.h - whole files on the results volume replaced so that
 * a power cut at any instant leaves the old version, the new one, or (for
 * a moment between two directory updates) none, never a mix
 * (boot/file_replace.c).  The run's JSON, OUTFILE's copy of the log and
 * the plug-ins' marker files are written this way; the text log is
 * appended to in place (boot/run_files.c).
 */
#ifndef BAREMARK_FILE_REPLACE_H
#define BAREMARK_FILE_REPLACE_H

#include <efi.h>
#include <stddef.h>

/* The suffix of the temporary file beside the one replaced. */
#define REPLACE_SUFFIX ".new"

/* Called between the steps of a replacement (for the power-cord test's
 * fault points): "written" once PATH.new holds the new text, flushed;
 * "deleted" once the old PATH is gone and before PATH.new is renamed. */
typedef void (*replace_step_fn)(const char *step);

/* Write buf as PATH: the text goes to PATH.new (created afresh, written,
 * flushed), then the old PATH is deleted and PATH.new renamed to PATH
 * (EFI_FILE_PROTOCOL.SetInfo with the new FileName, which the UEFI FAT
 * driver supports within a directory).  On failure the old PATH stays as
 * it was and PATH.new is removed; returns the firmware's status
 * (EFI_VOLUME_FULL, EFI_WRITE_PROTECTED...).  step may be NULL. */
EFI_STATUS replace_whole(const char *path, const void *buf, size_t n, replace_step_fn step);

/* The next boot's part: every NAME.new left in the directory dir by a cut
 * (on the results volume).  Beside an existing NAME it is removed (NAME is
 * the last complete version); where NAME is absent and NAME.new is one
 * whole JSON value it is renamed into place (the cut fell between the
 * delete and the rename); otherwise it is kept, and no tool reads it as a
 * run.  One line each on the console.  Returns how many were found. */
unsigned replace_leftovers(const char *dir);

#endif
