/*
 * bench/memory/memory_tlb.c - the page sizes behind the buffer and the TLB-against-
 * cache chase (see memory.h).  The walker is pure (a read function for the
 * tables), so tests/unit/test_memory.c runs it on simulated page tables.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "memory.h"
#include "memory_internal.h"
#include "platform.h"

#define MEMORY_2M (2ull << 20)
#define MEMORY_1G (1ull << 30)
/* Seed of the TLB chases (the line count is mixed in). */
#define MEMORY_TLB_SEED 0x746c62u        /* "tlb" */

/* ---- the page tables ------------------------------------------------------------------ */

uint64_t memory_pt_page_size(uint64_t cr3, int la57, uint64_t va,
                             uint64_t (*read64)(void *ctx, uint64_t pa), void *ctx)
{
    uint64_t table = cr3 & MEMORY_PTE_ADDR;
    /* levels from the top: PML5 (48), PML4 (39), PDPT (30), PD (21), PT (12) */
    for (int shift = la57 ? 48 : 39; shift >= 12; shift -= 9) {
        uint64_t e = read64(ctx, table + ((va >> shift) & 511) * 8);
        if (!(e & MEMORY_PTE_PRESENT))
            return 0;
        if (shift == 12)
            return 1ull << 12;
        if ((shift == 30 || shift == 21) && (e & MEMORY_PTE_PS))
            return 1ull << shift;
        table = e & MEMORY_PTE_ADDR;
    }
    return 0;
}

void memory_pt_census(uint64_t cr3, int la57, uint64_t va, uint64_t bytes,
                      uint64_t (*read64)(void *ctx, uint64_t pa), void *ctx, struct memory_page_census *c)
{
    uint64_t end = va + bytes;
    c->bytes_4k = c->bytes_2m = c->bytes_1g = c->bytes_unmapped = 0;
    while (va < end) {
        uint64_t ps = memory_pt_page_size(cr3, la57, va, read64, ctx);
        uint64_t unit = ps ? ps : 1ull << 12;            /* an absent page: step a 4 KiB page */
        uint64_t step = unit - (va & (unit - 1));
        if (step > end - va)
            step = end - va;
        if (ps == MEMORY_1G)
            c->bytes_1g += step;
        else if (ps == MEMORY_2M)
            c->bytes_2m += step;
        else if (ps)
            c->bytes_4k += step;
        else
            c->bytes_unmapped += step;
        va += step;
    }
}

/* The page size that maps most of the buffer (0 when nothing is known). */
static uint64_t memory_census_main(const struct memory_page_census *c)
{
    uint64_t m = c->bytes_4k, ps = c->bytes_4k ? 4096 : 0;
    if (c->bytes_2m > m)
        m = c->bytes_2m, ps = MEMORY_2M;
    if (c->bytes_1g > m)
        ps = MEMORY_1G;
    return ps;
}

void memory_pages_print(const struct memory_page_census *c, uint64_t bytes)
{
    char t[24], a[24], b[24], g[24], u[24];
    memory_size_text(bytes, t, sizeof t);
    if (!strcmp(c->source, "none")) {
        out_printf("memory: the page size behind the %s buffer is not known here%s%s\n", t, c->note[0] ? ": " : "",
                   c->note);
        return;
    }
    memory_size_text(c->bytes_4k, a, sizeof a);
    memory_size_text(c->bytes_2m, b, sizeof b);
    memory_size_text(c->bytes_1g, g, sizeof g);
    memory_size_text(c->bytes_unmapped, u, sizeof u);
    out_printf("memory: pages behind the %s buffer (%s): %s in 4 KiB pages, %s in 2 MiB, %s in 1 GiB, %s %s%s%s\n",
               t, c->source, a, b, g, u, strcmp(c->source, "/proc/self/smaps") ? "not mapped" : "not resident",
               c->note[0] ? "; " : "", c->note);
}

void memory_pages_json(struct json_writer *w, const struct memory_page_census *c)
{
    json_obj_begin(w, "pages");
    json_str(w, "source", c->source);
    json_u64(w, "bytes_4k", c->bytes_4k);
    json_u64(w, "bytes_2m", c->bytes_2m);
    json_u64(w, "bytes_1g", c->bytes_1g);
    json_u64(w, "bytes_unmapped", c->bytes_unmapped);
    json_str(w, "note", c->note);
    json_obj_end(w);
}

/* ---- the TLB chase -------------------------------------------------------------------------- */

unsigned memory_tlb_counts(int quick, uint64_t bytes, uint64_t *lines, unsigned max)
{
    unsigned n = 0;
    for (uint64_t l = MEMORY_TLB_MIN_LINES; l <= MEMORY_TLB_MAX_LINES && n < max; l *= quick ? 4 : 2)
        if (l * MEMORY_TLB_STRIDE <= bytes)
            lines[n++] = l;
    return n;
}

uint64_t memory_chain_pages(void *start, uint64_t lines, const void *base, uint64_t bytes)
{
    static uint8_t seen[(MEMORY_TLB_MAX_LINES * (uint64_t)MEMORY_TLB_STRIDE / MEMORY_TLB_PAGE + 64) / 8];
    uint64_t npages = (bytes + MEMORY_TLB_PAGE - 1) / MEMORY_TLB_PAGE, count = 0;
    void *p = start;
    if (npages > sizeof seen * 8)
        npages = sizeof seen * 8;
    memset(seen, 0, (npages + 7) / 8);
    for (uint64_t i = 0; i < lines; i++) {
        uint64_t off = (uint64_t)((const char *)p - (const char *)base), pg = off / MEMORY_TLB_PAGE;
        if ((const char *)p >= (const char *)base && pg < npages && !(seen[pg / 8] >> (pg % 8) & 1)) {
            seen[pg / 8] |= (uint8_t)(1u << (pg % 8));
            count++;
        }
        p = *(void **)p;
        if (p == start)
            break;
    }
    return count;
}

static void memory_tlb_row(void *buf, uint64_t bytes, uint64_t lines, const struct memory_plan *p,
                           struct memory_tlb_row *r)
{
    static const uint64_t stride[2] = { MEMORY_LINE, MEMORY_TLB_STRIDE };
    memset(r, 0, sizeof *r);
    r->lines = lines;
    for (int k = 0; k < 2; k++) {
        void *start = memory_chain_build_stride(buf, lines, stride[k], MEMORY_TLB_SEED ^ lines);
        r->pages[k] = memory_chain_pages(start, lines, buf, bytes);
        r->l[k].size = lines * stride[k];
        memory_chase(start, lines, p, &r->l[k]);
    }
}

static double memory_per_load(const struct memory_latency *l)
{
    return plat_tick_hz() ? l->ns_median : (double)l->ticks_median / (double)l->loads;
}

unsigned memory_tlb_sweep(void *buf, uint64_t bytes, const struct memory_plan *p,
                          const struct memory_page_census *c, struct memory_tlb_row *rows)
{
    uint64_t counts[MEMORY_TLB_MAX_ROWS], ps = memory_census_main(c);
    unsigned n = memory_tlb_counts(p->quick, bytes, counts, MEMORY_TLB_MAX_ROWS);
    const char *u = plat_tick_hz() ? "ns" : "ticks";

    out_printf("memory: TLB against cache: the same lines chased packed (64 to a 4 KiB page) and spread (one to "
               "a page, %u bytes apart: the same cache sets); spread - packed = the cost of reaching more pages "
               "(TLB misses, page walks), not of the caches%s\n", MEMORY_TLB_STRIDE,
               ps > 4096 ? "; this buffer is mapped with larger pages, so the spread lines share them" : "");
    if (!n) {
        out_printf("memory: TLB chase skipped: the buffer holds fewer than %u spread lines\n", MEMORY_TLB_MIN_LINES);
        return 0;
    }
    out_printf("  %9s %9s %9s %9s %10s %10s %10s   (%s per load, median)\n", "lines", "pk pages", "sp pages",
               "loads", "packed", "spread", "extra", u);
    for (unsigned i = 0; i < n; i++) {
        struct memory_tlb_row *r = &rows[i];
        memory_tlb_row(buf, bytes, counts[i], p, r);
        double a = memory_per_load(&r->l[0]), b = memory_per_load(&r->l[1]);
        out_printf("  %9llu %9llu %9llu %9llu %10.3f %10.3f %10.3f\n", (unsigned long long)r->lines,
                   (unsigned long long)r->pages[0], (unsigned long long)r->pages[1],
                   (unsigned long long)r->l[1].loads, a, b, b - a);
        if (r->l[0].cycle != r->lines || r->l[1].cycle != r->lines)
            out_warn("memory: a TLB chain of %llu lines is a cycle of %llu/%llu: the permutation is broken",
                     (unsigned long long)r->lines, (unsigned long long)r->l[0].cycle,
                     (unsigned long long)r->l[1].cycle);
    }
    return n;
}

static void memory_tlb_json_chase(struct json_writer *w, const char *key, const struct memory_latency *l,
                                  uint64_t pages)
{
    json_obj_begin(w, key);
    json_u64(w, "span_bytes", l->size);
    json_u64(w, "pages_4k", pages);
    memory_chase_json(w, l, 0);
    json_obj_end(w);
}

void memory_tlb_json(struct json_writer *w, const struct memory_tlb_row *rows, unsigned n)
{
    json_obj_begin(w, "tlb");
    json_u64(w, "page_bytes", MEMORY_TLB_PAGE);
    json_u64(w, "spread_stride_bytes", MEMORY_TLB_STRIDE);
    json_arr_begin(w, "rows");
    for (unsigned i = 0; i < n; i++) {
        json_obj_begin(w, NULL);
        json_u64(w, "lines", rows[i].lines);
        memory_tlb_json_chase(w, "packed", &rows[i].l[0], rows[i].pages[0]);
        memory_tlb_json_chase(w, "spread", &rows[i].l[1], rows[i].pages[1]);
        double d = rows[i].l[1].ns_median - rows[i].l[0].ns_median;
        json_double(w, "extra_ns", plat_tick_hz() ? d : NAN);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}
