/*
 * bench/platform.h - what portable code (bench/, stats/ callers) needs from
 * the place it runs.  Implemented twice: boot/platform_efi.c for the UEFI
 * image and tools/host/platform_host.c for the hosted Linux program.
 *
 * Portable code includes only this header, <stdint.h>, <stddef.h>,
 * <string.h>, <math.h> and its own headers.  It never calls the firmware or
 * libc I/O directly.
 */
#ifndef BAREMARK_PLATFORM_H
#define BAREMARK_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* Memory.  plat_alloc returns NULL when memory is short (never aborts). It
 * may call the firmware, so never call it with interrupts masked. */
void *plat_alloc(size_t bytes);
void plat_free(void *p);

/* Time-stamp counter and its calibrated frequency in Hz (0 = unknown). */
uint64_t plat_ticks(void);
uint64_t plat_tick_hz(void);

/* Interrupt masking around timed work.  plat_irq_off returns a token for
 * plat_irq_restore; on the host both are no-ops. */
unsigned long plat_irq_off(void);
void plat_irq_restore(unsigned long token);

/* Read a whole file named relative to the run's home (the ESP root in the
 * image, the current directory on the host).  Returns a plat_alloc'd buffer
 * and its size, or NULL when the file cannot be read. */
void *plat_read_file(const char *name, size_t *size);

/* Run fn(arg) so that a CPU exception inside it (divide error, invalid
 * opcode, page fault...) fails only this call: returns 0 with *result set,
 * or -1 with a one-line description of the fault in why (which the caller
 * prints with the test's name).  On the host it simply calls fn. */
int plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size);

/* A fault-injection point: call it inside the protected work of the test
 * named `key` (e.g. "numsort", "method:rdtscp").  When the settings ask for a
 * fault in that test (INJECTFAULT=divide|opcode|page, INJECTIN=key) the
 * faulting instruction executes here.  No-op on the host. */
void plat_fault_point(const char *key);

/* Write straight to the serial console and nowhere else: in the image COM1
 * only (not the screen, not the text log), on the host standard output.
 * For lines meant for machines watching the console (bench/lava.h). */
void plat_serial_write(const char *s, size_t n);

/* Name of the place the code runs in, e.g. "uefi" or "linux". */
const char *plat_name(void);

#endif
