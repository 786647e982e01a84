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
 * A figure a table names (bench/results/figures.h) is written through its row,
 * json_fig_u64(w, &figures_clock, CLOCK_CHOSEN_KHZ, khz): the name comes
 * from the row's path, never from the writer.  A writer with a checker
 * (json_check) knows where it is in the document and asks the checker
 * about each number before it is written: the image's results document
 * refuses, with a warning, a number no row declares, a figure written
 * under a name of its own where a row names it, and a row written
 * anywhere but at its path (bench/results/figures_write.c).
 */
#ifndef BAREMARK_JSON_H
#define BAREMARK_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 32
#define JSON_PATH_MAX  192

struct figure;
struct figure_table;

/* What a checker is asked about. */
enum json_check_what {
    JSON_CHECK_NUMBER,      /* a number (plain: row NULL; through a row: that row) */
    JSON_CHECK_NULL,        /* a plain null: wrong only where a row names the place */
    JSON_CHECK_CONTAINER,   /* an object or array opened: return 1 when every number below it
                             * is declared by one row as a whole, and need not be asked about */
};
typedef int (*json_check_fn)(void *ctx, const char *path, const struct figure_table *t,
                             const struct figure *row, int what /* json_check_what */);

struct json_writer {
    char *buf;       /* plat_alloc'd; grows */
    size_t len, cap;
    int depth;
    int count[JSON_MAX_DEPTH]; /* members written at each depth */
    int failed;      /* set when memory ran out: output is incomplete */
    /* With a checker only: the path of what is being written, from the
     * document's root ("clock.references[2].khz"); at[d] its length at
     * depth d (the open container's path); covered[d]: the checker said
     * every number below depth d is declared. */
    json_check_fn check;
    void *check_ctx;
    char path[JSON_PATH_MAX];
    unsigned short at[JSON_MAX_DEPTH + 1];
    unsigned char covered[JSON_MAX_DEPTH + 1];
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
/* Append already-formatted JSON text as a member (e.g. a sub-document).
 * The checker is not asked about what it holds. */
void json_raw(struct json_writer *w, const char *key, const char *text, size_t n);

/* A figure through row `id` of table t: the member's name is the row
 * path's last segment ("references[*].khz" -> "khz"; a path ending in
 * "[*]" is an array element, no name). */
void json_fig_u64(struct json_writer *w, const struct figure_table *t, unsigned id, uint64_t value);
void json_fig_i64(struct json_writer *w, const struct figure_table *t, unsigned id, int64_t value);
void json_fig_double(struct json_writer *w, const struct figure_table *t, unsigned id, double value);
void json_fig_null(struct json_writer *w, const struct figure_table *t, unsigned id);
/* A number already formatted ("1444.612": no binary fraction's digits). */
void json_fig_raw(struct json_writer *w, const struct figure_table *t, unsigned id, const char *text, size_t n);
/* Where the same code writes a row's place and places a "*" row declares
 * whole (a latency row's ns_median, a TLB chase's): through row id of t,
 * or, t NULL, plainly under key. */
void json_fig_or_double(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key,
                        double value);
void json_fig_or_null(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key);
/* Its name, as the row gives it: the tail of the row's path (NULL for an
 * array element). */
const char *json_fig_key(const struct figure_table *t, unsigned id);

/* Attach a checker: asked from the next member on (with the path from
 * the document's root as the writer has seen it). */
void json_check(struct json_writer *w, json_check_fn fn, void *ctx);

#endif
