/*
 * bench/plugins/plugins.h - the plug-ins of one run (plugins/baremark_plugin.h):
 * their files, the checks of their tables, their routines as targets the
 * methods and the comparisons time like built-in ones, setup and teardown
 * with the host services, the selection (PLUGINROUTINES) and the one-call
 * probe that finds a faulting routine before it is timed.
 *
 * Portable: the image's plugins section (bench/plugins/plugins_section.c, over the
 * port's plat_image_load: LoadImage, the protocol) and the hosted program
 * (dlopen) each find a plug-in's table and hand it here with the file's
 * bytes; everything after that is the same code.
 *
 * Every read of a plug-in's table happens inside plat_protected, so a table
 * with a wild pointer is rejected with the fault's description instead of
 * ending the run; its strings are copied into baremark's memory, so
 * nothing later reads the plug-in's data again.
 *
 * A routine's life: checked -> selected (PLUGINROUTINES) -> setup (interrupts
 * enabled; its memory comes from host->alloc) -> probed (one protected call
 * with interrupts enabled, see plugins_probe) -> timed by the sections ->
 * teardown (plugins_teardown) -> its memory freed.  Any step that fails
 * takes that routine out with one line naming the file and the routine, and
 * raises the run's status to 2; the other routines go on.
 */
#ifndef BAREMARK_PLUGINS_H
#define BAREMARK_PLUGINS_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/baremark_plugin.h"
#include "sha256.h"
#include "targets.h"

struct json_writer;

#define PLUGINS_MAX_FILES   32          /* plug-in files a run looks at */
#define PLUGINS_FILE_MAX    64          /* a file's name, with its NUL */
#define PLUGINS_TARGET_MAX  (2 * BM_PLUGIN_NAME_MAX)  /* "PLUGIN:ROUTINE" */
#define PLUGINS_WHY_MAX     240
#define PLUGINS_FOLDER      "\\baremark\\plugins"

/* What became of a routine (its JSON "status"). */
enum plugins_state {
    PLUGINS_READY,            /* "ready": will be (or was) timed */
    PLUGINS_NOT_SELECTED,     /* "not_selected": left out by PLUGINROUTINES */
    PLUGINS_SETUP_FAILED,     /* "setup_failed": setup returned nonzero or faulted */
    PLUGINS_FAULTED,          /* "fault": a CPU exception in the routine */
    PLUGINS_HUNG,             /* "hung": did not return in an earlier run; skipped */
};

struct plugins_file;

struct plugins_routine {
    struct target t;                      /* name "PLUGIN:ROUTINE", fn, data, what, counts */
    char target[PLUGINS_TARGET_MAX];
    char name[BM_PLUGIN_NAME_MAX];
    char desc[BM_PLUGIN_DESC_MAX];
    int has_setup, has_teardown;
    int (*setup)(const struct bm_plugin_host *, void **);
    void (*teardown)(void *);
    struct plugins_file *file;
    enum plugins_state state;
    int set_up;                           /* setup ran and succeeded */
    char why[PLUGINS_WHY_MAX];
    void *allocs;                         /* host->alloc blocks, freed after teardown */
    uint64_t alloc_bytes;
};

struct plugins_file {
    char file[PLUGINS_FILE_MAX];          /* "my.efi" (as found in the folder) */
    uint64_t size;
    char sha256[SHA256_HEX];
    int ok;                               /* its table passed every check */
    char why[PLUGINS_WHY_MAX];            /* why not */
    char name[BM_PLUGIN_NAME_MAX];
    char desc[BM_PLUGIN_DESC_MAX];
    uint32_t version;
    unsigned first, count;                /* its routines: plugins_routine_at(first + i) */
    void *handle;                         /* the loader's (EFI image handle, dlopen handle) */
};

/* Forget every plug-in (the routines' memory must have been freed). */
void plugins_reset(void);

/* A file found: its name, bytes (for size and SHA-256).  Returns its entry,
 * or NULL (one warning) when PLUGINS_MAX_FILES are already there. */
struct plugins_file *plugins_file_add(const char *file, const void *bytes, size_t size);

/* The file cannot be used: one line "plugin FILE: WHY; skipped", status 2. */
void plugins_file_reject(struct plugins_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Check the table the loader found (protected reads; see the rules in
 * baremark_plugin.h) and take its routines as targets.  0, or -1 after
 * plugins_file_reject. */
int plugins_file_attach(struct plugins_file *f, const struct bm_plugin *p);

/* The check alone, into why (portable, no side effects; used by the tests
 * and by plugins_file_attach).  Returns 0 or -1. */
int plugins_check_table(const struct bm_plugin *p, char *why, size_t why_size);

/* PLUGINROUTINES: a comma list of PLUGIN:ROUTINE, PLUGIN (all its
 * routines), PLUGIN:* or * ; empty or "all": every routine; "none": none.
 * An item that names no loaded routine: a warning and status 2.  Returns
 * the number of unknown items. */
int plugins_select(const char *spec);

/* Take out a routine that did not return in an earlier run (its file's
 * SHA-256 and its target name match): state PLUGINS_HUNG with `why`.
 * Returns 1 when a routine was marked. */
int plugins_mark_hung(const char *sha256_hex, const char *target, const char *why);

/* Run every selected routine's setup (interrupts enabled, protected). */
void plugins_setup(void);

/* Probe hooks: called before and after each routine's probe call (the image
 * writes a marker file and arms the watchdog; see bench/plugins/plugins_section.c). */
struct plugins_probe_hooks {
    void (*before)(const struct plugins_routine *r, void *ctx);
    void (*after)(const struct plugins_routine *r, void *ctx);
    void *ctx;
};

/* Call every ready routine once with `iterations`, interrupts enabled, inside
 * plat_protected: a fault takes it out (PLUGINS_FAULTED, one line).  A
 * routine that never returns never comes back here: see the hooks. */
void plugins_probe(uint64_t iterations, const struct plugins_probe_hooks *hooks);

/* Around the timing of a plug-in routine, when interrupts are enabled
 * (the sections call these before and after a target's measurements;
 * no-ops for a built-in target).  The image leaves the probe's marker file
 * for the time, so a routine that hangs later, with interrupts masked,
 * where no watchdog can end it, is still named and skipped by the boot
 * after a manual reset. */
void plugins_timing_begin(const struct target *t);
void plugins_timing_end(const struct target *t);
/* The image's hooks for the two above (NULL: none). */
void plugins_set_timing_hooks(const struct plugins_probe_hooks *hooks);

/* Teardown of every routine that was set up, then free its memory. */
void plugins_teardown(void);

/* A measurement of a plug-in target failed with a CPU exception: one line
 * naming the file and the routine; the routine is taken out of what is
 * still to come.  No-op for a target that is not a plug-in's. */
void plugins_note_fault(const struct target *t, const char *why);

/* Routines: all of them (any state), and the ready ones as targets. */
unsigned plugins_routine_count(void);
struct plugins_routine *plugins_routine_at(unsigned i);
unsigned plugins_file_count(void);
struct plugins_file *plugins_file_at(unsigned i);
/* A routine by "PLUGIN:ROUTINE" (any state), or NULL. */
struct plugins_routine *plugins_find(const char *target);
/* The routine behind a target (NULL for a built-in one). */
struct plugins_routine *plugins_of_target(const struct target *t);
/* Ready routines count, and the i-th ready routine's target. */
unsigned plugins_ready_count(void);
const struct target *plugins_ready_target(unsigned i);

/* "ready", "not_selected", "setup_failed", "fault", "hung". */
const char *plugins_state_name(enum plugins_state s);

/* The listing: one block per file on out_printf, and the "files" array
 * (plus counts) into the open object w (NULL: text only). */
void plugins_print(void);
void plugins_json(struct json_writer *w);

#endif
