/*
 * bench/memory/fields_memory.c - the memory member's fields that are not
 * figures (bench/memory/: the caches, the latency and bandwidth series,
 * the vector widths, the pages and the TLB chase; the figures are
 * figures_memory.c's rows).  `baremark validate` walks them
 * (bench/results/figures.h, struct figure_field_row).
 */
#include "figures.h"
#include "fields_quiet.h"

#define MEMORY_WIDTHS "sse2|avx|avx512"

const struct figure_field_row fields_memory[] = {
    FIELD_ROW_WORDS("profile", FIELD_OPT, "quick|full"),   /* files before the top-level "profile" */
    FIELD_ROW("allocator", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("memory_high", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW("above_4gib", FIELD_BOOL, FIELD_OPT, NULL),
    FIELD_ROW_WORDS("limited_by", FIELD_REQ, "|free memory|allocation failed"),
    FIELD_ROW("method", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("skipped", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("caches", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("caches.source", FIELD_REQ, "cpuid 4|cpuid 0x8000001d|cpuid 0x80000005/6|none"),
    FIELD_ROW("caches.list", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("caches.list[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("caches.list[*].name", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW_MIN("caches.list[*].level", FIELD_UINT, FIELD_REQ, 1, NULL),
    FIELD_ROW_WORDS("caches.list[*].type", FIELD_REQ, "data|instruction|unified"),
    FIELD_ROW_MIN("caches.list[*].size_bytes", FIELD_UINT, FIELD_REQ, 1, "bytes"),
    FIELD_ROW("caches.list[*].line_bytes", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW_MIN("caches.list[*].ways", FIELD_UINT, FIELD_OPT, 1, NULL),
    FIELD_ROW_MIN("caches.list[*].sets", FIELD_UINT, FIELD_OPT, 1, NULL),
    FIELD_ROW_MIN("caches.list[*].shared_by", FIELD_UINT, FIELD_OPT, 1, "logical processors"),
    FIELD_ROW("latency", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("latency[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_MIN("latency[*].size_bytes", FIELD_UINT, FIELD_REQ, 4096, "bytes"),
    FIELD_ROW_MIN("latency[*].lines", FIELD_UINT, FIELD_REQ, 1, "lines"),
    FIELD_ROW("latency[*].cycle_lines", FIELD_UINT, FIELD_REQ, "lines"),
    FIELD_ROW_MIN("latency[*].loads", FIELD_UINT, FIELD_REQ, 1, "loads per timing"),
    FIELD_ROW("latency[*].ticks_min", FIELD_UINT, FIELD_REQ, "ticks"),
    FIELD_ROW("latency[*].ticks_median", FIELD_UINT, FIELD_REQ, "ticks"),
    FIELD_ROW_MIN("latency[*].ns_min", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "ns per load"),
    FIELD_ROW("latency[*].fits", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("bandwidth", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("bandwidth[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_MIN("bandwidth[*].size_bytes", FIELD_UINT, FIELD_REQ, 4096, "bytes"),
/* a kernel's members at one size (BEST: its best rate's field row, or
 * nothing where the rate is a figure whose row carries its field) */
#define MEMORY_BW_FIG(AT, OP, WIDTH, BEST) \
    FIELD_ROW(AT OP, FIELD_OBJ, FIELD_OPT, NULL), \
    FIELD_ROW_WORDS(AT OP ".width", WIDTH, MEMORY_WIDTHS), \
    FIELD_ROW_MIN(AT OP ".bytes", FIELD_UINT, FIELD_REQ, 1, "bytes per timing"), \
    FIELD_ROW(AT OP ".ticks_min", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW(AT OP ".ticks_median", FIELD_UINT, FIELD_REQ, "ticks"), \
    BEST(AT OP ".best_bytes_per_s") \
    FIELD_ROW_MIN(AT OP ".median_bytes_per_s", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "bytes/s")
#define MEMORY_BW_ROW(AT, WIDTH, BEST) \
    MEMORY_BW_FIG(AT, "read", WIDTH, BEST), MEMORY_BW_FIG(AT, "write", WIDTH, BEST), \
    MEMORY_BW_FIG(AT, "write_nt", WIDTH, BEST), MEMORY_BW_FIG(AT, "copy", WIDTH, BEST), \
    MEMORY_BW_FIG(AT, "triad", WIDTH, BEST)
#define MEMORY_BEST_ROW(PATH) FIELD_ROW_MIN(PATH, FIELD_NUM_OR_NULL, FIELD_REQ, 0, "bytes/s"),
#define MEMORY_BEST_FIGURE(PATH)     /* figures_memory.h MEMORY_*_BEST */
    /* each kernel's peak over the widths, then every width measured (runs
     * before the vector widths have read, write, copy of SSE2 only: no
     * width, no widths) */
    MEMORY_BW_ROW("bandwidth[*].", FIELD_OPT, MEMORY_BEST_FIGURE),
    FIELD_ROW("bandwidth[*].widths", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("bandwidth[*].widths[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("bandwidth[*].widths[*].width", FIELD_REQ, MEMORY_WIDTHS),
    FIELD_ROW_MIN("bandwidth[*].widths[*].vector_bytes", FIELD_UINT, FIELD_REQ, 16, "bytes"),
    MEMORY_BW_ROW("bandwidth[*].widths[*].", FIELD_OPT, MEMORY_BEST_ROW),
#undef MEMORY_BW_ROW
#undef MEMORY_BEST_ROW
#undef MEMORY_BEST_FIGURE
#undef MEMORY_BW_FIG
    FIELD_ROW("bandwidth_peaks", FIELD_OBJ, FIELD_OPT, NULL),
#define MEMORY_PEAK(OP) \
    FIELD_ROW("bandwidth_peaks." OP, FIELD_OBJ, FIELD_OPT, NULL), \
    FIELD_ROW_WORDS("bandwidth_peaks." OP ".width", FIELD_REQ, MEMORY_WIDTHS), \
    FIELD_ROW_MIN("bandwidth_peaks." OP ".size_bytes", FIELD_UINT, FIELD_REQ, 4096, "bytes"), \
    FIELD_ROW_MIN("bandwidth_peaks." OP ".best_bytes_per_s", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "bytes/s"), \
    FIELD_ROW_MIN("bandwidth_peaks." OP ".bytes", FIELD_UINT, FIELD_REQ, 1, "bytes per timing"), \
    FIELD_ROW("bandwidth_peaks." OP ".ticks_min", FIELD_UINT, FIELD_REQ, "ticks")
    MEMORY_PEAK("read"), MEMORY_PEAK("write"), MEMORY_PEAK("write_nt"), MEMORY_PEAK("copy"), MEMORY_PEAK("triad"),
#undef MEMORY_PEAK
    /* the vector widths and the AVX state (bench/memory/memory_bw.c) */
    FIELD_ROW("vector", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW("vector.xsave", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("vector.osxsave_before", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("vector.xcr0_before", FIELD_UINT, FIELD_REQ, "XCR0 bits"),
    FIELD_ROW("vector.osxsave", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("vector.xcr0", FIELD_UINT, FIELD_REQ, "XCR0 bits"),
    FIELD_ROW_WORDS("vector.enabled_by", FIELD_REQ, "firmware|baremark|operating system|none"),
    FIELD_ROW("vector.restored", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("vector.widths", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("vector.widths[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_WORDS("vector.widths[*].width", FIELD_REQ, MEMORY_WIDTHS),
    FIELD_ROW_MIN("vector.widths[*].vector_bytes", FIELD_UINT, FIELD_REQ, 16, "bytes"),
    FIELD_ROW("vector.widths[*].measured", FIELD_BOOL, FIELD_REQ, NULL),
    FIELD_ROW("vector.widths[*].why", FIELD_STR, FIELD_OPT, NULL),
    /* the pages behind the buffer and the TLB chase (bench/memory/memory_tlb.c) */
    FIELD_ROW("pages", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW_WORDS("pages.source", FIELD_REQ, "page tables (CR3)|/proc/self/smaps|none"),
    FIELD_ROW("pages.bytes_4k", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("pages.bytes_2m", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("pages.bytes_1g", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("pages.bytes_unmapped", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("pages.note", FIELD_STR, FIELD_REQ, NULL),
    FIELD_ROW("tlb", FIELD_OBJ, FIELD_OPT, NULL),
    FIELD_ROW_MIN("tlb.page_bytes", FIELD_UINT, FIELD_REQ, 4096, "bytes"),
    FIELD_ROW_MIN("tlb.spread_stride_bytes", FIELD_UINT, FIELD_REQ, 4096, "bytes"),
    FIELD_ROW("tlb.rows", FIELD_ARR, FIELD_REQ, NULL),
    FIELD_ROW("tlb.rows[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW_MIN("tlb.rows[*].lines", FIELD_UINT, FIELD_REQ, 1, "lines"),
    FIELD_ROW("tlb.rows[*].extra_ns", FIELD_NUM_OR_NULL, FIELD_REQ, "ns per load (spread - packed)"),
#define MEMORY_TLB(K) \
    FIELD_ROW("tlb.rows[*]." K, FIELD_OBJ, FIELD_REQ, NULL), \
    FIELD_ROW_MIN("tlb.rows[*]." K ".span_bytes", FIELD_UINT, FIELD_REQ, 1, "bytes"), \
    FIELD_ROW_MIN("tlb.rows[*]." K ".pages_4k", FIELD_UINT, FIELD_REQ, 1, "pages"), \
    FIELD_ROW("tlb.rows[*]." K ".cycle_lines", FIELD_UINT, FIELD_REQ, "lines"), \
    FIELD_ROW_MIN("tlb.rows[*]." K ".loads", FIELD_UINT, FIELD_REQ, 1, "loads per timing"), \
    FIELD_ROW("tlb.rows[*]." K ".ticks_min", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW("tlb.rows[*]." K ".ticks_median", FIELD_UINT, FIELD_REQ, "ticks"), \
    FIELD_ROW_MIN("tlb.rows[*]." K ".ns_min", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "ns per load"), \
    FIELD_ROW_MIN("tlb.rows[*]." K ".ns_median", FIELD_NUM_OR_NULL, FIELD_REQ, 0, "ns per load")
    MEMORY_TLB("packed"), MEMORY_TLB("spread"),
#undef MEMORY_TLB
    FIELD_ROW_WORDS("past_llc", FIELD_OPT, "yes|no|unknown"),
    FIELD_ROW("knees", FIELD_ARR, FIELD_OPT, NULL),
    FIELD_ROW("knees[*]", FIELD_OBJ, FIELD_REQ, NULL),
    FIELD_ROW("knees[*].size_bytes", FIELD_UINT, FIELD_REQ, "bytes"),
    FIELD_ROW("knees[*].from_bytes", FIELD_UINT, FIELD_OPT, "bytes"),
    FIELD_ROW_MIN("knees[*].ratio", FIELD_NUM, FIELD_REQ, 1, "latency over the size before"),
    FIELD_ROW("knees[*].label", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("knees[*].past", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("knees[*].past_bytes", FIELD_UINT, FIELD_OPT, "bytes"),
    FIELD_ROW("knees[*].within", FIELD_STR, FIELD_OPT, NULL),
    FIELD_ROW("knees[*].within_bytes", FIELD_UINT, FIELD_OPT, "bytes"),
    QUIET_PHASES_FIELDS,
    { NULL },
};
