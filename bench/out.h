/*
 * bench/out.h - the text output every part of baremark writes to.
 *
 * In the image one call reaches the serial port (COM1), the firmware console
 * and the text log on the ESP; on the host it reaches standard output.
 * Lines end with "\n" only; sinks that need CRLF add the CR themselves.
 */
#ifndef BAREMARK_OUT_H
#define BAREMARK_OUT_H

#include <stdarg.h>

/* printf-style: %d %i %u %x %X %ld %lu %lld %llu %llx %zu %s %c %p %f %e %g
 * with flags, width and precision as in C99. */
void out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_vprintf(const char *fmt, va_list ap);

/* Record a problem: printed as one line "warning: ..." and kept in the
 * JSON "errors" list; the run's status becomes at least 2 (warnings). */
void out_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
