/*
 * bench/results/figures_run.h - the figure tables of the run's own members (see
 * figures.h): the document's top level, build, settings and system.  The
 * sections' tables are in bench/figures_SECTION.c.
 */
#ifndef BAREMARK_FIGURES_RUN_H
#define BAREMARK_FIGURES_RUN_H

#include "figures.h"

#define RUN_FIGURES(X) \
    /* path        LAVA id        unit      kind        flags */ \
    X(FIG_RUN_SCHEMA,      "schema",    NULL,          "",       FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL)) \
    /* the run_status case is printed by lava_end, after every section */ \
    X(FIG_RUN_STATUS,      "status",    "run_status",  "status", FIG_INFO,   0, .only = "ended")   /* else "interrupted" */ \
    /* entry to end by the calibrated TSC (boot/results_doc.c); null without \
     * the clock section's rate, absent before this figure existed */ \
    X(FIG_RUN_DURATION_MS, "duration_ms", NULL,        "ms",     FIG_INFO,   FIG_SOMETIMES, .label = "run took", \
      .field = FIG_FIELD_MIN(FIELD_NUM_OR_NULL, FIELD_OPT, 0, NULL)) \
    /* the profile the run used, "quick" or "full" (a string: bench/config/config.h \
     * config_profile_settle, once before the sections); absent in older files */ \
    X(FIG_RUN_PROFILE,     "profile",   NULL,          "",       FIG_DETAIL, FIG_SOMETIMES, \
      .field = FIG_FIELD_WORDS(FIELD_OPT, "quick|full"))
FIGURE_IDS(run_figure, RUN_FIGURES);
extern const struct figure_table figures_run;

#define BUILD_FIGURES(X) \
    X(FIG_BUILD_ALL, "*", NULL, "", FIG_DETAIL, 0)       /* texts only: version, compiler, flags */
FIGURE_IDS(build_figure, BUILD_FIGURES);
extern const struct figure_table figures_build;

#define SETTINGS_FIGURES(X) \
    X(FIG_SETTINGS_ALL, "*", NULL, "", FIG_DETAIL, 0)       /* the settings in effect, echoed */
FIGURE_IDS(settings_figure, SETTINGS_FIGURES);
extern const struct figure_table figures_settings;

#define SYSTEM_FIGURES(X) \
    X(FIG_SYSTEM_LOGICAL_CPUS, "logical_cpus", NULL, "CPUs", FIG_INFO,   FIG_HEADLINE, .label = "CPUs", \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_OPT, 1, NULL)) \
    X(FIG_SYSTEM_MEMORY_MIB,   "memory_mib",   NULL, "MiB",  FIG_INFO,   FIG_HEADLINE, .label = "memory", \
      .field = FIG_FIELD(FIELD_UINT, FIELD_OPT, NULL)) \
    X(FIG_SYSTEM_ALL,          "*",            NULL, "",     FIG_DETAIL, 0)   /* CPUID and firmware numbers, ACPI addresses */
FIGURE_IDS(system_figure, SYSTEM_FIGURES);
extern const struct figure_table figures_system;

#endif
