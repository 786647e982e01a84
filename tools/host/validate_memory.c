/*
 * tools/host/validate_memory.c - the memory section (bench/memory.c
 * memory_section(); the image and `baremark memory`): the plan, the caches,
 * the latency and bandwidth rows, the knees.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "validate.h"

static const struct rv_field memory_fields[] = {
    { "profile", RV_STR, REQ, NULL, "quick|full", NOMIN },
    { "allocator", RV_STR, REQ, NULL, NULL, NOMIN },
    { "free_bytes", RV_NUM_OR_NULL, REQ, "bytes", NULL, 0 },
    { "allocated_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "want_top_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "top_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "limited_by", RV_STR, REQ, NULL, "|free memory|allocation failed", NOMIN },
    { "method", RV_STR, REQ, NULL, NULL, NOMIN },
    { "line_bytes", RV_UINT, REQ, "bytes", NULL, 8 },
    { "samples", RV_UINT, REQ, "timings per size", NULL, 1 },
    { "bw_samples", RV_UINT, REQ, "timings per size and kernel", NULL, 1 },
    { "min_loads", RV_UINT, REQ, "loads per timing", NULL, 1 },
    { "bw_min_bytes", RV_UINT, REQ, "bytes per timing", NULL, 1 },
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
    { "latency[].ns_median", RV_NUM_OR_NULL, REQ, "ns per load", NULL, 0 },
    { "latency[].fits", RV_STR, REQ, NULL, NULL, NOMIN },
    { "bandwidth", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "bandwidth[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "bandwidth[].size_bytes", RV_UINT, REQ, "bytes", NULL, 4096 },
#define MEMORY_BW(OP) \
    { "bandwidth[]." OP, RV_OBJ, REQ, NULL, NULL, NOMIN }, \
    { "bandwidth[]." OP ".bytes", RV_UINT, REQ, "bytes per timing", NULL, 1 }, \
    { "bandwidth[]." OP ".ticks_min", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "bandwidth[]." OP ".ticks_median", RV_UINT, REQ, "ticks", NULL, NOMIN }, \
    { "bandwidth[]." OP ".best_bytes_per_s", RV_NUM_OR_NULL, REQ, "bytes/s", NULL, 0 }, \
    { "bandwidth[]." OP ".median_bytes_per_s", RV_NUM_OR_NULL, REQ, "bytes/s", NULL, 0 }
    MEMORY_BW("read"), MEMORY_BW("write"), MEMORY_BW("copy"),
#undef MEMORY_BW
    { "knees", RV_ARR, OPT, NULL, NULL, NOMIN },
    { "knees[]", RV_OBJ, REQ, NULL, NULL, NOMIN },
    { "knees[].size_bytes", RV_UINT, REQ, "bytes", NULL, NOMIN },
    { "knees[].ratio", RV_NUM, REQ, "latency over the size before", NULL, 1 },
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

/* Rows: sizes strictly increasing, at most top_bytes, the walk one cycle
 * through every line, min <= median, ns and bytes/s agreeing with the ticks. */
static void memory_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *lat = json_object_get(sec, "latency"), *bw = json_object_get(sec, "bandwidth"), *row;
    double top = rj_num(sec, "top_bytes", NAN), line = rj_num(sec, "line_bytes", NAN), prev = 0;
    double alloc = rj_num(sec, "allocated_bytes", NAN);
    size_t i;

    if (!json_object_get(sec, "skipped") && alloc < top)
        rv_say(file, where, "allocated_bytes is less than top_bytes", problems, quiet);
    if (json_is_array(lat) && json_is_array(bw) && json_array_size(lat) != json_array_size(bw))
        rv_say(file, where, "latency and bandwidth have different numbers of sizes", problems, quiet);
    json_array_foreach(lat, i, row) {
        double s = rj_num(row, "size_bytes", NAN), lines = rj_num(row, "lines", NAN);
        if (!(s > prev))
            memory_say(file, where, "latency", i, "sizes do not increase", problems, quiet);
        if (s > top)
            memory_say(file, where, "latency", i, "size above top_bytes", problems, quiet);
        if (lines != s / line)
            memory_say(file, where, "latency", i, "lines is not size_bytes / line_bytes", problems, quiet);
        if (rj_num(row, "cycle_lines", NAN) != lines)
            memory_say(file, where, "latency", i, "the walk is not one cycle through every line", problems, quiet);
        if (rj_num(row, "loads", NAN) < lines)
            memory_say(file, where, "latency", i, "fewer loads than lines", problems, quiet);
        if (rj_num(row, "ticks_min", NAN) > rj_num(row, "ticks_median", NAN) ||
            rj_num(row, "ns_min", NAN) > rj_num(row, "ns_median", NAN))
            memory_say(file, where, "latency", i, "min above median", problems, quiet);
        prev = s;
        json_t *b = json_array_get(bw, i);
        if (b && rj_num(b, "size_bytes", NAN) != s)
            memory_say(file, where, "bandwidth", i, "size differs from the latency row's", problems, quiet);
        static const char *const ops[] = { "read", "write", "copy" };
        for (int k = 0; b && k < 3; k++) {
            json_t *o = json_object_get(b, ops[k]);
            double best = rj_num(o, "best_bytes_per_s", NAN), med = rj_num(o, "median_bytes_per_s", NAN);
            if (rj_num(o, "ticks_min", NAN) > rj_num(o, "ticks_median", NAN) || best < med)
                memory_say(file, where, "bandwidth", i, "best below median", problems, quiet);
        }
    }
    rv_quiet_phases(sec, where, -1, file, problems, quiet);
}

const struct rv_section rv_section_memory = { "memory", 0, memory_fields, memory_check };
