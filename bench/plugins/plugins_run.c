/*
 * bench/plugins/plugins_run.c - running the plug-ins' routines: the host
 * services they are given (alloc, log), setup, probe, teardown and the
 * timing hooks (see plugins.h; the routines themselves are plugins.c's).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"
#include "plugins.h"

#define PLUGINS_ALIGN        64         /* host->alloc's alignment (a cache line) */
#define PLUGINS_LOG_MAX      200        /* characters of one host->log line shown */

/* A block from host->alloc: this header sits just below the aligned memory. */
struct plugins_block {
    void *raw;                          /* what plat_alloc returned */
    struct plugins_block *next;
};

static struct plugins_routine *plugins_current;   /* whose setup/teardown runs */

/* ---- the host services ---------------------------------------------------------------------- */

static void *plugins_host_alloc(uint64_t bytes)
{
    struct plugins_routine *r = plugins_current;
    if (!r || bytes > SIZE_MAX - PLUGINS_ALIGN - sizeof(struct plugins_block))
        return NULL;
    void *raw = plat_alloc(bytes + PLUGINS_ALIGN + sizeof(struct plugins_block));
    if (!raw)
        return NULL;
    uintptr_t at = ((uintptr_t)raw + sizeof(struct plugins_block) + PLUGINS_ALIGN - 1) & ~(uintptr_t)(PLUGINS_ALIGN - 1);
    struct plugins_block *b = (struct plugins_block *)at - 1;
    b->raw = raw;
    b->next = r->allocs;
    r->allocs = b;
    r->alloc_bytes += bytes;
    memset((void *)at, 0, bytes);
    return (void *)at;
}

static void plugins_host_log(const char *line)
{
    char buf[PLUGINS_LOG_MAX + 1];
    size_t k = 0;
    for (; line && line[k] && k < PLUGINS_LOG_MAX; k++)
        buf[k] = (unsigned char)line[k] < 0x20 || (unsigned char)line[k] > 0x7e ? '?' : line[k];
    buf[k] = 0;
    out_printf("plugin %s: %s\n", plugins_current ? plugins_current->target : "?", buf);
}

static void plugins_free_blocks(struct plugins_routine *r)
{
    for (struct plugins_block *b = r->allocs, *next; b; b = next) {
        next = b->next;
        plat_free(b->raw);
    }
    r->allocs = NULL;
}

/* ---- setup, probe, teardown ------------------------------------------------------------------- */

struct plugins_call {
    struct plugins_routine *r;
    struct bm_plugin_host host;
    uint64_t iterations;
};

static long plugins_setup_body(void *arg)
{
    struct plugins_call *c = arg;
    void *data = NULL;
    int rc = c->r->setup(&c->host, &data);
    c->r->t.data = data;
    return rc;
}

static long plugins_probe_body(void *arg)
{
    struct plugins_call *c = arg;
    c->r->t.fn(c->iterations, c->r->t.data);
    return 0;
}

static long plugins_teardown_body(void *arg)
{
    struct plugins_call *c = arg;
    c->r->teardown(c->r->t.data);
    return 0;
}

static void plugins_take_out(struct plugins_routine *r, enum plugins_state s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void plugins_take_out(struct plugins_routine *r, enum plugins_state s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->state = s;
    out_warn("plugin %s: routine %s %s; not timed", r->file->file, r->target, r->why);
}

void plugins_setup(void)
{
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        struct plugins_routine *r = plugins_routine_at(i);
        struct plugins_call c = { r, { BM_PLUGIN_VERSION, sizeof(struct bm_plugin_host), plugins_host_alloc,
                                       plugins_host_log, plat_tick_hz() }, 0 };
        char why[160];
        long rc = 0;
        if (r->state != PLUGINS_READY || !r->setup)
            continue;
        plugins_current = r;
        int faulted = plat_protected(plugins_setup_body, &c, &rc, why, sizeof why) != NULL;
        plugins_current = NULL;
        if (faulted)
            plugins_take_out(r, PLUGINS_SETUP_FAILED, "faulted in its setup: %s", why);
        else if (rc)
            plugins_take_out(r, PLUGINS_SETUP_FAILED, "setup returned %ld", rc);
        r->set_up = !faulted && rc == 0;
        if (!r->set_up)     /* no teardown follows a failed setup: free now */
            plugins_free_blocks(r);
    }
}

void plugins_probe(uint64_t iterations, const struct plugins_probe_hooks *hooks)
{
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        struct plugins_routine *r = plugins_routine_at(i);
        struct plugins_call c = { r, { 0 }, iterations };
        char why[160];
        long rc;
        if (r->state != PLUGINS_READY)
            continue;
        if (hooks && hooks->before)
            hooks->before(r, hooks->ctx);
        int faulted = plat_protected(plugins_probe_body, &c, &rc, why, sizeof why) != NULL;
        if (hooks && hooks->after)
            hooks->after(r, hooks->ctx);
        if (faulted)
            plugins_take_out(r, PLUGINS_FAULTED, "faulted when called once (%llu iterations, interrupts enabled): %s",
                             (unsigned long long)iterations, why);
    }
}

static struct plugins_probe_hooks plugins_timing_hooks;

void plugins_set_timing_hooks(const struct plugins_probe_hooks *hooks)
{
    if (hooks)
        plugins_timing_hooks = *hooks;
    else
        memset(&plugins_timing_hooks, 0, sizeof plugins_timing_hooks);
}

void plugins_timing_begin(const struct target *t)
{
    struct plugins_routine *r = plugins_of_target(t);
    if (r && plugins_timing_hooks.before)
        plugins_timing_hooks.before(r, plugins_timing_hooks.ctx);
}

void plugins_timing_end(const struct target *t)
{
    struct plugins_routine *r = plugins_of_target(t);
    if (r && plugins_timing_hooks.after)
        plugins_timing_hooks.after(r, plugins_timing_hooks.ctx);
}

void plugins_note_fault(const struct target *t, const char *why)
{
    struct plugins_routine *r = plugins_of_target(t);
    if (!r || r->state != PLUGINS_READY)
        return;
    snprintf(r->why, sizeof r->why, "faulted while timed: %s", why);
    r->state = PLUGINS_FAULTED;
    out_warn("plugin %s: routine %s %s; its remaining measurements are skipped", r->file->file, r->target, r->why);
}

void plugins_teardown(void)
{
    for (unsigned i = 0; i < plugins_routine_count(); i++) {
        struct plugins_routine *r = plugins_routine_at(i);
        struct plugins_call c = { r, { 0 }, 0 };
        char why[160];
        long rc;
        if (r->set_up && r->teardown) {
            plugins_current = r;
            if (plat_protected(plugins_teardown_body, &c, &rc, why, sizeof why))
                out_warn("plugin %s: routine %s faulted in its teardown: %s", r->file->file, r->target, why);
            plugins_current = NULL;
        }
        r->set_up = 0;
        plugins_free_blocks(r);
    }
}
