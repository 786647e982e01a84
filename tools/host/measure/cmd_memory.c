/*
 * tools/host/measure/cmd_memory.c - `baremark memory [--quick|--full] [--max-mib N]
 * [--json FILE]`: the image's memory section (bench/memory/memory_section.c) under Linux,
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
#include "config.h"
#include "json.h"
#include "memory.h"
#include "platform.h"
#include "section.h"

enum { ME_OPT_QUICK = 1, ME_OPT_FULL, ME_OPT_MAX, ME_OPT_JSON };
static const struct cli_opt me_opts[] = {
    { ME_OPT_QUICK, "--quick", NULL, "4 KiB every 4x up to max(64 MiB, 4 x the largest cache) (the default)" },
    { ME_OPT_FULL, "--full", NULL, "two sizes per octave up to max(256 MiB, 4 x the largest cache)" },
    { ME_OPT_MAX, "--max-mib", "N", "the largest working set, 1 to 1048576 MiB" },
    { ME_OPT_JSON, "--json", "FILE", "write the results document to FILE" },
    { 0 },
};
const struct cli_cmd cli_cmd_memory = {
    "memory", "[--quick|--full] [--max-mib N] [--json FILE]", "latency and bandwidth by working-set size",
    me_opts, "exit status: 0 done, 1 a measurement failed or FILE could not be written, 2 usage\n",
};

int cmd_memory(int argc, char **argv)
{
    struct bm_config cfg;
    unsigned long max_mib = 0;
    const char *json_path = NULL;
    struct cli_iter it = { &cli_cmd_memory, argc, argv, 1, NULL, NULL, 0 };
    char what[300];

    config_defaults(&cfg);
    cfg.profile = BM_PROFILE_QUICK;     /* the command's default: --full asks for the whole sweep */
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == ME_OPT_QUICK)
            cfg.profile = BM_PROFILE_QUICK;
        else if (id == ME_OPT_FULL)
            cfg.profile = BM_PROFILE_FULL;
        else if (id == ME_OPT_MAX) {
            char *end;
            max_mib = strtoul(it.val, &end, 10);
            if (*end || max_mib < 1 || max_mib > (1ul << 20)) {
                snprintf(what, sizeof what, "--max-mib %s: want 1..1048576", it.val);
                return cli_usage_error(&cli_cmd_memory, what);
            }
        } else if (id == ME_OPT_JSON)
            json_path = it.val;
        else if (id == CLI_ARG) {
            snprintf(what, sizeof what, "unexpected argument %s", it.val);
            return cli_usage_error(&cli_cmd_memory, what);
        } else
            return 2;
    }
    struct memory_plan p;
    uint64_t free_bytes = plat_free_bytes();
    /* --max-mib N: as if only 2N MiB were free (the plan takes half). */
    if (max_mib && (!free_bytes || free_bytes > 2 * ((uint64_t)max_mib << 20)))
        free_bytes = 2 * ((uint64_t)max_mib << 20);
    /* the run's environment, decided as the image decides it: the CPU's
     * identity and the profile the document records */
    const struct run_env *env = host_profile_settle(&cfg);
    memory_plan_make(env->cpu, env->profile == BM_PROFILE_QUICK, free_bytes, &p);
    p.vm_hidden = env->vm_hidden;
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
