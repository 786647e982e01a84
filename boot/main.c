/*
 * boot/main.c - efi_main: the data flow of one boot, step by step.
 */
#include <efi.h>
#include <efilib.h>
#include <string.h>

#include "acpi.h"
#include "buildinfo.h"
#include "config.h"
#include "cpu.h"
#include "figures.h"
#include "firmware.h"
#include "json.h"
#include "lava.h"
#include "io.h"
#include "platform.h"
#include "platform_efi.h"
#include "progress.h"
#include "plugins_section.h"
#include "results_doc.h"
#include "run.h"
#include "sections.h"
#include "settings.h"
#include "sysinfo.h"
#include "trap.h"
#include "watchdog.h"

static void main_banner(void)
{
    out_show("\nbaremark %s - bare-metal timing and BYTEmark\n", BUILD_VERSION);
    out_printf("build: %s, %s\n", BUILD_COMPILER, BUILD_EFI_CFLAGS);
}

static void main_build_json(void)
{
    struct json_writer *w = results_section_begin("build", 0);
    json_str(w, "version", BUILD_VERSION);
    json_str(w, "compiler", BUILD_COMPILER);
    json_str(w, "flags", BUILD_EFI_CFLAGS);
    json_str(w, "target", "x86_64-uefi");
    results_section_end();
}

static void main_settings(const struct bm_config *cfg, const struct run_env *env)
{
    out_printf("settings in effect:\n");
    config_print(cfg);
    struct json_writer *w = results_section_begin("settings", 0);
    config_json_members(w, cfg);
    results_section_end();
    /* The profile the run uses, decided once (efi_main settled it right
     * after the settings) and recorded once: every section and every reader takes this. */
    const char *profile = config_profile_name((enum bm_profile)env->profile);
    out_show("profile: %s%s\n", profile,
             cfg->profile != BM_PROFILE_AUTO ? " (PROFILE setting)"
             : env->cpu->hypervisor_present ? " (PROFILE=auto: a hypervisor is present)"
             : env->vm_hidden ? " (PROFILE=auto: a hypervisor CPUID hides, named by SMBIOS)"
             : " (PROFILE=auto: no hypervisor)");
    results_doc_profile(profile);
    watchdog_setting(cfg->watchdog_seconds);
    if (cfg->inject_fault != BM_FAULT_NONE) {
        if (!cfg->inject_where[0])
            out_warn("INJECTFAULT=%s without INJECTIN: no fault will be injected",
                     config_fault_name(cfg->inject_fault));
        else
            platform_efi_fault_arm(config_fault_name(cfg->inject_fault), cfg->inject_where);
    }
}

/* IDLESECONDS: stay idle with interrupts enabled, so the run outlasts the
 * firmware's 5-minute watchdog (which would reset the machine if armed). */
static void main_idle(const struct bm_config *cfg)
{
    if (!cfg->idle_seconds)
        return;
    out_printf("idle: %u s with interrupts enabled (IDLESECONDS setting)\n",
               (unsigned)cfg->idle_seconds);
    uint64_t t0 = cpu_rdtsc();
    EFI_STATUS s = fw_idle(cfg->idle_seconds);
    uint64_t dt = cpu_rdtsc() - t0, hz = plat_tick_hz();
    if (s != EFI_SUCCESS)
        out_warn("idle: the firmware timer failed (%s)", fw_status_name(s));
    else if (hz)
        out_printf("idle: done after %llu.%03llu s by the TSC\n", (unsigned long long)(dt / hz),
                   (unsigned long long)(dt % hz * 1000 / hz));
    else
        out_printf("idle: done after %llu TSC ticks\n", (unsigned long long)dt);
}

/* A section's LAVA cases (LAVA=T), made from its figure table and the
 * member it just wrote (bench/results/figures_lava.c), printed as one block after
 * its text. */
static void main_lava(const struct section *s)
{
    struct json_writer w;
    if (!lava_enabled() || !s->figures) {
        lava_flush();
        return;
    }
    results_doc_compose(&w, 0);
    if (w.failed)
        out_warn("%s: its LAVA cases are not printed: out of memory for the results document",
                 section_label(s));
    else
        figures_lava_print(jval_doc(w.buf, w.len), s->figures);
    json_free(&w);
    lava_flush();
}

/* The sections of bench/sections.c in order: each one the settings enable
 * and the image has; the others noted (a section with a setting of its own,
 * VERIFY, silently when off).  `skip`: the section the previous run
 * stopped in (watchdog.h), left out this once. */
static void main_sections(const struct section_ctx *ctx, const char *skip)
{
    unsigned total = 0, n = 0;
    for (unsigned i = 0; i < section_count; i++)
        total += config_section_enabled(ctx->cfg, section_table[i].name) && strcmp(section_table[i].name, skip);
    for (unsigned i = 0; i < section_count; i++) {
        const struct section *s = &section_table[i];
        if (!config_section_enabled(ctx->cfg, s->name)) {
            if (!(s->flags & SECTION_OWN_SETTING))
                out_printf("%s: skipped (settings)\n", section_label(s));
        } else if (!strcmp(s->name, skip)) {
            out_show("%s: skipped this once: the previous run stopped in it (warning above); the next boot "
                     "runs it again\n", section_label(s));
        } else {
            run_stage(s->name);
            watchdog_inject_hang(s->name);
            progress_section_begin(section_label(s), ++n, total);
            int status = section_runs[i](ctx);
            run_status_raise(status);
            main_lava(s);               /* its LAVA cases, right after its text */
            progress_section_end(status);
        }
    }
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
    struct bm_config cfg;
    struct acpi_info acpi;

    fw_init(image, st);                 /* watchdog off first */
    cpu_identity();                     /* the CPU's identity: one CPUID pass, kept */
    if (cpu_info.has_tsc)
        results_doc_entry(cpu_rdtsc());     /* the run's duration counts from here */
    run_output_init();
    main_banner();
    watchdog_report_start();
    settings_load(&cfg);
    const struct run_env *env = run_env_decide(&cfg);     /* the run's environment and profile, once */
    run_files_open();
    main_build_json();
    main_settings(&cfg, env);
    char skip[32];
    watchdog_previous_run(skip, sizeof skip);
    /* The handlers first: the system block reads MSRs (the microcode)
     * through the safe accessors, which need them. */
    trap_init();
    run_stage("system");
    sysinfo_report(&acpi, env);
    struct run_exit how = { cfg.qemu_exit, cfg.shutdown, cfg.end_wait, cfg.end_wait_seconds, cfg.outfile,
                            cfg.results, cfg.results_key, cfg.results_via, cfg.results_ca };
    if (!cpu_info.has_tsc) {
        trap_fini();
        return run_fatal(&how, "this CPU has no time-stamp counter (CPUID.1:EDX bit 4): "
                         "baremark cannot time anything; nothing was measured");
    }
    struct section_ctx ctx = { &cfg, &acpi, env };
    main_sections(&ctx, skip);
    run_stage("end");
    plugins_section_fini();             /* teardown and unload of the plug-ins */
    trap_fini();
    platform_efi_fault_check();
    main_idle(&cfg);
    return run_end(&how);
}
