/*
 * bench/figures_plugins.c - the plugins section's figures
 * (bench/plugins_section.c, docs/results-schema.md "plugins"): counts only;
 * the routines' timings are the methods section's (PLUGIN:ROUTINE).
 */
#include "figures.h"

static const struct figure plugins_rows[] = {
    { "routines_ready", NULL, "routines", FIG_INFO, FIG_HEADLINE, .label = "routines ready" },
    { "loaded",         NULL, "files",    FIG_INFO, 0 },
    { "rejected",       NULL, "files",    FIG_INFO, 0 },
    { "files[*].*",     NULL, "",  FIG_DETAIL, FIG_SOMETIMES },
    { "probe.*",        NULL, "",  FIG_DETAIL, 0 },
    { "interface_version", NULL, "", FIG_DETAIL, 0 },
};
FIGURE_TABLE(figures_plugins, "plugins", NULL, plugins_rows);
