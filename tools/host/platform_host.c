/*
 * tools/host/platform_host.c - bench/platform.h and bench/out.h for Linux.
 * The TSC frequency is measured once against CLOCK_MONOTONIC_RAW.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#include "out.h"
#include "platform.h"

#define HOST_CAL_NS 50000000ull /* 50 ms against the monotonic clock */

static uint64_t host_tick_hz;
static int host_warnings;

void *plat_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
void plat_free(void *p) { free(p); }
uint64_t plat_ticks(void) { return __rdtsc(); }
unsigned long plat_irq_off(void) { return 0; }
void plat_irq_restore(unsigned long token) { (void)token; }
const char *plat_name(void) { return "linux"; }

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t plat_tick_hz(void)
{
    if (!host_tick_hz) {
        uint64_t n0 = host_ns(), t0 = __rdtsc(), n1, t1;
        do {
            n1 = host_ns();
            t1 = __rdtsc();
        } while (n1 - n0 < HOST_CAL_NS);
        host_tick_hz = (uint64_t)((double)(t1 - t0) * 1e9 / (double)(n1 - n0) + 0.5);
    }
    return host_tick_hz;
}

void *plat_read_file(const char *name, size_t *size)
{
    FILE *f = fopen(name, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = n;
    }
    return buf;
}

void out_vprintf(const char *fmt, va_list ap) { vprintf(fmt, ap); }

void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void out_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warning: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    host_warnings++;
}

int host_warning_count(void) { return host_warnings; }

int plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size)
{
    long r = fn(arg);
    if (result)
        *result = r;
    if (why_size)
        why[0] = 0;
    return 0;
}

void plat_fault_point(const char *key) { (void)key; }
