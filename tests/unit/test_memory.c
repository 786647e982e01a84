/*
 * tests/unit/test_memory.c - the memory section's plan and chase
 * (bench/memory/memory_section.c, memory.c): the size lists, the top size and its bounds, the random
 * cycle (one cycle through every line, from any size), the caches read from
 * simulated CPUID leaves (Intel leaf 4, AMD 8000_001Dh, the legacy AMD
 * leaves), the knee labels, the vector widths from simulated CPUID and
 * XCR0, the page-table walker on simulated tables, the TLB chase's chains,
 * and one small sweep's figures on this machine (shape only: the host's
 * timings are not exact).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "memory.h"

/* bench/memory/memory.asm */
void bm_mem_write_sse2(uint64_t, void *);
void bm_mem_write_nt_sse2(uint64_t, void *);

#define KiB 1024ull
#define MiB (1024ull * 1024)

static void test_sizes(void)
{
    uint64_t s[MEMORY_MAX_SIZES];
    unsigned n = memory_sizes(1, 16 * MiB, s, MEMORY_MAX_SIZES);
    const uint64_t quick[] = { 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, 16 * MiB };
    CHECK_EQ_U64(n, 7, "quick to 16 MiB: 7 sizes");
    CHECK(n == 7 && !memcmp(s, quick, sizeof quick), "quick: 4 KiB x4 up to 16 MiB");
    n = memory_sizes(1, 8 * MiB, s, MEMORY_MAX_SIZES);
    CHECK(n == 6 && s[5] == 4 * MiB, "quick to 8 MiB: ends at 4 MiB");
    n = memory_sizes(0, 256 * MiB, s, MEMORY_MAX_SIZES);
    CHECK_EQ_U64(n, 33, "full to 256 MiB: 2^12..2^28 and 1.5 x 2^12..2^27");
    CHECK(s[0] == 4 * KiB && s[1] == 6 * KiB && s[2] == 8 * KiB && s[n - 1] == 256 * MiB && s[n - 2] == 192 * MiB,
          "full: 4, 6, 8 KiB ... 192, 256 MiB");
    int up = 1;
    for (unsigned i = 1; i < n; i++)
        up &= s[i] > s[i - 1] && s[i] % 2048 == 0;
    CHECK(up, "full: strictly increasing, each a multiple of 2 KiB");
    CHECK_EQ_U64(memory_sizes(0, 4 * KiB - 1, s, MEMORY_MAX_SIZES), 0, "below 4 KiB: no size");
}

static void test_top(void)
{
    const char *why;
    uint64_t want;
    CHECK_EQ_U64(memory_top(0, 32 * MiB, 0, &why, &want), 256 * MiB, "full, 32 MiB LLC: 256 MiB");
    CHECK_EQ_U64(memory_top(0, 96 * MiB, 0, &why, &want), 512 * MiB, "full, 96 MiB LLC: 4x rounded up = 512 MiB");
    CHECK(why[0] == 0, "full, free unknown: not bounded");
    CHECK_EQ_U64(memory_top(0, 96 * MiB, 600 * MiB, &why, &want), 256 * MiB, "full, 600 MiB free: 256 MiB");
    CHECK(!strcmp(why, "free memory") && want == 512 * MiB, "bounded by free memory, 512 MiB wanted");
    /* Issue 23.7: the quick profile reaches past the last-level cache: at
     * least 64 MiB and 4 x the largest cache. */
    CHECK_EQ_U64(memory_top(1, 8 * MiB, 0, &why, &want), 64 * MiB, "quick, 8 MiB LLC: 64 MiB");
    CHECK_EQ_U64(memory_top(1, 32 * MiB, 0, &why, &want), 128 * MiB, "quick, 32 MiB LLC: 4x = 128 MiB");
    CHECK_EQ_U64(memory_top(1, 96 * MiB, 0, &why, &want), 512 * MiB, "quick, 96 MiB LLC: 4x rounded up = 512 MiB");
    CHECK_EQ_U64(memory_top(1, 0, 0, &why, &want), 64 * MiB, "quick, no cache stated: 64 MiB");
    CHECK_EQ_U64(memory_top(1, 0, 20 * MiB, &why, &want), 8 * MiB, "quick, 20 MiB free: 8 MiB");
    CHECK(!strcmp(why, "free memory") && want == 64 * MiB, "quick, 20 MiB free: bounded, 64 MiB wanted");
    CHECK_EQ_U64(memory_top(1, 0, 6 * KiB, &why, &want), 0, "6 KiB free: nothing to run");
}

static void test_chain(void)
{
    static const uint64_t lines[] = { 1, 2, 3, 64, 96, 1000, 4096, 65536 };
    void *buf = aligned_alloc(4096, 65536 * MEMORY_LINE);
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        char what[96];
        void *start = memory_chain_build(buf, lines[k], 12345 + k);
        snprintf(what, sizeof what, "%llu lines: one cycle through every line", (unsigned long long)lines[k]);
        CHECK_EQ_U64(memory_chain_length(start, lines[k]), lines[k], what);
        /* every pointer lands on a line start inside the set, each line once */
        unsigned char *seen = calloc(lines[k], 1);
        int ok = 1;
        for (uint64_t i = 0; i < lines[k]; i++) {
            uintptr_t p = *(uintptr_t *)((char *)buf + i * MEMORY_LINE) - (uintptr_t)buf;
            ok &= p % MEMORY_LINE == 0 && p / MEMORY_LINE < lines[k] && !seen[p / MEMORY_LINE]++;
        }
        snprintf(what, sizeof what, "%llu lines: a permutation of the lines", (unsigned long long)lines[k]);
        CHECK(ok, what);
        free(seen);
    }
    /* Not the identity order: the next line is not the neighbour (beyond 2). */
    void *start = memory_chain_build(buf, 4096, 7);
    uint64_t neighbours = 0;
    for (uint64_t i = 0; i < 4096; i++)
        neighbours += *(uintptr_t *)((char *)buf + i * MEMORY_LINE) == (uintptr_t)buf + (i + 1) * MEMORY_LINE;
    CHECK(neighbours < 20, "4096 lines: few sequential links (a random order)");
    /* A broken chain is caught. */
    *(uintptr_t *)start = (uintptr_t)start;
    CHECK_EQ_U64(memory_chain_length(start, 4096), 1, "a line pointing at itself: a cycle of 1");
    free(buf);
}

/* ---- CPUID ------------------------------------------------------------------------------ */
struct leaf { uint32_t leaf, sub, r[4]; };
static const struct leaf *leaves;
static void sim_cpuid(uint32_t leaf, uint32_t sub, uint32_t out[4])
{
    for (const struct leaf *l = leaves; l->leaf || l->r[0]; l++)
        if (l->leaf == leaf && l->sub == sub) {
            memcpy(out, l->r, 16);
            return;
        }
    memset(out, 0, 16);
}

/* The simulated CPU's identity record: one pass through sim_cpuid, as
 * cpu_identify reads a real one (kernel/cpu.h). */
static const struct cpu_info *sim_id(void)
{
    static struct cpu_info id;
    cpu_identify_from(&id, sim_cpuid);
    return &id;
}
#define VENDOR(a, b, c) { 0, 0, { 0x16, a, c, b } }

static void test_caches(void)
{
    struct memory_caches c;
    /* Intel leaf 4: L1d 48 KiB 12-way 64 sets; L1i 32 KiB; L2 1.25 MiB
     * 10-way 2048 sets; L3 30 MiB 12-way 40960 sets shared by 24. */
    static const struct leaf intel[] = {
        VENDOR(0x756E6547, 0x49656E69, 0x6C65746E),   /* "GenuineIntel" */
        { 0x80000000u, 0, { 0x80000008u } },
        { 4, 0, { 0x21 | (1 << 14), (11u << 22) | 63, 63, 0 } },
        { 4, 1, { 0x22 | (1 << 14), (7u << 22) | 63, 63, 0 } },
        { 4, 2, { 0x43 | (1 << 14), (9u << 22) | 63, 2047, 0 } },
        { 4, 3, { 0x63 | (23u << 14), (11u << 22) | 63, 40959, 0 } },
        { 0, 0, { 0 } },
    };
    leaves = intel;
    memory_caches_read(sim_id(), &c);
    CHECK_STR(c.source, "cpuid 4", "intel: leaf 4");
    CHECK_EQ_U64(c.n, 4, "intel: four caches");
    CHECK(c.c[0].level == 1 && c.c[0].type == 'd' && c.c[0].size == 48 * KiB, "intel: L1d 48 KiB");
    CHECK(c.c[1].type == 'i' && c.c[1].size == 32 * KiB, "intel: L1i 32 KiB");
    CHECK(c.c[2].level == 2 && c.c[2].size == 1280 * KiB && c.c[2].ways == 10, "intel: L2 1.25 MiB 10-way");
    CHECK(c.c[3].size == 30 * MiB && c.c[3].shared_by == 24, "intel: L3 30 MiB shared by 24");
    CHECK_EQ_U64(memory_caches_largest(&c), 30 * MiB, "intel: largest 30 MiB");

    /* AMD with TopologyExtensions: 8000_001Dh, L3 32 MiB 16-way. */
    static const struct leaf amd[] = {
        VENDOR(0x68747541, 0x69746E65, 0x444D4163),   /* "AuthenticAMD" */
        { 0x80000000u, 0, { 0x80000021u } },
        { 0x80000001u, 0, { 0, 0, 1u << 22, 0 } },
        { 0x8000001Du, 0, { 0x21, (7u << 22) | 63, 63, 0 } },
        { 0x8000001Du, 1, { 0x63, (15u << 22) | 63, 32767, 0 } },
        { 4, 0, { 0x21, 0, 0, 0 } },                  /* must be ignored on AMD */
        { 0, 0, { 0 } },
    };
    leaves = amd;
    memory_caches_read(sim_id(), &c);
    CHECK_STR(c.source, "cpuid 0x8000001d", "amd topoext: leaf 8000_001Dh");
    CHECK(c.n == 2 && c.c[0].size == 32 * KiB && c.c[1].size == 32 * MiB, "amd topoext: L1d 32 KiB, L3 32 MiB");

    /* AMD without it: 8000_0005h/6h (L1d 64 KiB, L2 512 KiB, L3 8 MiB). */
    static const struct leaf legacy[] = {
        VENDOR(0x68747541, 0x69746E65, 0x444D4163),
        { 0x80000000u, 0, { 0x80000008u } },
        { 0x80000005u, 0, { 0, 0, (64u << 24) | 64, (64u << 24) | 64 } },
        { 0x80000006u, 0, { 0, 0, (512u << 16) | 64, (16u << 18) | 64 } },
        { 0, 0, { 0 } },
    };
    leaves = legacy;
    memory_caches_read(sim_id(), &c);
    CHECK_STR(c.source, "cpuid 0x80000005/6", "amd legacy leaves");
    CHECK(c.n == 4 && c.c[0].size == 64 * KiB && c.c[2].size == 512 * KiB && c.c[3].size == 8 * MiB,
          "amd legacy: L1d 64 KiB, L2 512 KiB, L3 8 MiB");

    static const struct leaf none[] = { VENDOR(0x756E6547, 0x49656E69, 0x6C65746E), { 0, 0, { 0 } } };
    leaves = none;
    memory_caches_read(sim_id(), &c);
    CHECK(c.n == 0 && !strcmp(c.source, "none"), "no cache leaves: none");
}

/* Knee labels follow the detected sizes, not the row before: with L1d
 * 32 KiB, L2 1 MiB, L3 32 MiB, 256 KiB -> 1 MiB stays within L2 (it was
 * once called "past L1d"). */
static void test_knee_labels(void)
{
    struct memory_caches c = { 4, { { 1, 'd', 32 * KiB }, { 1, 'i', 32 * KiB }, { 2, 'u', 1 * MiB },
                                    { 3, 'u', 32 * MiB } }, "test" };
    const struct memory_cache *k;
    int past = -1;
    k = memory_knee_cache(&c, 16 * KiB, 64 * KiB, &past);
    CHECK(k == &c.c[0] && past == 1, "knee 16 KiB -> 64 KiB: past L1d");
    k = memory_knee_cache(&c, 32 * KiB, 48 * KiB, &past);
    CHECK(k == &c.c[0] && past == 1, "knee 32 KiB -> 48 KiB: past L1d (32 KiB fits it exactly)");
    k = memory_knee_cache(&c, 256 * KiB, 1 * MiB, &past);
    CHECK(k == &c.c[2] && past == 0, "knee 256 KiB -> 1 MiB: within L2, not past L1d");
    k = memory_knee_cache(&c, 1 * MiB, 4 * MiB, &past);
    CHECK(k == &c.c[2] && past == 1, "knee 1 MiB -> 4 MiB: past L2");
    k = memory_knee_cache(&c, 16 * MiB, 64 * MiB, &past);
    CHECK(k == &c.c[3] && past == 1, "knee 16 MiB -> 64 MiB: past L3 (no cache holds 64 MiB)");
    k = memory_knee_cache(&c, 64 * MiB, 128 * MiB, &past);
    CHECK(k == NULL && past == 0, "knee beyond every cache: no label");
}

/* Issue 23.7: a knee is labelled with the level the size actually left
 * (a cache whose size lies in [the size before, this size)), not the last
 * cache below the size. */
static void test_knees(void)
{
    struct memory_caches c;
    const struct memory_cache *left[MEMORY_MAX_CACHES];
    static const struct leaf legacy[] = {   /* qemu64: L1d 64 KiB, L2 512 KiB, L3 16 MiB */
        VENDOR(0x68747541, 0x69746E65, 0x444D4163),
        { 0x80000000u, 0, { 0x80000008u } },
        { 0x80000005u, 0, { 0, 0, (64u << 24) | 64, (64u << 24) | 64 } },
        { 0x80000006u, 0, { 0, 0, (512u << 16) | 64, (32u << 18) | 64 } },
        { 0, 0, { 0 } },
    };
    leaves = legacy;
    memory_caches_read(sim_id(), &c);
    CHECK_EQ_U64(memory_knee_left(&c, 1 * MiB, 4 * MiB, left, MEMORY_MAX_CACHES), 0,
                 "knee 1 -> 4 MiB: no level left (L2 was left before 1 MiB, L3 is 16 MiB)");
    CHECK(memory_knee_left(&c, 256 * KiB, 1 * MiB, left, MEMORY_MAX_CACHES) == 1 && left[0]->level == 2,
          "knee 256 KiB -> 1 MiB: left L2");
    CHECK(memory_knee_left(&c, 16 * MiB, 64 * MiB, left, MEMORY_MAX_CACHES) == 1 && left[0]->level == 3,
          "knee 16 -> 64 MiB: left L3 (16 MiB: a set of 16 MiB still fits it)");
    CHECK_EQ_U64(memory_knee_left(&c, 16 * KiB, 64 * KiB, left, MEMORY_MAX_CACHES), 0,
                 "knee 16 -> 64 KiB: L1d of 64 KiB not left (the set fills it)");
    CHECK(memory_knee_left(&c, 32 * KiB, 64 * MiB, left, MEMORY_MAX_CACHES) == 3 && left[0]->level == 1 &&
          left[2]->level == 3, "a wide step: L1d, L2, L3 left, smallest first");
}

/* ---- vector widths (issue 23.11) ---------------------------------------------------------- */
static void test_vectors(void)
{
    struct memory_vec v;
    /* qemu64: SSE2, no XSAVE, no AVX */
    static const struct leaf q64[] = {
        VENDOR(0x68747541, 0x69746E65, 0x444D4163),
        { 1, 0, { 0, 0, 0, 1u << 26 } },
        { 0, 0, { 0 } },
    };
    leaves = q64;
    CHECK_EQ_U64(memory_xcr0_want(sim_id()), 0, "no XSAVE: no XCR0 to set");
    memory_vec_plan(sim_id(), 0, 0, &v);
    CHECK_EQ_U64(v.usable, 1u << MEMORY_VEC_SSE2, "qemu64: SSE2 only");
    CHECK(strstr(v.why[MEMORY_VEC_AVX], "lacks AVX") && strstr(v.why[MEMORY_VEC_AVX512], "lacks AVX-512F"),
          "qemu64: AVX and AVX-512 named as absent from the CPU");
    /* AVX-512 CPU (XCR0 supports x87|SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM|PKRU) */
    static const struct leaf skx[] = {
        { 0, 0, { 0x16, 0x756E6547, 0x6C65746E, 0x49656E69 } },
        { 1, 0, { 0, 0, (1u << 26) | (1u << 27) | (1u << 28), 1u << 26 } },
        { 7, 0, { 0, 1u << 16, 0, 0 } },
        { 0x0D, 0, { 0x2E7, 0, 0, 0 } },
        { 0, 0, { 0 } },
    };
    leaves = skx;
    CHECK_EQ_U64(memory_xcr0_want(sim_id()), 0xE7, "AVX-512 CPU: ask x87, SSE, AVX and the three AVX-512 parts");
    memory_vec_plan(sim_id(), 0, 0, &v);
    CHECK_EQ_U64(v.usable, 1u << MEMORY_VEC_SSE2, "OSXSAVE off (firmware did not enable it): SSE2 only");
    CHECK(strstr(v.why[MEMORY_VEC_AVX], "CR4.OSXSAVE is off") != NULL, "OSXSAVE off: says why AVX is skipped");
    memory_vec_plan(sim_id(), 1, 0x7, &v);
    CHECK_EQ_U64(v.usable, 3u, "XCR0 7: SSE2 and AVX, not AVX-512");
    CHECK(strstr(v.why[MEMORY_VEC_AVX512], "XCR0 0x7") != NULL, "XCR0 7: AVX-512's state named");
    memory_vec_plan(sim_id(), 1, 0xE7, &v);
    CHECK_EQ_U64(v.usable, 7u, "XCR0 e7: all three widths");
    /* AVX without full AVX-512 state support: the AVX-512 bits go together */
    static const struct leaf odd[] = {
        { 0, 0, { 0x16, 0x756E6547, 0x6C65746E, 0x49656E69 } },
        { 1, 0, { 0, 0, (1u << 26) | (1u << 28), 1u << 26 } },
        { 0x0D, 0, { 0x67, 0, 0, 0 } },
        { 0, 0, { 0 } },
    };
    leaves = odd;
    CHECK_EQ_U64(memory_xcr0_want(sim_id()), 0x7, "two of the three AVX-512 parts: none asked (XSETBV would #GP)");
}

/* ---- page tables (issue 23.7) -------------------------------------------------------------- */
/* A simulated physical memory of 16 tables of 512 entries at 0x1000 * (i + 1). */
static uint64_t sim_mem[16][512];
static uint64_t sim_read64(void *ctx, uint64_t pa)
{
    (void)ctx;
    uint64_t t = pa / 4096 - 1, i = (pa % 4096) / 8;
    return t < 16 ? sim_mem[t][i] : 0;
}
#define TBL(t) (0x1000ull * ((t) + 1))

static void test_page_tables(void)
{
    struct memory_page_census c;
    memset(sim_mem, 0, sizeof sim_mem);
    /* PML4 (table 0)[0] -> PDPT (1); PDPT[0] 1 GiB page; PDPT[1] -> PD (2);
     * PD[0] 2 MiB page; PD[1] -> PT (3) with 4 KiB pages 0..9 present. */
    sim_mem[0][0] = TBL(1) | 3;
    sim_mem[1][0] = 0x0 | MEMORY_PTE_PS | 3;
    sim_mem[1][1] = TBL(2) | 3;
    sim_mem[2][0] = 0x40000000ull | MEMORY_PTE_PS | 3;
    sim_mem[2][1] = TBL(3) | 3;
    for (int i = 0; i < 10; i++)
        sim_mem[3][i] = (0x40200000ull + i * 4096ull) | 3;
    uint64_t cr3 = TBL(0);
    CHECK_EQ_U64(memory_pt_page_size(cr3, 0, 0x12345678, sim_read64, NULL), 1ull << 30, "walk: 1 GiB page");
    CHECK_EQ_U64(memory_pt_page_size(cr3, 0, 0x40001000, sim_read64, NULL), 2ull << 20, "walk: 2 MiB page");
    CHECK_EQ_U64(memory_pt_page_size(cr3, 0, 0x40203000, sim_read64, NULL), 4096, "walk: 4 KiB page");
    CHECK_EQ_U64(memory_pt_page_size(cr3, 0, 0x4020A000, sim_read64, NULL), 0, "walk: PTE not present");
    CHECK_EQ_U64(memory_pt_page_size(cr3, 0, 0x8000000000ull, sim_read64, NULL), 0, "walk: PML4E not present");
    /* A buffer from 1 MiB below the 2 MiB page to 12 KiB into the 4 KiB pages,
     * then 8 KiB more (pages 10, 11 absent). */
    memory_pt_census(cr3, 0, 0x3FF00000ull, 0x100000 + 0x200000 + 0xC000, sim_read64, NULL, &c);
    CHECK_EQ_U64(c.bytes_1g, 0x100000, "census: the last 1 MiB of the 1 GiB page");
    CHECK_EQ_U64(c.bytes_2m, 0x200000, "census: one whole 2 MiB page");
    CHECK_EQ_U64(c.bytes_4k, 0xA000, "census: ten 4 KiB pages");
    CHECK_EQ_U64(c.bytes_unmapped, 0x2000, "census: two absent 4 KiB pages");
    /* five levels: PML5 (table 4)[0] -> the same PML4 */
    sim_mem[4][0] = TBL(0) | 3;
    CHECK_EQ_U64(memory_pt_page_size(TBL(4), 1, 0x40001000, sim_read64, NULL), 2ull << 20, "LA57 walk: 2 MiB page");
}

/* ---- the TLB chase's chains (issue 23.7) ----------------------------------------------------- */
static void test_tlb_chains(void)
{
    uint64_t counts[MEMORY_TLB_MAX_ROWS];
    unsigned n = memory_tlb_counts(1, 64 * MiB, counts, MEMORY_TLB_MAX_ROWS);
    CHECK(n == 5 && counts[0] == 16 && counts[4] == 4096, "quick, 64 MiB: 16, 64, 256, 1024, 4096 lines");
    n = memory_tlb_counts(0, 4 * MiB, counts, MEMORY_TLB_MAX_ROWS);
    CHECK(n == 6 && counts[5] == 512, "full, 4 MiB: 16 to 512 (1024 x 4160 bytes do not fit)");
    size_t bytes = 1024 * MEMORY_TLB_STRIDE;
    char *buf = aligned_alloc(4096, bytes);
    void *start = memory_chain_build_stride(buf, 1024, MEMORY_TLB_STRIDE, 99);
    CHECK_EQ_U64(memory_chain_length(start, 1024), 1024, "spread: one cycle through 1024 lines");
    CHECK_EQ_U64(memory_chain_pages(start, 1024, buf, bytes), 1024, "spread: one 4 KiB page per line");
    start = memory_chain_build_stride(buf, 1024, MEMORY_LINE, 99);
    CHECK_EQ_U64(memory_chain_pages(start, 1024, buf, bytes), 16, "packed: 1024 lines in 16 pages");
    /* the spread lines fall in the sets the packed ones do: line i at
     * i * 4160 is cache line 65 i, odd, so over any 2^k consecutive lines
     * each of 2^k sets once */
    int even = 1;
    for (unsigned sets = 64; sets <= 1024; sets *= 2) {
        unsigned char seen[1024] = { 0 };
        for (unsigned i = 0; i < sets; i++)
            seen[(i * (MEMORY_TLB_STRIDE / MEMORY_LINE)) % sets]++;
        for (unsigned i = 0; i < sets; i++)
            even &= seen[i] == 1;
    }
    CHECK(even, "spread lines: one per set for 64..1024 sets, as packed lines");
    free(buf);
}

/* A small sweep here: the counts are exact, the times only plausible. */
static void test_measure(void)
{
    struct memory_plan p;
    struct memory_latency l;
    struct memory_bw b;
    struct memory_vec v;
    void *buf = aligned_alloc(4096, 64 * KiB);
    memory_plan_make(cpu_identity(), 1, 0, &p);
    p.samples = 3;
    p.bw_samples = 3;
    memory_measure_latency(buf, 64 * KiB, &p, &l);
    CHECK_EQ_U64(l.lines, 1024, "64 KiB: 1024 lines");
    CHECK_EQ_U64(l.cycle, 1024, "64 KiB: the walk is one cycle of 1024");
    CHECK_EQ_U64(l.loads, MEMORY_QUICK_LOADS, "64 KiB: the quick profile's loads");
    CHECK(l.ticks_min > 0 && l.ticks_min <= l.ticks_median, "latency: 0 < min <= median");
    memset(&v, 0, sizeof v);
    v.usable = 1u << MEMORY_VEC_SSE2;           /* every x86-64 */
    memory_measure_bw(buf, 64 * KiB, &p, &v, &b);
    const struct memory_bw_fig *f = b.f[MEMORY_VEC_SSE2];
    CHECK_EQ_U64(f[MEMORY_BW_READ].bytes, 16 * 64 * KiB, "read: 16 passes over 64 KiB for 1 MiB");
    CHECK_EQ_U64(f[MEMORY_BW_COPY].bytes, 32 * 32 * KiB, "copy: 32 passes of 32 KiB");
    /* triad: thirds of 64 KiB rounded down to 256 bytes (21760), 3 x per pass */
    CHECK_EQ_U64(f[MEMORY_BW_TRIAD].bytes, 17 * 3 * 21760, "triad: 17 passes of 3 x 21760 bytes");
    CHECK(f[MEMORY_BW_READ].ticks_min > 0 && f[MEMORY_BW_COPY].ticks_min <= f[MEMORY_BW_COPY].ticks_median,
          "bandwidth: 0 < min <= median");
    CHECK(b.ran == 1u && b.peak[MEMORY_BW_READ] == MEMORY_VEC_SSE2, "one width: it is the peak");
    /* Issue 23.7: the write kernels store a non-zero pattern (the pass
     * number, counting down, as a double in every lane; pass 1 last) */
    struct { void *base; uint64_t bytes; void *dst, *src2; } arg = { buf, 64 * KiB, NULL, NULL };
    const double *d = buf;
    memset(buf, 0, 64 * KiB);
    bm_mem_write_sse2(5, &arg);
    CHECK(d[0] == 1.0 && d[64 * KiB / 8 - 1] == 1.0, "write sse2: the set holds the last pass's 1.0, not zeros");
    memset(buf, 0, 64 * KiB);
    bm_mem_write_nt_sse2(2, &arg);
    CHECK(d[0] == 1.0 && d[64 * KiB / 8 - 1] == 1.0, "write_nt sse2: the same pattern through non-temporal stores");
    free(buf);
}

int main(void)
{
    test_sizes();
    test_top();
    test_chain();
    test_caches();
    test_knee_labels();
    test_knees();
    test_vectors();
    test_page_tables();
    test_tlb_chains();
    test_measure();
    return check_done();
}
