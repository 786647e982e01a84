/*
 * boot/platform_efi.c - port/platform.h for the image: memory from the
 * firmware (or an AP's arena), the TSC, interrupt masking, files on the ESP,
 * loading plug-in images, the watchdog, protected calls through kernel/trap.h
 * and the fault-injection points.
 * The rest of the port: output in boot/output.c, pages in
 * boot/memory_pages.c, CPUs and workers in boot/mp.c.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "file_replace.h"
#include "esp_files.h"
#include "firmware.h"
#include "mp.h"
#include "platform.h"
#include "plugins/baremark_plugin.h"
#include "platform_efi.h"
#include "run_files.h"
#include "trap.h"
#include "watchdog.h"

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
uint64_t plat_ticks(void) { return cpu_rdtsc(); }
uint64_t plat_tick_hz(void) { return run_tick_hz; }
void plat_set_tick_hz(uint64_t hz) { run_tick_hz = hz; }
static uint64_t run_tick_step;
uint64_t plat_tick_step(void) { return run_tick_step; }
void plat_set_tick_step(uint64_t ticks) { run_tick_step = ticks; }

/* MSRs through kernel/trap.h: a #GP from a register the CPU or the
 * hypervisor does not have is caught and reported as a refusal. */
unsigned plat_caps(void) { return PLAT_CAP_IRQ_MASK | PLAT_CAP_MSR | PLAT_CAP_PHYS; }
const char *plat_rdmsr(uint32_t msr, uint64_t *value)
{
    return cpu_rdmsr_safe(msr, value) ? "#GP: the CPU has no such register" : NULL;
}

const char *plat_wrmsr(uint32_t msr, uint64_t value)
{
    return cpu_wrmsr_safe(msr, value) ? "#GP: the CPU refused the register or the value" : NULL;
}

unsigned long plat_irq_off(void) { return cpu_irq_save(); }
void plat_irq_restore(unsigned long token) { cpu_irq_restore(token); }
const char *plat_name(void) { return "uefi"; }

/* The firmware's file paths: from the ESP's root, '\\' between names. */
static void plat_efi_path(const char *name, char *path, size_t size)
{
    size_t k = 0;
    if (name[0] != '\\' && name[0] != '/')
        path[k++] = '\\';
    for (size_t i = 0; name[i] && k + 1 < size; i++)
        path[k++] = name[i] == '/' ? '\\' : name[i];
    path[k] = 0;
}

/* Read `name` with the firmware reader `read` (the boot volume's or the
 * results volume's). */
static const char *plat_efi_read(void *(*read)(const char *, size_t *, EFI_STATUS *), const char *name,
                                 void **buf, size_t *size)
{
    char path[260];
    EFI_STATUS s = EFI_SUCCESS;
    plat_efi_path(name, path, sizeof path);
    *buf = read(path, size, &s);
    return *buf ? NULL : fw_status_name(s);
}

const char *plat_read_file(const char *name, void **buf, size_t *size)
{
    return plat_efi_read(esp_read, name, buf, size);
}

const char *plat_read_saved_file(const char *name, void **buf, size_t *size)
{
    return plat_efi_read(esp_save_read, name, buf, size);
}

const char *plat_write_file(const char *name, const void *buf, size_t n)
{
    char path[260];
    plat_efi_path(name, path, sizeof path);
    EFI_STATUS s = replace_whole(path, buf, n, NULL);   /* old or new whole, whatever a cut hits */
    return s == EFI_SUCCESS ? NULL : fw_status_name(s);
}

void plat_delete_file(const char *name)
{
    char path[260];
    plat_efi_path(name, path, sizeof path);
    esp_delete(path);
}

const char *plat_list_dir(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx,
                          int *missing)
{
    char path[260];
    plat_efi_path(dir, path, sizeof path);
    EFI_STATUS s = esp_list(path, fn, ctx);
    *missing = s == EFI_NOT_FOUND || s == EFI_NOT_READY;
    return s == EFI_SUCCESS ? NULL : fw_status_name(s);
}

/* ---- loading an image: LoadImage from the file's bytes, StartImage, and its
 * table through BM_PLUGIN_PROTOCOL_GUID (plugins/baremark_plugin.h) ---- */

static EFI_GUID plat_plugin_guid = BM_PLUGIN_PROTOCOL_GUID;

const char *plat_image_load(const char *name, void *buf, size_t n, struct plat_image *img, char *why,
                            size_t why_size)
{
    char path[260];
    EFI_HANDLE child;
    const char *stage, *file = strrchr(name, '\\') ? strrchr(name, '\\') + 1 : name;

    memset(img, 0, sizeof *img);
    plat_efi_path(name, path, sizeof path);
    EFI_STATUS s = fw_image_start(path, buf, n, &child, &stage);
    if (s != EFI_SUCCESS) {
        /* UEFI 2.10 LoadImage: either status means the platform's policy
         * (Secure Boot's db/dbx) refused the file. */
        if (s == EFI_SECURITY_VIOLATION || s == EFI_ACCESS_DENIED)
            snprintf(why, why_size, "refused by the firmware under Secure Boot (%s: not signed with a key it "
                     "trusts); sign it: baremark-stick add-plugin STICK %s --key KEY --cert CERT",
                     fw_status_name(s), file);
        else
            snprintf(why, why_size, "the firmware's %s failed (%s)", stage, fw_status_name(s));
        return why;
    }
    /* shim 16 takes over LoadImage/StartImage for what its second stage
     * loads and frees every image when its entry point returns (it supports
     * only applications): the plug-in's table would then be freed memory.
     * Its loaded-image protocol goes with it, which is how this shows. */
    EFI_LOADED_IMAGE *li = fw_handle_protocol(child, &LoadedImageProtocol);
    if (!li) {
        snprintf(why, why_size, "unloaded as soon as it started: the loader baremark was started by (shim) frees "
                 "drivers; plug-ins need the firmware's own loader (docs/guide-stick.md, Secure Boot, way (a))");
        return why;
    }
    img->table = fw_handle_protocol(child, &plat_plugin_guid);
    if (!img->table) {
        snprintf(why, why_size, "it started but published no baremark plug-in protocol: build it with "
                 "tools/baremark-plugin");
        fw_image_unload(child);
        return why;
    }
    img->handle = child;
    img->base = (uint64_t)(uintptr_t)li->ImageBase;
    img->size = li->ImageSize;
    return NULL;
}

const char *plat_image_unload(void *handle)
{
    EFI_STATUS s = fw_image_unload(handle);
    return s == EFI_SUCCESS ? NULL : fw_status_name(s);
}

/* ---- the run ---- */

const char *plat_watchdog_arm(unsigned seconds)
{
    EFI_STATUS s = watchdog_arm(seconds);
    return s == EFI_SUCCESS ? NULL : fw_status_name(s);
}

void plat_hang_note(const char *routine) { watchdog_routine(routine); }
void plat_flush(void) { run_flush(); }
const char *plat_run_name(void) { return run_name(); }

const char *plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size)
{
    struct plat_fault f;
    if (trap_run(fn, arg, result, &f) == 0)
        return NULL;
    snprintf(why, why_size, "%s (vector %llu) at RIP 0x%llx, error code 0x%llx%s",
             f.name, (unsigned long long)f.vector, (unsigned long long)f.rip,
             (unsigned long long)f.error_code, f.vector == 14 ? ", page fault address in CR2" : "");
    return why;
}

static char run_inject_kind[16], run_inject_where[32];
static int run_inject_fired;

void platform_efi_fault_arm(const char *kind, const char *where)
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

void platform_efi_fault_check(void)
{
    if (!run_inject_kind[0] || run_inject_fired)
        return;
    /* The files: points come later, inside the final write (boot/run_files.c):
     * known now only by name. */
    if (strncmp(run_inject_where, "files:", 6))
        out_warn("INJECTIN=%s named no test that ran: no %s fault was injected",
                 run_inject_where, run_inject_kind);
    else if (strcmp(run_inject_where, "files:end-written") && strcmp(run_inject_where, "files:end-scrubbed") &&
             strcmp(run_inject_where, "files:end-deleted"))
        out_warn("INJECTIN=%s is no point of the final write (files:end-written, files:end-scrubbed, "
                 "files:end-deleted): "
                 "no %s fault will be injected", run_inject_where, run_inject_kind);
}

