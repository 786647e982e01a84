/*
 * bench/memory.h - the memory hierarchy: load latency by working-set size
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
 * read: 16-byte aligned SSE2 loads over the set; write: SSE2 stores of
 * zeros over it (plain stores, so the lines are read for ownership first);
 * copy: the first half copied to the second (bytes copied = S/2 per pass).
 * Passes repeat until a timing moves at least `bw_bytes`; bytes/s best
 * (from the minimum time) and median.
 *
 * ---- sizes ---------------------------------------------------------------------
 * From 4 KiB: quick profile every 4x up to MEMORY_QUICK_MAX; full profile
 * two sizes per octave (2^k and 1.5 x 2^k) up to max(256 MiB, 4 x the
 * largest cache, rounded up to a power of two).  Both are bounded by half
 * of the free memory (the rest stays for the firmware and the run); one
 * buffer of the largest size is allocated with the firmware's page
 * allocator (mmap on Linux) and every size uses its beginning.
 */
#ifndef BAREMARK_MEMORY_H
#define BAREMARK_MEMORY_H

#include <stddef.h>
#include <stdint.h>

struct json_writer;
struct section_ctx;

#define MEMORY_LINE        64u          /* bytes per chased element */
#define MEMORY_MIN_SIZE    4096u
#define MEMORY_MAX_SIZES   64
#define MEMORY_QUICK_MAX   (16ull << 20)
#define MEMORY_FULL_MIN_TOP (256ull << 20)
#define MEMORY_CHASE_UNROLL 16          /* loads per loop iteration */
/* Instructions of bm_mem_chase (bench/memory.asm): fixed + per iteration. */
#define MEMORY_CHASE_FIXED  5           /* mov, test, jz, mov, ret */
#define MEMORY_CHASE_PER_ITER (MEMORY_CHASE_UNROLL + 2)   /* 16 loads, dec, jnz */

/* ---- hooks: where the memory comes from ----------------------------------------------- */
/* Weak hooks (boot/memory_pages.c in the image: AllocatePages and the free
 * conventional memory in the memory map; tools/host/memory_host.c: mmap and
 * MemAvailable).  Without them the section says so and skips. */
void *memory_pages_alloc(uint64_t bytes) __attribute__((weak));
void memory_pages_free(void *p, uint64_t bytes) __attribute__((weak));
uint64_t memory_free_bytes(void) __attribute__((weak));
/* "firmware AllocatePages" / "mmap" */
const char *memory_allocator_name(void) __attribute__((weak));

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
 * else 0x80000005/6).  cpuid has bm_cpuid's signature. */
void memory_caches_read(void (*cpuid)(uint32_t, uint32_t, uint32_t[4]), struct memory_caches *c);
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
    int quick;
    uint32_t samples, bw_samples;
    uint64_t min_loads;          /* loads per latency timing at least */
    uint64_t bw_bytes;           /* bytes per bandwidth timing at least */
    uint64_t free_bytes;         /* free memory seen (0 unknown) */
    uint64_t want_top;           /* the largest size the profile asks for */
    uint64_t top;                /* the largest size run */
    const char *limited_by;      /* "", "free memory", "allocation failed" */
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
/* The profile's top: quick min(MEMORY_QUICK_MAX, ...); full max(256 MiB,
 * 4 x largest cache rounded up to a power of two); then bounded by half of
 * free (when known) down to a power of two. */
uint64_t memory_top(int quick, uint64_t largest_cache, uint64_t free_bytes, const char **limited_by,
                    uint64_t *want);
/* Fill the plan (quick as methods: profile quick, or auto under a hypervisor). */
void memory_plan_make(int quick, uint64_t free_bytes, struct memory_plan *p);

/* ---- the chase ------------------------------------------------------------------------------- */
/* Link `lines` lines at base (MEMORY_LINE apart) into one random cycle,
 * from a fixed seed; returns the first line. */
void *memory_chain_build(void *base, uint64_t lines, uint64_t seed);
/* Walk the cycle from `start` until it returns (at most max_steps):
 * the cycle's length, or 0 when it did not return. */
uint64_t memory_chain_length(void *start, uint64_t max_steps);

/* ---- results --------------------------------------------------------------------------------- */
struct memory_latency {
    uint64_t size, lines, cycle, loads;
    uint64_t ticks_min, ticks_median;
    double ns_min, ns_median;    /* per load; NaN without a clock */
};
struct memory_bw {
    uint64_t size, bytes[3];     /* bytes moved per timing: read, write, copy */
    uint64_t ticks_min[3], ticks_median[3];
    double best[3], median[3];   /* bytes per second; NaN without a clock */
};
enum { MEMORY_BW_READ, MEMORY_BW_WRITE, MEMORY_BW_COPY, MEMORY_BW_OPS };

/* Measure one size in the buffer (latency and bandwidth). */
void memory_measure_latency(void *buf, uint64_t size, const struct memory_plan *p,
                            struct memory_latency *out);
void memory_measure_bw(void *buf, uint64_t size, const struct memory_plan *p, struct memory_bw *out);

/* Sizes where the median latency rises by MEMORY_KNEE_RATIO or more over
 * the previous size. */
#define MEMORY_KNEE_RATIO 1.25

/* The section: print, and write members into the open object w (NULL: text
 * only).  Returns 0, or 2 when something was skipped. */
int memory_section(struct memory_plan *p, struct json_writer *w);
/* The section in the run (bench/sections.c): the plan from the profile
 * (quick: PROFILE=quick, or auto under a hypervisor) and the free memory,
 * into the results member "memory". */
int memory_run(const struct section_ctx *ctx);

#endif
