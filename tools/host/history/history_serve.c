/*
 * tools/host/history/history_serve.c - `baremark history serve --listen ADDR:PORT
 * --db URL --key-file FILE [--max-bytes N] [--timeout S]`: the results
 * server of the upload protocol (docs/results-server.md).
 *
 *   POST /api/runs          a run's JSON, signed: X-Baremark-Signature:
 *                           sha256=HEX, HEX the HMAC-SHA256 of the body with
 *                           the key file's bytes.  201 stored, 409 already
 *                           stored; 401 no or bad signature, 413 over
 *                           --max-bytes, 400 truncated or not JSON, 422 not
 *                           a valid results file, 408 too slow.
 *   POST /api/runs/SHA/log  the run's log, signed the same way (404: no
 *                           such run; 409: its log is stored already)
 *   GET  /, /history, /api/runs, /api/runs/SHA, /api/runs/SHA/log,
 *        /api/changes       history_serve_pages.c
 *
 * libmicrohttpd runs a thread per connection, so uploads arrive at the same
 * time; each checks its run alone and stores it through a connection of
 * its own from a small pool (hs_take), the store queueing the writers.  A refusal answers before anything is written,
 * and writes one line on stderr.  A request has --timeout seconds from
 * its connection's start (or its previous request's end) to arrive: MHD's
 * idle timeout cuts a client that sends nothing; the handler answers 408 a
 * request whose headers or last byte come late, and drops one that is
 * still sending its body; a watchdog drops what the handler never sees (a
 * client that sends its headers a byte at a time).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <microhttpd.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "history_serve_internal.h"

#define HS_MAX_BYTES     (8u << 20)   /* the default body limit */
#define HS_TIMEOUT_S     10
#define HS_GRACE_MS      2000         /* the watchdog acts this long after the deadline */
#define HS_CONNECTIONS   256

static double hs_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- the handler ----------------------------------------------------------------------- */

/* A POST's first call: what it is, and the refusals its headers decide. */
static enum MHD_Result hs_post_start(struct hs_server *s, struct MHD_Connection *c, struct hs_req *r, const char *url)
{
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    char why[200];
    size_t n = strlen(url);
    if (!strcmp(url, "/api/runs") || !strcmp(url, "/api/runs/"))
        r->kind = HS_RUN;
    else if (n == 10 + 64 + 4 && !strncmp(url, "/api/runs/", 10) && hs_is_sha(url + 10, 64) &&
             !strcmp(url + 74, "/log")) {
        r->kind = HS_LOG;
        memcpy(r->sha, url + 10, 64);
    } else {
        r->kind = HS_EARLY;
        return hs_refuse(c, r, MHD_HTTP_NOT_FOUND, "no such place to post (POST /api/runs, /api/runs/SHA/log)");
    }
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(cl, &end, 10);
        if (end == cl || *end || errno) {
            r->kind = HS_EARLY;
            return hs_refuse(c, r, MHD_HTTP_BAD_REQUEST, "bad Content-Length");
        }
        if (v > s->max_bytes) {
            snprintf(why, sizeof why, "body of %llu bytes is over the limit of %zu (--max-bytes)", v, s->max_bytes);
            r->kind = HS_EARLY;
            return hs_refuse(c, r, 413, why);
        }
        r->has_length = 1;
        r->expect = (size_t)v;
    }
    if (!MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Baremark-Signature")) {
        r->kind = HS_EARLY;
        return hs_refuse(c, r, MHD_HTTP_UNAUTHORIZED, "no signature (X-Baremark-Signature: sha256=HEX)");
    }
    r->cap = r->has_length ? r->expect + 1 : 65536;
    r->body = malloc(r->cap);
    if (!r->body) {
        r->kind = HS_EARLY;
        return hs_refuse(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    return MHD_YES;
}

static int hs_append(struct hs_server *s, struct hs_req *r, const char *data, size_t n)
{
    if (r->oversize || r->len + n > s->max_bytes) {
        r->oversize = 1;            /* discarded: answered 413 at the end */
        return 0;
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap * 2 > r->len + n + 1 ? r->cap * 2 : r->len + n + 1;
        char *b = realloc(r->body, cap);
        if (!b)
            return -1;
        r->body = b;
        r->cap = cap;
    }
    memcpy(r->body + r->len, data, n);
    r->len += n;
    r->body[r->len] = 0;
    return 0;
}

static enum MHD_Result hs_handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *data, size_t *data_size, void **req_cls)
{
    struct hs_server *s = cls;
    struct hs_req *r = *req_cls;
    char why[300];
    (void)version;
    if (!r) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        if (!(r = calloc(1, sizeof *r)))
            return MHD_NO;
        r->conn = ci ? ci->socket_context : NULL;
        *req_cls = r;
        if (!r->conn)
            return MHD_NO;
        if (hs_now() > r->conn->started + s->timeout) {
            r->kind = HS_EARLY;
            snprintf(why, sizeof why, "the request's headers took over %u s (--timeout)", s->timeout);
            return hs_refuse(c, r, MHD_HTTP_REQUEST_TIMEOUT, why);
        }
        if (!strcmp(method, MHD_HTTP_METHOD_POST))
            return hs_post_start(s, c, r, url);
        r->kind = HS_GET;
        __atomic_store_n(&r->conn->answering, 1, __ATOMIC_RELEASE);     /* all of it has arrived: the deadline is met */
        if (strcmp(method, MHD_HTTP_METHOD_GET))
            return hs_refuse(c, r, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and POST are served");
        return MHD_YES;
    }
    if (r->kind == HS_EARLY) {      /* answered already; whatever else comes is not read */
        *data_size = 0;
        return MHD_YES;
    }
    if (r->kind == HS_GET) {
        if (*data_size) {
            *data_size = 0;
            return MHD_YES;
        }
        struct hs_answer a = { 0 };
        int slot;
        struct hdb *db = hs_take(s, &slot, why, sizeof why);
        if (!db)
            return hs_refuse(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, why);
        hs_get(db, url, &a);
        hs_give(s, slot);
        return hs_send(c, r, &a);
    }
    if (hs_now() > r->conn->started + s->timeout) {
        if (*data_size) {           /* still sending: no answer can be queued now */
            hs_log("refused 408 from %s: sent %zu of %zu bytes in %u s (--timeout); connection dropped",
                   r->conn->ip, r->len, r->expect, s->timeout);
            r->logged = 1;
            return MHD_NO;
        }
        r->kind = HS_EARLY;
        r->finished = 1;
        snprintf(why, sizeof why, "the request took over %u s (--timeout)", s->timeout);
        return hs_refuse(c, r, MHD_HTTP_REQUEST_TIMEOUT, why);
    }
    if (*data_size) {
        if (hs_append(s, r, data, *data_size))
            return MHD_NO;
        *data_size = 0;
        return MHD_YES;
    }
    r->finished = 1;
    __atomic_store_n(&r->conn->answering, 1, __ATOMIC_RELEASE);         /* all of it has arrived: waiting for the store is not the client's delay */
    if (r->oversize) {
        snprintf(why, sizeof why, "body grew over the limit of %zu bytes (--max-bytes)", s->max_bytes);
        return hs_refuse(c, r, 413, why);
    }
    const char *bad = hs_check_sig(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Baremark-Signature"),
                                   r->body ? r->body : "", r->len);
    if (bad)
        return hs_refuse(c, r, MHD_HTTP_UNAUTHORIZED, bad);
    return r->kind == HS_RUN ? hs_store_run(s, c, r) : hs_store_log(s, c, r);
}

/* A request ended: what the handler did not see (a client that closed or
 * went quiet mid-body) gets its log line here. */
static void hs_completed(void *cls, struct MHD_Connection *c, void **req_cls, enum MHD_RequestTerminationCode toe)
{
    struct hs_server *s = cls;
    struct hs_req *r = *req_cls;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct hs_conn *conn = ci ? ci->socket_context : NULL;
    if (r && !r->logged && (r->kind == HS_RUN || r->kind == HS_LOG) && !r->finished && !(conn && __atomic_load_n(&conn->dropped, __ATOMIC_ACQUIRE))) {
        if (toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED)
            hs_log("refused 408 from %s: sent %zu of %zu bytes, then nothing for %u s (--timeout); connection "
                   "dropped", conn ? conn->ip : "?", r->len, r->expect, s->timeout);
        else
            hs_log("refused 400 from %s: truncated body (%zu of %zu bytes): the client closed the connection",
                   conn ? conn->ip : "?", r->len, r->expect);
    }
    if (conn) {
        pthread_mutex_lock(&s->conn_lock);
        conn->started = hs_now();       /* the next request's clock */
        __atomic_store_n(&conn->answering, 0, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&s->conn_lock);
    }
    if (r) {
        free(r->body);
        free(r);
    }
    *req_cls = NULL;
}

static void hs_connection(void *cls, struct MHD_Connection *c, void **sock_ctx, enum MHD_ConnectionNotificationCode code)
{
    struct hs_server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct hs_conn *conn = calloc(1, sizeof *conn);
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *addr = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (!conn)
            return;
        conn->fd = fd ? fd->connect_fd : -1;
        conn->started = hs_now();
        snprintf(conn->ip, sizeof conn->ip, "?");
        if (addr && addr->client_addr) {
            const struct sockaddr *sa = addr->client_addr;
            if (sa->sa_family == AF_INET)
                inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, conn->ip, sizeof conn->ip);
            else if (sa->sa_family == AF_INET6)
                inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, conn->ip,
                          sizeof conn->ip);
        }
        pthread_mutex_lock(&s->conn_lock);
        conn->next = s->conns;
        if (s->conns)
            s->conns->prev = conn;
        s->conns = conn;
        pthread_mutex_unlock(&s->conn_lock);
        *sock_ctx = conn;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *sock_ctx) {
        struct hs_conn *conn = *sock_ctx;
        pthread_mutex_lock(&s->conn_lock);
        if (conn->prev)
            conn->prev->next = conn->next;
        else
            s->conns = conn->next;
        if (conn->next)
            conn->next->prev = conn->prev;
        pthread_mutex_unlock(&s->conn_lock);
        free(conn);
        *sock_ctx = NULL;
    }
}

/* Cuts the connections whose request has run past its deadline without the
 * handler seeing it (headers sent a byte at a time): shutdown() makes MHD's
 * read end, and MHD closes the connection. */
static void *hs_watchdog(void *arg)
{
    struct hs_server *s = arg;
    while (!s->stop) {
        usleep(200 * 1000);
        double now = hs_now();
        pthread_mutex_lock(&s->conn_lock);
        for (struct hs_conn *c = s->conns; c; c = c->next)
            if (!c->dropped && !__atomic_load_n(&c->answering, __ATOMIC_ACQUIRE) && c->fd >= 0 && now > c->started + s->timeout + HS_GRACE_MS / 1000.0) {
                __atomic_store_n(&c->dropped, 1, __ATOMIC_RELEASE);
                hs_log("refused 408 from %s: its request did not arrive within %u s (--timeout); connection dropped",
                       c->ip, s->timeout);
                shutdown(c->fd, SHUT_RDWR);
            }
        pthread_mutex_unlock(&s->conn_lock);
    }
    return NULL;
}

/* ---- options --------------------------------------------------------------------------------- */

static const char hs_usage[] =
    "usage: baremark history serve --listen ADDR:PORT --key-file FILE [--db DB] [--max-bytes N] [--timeout S]\n"
    "                              [--tls-cert FILE --tls-key FILE]\n"
    "  --listen ADDR:PORT  where to listen (127.0.0.1:8750; [::1]:8750; port 0: any free port)\n"
    "  --key-file FILE     the lab's shared secret (1-128 printable ASCII characters; a final newline is\n"
    "                      not part of it): uploads are signed with HMAC-SHA256 of their body by it\n"
    "  --db DB             a SQLite file (default $BAREMARK_HISTORY, else baremark-history.db; made when\n"
    "                      missing) or a PostgreSQL connection string\n"
    "  --max-bytes N       the largest body taken (default 8388608)\n"
    "  --timeout S         seconds a request may take to arrive (default 10)\n"
    "  --tls-cert FILE     serve HTTPS with this PEM certificate (chain) and --tls-key's PEM private key\n"
    "exit status: 0 stopped by SIGINT or SIGTERM; 1 the store or the socket failed; 2 usage or a bad key file\n";

static int hs_bad(const char *why, const char *what)
{
    fprintf(stderr, "baremark history serve: %s%s%s (baremark history serve --help)\n", what ? what : "",
            what ? ": " : "", why);
    return 2;
}

int history_serve_main(int argc, char **argv)
{
    static struct hs_server s;      /* the threads' shared state; one server a process */
    const char *listen = NULL, *keyfile = NULL, *db = getenv("BAREMARK_HISTORY");
    const char *tls_cert = NULL, *tls_key = NULL;
    struct sockaddr_storage ss;
    int v6 = 0;
    if (!db || !db[0])
        db = "baremark-history.db";
    s.max_bytes = HS_MAX_BYTES;
    s.timeout = HS_TIMEOUT_S;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs("baremark history serve: the lab's results server (docs/results-server.md)\n", stdout);
            fputs(hs_usage, stdout);
            return 0;
        }
        if (!v || (strcmp(a, "--listen") && strcmp(a, "--key-file") && strcmp(a, "--db") && strcmp(a, "--max-bytes") &&
                   strcmp(a, "--timeout") && strcmp(a, "--tls-cert") && strcmp(a, "--tls-key")))
            return hs_bad(v ? "unknown option" : "unknown option or a missing value", a);
        i++;
        if (!strcmp(a, "--listen"))
            listen = v;
        else if (!strcmp(a, "--key-file"))
            keyfile = v;
        else if (!strcmp(a, "--db"))
            db = v;
        else if (!strcmp(a, "--tls-cert"))
            tls_cert = v;
        else if (!strcmp(a, "--tls-key"))
            tls_key = v;
        else if (!strcmp(a, "--max-bytes")) {
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || end == v || n < 1 || n > (1ull << 31))
                return hs_bad("wants a number of bytes from 1 to 2147483648", a);
            s.max_bytes = (size_t)n;
        } else {
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 3600)
                return hs_bad("wants whole seconds from 1 to 3600", a);
            s.timeout = (unsigned)n;
        }
    }
    if (!listen || !keyfile)
        return hs_bad("--listen ADDR:PORT and --key-file FILE are needed", NULL);
    if (hs_listen_addr(listen, &ss, &v6))
        return hs_bad("wants ADDR:PORT, e.g. 127.0.0.1:8750 or [::1]:8750", "--listen");
    if (!tls_cert != !tls_key)
        return hs_bad("HTTPS needs both --tls-cert FILE and --tls-key FILE", tls_cert ? "--tls-cert" : "--tls-key");
    int rc = hs_read_key(keyfile, s.key, &s.keylen);
    if (rc)
        return rc;
    char *cert_pem = tls_cert ? hs_read_pem("--tls-cert", tls_cert) : NULL;
    char *key_pem = cert_pem ? hs_read_pem("--tls-key", tls_key) : NULL;
    if (tls_cert && (!cert_pem || !key_pem)) {
        free(cert_pem);
        free(key_pem);
        return 2;
    }
    struct MHD_OptionItem tls_opts[] = {
        { cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, cert_pem },
        { MHD_OPTION_HTTPS_MEM_KEY, 0, key_pem },
        { MHD_OPTION_END, 0, NULL },
    };
    char err[600];
    s.target = db;
    if (!(s.pool[0] = hdb_open(db, err, sizeof err))) {     /* the store, made or migrated now */
        fprintf(stderr, "baremark history serve: %s\n", err);
        return 1;
    }
    pthread_mutex_init(&s.pool_lock, NULL);
    pthread_cond_init(&s.pool_free, NULL);
    pthread_mutex_init(&s.conn_lock, NULL);

    /* SIGINT and SIGTERM are waited for by this thread alone */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | (v6 ? MHD_USE_IPv6 : 0) |
            (cert_pem ? MHD_USE_TLS : 0),
        0, NULL, NULL, hs_handler, &s,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_CONNECTION_TIMEOUT, s.timeout,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)HS_CONNECTIONS,
        MHD_OPTION_NOTIFY_COMPLETED, hs_completed, &s,
        MHD_OPTION_NOTIFY_CONNECTION, hs_connection, &s,
        MHD_OPTION_ARRAY, tls_opts,
        MHD_OPTION_END);
    if (!d) {
        if (cert_pem)
            fprintf(stderr, "baremark history serve: --listen %s with --tls-cert %s --tls-key %s: cannot start "
                    "(the address is in use, or the certificate and key do not match or cannot be read by GnuTLS)\n",
                    listen, tls_cert, tls_key);
        else
            fprintf(stderr, "baremark history serve: --listen %s: cannot listen there (%s)\n", listen,
                    errno ? strerror(errno) : "in use, or not an address of this machine");
        hdb_close(s.pool[0]);
        return 1;
    }
    const union MHD_DaemonInfo *pi = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = pi ? pi->port : 0;
    char host[128];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen, ':') - listen), listen);
    hs_log("listening on http%s://%s:%u/ (%s %s, key %s, at most %zu bytes a body, %u s a request)",
           cert_pem ? "s" : "", host, port,
           hdb_kind(s.pool[0]), db, keyfile, s.max_bytes, s.timeout);
    pthread_t wd;
    pthread_create(&wd, NULL, hs_watchdog, &s);
    int sig = 0;
    sigwait(&sigs, &sig);
    hs_log("stopping (%s)", sig == SIGINT ? "SIGINT" : "SIGTERM");
    s.stop = 1;
    pthread_join(wd, NULL);
    MHD_stop_daemon(d);
    for (int i = 0; i < HS_POOL; i++)
        hdb_close(s.pool[i]);
    free(cert_pem);
    free(key_pem);
    return 0;
}
