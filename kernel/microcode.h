/*
 * kernel/microcode.h - the CPU's microcode revision (kernel/microcode.c).
 */
#ifndef BAREMARK_MICROCODE_H
#define BAREMARK_MICROCODE_H

#include <stdint.h>

/* 0 and *rev, or -1 when the CPU does not say (no MSRs, or refused). */
int cpu_microcode(uint32_t *rev);

#endif
