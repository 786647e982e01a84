/*
 * tools/host/history/history_serve_pages.c - what `baremark history serve` answers
 * a GET (tools/host/history/history_serve.c receives the uploads):
 *
 *   /                     the lab's machines (runs, the last run and its
 *                         status) and the latest runs, one table each
 *   /history              the history page of `history html` (change
 *                         points, one trend plot per series with a change)
 *   /api/runs             JSON: [{sha256, name, machine, date, status}, ...]
 *   /api/runs/SHA         the run's JSON file as it was uploaded
 *   /api/runs/SHA/log     its log (text/plain)
 *   /api/changes          JSON: the change points as `history show` finds them
 *
 * Also the answers' JSON and the hex of the kept files, for both.
 * The caller's store connection is its own.  Pages are static HTML: no script,
 * every stored text escaped (html_put).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "history_serve_pages.h"
#include "report_util.h"

#define HSP_LATEST 100      /* runs listed on the first page */

void hs_json_answer(struct hs_answer *a, int status, json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(v);
    a->status = text ? status : 500;
    a->type = "application/json";
    a->len = text ? strlen(text) : 0;
    a->body = text ? realloc(text, a->len + 2) : NULL;      /* a line, for curl and logs */
    if (!a->body) {
        free(text);
        a->len = 0;
        return;
    }
    a->body[a->len++] = '\n';
    a->body[a->len] = 0;
}

void hs_error(struct hs_answer *a, int status, const char *why)
{
    hs_json_answer(a, status, json_pack("{s:s}", "error", why));
}

int hs_is_sha(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return n == 64;
}

char *hs_unhex(const char *hex, size_t *len)
{
    size_t n = strlen(hex) / 2;
    char *out = malloc(n + 1);
    for (size_t i = 0; out && i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
            free(out);
            return NULL;
        }
        out[i] = (char)v;
    }
    if (out)
        out[n] = 0;
    *len = n;
    return out;
}

static void hsp_json(struct hs_answer *a, json_t *v) { hs_json_answer(a, 200, v); }

static void hsp_memstream_done(struct hs_answer *a, FILE *m, char **text, size_t *len, int failed,
                               struct hdb *db)
{
    fclose(m);
    if (failed) {
        free(*text);
        hs_error(a, 500, hdb_error(db));
        return;
    }
    a->status = 200;
    a->type = "text/html; charset=utf-8";
    a->body = *text;
    a->len = *len;
}

/* ---- /api/runs ----------------------------------------------------------------------- */

static int hsp_run_row(void *ctx, int n, const char *const *v)
{
    if (n < 5)
        return 0;
    json_array_append_new(ctx, json_pack("{s:s?,s:s?,s:s?,s:s?,s:s?}", "sha256", v[0], "name", v[1], "machine", v[2],
                                         "date", v[3], "status", v[4]));
    return 0;
}

static void hsp_runs(struct hdb *db, struct hs_answer *a)
{
    json_t *list = json_array();
    if (hdb_exec(db, "SELECT r.hash, r.name, m.name, r.started, r.status FROM runs r JOIN machines m ON"
                     " m.id = r.machine_id ORDER BY r.started, r.id", 0, NULL, hsp_run_row, list)) {
        json_decref(list);
        hs_error(a, 500, hdb_error(db));
        return;
    }
    hsp_json(a, list);
}

/* ---- /api/runs/SHA[/log] ---------------------------------------------------------------- */

struct hsp_file {
    int run;
    char *hex;
};

static int hsp_file_row(void *ctx, int n, const char *const *v)
{
    struct hsp_file *f = ctx;
    f->run = 1;
    if (n > 0 && v[0] && !f->hex)
        f->hex = strdup(v[0]);
    return 1;
}

/* The stored file of a run (kind "json" or "log"), unhexed (*len its
 * length); NULL with the error answer set when there is none. */
static char *hsp_load(struct hdb *db, const char *sha, const char *kind, size_t *len, struct hs_answer *a)
{
    struct hsp_file f = { 0 };
    const char *p[2] = { kind, sha };      /* in the order the SQL first names them (history_db.c) */
    char why[200];
    if (hdb_exec(db, "SELECT f.hex FROM runs r LEFT JOIN run_files f ON f.run_id = r.id AND f.kind = $1"
                     " WHERE r.hash = $2", 2, p, hsp_file_row, &f)) {
        hs_error(a, 500, hdb_error(db));
        return NULL;
    }
    if (!f.run || !f.hex) {
        snprintf(why, sizeof why, f.run ? "run %s is stored without its %s (added by history add, or not sent)"
                                        : "no run with sha256 %s is stored", sha, kind);
        hs_error(a, 404, why);
        free(f.hex);
        return NULL;
    }
    char *body = hs_unhex(f.hex, len);
    free(f.hex);
    if (!body)
        hs_error(a, 500, "the kept file is damaged (not hex)");
    return body;
}

static void hsp_file(struct hdb *db, const char *sha, const char *kind, struct hs_answer *a)
{
    size_t len = 0;
    char *body = hsp_load(db, sha, kind, &len, a);
    if (!body)
        return;
    a->body = body;
    a->status = 200;
    a->len = len;
    a->type = strcmp(kind, "log") ? "application/json" : "text/plain; charset=utf-8";
}

/* /runs/SHA: the stored run as `baremark report` shows it, made from the
 * stored JSON on each request (nothing is kept but the run itself). */
static void hsp_run_page(struct hdb *db, const char *sha, struct hs_answer *a)
{
    size_t len = 0, out_len = 0;
    char *json = hsp_load(db, sha, "json", &len, a), *page = NULL, src[80];
    if (!json)
        return;
    FILE *f = open_memstream(&page, &out_len);
    snprintf(src, sizeof src, "the results server's run %.12s", sha);
    int rc = f ? report_page(json, len, src, f) : -1;
    if (f)
        fclose(f);
    free(json);
    if (rc) {
        free(page);
        hs_error(a, rc > 0 ? 422 : 500, rc > 0 ? "the stored run is not a results document the report can show"
                                               : "out of memory");
        return;
    }
    a->status = 200;
    a->body = page;
    a->len = out_len;
    a->type = "text/html; charset=utf-8";
}

/* ---- /api/changes --------------------------------------------------------------------------- */

/* A run's provenance as stored: what `history show` compares either side
 * of a change (history_differs). */
static json_t *hsp_run_json(const struct history_run *r)
{
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "name", r->name, "date", r->started,
                     "build", r->build, "image", r->image, "plugins", r->plugins, "settings", r->settings,
                     "firmware", r->firmware, "firmware_id", r->firmware_id, "microcode", r->microcode,
                     "secure_boot", r->secure_boot, "memory", r->memory, "status", r->status);
}

static json_t *hsp_num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static void hsp_change(void *ctx, const struct history_change *c)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s}", "machine", c->machine, "profile", c->profile, "figure", c->figure,
                          "unit", c->unit, "kind", c->kind);
    json_object_set_new(o, "before", hsp_num(c->cp.before));
    json_object_set_new(o, "after", hsp_num(c->cp.after));
    json_object_set_new(o, "change", hsp_num(c->rel));
    json_object_set_new(o, "p", hsp_num(c->cp.p));
    json_object_set_new(o, "regression", json_boolean(c->regression));
    json_object_set_new(o, "runs", json_integer((json_int_t)c->nruns));
    json_object_set_new(o, "last_before", hsp_run_json(&c->before));
    json_object_set_new(o, "first_after", hsp_run_json(&c->after));
    /* what differs between those two runs, as `history show` says it */
    char differs[1024];
    int n = history_differs(&c->before, &c->after, differs, sizeof differs);
    json_object_set_new(o, "differs", json_string(differs));
    json_object_set_new(o, "explained", json_boolean(n > 0));
    json_array_append_new(ctx, o);
}

static void hsp_changes(struct hdb *db, struct hs_answer *a)
{
    struct history_filter f = { NULL, NULL, 0.001, 1e-5, 3 };   /* `history show`'s defaults */
    json_t *list = json_array();
    if (history_changes(db, &f, hsp_change, NULL, list) < 0) {
        json_decref(list);
        hs_error(a, 500, hdb_error(db));
        return;
    }
    hsp_json(a, list);
}

/* ---- / ------------------------------------------------------------------------------------ */

static int hsp_machine_row(void *ctx, int n, const char *const *v)
{
    FILE *f = ctx;
    if (n < 5)
        return 0;
    fputs("<tr><td>", f);
    html_put(f, v[0] ? v[0] : "");
    fputs("</td><td>", f);
    html_put(f, v[1] ? v[1] : "");
    fprintf(f, "</td><td class=n>%s</td><td>", v[2] ? v[2] : "0");
    html_put(f, v[3] ? v[3] : "");
    fputs("</td><td>", f);
    html_put(f, v[4] ? v[4] : "");
    fputs("</td></tr>\n", f);
    return 0;
}

/* The firmware image's identity (system.firmware_id) as `history show`
 * names it: a hash by its first 12 digits, "unknown: WHY" whole (up to 40
 * characters), "-" when the run does not say (older images, LAVA runs). */
static void hsp_firmware_id(FILE *f, const char *id)
{
    if (!id || !id[0] || !strcmp(id, "-"))
        fputs("-", f);
    else {
        char b[48];
        snprintf(b, sizeof b, "%.*s", strncmp(id, "unknown", 7) ? 12 : 40, id);
        html_put(f, b);
    }
}

static int hsp_latest_row(void *ctx, int n, const char *const *v)
{
    FILE *f = ctx;
    if (n < 8)
        return 0;
    /* a run whose JSON the server keeps (sent to it, not `history add`ed)
     * links to its page */
    int page = v[4] && hs_is_sha(v[4], strlen(v[4])) && v[7] && atoi(v[7]);
    fputs("<tr><td>", f);
    html_put(f, v[0] ? v[0] : "");
    fputs("</td><td>", f);
    html_put(f, v[1] ? v[1] : "");
    fputs("</td><td>", f);
    if (page)
        fprintf(f, "<a href=\"/runs/%s\">", v[4]);
    html_put(f, v[2] ? v[2] : "");
    fputs(page ? "</a></td><td>" : "</td><td>", f);
    html_put(f, v[3] ? v[3] : "");
    fputs("</td><td><code>", f);
    hsp_firmware_id(f, v[6]);
    fputs("</code></td><td><code>", f);
    if (v[4] && hs_is_sha(v[4], strlen(v[4]))) {
        fprintf(f, "<a href=\"/api/runs/%s\">%.12s</a>", v[4], v[4]);
        if (v[5] && atoi(v[5]))
            fprintf(f, " <a href=\"/api/runs/%s/log\">log</a>", v[4]);
    }
    fputs("</code></td></tr>\n", f);
    return 0;
}

static void hsp_index(struct hdb *db, struct hs_answer *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        hs_error(a, 500, "out of memory");
        return;
    }
    fputs("<!doctype html><html lang=en><head><meta charset=utf-8>"
          "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'\">"
          "<title>baremark results</title><style>"
          "body{font:14px system-ui,sans-serif;margin:1.5em;max-width:1100px}"
          "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border-bottom:1px solid #ddd;padding:.25em .7em;"
          "text-align:left}.n{text-align:right}code{font:12px ui-monospace,monospace}"
          "</style></head><body><h1>baremark results</h1>\n"
          "<p><a href=\"/history\">Changes and trends</a> &middot; <a href=\"/api/runs\">/api/runs</a> &middot; "
          "<a href=\"/api/changes\">/api/changes</a></p>\n"
          "<h2>Machines</h2>\n<table id=machines><tr><th>machine</th><th>CPU</th><th class=n>runs</th>"
          "<th>last run</th><th>its status</th></tr>\n", f);
    int failed = hdb_exec(db,
        "SELECT m.name, m.cpu, count(r.id),"
        " (SELECT r2.started FROM runs r2 WHERE r2.machine_id = m.id ORDER BY r2.started DESC, r2.id DESC LIMIT 1),"
        " (SELECT r2.status FROM runs r2 WHERE r2.machine_id = m.id ORDER BY r2.started DESC, r2.id DESC LIMIT 1)"
        " FROM machines m LEFT JOIN runs r ON r.machine_id = m.id GROUP BY m.id, m.name, m.cpu ORDER BY m.name",
        0, NULL, hsp_machine_row, f);
    fprintf(f, "</table>\n<h2>Latest runs</h2>\n<table id=runs><tr><th>started</th><th>machine</th><th>run</th>"
               "<th>status</th><th>firmware image</th><th>sha256</th></tr>\n");
    failed |= hdb_exec(db,
        "SELECT r.started, m.name, r.name, r.status, r.hash,"
        " (SELECT count(*) FROM run_files f WHERE f.run_id = r.id AND f.kind = 'log'), r.firmware_id,"
        " (SELECT count(*) FROM run_files f WHERE f.run_id = r.id AND f.kind = 'json')"
        " FROM runs r JOIN machines m ON m.id = r.machine_id ORDER BY r.started DESC, r.id DESC LIMIT 100",
        0, NULL, hsp_latest_row, f);
    fprintf(f, "</table>\n<p>The latest %d runs are listed; /api/runs lists them all.</p></body></html>\n",
            HSP_LATEST);
    hsp_memstream_done(a, f, &text, &len, failed, db);
}

static void hsp_history(struct hdb *db, struct hs_answer *a)
{
    struct history_filter flt = { NULL, NULL, 0.001, 1e-5, 3 };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        hs_error(a, 500, "out of memory");
        return;
    }
    int failed = history_html(db, &flt, 0, f) != 0;
    hsp_memstream_done(a, f, &text, &len, failed, db);
}

void hs_get(struct hdb *db, const char *url, struct hs_answer *a)
{
    size_t n = strlen(url);
    if (!strcmp(url, "/") || !strcmp(url, "/index.html"))
        hsp_index(db, a);
    else if (!strcmp(url, "/history"))
        hsp_history(db, a);
    else if (!strcmp(url, "/api/runs") || !strcmp(url, "/api/runs/"))
        hsp_runs(db, a);
    else if (!strcmp(url, "/api/changes"))
        hsp_changes(db, a);
    else if (n == 10 + 64 && !strncmp(url, "/api/runs/", 10) && hs_is_sha(url + 10, 64))
        hsp_file(db, url + 10, "json", a);
    else if (n == 6 + 64 && !strncmp(url, "/runs/", 6) && hs_is_sha(url + 6, 64))
        hsp_run_page(db, url + 6, a);
    else if (n == 10 + 64 + 4 && !strncmp(url, "/api/runs/", 10) && hs_is_sha(url + 10, 64) &&
             !strcmp(url + 74, "/log")) {
        char sha[65];
        memcpy(sha, url + 10, 64);
        sha[64] = 0;
        hsp_file(db, sha, "log", a);
    } else
        hs_error(a, 404, "no such page (/, /history, /runs/SHA, /api/runs, /api/runs/SHA, /api/runs/SHA/log, "
                         "/api/changes)");
}
