/*
 * kernel/qemu.h - QEMU's guest-visible helpers: the isa-debug-exit port and
 * the fw_cfg device (used to pass options to the image under QEMU).
 */
#ifndef BAREMARK_QEMU_H
#define BAREMARK_QEMU_H

#include <stddef.h>
#include <stdint.h>

/* isa-debug-exit at I/O port 0xF4 (tools/run-qemu adds the device): QEMU
 * exits with (status << 1) | 1.  Only written when the settings ask for it. */
#define QEMU_DEBUG_EXIT_PORT 0xF4
void qemu_debug_exit(uint8_t status);

/* The fw_cfg device answers with the "QEMU" signature. */
int fwcfg_present(void);
/* Read fw_cfg file `name` (e.g. "opt/org.baremark/options") into buf,
 * NUL-terminated; returns its length or -1 when absent. */
int fwcfg_read_file(const char *name, char *buf, size_t n);

#endif
