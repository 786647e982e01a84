/*
 * bench/results/json.h - a small streaming JSON writer into a caller-owned,
 * growable buffer.  Portable; used by the image and the host program alike.
 *
 * Usage: json_obj_begin(w, "clock"); json_u64(w, "khz", 1000000);
 *        json_arr_begin(w, "windows"); json_double(w, NULL, 1.5); ...
 *        json_arr_end(w); json_obj_end(w);
 * A key of NULL means "array element".  Strings are escaped.  Non-finite
 * doubles are written as null.
 *
 * It knows nothing of what the numbers are: the figure tables' writers
 * (bench/results/figures.h json_fig_*) name a figure through its row and
 * write it with these.
 */
#ifndef BAREMARK_JSON_H
#define BAREMARK_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
    char *buf;       /* plat_alloc'd; grows */
    size_t len, cap;
    int depth;
    int count[JSON_MAX_DEPTH]; /* members written at each depth */
    int failed;      /* set when memory ran out or nesting passed JSON_MAX_DEPTH: output is incomplete */
};

void json_init(struct json_writer *w);
void json_free(struct json_writer *w);
void json_obj_begin(struct json_writer *w, const char *key);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w, const char *key);
void json_arr_end(struct json_writer *w);
void json_str(struct json_writer *w, const char *key, const char *value);
void json_i64(struct json_writer *w, const char *key, int64_t value);
void json_u64(struct json_writer *w, const char *key, uint64_t value);
void json_double(struct json_writer *w, const char *key, double value);
void json_bool(struct json_writer *w, const char *key, int value);
void json_null(struct json_writer *w, const char *key);
/* Append already-formatted JSON text as a member (e.g. a sub-document,
 * a number formatted by the caller). */
void json_raw(struct json_writer *w, const char *key, const char *text, size_t n);

#endif
