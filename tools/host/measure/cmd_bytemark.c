/*
 * tools/host/measure/cmd_bytemark.c - `baremark bytemark [-c FILE] [--json FILE]`
 * (the BYTEmark suite under Linux, same report as the image) and
 * `baremark verify [--json FILE]` (every kernel's checks, exit 1 on a FAIL).
 * The sections' results go into the hosted program's results document
 * (tools/host/platform/results_host.c), written to --json FILE at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "commands.h"
#include "config.h"
#include "host_platform.h"
#include "json.h"
#include "platform.h"

static void cmd_bytemark_diag(void *ctx, unsigned line, const char *msg)
{
    const char *file = ctx;
    if (line)
        fprintf(stderr, "%s:%u: %s\n", file, line, msg);
    else
        fprintf(stderr, "%s: %s\n", file, msg);
}

/* report_util.h (not included: its jansson clashes with bench/results/json.h). */
int doc_check_input(const char *cmd, const char *path);

enum { BM_OPT_C = 1, BM_OPT_JSON };
static const struct cli_opt bytemark_opts[] = {
    { BM_OPT_C, "-c", "FILE", "a BYTEmark command file (also -cFILE, BYTEmark's spelling)" },
    { BM_OPT_JSON, "--json", "FILE", "write the results document to FILE" },
    { 0 },
};
static const struct cli_opt verify_opts[] = {
    { BM_OPT_JSON, "--json", "FILE", "write the results document to FILE" },
    { 0 },
};
const struct cli_cmd cli_cmd_bytemark = {
    "bytemark", "[-c FILE] [--json FILE]", "the BYTEmark suite under Linux", bytemark_opts,
    "exit status: 0 done, 1 a kernel failed or FILE could not be written, 2 usage or an unreadable -c FILE\n",
};
const struct cli_cmd cli_cmd_verify = {
    "verify", "[--json FILE]", "run every BYTEmark kernel's checks", verify_opts,
    "exit status: 0 every check passed, 1 one failed, 2 usage\n",
};

/* Parse the options of c; 0, or 2 after naming the problem. */
static int cmd_bytemark_args(const struct cli_cmd *c, int argc, char **argv, const char **cfg_file,
                             const char **json_file)
{
    struct cli_iter it = { c, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == BM_OPT_C)
            *cfg_file = it.val;
        else if (id == BM_OPT_JSON)
            *json_file = it.val;
        else if (id == CLI_ARG) {
            char what[300];
            snprintf(what, sizeof what, "unexpected argument %s", it.val);
            return cli_usage_error(c, what);
        } else
            return 2;
    }
    return 0;
}

int cmd_bytemark(int argc, char **argv)
{
    const char *cfg_file = NULL, *json_file = NULL;
    if (cmd_bytemark_args(&cli_cmd_bytemark, argc, argv, &cfg_file, &json_file))
        return 2;
    if (cfg_file && doc_check_input("bytemark", cfg_file))
        return 2;          /* no such file, or a directory: never the defaults instead */
    struct bm_config cfg;
    config_defaults(&cfg);
    if (cfg_file) {
        size_t size = 0;
        void *buf;
        const char *why = plat_read_file(cfg_file, &buf, &size);
        char *text = buf;
        if (why) {
            fprintf(stderr, "baremark bytemark: -c %s: cannot read it (%s)\n", cfg_file, why);
            return 2;
        }
        int problems = config_parse(&cfg, text, size, cmd_bytemark_diag, (void *)cfg_file);
        plat_free(text);
        if (problems)
            fprintf(stderr, "%s: %d line(s) ignored\n", cfg_file, problems);
    }
    int rc = bytemark_run(&cfg, host_profile_settle(&cfg));
    if (host_results_write(json_file, rc) != 0)
        return 1;
    return rc ? 1 : 0;
}

int cmd_verify(int argc, char **argv)
{
    const char *cfg_file = NULL, *json_file = NULL;
    if (cmd_bytemark_args(&cli_cmd_verify, argc, argv, &cfg_file, &json_file))
        return 2;
    struct bm_config cfg;
    config_defaults(&cfg);
    int failed = bytemark_verify(&cfg);
    if (host_results_write(json_file, failed ? 2 : 0) != 0)
        return 1;
    return failed ? 1 : 0;
}
