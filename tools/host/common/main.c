/*
 * tools/host/common/main.c - the hosted Linux program: the portable parts of
 * baremark (statistics, BYTEmark kernels, timing methods) run under an
 * operating system, for unit tests and for OS-vs-bare-metal comparisons.
 */
#include <stdio.h>
#include <string.h>

#include "buildinfo.h"
#include "commands.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const struct cli_cmd *spec;     /* its options, usage and purpose (cmd_*.c) */
};

static const struct command commands[] = {
    { "stats", cmd_stats, &cli_cmd_stats },
    { "compare", cmd_compare, &cli_cmd_compare },
    { "bench-stats", cmd_bench_stats, &cli_cmd_bench_stats },
    { "verify", cmd_verify, &cli_cmd_verify },
    { "bytemark", cmd_bytemark, &cli_cmd_bytemark },
    { "quiet", cmd_quiet, &cli_cmd_quiet },
    { "methods", cmd_methods, &cli_cmd_methods },
    { "memory", cmd_memory, &cli_cmd_memory },
    { "show", cmd_show, &cli_cmd_show },
    { "report", cmd_report, &cli_cmd_report },
    { "diff", cmd_compare_runs, &cli_cmd_diff },
    { "validate", cmd_validate, &cli_cmd_validate },
    { "history", cmd_history, &cli_cmd_history },
    { "fleet", cmd_fleet, &cli_cmd_fleet },
    { "config", cmd_config, &cli_cmd_config },
};

static void usage(FILE *f)
{
    fprintf(f, "baremark %s (hosted)\nusage: baremark COMMAND [ARGS]   (baremark COMMAND --help: its options)\n",
            BUILD_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].spec->purpose);
    fputs("exit status: 0 done, 1 failed (a check, a comparison, a write), 2 usage or bad input\n", f);
}

/* Old names that still work, with a one-line notice (README "The tools"). */
static const struct { const char *old, *now; } renamed[] = {
    { "compare-runs", "diff" },
};

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("baremark %s\n", BUILD_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (!strcmp(argv[1], renamed[i].old)) {
            fprintf(stderr, "baremark: '%s' is now 'baremark %s'\n", renamed[i].old, renamed[i].now);
            argv[1] = (char *)renamed[i].now;
        }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name))
            continue;
        for (int k = 2; k < argc && strcmp(argv[k], "--"); k++)
            if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
                cli_help(stdout, commands[i].spec);
                return 0;
            }
        return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "baremark: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
