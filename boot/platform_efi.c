/*
 * boot/platform_efi.c - bench/platform.h for the image: memory from the
 * firmware (or an AP's arena), the TSC, interrupt masking, files on the ESP,
 * protected calls through kernel/trap.h and the fault-injection points.
 * The rest of the port: output in boot/output.c, pages in
 * boot/memory_pages.c, CPUs and workers in boot/mp.c.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "firmware.h"
#include "mp.h"
#include "out.h"
#include "platform.h"
#include "run.h"
#include "trap.h"

static uint64_t run_tick_hz;

/* On an AP (boot/mp.h) the firmware must not be called: memory comes from
 * the arena the BSP set aside for that CPU. */
void *plat_alloc(size_t bytes)
{
    if (mp_on_ap())
        return mp_arena_alloc(bytes ? bytes : 1);
    return AllocatePool(bytes ? bytes : 1);
}

void plat_free(void *p)
{
    if (p && !mp_arena_free(p))
        FreePool(p);
}
uint64_t plat_ticks(void) { return rdtsc(); }
uint64_t plat_tick_hz(void) { return run_tick_hz; }
unsigned long plat_irq_off(void) { return cpu_irq_save(); }
void plat_irq_restore(unsigned long token) { cpu_irq_restore(token); }
const char *plat_name(void) { return "uefi"; }
void run_set_tick_hz(uint64_t hz) { run_tick_hz = hz; }

void *plat_read_file(const char *name, size_t *size)
{
    char path[260];
    size_t k = 0;
    if (name[0] != '\\' && name[0] != '/')
        path[k++] = '\\';
    for (size_t i = 0; name[i] && k + 1 < sizeof path; i++)
        path[k++] = name[i] == '/' ? '\\' : name[i];
    path[k] = 0;
    return fw_esp_read(path, size, NULL);
}

int plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size)
{
    struct plat_fault f;
    if (trap_run(fn, arg, result, &f) == 0)
        return 0;
    snprintf(why, why_size, "%s (vector %llu) at RIP 0x%llx, error code 0x%llx%s",
             f.name, (unsigned long long)f.vector, (unsigned long long)f.rip,
             (unsigned long long)f.error_code, f.vector == 14 ? ", page fault address in CR2" : "");
    return -1;
}

static char run_inject_kind[16], run_inject_where[32];
static int run_inject_fired;

void run_set_fault_injection(const char *kind, const char *where)
{
    snprintf(run_inject_kind, sizeof run_inject_kind, "%s", kind);
    snprintf(run_inject_where, sizeof run_inject_where, "%s", where);
}

void plat_fault_point(const char *key)
{
    /* An AP cannot print: the cores section injects its own (run_fault_take). */
    if (!run_inject_kind[0] || strcmp(key, run_inject_where) || mp_on_ap())
        return;
    out_printf("fault injection: %s fault in %s (INJECTFAULT setting)\n", run_inject_kind, key);
    run_inject_fired++;
    trap_inject(run_inject_kind);
}

const char *plat_fault_take(const char *key)
{
    if (!run_inject_kind[0] || strcmp(key, run_inject_where))
        return NULL;
    run_inject_fired++;
    return run_inject_kind;
}

void run_fault_injection_check(void)
{
    if (run_inject_kind[0] && !run_inject_fired)
        out_warn("INJECTIN=%s named no test that ran: no %s fault was injected",
                 run_inject_where, run_inject_kind);
}

