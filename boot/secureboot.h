/*
 * boot/secureboot.h - the boot state a run was measured in: Secure Boot and
 * the firmware's mode (the UEFI variables SecureBoot, SetupMode, AuditMode,
 * DeployedMode; the last two only where the firmware has them), whether
 * Debian's or another shim started the image (its SHIM_LOCK protocol is
 * installed while its second stage runs; MokSBStateRT says whether a user
 * turned shim's checks off), and the SHA-256 of the running image's file
 * as it is on the ESP, with whether it carries an Authenticode signature.
 * The firmware (or shim) already decided whether the signature is trusted:
 * the image is running.  Printed as "secureboot:" lines and written as the
 * "secure_boot" member of the "system" section.
 */
#ifndef BAREMARK_SECUREBOOT_H
#define BAREMARK_SECUREBOOT_H

struct json_writer;

/* Read the variables, look for shim, hash the image's file; print. */
void secureboot_probe(void);
/* The "secure_boot" object (inside "system"). */
void secureboot_json(struct json_writer *w);

#endif
