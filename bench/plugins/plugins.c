/*
 * bench/plugins/plugins.c - the run's plug-ins: table checks, files and their
 * routines, lookup, selection and listing (see plugins.h); running them
 * (host services, setup, probe, teardown, timing) is plugins_run.c.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "figures_plugins.h"
#include "json.h"
#include "platform.h"
#include "plugins.h"

/* ---- constants and state ------------------------------------------------------------ */

#define PLUGINS_MAX_ROUTINES 256        /* over all files of a run */

static struct plugins_file plugins_files[PLUGINS_MAX_FILES];
static struct plugins_routine plugins_routines[PLUGINS_MAX_ROUTINES];
static unsigned plugins_nfiles, plugins_nroutines;

static const char *const plugins_state_names[] = {
    [PLUGINS_READY] = "ready", [PLUGINS_NOT_SELECTED] = "not_selected",
    [PLUGINS_SETUP_FAILED] = "setup_failed", [PLUGINS_FAULTED] = "fault", [PLUGINS_HUNG] = "hung",
};

/* ---- small helpers ------------------------------------------------------------------- */

const char *plugins_state_name(enum plugins_state s)
{
    return (unsigned)s < sizeof plugins_state_names / sizeof plugins_state_names[0] ? plugins_state_names[s] : "?";
}

static int plugins_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static int plugins_fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int plugins_fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Copy a name from the plug-in: 1..BM_PLUGIN_NAME_MAX-1 of [A-Za-z0-9_-]. */
static int plugins_copy_name(const char *s, char out[BM_PLUGIN_NAME_MAX], const char *what, char *why, size_t n)
{
    size_t k = 0;
    if (!s)
        return plugins_fail(why, n, "%s is missing (NULL)", what);
    for (; s[k] && k < BM_PLUGIN_NAME_MAX; k++) {
        if (!plugins_name_char(s[k]))
            return plugins_fail(why, n, "%s has a character other than A-Z a-z 0-9 _ - (byte 0x%02x at %zu)",
                                what, (unsigned char)s[k], k);
        out[k] = s[k];
    }
    if (k == 0)
        return plugins_fail(why, n, "%s is empty", what);
    if (k >= BM_PLUGIN_NAME_MAX)
        return plugins_fail(why, n, "%s is longer than %u characters", what, BM_PLUGIN_NAME_MAX - 1);
    out[k] = 0;
    return 0;
}

/* A description: NULL or one line of printable ASCII, < BM_PLUGIN_DESC_MAX. */
static int plugins_copy_desc(const char *s, char out[BM_PLUGIN_DESC_MAX], const char *what, char *why, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    if (!s)
        return 0;
    for (; s[k] && k < BM_PLUGIN_DESC_MAX; k++) {
        if ((unsigned char)s[k] < 0x20 || (unsigned char)s[k] > 0x7e)
            return plugins_fail(why, n, "%s is not one line of printable ASCII (byte 0x%02x at %zu)",
                                what, (unsigned char)s[k], k);
        out[k] = s[k];
    }
    if (k >= BM_PLUGIN_DESC_MAX)
        return plugins_fail(why, n, "%s is longer than %u characters", what, BM_PLUGIN_DESC_MAX - 1);
    out[k] = 0;
    return 0;
}

/* ---- the table check ------------------------------------------------------------------- */

/* What the check fills besides its verdict (copies of the plug-in's data). */
struct plugins_copy {
    char name[BM_PLUGIN_NAME_MAX], desc[BM_PLUGIN_DESC_MAX];
    uint32_t version, count;
    struct plugins_routine r[BM_PLUGIN_MAX_ROUTINES];
};

static int plugins_check_into(const struct bm_plugin *p, struct plugins_copy *c, char *why, size_t n)
{
    char what[96];
    if (!p)
        return plugins_fail(why, n, "no plug-in table (NULL)");
    if (p->magic != BM_PLUGIN_MAGIC)
        return plugins_fail(why, n, "not a baremark plug-in table (magic 0x%016llx, want 0x%016llx)",
                            (unsigned long long)p->magic, (unsigned long long)BM_PLUGIN_MAGIC);
    c->version = p->version;
    if (p->version != BM_PLUGIN_VERSION)
        return plugins_fail(why, n, "interface version %u, this baremark reads version %u: rebuild the "
                            "plug-in with this baremark's tools/baremark-plugin", (unsigned)p->version,
                            BM_PLUGIN_VERSION);
    if (p->size != sizeof(struct bm_plugin) || p->routine_size != sizeof(struct bm_plugin_routine))
        return plugins_fail(why, n, "struct sizes %u and %u, version %u has %zu and %zu: the plug-in was built "
                            "against a different baremark_plugin.h", (unsigned)p->size, (unsigned)p->routine_size,
                            BM_PLUGIN_VERSION, sizeof(struct bm_plugin), sizeof(struct bm_plugin_routine));
    if (plugins_copy_name(p->name, c->name, "the plug-in's name", why, n)
        || plugins_copy_desc(p->description, c->desc, "the plug-in's description", why, n))
        return -1;
    c->count = p->count;
    if (p->count == 0)
        return plugins_fail(why, n, "no routines (count 0): a plug-in has 1 to %u", BM_PLUGIN_MAX_ROUTINES);
    if (p->count > BM_PLUGIN_MAX_ROUTINES)
        return plugins_fail(why, n, "%u routines, at most %u are allowed", (unsigned)p->count, BM_PLUGIN_MAX_ROUTINES);
    if (!p->routines)
        return plugins_fail(why, n, "count %u but no routine table (NULL)", (unsigned)p->count);
    for (uint32_t i = 0; i < p->count; i++) {
        const struct bm_plugin_routine *r = &p->routines[i];
        struct plugins_routine *o = &c->r[i];
        snprintf(what, sizeof what, "the name of routine %u", (unsigned)i + 1);
        if (plugins_copy_name(r->name, o->name, what, why, n))
            return -1;
        snprintf(what, sizeof what, "the description of routine %s", o->name);
        if (plugins_copy_desc(r->description, o->desc, what, why, n))
            return -1;
        for (uint32_t k = 0; k < i; k++)
            if (!strcmp(c->r[k].name, o->name))
                return plugins_fail(why, n, "two routines are named \"%s\" (routines %u and %u): names must be "
                                    "unique", o->name, (unsigned)k + 1, (unsigned)i + 1);
        if (!r->fn)
            return plugins_fail(why, n, "routine %s has no function (fn is NULL)", o->name);
        o->t.fn = r->fn;
        o->setup = r->setup;
        o->teardown = r->teardown;
        o->has_setup = r->setup != NULL;
        o->has_teardown = r->teardown != NULL;
        o->t.fixed = r->insns_fixed;
        o->t.per_iteration = r->insns_per_iteration;
        if (o->t.fixed < 0 || o->t.per_iteration < 0)
            o->t.fixed = o->t.per_iteration = -1;
    }
    return 0;
}

struct plugins_check_job {
    const struct bm_plugin *p;
    struct plugins_copy *c;
    char *why;
    size_t n;
};

static long plugins_check_body(void *arg)
{
    struct plugins_check_job *j = arg;
    return plugins_check_into(j->p, j->c, j->why, j->n);
}

/* The check inside plat_protected: a wild pointer in the table is a reason. */
static int plugins_check_protected(const struct bm_plugin *p, struct plugins_copy *c, char *why, size_t n)
{
    struct plugins_check_job j = { p, c, why, n };
    char fault[160];
    long rc = -1;
    why[0] = 0;
    if (plat_protected(plugins_check_body, &j, &rc, fault, sizeof fault))
        return plugins_fail(why, n, "reading its table faulted: %s", fault);
    return rc ? -1 : 0;
}

int plugins_check_table(const struct bm_plugin *p, char *why, size_t why_size)
{
    struct plugins_copy *c = plat_alloc(sizeof *c);
    if (!c)
        return plugins_fail(why, why_size, "no memory to check the table");
    memset(c, 0, sizeof *c);
    int rc = plugins_check_protected(p, c, why, why_size);
    plat_free(c);
    return rc;
}

/* ---- files ------------------------------------------------------------------------------ */

void plugins_reset(void)
{
    memset(plugins_files, 0, sizeof plugins_files);
    memset(plugins_routines, 0, sizeof plugins_routines);
    plugins_nfiles = plugins_nroutines = 0;
}

struct plugins_file *plugins_file_add(const char *file, const void *bytes, size_t size)
{
    uint8_t d[SHA256_DIGEST];
    if (plugins_nfiles >= PLUGINS_MAX_FILES) {
        out_warn("plugin %s: more than %u plug-in files; this one is skipped", file, PLUGINS_MAX_FILES);
        return NULL;
    }
    struct plugins_file *f = &plugins_files[plugins_nfiles++];
    memset(f, 0, sizeof *f);
    snprintf(f->file, sizeof f->file, "%s", file);
    f->size = size;
    sha256(bytes, size, d);
    sha256_hex(d, f->sha256);
    return f;
}

void plugins_file_reject(struct plugins_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
    f->ok = 0;
    out_warn("plugin %s: %s; skipped", f->file, f->why);
}

int plugins_file_attach(struct plugins_file *f, const struct bm_plugin *p)
{
    char why[PLUGINS_WHY_MAX];
    struct plugins_copy *c = plat_alloc(sizeof *c);
    if (!c) {
        plugins_file_reject(f, "no memory to check its table");
        return -1;
    }
    memset(c, 0, sizeof *c);
    int rc = plugins_check_protected(p, c, why, sizeof why);
    f->version = c->version;
    snprintf(f->name, sizeof f->name, "%s", c->name);
    snprintf(f->desc, sizeof f->desc, "%s", c->desc);
    for (unsigned i = 0; rc == 0 && i < plugins_nfiles; i++)
        if (&plugins_files[i] != f && plugins_files[i].ok && !strcmp(plugins_files[i].name, c->name))
            rc = plugins_fail(why, sizeof why, "its name \"%s\" is already taken by %s: plug-in names must be unique",
                              c->name, plugins_files[i].file);
    if (rc == 0 && plugins_nroutines + c->count > PLUGINS_MAX_ROUTINES)
        rc = plugins_fail(why, sizeof why, "more than %u routines in all plug-ins together", PLUGINS_MAX_ROUTINES);
    if (rc) {
        plat_free(c);
        plugins_file_reject(f, "%s", why);
        return -1;
    }
    f->ok = 1;
    f->first = plugins_nroutines;
    f->count = c->count;
    for (uint32_t i = 0; i < c->count; i++) {
        struct plugins_routine *r = &plugins_routines[plugins_nroutines++];
        *r = c->r[i];
        r->file = f;
        size_t pn = strlen(f->name), rn = strlen(r->name);   /* both < BM_PLUGIN_NAME_MAX */
        memcpy(r->target, f->name, pn);
        r->target[pn] = ':';
        memcpy(r->target + pn + 1, r->name, rn + 1);
        r->t.name = r->target;
        r->t.what = r->desc;
        r->t.data = NULL;
        r->state = PLUGINS_READY;
    }
    plat_free(c);
    return 0;
}

/* ---- lookup ------------------------------------------------------------------------------- */

unsigned plugins_routine_count(void) { return plugins_nroutines; }
struct plugins_routine *plugins_routine_at(unsigned i) { return i < plugins_nroutines ? &plugins_routines[i] : NULL; }
unsigned plugins_file_count(void) { return plugins_nfiles; }
struct plugins_file *plugins_file_at(unsigned i) { return i < plugins_nfiles ? &plugins_files[i] : NULL; }

struct plugins_routine *plugins_find(const char *target)
{
    for (unsigned i = 0; i < plugins_nroutines; i++)
        if (!strcmp(plugins_routines[i].target, target))
            return &plugins_routines[i];
    return NULL;
}

struct plugins_routine *plugins_of_target(const struct target *t)
{
    for (unsigned i = 0; i < plugins_nroutines; i++)
        if (&plugins_routines[i].t == t)
            return &plugins_routines[i];
    return NULL;
}

unsigned plugins_ready_count(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < plugins_nroutines; i++)
        n += plugins_routines[i].state == PLUGINS_READY;
    return n;
}

const struct target *plugins_ready_target(unsigned i)
{
    for (unsigned k = 0; k < plugins_nroutines; k++)
        if (plugins_routines[k].state == PLUGINS_READY && i-- == 0)
            return &plugins_routines[k].t;
    return NULL;
}

/* ---- selection ------------------------------------------------------------------------------ */

/* Does `item` (PLUGIN:ROUTINE, PLUGIN, PLUGIN:*, *) name routine r? */
static int plugins_item_matches(const char *item, size_t n, const struct plugins_routine *r)
{
    size_t pn = strlen(r->file->name);
    if (n == 1 && item[0] == '*')
        return 1;
    if (n < pn || memcmp(item, r->file->name, pn))
        return 0;
    if (n == pn || (n == pn + 2 && item[pn] == ':' && item[pn + 1] == '*'))
        return 1;
    return item[pn] == ':' && n - pn - 1 == strlen(r->name) && !memcmp(item + pn + 1, r->name, n - pn - 1);
}

int plugins_select(const char *spec)
{
    int unknown = 0;
    if (!spec || !spec[0] || !strcmp(spec, "all") || !strcmp(spec, "*"))
        return 0;
    for (unsigned i = 0; i < plugins_nroutines; i++)
        if (plugins_routines[i].state == PLUGINS_READY)
            plugins_routines[i].state = PLUGINS_NOT_SELECTED;
    if (!strcmp(spec, "none"))
        return 0;
    for (const char *s = spec; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        while (n && *s == ' ')
            s++, n--;
        while (n && s[n - 1] == ' ')
            n--;
        int hits = 0;
        for (unsigned i = 0; n && i < plugins_nroutines; i++) {
            struct plugins_routine *r = &plugins_routines[i];
            if (plugins_item_matches(s, n, r)) {
                hits++;
                if (r->state == PLUGINS_NOT_SELECTED)
                    r->state = PLUGINS_READY;
            }
        }
        if (n && !hits) {
            out_warn("PLUGINROUTINES: \"%.*s\" names no routine of a loaded plug-in; ignored", (int)n, s);
            unknown++;
        }
        s = e ? e + 1 : s + strlen(s);
    }
    return unknown;
}

int plugins_mark_hung(const char *sha256_hex, const char *target, const char *why)
{
    for (unsigned i = 0; i < plugins_nroutines; i++) {
        struct plugins_routine *r = &plugins_routines[i];
        if (r->state == PLUGINS_READY && !strcmp(r->target, target) && !strcmp(r->file->sha256, sha256_hex)) {
            r->state = PLUGINS_HUNG;
            snprintf(r->why, sizeof r->why, "%s", why);
            out_warn("plugin %s: routine %s %s; not run", r->file->file, r->target, why);
            return 1;
        }
    }
    return 0;
}

/* ---- listing ---------------------------------------------------------------------------------- */

static void plugins_print_counts(const struct plugins_routine *r)
{
    if (r->t.per_iteration >= 0)
        out_printf("; %lld + %lld/iteration instructions", (long long)r->t.fixed, (long long)r->t.per_iteration);
}

void plugins_print(void)
{
    for (unsigned i = 0; i < plugins_nfiles; i++) {
        const struct plugins_file *f = &plugins_files[i];
        out_printf("plugin %s: %llu bytes, SHA-256 %s\n", f->file, (unsigned long long)f->size, f->sha256);
        if (!f->ok) {
            out_printf("  rejected: %s\n", f->why);
            continue;
        }
        out_printf("  %s: %s (interface version %u, %u routine%s)\n", f->name, f->desc[0] ? f->desc : "(no description)",
                   (unsigned)f->version, f->count, f->count == 1 ? "" : "s");
        for (unsigned k = 0; k < f->count; k++) {
            const struct plugins_routine *r = &plugins_routines[f->first + k];
            out_printf("  %-24s %s", r->target, r->desc[0] ? r->desc : "(no description)");
            plugins_print_counts(r);
            out_printf("%s%s; %s%s%s\n", r->has_setup ? "; setup" : "", r->has_teardown ? "; teardown" : "",
                       plugins_state_name(r->state), r->why[0] ? ": " : "", r->why);
        }
    }
}

static void plugins_json_routine(struct json_writer *w, const struct plugins_routine *r)
{
    json_obj_begin(w, NULL);
    json_str(w, "name", r->name);
    json_str(w, "target", r->target);
    json_str(w, "description", r->desc);
    if (r->t.per_iteration >= 0) {
        json_i64(w, "instructions_fixed", r->t.fixed);
        json_i64(w, "instructions_per_iteration", r->t.per_iteration);
    } else {
        json_null(w, "instructions_fixed");
        json_null(w, "instructions_per_iteration");
    }
    json_bool(w, "setup", r->has_setup);
    json_bool(w, "teardown", r->has_teardown);
    json_str(w, "status", plugins_state_name(r->state));
    if (r->why[0])
        json_str(w, "why", r->why);
    json_u64(w, "memory_bytes", r->alloc_bytes);
    json_obj_end(w);
}

void plugins_json(struct json_writer *w)
{
    unsigned ok = 0;
    if (!w)
        return;
    json_str(w, "folder", PLUGINS_FOLDER);
    json_fig_u64(w, &figures_plugins, FIG_PLUGINS_INTERFACE_VERSION, BM_PLUGIN_VERSION);
    json_arr_begin(w, "files");
    for (unsigned i = 0; i < plugins_nfiles; i++) {
        const struct plugins_file *f = &plugins_files[i];
        ok += f->ok;
        json_obj_begin(w, NULL);
        json_str(w, "file", f->file);
        json_u64(w, "size", f->size);
        json_str(w, "sha256", f->sha256);
        json_str(w, "status", f->ok ? "loaded" : "rejected");
        if (!f->ok) {
            json_str(w, "why", f->why);
        } else {
            json_str(w, "name", f->name);
            json_str(w, "description", f->desc);
            json_u64(w, "version", f->version);
            json_arr_begin(w, "routines");
            for (unsigned k = 0; k < f->count; k++)
                plugins_json_routine(w, &plugins_routines[f->first + k]);
            json_arr_end(w);
        }
        json_obj_end(w);
    }
    json_arr_end(w);
    json_fig_u64(w, &figures_plugins, FIG_PLUGINS_LOADED, ok);
    json_fig_u64(w, &figures_plugins, FIG_PLUGINS_REJECTED, plugins_nfiles - ok);
    json_fig_u64(w, &figures_plugins, FIG_PLUGINS_ROUTINES_READY, plugins_ready_count());
}
