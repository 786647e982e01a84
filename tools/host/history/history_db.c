/*
 * tools/host/history/history_db.c - the history's store: one SQLite file by
 * default (no server), or a PostgreSQL database given by a connection
 * string, the way a lab that already runs LAVA's PostgreSQL would keep it.
 * One SQL text serves both: $1..$n parameters (SQLite numbers "$1" in the
 * order it first meets them, which is 1..n here), INSERT ... ON CONFLICT
 * and RETURNING (SQLite 3.35).  Only the identity column differs.
 *
 * The schema is versioned: history_schema holds the version, and each
 * migration below runs once, in order, inside one transaction (under an
 * advisory lock on PostgreSQL, with the write lock on SQLite), so two
 * processes opening a new store at once do not both migrate it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "history.h"

#define HDB_STMTS        48       /* prepared statements kept per store */
#define HDB_BUSY_MS      60000    /* SQLite: wait this long for another writer */
#define HDB_RETRY_MS     20       /* SQLite: pause between tries of the switch to WAL */
#define HDB_LOCK_KEY     "7274651"   /* PostgreSQL advisory lock of the migrations */

/* Each migration's SQL; %ID% is the identity column of the dialect. */
static const char *const hdb_migrations[] = {
    /* 1: machines, runs, figures and their points */
    "CREATE TABLE machines (id %ID%, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL, cpu TEXT NOT NULL);"
    "CREATE TABLE runs (id %ID%, hash TEXT NOT NULL UNIQUE,"
    " machine_id BIGINT NOT NULL REFERENCES machines(id), name TEXT NOT NULL, started TEXT NOT NULL,"
    " added TEXT NOT NULL, status TEXT NOT NULL, profile TEXT NOT NULL, build TEXT NOT NULL,"
    " image_sha256 TEXT NOT NULL, plugins TEXT NOT NULL, settings TEXT NOT NULL, firmware TEXT NOT NULL,"
    " microcode TEXT NOT NULL, memory_mib BIGINT, secure_boot TEXT NOT NULL);"
    "CREATE TABLE figures (id %ID%, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL, kind TEXT NOT NULL);"
    "CREATE TABLE points (run_id BIGINT NOT NULL REFERENCES runs(id), figure_id BIGINT NOT NULL REFERENCES figures(id),"
    " value DOUBLE PRECISION NOT NULL, lo DOUBLE PRECISION, hi DOUBLE PRECISION, PRIMARY KEY (run_id, figure_id));",
    /* 2: where each run came from; series read in time order per machine */
    "ALTER TABLE runs ADD COLUMN source TEXT;"
    "CREATE INDEX runs_machine_started ON runs (machine_id, started, id);",
    /* 3: the files a run came with (history serve keeps the uploaded JSON and
     * log), as hex: the exact bytes in a TEXT column of either dialect */
    "CREATE TABLE run_files (run_id BIGINT NOT NULL REFERENCES runs(id), kind TEXT NOT NULL, hex TEXT NOT NULL,"
    " PRIMARY KEY (run_id, kind));",
    /* 4: a figure's name as a reader knows it ("hist:k, cpuid+rdtsc, ticks/iter"; history_add.c) */
    "ALTER TABLE figures ADD COLUMN label TEXT;",
    /* 5: the counter's step: the run's (clock.counter_step.ticks, else the
     * methods' measurements'), and each point's resolution in its unit
     * (a per-iteration tick figure: that step over its iterations) */
    "ALTER TABLE runs ADD COLUMN counter_step_ticks DOUBLE PRECISION;"
    "ALTER TABLE points ADD COLUMN step DOUBLE PRECISION;",
    /* 6: the firmware build's identity (system.firmware_id: a SHA-256 over its
     * volumes), which tells apart builds that report the same vendor and revision */
    "ALTER TABLE runs ADD COLUMN firmware_id TEXT;",
};
#define HDB_VERSION ((int)(sizeof hdb_migrations / sizeof hdb_migrations[0]))

struct hdb_stmt {
    const char *sql;
    sqlite3_stmt *st;      /* SQLite */
    int pg;                /* PostgreSQL: prepared as "s<index>" */
};

struct hdb {
    sqlite3 *lite;
    PGconn *pg;
    struct hdb_stmt stmts[HDB_STMTS];
    int nstmts;
    char err[512];
};

const char *hdb_kind(const struct hdb *db) { return db->pg ? "postgresql" : "sqlite"; }
const char *hdb_error(const struct hdb *db) { return db->err; }

static int hdb_fail(struct hdb *db, const char *what)
{
    const char *why = db->pg ? PQerrorMessage(db->pg) : sqlite3_errmsg(db->lite);
    snprintf(db->err, sizeof db->err, "%s: %.*s", what, (int)strcspn(why, "\n"), why);
    return -1;
}

int hdb_is_pg(const char *t)
{
    return !strncmp(t, "postgresql://", 13) || !strncmp(t, "postgres://", 11) || strstr(t, "dbname=") ||
           strstr(t, "host=");
}

/* Statements without parameters and without rows (DDL, transactions). */
static int hdb_plain(struct hdb *db, const char *sql)
{
    if (db->pg) {
        PGresult *r = PQexec(db->pg, sql);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
        return ok ? 0 : hdb_fail(db, "the store refused a statement");
    }
    char *msg = NULL;
    if (sqlite3_exec(db->lite, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(db->err, sizeof db->err, "the store refused a statement: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static struct hdb_stmt *hdb_stmt(struct hdb *db, const char *sql, int nparams)
{
    for (int i = 0; i < db->nstmts; i++)
        if (db->stmts[i].sql == sql)
            return &db->stmts[i];
    if (db->nstmts == HDB_STMTS) {
        snprintf(db->err, sizeof db->err, "more than %d kinds of statement", HDB_STMTS);
        return NULL;
    }
    struct hdb_stmt *s = &db->stmts[db->nstmts];
    s->sql = sql;
    if (db->pg) {
        char name[16];
        snprintf(name, sizeof name, "s%d", db->nstmts);
        PGresult *r = PQprepare(db->pg, name, sql, nparams, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) {
            hdb_fail(db, "could not prepare a statement");
            return NULL;
        }
        s->pg = db->nstmts;
    } else if (sqlite3_prepare_v2(db->lite, sql, -1, &s->st, NULL) != SQLITE_OK) {
        hdb_fail(db, "could not prepare a statement");
        return NULL;
    }
    db->nstmts++;
    return s;
}

static int hdb_exec_pg(struct hdb *db, struct hdb_stmt *s, int n, const char *const *params, hdb_row_fn fn,
                       void *ctx)
{
    char name[16];
    snprintf(name, sizeof name, "s%d", s->pg);
    PGresult *r = PQexecPrepared(db->pg, name, n, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        hdb_fail(db, "the store refused a statement");
        PQclear(r);
        return -1;
    }
    int rows = PQntuples(r), cols = PQnfields(r);
    const char *vals[32];
    for (int i = 0; fn && i < rows; i++) {
        for (int c = 0; c < cols && c < 32; c++)
            vals[c] = PQgetisnull(r, i, c) ? NULL : PQgetvalue(r, i, c);
        if (fn(ctx, cols < 32 ? cols : 32, vals))
            break;
    }
    PQclear(r);
    return 0;
}

static int hdb_exec_lite(struct hdb *db, struct hdb_stmt *s, int n, const char *const *params, hdb_row_fn fn,
                         void *ctx)
{
    sqlite3_stmt *st = s->st;
    const char *vals[32];
    int rc;
    sqlite3_reset(st);
    for (int i = 0; i < n; i++)
        if (params[i] ? sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_TRANSIENT)
                      : sqlite3_bind_null(st, i + 1))
            return hdb_fail(db, "could not bind a value");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int cols = sqlite3_column_count(st);
        for (int c = 0; c < cols && c < 32; c++)
            vals[c] = (const char *)sqlite3_column_text(st, c);
        if (fn && fn(ctx, cols < 32 ? cols : 32, vals))
            break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        hdb_fail(db, "the store refused a statement");
        sqlite3_reset(st);
        return -1;
    }
    sqlite3_reset(st);
    return 0;
}

int hdb_exec(struct hdb *db, const char *sql, int nparams, const char *const *params, hdb_row_fn fn, void *ctx)
{
    struct hdb_stmt *s = hdb_stmt(db, sql, nparams);
    if (!s)
        return -1;
    return db->pg ? hdb_exec_pg(db, s, nparams, params, fn, ctx) : hdb_exec_lite(db, s, nparams, params, fn, ctx);
}

int hdb_begin(struct hdb *db) { return hdb_plain(db, db->pg ? "BEGIN" : "BEGIN IMMEDIATE"); }
int hdb_commit(struct hdb *db) { return hdb_plain(db, "COMMIT"); }
void hdb_rollback(struct hdb *db) { hdb_plain(db, "ROLLBACK"); }

static int hdb_int_row(void *ctx, int n, const char *const *v)
{
    *(int *)ctx = n > 0 && v[0] ? atoi(v[0]) : 0;
    return 1;
}

int hdb_schema_version(struct hdb *db)
{
    int v = 0;
    if (hdb_exec(db, "SELECT max(version) FROM history_schema", 0, NULL, hdb_int_row, &v))
        return -1;
    return v;
}

/* One migration's SQL in this dialect. */
static char *hdb_dialect(const struct hdb *db, const char *sql)
{
    const char *id = db->pg ? "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" : "INTEGER PRIMARY KEY";
    size_t cap = strlen(sql) * 2 + 256, k = 0;
    char *out = malloc(cap);
    while (out && *sql) {
        if (!strncmp(sql, "%ID%", 4)) {
            k += (size_t)snprintf(out + k, cap - k, "%s", id);
            sql += 4;
        } else
            out[k++] = *sql++;
    }
    if (out)
        out[k] = 0;
    return out;
}

static int hdb_migrate(struct hdb *db)
{
    if (hdb_begin(db))
        return -1;
    if ((db->pg && hdb_plain(db, "SELECT pg_advisory_xact_lock(" HDB_LOCK_KEY ")")) ||
        hdb_plain(db, "CREATE TABLE IF NOT EXISTS history_schema (version INTEGER NOT NULL)"))
        goto fail;
    int v = hdb_schema_version(db);
    if (v < 0)
        goto fail;
    if (v > HDB_VERSION) {
        snprintf(db->err, sizeof db->err, "the store has schema version %d, newer than this program's %d", v,
                 HDB_VERSION);
        goto fail;
    }
    for (; v < HDB_VERSION; v++) {
        char *sql = hdb_dialect(db, hdb_migrations[v]), num[16];
        const char *p[1] = { num };
        snprintf(num, sizeof num, "%d", v + 1);
        int bad = !sql || hdb_plain(db, sql) ||
                  hdb_exec(db, "INSERT INTO history_schema (version) VALUES ($1)", 1, p, NULL, NULL);
        free(sql);
        if (bad)
            goto fail;
    }
    return hdb_commit(db);
fail:
    hdb_rollback(db);
    return -1;
}

/* Put a SQLite store in WAL mode.  Two programs opening a new store at
 * once both read it in rollback mode and both then need it alone to switch:
 * SQLite answers one of them SQLITE_BUSY at once, without the busy handler
 * (waiting could deadlock).  That one tries again until the other has
 * switched (then the pragma finds WAL and needs nothing), at most
 * HDB_BUSY_MS. */
static int hdb_lite_wal(struct hdb *db)
{
    for (int waited = 0;; waited += HDB_RETRY_MS) {
        int rc = sqlite3_exec(db->lite, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return 0;
        if ((rc & 0xff) != SQLITE_BUSY || waited >= HDB_BUSY_MS)
            return hdb_plain(db, "PRAGMA journal_mode=WAL");    /* its error, in the usual words */
        sqlite3_sleep(HDB_RETRY_MS);
    }
}

struct hdb *hdb_open(const char *target, char *err, size_t errcap)
{
    struct hdb *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if (hdb_is_pg(target)) {
        db->pg = PQconnectdb(target);
        if (PQstatus(db->pg) != CONNECTION_OK) {
            snprintf(err, errcap, "cannot connect to PostgreSQL: %.*s", (int)strcspn(PQerrorMessage(db->pg), "\n"),
                     PQerrorMessage(db->pg));
            hdb_close(db);
            return NULL;
        }
        hdb_plain(db, "SET client_min_messages = warning");
    } else {
        if (sqlite3_open_v2(target, &db->lite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
            snprintf(err, errcap, "cannot open %s: %s", target, db->lite ? sqlite3_errmsg(db->lite) : "no memory");
            hdb_close(db);
            return NULL;
        }
        sqlite3_busy_timeout(db->lite, HDB_BUSY_MS);
        /* WAL: readers go on while a CI job adds, and a cut mid-add leaves
         * the last committed run (an uncommitted one is rolled back on the
         * next open).  synchronous=NORMAL: a commit does not wait for the
         * disk; a killed process loses nothing committed, a power cut at
         * most the runs of the add it interrupted (the file stays
         * consistent, and the last close checkpoints with a sync). */
        if (hdb_lite_wal(db) || hdb_plain(db, "PRAGMA synchronous=NORMAL") ||
            hdb_plain(db, "PRAGMA foreign_keys=ON")) {
            snprintf(err, errcap, "%s: %s", target, db->err);
            hdb_close(db);
            return NULL;
        }
    }
    if (hdb_migrate(db)) {
        snprintf(err, errcap, "%s: %s", target, db->err);
        hdb_close(db);
        return NULL;
    }
    return db;
}

void hdb_close(struct hdb *db)
{
    if (!db)
        return;
    for (int i = 0; i < db->nstmts; i++)
        if (db->stmts[i].st)
            sqlite3_finalize(db->stmts[i].st);
    if (db->lite)
        sqlite3_close(db->lite);
    if (db->pg)
        PQfinish(db->pg);
    free(db);
}

void hdb_remove_sqlite(const char *path)
{
    char side[4096];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* The hex text of bytes, malloc'd (NULL when out of memory): a kept file's
 * exact bytes in a TEXT column of either dialect (run_files). */
char *hdb_hex(const char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *out = malloc(2 * n + 1);
    for (size_t i = 0; out && i < n; i++) {
        out[2 * i] = digits[(unsigned char)p[i] >> 4];
        out[2 * i + 1] = digits[(unsigned char)p[i] & 15];
    }
    if (out)
        out[2 * n] = 0;
    return out;
}
