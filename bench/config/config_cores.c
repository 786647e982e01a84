/*
 * bench/config/config_cores.c - the grammar of the CORES setting ("all", or
 * processor numbers and ranges: "0,2-5"): checked here when the settings
 * are read, and used by the cores section (bench/cores/) to pick its CPUs.
 * A setting's grammar is the settings' room; the cores section only asks.
 */
#include <stdint.h>
#include <string.h>

#include "config.h"

static int cores_number(const char **p, uint32_t *out)
{
    uint64_t v = 0;
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (uint64_t)(*s++ - '0');
        if (v > 1000000)
            return -1;
    }
    *p = s;
    *out = (uint32_t)v;
    return 0;
}

/* Walk the list; calls mark(lo, hi) per element. */
static int cores_list_walk(const char *s, void (*mark)(void *, uint32_t, uint32_t), void *ctx,
                           const char **why)
{
    if (!strcmp(s, "all") || !strcmp(s, "ALL") || !strcmp(s, "All")) {
        mark(ctx, 0, UINT32_MAX);
        return 0;
    }
    if (!*s) {
        *why = "an empty list";
        return -1;
    }
    for (;;) {
        uint32_t lo, hi;
        if (cores_number(&s, &lo)) {
            *why = "expected a processor number (e.g. 0,2-5 or all)";
            return -1;
        }
        hi = lo;
        if (*s == '-') {
            s++;
            if (cores_number(&s, &hi) || hi < lo) {
                *why = "a range must be LOW-HIGH with LOW <= HIGH";
                return -1;
            }
        }
        mark(ctx, lo, hi);
        if (!*s)
            return 0;
        if (*s++ != ',') {
            *why = "numbers and ranges are separated by commas";
            return -1;
        }
    }
}

struct cores_sel { uint8_t *sel; uint32_t n, max; };

static void cores_mark_sel(void *ctx, uint32_t lo, uint32_t hi)
{
    struct cores_sel *c = ctx;
    for (uint64_t i = lo; i <= hi && i < c->n; i++)
        c->sel[i] = 1;
    if (hi != UINT32_MAX && hi > c->max)
        c->max = hi;
}

int cores_list_parse(const char *s, uint8_t *sel, uint32_t n, const char **why)
{
    struct cores_sel c = { sel, sel ? n : 0, 0 };
    if (sel)
        memset(sel, 0, n);
    if (cores_list_walk(s, cores_mark_sel, &c, why) == 0)
        return 0;
    if (sel)
        memset(sel, 0, n);
    return -1;
}

uint32_t cores_list_max(const char *s)
{
    struct cores_sel c = { NULL, 0, 0 };
    const char *why;
    return cores_list_walk(s, cores_mark_sel, &c, &why) == 0 ? c.max : 0;
}
