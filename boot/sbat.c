/*
 * boot/sbat.c - the image's SBAT metadata (the ".sbat" PE section).
 *
 * shim (15.3 and later) refuses to start a second stage that has no .sbat
 * section ("No .sbat section data", a Security Policy Violation), so the
 * Microsoft-signed shim route of the README needs one.  The format is
 * shim's SBAT.md: CSV lines of component name, generation, vendor name,
 * vendor package, vendor version, vendor URL; the first line names the
 * format itself.  baremark's generation is 1: raise it only to revoke every
 * earlier build (an SbatLevel entry "baremark,N" then refuses builds below N).
 *
 * The array is padded with NULs to a whole number of PE file-alignment
 * units, so the section's VirtualSize equals its SizeOfRawData: shim
 * releases before 15.6 ignore a .sbat whose two sizes differ (rhboot/shim
 * issues 281 and 556), and objcopy rounds only SizeOfRawData.  shim's CSV
 * reader stops at the first NUL.  The Makefile copies the section into the
 * PE (objcopy -j .sbat); the linker places it as an orphan read-only section.
 */
#include "buildinfo.h"

#define SBAT_FILE_ALIGNMENT 512    /* objcopy's PE FileAlignment for efi-app-x86_64 */

#define SBAT_TEXT                                                                        \
    "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"     \
    "baremark,1,baremark,baremark," BUILD_VERSION ",README.md\n"

#define SBAT_PADDED(n) (((n) + SBAT_FILE_ALIGNMENT - 1) / SBAT_FILE_ALIGNMENT * SBAT_FILE_ALIGNMENT)

__attribute__((section(".sbat"), used, aligned(SBAT_FILE_ALIGNMENT)))
const char sbat_section[SBAT_PADDED(sizeof SBAT_TEXT - 1)] = SBAT_TEXT;
