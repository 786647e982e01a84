/*
 * tools/host/history/history_serve_pages.h - the answers of `baremark history
 * serve` (history_serve_pages.c): GET's pages and API, JSON answers, the
 * hex of the kept files.
 */
#ifndef BAREMARK_HISTORY_SERVE_PAGES_H
#define BAREMARK_HISTORY_SERVE_PAGES_H

#include <stddef.h>

#include "history.h"

/* A GET's answer: body (malloc'd, NULL: none), its type, the status. */
struct hs_answer {
    int status;
    char *body;
    size_t len;
    const char *type;
};

/* Answer GET url from db (a store connection the caller alone uses). */
void hs_get(struct hdb *db, const char *url, struct hs_answer *a);
/* A JSON answer (takes v) as one line. */
struct json_t;
void hs_json_answer(struct hs_answer *a, int status, struct json_t *v);
/* A JSON answer {"error": why} with status. */
void hs_error(struct hs_answer *a, int status, const char *why);
/* Whether s is 64 lowercase hex digits. */
int hs_is_sha(const char *s, size_t n);
/* Bytes into hex text and back (the kept files); NULL: no memory, bad hex. */
char *hs_unhex(const char *hex, size_t *len);

#endif
