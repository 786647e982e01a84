/*
 * bench/memory/memory.h - the memory hierarchy: load latency by working-set size
 * (dependent pointer chasing) and bandwidth (read, write, copy), beside the
 * cache sizes the CPU states.  Portable: the image and the hosted program
 * (`baremark memory`) run the same code; only the allocator differs.
 *
 * ---- latency --------------------------------------------------------------------
 * A working set of S bytes is S/64 lines of 64 bytes; each line holds a
 * pointer to the next in a random cyclic permutation (Sattolo's algorithm:
 * one cycle through every line, so no line is visited twice before all are,
 * and the hardware prefetchers cannot guess the next address).  The cycle
 * is walked once untimed (which also counts its length: it must equal the
 * number of lines), then `samples` timings of `loads` dependent loads each,
 * interrupts masked for each, timed with the lfence+rdtsc method.  ns/load
 * = ticks / loads / Hz; min and median over the samples.  The timing
 * includes the bracket and the loop (MEMORY_CHASE_* instructions), so under
 * QEMU -icount every figure is an exact instruction count.
 *
 * ---- bandwidth ------------------------------------------------------------------
 * bench/memory/memory_bw.c.  Five kernels at each vector width the CPU and the
 * platform allow (sse2 16-byte xmm, avx 32-byte ymm, avx512 64-byte zmm;
 * CPUID for the instructions, XCR0 for the register state; the image
 * enables the AVX state itself where the firmware did not and restores it
 * after): read; write of a non-zero pattern that changes every pass;
 * write_nt, the same with non-temporal stores; copy of the first half to
 * the second (bytes copied = S/2 per pass); STREAM's triad a = b + q*c over
 * three arrays of S/3 (bytes = 3 x the array, STREAM's count, which leaves
 * out the read for ownership of a).  Passes repeat until a timing moves at
 * least `bw_bytes`; bytes/s best (from the minimum time) and median; per
 * kernel the peak is the width with the highest best.
 *
 * ---- sizes ---------------------------------------------------------------------
 * From 4 KiB: quick profile every 4x up to max(64 MiB, 4 x the largest
 * cache), full profile two sizes per octave (2^k and 1.5 x 2^k) up to
 * max(256 MiB, 4 x the largest cache), both rounded up to a power of two,
 * so the sweep ends past the last-level cache.  Both are bounded by half
 * of the free memory (the rest stays for the firmware and the run); one
 * buffer of the largest size is allocated with the firmware's page
 * allocator (mmap on Linux) and every size uses its beginning.
 */
#ifndef BAREMARK_MEMORY_H
#define BAREMARK_MEMORY_H

#include <stddef.h>
#include <stdint.h>

struct cpu_info;

struct json_writer;
struct section_ctx;

#define MEMORY_LINE        64u          /* bytes per chased element */
#define MEMORY_MIN_SIZE    4096u
#define MEMORY_MAX_SIZES   64
#define MEMORY_QUICK_MIN_TOP (64ull << 20)   /* issue 23.7: past the LLC, >= 64 MiB */
#define MEMORY_FULL_MIN_TOP (256ull << 20)
#define MEMORY_CHASE_UNROLL 16          /* loads per loop iteration */
/* Instructions of bm_mem_chase (bench/memory/memory.asm): fixed + per iteration. */
#define MEMORY_CHASE_FIXED  5           /* mov, test, jz, mov, ret */
#define MEMORY_CHASE_PER_ITER (MEMORY_CHASE_UNROLL + 2)   /* 16 loads, dec, jnz */

/* Where the memory comes from: the port's pages (port/platform.h:
 * plat_pages_alloc, plat_free_bytes; boot/memory_pages.c in the image:
 * AllocatePages and the free conventional memory in the memory map;
 * tools/host/platform/memory_host.c: mmap and MemAvailable). */

/* ---- caches from CPUID ------------------------------------------------------------------- */
#define MEMORY_MAX_CACHES 8
struct memory_cache {
    unsigned level;              /* 1, 2, 3 */
    char type;                   /* 'd' data, 'i' instruction, 'u' unified */
    uint64_t size;               /* bytes */
    unsigned line, ways, sets, partitions;
    unsigned shared_by;          /* logical processors sharing it (0 unknown) */
};
struct memory_caches {
    unsigned n;
    struct memory_cache c[MEMORY_MAX_CACHES];
    const char *source;          /* "cpuid 4", "cpuid 0x8000001d", "cpuid 0x80000005/6", "none" */
};
/* Read the caches (Intel leaf 4; AMD 0x8000001D with TopologyExtensions,
 * else 0x80000005/6), from the CPU's identity record (kernel/cpu.h). */
void memory_caches_read(const struct cpu_info *id, struct memory_caches *c);
/* Largest data or unified cache (0 when none). */
uint64_t memory_caches_largest(const struct memory_caches *c);
/* "L1d" "L2" ... into buf */
void memory_cache_name(const struct memory_cache *c, char *buf, size_t n);
/* A latency knee from `before` bytes to `size` bytes, labelled from the
 * detected caches: the cache that held `before`, *past = 1 when it does not
 * hold `size` (the knee crossed it), 0 when both fit it ("within").  NULL
 * when `before` fit no cache. */
const struct memory_cache *memory_knee_cache(const struct memory_caches *c, uint64_t before, uint64_t size,
                                             int *past);

/* ---- the plan ------------------------------------------------------------------------------ */
struct memory_plan {
    const struct cpu_info *cpu;  /* the CPU's identity (the run environment's): caches, widths */
    const char *vm_hidden;       /* the run environment's hidden hypervisor, or NULL */
    int quick;
    uint32_t samples, bw_samples;
    uint64_t min_loads;          /* loads per latency timing at least */
    uint64_t bw_bytes;           /* bytes per bandwidth timing at least */
    uint64_t free_bytes;         /* free memory seen (0 unknown) */
    uint64_t want_top;           /* the largest size the profile asks for */
    uint64_t top;                /* the largest size run */
    const char *limited_by;      /* "", "free memory", "allocation failed" */
    int high;                    /* MEMORYHIGH: the buffer at or above 4 GiB, where there is room */
    unsigned nsizes;
    uint64_t sizes[MEMORY_MAX_SIZES];
    struct memory_caches caches;
};

#define MEMORY_QUICK_SAMPLES    5
#define MEMORY_QUICK_BW_SAMPLES 3
#define MEMORY_QUICK_LOADS      (32u << 10)
#define MEMORY_QUICK_BW_BYTES   (1ull << 20)
#define MEMORY_FULL_SAMPLES     9
#define MEMORY_FULL_BW_SAMPLES  5
#define MEMORY_FULL_LOADS       (1u << 20)
#define MEMORY_FULL_BW_BYTES    (64ull << 20)

/* The sizes from MEMORY_MIN_SIZE to top (quick: x4 steps; full: 2^k and
 * 1.5 x 2^k); returns their number. */
unsigned memory_sizes(int quick, uint64_t top, uint64_t *sizes, unsigned max);
/* The profile's top: max(64 MiB quick, 256 MiB full; 4 x largest cache
 * rounded up to a power of two); then bounded by half of free (when known)
 * down to a power of two. */
uint64_t memory_top(int quick, uint64_t largest_cache, uint64_t free_bytes, const char **limited_by,
                    uint64_t *want);
/* Fill the plan for the CPU `cpu` (its identity record; the caches come
 * from it) and a run whose profile is quick or not. */
void memory_plan_make(const struct cpu_info *cpu, int quick, uint64_t free_bytes, struct memory_plan *p);

/* ---- the chase ------------------------------------------------------------------------------- */
/* Link `lines` lines at base (MEMORY_LINE apart) into one random cycle,
 * from a fixed seed; returns the first line. */
void *memory_chain_build(void *base, uint64_t lines, uint64_t seed);
/* The same with lines `stride` bytes apart (a multiple of 8). */
void *memory_chain_build_stride(void *base, uint64_t lines, uint64_t stride, uint64_t seed);
/* Walk the cycle from `start` until it returns (at most max_steps):
 * the cycle's length, or 0 when it did not return. */
uint64_t memory_chain_length(void *start, uint64_t max_steps);

/* ---- results --------------------------------------------------------------------------------- */
struct memory_latency {
    uint64_t size, lines, cycle, loads;
    uint64_t ticks_min, ticks_median;
    double ns_min, ns_median;    /* per load; NaN without a clock */
};
/* Vector widths (bench/memory/memory_bw.c) and the bandwidth kernels. */
enum { MEMORY_VEC_SSE2, MEMORY_VEC_AVX, MEMORY_VEC_AVX512, MEMORY_VECS };
enum { MEMORY_BW_READ, MEMORY_BW_WRITE, MEMORY_BW_WRITE_NT, MEMORY_BW_COPY, MEMORY_BW_TRIAD, MEMORY_BW_OPS };
/* XCR0 state components (Intel SDM vol. 1, 13.1): x87, SSE, AVX, and the
 * three of AVX-512 (opmask, ZMM_Hi256, Hi16_ZMM), which go together. */
#define MEMORY_XCR0_X87     (1ull << 0)
#define MEMORY_XCR0_SSE     (1ull << 1)
#define MEMORY_XCR0_AVX     (1ull << 2)
#define MEMORY_XCR0_AVX512  (7ull << 5)

/* The AVX state as found and as used (filled by the port: memory_xstate_enable, port/platform.h). */
struct memory_xstate {
    int xsave;                   /* CPUID.1:ECX.XSAVE */
    int osxsave_before;          /* CR4.OSXSAVE as found (CPUID.1:ECX.OSXSAVE) */
    uint64_t xcr0_before;        /* XCR0 as found (0 without OSXSAVE) */
    int osxsave;                 /* in force for the kernels */
    uint64_t xcr0;
    const char *enabled_by;      /* "firmware", "baremark", "operating system", "none" */
    int restored;                /* after memory_xstate_restore: 1 when CPUID and XCR0 read back as found */
};
/* What the kernels may use: a width is usable when the CPU has its
 * instructions and XCR0 enables its registers; otherwise why names what
 * is missing. */
struct memory_vec {
    unsigned usable;             /* bit per MEMORY_VEC_* */
    char why[MEMORY_VECS][96];   /* "" when usable */
};
/* XCR0 to ask for: what CPUID 0DH.0:EAX supports of x87, SSE, AVX and the
 * AVX-512 components (all three or none), where CPUID.1:ECX.XSAVE is set;
 * 0 without XSAVE. */
uint64_t memory_xcr0_want(const struct cpu_info *id);
/* The usable widths from CPUID (AVX: CPUID.1:ECX.AVX; AVX-512:
 * CPUID.7.0:EBX.AVX512F) and the state in force (osxsave, xcr0). */
void memory_vec_plan(const struct cpu_info *id, int osxsave, uint64_t xcr0,
                     struct memory_vec *v);
/* "sse2" "avx" "avx512"; 16, 32, 64 */
const char *memory_vec_name(int w);
unsigned memory_vec_bytes(int w);
/* "read" "write" "write_nt" "copy" "triad" */
const char *memory_bw_op_name(int op);

/* memory_xstate_enable and memory_xstate_restore: a service of the port
 * (port/platform.h). */

struct memory_bw_fig {
    uint64_t bytes, ticks_min, ticks_median;
    double best, median;         /* bytes per second; NaN without a clock */
};
struct memory_bw {
    uint64_t size;
    unsigned ran;                /* widths measured (bit per MEMORY_VEC_*) */
    struct memory_bw_fig f[MEMORY_VECS][MEMORY_BW_OPS];
    int peak[MEMORY_BW_OPS];     /* the width with the highest best (fewest ticks per byte) */
};

/* Measure one size in the buffer (latency and bandwidth). */
void memory_measure_latency(void *buf, uint64_t size, const struct memory_plan *p,
                            struct memory_latency *out);
void memory_measure_bw(void *buf, uint64_t size, const struct memory_plan *p, const struct memory_vec *v,
                       struct memory_bw *out);

/* Sizes where the median latency rises by MEMORY_KNEE_RATIO or more over
 * the previous size. */
#define MEMORY_KNEE_RATIO 1.25
/* The data/unified caches a set growing from `from` to `to` bytes left
 * (from <= size < to), smallest first, into left; returns their number. */
unsigned memory_knee_left(const struct memory_caches *c, uint64_t from, uint64_t to,
                          const struct memory_cache **left, unsigned max);

/* ---- pages and the TLB (bench/memory/memory_tlb.c) ------------------------------------------ */
/* The page sizes behind the buffer: bytes mapped by 4 KiB, 2 MiB and 1 GiB
 * pages, and bytes not mapped (the image: not present in the page tables;
 * Linux: not resident). */
struct memory_page_census {
    const char *source;          /* "page tables (CR3)", "/proc/self/smaps", "none" */
    uint64_t bytes_4k, bytes_2m, bytes_1g, bytes_unmapped;
    char note[200];              /* Linux: transparent huge pages and the madvise asked */
};
/* x86-64 paging (Intel SDM vol. 3A, 4.5): 8-byte entries, present bit 0,
 * PS bit 7 in a PDPTE (1 GiB page) or a PDE (2 MiB page), the next table
 * at bits 12-51.  The size of the page mapping va under the tables at cr3
 * (4- or 5-level), read through read64(ctx, physical address); 0 when
 * va is not mapped. */
#define MEMORY_PTE_PRESENT   1ull
#define MEMORY_PTE_PS        (1ull << 7)
#define MEMORY_PTE_ADDR      0x000FFFFFFFFFF000ull
uint64_t memory_pt_page_size(uint64_t cr3, int la57, uint64_t va,
                             uint64_t (*read64)(void *ctx, uint64_t pa), void *ctx);
/* Walk [va, va + bytes) page by page into c (source left to the caller). */
void memory_pt_census(uint64_t cr3, int la57, uint64_t va, uint64_t bytes,
                      uint64_t (*read64)(void *ctx, uint64_t pa), void *ctx, struct memory_page_census *c);
/* memory_page_census fills one for a buffer: a service of the port
 * (port/platform.h). */

/* TLB against cache: the same number of lines chased packed (64 to a
 * 4 KiB page) and spread (one to a page: MEMORY_TLB_STRIDE apart, so line
 * i lands in cache set i + i/64 as packed line i lands in set i, and both
 * spread evenly over every power-of-two set count).  Same lines, same
 * cache footprint, 64 x the pages: the difference is the cost of reaching
 * more pages (TLB misses, page walks), not of the caches. */
#define MEMORY_TLB_PAGE      4096u
#define MEMORY_TLB_STRIDE    (MEMORY_TLB_PAGE + MEMORY_LINE)
#define MEMORY_TLB_MIN_LINES 16u
#define MEMORY_TLB_MAX_LINES 16384u
#define MEMORY_TLB_MAX_ROWS  16
struct memory_tlb_row {
    uint64_t lines;
    uint64_t pages[2];           /* 4 KiB pages the walk touched: [0] packed, [1] spread */
    struct memory_latency l[2];  /* [0] packed, [1] spread */
};
/* Line counts: MEMORY_TLB_MIN_LINES up, x4 (quick) or x2, while the spread
 * chase fits in `bytes` and MEMORY_TLB_MAX_LINES. */
unsigned memory_tlb_counts(int quick, uint64_t bytes, uint64_t *lines, unsigned max);
/* The distinct MEMORY_TLB_PAGE pages of the cycle from start (at most
 * `lines` steps) within [base, base + bytes). */
uint64_t memory_chain_pages(void *start, uint64_t lines, const void *base, uint64_t bytes);

/* The section: print, and write members into the open object w (NULL: text
 * only).  Returns 0, or 2 when something was skipped. */
int memory_section(struct memory_plan *p, struct json_writer *w);
/* The section in the run (bench/sections.c): the plan from the run's
 * profile (cfg->profile_run, settled once) and the free memory,
 * into the results member "memory". */
int memory_run(const struct section_ctx *ctx);

#endif
