/*
 * tools/host/fleet/fleet_lava.c - `baremark fleet`: LAVA's recorded results as a
 * lab keeps them (lava-run's log stream, a server's CSV or YAML export):
 * values only, under the test-case ids of bench/figures_*.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report_util.h"

#include "fleet.h"

/* ---- LAVA's recorded results ----------------------------------------------------------- */

/* A LAVA measurement may be a number or a string ("2596142.1250000000"). */
static double fl_lava_number(json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v)) {
        char *end;
        const char *s = json_string_value(v);
        double d = strtod(s, &end);
        return end != s && *end == 0 ? d : NAN;
    }
    return NAN;
}

static void fl_lava_record(struct fleet *F, size_t m, json_t *rec)
{
    const char *id = doc_str(rec, "case", NULL), *suite = doc_str(rec, "definition", NULL);
    json_t *unit = json_object_get(rec, "units");
    if (!id)
        id = doc_str(rec, "name", NULL);
    if (!suite)
        suite = doc_str(rec, "suite", "");
    if (!unit)
        unit = json_object_get(rec, "unit");
    /* LAVA's own suite ("lava": the job, its actions) holds no figures. */
    if (!id || !strcmp(suite, "lava"))
        return;
    /* A case with a measurement is a figure whatever its result (a score
     * the run warned about, the run's status); a failed or skipped case
     * without one is none. */
    fl_add(F, m, id, NULL, json_is_string(unit) ? json_string_value(unit) : "",
           fl_lava_number(json_object_get(rec, "measurement")), NULL, 0, -1);
}

/* lava-run's log: one record a line, "- {dt: ..., lvl: results, msg: {...}}",
 * written by PyYAML in flow style.  The records of level "results" are read
 * with a small flow-mapping reader (flat keys, one nested mapping): enough
 * for what LAVA writes there, and an unreadable record is counted, not
 * guessed at. */
static const char *fl_flow_scalar(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    while (*p == ' ')
        p++;
    if (*p == '\'' || *p == '"') {
        char q = *p++;
        while (*p && !(*p == q && !(q == '\'' && p[1] == '\''))) {
            if (q == '\'' && *p == '\'')
                p++;              /* '' is one quote */
            else if (q == '"' && *p == '\\' && p[1])
                p++;
            if (n + 1 < cap)
                out[n++] = *p;
            p++;
        }
        if (*p)
            p++;
    } else {
        if (*p == '!') {              /* a tag: !!float "1.5", ! "67108864" */
            while (*p && *p != ' ')
                p++;
            return fl_flow_scalar(p, out, cap);
        }
        while (*p && *p != ',' && *p != '}' && !(*p == ':' && p[1] == ' ')) {
            if (n + 1 < cap)
                out[n++] = *p;
            p++;
        }
        while (n && out[n - 1] == ' ')
            n--;
    }
    out[n] = 0;
    return p;
}

/* Parse "{k: v, k: {k: v}}" into a jansson object (strings only). */
static const char *fl_flow_map(const char *p, json_t *obj)
{
    char key[256], val[1024];
    while (*p == ' ')
        p++;
    if (*p != '{')
        return NULL;
    p++;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '}')
            return p + 1;
        if (!*p)
            return NULL;
        p = fl_flow_scalar(p, key, sizeof key);
        while (*p == ' ')
            p++;
        if (*p != ':')
            return NULL;
        p++;
        while (*p == ' ')
            p++;
        if (*p == '{') {
            json_t *sub = json_object();
            p = fl_flow_map(p, sub);
            if (!p) {
                json_decref(sub);
                return NULL;
            }
            json_object_set_new(obj, key, sub);
        } else {
            p = fl_flow_scalar(p, val, sizeof val);
            json_object_set_new(obj, key, json_string(val));
        }
    }
}

static int fl_is_results_record(const char *line)
{
    return strstr(line, "lvl: results") || strstr(line, "\"lvl\": \"results\"") || strstr(line, "lvl: 'results'");
}

static int fl_read_lava_log(struct fleet *F, FILE *f, const char *path, size_t m)
{
    char *line = malloc(FL_LINE_MAX);
    size_t records = 0, bad = 0;
    if (!line)
        return -1;
    while (fgets(line, FL_LINE_MAX, f)) {
        if (!fl_is_results_record(line))
            continue;
        const char *p = strchr(line, '{');
        json_t *rec = json_object();
        if (p && fl_flow_map(p, rec)) {
            json_t *msg = json_object_get(rec, "msg");
            if (json_is_object(msg)) {
                fl_lava_record(F, m, msg);
                records++;
            }
        } else
            bad++;
        json_decref(rec);
    }
    free(line);
    if (bad)
        fprintf(stderr, "baremark fleet: %s: %zu results record%s not readable; skipped\n", path, bad,
                bad == 1 ? "" : "s");
    return records ? 0 : -1;
}

/* Split one CSV line (RFC 4180 quotes) in place; returns the field count. */
static size_t fl_csv_split(char *s, char **fields, size_t max)
{
    size_t n = 0;
    while (n < max) {
        char *w = s, *start = s;
        if (*s == '"') {
            s++;
            for (;;) {
                if (*s == '"' && s[1] == '"') {
                    *w++ = '"';
                    s += 2;
                } else if (*s == '"' || !*s) {
                    if (*s)
                        s++;
                    break;
                } else
                    *w++ = *s++;
            }
            while (*s && *s != ',')
                s++;
        } else {
            while (*s && *s != ',' && *s != '\n' && *s != '\r')
                s++;
            w = s;
        }
        int last = *s != ',';
        if (*s)
            s++;
        *w = 0;
        fields[n++] = start[0] == '"' ? start + 1 : start;
        if (last)
            break;
    }
    return n;
}

/* A LAVA server's results as CSV: a header naming the columns (name or
 * case, result, measurement, unit or units). */
static int fl_read_lava_csv(struct fleet *F, FILE *f, const char *path, size_t m, char *header)
{
    char *cols[64], *fields[64];
    char *hdr = strdup(header);
    size_t nc = fl_csv_split(hdr, cols, 64), records = 0;
    int ci[4] = { -1, -1, -1, -1 };   /* name, result, measurement, unit */
    for (size_t i = 0; i < nc; i++) {
        if (!strcmp(cols[i], "name") || !strcmp(cols[i], "case"))
            ci[0] = (int)i;
        else if (!strcmp(cols[i], "result"))
            ci[1] = (int)i;
        else if (!strcmp(cols[i], "measurement"))
            ci[2] = (int)i;
        else if (!strcmp(cols[i], "unit") || !strcmp(cols[i], "units"))
            ci[3] = (int)i;
    }
    if (ci[0] < 0 || ci[1] < 0 || ci[2] < 0) {
        fprintf(stderr, "baremark fleet: %s: a CSV file without name, result and measurement columns; skipped\n",
                path);
        free(hdr);
        return -1;
    }
    char *line = malloc(FL_LINE_MAX);
    while (line && fgets(line, FL_LINE_MAX, f)) {
        size_t n = fl_csv_split(line, fields, 64);
        json_t *rec = json_object();
        for (int k = 0; k < 4; k++)
            if (ci[k] >= 0 && (size_t)ci[k] < n)
                json_object_set_new(rec, (const char *[]){ "name", "result", "measurement", "units" }[k],
                                    json_string(fields[ci[k]]));
        fl_lava_record(F, m, rec);
        json_decref(rec);
        records++;
    }
    free(line);
    free(hdr);
    return records ? 0 : -1;
}

/* A LAVA server's results as YAML (lavacli results --yaml): a block list of
 * mappings, one "key: value" a line. */
static int fl_read_lava_yaml(struct fleet *F, FILE *f, size_t m, char *first)
{
    char *line = malloc(FL_LINE_MAX), key[256], val[1024];
    json_t *rec = NULL;
    size_t records = 0;
    int have = first != NULL;
    while (line && (have || fgets(line, FL_LINE_MAX, f))) {
        if (have) {
            snprintf(line, FL_LINE_MAX, "%s", first);
            have = 0;
        }
        char *p = line;
        int item = 0;
        if (*p == '-' && p[1] == ' ') {
            item = 1;
            p += 2;
        } else if (!strncmp(p, "  ", 2) && p[2] != ' ')
            p += 2;                   /* the item's own keys, not nested ones */
        else
            continue;
        if (item && rec) {
            fl_lava_record(F, m, rec);
            json_decref(rec);
            rec = NULL;
            records++;
        }
        const char *q = fl_flow_scalar(p, key, sizeof key);
        if (*q != ':' || !key[0])
            continue;
        fl_flow_scalar(q + 1, val, sizeof val);
        size_t vl = strlen(val);
        while (vl && (val[vl - 1] == '\n' || val[vl - 1] == '\r'))
            val[--vl] = 0;
        if (!rec)
            rec = json_object();
        json_object_set_new(rec, key, json_string(val));
    }
    if (rec) {
        fl_lava_record(F, m, rec);
        json_decref(rec);
        records++;
    }
    free(line);
    return records ? 0 : -1;
}

/* lava-run writes one record a line: {"dt": ..., "lvl": ..., "msg": ...}
 * (JSON, or YAML flow style "- {dt: ...}" in older versions). */
int fl_is_lava_log(const char *first)
{
    return strstr(first, "\"lvl\":") || strstr(first, "lvl: ") || !strncmp(first, "- {", 3);
}

/* Anything that is not JSON: lava-run's log, or a server's CSV or YAML. */
int fl_read_lava(struct fleet *F, const char *path, const char *machine)
{
    FILE *f = fopen(path, "r");
    char first[FL_LINE_MAX];
    int rc = -1;
    if (!f) {
        fprintf(stderr, "baremark fleet: %s: %s; skipped\n", path, strerror(errno));
        return -1;
    }
    size_t known = F->nmachines, m = fl_machine_index(F, machine);
    if (!fgets(first, sizeof first, f))
        first[0] = 0;
    if (fl_is_lava_log(first)) {
        rewind(f);
        rc = fl_read_lava_log(F, f, path, m);
    } else if (strchr(first, ',') && strstr(first, "measurement"))
        rc = fl_read_lava_csv(F, f, path, m, first);
    else if (strstr(first, ": ") || !strncmp(first, "- ", 2))
        rc = fl_read_lava_yaml(F, f, m, first);
    fclose(f);
    if (rc && m == known)
        F->nmachines--;       /* nothing read: the machine was not seen */
    if (rc) {
        fprintf(stderr, "baremark fleet: %s: neither a results JSON nor LAVA results (lava-run's log, or a "
                "server's CSV or YAML with name, result and measurement); skipped\n", path);
        return -1;
    }
    fl_machine_what(F, m, "LAVA results");
    F->machines[m].runs++;
    F->runs++;
    return 0;
}

