/*
 * bench/clock/clock_step.c - measuring the counter's effective step (see
 * clock_step.h; the rule is clock_math.h's).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "clock_step.h"
#include "platform.h"

/* xorshift64: the delays need only be spread, not unpredictable. */
static uint64_t clock_step_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

int clock_step_measure(struct clockm_step *out, uint64_t *range_out, uint64_t *raw)
{
    uint64_t *inc = plat_alloc(CLOCK_STEP_READS * sizeof *inc), seed = 0x737465702d737465ull, range;
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (!inc) {
        snprintf(out->why, sizeof out->why, "no memory for the reads");
        return -1;
    }
    for (range = CLOCK_STEP_SLED; range <= (uint64_t)CLOCK_STEP_SLED * CLOCK_STEP_MAX_SLEDS; range *= 4) {
        /* Every entry point once first: an emulator translates code at its
         * first run, which would land inside a timing. */
        for (uint64_t d = 0; d < CLOCK_STEP_SLED; d++)
            bm_step_pair(d);
        unsigned long irq = plat_irq_off();
        for (size_t i = 0; i < CLOCK_STEP_READS; i++)
            inc[i] = bm_step_pair(clock_step_next(&seed) % range);
        plat_irq_restore(irq);
        if (raw)
            memcpy(raw, inc, CLOCK_STEP_READS * sizeof *inc);
        rc = clockm_step_estimate(inc, CLOCK_STEP_READS, out);
        /* only a span too short for the rule is helped by longer delays */
        if (rc == 0 || out->reads < CLOCKM_STEP_MIN_READS)
            break;
    }
    if (range_out)
        *range_out = range > (uint64_t)CLOCK_STEP_SLED * CLOCK_STEP_MAX_SLEDS ? range / 4 : range;
    plat_free(inc);
    return rc;
}

void clock_step_describe(const struct clockm_step *s, uint64_t hz, char *out, size_t cap)
{
    if (!s->ticks) {
        snprintf(out, cap, "unknown (%s)", s->why);
        return;
    }
    int n = snprintf(out, cap, "%llu tick%s", (unsigned long long)s->ticks, s->ticks == 1 ? "" : "s");
    if (hz && n >= 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, " (%.3g ns)", (double)s->ticks * 1e9 / (double)hz);
    if (n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, ", %u reads, fit %.3f", (unsigned)s->reads, s->fit);
}
