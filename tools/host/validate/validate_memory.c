/*
 * tools/host/validate/validate_memory.c - the memory section (bench/memory/memory_section.c
 * memory_section(); the image and `baremark memory`): the plan, the caches,
 * the latency and bandwidth rows, the knees.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_memory.h"
#include "report_util.h"
#include "validate.h"

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
        doc_num(pg, "bytes_unmapped", 0) != doc_fig_num(sec, &figures_memory, FIG_MEMORY_ALLOCATED_BYTES))
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
    const struct figure_table *t = &figures_memory;
    double top = doc_fig_num(sec, t, FIG_MEMORY_TOP_BYTES), line = doc_fig_num(sec, t, FIG_MEMORY_LINE_BYTES), prev = 0;
    double alloc = doc_fig_num(sec, t, FIG_MEMORY_ALLOCATED_BYTES);
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
            doc_num(row, "ns_min", NAN) > doc_fig_num(row, t, FIG_MEMORY_LATENCY_NS_MEDIAN))
            memory_say(file, where, "latency", i, "min above median", problems, quiet);
        prev = s;
        json_t *b = json_array_get(bw, i);
        if (b && doc_num(b, "size_bytes", NAN) != s)
            memory_say(file, where, "bandwidth", i, "size differs from the latency row's", problems, quiet);
        static const struct { const char *op; unsigned best; } ops[] = {
            { "read", FIG_MEMORY_READ_BEST }, { "write", FIG_MEMORY_WRITE_BEST }, { "write_nt", FIG_MEMORY_WRITE_NT_BEST },
            { "copy", FIG_MEMORY_COPY_BEST }, { "triad", FIG_MEMORY_TRIAD_BEST } };
        for (int k = 0; b && k < 5; k++) {
            json_t *o = json_object_get(b, ops[k].op);
            double best = doc_fig_num(b, t, ops[k].best), med = doc_num(o, "median_bytes_per_s", NAN);
            if (doc_num(o, "ticks_min", NAN) > doc_num(o, "ticks_median", NAN) || best < med)
                memory_say(file, where, "bandwidth", i, "best below median", problems, quiet);
        }
    }
    memory_check_pages(sec, where, file, problems, quiet);
    rv_quiet_phases(sec, where, -1, file, problems, quiet);
}

const struct rv_section rv_section_memory = { "memory", 0, memory_check };
