/*
 * baremark_plugin.h - the plug-in interface: how your own routines get timed
 * by baremark, on bare metal (a small UEFI image on the stick) and under
 * Linux (a shared object for build/host/baremark), from the same source.
 *
 * A plug-in is one table, `baremark_plugin`, naming its routines.  Each
 * routine has the driver signature of the built-in targets:
 *
 *     void routine(uint64_t iterations, void *data);
 *
 * It does its work `iterations` times on `data` and returns.  baremark times
 * whole calls with every supported method (bench/methods/methods.h), with
 * interrupts masked, and derives the net time per iteration three ways.
 * Your routine runs in ring 0 with interrupts masked, on the boot processor,
 * with no operating system: there is no printf, no malloc, no files and no
 * system calls.  Memory comes from `setup`, through the host's alloc().
 *
 * Minimal plug-in (C):
 *
 *     #include "baremark_plugin.h"
 *
 *     static void sum(uint64_t n, void *data) { ... }
 *
 *     static const struct bm_plugin_routine routines[] = {
 *         { "sum", "adds 1 KiB of bytes", sum, NULL, NULL, -1, -1 },
 *     };
 *     BAREMARK_PLUGIN("mine", "my first routines", routines);
 *
 * Build both forms with one command (README, "Timing your own code"):
 *
 *     tools/baremark-plugin build mine.c [more.c more.asm] -o mine.efi
 *
 * gives mine.efi (for \baremark\plugins\ on the stick) and mine.so (for
 * `baremark methods --plugin mine.so`).
 *
 * Rules baremark checks when it loads a plug-in (a plug-in that breaks one is
 * reported by file name and skipped; the run goes on):
 *   - magic, version (BM_PLUGIN_VERSION) and the sizes of both structs match;
 *   - 1 to BM_PLUGIN_MAX_ROUTINES routines;
 *   - names are 1 to BM_PLUGIN_NAME_MAX - 1 characters of [A-Za-z0-9_-],
 *     unique within the plug-in; the plug-in's own name likewise, and unique
 *     among the plug-ins loaded;
 *   - every routine has fn; descriptions are one line.
 *
 * Versioning: a change to either struct's layout raises BM_PLUGIN_VERSION.
 * A struct may only grow at its end; `size` and `routine_size` say how large
 * the plug-in's copy is.
 */
#ifndef BAREMARK_PLUGIN_H
#define BAREMARK_PLUGIN_H

#include <stddef.h>   /* NULL for the optional members */
#include <stdint.h>

#define BM_PLUGIN_MAGIC        0x6e6967756c506d42ull  /* "BmPlugin" little-endian */
#define BM_PLUGIN_VERSION      1u
#define BM_PLUGIN_MAX_ROUTINES 64u
#define BM_PLUGIN_NAME_MAX     32u     /* including the terminating NUL */
#define BM_PLUGIN_DESC_MAX     128u

/* What baremark gives a routine's setup. */
struct bm_plugin_host {
    uint32_t version;                 /* BM_PLUGIN_VERSION of the host */
    uint32_t size;                    /* sizeof(struct bm_plugin_host) */
    /* Zeroed memory, 64-byte aligned, or NULL when there is none.  Freed by
     * baremark after the routine's teardown; do not free it yourself. */
    void *(*alloc)(uint64_t bytes);
    /* One line of text to baremark's output (serial, screen, log), from
     * setup and teardown only (never from the timed routine). */
    void (*log)(const char *line);
    uint64_t tick_hz;                 /* calibrated TSC rate, 0 if unknown */
};

/* The timed routine: do the work `iterations` times on `data`. */
typedef void (*bm_plugin_fn)(uint64_t iterations, void *data);

struct bm_plugin_routine {
    const char *name;                 /* "memcpy_rep": the target is PLUGIN:NAME */
    const char *description;          /* one line for people */
    bm_plugin_fn fn;                  /* the routine (required) */
    /* Optional, run outside the timed region, interrupts enabled: prepare
     * *data (the pointer passed to fn).  Returns 0 on success; anything
     * else skips the routine with a line naming it. */
    int (*setup)(const struct bm_plugin_host *host, void **data);
    /* Optional: after the routine's last measurement. */
    void (*teardown)(void *data);
    /* Instructions one call executes: insns_fixed + iterations *
     * insns_per_iteration; -1 when not known.  Shown beside the measured
     * figures (under QEMU -icount one instruction is one tick). */
    int64_t insns_fixed, insns_per_iteration;
};

struct bm_plugin {
    uint64_t magic;                   /* BM_PLUGIN_MAGIC */
    uint32_t version;                 /* BM_PLUGIN_VERSION */
    uint32_t size;                    /* sizeof(struct bm_plugin) */
    uint32_t routine_size;            /* sizeof(struct bm_plugin_routine) */
    uint32_t count;                   /* routines */
    const char *name;                 /* "my": routines appear as my:ROUTINE */
    const char *description;          /* one line */
    const struct bm_plugin_routine *routines;
};

/* The name baremark looks for in a plug-in's shared object (dlsym), and
 * what the UEFI wrapper publishes (BM_PLUGIN_PROTOCOL_GUID). */
#define BM_PLUGIN_SYMBOL "baremark_plugin"

/* The UEFI form: the plug-in image is a boot-service driver whose entry
 * point (plugins/plugin_efi.c, linked in by tools/baremark-plugin) installs
 * this protocol on its image handle with the interface pointing at
 * `baremark_plugin`.  baremark loads each \baremark\plugins\*.efi with
 * LoadImage, starts it, and reads the table through HandleProtocol. */
#define BM_PLUGIN_PROTOCOL_GUID \
    { 0x5d1e3f2a, 0x8c4b, 0x4e7a, { 0x9b, 0x61, 0x62, 0x61, 0x72, 0x65, 0x6d, 0x6b } }

#define BM_PLUGIN_COUNT_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

#if defined(__GNUC__)
#define BM_PLUGIN_EXPORT __attribute__((visibility("default"), used))
#else
#define BM_PLUGIN_EXPORT
#endif

/* Define the plug-in's table from a static array of routines. */
#define BAREMARK_PLUGIN(NAME, DESCRIPTION, ROUTINES)                     \
    BM_PLUGIN_EXPORT const struct bm_plugin baremark_plugin = {          \
        BM_PLUGIN_MAGIC, BM_PLUGIN_VERSION,                              \
        (uint32_t)sizeof(struct bm_plugin),                              \
        (uint32_t)sizeof(struct bm_plugin_routine),                      \
        BM_PLUGIN_COUNT_OF(ROUTINES), (NAME), (DESCRIPTION), (ROUTINES)  \
    }

#endif
