/*
 * tools/host/validate/validate_plugins.c - the plugins section (bench/plugins/plugins_section.c,
 * bench/plugins/plugins.c plugins_json): each plug-in file with its size and SHA-256,
 * loaded or rejected with its reason, each routine with its target name and
 * state; the counts agree with the list.
 */
#include <stdio.h>
#include <string.h>

#include "figures_plugins.h"
#include "report_util.h"
#include "validate.h"

#define PLUGIN_ROUTINES_MAX 64                /* BM_PLUGIN_MAX_ROUTINES */

static int plugins_is_sha256(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return 0;
    return n == 64;
}

static void plugins_check_file(json_t *fl, const char *at, const char *file, int *problems, int quiet,
                               unsigned *ready)
{
    const char *status = doc_str(fl, "status", ""), *name = doc_str(fl, "name", NULL);  /* not a row: a file's status, files[*].* */
    json_t *routines = json_object_get(fl, "routines"), *r;
    size_t i;
    char where[200], want[80];
    if (!plugins_is_sha256(doc_str(fl, "sha256", "")))
        rv_say(file, at, "sha256 is not 64 lower-case hex digits", problems, quiet);
    if (!strcmp(status, "rejected")) {
        if (!doc_str(fl, "why", NULL))
            rv_say(file, at, "a rejected file has no why", problems, quiet);
        if (routines)
            rv_say(file, at, "a rejected file lists routines", problems, quiet);
        return;
    }
    if (!name || !json_is_array(routines) || json_array_size(routines) < 1
        || json_array_size(routines) > PLUGIN_ROUTINES_MAX) {
        rv_say(file, at, "a loaded file needs its name and 1 to 64 routines", problems, quiet);
        return;
    }
    json_array_foreach(routines, i, r) {
        const char *rs = doc_str(r, "status", "");    /* not a row: a routine's status */
        snprintf(where, sizeof where, "%s.routines[%zu]", at, i);
        snprintf(want, sizeof want, "%s:%s", name, doc_str(r, "name", "?"));
        if (strcmp(doc_str(r, "target", ""), want))
            rv_say(file, where, "target is not PLUGIN:ROUTINE", problems, quiet);
        *ready += !strcmp(rs, "ready");
        if (strcmp(rs, "ready") && strcmp(rs, "not_selected") && !doc_str(r, "why", NULL))
            rv_say(file, where, "a routine taken out has no why", problems, quiet);
        if (json_is_null(json_object_get(r, "instructions_fixed"))
            != json_is_null(json_object_get(r, "instructions_per_iteration")))
            rv_say(file, where, "instruction counts: both known or both null", problems, quiet);
    }
}

/* Each file as its status says; the counts are the list's. */
static void plugins_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *fl;
    size_t i;
    unsigned loaded = 0, ready = 0;
    char at[160];
    json_array_foreach(json_object_get(sec, "files"), i, fl) {
        snprintf(at, sizeof at, "%s.files[%zu] (%s)", where, i, doc_str(fl, "file", "?"));
        loaded += !strcmp(doc_str(fl, "status", ""), "loaded");    /* not a row: a file's status, files[*].* */
        plugins_check_file(fl, at, file, problems, quiet, &ready);
    }
    size_t n = json_array_size(json_object_get(sec, "files"));
    if (rv_fig_num(sec, &figures_plugins, FIG_PLUGINS_LOADED, -1) != loaded
        || rv_fig_num(sec, &figures_plugins, FIG_PLUGINS_REJECTED, -1) != (double)(n - loaded))
        rv_say(file, where, "loaded and rejected do not count the files list", problems, quiet);
    if (rv_fig_num(sec, &figures_plugins, FIG_PLUGINS_ROUTINES_READY, -1) != ready)
        rv_say(file, where, "routines_ready does not count the ready routines", problems, quiet);
}

const struct rv_section rv_section_plugins = { "plugins", 0, plugins_check };
