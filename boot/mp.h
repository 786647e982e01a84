/*
 * boot/mp.h - the other processors, through the firmware's MP Services
 * protocol: port/platform.h's "CPUs and running work on them" for the
 * image (boot/mp.c), and what the rest of the image's port asks of it.
 */
#ifndef BAREMARK_MP_H
#define BAREMARK_MP_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/* plat_alloc / plat_free on an AP (boot/platform_efi.c routes them here):
 * NULL when the calling CPU is the BSP or has no arena. */
void *mp_arena_alloc(size_t bytes);
int mp_arena_free(void *p);       /* 1 when p came from an arena */

/* Nonzero on an AP running a worker (boot/platform_efi.c asks, for
 * plat_alloc and plat_fault_point). */
int mp_on_ap(void);

#endif
