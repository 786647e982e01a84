/*
 * tools/host/measure/cmd_plugin_compare.c - `baremark compare --plugin FILE.so A B`:
 * Karsh's A/B of two plug-in routines under Linux, exactly as the image runs
 * COMPARE=A,B from its command file (bench/compare/compare.c: the A/B with all its
 * statistics and verdict, and the A/A control for A), next to the built-in
 * comparisons, so `tools/baremark-compare` can set the document beside an
 * image's run.
 *
 *   baremark compare --plugin FILE.so [--plugin FILE.so ...] A B
 *                    [--quick|--full] [--precision N] [--accuracy N]
 *                    [--timeout S] [--json FILE]
 *
 * A and B are PLUGIN:ROUTINE, or ROUTINE when one loaded plug-in has it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "config.h"
#include "host_platform.h"
#include "host_plugins.h"
#include "json.h"
#include "platform.h"
#include "plugins.h"

#define PLUGIN_COMPARE_TIMEOUT 60   /* seconds a protected call may take */

enum { PC_PLUGIN = 1, PC_QUICK, PC_FULL, PC_PRECISION, PC_ACCURACY, PC_TIMEOUT, PC_JSON };
static const struct cli_opt pc_opts[] = {
    { PC_PLUGIN, "--plugin", "FILE.so", "a plug-in holding A or B (repeatable)" },
    { PC_QUICK, "--quick", NULL, "the quick profile (fewer samples)" },
    { PC_FULL, "--full", NULL, "the full profile" },
    { PC_PRECISION, "--precision", "N", "Karsh's precision test with N repetitions" },
    { PC_ACCURACY, "--accuracy", "N", "Karsh's accuracy test with N samples" },
    { PC_TIMEOUT, "--timeout", "S", "end a plug-in call after S seconds (0 never; default 60)" },
    { PC_JSON, "--json", "FILE", "write the results document to FILE" },
    { 0 },
};
const struct cli_cmd cli_cmd_compare = {
    "compare", "--plugin FILE.so [--plugin FILE.so ...] [OPTIONS] A B",
    "the A/B of two plug-in routines, Karsh's way (and A/A)", pc_opts,
    "A, B: PLUGIN:ROUTINE, or ROUTINE when one loaded plug-in has it.\n"
    "(Two sample files are compared by 'baremark stats A B'.)\n"
    "exit status: 0 done, 1 a measurement failed or FILE could not be written, 2 usage or an unreadable plug-in\n",
};

static void plugin_compare_diag(void *ctx, unsigned line, const char *msg)
{
    int *problems = ctx;
    (*problems)++;
    fprintf(stderr, "baremark compare: %s\n", msg);
}

int cmd_compare_plugin(int argc, char **argv)
{
    char *files[PLUGINS_MAX_FILES];
    const char *names[2] = { NULL, NULL }, *json_path = NULL;
    int nfiles = 0, nnames = 0, status = 0;
    uint32_t precision = 0, accuracy = 0, timeout = PLUGIN_COMPARE_TIMEOUT;
    struct bm_config cfg;

    config_defaults(&cfg);
    struct cli_iter it = { &cli_cmd_compare, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == PC_PLUGIN) {
            if (nfiles == PLUGINS_MAX_FILES)
                return fprintf(stderr, "baremark compare: at most %u --plugin files\n", PLUGINS_MAX_FILES), 2;
            files[nfiles++] = (char *)it.val;
        } else if (id == PC_QUICK)
            cfg.profile = BM_PROFILE_QUICK;
        else if (id == PC_FULL)
            cfg.profile = BM_PROFILE_FULL;
        else if (id == PC_PRECISION) {
            if (cli_u32((char *)it.val, 1, METHODS_MAX_ITERATIONS, &precision))
                return fprintf(stderr, "baremark compare: --precision wants 1..%u\n", METHODS_MAX_ITERATIONS), 2;
        } else if (id == PC_ACCURACY) {
            if (cli_u32((char *)it.val, 2, METHODS_MAX_SAMPLES, &accuracy))
                return fprintf(stderr, "baremark compare: --accuracy wants 2..%u\n", METHODS_MAX_SAMPLES), 2;
        } else if (id == PC_TIMEOUT) {
            if (cli_u32((char *)it.val, 0, 86400, &timeout))
                return fprintf(stderr, "baremark compare: --timeout wants 0..86400 seconds\n"), 2;
        } else if (id == PC_JSON)
            json_path = (char *)it.val;
        else if (id == CLI_ARG && nnames < 2)
            names[nnames++] = it.val;
        else if (id == CLI_ARG)
            return cli_usage_error(&cli_cmd_compare, "give two routines, A and B");
        else
            return 2;
    }
    if (!nfiles || nnames != 2)
        return cli_usage_error(&cli_cmd_compare, "give --plugin FILE.so and two routines, A and B");
    const struct run_env *env = host_profile_settle(&cfg);

    host_protect_timeout(timeout);
    status |= host_plugins_load_all(files, nfiles);
    const char *targets[2];
    char why[160];
    for (int k = 0; k < 2; k++) {
        targets[k] = host_plugins_resolve(names[k], why, sizeof why);
        if (!targets[k]) {
            plugins_print();
            fprintf(stderr, "baremark compare: %s; nothing compared\n", why);
            return 2;
        }
    }
    /* Only A and B are set up and probed, as PLUGINROUTINES=A,B would. */
    char spec[2 * PLUGINS_TARGET_MAX + 2];
    snprintf(spec, sizeof spec, "%s,%s", targets[0], targets[1]);
    status |= host_plugins_ready(spec, 1);
    plugins_print();

    /* The comparison is the command file's COMPARE=A,B, so it runs through
     * the very code the image uses. */
    char text[sizeof spec + 16];
    int problems = 0;
    int n = snprintf(text, sizeof text, "COMPARE=%s\n", spec);
    config_parse(&cfg, text, (size_t)n, plugin_compare_diag, &problems);
    if (problems) {
        fprintf(stderr, "baremark compare: this build cannot run COMPARE=%s; nothing compared\n", spec);
        host_plugins_finish();
        return 1;
    }

    struct json_writer doc, *w = NULL;
    if (json_path) {
        host_doc_begin(&doc);
        w = &doc;
        json_obj_begin(w, "plugins");
        plugins_json(w);
        json_obj_end(w);
    }
    struct compare_plan p;
    compare_plan_from_config(&cfg, env, &p);
    p.precision = precision ? precision : p.precision;
    p.accuracy = accuracy ? accuracy : p.accuracy;
    if (w)
        json_obj_begin(w, "comparisons");
    status |= compare_section(&p, w);
    if (w)
        json_obj_end(w);
    host_plugins_finish();
    if (w && cli_end_json("compare", json_path, w, status))
        return 1;
    return status ? 1 : 0;
}
