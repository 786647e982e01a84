/*
 * tools/host/platform/plugin_host.c - the hosted program's plug-in loader: a
 * plug-in's shared object (NAME.so from tools/baremark-plugin) is opened
 * with dlopen, its table found with dlsym(BM_PLUGIN_SYMBOL), and handed to
 * the same registry the image uses (bench/plugins/plugins.c): the same checks
 * (magic, version, sizes, count, names), the same PLUGIN:ROUTINE targets,
 * setup through host->alloc, the one-call probe and teardown.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_plugins.h"
#include "platform.h"
#include "plugins.h"

/* The file's bytes for its size and SHA-256 (what the image lists too). */
static void *host_plugin_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0
        && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        *size = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

static const char *host_plugin_base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

int host_plugin_load(const char *path)
{
    size_t size = 0;
    void *bytes = host_plugin_bytes(path, &size);
    if (!bytes) {
        struct plugins_file *f = plugins_file_add(host_plugin_base(path), "", 0);
        if (f)
            plugins_file_reject(f, "cannot read %s", path);
        return -1;
    }
    struct plugins_file *f = plugins_file_add(host_plugin_base(path), bytes, size);
    free(bytes);
    if (!f)
        return -1;
    /* A path without a slash would make dlopen search the library path. */
    char full[4096];
    snprintf(full, sizeof full, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(full, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        plugins_file_reject(f, "not a loadable shared object (%s); build it with tools/baremark-plugin, "
                               "which writes NAME.so beside NAME.efi", e ? e : "dlopen failed");
        return -1;
    }
    const struct bm_plugin *table = dlsym(h, BM_PLUGIN_SYMBOL);
    if (!table) {
        plugins_file_reject(f, "no %s symbol: not a baremark plug-in (the sources need "
                               "BAREMARK_PLUGIN(...))", BM_PLUGIN_SYMBOL);
        dlclose(h);
        return -1;
    }
    f->handle = h;
    if (plugins_file_attach(f, table)) {
        f->handle = NULL;
        dlclose(h);
        return -1;
    }
    return 0;
}

int host_plugins_load_all(char *const *paths, int n)
{
    int bad = 0;
    plugins_reset();
    for (int i = 0; i < n; i++)
        bad |= host_plugin_load(paths[i]) != 0;
    return bad;
}

int host_plugins_ready(const char *routines, uint64_t probe_iterations)
{
    int bad = 0;
    if (plugins_select(routines))
        bad = 1;
    plugins_setup();
    plugins_probe(probe_iterations, NULL);
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        enum plugins_state s = plugins_routine_at(i)->state;
        if (s == PLUGINS_SETUP_FAILED || s == PLUGINS_FAULTED || s == PLUGINS_HUNG)
            bad = 1;
    }
    return bad;
}

int host_plugins_prepare(char *const *paths, int n, const char *routines, uint64_t probe_iterations)
{
    int bad = host_plugins_load_all(paths, n);
    return host_plugins_ready(routines, probe_iterations) | bad;
}

const char *host_plugins_resolve(const char *name, char *why, size_t why_size)
{
    const struct plugins_routine *hit = NULL;
    if (strchr(name, ':')) {
        hit = plugins_find(name);
        if (!hit)
            snprintf(why, why_size, "no routine %s in the plug-ins loaded", name);
        return hit ? hit->target : NULL;
    }
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        const struct plugins_routine *r = plugins_routine_at(i);
        if (strcmp(r->name, name))
            continue;
        if (hit) {
            snprintf(why, why_size, "%s is ambiguous (%s and %s): write PLUGIN:ROUTINE", name, hit->target,
                     r->target);
            return NULL;
        }
        hit = r;
    }
    if (!hit)
        snprintf(why, why_size, "no routine named %s in the plug-ins loaded", name);
    return hit ? hit->target : NULL;
}

void host_plugins_finish(void)
{
    plugins_teardown();
    /* The shared objects stay mapped: the registry's copies no longer point
     * into them, but a late reader would, and the process ends soon. */
}
