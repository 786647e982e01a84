/*
 * bench/memory.c - latency and bandwidth by working-set size (see memory.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "lava.h"
#include "memory.h"
#include "methods.h"
#include "out.h"
#include "platform.h"
#include "quiet.h"
#include "results.h"
#include "section.h"

/* bench/memory.asm */
void bm_mem_chase(uint64_t iterations, void *data);
void bm_mem_read(uint64_t iterations, void *data);
void bm_mem_write(uint64_t iterations, void *data);
void bm_mem_copy(uint64_t iterations, void *data);

/* The method every memory timing uses (bench/methods.h). */
#define MEMORY_METHOD METHOD_LFENCE_RDTSC
/* Seed of the permutations (splitmix64); the size is mixed in. */
#define MEMORY_SEED 0x62617265u          /* "bare" */
/* CPUID leaves for the caches (Intel SDM CPUID leaf 04H; AMD APM CPUID
 * 8000_001Dh, same layout, with 8000_0001h ECX bit 22 TopologyExtensions;
 * the older 8000_0005h/8000_0006h). */
#define MEMORY_LEAF_INTEL   4u
#define MEMORY_LEAF_AMD     0x8000001Du
#define MEMORY_AMD_TOPOEXT  (1u << 22)

/* ---- caches ---------------------------------------------------------------------- */

static void memory_vendor(void (*cpuid)(uint32_t, uint32_t, uint32_t[4]), uint32_t *max, char v[13])
{
    uint32_t r[4];
    cpuid(0, 0, r);
    *max = r[0];
    memcpy(v, &r[1], 4);
    memcpy(v + 4, &r[3], 4);
    memcpy(v + 8, &r[2], 4);
    v[12] = 0;
}

/* Leaf 4 / 8000_001Dh: one subleaf per cache until type 0. */
static void memory_caches_det(void (*cpuid)(uint32_t, uint32_t, uint32_t[4]), uint32_t leaf,
                              struct memory_caches *c)
{
    for (uint32_t sub = 0; sub < 16 && c->n < MEMORY_MAX_CACHES; sub++) {
        uint32_t r[4];
        cpuid(leaf, sub, r);
        unsigned type = r[0] & 0x1F;
        if (type == 0)
            break;
        struct memory_cache *k = &c->c[c->n++];
        k->type = type == 1 ? 'd' : type == 2 ? 'i' : 'u';
        k->level = (r[0] >> 5) & 7;
        k->shared_by = ((r[0] >> 14) & 0xFFF) + 1;
        k->ways = ((r[1] >> 22) & 0x3FF) + 1;
        k->partitions = ((r[1] >> 12) & 0x3FF) + 1;
        k->line = (r[1] & 0xFFF) + 1;
        k->sets = r[2] + 1;
        k->size = (uint64_t)k->ways * k->partitions * k->line * k->sets;
    }
}

/* 8000_0005h ECX: L1 data (size KiB [31:24], line [7:0]); 8000_0006h ECX:
 * L2 (KiB [31:16], line [7:0]), EDX: L3 (512 KiB units [31:18], line [7:0]). */
static void memory_caches_legacy(void (*cpuid)(uint32_t, uint32_t, uint32_t[4]), uint32_t max_ext,
                                 struct memory_caches *c)
{
    uint32_t r[4];
    if (max_ext >= 0x80000005u) {
        cpuid(0x80000005u, 0, r);
        if (r[2] >> 24)
            c->c[c->n++] = (struct memory_cache){ 1, 'd', (uint64_t)(r[2] >> 24) << 10, r[2] & 0xFF };
        if (r[3] >> 24)
            c->c[c->n++] = (struct memory_cache){ 1, 'i', (uint64_t)(r[3] >> 24) << 10, r[3] & 0xFF };
    }
    if (max_ext >= 0x80000006u) {
        cpuid(0x80000006u, 0, r);
        if (r[2] >> 16)
            c->c[c->n++] = (struct memory_cache){ 2, 'u', (uint64_t)(r[2] >> 16) << 10, r[2] & 0xFF };
        if (r[3] >> 18)
            c->c[c->n++] = (struct memory_cache){ 3, 'u', (uint64_t)(r[3] >> 18) << 19, r[3] & 0xFF };
    }
}

void memory_caches_read(void (*cpuid)(uint32_t, uint32_t, uint32_t[4]), struct memory_caches *c)
{
    uint32_t max, max_ext, r[4];
    char v[13];

    memset(c, 0, sizeof *c);
    c->source = "none";
    memory_vendor(cpuid, &max, v);
    cpuid(0x80000000u, 0, r);
    max_ext = r[0] >= 0x80000000u ? r[0] : 0;
    int amd = !strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine");
    if (!amd && max >= MEMORY_LEAF_INTEL) {
        memory_caches_det(cpuid, MEMORY_LEAF_INTEL, c);
        if (c->n)
            c->source = "cpuid 4";
    }
    if (!c->n && amd && max_ext >= MEMORY_LEAF_AMD) {
        cpuid(0x80000001u, 0, r);
        if (r[2] & MEMORY_AMD_TOPOEXT) {
            memory_caches_det(cpuid, MEMORY_LEAF_AMD, c);
            if (c->n)
                c->source = "cpuid 0x8000001d";
        }
    }
    if (!c->n) {
        memory_caches_legacy(cpuid, max_ext, c);
        if (c->n)
            c->source = "cpuid 0x80000005/6";
    }
}

uint64_t memory_caches_largest(const struct memory_caches *c)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < c->n; i++)
        if (c->c[i].type != 'i' && c->c[i].size > m)
            m = c->c[i].size;
    return m;
}

void memory_cache_name(const struct memory_cache *c, char *buf, size_t n)
{
    snprintf(buf, n, "L%u%s", c->level, c->type == 'd' ? "d" : c->type == 'i' ? "i" : "");
}

/* The smallest data/unified cache holding `size` bytes, or NULL. */
static const struct memory_cache *memory_fits(const struct memory_caches *c, uint64_t size)
{
    const struct memory_cache *best = NULL;
    for (unsigned i = 0; i < c->n; i++)
        if (c->c[i].type != 'i' && c->c[i].size >= size && (!best || c->c[i].size < best->size))
            best = &c->c[i];
    return best;
}

/* ---- the plan ------------------------------------------------------------------------ */

unsigned memory_sizes(int quick, uint64_t top, uint64_t *sizes, unsigned max)
{
    unsigned n = 0;
    for (uint64_t s = MEMORY_MIN_SIZE; s <= top && n < max; s *= quick ? 4 : 2) {
        sizes[n++] = s;
        if (!quick && s + s / 2 <= top && n < max)
            sizes[n++] = s + s / 2;
    }
    return n;
}

static uint64_t memory_pow2_down(uint64_t x)
{
    uint64_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return x ? p : 0;
}

static uint64_t memory_pow2_up(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p *= 2;
    return p;
}

uint64_t memory_top(int quick, uint64_t largest_cache, uint64_t free_bytes, const char **limited_by,
                    uint64_t *want)
{
    uint64_t top = memory_pow2_up(4 * largest_cache);
    if (top < MEMORY_FULL_MIN_TOP)
        top = MEMORY_FULL_MIN_TOP;
    if (quick)
        top = MEMORY_QUICK_MAX;
    *want = top;
    *limited_by = "";
    if (free_bytes && top > free_bytes / 2) {
        top = memory_pow2_down(free_bytes / 2);
        *limited_by = "free memory";
    }
    return top < MEMORY_MIN_SIZE ? 0 : top;
}

void memory_plan_make(int quick, uint64_t free_bytes, struct memory_plan *p)
{
    memset(p, 0, sizeof *p);
    p->quick = quick;
    p->samples = quick ? MEMORY_QUICK_SAMPLES : MEMORY_FULL_SAMPLES;
    p->bw_samples = quick ? MEMORY_QUICK_BW_SAMPLES : MEMORY_FULL_BW_SAMPLES;
    p->min_loads = quick ? MEMORY_QUICK_LOADS : MEMORY_FULL_LOADS;
    p->bw_bytes = quick ? MEMORY_QUICK_BW_BYTES : MEMORY_FULL_BW_BYTES;
    p->free_bytes = free_bytes;
    memory_caches_read(bm_cpuid, &p->caches);
    p->top = memory_top(quick, memory_caches_largest(&p->caches), free_bytes, &p->limited_by, &p->want_top);
    p->nsizes = memory_sizes(quick, p->top, p->sizes, MEMORY_MAX_SIZES);
}

/* ---- the chase --------------------------------------------------------------------------- */

static uint64_t memory_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);   /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void *memory_chain_build(void *base, uint64_t lines, uint64_t seed)
{
    char *b = base;
    uint64_t s = seed;
    if (!lines)
        return base;
#define SLOT(i) (*(uint64_t *)(b + (i) * MEMORY_LINE))
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
        SLOT(i) = (uint64_t)(uintptr_t)(b + SLOT(i) * MEMORY_LINE);
#undef SLOT
    return base;
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

static uint64_t memory_time(bm_routine f, uint64_t iterations, void *data)
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
static void memory_min_median(uint64_t *x, uint32_t n, uint64_t *min, uint64_t *median)
{
    memory_sort(x, n);
    *min = x[0];
    *median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

#define MEMORY_MAX_SAMPLES 64

/* The section's measuring phases (one per size and kernel). */
static struct quiet_phase_totals memory_qt;

void memory_measure_latency(void *buf, uint64_t size, const struct memory_plan *p, struct memory_latency *out)
{
    uint64_t t[MEMORY_MAX_SAMPLES], hz = plat_tick_hz();
    uint32_t n = p->samples < MEMORY_MAX_SAMPLES ? p->samples : MEMORY_MAX_SAMPLES;
    void *cursor;

    memset(out, 0, sizeof *out);
    out->size = size;
    out->lines = size / MEMORY_LINE;
    uint64_t loads = out->lines > p->min_loads ? out->lines : p->min_loads;
    uint64_t iters = (loads + MEMORY_CHASE_UNROLL - 1) / MEMORY_CHASE_UNROLL;
    out->loads = iters * MEMORY_CHASE_UNROLL;
    cursor = memory_chain_build(buf, out->lines, MEMORY_SEED ^ size);
    quiet_phase_begin();
    out->cycle = memory_chain_length(cursor, out->lines);   /* untimed: warms the set */
    for (uint32_t i = 0; i < n; i++)
        t[i] = memory_time(bm_mem_chase, iters, &cursor);
    quiet_phase_end_add(&memory_qt);
    memory_min_median(t, n, &out->ticks_min, &out->ticks_median);
    out->ns_min = hz ? (double)out->ticks_min * 1e9 / (double)hz / (double)out->loads : NAN;
    out->ns_median = hz ? (double)out->ticks_median * 1e9 / (double)hz / (double)out->loads : NAN;
}

struct memory_bw_arg { uint8_t *base; uint64_t bytes; uint8_t *dst; };

void memory_measure_bw(void *buf, uint64_t size, const struct memory_plan *p, struct memory_bw *out)
{
    static const bm_routine fn[MEMORY_BW_OPS] = { bm_mem_read, bm_mem_write, bm_mem_copy };
    uint64_t t[MEMORY_MAX_SAMPLES], hz = plat_tick_hz();
    uint32_t n = p->bw_samples < MEMORY_MAX_SAMPLES ? p->bw_samples : MEMORY_MAX_SAMPLES;

    memset(out, 0, sizeof *out);
    out->size = size;
    for (int op = 0; op < MEMORY_BW_OPS; op++) {
        struct memory_bw_arg a = { buf, size, NULL };
        if (op == MEMORY_BW_COPY)
            a = (struct memory_bw_arg){ buf, size / 2, (uint8_t *)buf + size / 2 };
        uint64_t passes = (p->bw_bytes + a.bytes - 1) / a.bytes;
        out->bytes[op] = passes * a.bytes;
        quiet_phase_begin();
        fn[op](1, &a);                                       /* warm-up */
        for (uint32_t i = 0; i < n; i++)
            t[i] = memory_time(fn[op], passes, &a);
        quiet_phase_end_add(&memory_qt);
        memory_min_median(t, n, &out->ticks_min[op], &out->ticks_median[op]);
        out->best[op] = hz && out->ticks_min[op] ? (double)out->bytes[op] * (double)hz / (double)out->ticks_min[op] : NAN;
        out->median[op] = hz && out->ticks_median[op] ? (double)out->bytes[op] * (double)hz / (double)out->ticks_median[op] : NAN;
    }
}

/* ---- the section ------------------------------------------------------------------------------- */

static void memory_size_text(uint64_t b, char *buf, size_t n)
{
    if (b >= (1ull << 30))
        snprintf(buf, n, b % (1ull << 30) ? "%.1f GiB" : "%.0f GiB", (double)b / (1 << 30));
    else if (b >= (1ull << 20) && b % (1ull << 19) == 0)
        snprintf(buf, n, b % (1ull << 20) ? "%.1f MiB" : "%.0f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, n, b % 1024 ? "%.1f KiB" : "%.0f KiB", (double)b / 1024);
}

static void memory_print_caches(const struct memory_caches *c)
{
    char line[400], name[8], sz[24];
    size_t k;
    if (!c->n) {
        out_printf("memory: the CPU states no cache sizes (CPUID leaf 4, 0x8000001d, 0x80000005/6 empty)\n");
        return;
    }
    k = (size_t)snprintf(line, sizeof line, "memory: caches (%s):", c->source);
    for (unsigned i = 0; i < c->n && k < sizeof line; i++) {
        memory_cache_name(&c->c[i], name, sizeof name);
        memory_size_text(c->c[i].size, sz, sizeof sz);
        k += (size_t)snprintf(line + k, sizeof line - k, "%s %s %s", i ? "," : "", name, sz);
        if (c->c[i].ways && k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, " (%u-way, %u B lines)", c->c[i].ways, c->c[i].line);
    }
    out_printf("%s\n", line);
}

static void memory_fits_name(const struct memory_caches *c, uint64_t size, char *buf, size_t n)
{
    const struct memory_cache *k = memory_fits(c, size);
    if (k)
        memory_cache_name(k, buf, n);
    else
        snprintf(buf, n, "%s", c->n ? "memory" : "?");
}

static void memory_print_row(const struct memory_latency *l, const struct memory_bw *b,
                             const struct memory_caches *c)
{
    char sz[24], fits[8];
    memory_size_text(l->size, sz, sizeof sz);
    memory_fits_name(c, l->size, fits, sizeof fits);
    if (plat_tick_hz())
        out_printf("  %9s %9llu %8.3f %8.3f   %8.3f %8.3f %8.3f   %s\n", sz, (unsigned long long)l->loads,
                   l->ns_min, l->ns_median, b->best[0] / 1e9, b->best[1] / 1e9, b->best[2] / 1e9, fits);
    else
        out_printf("  %9s %9llu %8.3f %8.3f   %8.3f %8.3f %8.3f   %s\n", sz, (unsigned long long)l->loads,
                   (double)l->ticks_min / l->loads, (double)l->ticks_median / l->loads,
                   (double)b->bytes[0] / b->ticks_min[0], (double)b->bytes[1] / b->ticks_min[1],
                   (double)b->bytes[2] / b->ticks_min[2], fits);
}

static void memory_json_caches(struct json_writer *w, const struct memory_caches *c)
{
    json_obj_begin(w, "caches");
    json_str(w, "source", c->source);
    json_arr_begin(w, "list");
    for (unsigned i = 0; i < c->n; i++) {
        const struct memory_cache *k = &c->c[i];
        char name[8];
        memory_cache_name(k, name, sizeof name);
        json_obj_begin(w, NULL);
        json_str(w, "name", name);
        json_u64(w, "level", k->level);
        json_str(w, "type", k->type == 'd' ? "data" : k->type == 'i' ? "instruction" : "unified");
        json_u64(w, "size_bytes", k->size);
        json_u64(w, "line_bytes", k->line);
        if (k->ways) {
            json_u64(w, "ways", k->ways);
            json_u64(w, "sets", k->sets);
            json_u64(w, "shared_by", k->shared_by);
        }
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void memory_json_row(struct json_writer *w, const struct memory_latency *l, const struct memory_caches *c)
{
    char fits[8];
    memory_fits_name(c, l->size, fits, sizeof fits);
    json_obj_begin(w, NULL);
    json_u64(w, "size_bytes", l->size);
    json_u64(w, "lines", l->lines);
    json_u64(w, "cycle_lines", l->cycle);
    json_u64(w, "loads", l->loads);
    json_u64(w, "ticks_min", l->ticks_min);
    json_u64(w, "ticks_median", l->ticks_median);
    json_double(w, "ns_min", l->ns_min);
    json_double(w, "ns_median", l->ns_median);
    json_str(w, "fits", fits);
    json_obj_end(w);
}

static const char *const memory_bw_names[MEMORY_BW_OPS] = { "read", "write", "copy" };

static void memory_json_bw(struct json_writer *w, const struct memory_bw *b)
{
    json_obj_begin(w, NULL);
    json_u64(w, "size_bytes", b->size);
    for (int op = 0; op < MEMORY_BW_OPS; op++) {
        json_obj_begin(w, memory_bw_names[op]);
        json_u64(w, "bytes", b->bytes[op]);
        json_u64(w, "ticks_min", b->ticks_min[op]);
        json_u64(w, "ticks_median", b->ticks_median[op]);
        json_double(w, "best_bytes_per_s", b->best[op]);
        json_double(w, "median_bytes_per_s", b->median[op]);
        json_obj_end(w);
    }
    json_obj_end(w);
}

/* What a knee from size `before` to `size` crossed, from the detected
 * caches (not from the row before): the cache that held `before` and no
 * longer holds `size` ("past"), or, when both fit the same cache, that cache
 * ("within": the rise is not a cache boundary by size, e.g. the set filling
 * the cache it still fits in, or the TLB).  NULL when `before` fit none. */
const struct memory_cache *memory_knee_cache(const struct memory_caches *c, uint64_t before, uint64_t size,
                                             int *past)
{
    const struct memory_cache *was = memory_fits(c, before);
    *past = was && memory_fits(c, size) != was;
    return was;
}

/* Knees: the median latency per load rises by MEMORY_KNEE_RATIO or more. */
static void memory_knees(const struct memory_latency *l, unsigned n, const struct memory_caches *c,
                         struct json_writer *w)
{
    int any = 0;
    if (w)
        json_arr_begin(w, "knees");
    for (unsigned i = 1; i < n; i++) {
        double a = (double)l[i - 1].ticks_median / l[i - 1].loads, b = (double)l[i].ticks_median / l[i].loads;
        if (!(a > 0) || b < MEMORY_KNEE_RATIO * a)
            continue;
        int past;
        const struct memory_cache *k = memory_knee_cache(c, l[i - 1].size, l[i].size, &past);
        char sz[24], ksz[24] = "", name[8] = "", where[64] = "";
        memory_size_text(l[i].size, sz, sizeof sz);
        if (k) {
            memory_cache_name(k, name, sizeof name);
            memory_size_text(k->size, ksz, sizeof ksz);
            if (past)
                snprintf(where, sizeof where, ": past %s of %s", name, ksz);
            else
                snprintf(where, sizeof where, ": within %s of %s (%.0f%% of it)", name, ksz,
                         100.0 * (double)l[i].size / (double)k->size);
        }
        out_printf("memory: knee at %s (latency x%.2f over the size before)%s\n", sz, b / a, where);
        any = 1;
        if (w) {
            json_obj_begin(w, NULL);
            json_u64(w, "size_bytes", l[i].size);
            json_double(w, "ratio", b / a);
            if (k) {
                json_str(w, past ? "past" : "within", name);
                json_u64(w, past ? "past_bytes" : "within_bytes", k->size);
            }
            json_obj_end(w);
        }
    }
    if (w)
        json_arr_end(w);
    if (!any)
        out_printf("memory: no knee (no size's latency is %.2f x the size before)\n", MEMORY_KNEE_RATIO);
}

static void memory_json_head(struct json_writer *w, const struct memory_plan *p, uint64_t allocated)
{
    json_str(w, "profile", p->quick ? "quick" : "full");
    json_str(w, "allocator", memory_allocator_name ? memory_allocator_name() : "none");
    if (p->free_bytes)
        json_u64(w, "free_bytes", p->free_bytes);
    else
        json_null(w, "free_bytes");
    json_u64(w, "allocated_bytes", allocated);
    json_u64(w, "want_top_bytes", p->want_top);
    json_u64(w, "top_bytes", p->top);
    json_str(w, "limited_by", p->limited_by);
    json_str(w, "method", methods_table[MEMORY_METHOD].name);
    json_u64(w, "line_bytes", MEMORY_LINE);
    json_u64(w, "samples", p->samples);
    json_u64(w, "bw_samples", p->bw_samples);
    json_u64(w, "min_loads", p->min_loads);
    json_u64(w, "bw_min_bytes", p->bw_bytes);
    memory_json_caches(w, &p->caches);
}

/* The buffer: the planned top, or the largest power of two that can be
 * had below it. */
static void *memory_alloc(struct memory_plan *p, uint64_t *got)
{
    *got = 0;
    if (!memory_pages_alloc || !p->top)
        return NULL;
    for (uint64_t s = p->top; s >= MEMORY_MIN_SIZE; s /= 2) {
        void *b = memory_pages_alloc(s);
        if (b) {
            if (s < p->top) {
                p->top = s;
                p->limited_by = "allocation failed";
                p->nsizes = memory_sizes(p->quick, s, p->sizes, MEMORY_MAX_SIZES);
            }
            *got = s;
            return b;
        }
    }
    return NULL;
}

int memory_section(struct memory_plan *p, struct json_writer *w)
{
    static struct memory_latency lat[MEMORY_MAX_SIZES];
    static struct memory_bw bw[MEMORY_MAX_SIZES];
    uint64_t hz = plat_tick_hz(), t0 = plat_ticks(), allocated, want = p->top;
    char a[24], b[24], f[24];

    quiet_phase_totals_init(&memory_qt);
    memory_print_caches(&p->caches);
    void *buf = memory_alloc(p, &allocated);
    memory_size_text(p->free_bytes, f, sizeof f);
    if (!buf) {
        memory_size_text(want, a, sizeof a);
        out_warn("memory: could not allocate even %u bytes (free memory %s; %s asked): memory section skipped",
                 MEMORY_MIN_SIZE, p->free_bytes ? f : "unknown", a);
        if (w) {
            memory_json_head(w, p, 0);
            json_str(w, "skipped", "no memory");
        }
        return 2;
    }
    memory_size_text(p->top, a, sizeof a);
    memory_size_text(p->want_top, b, sizeof b);
    out_printf("memory: %s profile: %u sizes from 4 KiB to %s (%s%s%s); %s allocated with %s; free memory %s\n",
               p->quick ? "quick" : "full", p->nsizes, a, p->quick ? "every 4x" : "two per octave",
               p->limited_by[0] ? ", bounded by " : "", p->limited_by, a,
               memory_allocator_name ? memory_allocator_name() : "?", p->free_bytes ? f : "unknown");
    if (p->limited_by[0])
        out_printf("memory: the profile asks for up to %s; %s allows %s\n", b, p->limited_by, a);
    out_printf("memory: latency = dependent loads around a random cycle of %u-byte lines (%u timings, median "
               "and min); bandwidth = 16-byte SSE2 loads, stores, copy of half to half (%u timings); %s, %s\n",
               MEMORY_LINE, p->samples, p->bw_samples, methods_table[MEMORY_METHOD].name,
               strcmp(plat_name(), "linux") ? "interrupts masked for each timing"
                                            : "interrupts and the scheduler on (Linux): a timing may include them");
    if (hz)
        out_printf("  %9s %9s %8s %8s   %8s %8s %8s   %s\n", "size", "loads", "ns min", "ns med",
                   "rd GB/s", "wr GB/s", "cp GB/s", "fits in");
    else
        out_printf("  %9s %9s %8s %8s   %8s %8s %8s   %s   (the clock is not calibrated: ticks)\n", "size",
                   "loads", "tk min", "tk med", "rd B/tk", "wr B/tk", "cp B/tk", "fits in");
    int bad = 0;
    for (unsigned i = 0; i < p->nsizes; i++) {
        memory_measure_latency(buf, p->sizes[i], p, &lat[i]);
        memory_measure_bw(buf, p->sizes[i], p, &bw[i]);
        memory_print_row(&lat[i], &bw[i], &p->caches);
        if (lat[i].cycle != lat[i].lines) {
            out_warn("memory: the chain of %llu lines is a cycle of %llu: the permutation is broken",
                     (unsigned long long)lat[i].lines, (unsigned long long)lat[i].cycle);
            bad = 1;
        }
    }
    /* LAVA cases (bench/lava.h), after the table: each size's median
     * latency and best bandwidths, the size in bytes in the id */
    static const char *const bw_name[3] = { "read", "write", "copy" };
    for (unsigned i = 0; i < p->nsizes; i++) {
        lava_casef(lat[i].cycle == lat[i].lines ? LAVA_PASS : LAVA_FAIL, plat_tick_hz() ? lat[i].ns_median : NAN,
                   "ns", "memory_latency_%llu_ns", (unsigned long long)lat[i].size);
        for (int k = 0; k < 3; k++)
            lava_casef(LAVA_PASS, plat_tick_hz() ? bw[i].best[k] / 1e9 : NAN, "GB/s", "memory_%s_%llu_gbps",
                       bw_name[k], (unsigned long long)lat[i].size);
    }
    memory_pages_free(buf, allocated);
    if (w) {
        memory_json_head(w, p, allocated);
        json_arr_begin(w, "latency");
        for (unsigned i = 0; i < p->nsizes; i++)
            memory_json_row(w, &lat[i], &p->caches);
        json_arr_end(w);
        json_arr_begin(w, "bandwidth");
        for (unsigned i = 0; i < p->nsizes; i++)
            memory_json_bw(w, &bw[i]);
        json_arr_end(w);
    }
    memory_knees(lat, p->nsizes, &p->caches, w);
    quiet_phase_totals_print("memory", &memory_qt);
    if (w)
        quiet_phase_totals_json(w, "quiet_phases", &memory_qt);
    methods_print_elapsed("memory", plat_ticks() - t0, hz);
    return bad ? 2 : 0;
}

/* ---- the section in the image's run ------------------------------------------------------------ */

int memory_run(const struct section_ctx *ctx)
{
    struct memory_plan p;
    uint32_t r[4];
    bm_cpuid(1, 0, r);
    int hv = (r[2] >> 31) & 1;
    int quick = ctx->cfg->profile == BM_PROFILE_QUICK || (ctx->cfg->profile == BM_PROFILE_AUTO && hv);
    memory_plan_make(quick, memory_free_bytes ? memory_free_bytes() : 0, &p);
    struct json_writer *w = results_section_begin("memory", 0);
    int rc = memory_section(&p, w);
    results_section_end();
    return rc;
}
