/*
 * bench/plugins/figures_plugins.h - the plugins section's figures
 * (bench/plugins/plugins_section.c, docs/results-schema.md "plugins"): counts only;
 * the routines' timings are the methods section's (PLUGIN:ROUTINE).
 */
#ifndef BAREMARK_FIGURES_PLUGINS_H
#define BAREMARK_FIGURES_PLUGINS_H

#include "figures.h"

#define PLUGINS_FIGURES(X) \
    X(FIG_PLUGINS_ROUTINES_READY,    "routines_ready", NULL, "routines", FIG_INFO, FIG_HEADLINE, .label = "routines ready", \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_PLUGINS_LOADED,            "loaded",         NULL, "files",    FIG_INFO, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_PLUGINS_REJECTED,          "rejected",       NULL, "files",    FIG_INFO, 0, \
      .field = FIG_FIELD(FIELD_UINT, FIELD_REQ, NULL)) \
    X(FIG_PLUGINS_FILES_ALL,         "files[*].*",     NULL, "",  FIG_DETAIL, FIG_SOMETIMES) \
    X(FIG_PLUGINS_PROBE_ALL,         "probe.*",        NULL, "",  FIG_DETAIL, 0) \
    X(FIG_PLUGINS_INTERFACE_VERSION, "interface_version", NULL, "", FIG_DETAIL, 0, \
      .field = FIG_FIELD_MIN(FIELD_UINT, FIELD_REQ, 1, NULL))
FIGURE_IDS(plugins_figure, PLUGINS_FIGURES);
extern const struct figure_table figures_plugins;

#endif
