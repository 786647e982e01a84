/*
 * tools/host/history/cmd_history.c - `baremark history`: every run kept per
 * machine, change points per series, the answer for a commit or a
 * firmware update (tools/host/history/history.h says which file does what).
 *
 *   history add [--db DB] [--machine NAME] FILE|DIR...
 *   history show [--db DB] [--machine M] [--since REF] [--alpha P]
 *   history check [--db DB] [--machine M] --since REF [--threshold PCT]
 *   history export [--db DB] --csv | --bmf [--run NAME] [-o FILE]
 *   history html [--db DB] [--machine M] [--since REF] [--all] -o FILE
 *   history bench [--runs N] [--figures N] [--db FRESH-DB]
 *   history bench --corpus DIR [--series-csv FILE] [-v]   (history_corpus.c)
 *   history serve --listen ADDR:PORT --key-file FILE [--db DB] ...  (history_serve.c)
 *
 * DB is a SQLite file (default $BAREMARK_HISTORY, else
 * baremark-history.db) or a PostgreSQL connection string.
 * Exit status: 0 done (check: no regression beyond the threshold); 1 a
 * regression found (check), or the store failed; 2 usage, a file named
 * and skipped (add), or a store, --machine or --since that names nothing
 * stored (the read verbs never make a store); 3 check could not decide
 * (fewer than CH_MIN_SIZE runs on a side of --since).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "history.h"
#include "history_serve.h"

#define CH_ALPHA         0.001    /* Hunter's default p for a change */
#define CH_ALPHA_STRONG  1e-5
#define CH_MIN_SIZE      3        /* runs on each side of a change, at least */
#define CH_THRESHOLD     5.0      /* check: percent */
#define CH_UNDECIDED     3        /* check's status when it could not decide */

/* The command line: one row per option (commands.h, struct cli_opt); the
 * parser below and `history --help` both read it.  A new verb's option is
 * a row here and a case in ch_parse. */
enum { CH_DB = 1, CH_MACHINE, CH_SINCE, CH_ALPHA_OPT, CH_THRESHOLD_OPT, CH_ALL, CH_IDS, CH_DETAILS, CH_CSV, CH_BMF,
       CH_RUN, CH_OUT, CH_QUIET, CH_LAVA, CH_DEVICE_TYPE, CH_DEVICE, CH_LAST, CH_JOBS, CH_TOKEN, CH_RUNS, CH_FIGURES, CH_CORPUS, CH_SERIES_CSV };
static const struct cli_opt ch_opts[] = {
    { CH_DB, "--db", "DB", "a SQLite file (default $BAREMARK_HISTORY, else baremark-history.db) or a "
                           "PostgreSQL connection string; only add makes a new store" },
    { CH_MACHINE, "--machine", "M", "one machine (its name or key); add: the name to store runs under" },
    { CH_SINCE, "--since", "REF", "a stored run's name, a date (YYYY-MM-DD), or a build (its prefix)" },
    { CH_ALPHA_OPT, "--alpha", "P", "show, html: the p below which a change is reported (default 0.001)" },
    { CH_THRESHOLD_OPT, "--threshold", "PCT", "check: the size of a regression that fails (default 5)" },
    { CH_DETAILS, "-v|--details", NULL, "show, check: every series of a finding, not one line per routine" },
    { CH_IDS, "--ids", NULL, "show, check, html: name series by their figure id (meas_..._ticks)" },
    { CH_ALL, "--all", NULL, "html: every series, not only those with a change" },
    { CH_CSV, "--csv", NULL, "export: every point as CSV" },
    { CH_BMF, "--bmf", NULL, "export: one run in Bencher Metric Format (the latest, or --run NAME)" },
    { CH_RUN, "--run", "NAME", "export --bmf: the run to export" },
    { CH_OUT, "-o", "FILE", "export, html: write FILE instead of standard output" },
    { CH_QUIET, "--quiet", NULL, "add: no line per file" },
    { CH_LAVA, "--lava", "URL", "add: fetch a LAVA server's results (with --device-type or --jobs)" },
    { CH_DEVICE_TYPE, "--device-type", "T", "add --lava: the jobs of this device type" },
    { CH_DEVICE, "--device", "NAME", "add --lava: only this device's jobs" },
    { CH_LAST, "--last", "N", "add --lava: the last N jobs" },
    { CH_JOBS, "--jobs", "ID,...", "add --lava: these jobs" },
    { CH_TOKEN, "--token", "T", "add --lava: the server's API token" },
    { CH_RUNS, "--runs", "N", "bench: runs in the simulated store (10 to 1000000)" },
    { CH_FIGURES, "--figures", "N", "bench: figures per run (10 to 1000000)" },
    { CH_CORPUS, "--corpus", "DIR", "bench: score the detection on a labelled corpus of real runs "
                                    "(tools/bench/history-corpus.sh); -v: each series" },
    { CH_SERIES_CSV, "--series-csv", "FILE", "bench --corpus: write every series put together as CSV" },
    { 0 },
};
const struct cli_cmd cli_cmd_history = {
    "history",
    "add [--db DB] [--machine NAME] FILE|DIR...\n"
    "add [--db DB] --lava URL (--device-type T [--last N] | --jobs ID,...) [--token T]\n"
    "show [--db DB] [--machine M] [--since REF] [--alpha P] [-v] [--ids]\n"
    "check [--db DB] [--machine M] --since REF [--threshold PCT] [-v] [--ids]\n"
    "export [--db DB] (--csv | --bmf [--run NAME]) [-o FILE]\n"
    "html [--db DB] [--machine M] [--since REF] [--all] [--ids] -o FILE\n"
    "bench [--runs N] [--figures N] [--db DB]\n"
    "bench --corpus DIR [--series-csv FILE] [-v]\n"
    "serve --listen ADDR:PORT --key-file FILE [--db DB] [--max-bytes N] [--timeout S] (history serve --help)",
    "every run kept per machine, change points per series", ch_opts,
    "A series is named as \"ROUTINE, METHOD, UNIT\" (\"hist:k, cpuid+rdtsc, ticks/iter\"); changes of one\n"
    "routine in the same direction first seen at the same run are one finding (\"hist:k +4.7% (all 9\n"
    "methods)\"); -v lists each series of a finding.\n"
    "exit status: 0 done (check: no regression); 1 a regression (check) or the store failed;\n"
    "  2 usage, a skipped file, or a --db, --machine or --since that names nothing stored;\n"
    "  3 check could not decide (fewer than 3 runs on a side of --since)\n",
};

struct ch_opts {
    const char *db, *machine, *since, *out, *run, *verb, *corpus, *series_csv;
    const char *lava[12];       /* fetch-results' options, in pairs */
    int nlava;
    double alpha, threshold;
    int csv, bmf, all, quiet, db_given, details, ids;
    long runs, figures;
    char **args;
    int nargs;
};

static int ch_bad(const char *why)
{
    return cli_usage_error(&cli_cmd_history, why);
}

static int ch_parse(int argc, char **argv, struct ch_opts *o)
{
    char what[300];
    o->db = getenv("BAREMARK_HISTORY");
    if (!o->db || !o->db[0])
        o->db = "baremark-history.db";
    o->alpha = CH_ALPHA;
    o->threshold = CH_THRESHOLD;
    o->runs = 10000;
    o->figures = 500;
    o->args = malloc((size_t)argc * sizeof *o->args);
    struct cli_iter it = { &cli_cmd_history, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        char *end = NULL;
        switch (id) {
        case CH_DB: o->db = it.val; o->db_given = 1; break;
        case CH_MACHINE: o->machine = it.val; break;
        case CH_SINCE: o->since = it.val; break;
        case CH_OUT: o->out = it.val; break;
        case CH_RUN: o->run = it.val; break;
        case CH_CORPUS: o->corpus = it.val; break;
        case CH_SERIES_CSV: o->series_csv = it.val; break;
        case CH_LAVA: case CH_DEVICE_TYPE: case CH_DEVICE: case CH_LAST: case CH_JOBS: case CH_TOKEN:
            if (o->nlava + 2 > 12)
                return ch_bad("too many LAVA options");
            for (const struct cli_opt *r = ch_opts; r->id; r++)
                if (r->id == id)
                    o->lava[o->nlava] = r->names;       /* the row's name, as fetch-results spells it */
            o->nlava++;
            o->lava[o->nlava++] = it.val;
            break;
        case CH_ALPHA_OPT:
            o->alpha = strtod(it.val, &end);
            if (*end || !(o->alpha > 0 && o->alpha < 1)) {
                snprintf(what, sizeof what, "--alpha %s: want a probability between 0 and 1, e.g. 0.001", it.val);
                return ch_bad(what);
            }
            break;
        case CH_THRESHOLD_OPT:
            o->threshold = strtod(it.val, &end);
            if (*end || !(o->threshold >= 0)) {
                snprintf(what, sizeof what, "--threshold %s: want a percentage, e.g. 5", it.val);
                return ch_bad(what);
            }
            break;
        case CH_RUNS: case CH_FIGURES: {
            long n = strtol(it.val, &end, 10);
            if (*end || n < 10 || n > 1000000) {
                snprintf(what, sizeof what, "%s %s: want a whole number from 10 to 1000000", it.opt, it.val);
                return ch_bad(what);
            }
            *(id == CH_RUNS ? &o->runs : &o->figures) = n;
            break;
        }
        case CH_CSV: o->csv = 1; break;
        case CH_BMF: o->bmf = 1; break;
        case CH_ALL: o->all = 1; break;
        case CH_QUIET: o->quiet = 1; break;
        case CH_DETAILS: o->details = 1; break;
        case CH_IDS: o->ids = 1; break;
        case CLI_ARG:
            if (!o->verb)
                o->verb = it.val;       /* the first operand: history [OPTIONS] VERB ... */
            else
                o->args[o->nargs++] = (char *)it.val;
            break;
        default: return 2;
        }
    }
    return 0;
}

static struct hdb *ch_open(const char *target)
{
    char err[600];
    struct hdb *db = hdb_open(target, err, sizeof err);
    if (!db)
        fprintf(stderr, "baremark history: %s\n", err);
    return db;
}

static FILE *ch_out(const char *path)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f)
        fprintf(stderr, "baremark history: cannot write %s\n", path);
    return f;
}

static int ch_close_out(FILE *f, const char *path)
{
    if (f == stdout)
        return fflush(f) ? 1 : 0;
    if (fclose(f)) {
        fprintf(stderr, "baremark history: could not finish writing %s\n", path);
        return 1;
    }
    return 0;
}

int history_bench_run(const char *db, long runs, long figures);

/* history add --lava: tools/lava/fetch-results copies the jobs' results
 * into a temporary folder (one file a job, DEVICE/job-ID.yaml), which is
 * then added like any folder.  Returns the folder, or NULL. */
static char *ch_fetch_lava(const struct ch_opts *o)
{
    char exe[4096], script[4200], *tmp = strdup("/tmp/baremark-history-lava.XXXXXX");
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!tmp || !mkdtemp(tmp)) {
        fprintf(stderr, "baremark history: cannot make a temporary folder\n");
        free(tmp);
        return NULL;
    }
    exe[n > 0 ? n : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    snprintf(script, sizeof script, "%s/../../tools/lava/fetch-results", exe);   /* build/host/ -> the tree */
    const char *argv[20] = { "/usr/bin/python3", script };
    int k = 2;
    for (int i = 0; i < o->nlava; i++)
        argv[k++] = o->lava[i];
    argv[k++] = "-o";
    argv[k++] = tmp;
    argv[k] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "baremark history: could not read the LAVA server (tools/lava/fetch-results said why)\n");
        free(tmp);
        return NULL;
    }
    return tmp;
}

/* ---- read verbs: what they are asked about must exist ------------------------------------- */

static int ch_text_row(void *ctx, int n, const char *const *v)
{
    char *out = ctx;
    size_t len = strlen(out);
    if (n > 0 && v[0] && len + strlen(v[0]) + 3 < 400)
        snprintf(out + len, 400 - len, "%s%s", len ? ", " : "", v[0]);
    return 0;
}

static int ch_count_row(void *ctx, int n, const char *const *v)
{
    *(long *)ctx = n > 0 && v[0] ? atol(v[0]) : 0;
    return 1;
}

/* --machine and --since name something stored: 0, else 2 with one line
 * naming what there is. */
static int ch_known(struct hdb *db, const struct ch_opts *o)
{
    char list[400] = "", at[40];
    long n = 0;
    if (o->machine) {
        const char *p[1] = { o->machine };
        hdb_exec(db, "SELECT count(*) FROM machines WHERE name = $1 OR key = $1", 1, p, ch_count_row, &n);
        if (!n) {
            hdb_exec(db, "SELECT name FROM machines ORDER BY name LIMIT 12", 0, NULL, ch_text_row, list);
            fprintf(stderr, "baremark history: --machine %s: no such machine in %s (machines: %s)\n", o->machine,
                    o->db, list[0] ? list : "none");
            return 2;
        }
    }
    if (o->since && !history_since_at(db, o->since, at)) {
        hdb_exec(db, "SELECT name FROM (SELECT name, started FROM runs ORDER BY started LIMIT 1) a UNION ALL "
                 "SELECT name FROM (SELECT name, started FROM runs ORDER BY started DESC LIMIT 1) b", 0, NULL,
                 ch_text_row, list);
        fprintf(stderr, "baremark history: --since %s names no stored run, build or date (YYYY-MM-DD) in %s "
                "(the first and last stored runs: %s)\n", o->since, o->db, list[0] ? list : "none");
        return 2;
    }
    return 0;
}

/* check: the runs on each side of --since, per machine; the machine with
 * the fewest on a side is the one named when check cannot decide. */
struct ch_sides {
    long before, after;
    char machine[96];
    int any;
};

static int ch_sides_row(void *ctx, int n, const char *const *v)
{
    struct ch_sides *s = ctx;
    if (n < 3 || !v[0])
        return 0;
    long b = v[1] ? atol(v[1]) : 0, a = v[2] ? atol(v[2]) : 0;
    long fewest = b < a ? b : a, now = s->before < s->after ? s->before : s->after;
    if (!s->any || fewest < now) {
        s->before = b;
        s->after = a;
        snprintf(s->machine, sizeof s->machine, "%s", v[0]);
    }
    s->any = 1;
    return 0;
}

/* CH_UNDECIDED with one line when a machine has fewer than CH_MIN_SIZE
 * runs on a side of --since (no change can be found there), else 0. */
static int ch_undecided(struct hdb *db, const struct ch_opts *o, FILE *out)
{
    static const char q[] =
        "SELECT m.name, sum(CASE WHEN r.started < $1 THEN 1 ELSE 0 END),"
        " sum(CASE WHEN r.started >= $1 THEN 1 ELSE 0 END)"
        " FROM runs r JOIN machines m ON m.id = r.machine_id WHERE $2 = '' OR m.name = $2 OR m.key = $2"
        " GROUP BY m.name ORDER BY m.name";
    char at[40];
    struct ch_sides s = { 0 };
    history_since_at(db, o->since, at);
    const char *p[2] = { at, o->machine ? o->machine : "" };
    if (hdb_exec(db, q, 2, p, ch_sides_row, &s) || (s.any && s.before >= CH_MIN_SIZE && s.after >= CH_MIN_SIZE))
        return 0;
    if (!s.any)
        fprintf(out, "history check: cannot decide: no runs are stored; nothing was checked\n");
    else
        fprintf(out, "history check: cannot decide since %s: %s has %ld run%s before it and %ld since "
                "(at least %d on each side are needed); nothing was checked\n", o->since, s.machine, s.before,
                s.before == 1 ? "" : "s", s.after, CH_MIN_SIZE);
    return CH_UNDECIDED;
}

int cmd_history(int argc, char **argv)
{
    struct ch_opts o = { 0 };
    if (argc < 2)
        return ch_bad("name a verb: add, show, check, export, html, bench or serve");
    if (!strcmp(argv[1], "serve"))      /* its own options (history serve --help) */
        return history_serve_main(argc, argv);
    int rc = ch_parse(argc, argv, &o);
    if (rc) {
        free(o.args);
        return rc;
    }
    const char *verb = o.verb;
    if (!verb) {
        free(o.args);
        return ch_bad("name a verb: add, show, check, export, html or bench");
    }
    struct history_filter f = { o.machine, o.since, o.alpha, CH_ALPHA_STRONG, CH_MIN_SIZE, o.details || o.ids, o.ids };
    if (!strcmp(verb, "bench")) {
        if (o.corpus)
            rc = history_corpus_bench(o.corpus, o.series_csv, o.details, stdout);
        else if (o.series_csv)
            rc = ch_bad("--series-csv goes with --corpus DIR");
        else    /* its own temporary SQLite file unless --db names a fresh store */
            rc = history_bench_run(o.db_given ? o.db : NULL, o.runs, o.figures);
        free(o.args);
        return rc;
    }
    if (strcmp(verb, "add") && strcmp(verb, "show") && strcmp(verb, "check") && strcmp(verb, "export") &&
        strcmp(verb, "html")) {
        free(o.args);
        char what[300];
        snprintf(what, sizeof what, "unknown verb %.100s (the verbs are add, show, check, export, html, bench, serve)", verb);
        return ch_bad(what);
    }
    if ((!strcmp(verb, "add") && !o.nargs == !o.nlava) || (strcmp(verb, "add") && (o.nargs || o.nlava)) ||
        (!strcmp(verb, "check") && !o.since) || (!strcmp(verb, "export") && o.csv == o.bmf) ||
        (!strcmp(verb, "html") && !o.out)) {
        free(o.args);
        return ch_bad("missing or extra arguments");
    }
    if (strcmp(verb, "add") && !hdb_is_pg(o.db) && access(o.db, F_OK) != 0) {
        fprintf(stderr, "baremark history: %s: no history store there (history add makes one; --db or "
                "$BAREMARK_HISTORY names another)\n", o.db);
        free(o.args);
        return 2;
    }
    struct hdb *db = ch_open(o.db);
    if (!db) {
        free(o.args);
        return 1;
    }
    if (strcmp(verb, "add") && (rc = ch_known(db, &o)) != 0) {
        hdb_close(db);
        free(o.args);
        return rc;
    }
    if (!strcmp(verb, "add")) {
        struct history_add_opts ao = { o.machine, o.quiet };
        struct history_add_result r = { 0 };
        char *lava = o.nlava ? ch_fetch_lava(&o) : NULL;
        if (o.nlava && !lava) {
            hdb_close(db);
            free(o.args);
            return 1;
        }
        rc = lava ? history_add(db, &lava, 1, &ao, &r) : history_add(db, o.args, o.nargs, &ao, &r);
        if (lava) {
            char cmd[300];
            snprintf(cmd, sizeof cmd, "rm -rf '%s'", lava);   /* mkdtemp's name: no quote in it */
            if (system(cmd) != 0)
                fprintf(stderr, "baremark history: could not remove %s\n", lava);
            free(lava);
        }
        printf("history: %zu run%s added, %zu already stored, %zu skipped (%s %s)\n", r.added,
               r.added == 1 ? "" : "s", r.duplicates, r.skipped, hdb_kind(db), o.db);
    } else if (!strcmp(verb, "show")) {
        rc = history_show(db, &f, stdout) ? 1 : 0;
    } else if (!strcmp(verb, "check")) {
        long bad = history_check(db, &f, o.threshold / 100, stdout);
        int undecided = bad >= 0 ? ch_undecided(db, &o, stdout) : 0;
        if (bad == 0 && !undecided)
            printf("history check: no regression beyond %g%% since %s\n", o.threshold, o.since);
        rc = bad < 0 ? 1 : bad > 0 ? 1 : undecided;
    } else {
        FILE *out = ch_out(o.out);
        if (!out)
            rc = 1;
        else {
            if (!strcmp(verb, "html"))
                rc = history_html(db, &f, o.all, out) ? 1 : 0;
            else if (o.csv)
                rc = history_export_csv(db, out) ? 1 : 0;
            else {
                rc = history_export_bmf(db, o.run, out);
                if (rc > 0)
                    fprintf(stderr, "baremark history: no run named %s\n", o.run ? o.run : "(the latest)");
                rc = rc ? 1 : 0;
            }
            rc |= ch_close_out(out, o.out);
        }
    }
    if (rc == 1 && strcmp(verb, "check"))
        fprintf(stderr, "baremark history: %s\n", hdb_error(db));
    hdb_close(db);
    free(o.args);
    return rc;
}
