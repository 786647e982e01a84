/*
 * tools/host/platform/host_platform.h - what the hosted program's platform layer
 * (tools/host/platform/platform_host.c, results_host.c) offers beyond
 * port/platform.h.
 */
#ifndef BAREMARK_HOST_PLATFORM_H
#define BAREMARK_HOST_PLATFORM_H

/* Warnings printed with out_warn so far. */
int host_warning_count(void);

/* End a protected call (plat_protected) that has not returned after
 * `seconds` as if it had faulted ("did not return within S s"); 0: no limit
 * (the default).  Applies to the outermost protected call. */
void host_protect_timeout(unsigned seconds);

/* Close the results document the sections wrote (tools/host/platform/results_host.c)
 * with this status and write it to path (nothing when path is NULL or no
 * section wrote).  0, or -1 after one line on standard error. */
int host_results_write(const char *path, int status);

#endif
