/*
 * tools/host/history_serve.h - `baremark history serve`: the lab's results
 * server (docs/results-server.md).  Runs arrive signed (HMAC-SHA256 of the
 * body with the lab's key) and go into the history exactly as `history
 * add` stores a file; the history's pages and a JSON API are served beside.
 *
 *   history_serve.c        options, the HTTP server (libmicrohttpd), uploads,
 *                          refusals, the deadline watchdog
 *   history_serve_pages.c  GET: the machines page, the history page, the API
 */
#ifndef BAREMARK_HISTORY_SERVE_H
#define BAREMARK_HISTORY_SERVE_H

#include <stddef.h>

#include "history.h"

/* A GET's answer: body (malloc'd, NULL: none), its type, the status. */
struct hs_answer {
    int status;
    char *body;
    size_t len;
    const char *type;
};

/* Answer GET url from db (the caller holds the store's lock). */
void hs_get(struct hdb *db, const char *url, struct hs_answer *a);
/* A JSON answer (takes v) as one line. */
struct json_t;
void hs_json_answer(struct hs_answer *a, int status, struct json_t *v);
/* A JSON answer {"error": why} with status. */
void hs_error(struct hs_answer *a, int status, const char *why);
/* Whether s is 64 lowercase hex digits. */
int hs_is_sha(const char *s, size_t n);
/* Hex text into bytes (the kept files); NULL on bad hex. */
char *hs_unhex(const char *hex, size_t *len);

int history_serve_main(int argc, char **argv);

#endif
