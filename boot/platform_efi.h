/*
 * boot/platform_efi.h - what efi_main asks of the image's port
 * (boot/platform_efi.c) beyond port/platform.h: arming the fault-injection
 * points (INJECTFAULT, INJECTIN) and checking at the end that one fired.
 */
#ifndef BAREMARK_PLATFORM_EFI_H
#define BAREMARK_PLATFORM_EFI_H

/* Arm plat_fault_point: a `kind` fault ("divide", "opcode", "page") in the
 * test named `where`. */
void platform_efi_fault_arm(const char *kind, const char *where);
/* At the end: warn when a fault was asked for and no test reached its point. */
void platform_efi_fault_check(void);

#endif
