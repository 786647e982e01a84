/*
 * boot/esp_files.h - files on the ESP the image was loaded from, and on the
 * results volume (the ESP unless esp_save_to moved the results elsewhere).
 * Paths are ASCII with backslashes.  Like every firmware file call, these
 * must be called with interrupts enabled (TPL_CALLBACK or below).
 */
#ifndef BAREMARK_ESP_FILES_H
#define BAREMARK_ESP_FILES_H

#include <efi.h>
#include <stddef.h>
#include <stdint.h>

/* Open the ESP's root; returns EFI status. */
EFI_STATUS esp_open(void);
/* Read a whole file (path with backslashes); NULL when absent or unreadable.
 * The buffer is AllocatePool'd and NUL-terminated. */
void *esp_read(const char *path, size_t *size, EFI_STATUS *status);
/* The same from the results volume (the ESP unless esp_save_to moved them). */
void *esp_save_read(const char *path, size_t *size, EFI_STATUS *status);
/* Results (every create, write and delete below) go to this root from now
 * on; the boot volume stays the one files are read from. */
void esp_save_to(EFI_FILE_HANDLE root);
/* Did esp_save_to move the results off the boot volume? */
int esp_save_moved(void);
/* Does the file exist? */
int esp_exists(const char *path);
/* Create a directory if missing. */
EFI_STATUS esp_mkdir(const char *path);
/* Create a new file (fails with EFI_ACCESS_DENIED if it exists, so an
 * earlier run's file is never opened for writing). */
EFI_STATUS esp_create(const char *path, EFI_FILE_HANDLE *out);
/* Write the whole of buf at offset 0 of an open file and set its size to n;
 * flushes.  Returns EFI status (EFI_VOLUME_FULL, EFI_WRITE_PROTECTED...). */
EFI_STATUS esp_file_rewrite(EFI_FILE_HANDLE f, const void *buf, size_t n);
/* Append buf at offset `at` (the caller's record of the file length). */
EFI_STATUS esp_file_write_at(EFI_FILE_HANDLE f, uint64_t at, const void *buf, size_t n);
void esp_file_close(EFI_FILE_HANDLE f);
/* Call fn(name, size, ctx) for each regular file of a directory (names as
 * ASCII, '?' for characters outside it).  EFI_NOT_FOUND when the directory
 * does not exist. */
EFI_STATUS esp_list(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx);
/* The same in a directory of the results volume. */
EFI_STATUS esp_save_list(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx);
/* Open an existing file of the results volume for writing (no create). */
EFI_STATUS esp_open_rw(const char *path, EFI_FILE_HANDLE *out);
/* A whole file replaced: boot/file_replace.h (crash-safe, through NAME.new). */
/* Delete a file, its text first overwritten with zeros (esp_file_scrub);
 * EFI_SUCCESS also when it was not there. */
EFI_STATUS esp_delete(const char *path);
/* Zeros over an open file's whole length, flushed (why: esp_files.c). */
EFI_STATUS esp_file_scrub(EFI_FILE_HANDLE f);
/* Scrub, then delete (the handle is closed either way). */
EFI_STATUS esp_file_delete(EFI_FILE_HANDLE f);

#endif
