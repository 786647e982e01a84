/*
 * bench/results/figures_write.c - writing a figure through its row (see
 * figures.h json_fig_*): the member's name is the last segment of the
 * row's path, never typed again by the writer, and the value is written
 * by the plain JSON writer (json.h), which knows nothing of figures.
 */
#include <string.h>

#include "figures.h"
#include "json.h"

const char *json_fig_key(const struct figure_table *t, unsigned id)
{
    const char *path = id < t->n ? t->rows[id].path : "";
    size_t n = strlen(path);
    if (n && path[n - 1] == ']')
        return NULL;                    /* "latency.median_ns[*][*]": an element */
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

void json_fig_u64(struct json_writer *w, const struct figure_table *t, unsigned id, uint64_t value)
{
    json_u64(w, json_fig_key(t, id), value);
}

void json_fig_i64(struct json_writer *w, const struct figure_table *t, unsigned id, int64_t value)
{
    json_i64(w, json_fig_key(t, id), value);
}

void json_fig_double(struct json_writer *w, const struct figure_table *t, unsigned id, double value)
{
    json_double(w, json_fig_key(t, id), value);
}

void json_fig_null(struct json_writer *w, const struct figure_table *t, unsigned id)
{
    json_null(w, json_fig_key(t, id));
}

void json_fig_raw(struct json_writer *w, const struct figure_table *t, unsigned id, const char *text, size_t n)
{
    json_raw(w, json_fig_key(t, id), text, n);
}

void json_fig_or_double(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key,
                        double value)
{
    json_double(w, t ? json_fig_key(t, id) : key, value);
}

void json_fig_or_null(struct json_writer *w, const struct figure_table *t, unsigned id, const char *key)
{
    json_null(w, t ? json_fig_key(t, id) : key);
}
