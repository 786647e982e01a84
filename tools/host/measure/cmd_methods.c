/*
 * tools/host/measure/cmd_methods.c - `baremark methods`: the image's methods and
 * comparisons sections under Linux (bench/methods/methods.c, bench/compare/compare.c).
 *
 *   baremark methods [--quick|--full] [--samples N] [--iterations N]
 *                    [--precision N] [--accuracy N]
 *                    [--no-methods] [--no-compare] [--json FILE]
 *                    [--plugin FILE.so ...] [--routines LIST] [--timeout S]
 *
 * --samples and --iterations are the command file's METHODSAMPLES and
 * METHODITERATIONS; --precision (calls per timing) and --accuracy (trials)
 * override Karsh's parameters of the comparisons.
 *
 * rdtsc, rdtscp, lfence, mfence and cpuid all work in user space, so every
 * method the CPU supports runs; what Linux does not allow is masking
 * interrupts, so a timing may include an interrupt or a context switch (the
 * text and the JSON say so).  --json writes a results document with the
 * `methods` and `comparisons` sections, "platform": "linux", status, ended.
 *
 * --plugin loads a plug-in's shared object (tools/baremark-plugin writes
 * NAME.so beside NAME.efi; repeat for several) into the same registry the
 * image uses: its routines are measured as PLUGIN:ROUTINE targets and the
 * document gets the image's `plugins` member.  --routines selects them
 * (PLUGINROUTINES syntax: copy:rep_movsb,branch or *).  A routine that
 * faults (SIGSEGV, SIGILL, SIGFPE) or does not return within --timeout
 * seconds (default 60; 0: no limit) is taken out with one line, as on bare
 * metal; a plug-in that is refused is named with the reason; the run goes on
 * with status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_step.h"
#include "commands.h"
#include "compare.h"
#include "config.h"
#include "host_platform.h"
#include "host_plugins.h"
#include "json.h"
#include "methods.h"
#include "platform.h"
#include "plugins.h"

/* Seconds a protected call of a plug-in run may take before it is ended. */
#define CMD_METHODS_PLUGIN_TIMEOUT 60

enum { MT_QUICK = 1, MT_FULL, MT_NO_METHODS, MT_NO_COMPARE, MT_SAMPLES, MT_ITERATIONS, MT_PRECISION, MT_ACCURACY,
       MT_JSON, MT_PLUGIN, MT_ROUTINES, MT_TIMEOUT };
static const struct cli_opt mt_opts[] = {
    { MT_QUICK, "--quick", NULL, "the quick profile (fewer samples)" },
    { MT_FULL, "--full", NULL, "the full profile" },
    { MT_SAMPLES, "--samples", "N", "samples per measurement (10 and up)" },
    { MT_ITERATIONS, "--iterations", "N", "iterations of the routine per sample" },
    { MT_PRECISION, "--precision", "N", "plug-in routines: Karsh's precision test with N repetitions" },
    { MT_ACCURACY, "--accuracy", "N", "plug-in routines: Karsh's accuracy test with N samples" },
    { MT_NO_METHODS, "--no-methods", NULL, "skip the timing methods' own overheads" },
    { MT_NO_COMPARE, "--no-compare", NULL, "skip the routines' comparison" },
    { MT_JSON, "--json", "FILE", "write the results document to FILE" },
    { MT_PLUGIN, "--plugin", "FILE.so", "time a plug-in's routines too (repeatable)" },
    { MT_ROUTINES, "--routines", "LIST", "only these routines of the --plugin files (comma-separated)" },
    { MT_TIMEOUT, "--timeout", "S", "end a plug-in call after S seconds (0 never; default 60)" },
    { 0 },
};
const struct cli_cmd cli_cmd_methods = {
    "methods", "[--quick|--full] [OPTIONS] [--plugin FILE.so ...]",
    "the timing methods under Linux (and plug-in routines)", mt_opts,
    "exit status: 0 done, 1 a measurement failed or FILE could not be written, 2 usage or an unreadable plug-in\n",
};

int cmd_methods(int argc, char **argv)
{
    struct bm_config cfg;
    const char *json_path = NULL;
    int run_methods = 1, run_compare = 1, status = 0, nplugins = 0, profile_given = 0;
    uint32_t precision = 0, accuracy = 0, timeout = CMD_METHODS_PLUGIN_TIMEOUT;
    char *plugins[PLUGINS_MAX_FILES];
    const char *routines = NULL;

    config_defaults(&cfg);
    struct cli_iter it = { &cli_cmd_methods, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == MT_QUICK || id == MT_FULL) {
            enum bm_profile want = id == MT_QUICK ? BM_PROFILE_QUICK : BM_PROFILE_FULL;
            if (profile_given && cfg.profile != want)
                return fprintf(stderr, "baremark methods: --quick and --full contradict each other: give one\n"), 2;
            cfg.profile = want;
            profile_given = 1;
        }
        else if (id == MT_NO_METHODS)
            run_methods = 0;
        else if (id == MT_NO_COMPARE)
            run_compare = 0;
        else if (id == MT_SAMPLES) {
            if (cli_u32((char *)it.val, 10, METHODS_MAX_SAMPLES, &cfg.methods_samples))
                return fprintf(stderr, "baremark methods: --samples wants 10..%u\n", METHODS_MAX_SAMPLES), 2;
        } else if (id == MT_ITERATIONS) {
            if (cli_u32((char *)it.val, 1, METHODS_MAX_ITERATIONS, &cfg.methods_iterations))
                return fprintf(stderr, "baremark methods: --iterations wants 1..%u\n", METHODS_MAX_ITERATIONS), 2;
        } else if (id == MT_PRECISION) {
            if (cli_u32((char *)it.val, 1, METHODS_MAX_ITERATIONS, &precision))
                return fprintf(stderr, "baremark methods: --precision wants 1..%u\n", METHODS_MAX_ITERATIONS), 2;
        } else if (id == MT_ACCURACY) {
            if (cli_u32((char *)it.val, 2, METHODS_MAX_SAMPLES, &accuracy))
                return fprintf(stderr, "baremark methods: --accuracy wants 2..%u\n", METHODS_MAX_SAMPLES), 2;
        } else if (id == MT_JSON)
            json_path = (char *)it.val;
        else if (id == MT_PLUGIN) {
            if (nplugins == PLUGINS_MAX_FILES)
                return fprintf(stderr, "baremark methods: at most %u --plugin files\n", PLUGINS_MAX_FILES), 2;
            plugins[nplugins++] = (char *)it.val;
        } else if (id == MT_ROUTINES)
            routines = (char *)it.val;
        else if (id == MT_TIMEOUT) {
            if (cli_u32((char *)it.val, 0, 86400, &timeout))
                return fprintf(stderr, "baremark methods: --timeout wants 0..86400 seconds\n"), 2;
        } else if (id == CLI_ARG) {
            fprintf(stderr, "baremark methods: unexpected argument %s (see baremark methods --help)\n", it.val);
            return 2;
        } else
            return 2;
    }
    const struct run_env *env = host_profile_settle(&cfg);
    if (routines && !nplugins)
        return fprintf(stderr, "baremark methods: --routines selects routines of a --plugin\n"), 2;

    struct json_writer doc, *w = NULL;
    if (json_path) {
        host_doc_begin(&doc);
        w = &doc;
    }
    if (nplugins) {
        host_protect_timeout(timeout);
        status |= host_plugins_prepare(plugins, nplugins, routines, cfg.methods_iterations);
        plugins_print();
        if (w) {
            json_obj_begin(w, "plugins");
            plugins_json(w);
            json_obj_end(w);
        }
    }
    if (run_methods || run_compare) {    /* the counter's step, as the image's clock section measures it */
        struct clockm_step st;
        char b[160];
        if (clock_step_measure(&st, NULL, NULL) == 0)
            plat_set_tick_step(st.ticks);
        clock_step_describe(&st, plat_tick_hz(), b, sizeof b);
        printf("clock: counter step %s%s\n", b, st.ticks ? "" : ": timings take the smallest gap they show");
    }
    if (run_methods) {
        struct methods_plan p;
        methods_plan_from_config(&cfg, env, &p);
        if (w)
            json_obj_begin(w, "methods");
        status |= methods_section(&p, w);
        if (w)
            json_obj_end(w);
    }
    if (run_compare) {
        struct compare_plan p;
        compare_plan_from_config(&cfg, env, &p);
        p.precision = precision ? precision : p.precision;
        p.accuracy = accuracy ? accuracy : p.accuracy;
        if (w)
            json_obj_begin(w, "comparisons");
        status |= compare_section(&p, w);
        if (w)
            json_obj_end(w);
    }
    if (nplugins)
        host_plugins_finish();
    if (w && cli_end_json("methods", json_path, w, status))
        return 1;
    return status ? 1 : 0;
}
