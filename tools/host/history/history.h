/*
 * tools/host/history/history.h - `baremark history`: every run kept per machine,
 * change points per series, the answer for a commit or a firmware update.
 *
 *   history_db.c      storage: SQLite (a file, the default) or PostgreSQL
 *                     (a connection string), one SQL dialect, versioned
 *                     migrations
 *   history_add.c     a run's identity, provenance and figures (through the
 *                     figure tables, bench/results/figures.h) into the store
 *   history_series.c  the series (one figure of one machine under one
 *                     profile), their change points (stats/changepoint.c)
 *                     and what differed between the runs either side
 *   history_out.c     show, check, export (CSV, Bencher Metric Format), the
 *                     HTML page with a trend plot per series
 *   cmd_history.c     the command line; `history bench` the figures
 */
#ifndef BAREMARK_HISTORY_H
#define BAREMARK_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "stats.h"

/* ---- storage (history_db.c) -------------------------------------------------- */

struct hdb;

/* A row of a query: ncols text values (NULL for SQL NULL).  Return nonzero
 * to stop. */
typedef int (*hdb_row_fn)(void *ctx, int ncols, const char *const *vals);

/* Open (and migrate) a store: a PostgreSQL connection string
 * ("postgresql://...", "postgres://...", or "host=... dbname=...") or a
 * SQLite file path.  NULL with a one-line reason in err. */
struct hdb *hdb_open(const char *target, char *err, size_t errcap);
/* Whether a --db names a PostgreSQL server rather than a SQLite file. */
int hdb_is_pg(const char *target);
void hdb_close(struct hdb *db);
/* Delete a SQLite store file and its -wal and -shm companions (a scratch store). */
void hdb_remove_sqlite(const char *path);
const char *hdb_kind(const struct hdb *db);     /* "sqlite" or "postgresql" */
int hdb_schema_version(struct hdb *db);
/* Run SQL with $1..$n text parameters (NULL: SQL NULL); rows to fn (may
 * be NULL).  The statement is prepared once and kept (sql must be a
 * string constant).  0 or -1 (hdb_error says why). */
int hdb_exec(struct hdb *db, const char *sql, int nparams, const char *const *params, hdb_row_fn fn, void *ctx);
/* A write transaction: on SQLite it takes the write lock at once, so two
 * adds at the same time queue instead of failing half-way. */
int hdb_begin(struct hdb *db);
int hdb_commit(struct hdb *db);
void hdb_rollback(struct hdb *db);
char *hdb_hex(const char *p, size_t n);   /* bytes as hex text, malloc'd */
const char *hdb_error(const struct hdb *db);

/* ---- adding runs (history_add.c) ----------------------------------------------- */

struct history_add_opts {
    const char *machine;     /* --machine: overrides the machine's identity */
    int quiet;
};

struct history_add_result {
    size_t added, duplicates, skipped;
};

/* Add every results file in paths (files, or folders searched for *.json;
 * a run's machine defaults to the folder below the argument it lies in). */
int history_add(struct hdb *db, char *const *paths, int npaths, const struct history_add_opts *o,
                struct history_add_result *r);

/* One run given as its file's bytes (history serve): checked as `add`
 * checks a file (JSON, a results file, `baremark validate`'s schema) and
 * stored the same way, with the file itself kept beside it (run_files).
 * hash: the SHA-256 of the bytes, set whatever the outcome; why: one line
 * on a refusal (the schema's first problem). */
enum { HISTORY_ADDED, HISTORY_DUPLICATE, HISTORY_NOT_JSON, HISTORY_INVALID, HISTORY_FAILED };
struct history_upload {
    const char *text;
    size_t len;
    const char *source;         /* kept as the run's source, e.g. "upload from 10.0.0.5" */
    char hash[65], name[40], machine[96], why[1024];
    size_t figures;
};
int history_add_text(struct hdb *db, struct history_upload *u);

/* A series' name from its figure's LAVA id template (history_label.c). */
struct figure_value;
void history_series_label(const struct figure_value *v, char *out, size_t cap);

/* ---- series and changes (history_series.c) ------------------------------------------ */

/* What a run was: its provenance, as stored. */
struct history_run {
    long id;
    char name[40], started[40], build[64], image[80], plugins[200], settings[80];
    char firmware[96], microcode[40], secure_boot[24], status[24], memory[24];
    char firmware_id[72];       /* system.firmware_id; "" or "-" when the run does not say */
};

struct history_change {
    char machine[96], figure[128], unit[32], kind[8], profile[16];
    char label[160];            /* the series as a reader knows it: "hist:k, cpuid+rdtsc, ticks/iter" */
    struct stats_change cp;
    double rel;                 /* (after - before) / before */
    int regression;             /* worse by the figure's kind (lower/higher is better) */
    struct history_run before, after;   /* the last run before, the first run after */
    size_t nruns;
};

/* The splitting pass keeps splits at HISTORY_SPLIT times the p asked for;
 * each is then re-tested at that p between its neighbours (stats.h,
 * alpha_split; Hunter's first pass uses 10 times its p as well). */
#define HISTORY_SPLIT 10
/* A segment of at most STATS_CP_PERM_MAX runs must also pass a permutation
 * test of its largest split: HISTORY_PERM random orderings (a fixed seed,
 * so the same series gives the same answer), at p < HISTORY_ALPHA_PERM
 * (stats.h, perm): at most 1 flat segment in 100 shows a change, whatever
 * the distribution of the machine's noise. */
#define HISTORY_PERM 1999
#define HISTORY_ALPHA_PERM 0.01

struct history_filter {
    const char *machine;        /* a machine's name or key; NULL all */
    const char *since;          /* a run name, a date (YYYY-MM-DD...), or a build/commit; NULL all */
    double alpha, alpha_strong;
    size_t min_size;
    int details;                /* show, check: each series of a finding too (-v) */
    int ids;                    /* ... named by their figure id as well (--ids) */
};

/* Walk every series (bounded memory: one series at a time) and call fn
 * for each change found; series_fn (may be NULL) for each series with its
 * points, for the plots.  Returns the number of series, -1 on error. */
struct history_point {
    double value, lo, hi, step;     /* step: the figure's resolution (NAN: unknown) */
    long run;
    char name[40];
};
typedef void (*history_change_fn)(void *ctx, const struct history_change *c);
typedef void (*history_series_fn)(void *ctx, const char *machine, const char *profile, const char *figure,
                                  const char *label, const char *unit, const struct history_point *pts, size_t n,
                                  const struct stats_change *cps, size_t ncp);
long history_changes(struct hdb *db, const struct history_filter *f, history_change_fn fn,
                     history_series_fn series_fn, void *ctx);
/* Whether a change's first run after is at or after `since` (NULL: yes). */
int history_since(struct hdb *db, const char *since, const struct history_run *after);
/* REF's start time into at (40 bytes); 0 when REF names no stored run,
 * no date and no build of a stored run. */
int history_since_at(struct hdb *db, const char *since, char *at);

/* A stored run's provenance by its id (all empty when there is none). */
void history_run_get(struct hdb *db, long id, struct history_run *r);
/* What differs between two runs' provenance, for a person: "firmware
 * "A" -> "B"; plug-ins ..." or, when nothing recorded differs,
 * "unexplained: the machine or the noise (nothing baremark records
 * differs)".  Returns how many fields differ. */
int history_differs(const struct history_run *before, const struct history_run *after, char *out, size_t cap);
/* The smallest step x[0..n) could have shown at run `at` (a fraction of
 * the level; NAN when it cannot be said): the step a t-test at p <
 * alpha / (n - 2 min + 1) (the family-wise p the detection takes, over the
 * splits a series of n runs allows with min a side) finds 80% of the time
 * with the runs either side of `at`, given the
 * series' own run-to-run noise (from the median successive difference, so
 * a step or a drift does not inflate it); never below the runs' own mean interval
 * half-width (hw, may be NULL), which the detection requires a step to
 * exceed. */
double history_smallest_step(const double *x, const double *hw, size_t n, size_t at, double alpha, size_t min);

/* history bench --corpus DIR (history_corpus.c) */
int history_corpus_bench(const char *dir, const char *series_csv, int verbose, FILE *out);

/* ---- output (history_out.c) ------------------------------------------------------------ */

int history_show(struct hdb *db, const struct history_filter *f, FILE *out);
/* Regressions beyond threshold (a fraction) since f->since: each named
 * on out; returns how many. */
long history_check(struct hdb *db, const struct history_filter *f, double threshold, FILE *out);
int history_export_csv(struct hdb *db, FILE *out);
int history_export_bmf(struct hdb *db, const char *run, FILE *out);
int history_html(struct hdb *db, const struct history_filter *f, int all, FILE *out);

#endif
