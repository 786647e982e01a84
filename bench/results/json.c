/*
 * bench/results/json.c - streaming JSON writer (see json.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "platform.h"

#define JSON_INITIAL_CAP 4096

static void json_put(struct json_writer *w, const char *s, size_t n)
{
    if (w->failed)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : JSON_INITIAL_CAP;
        while (w->len + n + 1 > cap)
            cap *= 2;
        char *nb = plat_alloc(cap);
        if (!nb) {
            w->failed = 1;
            return;
        }
        if (w->buf) {
            memcpy(nb, w->buf, w->len);
            plat_free(w->buf);
        }
        w->buf = nb;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

static void json_puts(struct json_writer *w, const char *s) { json_put(w, s, strlen(s)); }

static void json_string(struct json_writer *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    json_put(w, "\"", 1);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            json_put(w, e, 2);
        } else if (c == '\n') {
            json_put(w, "\\n", 2);
        } else if (c == '\r') {
            json_put(w, "\\r", 2);
        } else if (c == '\t') {
            json_put(w, "\\t", 2);
        } else if (c < 0x20 || c >= 0x7f) {
            /* Non-ASCII bytes are escaped as code points U+0080..U+00FF so
             * the document is valid UTF-8 whatever the firmware gave us. */
            char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            json_put(w, e, 6);
        } else {
            json_put(w, (const char *)&c, 1);
        }
    }
    json_put(w, "\"", 1);
}

/* Comma and key before a member. */
static void json_member(struct json_writer *w, const char *key)
{
    if (w->depth > 0 && w->depth <= JSON_MAX_DEPTH && w->count[w->depth - 1]++ > 0)
        json_put(w, ",", 1);
    if (key) {
        json_string(w, key);
        json_put(w, ":", 1);
    }
}

void json_init(struct json_writer *w) { memset(w, 0, sizeof *w); }

void json_free(struct json_writer *w)
{
    plat_free(w->buf);
    memset(w, 0, sizeof *w);
}

static void json_open(struct json_writer *w, const char *key, const char *bracket)
{
    json_member(w, key);
    json_puts(w, bracket);
    if (w->depth < JSON_MAX_DEPTH)
        w->count[w->depth] = 0;
    else
        w->failed = 1; /* deeper than the writer counts members: its commas would be wrong */
    w->depth++;
}

static void json_close(struct json_writer *w, const char *bracket)
{
    if (w->depth > 0)
        w->depth--;
    json_puts(w, bracket);
}

void json_obj_begin(struct json_writer *w, const char *key) { json_open(w, key, "{"); }
void json_obj_end(struct json_writer *w) { json_close(w, "}"); }
void json_arr_begin(struct json_writer *w, const char *key) { json_open(w, key, "["); }
void json_arr_end(struct json_writer *w) { json_close(w, "]"); }

void json_str(struct json_writer *w, const char *key, const char *value)
{
    json_member(w, key);
    if (value)
        json_string(w, value);
    else
        json_puts(w, "null");
}

/* A number's text. */
static void json_put_i64(struct json_writer *w, int64_t value)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)value);
    json_puts(w, num);
}

static void json_put_u64(struct json_writer *w, uint64_t value)
{
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)value);
    json_puts(w, num);
}

static void json_put_double(struct json_writer *w, double value)
{
    char num[40];
    if (!isfinite(value)) {
        json_puts(w, "null");
        return;
    }
    /* 17 significant digits round-trip every double. */
    snprintf(num, sizeof num, "%.17g", value);
    json_puts(w, num);
}

void json_i64(struct json_writer *w, const char *key, int64_t value)
{
    json_member(w, key);
    json_put_i64(w, value);
}

void json_u64(struct json_writer *w, const char *key, uint64_t value)
{
    json_member(w, key);
    json_put_u64(w, value);
}

void json_double(struct json_writer *w, const char *key, double value)
{
    json_member(w, key);
    json_put_double(w, value);
}

void json_bool(struct json_writer *w, const char *key, int value)
{
    json_member(w, key);
    json_puts(w, value ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
    json_member(w, key);
    json_puts(w, "null");
}

void json_raw(struct json_writer *w, const char *key, const char *text, size_t n)
{
    json_member(w, key);
    json_put(w, text, n);
}
