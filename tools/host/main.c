/*
 * tools/host/main.c - the hosted Linux program: the portable parts of
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
    const char *usage;
    int own_help;       /* the command prints its full usage on --help itself */
};

static const struct command commands[] = {
    { "stats", cmd_stats, "stats [--json] [FILE]     summary and histogram of one number a line\n"
                          "  stats [--json] A B        two samples against each other (Welch, Mann-Whitney)" },
    { "compare", cmd_compare, "compare --plugin F.so A B  the A/B of two plug-in routines, Karsh's way (and A/A)" },
    { "bench-stats", cmd_bench_stats, "bench-stats               cost of a full summary of 10^5 samples" },
    { "verify", cmd_verify, "verify                    run every BYTEmark kernel's checks" },
    { "bytemark", cmd_bytemark, "bytemark [-c FILE]        the BYTEmark suite under Linux" },
    { "quiet", cmd_quiet, "quiet [--seconds S]       largest gaps between back-to-back TSC reads" },
    { "methods", cmd_methods, "methods [--plugin F.so]   the timing methods under Linux (and plug-in routines)" },
    { "memory", cmd_memory, "memory [--quick|--full]   latency and bandwidth by working-set size" },
    { "show", cmd_show, "show RUN.json...         the run's summary: verdict, clock, estimates, A/B" },
    { "report", cmd_report, "report RUN.json [-o FILE]  self-contained HTML report of a run" },
    { "diff", cmd_compare_runs, "diff [--json|--html] A.json B.json  two runs side by side, figure by figure" },
    { "validate", cmd_validate, "validate RUN.json...      check results files against the schema" },
    { "history", cmd_history, "history add|show|check|export|html|serve  every run kept per machine, change points", 1 },
    { "fleet", cmd_fleet, "fleet [--csv|--html] DIR|FILE...  many machines' runs, one table per figure" },
    { "config", cmd_config, "config FILE               parse a command file and print the settings" },
};

static void usage(FILE *f)
{
    fprintf(f, "baremark %s (hosted)\nusage: baremark COMMAND [ARGS]\n", BUILD_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %s\n", commands[i].usage);
}

/* `baremark COMMAND --help`: the one-line purpose and the usage, exit 0.
 * The usage strings above are "NAME ARGS", two or more spaces, "PURPOSE";
 * a command with a second form has a second such line (indented). */
static int command_help(const struct command *c)
{
    const char *line = c->usage;
    for (int k = 0; line && *line; k++) {
        while (*line == ' ')
            line++;
        const char *end = strchr(line, '\n'), *gap = strstr(line, "  ");
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (!gap || gap > line + len)
            gap = line + len;
        const char *purpose = gap;
        while (purpose < line + len && *purpose == ' ')
            purpose++;
        if (k == 0)
            printf("baremark %s: %.*s\n", c->name, purpose < line + len ? (int)(line + len - purpose) : 16,
                   purpose < line + len ? purpose : "(no description)");
        printf("%s baremark %.*s\n", k == 0 ? "usage:" : "      ", (int)(gap - line), line);
        line = end ? end + 1 : NULL;
    }
    return 0;
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
        for (int k = 2; k < argc && !commands[i].own_help; k++)
            if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h"))
                return command_help(&commands[i]);
        return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "baremark: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
