/*
 * tools/host/platform/platform_host.c - port/platform.h for Linux.
 * The TSC frequency is measured once against CLOCK_MONOTONIC_RAW.
 *
 * plat_protected catches what the image's exception handlers catch: a
 * routine that raises SIGSEGV, SIGBUS, SIGILL or SIGFPE (the signals Linux
 * turns #PF/#GP, #UD and #DE into) fails only that call, as in the image.
 * The handler runs on its own stack, so a stack overflow is caught too.  With
 * host_protect_timeout(S) set, a call that has not returned after S seconds
 * is ended the same way (SIGALRM): the hosted program's watchdog for plug-in
 * routines that never return.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <x86intrin.h>

#include "host_platform.h"
#include "platform.h"
#include "smbios.h"

#define HOST_CAL_NS 50000000ull /* 50 ms against the monotonic clock */

static uint64_t host_tick_hz;
static int host_warnings;

void *plat_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
void plat_free(void *p) { free(p); }
uint64_t plat_ticks(void) { return __rdtsc(); }
unsigned long plat_irq_off(void) { return 0; }
void plat_irq_restore(unsigned long token) { (void)token; }
const char *plat_name(void) { return "linux"; }

/* Linux shows the SMBIOS system structure's strings in sysfs (the DMI
 * driver): the same words the image reads from the firmware's table. */
static void host_dmi(const char *name, char *out, size_t cap)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/class/dmi/id/%s", name);
    FILE *f = fopen(path, "r");
    out[0] = 0;
    if (!f)
        return;
    if (!fgets(out, (int)cap, f))
        out[0] = 0;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

const char *plat_vm_maker(void)
{
    static struct smbios_info in;
    host_dmi("sys_vendor", in.manufacturer, sizeof in.manufacturer);
    host_dmi("product_name", in.product, sizeof in.product);
    in.found = in.manufacturer[0] || in.product[0];
    return smbios_vm_maker(&in);
}

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void plat_set_tick_hz(uint64_t hz) { host_tick_hz = hz; }
static uint64_t host_tick_step;
uint64_t plat_tick_step(void) { return host_tick_step; }
void plat_set_tick_step(uint64_t ticks) { host_tick_step = ticks; }

/* A Linux process reads no MSR (the kernel's msr driver is root-only and
 * not what the image measures with): no PMU programming, no DE_CFG. */
unsigned plat_caps(void) { return 0; }     /* a Linux process: interrupts stay on, no MSRs, virtual memory */
const char *plat_rdmsr(uint32_t msr, uint64_t *value)
{
    (void)msr, (void)value;
    return "a Linux process has no MSRs";
}

const char *plat_wrmsr(uint32_t msr, uint64_t value)
{
    (void)msr, (void)value;
    return "a Linux process has no MSRs";
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

const char *plat_read_file(const char *name, void **out, size_t *size)
{
    FILE *f = fopen(name, "rb");
    *out = NULL;
    if (!f)
        return strerror(errno);
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
    if (!buf)
        return strerror(ENOMEM);
    buf[n] = 0;
    *size = n;
    *out = buf;
    return NULL;
}

/* The hosted program's results and its reads share the current directory. */
const char *plat_read_saved_file(const char *name, void **buf, size_t *size)
{
    return plat_read_file(name, buf, size);
}

const char *plat_write_file(const char *name, const void *buf, size_t n)
{
    FILE *f = fopen(name, "wb");
    if (!f)
        return strerror(errno);
    int bad = fwrite(buf, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? strerror(errno) : NULL;
}

void plat_delete_file(const char *name) { remove(name); }

const char *plat_list_dir(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx,
                          int *missing)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    *missing = !d && errno == ENOENT;
    if (!d)
        return strerror(errno);
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            fn(e->d_name, (uint64_t)st.st_size, ctx);
    }
    closedir(d);
    return NULL;
}

/* The hosted program opens plug-ins as Linux shared objects with dlopen
 * (tools/host/platform/plugin_host.c: baremark methods/compare --plugin FILE.so);
 * it starts no EFI image. */
const char *plat_image_load(const char *name, void *buf, size_t n, struct plat_image *img, char *why,
                            size_t why_size)
{
    (void)buf, (void)n;
    memset(img, 0, sizeof *img);
    snprintf(why, why_size, "%s: the hosted program loads plug-ins as .so files (--plugin FILE.so), not EFI images",
             name);
    return why;
}

const char *plat_image_unload(void *handle) { (void)handle; return NULL; }

/* No watchdog under Linux: a routine that never returns is ended by
 * host_protect_timeout's alarm instead. */
const char *plat_watchdog_arm(unsigned seconds) { (void)seconds; return NULL; }
void plat_hang_note(const char *routine) { (void)routine; }
void plat_flush(void) { fflush(stdout); }
const char *plat_run_name(void) { return ""; }

void out_vprintf(const char *fmt, va_list ap) { vprintf(fmt, ap); }
void plat_serial_write(const char *s, size_t n) { fwrite(s, 1, n, stdout); }

void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void out_show(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* The hosted program prints every line already: no progress lines. */
void out_progress(unsigned done, unsigned total, const char *what) { (void)done, (void)total, (void)what; }

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

/* ---- protected calls --------------------------------------------------------- */

#define HOST_ALT_STACK (64 * 1024)

static sigjmp_buf *host_jump;           /* innermost protected call, NULL outside */
static volatile sig_atomic_t host_signal;
static void *volatile host_fault_addr;
static unsigned host_timeout_s;
static int host_handlers_ready;

void host_protect_timeout(unsigned seconds) { host_timeout_s = seconds; }

static void host_on_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (!host_jump) {            /* not inside a protected call: die as usual */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    host_signal = sig;
    host_fault_addr = si ? si->si_addr : NULL;
    siglongjmp(*host_jump, 1);
}

static void host_handlers_install(void)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM };
    stack_t ss = { .ss_sp = malloc(HOST_ALT_STACK), .ss_size = HOST_ALT_STACK, .ss_flags = 0 };
    struct sigaction sa;
    if (ss.ss_sp)
        sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    host_handlers_ready = 1;
}

static void host_alarm(unsigned seconds)
{
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = seconds;
    setitimer(ITIMER_REAL, &t, NULL);
}

/* What the image would have called it, for the one-line reason. */
static const char *host_signal_what(int sig)
{
    switch (sig) {
    case SIGSEGV: return "invalid memory reference (#PF or #GP on bare metal)";
    case SIGBUS: return "bus error (#GP or #AC on bare metal)";
    case SIGILL: return "invalid instruction (#UD on bare metal)";
    case SIGFPE: return "arithmetic exception (#DE on bare metal)";
    default: return "signal";
    }
}

const char *plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size)
{
    sigjmp_buf here, *outer = host_jump;
    /* Only these survive the jump back: everything else is set before it. */
    volatile unsigned armed = 0;
    if (why_size)
        why[0] = 0;
    if (!host_handlers_ready)
        host_handlers_install();
    if (sigsetjmp(here, 1)) {
        int sig = host_signal;
        host_jump = outer;
        if (armed)
            host_alarm(0);
        if (sig == SIGALRM)
            snprintf(why, why_size, "did not return within %u s (the hosted program's watchdog)", armed);
        else
            snprintf(why, why_size, "%s: %s at address %p", sigabbrev_np(sig) ? sigabbrev_np(sig) : "SIG?",
                     host_signal_what(sig), host_fault_addr);
        return why;
    }
    host_jump = &here;
    if (host_timeout_s && !outer) {
        armed = host_timeout_s;
        host_alarm(host_timeout_s);
    }
    long r = fn(arg);
    if (armed)
        host_alarm(0);
    host_jump = outer;
    if (result)
        *result = r;
    return NULL;
}

void plat_fault_point(const char *key) { (void)key; }
const char *plat_fault_take(const char *key) { (void)key; return NULL; }

/* ---- CPUs and running work on them ---------------------------------------------
 * The hosted program runs on the CPU Linux gives it and starts work on no
 * other: there are no workers, so nothing is ever posted. */

const char *plat_cpus_init(struct plat_cpus *mi)
{
    memset(mi, 0, sizeof *mi);
    mi->why = "the hosted program runs work on no other CPU";
    return mi->why;
}

uint32_t plat_workers_start(const struct plat_cpus *mi, const uint8_t *want, size_t stack_bytes,
                            uint64_t answer_ticks)
{
    (void)mi, (void)want, (void)stack_bytes, (void)answer_ticks;
    return 0;
}

enum plat_worker_state plat_worker_state(uint32_t cpu) { (void)cpu; return PLAT_W_NONE; }
uint64_t plat_worker_status(uint32_t cpu) { (void)cpu; return 0; }
const char *plat_post(uint32_t cpu, long (*fn)(void *), void *arg)
{
    (void)cpu, (void)fn, (void)arg;
    return "the hosted program has no workers";
}

enum plat_call_outcome plat_collect(uint32_t cpu, uint64_t timeout_ticks, long *result,
                                    struct plat_fault *fault)
{
    (void)cpu, (void)timeout_ticks, (void)result, (void)fault;
    return PLAT_CALL_NOT_POSTED;
}

void plat_workers_stop(uint64_t timeout_ticks) { (void)timeout_ticks; }

const char *plat_arena_reserve(const struct plat_cpus *mi, const uint8_t *want, size_t bytes)
{
    (void)mi, (void)want, (void)bytes;
    return NULL;
}

void plat_arena_release(void) {}
