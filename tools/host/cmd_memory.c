/*
 * tools/host/cmd_memory.c - `baremark memory [--quick|--full] [--max-mib N]
 * [--json FILE]`: the image's memory section (bench/memory_section.c) under Linux,
 * for setting an operating system's latency and bandwidth beside bare
 * metal's.  Memory comes from mmap; the free memory bound is MemAvailable.
 * Interrupts and the scheduler stay on, page faults happen during the
 * untimed first walk, and transparent huge pages back the buffer only as
 * far as Linux grants madvise(MADV_HUGEPAGE) (the section reports what
 * /proc/self/smaps shows): the figures are the operating system's.  --json
 * writes a results
 * document with the `memory` section (docs/results-schema.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "memory.h"
#include "platform.h"

static int cmd_memory_usage(void)
{
    fprintf(stderr, "usage: baremark memory [--quick|--full] [--max-mib N] [--json FILE] (--quick, the default: "
                    "4 KiB every 4x to max(64 MiB, 4 x the largest cache); --full: two sizes per octave up to "
                    "max(256 MiB, 4 x the largest cache); --max-mib bounds the largest size)\n");
    return 2;
}

int cmd_memory(int argc, char **argv)
{
    int quick = 1;
    unsigned long max_mib = 0;
    const char *json_path = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--full"))
            quick = 0;
        else if (!strcmp(argv[i], "--max-mib") && i + 1 < argc) {
            char *end;
            max_mib = strtoul(argv[++i], &end, 10);
            if (*end || max_mib < 1 || max_mib > (1ul << 20))
                return fprintf(stderr, "baremark memory: --max-mib wants 1..1048576\n"), 2;
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json_path = argv[++i];
        else
            return cmd_memory_usage();
    }
    struct memory_plan p;
    uint64_t free_bytes = plat_free_bytes();
    /* --max-mib N: as if only 2N MiB were free (the plan takes half). */
    if (max_mib && (!free_bytes || free_bytes > 2 * ((uint64_t)max_mib << 20)))
        free_bytes = 2 * ((uint64_t)max_mib << 20);
    memory_plan_make(quick, free_bytes, &p);
    host_doc_profile(quick);
    printf("memory: under Linux (mmap, interrupts and the scheduler on); TSC at %.3f MHz\n",
           plat_tick_hz() / 1e6);
    struct json_writer doc, *w = NULL;
    if (json_path) {
        host_doc_begin(&doc);
        w = &doc;
        json_obj_begin(w, "memory");
    }
    int status = memory_section(&p, w);
    if (w) {
        json_obj_end(w);
        if (cli_end_json("memory", json_path, w, status))
            return 1;
    }
    return status ? 1 : 0;
}
