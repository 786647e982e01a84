/*
 * tools/host/validate/validate_memory.c - the memory section (bench/memory/memory_section.c
 * memory_section(); the image and `baremark memory`): the plan, the caches,
 * the latency and bandwidth rows, the knees.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

#define MEMORY_WIDTHS "sse2|avx|avx512"

static const struct rv_field memory_fields[] = {
    { "profile", RV_STR, OPT, NULL, "quick|full", NOMIN },   /* files before the top-level "profile" */
    { "allocator", RV_STR, REQ, NULL, NULL, NOMIN },
    { "memory_high", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "above_4gib", RV_BOOL, OPT, NULL, NULL, NOMIN },
    { "limited_by", RV_STR, REQ, NULL, "|free memory|allocation failed", NOMIN },
    { "method", RV_STR, REQ, NULL, NULL, NOMIN },
    { "skipped", RV_STR, OPT, NULL, NULL, NOMIN },
    { "caches", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "caches.source", RV_STR, REQ, NULL, "cpuid 4|cpuid 0x8000001d|cpuid 0x80000005/6|none", NOMIN },
    { "caches.list", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "caches.list[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "caches.list[].name", RV_STR, REQ, NULL, NULL, NOMIN },
    { "caches.list[].level", RV_UINT, REQ, NULL, NULL, 1 },
    { "caches.list[].type", RV_STR, REQ, NULL, "data|instruction|unified", NOMIN },
    { "caches.list[].size_bytes", RV_UINT, REQ, "bytes", NULL, 1 },
    { "caches.list[].line_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "caches.list[].ways", RV_UINT, OPT, NULL, NULL, 1 },
    { "caches.list[].sets", RV_UINT, OPT, NULL, NULL, 1 },
    { "caches.list[].shared_by", RV_UINT, OPT, "logical processors", NULL, 1 },
    { "latency", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "latency[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "latency[].size_bytes", RV_UINT, REQ, "bytes", NULL, 4096 },
    { "latency[].lines", RV_UINT, REQ, "lines", NULL, 1 },
    { "latency[].cycle_lines", RV_UINT, REQ, "lines", NULL, NOMIN },
    { "latency[].loads", RV_UINT, REQ, "loads per timing", NULL, 1 },
    { "latency[].ticks_min", RV_UINT, REQ, "ticks", NULL, NOMIN },
    { "latency[].ticks_median", RV_UINT, REQ, "ticks", NULL, NOMIN },
    { "latency[].ns_min", RV_NUM_OR_NULL, REQ, "ns per load", NULL, 0 },
    { "latency[].fits", RV_STR, REQ, NULL, NULL, NOMIN },
    { "bandwidth", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "bandwidth[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "bandwidth[].size_bytes", RV_UINT, REQ, "bytes", NULL, 4096 },
#define MEMORY_BW_FIG(AT, OP, WIDTH) \
    { AT OP, RV_OBJ, OPT, NULL, NULL, NOMIN }, \
    { AT OP ".width", RV_STR, WIDTH, NULL, MEMORY_WIDTHS, NOMIN }, \
    { AT OP ".bytes", RV_UINT, REQ, "bytes per timing", NULL, 1 }, \
    { AT OP ".ticks_min", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { AT OP ".ticks_median", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { AT OP ".best_bytes_per_s", RV_NUM_OR_NULL, REQ, "bytes/s", NULL, 0 }, \
    { AT OP ".median_bytes_per_s", RV_NUM_OR_NULL, REQ, "bytes/s", NULL, 0 }
#define MEMORY_BW_ROW(AT, WIDTH) \
    MEMORY_BW_FIG(AT, "read", WIDTH), MEMORY_BW_FIG(AT, "write", WIDTH), MEMORY_BW_FIG(AT, "write_nt", WIDTH), \
    MEMORY_BW_FIG(AT, "copy", WIDTH), MEMORY_BW_FIG(AT, "triad", WIDTH)
    /* each kernel's peak over the widths, then every width measured (runs
     * before the vector widths have read, write, copy of SSE2 only: no
     * width, no widths) */
    MEMORY_BW_ROW("bandwidth[].", OPT),
    { "bandwidth[].widths", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "bandwidth[].widths[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "bandwidth[].widths[].width", RV_STR, REQ, NULL, MEMORY_WIDTHS, NOMIN },
    { "bandwidth[].widths[].vector_bytes", RV_UINT, REQ, "bytes", NULL, 16 },
    MEMORY_BW_ROW("bandwidth[].widths[].", OPT),
#undef MEMORY_BW_ROW
#undef MEMORY_BW_FIG
    { "bandwidth_peaks", RV_OBJ, OPT, NULL, NULL, NOMIN },
#define MEMORY_PEAK(OP) \
    { "bandwidth_peaks." OP, RV_OBJ, OPT, NULL, NULL, NOMIN }, \
    { "bandwidth_peaks." OP ".width", RV_STR, REQ, NULL, MEMORY_WIDTHS, NOMIN }, \
    { "bandwidth_peaks." OP ".size_bytes", RV_UINT, REQ, "bytes", NULL, 4096 }, \
    { "bandwidth_peaks." OP ".best_bytes_per_s", RV_NUM_OR_NULL, REQ, "bytes/s", NULL, 0 }, \
    { "bandwidth_peaks." OP ".bytes", RV_UINT, REQ, "bytes per timing", NULL, 1 }, \
    { "bandwidth_peaks." OP ".ticks_min", RV_UINT, REQ, "ticks", NULL, NOMIN }
    MEMORY_PEAK("read"), MEMORY_PEAK("write"), MEMORY_PEAK("write_nt"), MEMORY_PEAK("copy"), MEMORY_PEAK("triad"),
#undef MEMORY_PEAK
    /* the vector widths and the AVX state (bench/memory/memory_bw.c) */
    { "vector", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "vector.xsave", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "vector.osxsave_before", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "vector.xcr0_before", RV_UINT, REQ, "XCR0 bits", NULL, NOMIN },
    { "vector.osxsave", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "vector.xcr0", RV_UINT, REQ, "XCR0 bits", NULL, NOMIN },
    { "vector.enabled_by", RV_STR, REQ, NULL, "firmware|baremark|operating system|none", NOMIN },
    { "vector.restored", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "vector.widths", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "vector.widths[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "vector.widths[].width", RV_STR, REQ, NULL, MEMORY_WIDTHS, NOMIN },
    { "vector.widths[].vector_bytes", RV_UINT, REQ, "bytes", NULL, 16 },
    { "vector.widths[].measured", RV_BOOL, REQ, NULL, NULL, NOMIN },
    { "vector.widths[].why", RV_STR, OPT, NULL, NULL, NOMIN },
    /* the pages behind the buffer and the TLB chase (bench/memory/memory_tlb.c) */
    { "pages", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "pages.source", RV_STR, REQ, NULL, "page tables (CR3)|/proc/self/smaps|none", NOMIN },
    { "pages.bytes_4k", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "pages.bytes_2m", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "pages.bytes_1g", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "pages.bytes_unmapped", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "pages.note", RV_STR, REQ, NULL, NULL, NOMIN },
    { "tlb", RV_OBJ, OPT, NULL, NULL, NOMIN },
    { "tlb.page_bytes", RV_UINT, REQ, "bytes", NULL, 4096 },
    { "tlb.spread_stride_bytes", RV_UINT, REQ, "bytes", NULL, 4096 },
    { "tlb.rows", RV_ARR, REQ, NULL, NULL, NOMIN },
    { "tlb.rows[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "tlb.rows[].lines", RV_UINT, REQ, "lines", NULL, 1 },
    { "tlb.rows[].extra_ns", RV_NUM_OR_NULL, REQ, "ns per load (spread - packed)", NULL, NOMIN },
#define MEMORY_TLB(K) \
    { "tlb.rows[]." K, RV_OBJ, REQ, NULL, NULL, NOMIN }, \
    { "tlb.rows[]." K ".span_bytes", RV_UINT, REQ, "bytes", NULL, 1 }, \
    { "tlb.rows[]." K ".pages_4k", RV_UINT, REQ, "pages", NULL, 1 }, \
    { "tlb.rows[]." K ".cycle_lines", RV_UINT, REQ, "lines", NULL, NOMIN }, \
    { "tlb.rows[]." K ".loads", RV_UINT, REQ, "loads per timing", NULL, 1 }, \
    { "tlb.rows[]." K ".ticks_min", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "tlb.rows[]." K ".ticks_median", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "tlb.rows[]." K ".ns_min", RV_NUM_OR_NULL, REQ, "ns per load", NULL, 0 }, \
    { "tlb.rows[]." K ".ns_median", RV_NUM_OR_NULL, REQ, "ns per load", NULL, 0 }
    MEMORY_TLB("packed"), MEMORY_TLB("spread"),
#undef MEMORY_TLB
    { "past_llc", RV_STR, OPT, NULL, "yes|no|unknown", NOMIN },
    { "knees", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "knees[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "knees[].size_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "knees[].from_bytes", RV_UINT, OPT, "bytes", NULL, NOMIN },
    { "knees[].ratio", RV_NUM, REQ, "latency over the size before", NULL, 1 },
    { "knees[].label", RV_STR, OPT, NULL, NULL, NOMIN },
    { "knees[].past", RV_STR, OPT, NULL, NULL, NOMIN },
    { "knees[].past_bytes", RV_UINT, OPT, "bytes", NULL, NOMIN },
    { "knees[].within", RV_STR, OPT, NULL, NULL, NOMIN },
    { "knees[].within_bytes", RV_UINT, OPT, "bytes", NULL, NOMIN },
    QUIET_PHASES_FIELDS,
    { NULL },
};

static void memory_say(const char *file, const char *where, const char *list, size_t i, const char *what,
                       int *problems, int quiet)
{
    char at[160];
    snprintf(at, sizeof at, "%s.%s[%zu]", where, list, i);
    rv_say(file, at, what, problems, quiet);
}

/* The page census covers the buffer; each TLB row's chases are one cycle
 * through its lines, the spread one a page per line. */
static void memory_check_pages(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *pg = json_object_get(sec, "pages"), *row;
    size_t i;
    if (json_is_object(pg) && strcmp(doc_str(pg, "source", ""), "none") &&
        doc_num(pg, "bytes_4k", 0) + doc_num(pg, "bytes_2m", 0) + doc_num(pg, "bytes_1g", 0) +
        doc_num(pg, "bytes_unmapped", 0) != doc_num(sec, "allocated_bytes", NAN))
        rv_say(file, where, "pages: the census does not add up to allocated_bytes", problems, quiet);
    json_array_foreach(json_object_get(json_object_get(sec, "tlb"), "rows"), i, row) {
        double lines = doc_num(row, "lines", NAN);
        json_t *a = json_object_get(row, "packed"), *b = json_object_get(row, "spread");
        if (doc_num(a, "cycle_lines", NAN) != lines || doc_num(b, "cycle_lines", NAN) != lines)
            memory_say(file, where, "tlb.rows", i, "a chase is not one cycle through its lines", problems, quiet);
        if (doc_num(b, "pages_4k", NAN) != lines)
            memory_say(file, where, "tlb.rows", i, "the spread chase does not touch one page per line", problems, quiet);
        if (doc_num(a, "pages_4k", NAN) > doc_num(b, "pages_4k", NAN))
            memory_say(file, where, "tlb.rows", i, "the packed chase touches more pages than the spread one", problems,
                       quiet);
    }
}

/* Rows: sizes strictly increasing, at most top_bytes, the walk one cycle
 * through every line, min <= median, ns and bytes/s agreeing with the ticks. */
static void memory_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *lat = json_object_get(sec, "latency"), *bw = json_object_get(sec, "bandwidth"), *row;
    double top = doc_num(sec, "top_bytes", NAN), line = doc_num(sec, "line_bytes", NAN), prev = 0;
    double alloc = doc_num(sec, "allocated_bytes", NAN);
    size_t i;

    if (!json_object_get(sec, "skipped") && alloc < top)
        rv_say(file, where, "allocated_bytes is less than top_bytes", problems, quiet);
    if (json_is_array(lat) && json_is_array(bw) && json_array_size(lat) != json_array_size(bw))
        rv_say(file, where, "latency and bandwidth have different numbers of sizes", problems, quiet);
    json_array_foreach(lat, i, row) {
        double s = doc_num(row, "size_bytes", NAN), lines = doc_num(row, "lines", NAN);
        if (!(s > prev))
            memory_say(file, where, "latency", i, "sizes do not increase", problems, quiet);
        if (s > top)
            memory_say(file, where, "latency", i, "size above top_bytes", problems, quiet);
        if (lines != s / line)
            memory_say(file, where, "latency", i, "lines is not size_bytes / line_bytes", problems, quiet);
        if (doc_num(row, "cycle_lines", NAN) != lines)
            memory_say(file, where, "latency", i, "the walk is not one cycle through every line", problems, quiet);
        if (doc_num(row, "loads", NAN) < lines)
            memory_say(file, where, "latency", i, "fewer loads than lines", problems, quiet);
        if (doc_num(row, "ticks_min", NAN) > doc_num(row, "ticks_median", NAN) ||
            doc_num(row, "ns_min", NAN) > doc_num(row, "ns_median", NAN))
            memory_say(file, where, "latency", i, "min above median", problems, quiet);
        prev = s;
        json_t *b = json_array_get(bw, i);
        if (b && doc_num(b, "size_bytes", NAN) != s)
            memory_say(file, where, "bandwidth", i, "size differs from the latency row's", problems, quiet);
        static const char *const ops[] = { "read", "write", "write_nt", "copy", "triad" };
        for (int k = 0; b && k < 5; k++) {
            json_t *o = json_object_get(b, ops[k]);
            double best = doc_num(o, "best_bytes_per_s", NAN), med = doc_num(o, "median_bytes_per_s", NAN);
            if (doc_num(o, "ticks_min", NAN) > doc_num(o, "ticks_median", NAN) || best < med)
                memory_say(file, where, "bandwidth", i, "best below median", problems, quiet);
        }
    }
    memory_check_pages(sec, where, file, problems, quiet);
    rv_quiet_phases(sec, where, -1, file, problems, quiet);
}

const struct rv_section rv_section_memory = { "memory", 0, memory_fields, memory_check };
