/*
 * bench/report/report_tables.c - the report's generic tables: any object as key/value
 * rows, any list of objects as a table, so that nothing a run wrote is
 * hidden (report_parts.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

int rp_is_scalar(json_t *v) { return !json_is_object(v) && !json_is_array(v); }

int rp_array_of_objects(json_t *v)
{
    return json_is_array(v) && json_array_size(v) > 0 && json_is_object(json_array_get(v, 0));
}

/* One value in a cell: numbers formatted, short arrays inline, long ones counted. */
void rp_cell_value(FILE *f, json_t *v)
{
    char b[48];
    if (json_is_number(v))
        fputs(num_text(b, sizeof b, json_number_value(v)), f);
    else if (json_is_string(v))
        html_put(f, json_string_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", f);
    else if (json_is_null(v))
        fputs("-", f);
    else if (json_is_array(v) && json_array_size(v) <= REPORT_INLINE_MAX && !rp_array_of_objects(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (i)
                fputs(", ", f);
            rp_cell_value(f, e);
        }
    } else if (json_is_array(v))
        fprintf(f, "%zu values", json_array_size(v));
    else
        fputs("{...}", f);
}

void rp_td(FILE *f, json_t *v)
{
    fputs(json_is_number(v) ? "<td class=\"n\">" : "<td>", f);
    rp_cell_value(f, v);
    fputs("</td>", f);
}

/* Key/value rows of an object's scalar members (and, prefixed, those of its
 * small nested objects); lists of objects are left to list_table. */
static void kv_rows(FILE *f, json_t *obj, const char *prefix, const char *skip)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (rp_array_of_objects(v) || (skip && !strcmp(k, skip)))
            continue;
        if (json_is_object(v)) {
            char p[128];
            snprintf(p, sizeof p, "%s%s.", prefix, k);
            kv_rows(f, v, p, NULL);
            continue;
        }
        fputs("<tr><th>", f);
        html_put(f, prefix);
        html_put(f, k);
        fputs("</th>", f);
        rp_td(f, v);
        fputs("</tr>", f);
    }
}

/* How many rows kv_rows would write. */
size_t rp_kv_count(json_t *obj)
{
    const char *k;
    json_t *v;
    size_t n = 0;
    json_object_foreach(obj, k, v)
        n += json_is_object(v) ? rp_kv_count(v) : !rp_array_of_objects(v);
    return n;
}

void rp_kv_table_skip(FILE *f, json_t *obj, const char *skip)
{
    if (!json_is_object(obj) || rp_kv_count(obj) == 0)
        return;
    fputs("<table>", f);
    kv_rows(f, obj, "", skip);
    fputs("</table>", f);
}

void rp_kv_table(FILE *f, json_t *obj) { rp_kv_table_skip(f, obj, NULL); }

/* A table of a list of objects: the union of their members as columns. */
void rp_list_table(FILE *f, json_t *arr)
{
    json_t *cols = json_array(), *el;
    size_t i, j;
    json_array_foreach(arr, i, el) {
        const char *k;
        json_t *v;
        json_object_foreach(el, k, v) {
            int have = 0;
            for (j = 0; j < json_array_size(cols); j++)
                have |= !strcmp(json_string_value(json_array_get(cols, j)), k);
            if (!have && !json_is_object(v) && !rp_array_of_objects(v))
                json_array_append_new(cols, json_string(k));
        }
    }
    fputs("<table><tr>", f);
    for (j = 0; j < json_array_size(cols); j++) {
        fputs("<th>", f);
        html_put(f, json_string_value(json_array_get(cols, j)));
        fputs("</th>", f);
    }
    fputs("</tr>", f);
    json_array_foreach(arr, i, el) {
        fputs("<tr>", f);
        for (j = 0; j < json_array_size(cols); j++) {
            json_t *v = json_object_get(el, json_string_value(json_array_get(cols, j)));
            if (v)
                rp_td(f, v);
            else
                fputs("<td></td>", f);
        }
        fputs("</tr>", f);
    }
    fputs("</table>", f);
    json_decref(cols);
}

/* Everything of an object: its scalars, then each list as a table. */
void rp_generic_object(FILE *f, json_t *obj, const char *skip)
{
    const char *k;
    json_t *v;
    rp_kv_table_skip(f, obj, skip);
    json_object_foreach(obj, k, v) {
        if (!rp_array_of_objects(v) || (skip && !strcmp(k, skip)))
            continue;
        fputs("<h4>", f);
        html_put(f, k);
        fputs("</h4>", f);
        rp_list_table(f, v);
    }
}

int rp_section_missing(FILE *f, json_t *sec)
{
    if (sec)
        return 0;
    fputs("<p class=\"none\">not run (the section is not in this results file)</p>", f);
    return 1;
}
