/*
 * tools/host/history/history_serve_internal.h - what the results server's
 * two files share: the server, connection and request records, the log
 * line, the answers and the store's side (history_serve_store.c) that the
 * routing (history_serve.c) calls.
 */
#ifndef BAREMARK_HISTORY_SERVE_INTERNAL_H
#define BAREMARK_HISTORY_SERVE_INTERNAL_H

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>

#include <microhttpd.h>

#include "history.h"
#include "history_serve.h"
#include "history_serve_opts.h"
#include "history_serve_pages.h"

#define HS_POOL          8            /* connections to the store */

struct hs_conn;

struct hs_server {
    const char *target;                 /* --db */
    struct hdb *pool[HS_POOL];          /* opened as needed, each used by one thread at a time */
    int busy[HS_POOL];
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_free;
    unsigned char key[HS_KEY_MAX + 1];
    size_t keylen;
    size_t max_bytes;
    unsigned timeout;
    pthread_mutex_t conn_lock;          /* the list of open connections */
    struct hs_conn *conns;
    volatile int stop;
};

/* One connection (MHD's socket context). */
struct hs_conn {
    struct hs_conn *next, *prev;
    int fd;
    double started;             /* the current request's clock starts here */
    /* shared with the watchdog's thread (atomic loads and stores): */
    int answering;              /* the request has arrived: the deadline no longer applies */
    int dropped;                /* the watchdog cut it (and logged it) */
    char ip[INET6_ADDRSTRLEN];
};

enum hs_kind { HS_GET, HS_RUN, HS_LOG, HS_EARLY };

/* One request (MHD's request context). */
struct hs_req {
    enum hs_kind kind;
    struct hs_conn *conn;
    char sha[65];               /* HS_LOG: the run's */
    char *body;
    size_t len, cap, expect;    /* expect: Content-Length (0: none given) */
    int has_length, oversize, finished, logged;
};

/* One line on stderr, whole, after "baremark history serve: ". */
void hs_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* history_serve_store.c: answers, signatures, the store's connections. */
enum MHD_Result hs_send(struct MHD_Connection *c, struct hs_req *r, struct hs_answer *a);
enum MHD_Result hs_refuse(struct MHD_Connection *c, struct hs_req *r, int status, const char *why);
const char *hs_check_sig(const struct hs_server *s, const char *sig, const void *body, size_t len);
struct hdb *hs_take(struct hs_server *s, int *slot, char *err, size_t errcap);
void hs_give(struct hs_server *s, int slot);
enum MHD_Result hs_store_run(struct hs_server *s, struct MHD_Connection *c, struct hs_req *r);
enum MHD_Result hs_store_log(struct hs_server *s, struct MHD_Connection *c, struct hs_req *r);

#endif
