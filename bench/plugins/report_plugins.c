/*
 * bench/plugins/report_plugins.c - the report's plug-ins (bench/plugins/plugins_section.c):
 * each file with its size and SHA-256, why a rejected one was skipped, and
 * its routines with their state.  Their measurements and comparisons are in
 * the methods and comparisons parts, as targets PLUGIN:ROUTINE.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_plugins.h"
#include "report_parts.h"
#include "report_util.h"

/* A count of the section by its row, 0 when absent. */
static double count_of(json_t *sec, unsigned id)
{
    double v = doc_fig_num(sec, &figures_plugins, id);
    return isnan(v) ? 0 : v;
}

static void plugin_card(FILE *f, json_t *fl)
{
    const char *status = doc_str(fl, "status", "?");     /* not a row: a file's status, files[*].* */
    fputs("<div class=\"card\"><h3>", f);
    html_put(f, doc_str(fl, "file", "?"));
    fputs(" <small>", f);
    html_put(f, status);
    fputs("</small></h3><p>", f);
    fprintf(f, "%.0f bytes, SHA-256 <code>", doc_num(fl, "size", 0));
    html_put(f, doc_str(fl, "sha256", "?"));
    fputs("</code></p>", f);
    if (strcmp(status, "loaded")) {
        fputs("<p class=\"warning\">skipped: ", f);
        html_put(f, doc_str(fl, "why", "?"));
        fputs("</p></div>", f);
        return;
    }
    fputs("<p>plug-in <b>", f);
    html_put(f, doc_str(fl, "name", "?"));
    fputs("</b>: ", f);
    html_put(f, doc_str(fl, "description", ""));
    fputs("</p>", f);
    rp_list_table(f, json_object_get(fl, "routines"));
    fputs("</div>", f);
}

static void part_plugins(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "plugins"), *fl;
    size_t i;
    if (rp_section_missing(f, sec))
        return;
    fprintf(f, "<p>%.0f loaded, %.0f rejected; %.0f routines timed as PLUGIN:ROUTINE in the methods and "
            "comparisons below.</p>", count_of(sec, FIG_PLUGINS_LOADED), count_of(sec, FIG_PLUGINS_REJECTED),
            count_of(sec, FIG_PLUGINS_ROUTINES_READY));
    json_array_foreach(json_object_get(sec, "files"), i, fl)
        if (json_is_object(fl))
            plugin_card(f, fl);
    rp_kv_table_skip(f, sec, "files");
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_plugins = { "plugins", "plugins", "Plug-ins", part_plugins };
