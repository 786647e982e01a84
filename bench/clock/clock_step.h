/*
 * bench/clock/clock_step.h - measuring the counter's effective step: back-to-back
 * reads around delays of varying length (bench/clock/clock_step.asm), their
 * increments given to clockm_step_estimate (bench/clock/clock_math.h, where the
 * rule is).  The image's clock section measures it once after calibration
 * and sets plat_set_tick_step; the hosted `baremark methods` does the same
 * before it times anything.
 */
#ifndef BAREMARK_CLOCK_STEP_H
#define BAREMARK_CLOCK_STEP_H

#include <stddef.h>
#include <stdint.h>

#include "clock_math.h"

/* Pairs of reads per attempt; the sled's length (clock_step.asm's). */
#define CLOCK_STEP_READS 512
#define CLOCK_STEP_SLED  256
/* The delays are drawn uniformly from [0, range) instructions, range one
 * sled at first, four times longer while the increments span too few steps
 * for the rule, up to this many sleds. */
#define CLOCK_STEP_MAX_SLEDS 64
/* How the step was found, as the results say it. */
#define CLOCK_STEP_METHOD "grid of back-to-back lfence+rdtsc increments, dithered delay"

/* One pair of reads around `delay` instructions: the second less the first. */
uint64_t bm_step_pair(uint64_t delay);

/* Measure the step (interrupts masked for each attempt's reads).  Returns
 * 0, or -1 when the evidence stayed too thin (out->why); *range_out, when
 * not NULL, is the delay range of the last attempt, in instructions, and
 * raw, when not NULL, gets its CLOCK_STEP_READS increments as taken (for
 * the results, so the step can be recomputed from them). */
int clock_step_measure(struct clockm_step *out, uint64_t *range_out, uint64_t *raw);

/* "24 ticks (9.23 ns), 512 reads, fit 0.982" (no ns when hz is 0), or
 * "unknown (WHY)". */
void clock_step_describe(const struct clockm_step *s, uint64_t hz, char *out, size_t cap);

#endif
