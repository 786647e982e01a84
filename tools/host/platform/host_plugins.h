/*
 * tools/host/platform/host_plugins.h - plug-ins in the hosted program: load NAME.so
 * files into the registry of bench/plugins/plugins.h (tools/host/platform/plugin_host.c).
 */
#ifndef BAREMARK_HOST_PLUGINS_H
#define BAREMARK_HOST_PLUGINS_H

#include <stddef.h>
#include <stdint.h>

/* One shared object: read (size, SHA-256), dlopen, dlsym(BM_PLUGIN_SYMBOL),
 * checked and its routines added as PLUGIN:ROUTINE targets.  0, or -1 after
 * the one-line reason ("plugin FILE: WHY; skipped"). */
int host_plugin_load(const char *path);

/* Reset the registry and load `n` files.  1 when one was refused, else 0. */
int host_plugins_load_all(char *const *paths, int n);

/* Select `routines` (PLUGINROUTINES syntax; NULL: all), run the setups and
 * probe each selected routine with one call of `probe_iterations`.  1 when
 * a selection item was unknown or a routine failed (each said in a line). */
int host_plugins_ready(const char *routines, uint64_t probe_iterations);

/* The target "PLUGIN:ROUTINE" a user's name stands for: PLUGIN:ROUTINE as
 * given, or ROUTINE when one loaded plug-in has it.  NULL, with why, when
 * there is none or more than one. */
const char *host_plugins_resolve(const char *name, char *why, size_t why_size);

/* host_plugins_load_all then host_plugins_ready: reset the registry, load `n` files, select `routines` (PLUGINROUTINES
 * syntax; NULL: all), run the setups and probe each routine with one call of
 * `probe_iterations`.  Returns 1 when anything was rejected, unknown, failed
 * or faulted (each said in one line), else 0. */
int host_plugins_prepare(char *const *paths, int n, const char *routines, uint64_t probe_iterations);

/* Teardown of every routine that was set up; its memory freed. */
void host_plugins_finish(void);

#endif
