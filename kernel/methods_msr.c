/*
 * kernel/methods_msr.c - the image's answer to bench/methods.h's hook
 * methods_read_msr: portable code cannot read MSRs, the image can, safely
 * (a #GP from a missing MSR is caught by kernel/trap.c).  Used for AMD's
 * DE_CFG LFENCE bit (MSR 0xC0011029 bit 1).
 */
#include <stdint.h>

#include "methods.h"
#include "trap.h"

int methods_read_msr(uint32_t msr, uint64_t *value)
{
    return cpu_rdmsr_safe(msr, value);
}
