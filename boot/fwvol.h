/*
 * boot/fwvol.h - the firmware's identity: a SHA-256 over the firmware
 * volumes its Firmware Volume Block2 protocols expose, the variable store
 * left out (bench/system/fwid.h says how it is computed).
 */
#ifndef BAREMARK_FWVOL_H
#define BAREMARK_FWVOL_H

#include "acpi.h"
#include "fwid.h"

/* Fill id (id->sha256 "" and id->why one line when nothing could be
 * hashed); *ms: the time it took by the ACPI PM timer, -1 without one.
 * Never fails the run. */
void fwvol_identity(const struct acpi_info *ai, struct fwid *id, double *ms);

#endif
