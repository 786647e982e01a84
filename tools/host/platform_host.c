/*
 * tools/host/platform_host.c - bench/platform.h and bench/out.h for Linux.
 * The TSC frequency is measured once against CLOCK_MONOTONIC_RAW.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <cpuid.h>
#include <x86intrin.h>

#include "buildinfo.h"
#include "commands.h"
#include "json.h"
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

/* The CPU's brand string (CPUID 0x80000002..4), spaces trimmed. */
static void host_cpu_brand(char out[49], char vendor[13])
{
    unsigned int r[4], max;
    __cpuid(0, max, r[1], r[2], r[3]);
    memcpy(vendor, &r[1], 4);
    memcpy(vendor + 4, &r[3], 4);
    memcpy(vendor + 8, &r[2], 4);
    vendor[12] = 0;
    (void)max;
    out[0] = 0;
    __cpuid(0x80000000, max, r[1], r[2], r[3]);
    if (max < 0x80000004)
        return;
    for (unsigned int i = 0; i < 3; i++) {
        __cpuid(0x80000002 + i, r[0], r[1], r[2], r[3]);
        memcpy(out + 16 * i, r, 16);
    }
    out[48] = 0;
    size_t a = 0, n = strlen(out);
    while (out[a] == ' ')
        a++;
    while (n > a && out[n - 1] == ' ')
        n--;
    memmove(out, out + a, n - a);
    out[n - a] = 0;
}

void host_doc_begin(struct json_writer *w)
{
    char name[32] = "", brand[49], vendor[13], os[200];
    time_t now = time(NULL);
    struct tm tm;
    struct utsname u;
    json_init(w);
    json_obj_begin(w, NULL);
    json_u64(w, "schema", 1);
    json_str(w, "platform", plat_name());
    if (localtime_r(&now, &tm) && strftime(name, sizeof name, "%Y%m%d-%H%M%S", &tm))
        json_str(w, "name", name);
    json_obj_begin(w, "build");
    json_str(w, "version", BUILD_VERSION);
    json_str(w, "compiler", BUILD_COMPILER);
    json_str(w, "flags", BUILD_HOST_CFLAGS);
    json_str(w, "target", "x86_64-linux");
    json_obj_end(w);
    host_cpu_brand(brand, vendor);
    json_obj_begin(w, "host");
    json_str(w, "cpu_vendor", vendor);
    json_str(w, "cpu_brand", brand);
    json_u64(w, "logical_cpus", (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
    if (uname(&u) == 0) {
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
        json_str(w, "os", os);
    }
    json_obj_end(w);
}
