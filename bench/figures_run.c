/*
 * bench/figures_run.c - the figure tables of the run's own members (see
 * figures.h): the document's top level, build, settings and system.  The
 * sections' tables are in bench/figures_SECTION.c.
 */
#include "figures.h"

static const struct figure run_rows[] = {
    /* path        LAVA id        unit      kind        flags */
    { "schema",    NULL,          "",       FIG_DETAIL, 0 },
    /* the run_status case is printed by lava_end, after every section */
    { "status",    "run_status",  "status", FIG_INFO,   0, .only = "ended" },   /* else "interrupted" */
    /* entry to end by the calibrated TSC (boot/results_doc.c); null without
     * the clock section's rate, absent before this figure existed */
    { "duration_ms", NULL,        "ms",     FIG_INFO,   FIG_SOMETIMES, .label = "run took" },
};
FIGURE_TABLE(figures_run, NULL, NULL, run_rows);

static const struct figure build_rows[] = {
    { "*", NULL, "", FIG_DETAIL, 0 },       /* texts only: version, compiler, flags */
};
FIGURE_TABLE(figures_build, "build", NULL, build_rows);

static const struct figure settings_rows[] = {
    { "*", NULL, "", FIG_DETAIL, 0 },       /* the settings in effect, echoed */
};
FIGURE_TABLE(figures_settings, "settings", NULL, settings_rows);

static const struct figure system_rows[] = {
    { "logical_cpus", NULL, "CPUs", FIG_INFO,   FIG_HEADLINE, .label = "CPUs" },
    { "memory_mib",   NULL, "MiB",  FIG_INFO,   FIG_HEADLINE, .label = "memory" },
    { "*",            NULL, "",     FIG_DETAIL, 0 },   /* CPUID and firmware numbers, ACPI addresses */
};
FIGURE_TABLE(figures_system, "system", NULL, system_rows);
