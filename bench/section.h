/*
 * bench/section.h - a measuring section: what efi_main hands it, what it
 * returns, and its entry in the section table (bench/sections.c, which says
 * how to add one).  Portable: a section in bench/ or kernel/ includes this
 * header, never boot/'s.
 *
 * A section prints its text (out_printf), writes its results member
 * (results_section_begin/_end) and returns SECTION_OK, or SECTION_WARNINGS
 * when something was skipped or failed.
 */
#ifndef BAREMARK_SECTION_H
#define BAREMARK_SECTION_H

#include <stdint.h>

struct bm_config;
struct acpi_info;
struct figure_table;
struct cpu_info;

/* What a section returns (the run's status rises to it). */
#define SECTION_OK       0
#define SECTION_WARNINGS 2

/* The run's environment: decided once, before the first section
 * (run_env_decide, bench/config/config.h: efi_main and each hosted
 * command), and handed to every section, which asks none of it again. */
struct run_env {
    const struct cpu_info *cpu;         /* the CPU's identity, one CPUID pass (kernel/cpu.h) */
    int profile;                        /* the run's profile, settled: BM_PROFILE_QUICK or
                                           BM_PROFILE_FULL (enum bm_profile, config.h) */
    unsigned caps;                      /* what the platform can do: plat_caps()'s PLAT_CAP_* */
    const char *vm_hidden;              /* where CPUID says no hypervisor: the virtual machine the
                                           firmware's SMBIOS names (plat_vm_maker), else NULL */
};

/* What efi_main hands every section. */
struct section_ctx {
    const struct bm_config *cfg;        /* the run's settings */
    const struct acpi_info *acpi;       /* the ACPI tables sysinfo found */
    const struct run_env *env;          /* the run's environment (above) */
};

/* One entry of the table. */
struct section {
    /* Its SECTIONS= word and its name in the settings' "sections" list,
     * e.g. "compare". */
    const char *name;
    /* Its name on serial ("comparisons: skipped (settings)") when that
     * differs, also accepted by SECTIONS=; NULL: the name. */
    const char *label;
    /* (Its run function is the image's: boot/sections.c.) */
    unsigned flags;                     /* SECTION_OFF_BY_DEFAULT, ... */
    /* The figures it reports (bench/results/figures.h): its results member's
     * table, which the LAVA lines, the fleet reader and the run summary
     * read; NULL for a section that writes no member. */
    const struct figure_table *figures;
};

/* Not in the default set: runs only when SECTIONS= names it (or says
 * all).  For a slow section. */
#define SECTION_OFF_BY_DEFAULT 0x1u
/* Not a SECTIONS= word: switched by a flag setting of its own (a K_SECTION
 * entry in bench/config/config_params.c naming it, e.g. VERIFY=T for verify); not
 * in the settings' "sections" list; nothing is said when it is off. */
#define SECTION_OWN_SETTING    0x2u

/* The sections in run order (bench/sections.c; the rows are in
 * bench/sections.def). */
extern const struct section section_table[];
extern const unsigned section_count;
/* At most this many (the settings keep one bit per section). */
#define SECTION_MAX 32

/* Its label on serial. */
static inline const char *section_label(const struct section *s)
{
    return s->label ? s->label : s->name;
}

/* SECTION_IF_NAMED(SECTION_NONE_##column, text), in a SECTION(...)
 * definition: text when the row's column of bench/sections.def names
 * something, nothing when it is NULL (the SUMMARY and REPORT columns: a
 * part declared only where a row has one).  The paste is the caller's, on
 * the parameter itself, so NULL is not expanded first.  For NULL it gives
 * a macro of two arguments, so the second one picked is empty; a name
 * stays one argument, and text is picked. */
#define SECTION_NONE_NULL ~,
#define SECTION_SECOND_(a, b, ...) b
#define SECTION_PICK_(...) SECTION_SECOND_(__VA_ARGS__)
#define SECTION_IF_NAMED(probe, text) SECTION_PICK_(probe, text, ~)

#endif
