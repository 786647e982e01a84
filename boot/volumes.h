/*
 * boot/volumes.h - a writable FAT volume for the results when the boot
 * volume cannot take them (CD, virtual media, network boot).
 */
#ifndef BAREMARK_VOLUMES_H
#define BAREMARK_VOLUMES_H

#include <stddef.h>

/* Find a writable FAT volume other than the boot one (one that already
 * holds \baremark first, else the first in the firmware's order, creating
 * \baremark on it) and send every result write there (esp_save_to).
 * Returns 1 and its device path as text in `where`, or 0 when none. */
int volume_find_writable(char *where, size_t n);

#endif
