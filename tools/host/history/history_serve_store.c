/*
 * tools/host/history/history_serve_store.c - the results server's answers,
 * its check of signatures, its pool of connections to the store and the
 * storing of runs and logs (history_serve.c routes the requests here).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <microhttpd.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "history_serve_internal.h"

/* One line on stderr, whole (the lines of two threads do not mix). */
void hs_log(const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(line, sizeof line, "baremark history serve: ");
    vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    strcat(line, "\n");
    fputs(line, stderr);
}

/* ---- answers ---------------------------------------------------------------------- */

enum MHD_Result hs_send(struct MHD_Connection *c, struct hs_req *r, struct hs_answer *a)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(a->len, a->body ? a->body : (void *)"",
                                                                a->body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(a->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, a->type ? a->type : "application/json");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    /* no page runs a script or loads anything: a stored run's text shown in
     * one (a run page, /runs/SHA) can do nothing but be read */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    if (r && r->kind != HS_GET && !r->finished)     /* the body was not read: the connection cannot go on */
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    if (r && r->conn)
        __atomic_store_n(&r->conn->answering, 1, __ATOMIC_RELEASE);
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)a->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* A refusal: its answer and its one log line. */
enum MHD_Result hs_refuse(struct MHD_Connection *c, struct hs_req *r, int status, const char *why)
{
    struct hs_answer a = { 0 };
    hs_log("refused %d from %s: %s", status, r->conn ? r->conn->ip : "?", why);
    r->logged = 1;
    hs_error(&a, status, why);
    return hs_send(c, r, &a);
}

static enum MHD_Result hs_stored(struct MHD_Connection *c, struct hs_req *r, int status, const char *sha,
                                 const char *error)
{
    struct hs_answer a = { 0 };
    hs_json_answer(&a, status, error ? json_pack("{s:s,s:b,s:s}", "sha256", sha, "stored", 0, "error", error)
                                     : json_pack("{s:s,s:b}", "sha256", sha, "stored", 1));
    return hs_send(c, r, &a);
}

/* ---- signatures ---------------------------------------------------------------------- */

static int hs_hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                             : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* 0 when sig ("sha256=HEX") is the HMAC-SHA256 of the body with the key;
 * else why in words. */
const char *hs_check_sig(const struct hs_server *s, const char *sig, const void *body, size_t len)
{
    unsigned char mac[EVP_MAX_MD_SIZE], want[32];
    unsigned int maclen = 0;
    if (!sig)
        return "no signature (X-Baremark-Signature: sha256=HEX)";
    if (strncmp(sig, "sha256=", 7) || strlen(sig + 7) != 64)
        return "bad signature (not sha256= and 64 hex digits)";
    for (int i = 0; i < 32; i++) {
        int hi = hs_hexval(sig[7 + 2 * i]), lo = hs_hexval(sig[8 + 2 * i]);
        if (hi < 0 || lo < 0)
            return "bad signature (not sha256= and 64 hex digits)";
        want[i] = (unsigned char)(hi << 4 | lo);
    }
    if (!HMAC(EVP_sha256(), s->key, (int)s->keylen, body, len, mac, &maclen) || maclen != 32)
        return "could not compute the signature";
    return CRYPTO_memcmp(mac, want, 32) ? "bad signature" : NULL;
}

/* ---- the store's connections ------------------------------------------------------------ */

/* A connection to the store for this thread alone (waits while all
 * HS_POOL are in use; NULL when a new one cannot be opened, why in err).
 * Writers meet in the store itself: SQLite's BEGIN IMMEDIATE and busy
 * timeout queue them (history_db.c), PostgreSQL's transactions and the
 * runs' unique hash keep a run once. */
struct hdb *hs_take(struct hs_server *s, int *slot, char *err, size_t errcap)
{
    pthread_mutex_lock(&s->pool_lock);
    for (;;) {
        int open = -1, fresh = -1;
        for (int i = 0; i < HS_POOL; i++) {
            if (!s->busy[i] && s->pool[i] && open < 0)
                open = i;
            if (!s->busy[i] && !s->pool[i] && fresh < 0)
                fresh = i;
        }
        int i = open >= 0 ? open : fresh;
        if (i >= 0) {
            s->busy[i] = 1;
            pthread_mutex_unlock(&s->pool_lock);
            if (!s->pool[i] && !(s->pool[i] = hdb_open(s->target, err, errcap))) {
                pthread_mutex_lock(&s->pool_lock);
                s->busy[i] = 0;
                pthread_cond_signal(&s->pool_free);
                pthread_mutex_unlock(&s->pool_lock);
                return NULL;
            }
            *slot = i;
            return s->pool[i];
        }
        pthread_cond_wait(&s->pool_free, &s->pool_lock);
    }
}

void hs_give(struct hs_server *s, int slot)
{
    pthread_mutex_lock(&s->pool_lock);
    s->busy[slot] = 0;
    pthread_cond_signal(&s->pool_free);
    pthread_mutex_unlock(&s->pool_lock);
}

/* ---- storing ----------------------------------------------------------------------------- */

static int hs_id_row(void *ctx, int n, const char *const *v)
{
    snprintf(ctx, 24, "%s", n > 0 && v[0] ? v[0] : "");
    return 1;
}

enum MHD_Result hs_store_run(struct hs_server *s, struct MHD_Connection *c, struct hs_req *r)
{
    char source[120];
    struct history_upload u = { r->body ? r->body : "", r->len, source };
    snprintf(source, sizeof source, "upload from %s", r->conn->ip);
    int slot;
    struct hdb *db = hs_take(s, &slot, u.why, sizeof u.why);
    int rc = db ? history_add_text(db, &u) : HISTORY_FAILED;
    if (db)
        hs_give(s, slot);
    switch (rc) {
    case HISTORY_ADDED:
        hs_log("stored run %s of %s from %s (%zu figures), sha256 %s", u.name, u.machine, r->conn->ip, u.figures,
               u.hash);
        return hs_stored(c, r, MHD_HTTP_CREATED, u.hash, NULL);
    case HISTORY_DUPLICATE:
        hs_log("refused 409 from %s: run %s (sha256 %s) is already stored", r->conn->ip, u.name, u.hash);
        r->logged = 1;
        return hs_stored(c, r, MHD_HTTP_CONFLICT, u.hash, "duplicate");
    case HISTORY_NOT_JSON:
        return hs_refuse(c, r, MHD_HTTP_BAD_REQUEST, u.why);
    case HISTORY_INVALID:
        return hs_refuse(c, r, 422, u.why);
    default:
        return hs_refuse(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, u.why);
    }
}

enum MHD_Result hs_store_log(struct hs_server *s, struct MHD_Connection *c, struct hs_req *r)
{
    char rid[24] = "", added[24] = "", why[600] = "";
    const char *p[1] = { r->sha };
    char *hex = hdb_hex(r->body ? r->body : "", r->len);
    int rc = 0, slot;
    struct hdb *db = hex ? hs_take(s, &slot, why, sizeof why) : NULL;
    if (!hex || !db) {
        free(hex);
        return hs_refuse(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, hex ? why : "out of memory");
    }
    /* one statement: two posts of the same log at once store it once */
    const char *q[3] = { rid, "log", hex };
    if (hdb_exec(db, "SELECT id FROM runs WHERE hash = $1", 1, p, hs_id_row, rid))
        rc = -1;
    else if (!rid[0])
        rc = 404;
    else if (hdb_exec(db, "INSERT INTO run_files (run_id, kind, hex) VALUES ($1, $2, $3)"
                          " ON CONFLICT (run_id, kind) DO NOTHING RETURNING run_id", 3, q, hs_id_row, added))
        rc = -1;
    else if (!added[0])
        rc = 409;
    if (rc < 0)
        snprintf(why, sizeof why, "%s", hdb_error(db));
    hs_give(s, slot);
    free(hex);
    if (rc == 404) {
        snprintf(why, sizeof why, "no run with sha256 %s is stored (send the run first)", r->sha);
        return hs_refuse(c, r, MHD_HTTP_NOT_FOUND, why);
    }
    if (rc == 409) {
        hs_log("refused 409 from %s: the log of run %s is already stored", r->conn->ip, r->sha);
        r->logged = 1;
        return hs_stored(c, r, MHD_HTTP_CONFLICT, r->sha, "duplicate");
    }
    if (rc < 0)
        return hs_refuse(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, why);
    hs_log("stored the log of run %s from %s (%zu bytes)", r->sha, r->conn->ip, r->len);
    return hs_stored(c, r, MHD_HTTP_CREATED, r->sha, NULL);
}
