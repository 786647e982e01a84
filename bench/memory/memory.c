/*
 * bench/memory/memory.c - what the memory section's parts share (see memory.h and
 * memory_internal.h): the random cycle a latency chase walks, one timing
 * with the section's method, minimum and median, the measuring phases'
 * totals, a latency at one size, and sizes in words.  It calls none of the
 * parts: memory_section.c drives them, and they come here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_memory.h"
#include "json.h"
#include "memory.h"
#include "memory_internal.h"
#include "methods.h"
#include "platform.h"
#include "quiet.h"

/* bench/memory/memory.asm */
void bm_mem_chase(uint64_t iterations, void *data);

/* Seed of the permutations (splitmix64); the size is mixed in. */
#define MEMORY_SEED 0x62617265u          /* "bare" */

/* ---- the chase --------------------------------------------------------------------------- */

static uint64_t memory_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);   /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void *memory_chain_build_stride(void *base, uint64_t lines, uint64_t stride, uint64_t seed)
{
    char *b = base;
    uint64_t s = seed;
    if (!lines)
        return base;
#define SLOT(i) (*(uint64_t *)(b + (i) * stride))
    for (uint64_t i = 0; i < lines; i++)
        SLOT(i) = i;
    /* Sattolo: swap with a strictly earlier element, so the result is one
     * cycle through all lines. */
    for (uint64_t i = lines - 1; i > 0; i--) {
        uint64_t j = memory_rand(&s) % i, t = SLOT(i);
        SLOT(i) = SLOT(j);
        SLOT(j) = t;
    }
    for (uint64_t i = 0; i < lines; i++)
        SLOT(i) = (uint64_t)(uintptr_t)(b + SLOT(i) * stride);
#undef SLOT
    return base;
}

void *memory_chain_build(void *base, uint64_t lines, uint64_t seed)
{
    return memory_chain_build_stride(base, lines, MEMORY_LINE, seed);
}

uint64_t memory_chain_length(void *start, uint64_t max_steps)
{
    void *p = start;
    for (uint64_t n = 1; n <= max_steps; n++) {
        p = *(void **)p;
        if (p == start)
            return n;
    }
    return 0;
}

/* ---- timing ----------------------------------------------------------------------------------- */

uint64_t memory_time(bm_routine f, uint64_t iterations, void *data)
{
    unsigned long irq = plat_irq_off();
    uint64_t t = methods_table[MEMORY_METHOD].bracket(f, iterations, data);
    plat_irq_restore(irq);
    return t;
}

static void memory_sort(uint64_t *x, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && x[j - 1] > x[j]; j--) {
            uint64_t t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
}

/* Minimum and median (the mean of the middle two for an even count). */
void memory_min_median(uint64_t *x, uint32_t n, uint64_t *min, uint64_t *median)
{
    memory_sort(x, n);
    *min = x[0];
    *median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

struct quiet_phase_totals memory_qt;

void memory_chase(void *start, uint64_t lines, const struct memory_plan *p, struct memory_latency *out)
{
    uint64_t t[MEMORY_MAX_SAMPLES], hz = plat_tick_hz();
    uint32_t n = p->samples < MEMORY_MAX_SAMPLES ? p->samples : MEMORY_MAX_SAMPLES;
    void *cursor = start;

    out->lines = lines;
    uint64_t loads = lines > p->min_loads ? lines : p->min_loads;
    uint64_t iters = (loads + MEMORY_CHASE_UNROLL - 1) / MEMORY_CHASE_UNROLL;
    out->loads = iters * MEMORY_CHASE_UNROLL;
    quiet_phase_begin();
    out->cycle = memory_chain_length(cursor, lines);   /* untimed: warms the set */
    for (uint32_t i = 0; i < n; i++)
        t[i] = memory_time(bm_mem_chase, iters, &cursor);
    quiet_phase_end_add(&memory_qt);
    memory_min_median(t, n, &out->ticks_min, &out->ticks_median);
    out->ns_min = hz ? (double)out->ticks_min * 1e9 / (double)hz / (double)out->loads : NAN;
    out->ns_median = hz ? (double)out->ticks_median * 1e9 / (double)hz / (double)out->loads : NAN;
}

void memory_measure_latency(void *buf, uint64_t size, const struct memory_plan *p, struct memory_latency *out)
{
    memset(out, 0, sizeof *out);
    out->size = size;
    memory_chase(memory_chain_build(buf, size / MEMORY_LINE, MEMORY_SEED ^ size), size / MEMORY_LINE, p, out);
}

void memory_chase_json(struct json_writer *w, const struct memory_latency *l, int latency_row)
{
    json_u64(w, "cycle_lines", l->cycle);
    json_u64(w, "loads", l->loads);
    json_u64(w, "ticks_min", l->ticks_min);
    json_u64(w, "ticks_median", l->ticks_median);
    json_double(w, "ns_min", l->ns_min);
    json_fig_or_double(w, latency_row ? &figures_memory : NULL, FIG_MEMORY_LATENCY_NS_MEDIAN, "ns_median", l->ns_median);
}

void memory_size_text(uint64_t b, char *buf, size_t n)
{
    if (b >= (1ull << 30))
        snprintf(buf, n, b % (1ull << 30) ? "%.1f GiB" : "%.0f GiB", (double)b / (1 << 30));
    else if (b >= (1ull << 20) && b % (1ull << 19) == 0)
        snprintf(buf, n, b % (1ull << 20) ? "%.1f MiB" : "%.0f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, n, b % 1024 ? "%.1f KiB" : "%.0f KiB", (double)b / 1024);
}
