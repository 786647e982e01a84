/*
 * bench/memory/memory_caches.c - the caches the CPU states (CPUID), which one a
 * size fits in, and the knees of the latency curve with the level each
 * one actually left (see memory.h).
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "json.h"
#include "memory.h"
#include "memory_internal.h"
#include "methods.h"
#include "platform.h"

/* CPUID leaves for the caches (Intel SDM CPUID leaf 04H; AMD APM CPUID
 * 8000_001Dh, same layout, with 8000_0001h ECX bit 22 TopologyExtensions;
 * the older 8000_0005h/8000_0006h). */
#define MEMORY_LEAF_INTEL   4u
#define MEMORY_LEAF_AMD     0x8000001Du
#define MEMORY_AMD_TOPOEXT  (1u << 22)

/* ---- caches ---------------------------------------------------------------------- */

/* Leaf 4 / 8000_001Dh: one subleaf per cache until type 0. */
static void memory_caches_det(const struct cpu_info *id, uint32_t leaf,
                              struct memory_caches *c)
{
    for (uint32_t sub = 0; sub < 16 && c->n < MEMORY_MAX_CACHES; sub++) {
        uint32_t r[4];
        cpu_leaf(id, leaf, sub, r);
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
static void memory_caches_legacy(const struct cpu_info *id, uint32_t max_ext,
                                 struct memory_caches *c)
{
    uint32_t r[4];
    if (max_ext >= 0x80000005u) {
        cpu_leaf(id, 0x80000005u, 0, r);
        if (r[2] >> 24)
            c->c[c->n++] = (struct memory_cache){ 1, 'd', (uint64_t)(r[2] >> 24) << 10, r[2] & 0xFF };
        if (r[3] >> 24)
            c->c[c->n++] = (struct memory_cache){ 1, 'i', (uint64_t)(r[3] >> 24) << 10, r[3] & 0xFF };
    }
    if (max_ext >= 0x80000006u) {
        cpu_leaf(id, 0x80000006u, 0, r);
        if (r[2] >> 16)
            c->c[c->n++] = (struct memory_cache){ 2, 'u', (uint64_t)(r[2] >> 16) << 10, r[2] & 0xFF };
        if (r[3] >> 18)
            c->c[c->n++] = (struct memory_cache){ 3, 'u', (uint64_t)(r[3] >> 18) << 19, r[3] & 0xFF };
    }
}

void memory_caches_read(const struct cpu_info *id, struct memory_caches *c)
{
    uint32_t max, max_ext, r[4];

    memset(c, 0, sizeof *c);
    c->source = "none";
    max = id->max_leaf;
    max_ext = id->max_ext_leaf;
    int amd = id->is_amd;
    if (!amd && max >= MEMORY_LEAF_INTEL) {
        memory_caches_det(id, MEMORY_LEAF_INTEL, c);
        if (c->n)
            c->source = "cpuid 4";
    }
    if (!c->n && amd && max_ext >= MEMORY_LEAF_AMD) {
        cpu_leaf(id, 0x80000001u, 0, r);
        if (r[2] & MEMORY_AMD_TOPOEXT) {
            memory_caches_det(id, MEMORY_LEAF_AMD, c);
            if (c->n)
                c->source = "cpuid 0x8000001d";
        }
    }
    if (!c->n) {
        memory_caches_legacy(id, max_ext, c);
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

unsigned memory_knee_left(const struct memory_caches *c, uint64_t from, uint64_t to,
                          const struct memory_cache **left, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->n && n < max; i++)
        if (c->c[i].type != 'i' && c->c[i].size >= from && c->c[i].size < to)
            left[n++] = &c->c[i];
    /* smallest first */
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && left[j - 1]->size > left[j]->size; j--) {
            const struct memory_cache *t = left[j];
            left[j] = left[j - 1];
            left[j - 1] = t;
        }
    return n;
}

/* ---- printing ---------------------------------------------------------------------- */

void memory_print_caches(const struct memory_caches *c)
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

void memory_fits_name(const struct memory_caches *c, uint64_t size, char *buf, size_t n)
{
    const struct memory_cache *k = memory_fits(c, size);
    if (k)
        memory_cache_name(k, buf, n);
    else
        snprintf(buf, n, "%s", c->n ? "memory" : "?");
}

void memory_json_caches(struct json_writer *w, const struct memory_caches *c)
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

const struct memory_cache *memory_knee_cache(const struct memory_caches *c, uint64_t before, uint64_t size,
                                             int *past)
{
    const struct memory_cache *was = memory_fits(c, before);
    *past = was && memory_fits(c, size) != was;
    return was;
}

/* A knee's label from the detected caches (issue 23.7), not from the row
 * before: the caches whose size lies in [the size before, this size) are
 * the ones the set left ("past", every one of them); else the cache both
 * sizes fit ("within": the rise is not a cache boundary by size: the set
 * filling it, the TLB, or a level CPUID does not state); else none. */
static void memory_knee_text(const struct memory_caches *c, uint64_t from, uint64_t to, char *buf, size_t n,
                             const struct memory_cache **past, const struct memory_cache **within)
{
    const struct memory_cache *left[MEMORY_MAX_CACHES];
    unsigned k = memory_knee_left(c, from, to, left, MEMORY_MAX_CACHES);
    char a[24], name[8];
    size_t m = 0;
    int crossed;
    *past = k ? left[k - 1] : NULL;
    *within = NULL;
    for (unsigned i = 0; i < k && m < n; i++) {
        memory_cache_name(left[i], name, sizeof name);
        memory_size_text(left[i]->size, a, sizeof a);
        m += (size_t)snprintf(buf + m, n - m, "%s%s of %s", i ? " and " : "past ", name, a);
    }
    if (k)
        return;
    *within = memory_knee_cache(c, from, to, &crossed);
    if (*within) {
        memory_cache_name(*within, name, sizeof name);
        memory_size_text((*within)->size, a, sizeof a);
        snprintf(buf, n, "within %s of %s (%.0f%% of it)", name, a, 100.0 * (double)to / (double)(*within)->size);
    } else
        snprintf(buf, n, "past every cache CPUID states%s", c->n ? "" : " (none stated)");
}

/* Knees: the median latency per load rises by MEMORY_KNEE_RATIO or more. */
void memory_knees(const struct memory_latency *l, unsigned n, const struct memory_caches *c,
                         struct json_writer *w, int print)
{
    int any = 0;
    if (w)
        json_arr_begin(w, "knees");
    for (unsigned i = 1; i < n; i++) {
        double a = (double)l[i - 1].ticks_median / l[i - 1].loads, b = (double)l[i].ticks_median / l[i].loads;
        if (!(a > 0) || b < MEMORY_KNEE_RATIO * a)
            continue;
        const struct memory_cache *past, *within;
        char sz[24], label[160], name[8];
        memory_size_text(l[i].size, sz, sizeof sz);
        memory_knee_text(c, l[i - 1].size, l[i].size, label, sizeof label, &past, &within);
        if (print)
            out_printf("memory: knee at %s (latency x%.2f over the size before): %s\n", sz, b / a, label);
        any = 1;
        if (w) {
            json_obj_begin(w, NULL);
            json_u64(w, "size_bytes", l[i].size);
            json_u64(w, "from_bytes", l[i - 1].size);
            json_double(w, "ratio", b / a);
            json_str(w, "label", label);
            if (past) {
                memory_cache_name(past, name, sizeof name);
                json_str(w, "past", name);
                json_u64(w, "past_bytes", past->size);
            }
            if (within) {
                memory_cache_name(within, name, sizeof name);
                json_str(w, "within", name);
                json_u64(w, "within_bytes", within->size);
            }
            json_obj_end(w);
        }
    }
    if (w)
        json_arr_end(w);
    if (!any && print)
        out_printf("memory: no knee (no size's latency is %.2f x the size before)\n", MEMORY_KNEE_RATIO);
}

