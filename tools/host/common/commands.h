/*
 * tools/host/common/commands.h - subcommands of the hosted program build/host/baremark.
 * Each lives in its own tools/host/cmd_*.c and returns the process exit code
 * (0 ok, 1 failure/check failed, 2 usage or input error).  argv[0] is the
 * subcommand's name.
 */
#ifndef BAREMARK_COMMANDS_H
#define BAREMARK_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cmd_stats(int argc, char **argv);      /* stats [--json] [FILE] */
int cmd_compare(int argc, char **argv);    /* compare --plugin F.so A B (two sample files: stats A B) */
int cmd_bench_stats(int argc, char **argv);/* bench-stats: cost of a summary */
int cmd_verify(int argc, char **argv);     /* verify: BYTEmark checks */
int cmd_bytemark(int argc, char **argv);   /* bytemark [-c FILE] */
int cmd_quiet(int argc, char **argv);      /* quiet [--seconds S]: TSC gap check */
int cmd_methods(int argc, char **argv);    /* methods: timing methods under Linux */
int cmd_memory(int argc, char **argv);     /* memory: latency and bandwidth sweep */
int cmd_config(int argc, char **argv);     /* config FILE: parse and print a command file */
int cmd_report(int argc, char **argv);     /* report RUN.json [-o FILE.html] */
/* The report's page of a results document held in memory (text, len; src
 * names it in the page and in validate's problems), written to f: 0, 1
 * when the text is not a results document, -1 when f could not be
 * written (history serve's run pages). */
int report_page(const char *text, size_t len, const char *src, FILE *f);
int cmd_compare_runs(int argc, char **argv); /* diff (was compare-runs) [--json|--html] A.json B.json */
int cmd_validate(int argc, char **argv);   /* validate RUN.json...: check against the schema */
int cmd_fleet(int argc, char **argv);      /* fleet DIR|FILE...: many machines' runs, one table per figure */
int cmd_compare_plugin(int argc, char **argv); /* compare --plugin F.so A B: plug-in A/B */
int cmd_show(int argc, char **argv);       /* show RUN.json...: the run's summary */
int cmd_history(int argc, char **argv);    /* history add|show|check|export|html|bench */

/* The head of a hosted program's results document: schema, platform and a
 * name from the local time (YYYYMMDD-HHMMSS, as the image names its runs).
 * Leaves the top-level object open. */
#include <stdint.h>
struct json_writer;
struct bm_config;
void host_doc_begin(struct json_writer *w);
/* The run's environment of a hosted command, decided once as the image's
 * is (bench/config/config.h run_env_decide: the one CPUID pass, the profile
 * settled from it, auto being quick under a hypervisor, and the platform's
 * capabilities); its profile is recorded as the document's top-level
 * "profile" by host_doc_begin.  Every measuring command decides through
 * it (a command's own default, as memory's quick, is its cfg->profile). */
struct run_env;
const struct run_env *host_profile_settle(struct bm_config *cfg);

/* tools/host/common/cli_util.c: a decimal number in [lo, hi] (0, or -1 when s is
 * not one), and a JSON document written to path (0, or -1 after saying why
 * as "baremark CMD: cannot write PATH"). */
#include <stdint.h>
struct json_writer;
int cli_u32(const char *s, unsigned long lo, unsigned long hi, uint32_t *out);
int cli_write_json(const char *cmd, const char *path, const struct json_writer *w);
/* End a command's document: its "status" (2 when status is nonzero, else 0)
 * and "ended", the top object closed, written to path as cli_write_json,
 * and freed.  0, or -1 after saying why. */
int cli_end_json(const char *cmd, const char *path, struct json_writer *w, int status);
/* The whole file in a NUL-terminated buffer to free (its length in *len),
 * NULL when it cannot be read. */
char *cli_slurp(const char *path, size_t *len);

/* ---- options: one table per command, read by its parser and its --help ----
 *
 * A command declares its options once, as rows of struct cli_opt, and a
 * struct cli_cmd naming it; cli_next walks argv by that table and
 * cli_help prints --help from it, so an option the parser accepts is in
 * the help and the other way round (tests/unit/test_cli_conventions.sh
 * checks it).  Adding an option is adding a row (and a case for its id). */
struct cli_opt {
    int id;                 /* what cli_next returns for it: > 0; a row with id 0 ends the table */
    const char *names;      /* "--json", or aliases with '|': "-q|--quiet" */
    const char *arg;        /* the value's name ("FILE"); "[FILE]" an optional value; NULL a flag */
    const char *help;       /* one line */
};
struct cli_cmd {
    const char *name;       /* "diff": errors begin "baremark diff: " */
    const char *usage;      /* after "baremark NAME ": "[OPTIONS] A.json B.json"; more forms after '\n' */
    const char *purpose;    /* one line */
    const struct cli_opt *opts;
    const char *more;       /* printed after the options (exit status, notes); NULL none */
};
enum { CLI_END = 0, CLI_ARG = -1, CLI_ERR = -2 };
struct cli_iter {
    const struct cli_cmd *cmd;
    int argc;
    char **argv;
    int i;                  /* the next argument to read; start at 1 */
    const char *val;        /* the option's value or the operand (CLI_ARG); NULL for a flag */
    const char *opt;        /* the option as it was written ("--db") */
    int operands_only;      /* after "--" */
};
/* The next option (its id), an operand (CLI_ARG, in it->val; "-" is one),
 * CLI_END, or CLI_ERR after one line on stderr naming the option ("baremark
 * diff: unknown option --foo" / "--db wants a value (DB)").  --opt=VALUE
 * and -xVALUE are accepted for options with a value. */
int cli_next(struct cli_iter *it);
/* `baremark NAME --help`: the purpose, the usage forms, every option of the
 * table, then `more`. */
void cli_help(FILE *f, const struct cli_cmd *c);
/* A usage error: "baremark NAME: WHAT (see baremark NAME --help)" on
 * stderr; returns 2. */
int cli_usage_error(const struct cli_cmd *c, const char *what);
/* A file operand that cannot be opened for reading: "baremark NAME: PATH:
 * REASON" on stderr and 2; 0 when it can be read. */
int cli_readable(const struct cli_cmd *c, const char *path);

/* Each command's table (its cmd_*.c). */
extern const struct cli_cmd cli_cmd_stats, cli_cmd_compare, cli_cmd_bench_stats, cli_cmd_verify, cli_cmd_bytemark,
    cli_cmd_quiet, cli_cmd_methods, cli_cmd_memory, cli_cmd_show, cli_cmd_report, cli_cmd_diff, cli_cmd_validate,
    cli_cmd_history, cli_cmd_fleet, cli_cmd_config;

#endif
