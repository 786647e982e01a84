/*
 * bench/plugins/plugins_section.c - the plugins section (see plugins_section.h):
 * find every *.efi in \baremark\plugins, load and start it through the
 * port's image loader (port/platform.h), hand its table to bench/plugins/plugins.c
 * for the checks, run the routines' setup and probe each routine once, and
 * at the end of the run tear down and unload.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "platform.h"
#include "pe_image.h"
#include "plugins.h"
#include "plugins_section.h"
#include "section.h"

#define PLUGIN_HANGS_MAX  (64 * 1024)   /* bytes of plugin-hangs.txt read */

struct plugin_names {
    char name[PLUGINS_MAX_FILES][PLUGINS_FILE_MAX];
    unsigned n, skipped;
};

/* ---- finding the files -------------------------------------------------------------- */

static int plugin_is_efi(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && name[n - 4] == '.' && (name[n - 3] | 32) == 'e' && (name[n - 2] | 32) == 'f'
           && (name[n - 1] | 32) == 'i';
}

static void plugin_collect(const char *name, uint64_t size, void *ctx)
{
    struct plugin_names *l = ctx;
    (void)size;
    if (!plugin_is_efi(name))
        return;
    if (l->n >= PLUGINS_MAX_FILES || strlen(name) >= PLUGINS_FILE_MAX) {
        l->skipped++;
        out_warn("plugin %s: %s; skipped", name, l->n >= PLUGINS_MAX_FILES ? "too many plug-in files"
                                                                           : "file name too long");
        return;
    }
    /* insertion in name order: runs list and time plug-ins in a fixed order */
    unsigned k = l->n++;
    while (k > 0 && strcmp(l->name[k - 1], name) > 0) {
        memcpy(l->name[k], l->name[k - 1], PLUGINS_FILE_MAX);
        k--;
    }
    snprintf(l->name[k], PLUGINS_FILE_MAX, "%s", name);
}

/* ---- loading one file ---------------------------------------------------------------- */

static void plugins_load_one(const char *name)
{
    char path[PLUGINS_FILE_MAX + 32], why[PLUGINS_WHY_MAX];
    size_t n = 0;
    void *buf;
    struct plat_image img;

    snprintf(path, sizeof path, "%s\\%s", PLUGINS_FOLDER, name);
    const char *err = plat_read_file(path, &buf, &n);
    struct plugins_file *f = plugins_file_add(name, buf ? buf : "", buf ? n : 0);
    if (!f) {
        plat_free(buf);
        return;
    }
    if (!buf) {
        plugins_file_reject(f, "cannot be read (%s)", err);
        return;
    }
    if (pe_check_plugin(buf, n, NULL, why, sizeof why)) {
        plugins_file_reject(f, "%s", why);
        plat_free(buf);
        return;
    }
    err = plat_image_load(path, buf, n, &img, why, sizeof why);
    plat_free(buf);       /* the loader made its own copy */
    if (err) {
        plugins_file_reject(f, "%s", err);
        return;
    }
    if (plugins_file_attach(f, img.table)) {
        plat_image_unload(img.handle);
        return;
    }
    f->handle = img.handle;
    /* a fault's RIP minus the base is the address in the plug-in's own listing */
    out_printf("plugin %s: loaded at 0x%llx (%llu bytes in memory)\n", name,
               (unsigned long long)img.base, (unsigned long long)img.size);
}

/* ---- routines that hung in an earlier run ------------------------------------------------ */

/* A marker left by a probe that never came back: move it to the hangs file. */
static void plugin_take_marker(void)
{
    size_t n = 0, m = 0;
    void *mark_buf, *old_buf;
    if (plat_read_saved_file(PLUGIN_PROBE_MARKER, &mark_buf, &n))
        return;
    char *mark = mark_buf;
    plat_read_saved_file(PLUGIN_HANGS_FILE, &old_buf, &m);     /* none yet: an empty list */
    char *old = old_buf;
    char *all = plat_alloc(m + n + 2);
    if (all) {
        memcpy(all, old ? old : "", m);
        memcpy(all + m, mark, n);
        if (n && mark[n - 1] != '\n')
            all[m + n++] = '\n';
        const char *err = plat_write_file(PLUGIN_HANGS_FILE, all, m + n);
        if (!err)
            plat_delete_file(PLUGIN_PROBE_MARKER);
        else
            out_printf("plugins: could not write %s (%s)\n", PLUGIN_HANGS_FILE, err);
        plat_free(all);
    }
    out_printf("plugins: the previous run was reset while probing a plug-in routine (%s): %.*s", PLUGIN_PROBE_MARKER,
               (int)n, mark);
    plat_free(old);
    plat_free(mark);
}

/* plugin-hangs.txt: "SHA256 PLUGIN:ROUTINE FILE RUN" a line. */
static void plugin_apply_hangs(void)
{
    size_t n = 0;
    void *buf;
    if (plat_read_saved_file(PLUGIN_HANGS_FILE, &buf, &n))
        return;
    char *text = buf;
    for (char *line = text; line < text + n && line - text < PLUGIN_HANGS_MAX;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        char sha[SHA256_HEX + 1], target[PLUGINS_TARGET_MAX + 1], file[PLUGINS_FILE_MAX + 1], run[40], why[200];
        if (sscanf(line, "%65s %64s %64s %39s", sha, target, file, run) == 4) {
            snprintf(why, sizeof why, "did not return when called in run %s (the watchdog reset the machine); "
                     "skipped while %s is unchanged", run, file);
            plugins_mark_hung(sha, target, why);
        }
        if (!end)
            break;
        line = end + 1;
    }
    plat_free(text);
}

/* ---- the probe ------------------------------------------------------------------------ */

struct plugin_probe_ctx {
    unsigned seconds;
    int marker_failed;
};

static struct plugin_probe_ctx plugin_marker_state;

/* The marker: "SHA256 PLUGIN:ROUTINE FILE RUN", while the routine may run. */
static void plugin_marker_write(const struct plugins_routine *r, struct plugin_probe_ctx *c)
{
    char line[PLUGINS_TARGET_MAX + PLUGINS_FILE_MAX + SHA256_HEX + 48];
    int n = snprintf(line, sizeof line, "%s %s %s %s\n", r->file->sha256, r->target, r->file->file, plat_run_name());
    plat_hang_note(r->target);          /* also where no file can be written */
    if (!c->marker_failed && plat_write_file(PLUGIN_PROBE_MARKER, line, (size_t)n)) {
        c->marker_failed = 1;
        out_printf("plugins: cannot write %s: a routine that hangs will not be named on the next boot\n",
                   PLUGIN_PROBE_MARKER);
    }
}

static void plugin_marker_clear(const struct plugins_routine *r, void *ctx)
{
    struct plugin_probe_ctx *c = ctx;
    (void)r;
    plat_hang_note(NULL);
    if (!c->marker_failed)
        plat_delete_file(PLUGIN_PROBE_MARKER);
}

static void plugin_timing_before(const struct plugins_routine *r, void *ctx)
{
    plugin_marker_write(r, ctx);
}

static void plugin_probe_before(const struct plugins_routine *r, void *ctx)
{
    struct plugin_probe_ctx *c = ctx;
    out_printf("plugins: probe %s (%s)\n", r->target, r->file->file);
    plat_watchdog_arm(c->seconds);      /* restarts the countdown; first, so the markers say it */
    plugin_marker_write(r, c);
}

static void plugin_probe_all(const struct plugins_section_opts *o)
{
    struct plugin_probe_ctx *c = &plugin_marker_state;
    struct plugins_probe_hooks hooks = { plugin_probe_before, plugin_marker_clear, c };
    c->seconds = o->probe_seconds;
    out_printf("plugins: each routine is called once (%llu iterations) with interrupts enabled and the firmware "
               "watchdog armed for %u s before it is timed; one that never returns resets the machine, and the "
               "next boot names and skips it\n", (unsigned long long)o->probe_iterations, o->probe_seconds);
    plat_flush();                       /* everything so far is on the ESP before the first call */
    plugins_probe(o->probe_iterations, &hooks);
    const char *err = plat_watchdog_arm(o->watchdog_after);
    if (err)
        out_warn("plugins: the watchdog could not be set back after the probes (%s)", err);
}

/* ---- the section ------------------------------------------------------------------------ */

int plugins_section_load(const struct plugins_section_opts *o)
{
    static struct plugin_names names;
    uint64_t t0 = plat_ticks();
    int bad = 0;

    plugins_reset();
    memset(&names, 0, sizeof names);
    int missing = 0;
    const char *err = plat_list_dir(PLUGINS_FOLDER, plugin_collect, &names, &missing);
    if (err && missing)
        out_printf("plugins: no %s folder on the ESP: no plug-ins\n", PLUGINS_FOLDER);
    else if (err)
        out_warn("plugins: %s cannot be listed (%s); no plug-ins loaded", PLUGINS_FOLDER, err);
    else
        out_printf("plugins: %u file%s named *.efi in %s\n", names.n, names.n == 1 ? "" : "s", PLUGINS_FOLDER);
    bad |= names.skipped > 0;
    for (unsigned i = 0; i < names.n; i++)
        plugins_load_one(names.name[i]);
    plugin_take_marker();
    plugin_apply_hangs();
    bad |= plugins_select(o->routines) > 0;
    plugins_setup();
    plugins_print();
    memset(&plugin_marker_state, 0, sizeof plugin_marker_state);
    if (plugins_ready_count())
        plugin_probe_all(o);
    struct plugins_probe_hooks timing = { plugin_timing_before, plugin_marker_clear, &plugin_marker_state };
    plugins_set_timing_hooks(&timing);
    for (unsigned i = 0; i < plugins_file_count(); i++)
        bad |= !plugins_file_at(i)->ok;
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        enum plugins_state st = plugins_routine_at(i)->state;
        bad |= st != PLUGINS_READY && st != PLUGINS_NOT_SELECTED;
    }
    out_printf("plugins: %u routine%s ready to be timed as PLUGIN:ROUTINE\n", plugins_ready_count(),
               plugins_ready_count() == 1 ? "" : "s");

    struct json_writer *w = results_section_begin("plugins", 0);
    plugins_json(w);
    json_obj_begin(w, "probe");
    json_u64(w, "iterations", o->probe_iterations);
    json_u64(w, "watchdog_seconds", o->probe_seconds);
    json_obj_end(w);
    json_str(w, "selection", o->routines && o->routines[0] ? o->routines : "all");
    results_section_end();
    uint64_t hz = plat_tick_hz(), dt = plat_ticks() - t0;
    if (hz)
        out_printf("plugins: done in %llu ticks (%.3f s)\n", (unsigned long long)dt, (double)dt / (double)hz);
    return bad ? 2 : 0;
}

int plugins_run(const struct section_ctx *ctx)
{
    const struct bm_config *cfg = ctx->cfg;
    uint64_t n = cfg->methods_iterations, it = 2 * n;
    if (it < n + 2)
        it = n + 2;
    if (it < TARGET_CALLS_START)
        it = TARGET_CALLS_START;
    struct plugins_section_opts o = { cfg->plugin_routines, cfg->plugin_probe_seconds, it, cfg->watchdog_seconds };
    return plugins_section_load(&o);
}

void plugins_section_fini(void)
{
    unsigned loaded = 0, unloaded = 0;
    plugins_set_timing_hooks(NULL);
    plugins_teardown();
    for (unsigned i = 0; i < plugins_file_count(); i++) {
        struct plugins_file *f = plugins_file_at(i);
        if (!f->handle)
            continue;
        loaded++;
        const char *err = plat_image_unload(f->handle);
        if (err)
            out_printf("plugin %s: UnloadImage: %s (it stays in memory until the machine resets)\n", f->file,
                       err);
        else
            unloaded++;
        f->handle = NULL;
    }
    if (loaded)
        out_printf("plugins: teardown done; %u of %u plug-in image%s unloaded\n", unloaded, loaded,
                   loaded == 1 ? "" : "s");
}
