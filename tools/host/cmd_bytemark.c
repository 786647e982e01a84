/*
 * tools/host/cmd_bytemark.c - `baremark bytemark [-c FILE] [--json FILE]`
 * (the BYTEmark suite under Linux, same report as the image) and
 * `baremark verify [--json FILE]` (every kernel's checks, exit 1 on a FAIL).
 * The sections' results go into the hosted program's results document
 * (tools/host/results_host.c), written to --json FILE at the end.
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

/* report_util.h (not included: its jansson clashes with bench/json.h). */
int rj_check_input(const char *cmd, const char *path);

/* Parse [-c FILE] [--json FILE]; returns 0 or prints usage and returns 2. */
static int cmd_bytemark_args(int argc, char **argv, int allow_c, const char **cfg_file,
                             const char **json_file)
{
    for (int i = 1; i < argc; i++) {
        if (allow_c && !strcmp(argv[i], "-c") && i + 1 < argc) {
            *cfg_file = argv[++i];
        } else if (allow_c && !strncmp(argv[i], "-c", 2) && argv[i][2]) {
            *cfg_file = argv[i] + 2;        /* BYTEmark's own spelling: -cFILE */
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            *json_file = argv[++i];
        } else {
            fprintf(stderr, "usage: baremark %s%s [--json FILE]\n", argv[0],
                    allow_c ? " [-c FILE]" : "");
            return 2;
        }
    }
    return 0;
}

int cmd_bytemark(int argc, char **argv)
{
    const char *cfg_file = NULL, *json_file = NULL;
    if (cmd_bytemark_args(argc, argv, 1, &cfg_file, &json_file))
        return 2;
    if (cfg_file && rj_check_input("bytemark", cfg_file))
        return 2;          /* no such file, or a directory: never the defaults instead */
    struct bm_config cfg;
    config_defaults(&cfg);
    if (cfg_file) {
        size_t size = 0;
        char *text = plat_read_file(cfg_file, &size, NULL);
        if (!text) {
            fprintf(stderr, "baremark: cannot read command file %s\n", cfg_file);
            return 2;
        }
        int problems = config_parse(&cfg, text, size, cmd_bytemark_diag, (void *)cfg_file);
        plat_free(text);
        if (problems)
            fprintf(stderr, "%s: %d line(s) ignored\n", cfg_file, problems);
    }
    host_profile_settle(&cfg);
    int rc = bytemark_run(&cfg);
    if (host_results_write(json_file, rc) != 0)
        return 1;
    return rc ? 1 : 0;
}

int cmd_verify(int argc, char **argv)
{
    const char *cfg_file = NULL, *json_file = NULL;
    if (cmd_bytemark_args(argc, argv, 0, &cfg_file, &json_file))
        return 2;
    struct bm_config cfg;
    config_defaults(&cfg);
    int failed = bytemark_verify(&cfg);
    if (host_results_write(json_file, failed ? 2 : 0) != 0)
        return 1;
    return failed ? 1 : 0;
}
