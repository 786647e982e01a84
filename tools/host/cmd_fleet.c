/*
 * tools/host/cmd_fleet.c - `baremark fleet [--csv|--html] [--threshold PCT]
 * [-o FILE] DIR|FILE...`: many machines' runs read together, one table per
 * figure.
 *
 * A figure is what a LAVA lab tracks: one test-case id of bench/lava.h
 * (clock_hpet_khz, method_rdtsc_overhead_ns, bytemark_numsort, ...).  The
 * runs come as
 *   - results JSON (docs/results-schema.md), from sticks, tools/baremark-results
 *     or the hosted program: the figures are computed from the sections with
 *     the same ids the image prints on serial, and the raw samples are kept
 *     where the file has them (method overheads, measurements' net time per
 *     iteration, BYTEmark runs);
 *   - LAVA's recorded results: lava-run's log stream (records with
 *     `lvl: results`), or a LAVA server's results exported as CSV or YAML
 *     (a list with name, result, measurement, unit): values only.
 *
 * In a DIR, *.json, *.yaml, *.yml and *.csv are read, and a *.log that is
 * lava-run's (a run's own text log beside its JSON is not a results file).
 * A run's machine is the folder it sits in below a DIR argument
 * (DIR/MACHINE/...); a file directly in DIR, or given by name, is a machine
 * of its own, named after the file without its extension, unless that name
 * is only a run's date and time (YYYYMMDD-HHMMSS.json, as on a stick): then
 * the folder holding it names the machine.  Per figure and
 * machine: the median of that machine's runs; per figure: the fleet median
 * (of the machines' values), the spread (median absolute deviation, and
 * the range), and the machines more than the threshold (5% unless
 * --threshold) away from the fleet median, each with Mann-Whitney's
 * two-sided p of its raw samples against all the other machines' raw
 * samples where both have some (stats/).
 *
 * A file that cannot be read or is not a run is named on standard error
 * and skipped; the others are still read (exit status 2 then, 0 otherwise).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "lava.h"
#include "report_util.h"
#include "stats/stats.h"

#define FL_DEFAULT_THRESHOLD 5.0   /* percent of the fleet median */
#define FL_NAME_MAX 128
#define FL_UNIT_MAX 32
#define FL_LINE_MAX 8192

enum fl_format { FL_TEXT, FL_CSV, FL_HTML };
/* Which way is better for a figure, from its unit. */
enum fl_sense { FL_NEUTRAL, FL_LOWER_FASTER, FL_HIGHER_FASTER };

struct fl_machine {
    char name[FL_NAME_MAX];
    char what[FL_NAME_MAX];   /* CPU brand, or "LAVA results" */
    size_t runs;
};

/* One machine's runs of one figure. */
struct fl_cell {
    size_t machine;
    double *vals;
    size_t nv, capv;
    double *samples;
    size_t ns, caps;
    double value;             /* median of vals */
    double dev;               /* (value - fleet median) / |fleet median|, NAN when the median is 0 */
    int beyond;
    double mw_p;              /* NAN when not computed */
    size_t rest_n;            /* the other machines' samples it was tested against */
};

struct fl_figure {
    char id[LAVA_ID_MAX + 1];
    char unit[FL_UNIT_MAX];
    struct fl_cell *cells;
    size_t n, cap;
    double median, mad, lo, hi;
    size_t beyond;
};

struct fleet {
    struct fl_machine *machines;
    size_t nmachines, capmachines;
    struct fl_figure *figs;
    size_t nfigs, capfigs;
    size_t files_read, files_skipped, runs;
    double threshold;         /* fraction */
};

/* ---- growing arrays ------------------------------------------------------------ */

static void *fl_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        fprintf(stderr, "baremark fleet: out of memory\n");
        exit(2);
    }
    *cap = c;
    return q;
}

static size_t fl_machine_index(struct fleet *F, const char *name)
{
    for (size_t i = 0; i < F->nmachines; i++)
        if (!strcmp(F->machines[i].name, name))
            return i;
    F->machines = fl_grow(F->machines, &F->capmachines, F->nmachines + 1, sizeof *F->machines);
    struct fl_machine *m = &F->machines[F->nmachines];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    return F->nmachines++;
}

static struct fl_figure *fl_figure(struct fleet *F, const char *id, const char *unit)
{
    char clean[LAVA_ID_MAX + 1];
    lava_id(clean, sizeof clean, id);
    for (size_t i = 0; i < F->nfigs; i++)
        if (!strcmp(F->figs[i].id, clean))
            return &F->figs[i];
    F->figs = fl_grow(F->figs, &F->capfigs, F->nfigs + 1, sizeof *F->figs);
    struct fl_figure *g = &F->figs[F->nfigs++];
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", clean);
    snprintf(g->unit, sizeof g->unit, "%s", unit ? unit : "");
    return g;
}

static struct fl_cell *fl_cell(struct fl_figure *g, size_t machine)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->cells[i].machine == machine)
            return &g->cells[i];
    g->cells = fl_grow(g->cells, &g->cap, g->n + 1, sizeof *g->cells);
    struct fl_cell *c = &g->cells[g->n++];
    memset(c, 0, sizeof *c);
    c->machine = machine;
    return c;
}

/* One run's value of a figure, with its raw samples when it has them
 * (samples may be NULL).  Non-finite values are not figures. */
static void fl_add(struct fleet *F, size_t machine, const char *id, const char *unit, double value,
                   const double *samples, size_t ns)
{
    if (!isfinite(value))
        return;
    struct fl_figure *g = fl_figure(F, id, unit);
    if (!g->unit[0] && unit)
        snprintf(g->unit, sizeof g->unit, "%s", unit);
    struct fl_cell *c = fl_cell(g, machine);
    c->vals = fl_grow(c->vals, &c->capv, c->nv + 1, sizeof *c->vals);
    c->vals[c->nv++] = value;
    if (samples && ns) {
        c->samples = fl_grow(c->samples, &c->caps, c->ns + ns, sizeof *c->samples);
        memcpy(c->samples + c->ns, samples, ns * sizeof *samples);
        c->ns += ns;
    }
}

/* ---- results JSON ------------------------------------------------------------------ */

static double fl_khz(json_t *root)
{
    double k = rj_num(json_object_get(root, "clock"), "chosen_khz", NAN);
    if (!(k > 0))
        k = rj_num(json_object_get(root, "methods"), "tick_hz", NAN) / 1000;
    if (!(k > 0))
        k = rj_num(json_object_get(root, "bytemark"), "tick_hz", NAN) / 1000;
    return k > 0 ? k : NAN;
}

static void fl_json_clock(struct fleet *F, size_t m, json_t *clock)
{
    char id[LAVA_ID_MAX * 2];
    size_t i;
    json_t *r;
    if (!json_is_object(clock))
        return;
    json_array_foreach(rj_clock_refs(clock), i, r) {
        const char *name = rj_str(r, "name", NULL);
        if (!name)
            continue;
        snprintf(id, sizeof id, "clock_%s_khz", name);
        fl_add(F, m, id, "kHz", rj_num(r, "khz", NAN), NULL, 0);
        snprintf(id, sizeof id, "clock_%s_ppm", name);
        fl_add(F, m, id, "ppm", rj_num(r, "ppm", NAN), NULL, 0);
    }
    fl_add(F, m, "clock_tsc_khz", "kHz", rj_num(clock, "chosen_khz", NAN), NULL, 0);
    fl_add(F, m, "clock_agreement", "ppm", rj_num(json_object_get(clock, "agreement"), "max_measured_ppm", NAN),
           NULL, 0);
}

static void fl_scale(double *x, size_t n, double f)
{
    for (size_t i = 0; i < n; i++)
        x[i] *= f;
}

static void fl_json_methods(struct fleet *F, size_t m, json_t *methods, double khz)
{
    char id[LAVA_ID_MAX * 2];
    size_t i;
    json_t *e;
    if (!json_is_object(methods))
        return;
    /* ns with the rate the section timed with (the image rounds the clock's
     * kHz to whole Hz), as its own _ns members are */
    if (rj_num(methods, "tick_hz", 0) > 0)
        khz = rj_num(methods, "tick_hz", 0) / 1000;
    json_array_foreach(rj_methods_list(methods), i, e) {
        const char *name = rj_name(e, NULL);
        json_t *ov = json_object_get(e, "overhead");
        double *s;
        if (!name || !json_is_object(ov))
            continue;
        size_t n = rj_numbers(json_object_get(ov, "samples"), &s);
        snprintf(id, sizeof id, "method_%s_overhead_ticks", name);
        fl_add(F, m, id, "ticks", rj_num(ov, "median", NAN), s, n);
        snprintf(id, sizeof id, "method_%s_overhead_ns", name);
        fl_scale(s, n, 1e6 / khz);
        if (!isnan(khz))
            fl_add(F, m, id, "ns", rj_num(json_object_get(e, "overhead_ns"), "median", NAN), s, n);
        free(s);
    }
    json_array_foreach(json_object_get(methods, "measurements"), i, e) {
        const char *target = rj_str(e, "target", NULL), *method = rj_str(e, "method", NULL);
        json_t *net = json_object_get(e, "net");
        double pm = rj_num(e, "placeholder_median", NAN), iters = rj_num(e, "iterations", NAN), *s;
        if (!target || !method || !json_is_object(net))
            continue;
        size_t n = rj_numbers(json_object_get(e, "samples"), &s);
        if (isnan(pm) || !(iters > 0))
            n = 0;
        /* net sample = (timing - placeholder median) / N, as `net` summarises */
        for (size_t k = 0; k < n; k++)
            s[k] = (s[k] - pm) / iters;
        snprintf(id, sizeof id, "meas_%s_%s_ticks", target, method);
        fl_add(F, m, id, "ticks/iter", rj_num(net, "median", NAN), s, n);
        if (!isnan(khz)) {
            fl_scale(s, n, 1e6 / khz);
            snprintf(id, sizeof id, "meas_%s_%s_ns", target, method);
            fl_add(F, m, id, "ns/iter", rj_num(net, "median", NAN) * 1e6 / khz, s, n);
        }
        free(s);
    }
}

static void fl_json_comparisons(struct fleet *F, size_t m, json_t *cmp)
{
    char id[LAVA_ID_MAX * 2];
    size_t i;
    json_t *e;
    json_array_foreach(rj_comparisons_list(cmp), i, e) {
        const char *name = rj_str(e, "name", NULL);
        if (!name)
            continue;
        snprintf(id, sizeof id, "compare_%s", name);
        fl_add(F, m, id, "%", rj_num(e, "rel_median", NAN) * 100, NULL, 0);
    }
}

static void fl_json_bytemark(struct fleet *F, size_t m, json_t *bm)
{
    static const char *const overall[] = { "original_integer", "original_fp", "linux_memory", "linux_integer",
                                           "linux_fp", NULL };
    char id[LAVA_ID_MAX * 2];
    size_t i;
    json_t *e;
    if (!json_is_object(bm))
        return;
    json_array_foreach(rj_bytemark_tests(bm), i, e) {
        const char *key = rj_str(e, "key", NULL);
        double *s;
        if (!key || strcmp(rj_str(e, "status", "ok"), "ok"))
            continue;
        size_t n = rj_run_scores(e, &s);
        snprintf(id, sizeof id, "bytemark_%s", key);
        fl_add(F, m, id, rj_str(e, "unit", "score"), rj_num(e, "mean", NAN), s, n);
        free(s);
        snprintf(id, sizeof id, "bytemark_%s_old_index", key);
        fl_add(F, m, id, "index", rj_num(e, "old_index", NAN), NULL, 0);
        snprintf(id, sizeof id, "bytemark_%s_new_index", key);
        fl_add(F, m, id, "index", rj_num(e, "new_index", NAN), NULL, 0);
    }
    /* An overall index none of whose tests ran is an empty product (1):
     * no figure, as the image's LAVA lines skip it. */
    static const char *const groups[] = { "numsort emfloat idea huffman strsort bitfield assign",
                                          "fourier nnet lu", "strsort bitfield assign",
                                          "numsort emfloat idea huffman", "fourier nnet lu" };
    json_t *ix = json_object_get(bm, "indexes");
    for (size_t g = 0; overall[g]; g++) {
        int any = 0;
        json_array_foreach(rj_bytemark_tests(bm), i, e) {
            const char *key = rj_str(e, "key", NULL);
            char word[24];
            snprintf(word, sizeof word, " %s ", key ? key : "?");
            char list[96];
            snprintf(list, sizeof list, " %s ", groups[g]);
            any |= key && !strcmp(rj_str(e, "status", ""), "ok") && strstr(list, word) != NULL;
        }
        snprintf(id, sizeof id, "bytemark_%s", overall[g]);
        if (any)
            fl_add(F, m, id, "index", rj_num(ix, overall[g], NAN), NULL, 0);
    }
}

static void fl_machine_what(struct fleet *F, size_t m, const char *what)
{
    if (!F->machines[m].what[0] && what)
        snprintf(F->machines[m].what, sizeof F->machines[m].what, "%s", what);
}

static int fl_read_json(struct fleet *F, const char *path, const char *machine)
{
    char err[512];
    json_t *root = rj_load(path, err, sizeof err);
    if (!root) {
        fprintf(stderr, "baremark fleet: %s; skipped\n", err);
        return -1;
    }
    if (!json_is_integer(json_object_get(root, "schema"))) {
        fprintf(stderr, "baremark fleet: %s: not a baremark results file (no \"schema\"); skipped\n", path);
        json_decref(root);
        return -1;
    }
    size_t m = fl_machine_index(F, machine);
    const char *brand = rj_str(json_object_get(root, "system"), "cpu_brand", NULL);
    if (!brand)
        brand = rj_str(json_object_get(root, "host"), "cpu_brand", NULL);
    fl_machine_what(F, m, brand);
    F->machines[m].runs++;
    F->runs++;
    double khz = fl_khz(root);
    fl_json_clock(F, m, json_object_get(root, "clock"));
    fl_json_methods(F, m, json_object_get(root, "methods"), khz);
    fl_json_comparisons(F, m, json_object_get(root, "comparisons"));
    fl_json_bytemark(F, m, json_object_get(root, "bytemark"));
    fl_add(F, m, "run_status", "status", rj_num(root, "status", NAN), NULL, 0);
    json_decref(root);
    return 0;
}

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
    const char *id = rj_str(rec, "case", NULL), *suite = rj_str(rec, "definition", NULL);
    json_t *unit = json_object_get(rec, "units");
    if (!id)
        id = rj_str(rec, "name", NULL);
    if (!suite)
        suite = rj_str(rec, "suite", "");
    if (!unit)
        unit = json_object_get(rec, "unit");
    /* LAVA's own suite ("lava": the job, its actions) holds no figures. */
    if (!id || !strcmp(suite, "lava"))
        return;
    /* A case with a measurement is a figure whatever its result (a score
     * the run warned about, the run's status); a failed or skipped case
     * without one is none. */
    fl_add(F, m, id, json_is_string(unit) ? json_string_value(unit) : "",
           fl_lava_number(json_object_get(rec, "measurement")), NULL, 0);
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
static int fl_is_lava_log(const char *first)
{
    return strstr(first, "\"lvl\":") || strstr(first, "lvl: ") || !strncmp(first, "- {", 3);
}

/* Anything that is not JSON: lava-run's log, or a server's CSV or YAML. */
static int fl_read_lava(struct fleet *F, const char *path, const char *machine)
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

/* ---- files and folders ------------------------------------------------------------------ */

/* A run's date-time name (YYYYMMDD-HHMMSS, maybe -N): it names no machine. */
static int fl_run_name(const char *stem)
{
    size_t i;
    for (i = 0; i < 15; i++)
        if (i == 8 ? stem[i] != '-' : (stem[i] < '0' || stem[i] > '9'))
            return 0;
    return stem[15] == 0 || stem[15] == '-';
}

/* The machine of a file given by name or lying directly in a DIR argument:
 * its name without extension, or the folder it is in when the name is only
 * a run's date and time. */
static void fl_stem(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, cap, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
    if (!fl_run_name(out))
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        if (!getcwd(dir, sizeof dir))
            return;
    } else
        *slash = 0;
    while ((slash = strrchr(dir, '/')) && !slash[1])
        *slash = 0;          /* "a/b/" */
    slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    size_t k = strlen(name);
    if (!k)
        return;
    if (k >= cap)
        k = cap - 1;
    memcpy(out, name, k);
    out[k] = 0;
}

static int fl_has_ext(const char *name, const char *const *exts)
{
    const char *dot = strrchr(name, '.');
    for (; dot && *exts; exts++)
        if (!strcmp(dot + 1, *exts))
            return 1;
    return 0;
}

static int fl_read_file(struct fleet *F, const char *path, const char *machine)
{
    FILE *f = fopen(path, "r");
    char first[512] = "";
    int rc;
    if (!f) {
        fprintf(stderr, "baremark fleet: %s: %s; skipped\n", path, strerror(errno));
        F->files_skipped++;
        return -1;
    }
    if (!fgets(first, sizeof first, f))
        first[0] = 0;
    fclose(f);
    const char *p = first + strspn(first, " \t\r\n");
    if (*p == '{' && !fl_is_lava_log(first))
        rc = fl_read_json(F, path, machine);
    else
        rc = fl_read_lava(F, path, machine);
    if (rc)
        F->files_skipped++;
    else
        F->files_read++;
    return rc;
}

static int fl_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every results file below dir (sorted, so the order is the same each time);
 * machine is the first folder below the top, or NULL at the top. */
/* A .log in a folder is read when it is lava-run's; the text log a run
 * writes next to its JSON (NAME.log) is not a results file. */
static int fl_lava_log_file(const char *path)
{
    char first[512] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;                /* named and skipped by fl_read_file */
    if (!fgets(first, sizeof first, f))
        first[0] = 0;
    fclose(f);
    return fl_is_lava_log(first);
}

static void fl_walk(struct fleet *F, const char *dir, const char *machine)
{
    static const char *const exts[] = { "json", "yaml", "yml", "csv", NULL };
    static const char *const logs[] = { "log", NULL };
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (!d) {
        fprintf(stderr, "baremark fleet: %s: %s; skipped\n", dir, strerror(errno));
        F->files_skipped++;
        return;
    }
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        names = fl_grow(names, &cap, n + 1, sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, fl_cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[4096], stem[FL_NAME_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            fl_walk(F, path, machine ? machine : names[i]);
        else if (fl_has_ext(names[i], exts) || (fl_has_ext(names[i], logs) && fl_lava_log_file(path))) {
            fl_stem(names[i], stem, sizeof stem);
            fl_read_file(F, path, machine ? machine : stem);
        }
        free(names[i]);
    }
    free(names);
}

/* ---- the tables' figures ------------------------------------------------------------------ */

static double fl_median(const double *x, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s), m;
    memcpy(s, x, n * sizeof *s);
    stats_sort_double(s, n);
    m = stats_percentile_sorted_double(s, n, 50);
    free(s);
    return m;
}

static enum fl_sense fl_sense(const char *unit)
{
    size_t n = strlen(unit);
    if (!strcmp(unit, "ticks") || !strcmp(unit, "ns") || !strcmp(unit, "ticks/iter") || !strcmp(unit, "ns/iter"))
        return FL_LOWER_FASTER;
    if (!strcmp(unit, "index") || (n > 2 && !strcmp(unit + n - 2, "/s")))
        return FL_HIGHER_FASTER;
    return FL_NEUTRAL;
}

static const char *fl_way(const struct fl_figure *g, double dev)
{
    enum fl_sense s = fl_sense(g->unit);
    if (s == FL_NEUTRAL)
        return dev > 0 ? "higher" : "lower";
    return (dev > 0) == (s == FL_LOWER_FASTER) ? "slower" : "faster";
}

/* The fleet whose cells qsort is ordering by machine name. */
static const struct fleet *fl_sorting;

static int fl_cmp_cell(const void *a, const void *b)
{
    const struct fleet *F = fl_sorting;
    return strcmp(F->machines[((const struct fl_cell *)a)->machine].name,
                  F->machines[((const struct fl_cell *)b)->machine].name);
}

/* Mann-Whitney of one machine's samples against the other machines'. */
static void fl_mann_whitney(struct fl_figure *g, struct fl_cell *c)
{
    size_t rest = 0;
    c->mw_p = NAN;
    for (size_t i = 0; i < g->n; i++)
        if (&g->cells[i] != c)
            rest += g->cells[i].ns;
    c->rest_n = rest;
    if (c->ns < 2 || rest < 2)
        return;
    double *a = malloc(c->ns * sizeof *a), *b = malloc(rest * sizeof *b), u, z;
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    memcpy(a, c->samples, c->ns * sizeof *a);
    rest = 0;
    for (size_t i = 0; i < g->n; i++)
        if (&g->cells[i] != c) {
            memcpy(b + rest, g->cells[i].samples, g->cells[i].ns * sizeof *b);
            rest += g->cells[i].ns;
        }
    stats_sort_double(a, c->ns);
    stats_sort_double(b, rest);
    stats_mann_whitney_sorted_double(a, c->ns, b, rest, 1, &u, &z, &c->mw_p);
    free(a);
    free(b);
}

static void fl_analyse(struct fleet *F)
{
    for (size_t k = 0; k < F->nfigs; k++) {
        struct fl_figure *g = &F->figs[k];
        double *v = malloc((g->n ? g->n : 1) * sizeof *v);
        fl_sorting = F;
        qsort(g->cells, g->n, sizeof *g->cells, fl_cmp_cell);
        g->lo = INFINITY;
        g->hi = -INFINITY;
        for (size_t i = 0; i < g->n; i++) {
            struct fl_cell *c = &g->cells[i];
            c->value = fl_median(c->vals, c->nv);
            v[i] = c->value;
            g->lo = fmin(g->lo, c->value);
            g->hi = fmax(g->hi, c->value);
        }
        stats_sort_double(v, g->n);
        g->median = stats_percentile_sorted_double(v, g->n, 50);
        g->mad = stats_mad_sorted_double(v, g->n);
        free(v);
        g->beyond = 0;
        for (size_t i = 0; i < g->n; i++) {
            struct fl_cell *c = &g->cells[i];
            c->dev = g->median != 0 ? (c->value - g->median) / fabs(g->median) : NAN;
            /* With a median of 0 a relative threshold means nothing: any
             * machine not at 0 stands out (a run status, a zero net time). */
            c->beyond = g->median != 0 ? fabs(c->dev) > F->threshold : c->value != 0;
            g->beyond += (size_t)c->beyond;
            fl_mann_whitney(g, c);
        }
    }
}

/* ---- output ------------------------------------------------------------------------ */

/* A figure's value: ten significant digits (a TSC kHz keeps its decimals,
 * unlike the report's rounding), "-" for none. */
static const char *fl_num(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.10g", v);
    return buf;
}

static const char *fl_pct(char *buf, size_t n, double dev)
{
    if (isnan(dev))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%+.2f%%", dev * 100);
    return buf;
}

static const char *fl_p(char *buf, size_t n, double p)
{
    if (isnan(p))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.3g", p);
    return buf;
}

static void fl_text_beyond(FILE *f, const struct fleet *F, const struct fl_figure *g)
{
    char b[3][48];
    if (g->median == 0)
        fputs("  not 0 (the fleet median is 0, so no relative threshold): ", f);
    else
        fprintf(f, "  beyond %g%% of the fleet median: ", F->threshold * 100);
    if (!g->beyond) {
        fputs("none\n", f);
        return;
    }
    int first = 1;
    for (size_t i = 0; i < g->n; i++) {
        const struct fl_cell *c = &g->cells[i];
        if (!c->beyond)
            continue;
        fprintf(f, "%s%s (%s, %s", first ? "" : "; ", F->machines[c->machine].name,
                g->median == 0 ? fl_num(b[0], 48, c->value) : fl_pct(b[0], 48, c->dev), fl_way(g, c->value - g->median));
        if (!isnan(c->mw_p))
            fprintf(f, ", Mann-Whitney p %s on %zu against %zu samples", fl_p(b[1], 48, c->mw_p), c->ns,
                    c->rest_n);
        fputc(')', f);
        first = 0;
    }
    fputc('\n', f);
}

static void fl_text(FILE *f, const struct fleet *F)
{
    char b[4][48];
    fprintf(f, "baremark fleet: %zu machine%s, %zu run%s from %zu file%s; threshold %g%% of the fleet median\n",
            F->nmachines, F->nmachines == 1 ? "" : "s", F->runs, F->runs == 1 ? "" : "s", F->files_read,
            F->files_read == 1 ? "" : "s", F->threshold * 100);
    for (size_t i = 0; i < F->nmachines; i++)
        fprintf(f, "  %-24s %3zu run%s  %s\n", F->machines[i].name, F->machines[i].runs,
                F->machines[i].runs == 1 ? " " : "s", F->machines[i].what);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        fprintf(f, "\n%s (%s): %zu machine%s, fleet median %s, spread (MAD) %s", g->id, g->unit, g->n,
                g->n == 1 ? "" : "s", fl_num(b[0], 48, g->median), fl_num(b[1], 48, g->mad));
        if (g->median != 0)
            fprintf(f, " (%.3g%%)", 100 * g->mad / fabs(g->median));
        fprintf(f, ", range %s .. %s\n", fl_num(b[2], 48, g->lo), fl_num(b[3], 48, g->hi));
        fprintf(f, "  %-24s %4s %16s %10s %8s %10s  %s\n", "MACHINE", "RUNS", "VALUE", "VS MEDIAN", "SAMPLES",
                "MW P", "");
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            fprintf(f, "  %-24.24s %4zu %16s %10s %8zu %10s  %s\n", F->machines[c->machine].name, c->nv,
                    fl_num(b[0], 48, c->value), fl_pct(b[1], 48, c->dev), c->ns, fl_p(b[2], 48, c->mw_p),
                    c->beyond ? fl_way(g, c->value - g->median) : "");
        }
        fl_text_beyond(f, F, g);
    }
}

static void fl_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else
        fputs(s, f);
}

static void fl_csv(FILE *f, const struct fleet *F)
{
    char b[4][48];
    fputs("figure,unit,machine,runs,value,fleet_median,fleet_mad,deviation_pct,beyond,direction,samples,"
          "mann_whitney_p\n", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            fl_csv_field(f, g->id);
            fputc(',', f);
            fl_csv_field(f, g->unit);
            fputc(',', f);
            fl_csv_field(f, F->machines[c->machine].name);
            fprintf(f, ",%zu,%.15g,%.15g,%.15g,", c->nv, c->value, g->median, g->mad);
            if (isnan(c->dev))
                fputs(",", f);
            else
                fprintf(f, "%.6f,", c->dev * 100);
            fprintf(f, "%s,%s,%zu,%s\n", c->beyond ? "yes" : "no", c->value == g->median ? "" : fl_way(g, c->value - g->median),
                    c->ns, isnan(c->mw_p) ? "" : (snprintf(b[0], 48, "%.6g", c->mw_p), b[0]));
        }
    }
}

/* The report's look (tools/host/cmd_report.c). */
static const char fl_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1120px;color:#1d2330;padding:0 16px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #c9d3e3;padding-bottom:3px;margin-top:30px}"
    "h3{font-size:15px;margin:18px 0 6px}"
    "table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d6dbe4;padding:2px 8px;text-align:left;vertical-align:top}"
    "th{background:#eef2f8;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".none{color:#778;font-style:italic}.faster{color:#176b2c;font-weight:600}.slower{color:#a31515;font-weight:600}"
    ".higher,.lower{color:#9a6200;font-weight:600}tr.beyond td{background:#fff4e5}"
    "svg .axis{stroke:#556;stroke-width:1}svg .lbl{font-size:11px;fill:#334}svg .band{fill:#c6dbef;fill-opacity:.6}"
    "svg .med{stroke:#1d2330;stroke-width:1.5}svg .m{fill:#4c78a8}svg .m.out{fill:#a31515}"
    "footer{margin-top:30px;color:#778;font-size:12px}";

#define FL_SVG_W 520
#define FL_SVG_H 46
#define FL_SVG_PAD 40

/* Each machine's value as a dot on the figure's scale, the fleet median a
 * line and the threshold a band around it. */
static void fl_svg(FILE *f, const struct fleet *F, const struct fl_figure *g)
{
    char b[2][48];
    double lo = g->lo, hi = g->hi, band = fabs(g->median) * F->threshold;
    if (g->median != 0) {
        lo = fmin(lo, g->median - band);
        hi = fmax(hi, g->median + band);
    }
    double span = hi > lo ? hi - lo : 1;
#define FLX(v) (FL_SVG_PAD + (FL_SVG_W - 2 * FL_SVG_PAD) * ((v) - lo) / span)
    fprintf(f, "<svg class=\"fleet\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" data-n=\"%zu\" "
            "data-beyond=\"%zu\">", FL_SVG_W, FL_SVG_H, g->n, g->beyond);
    if (g->median != 0)
        fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"22\"><title>within %g%% of the "
                "fleet median</title></rect>", FLX(g->median - band), FLX(g->median + band) - FLX(g->median - band),
                F->threshold * 100);
    fprintf(f, "<line class=\"med\" x1=\"%.1f\" y1=\"2\" x2=\"%.1f\" y2=\"28\"/>", FLX(g->median), FLX(g->median));
    for (size_t i = 0; i < g->n; i++) {
        const struct fl_cell *c = &g->cells[i];
        fprintf(f, "<circle class=\"m%s\" cx=\"%.1f\" cy=\"15\" r=\"3.5\"><title>", c->beyond ? " out" : "",
                FLX(c->value));
        rj_html(f, F->machines[c->machine].name);
        fprintf(f, ": %s</title></circle>", fl_num(b[0], 48, c->value));
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"30\" x2=\"%d\" y2=\"30\"/>", FL_SVG_PAD, FL_SVG_W - FL_SVG_PAD);
    fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"43\">%s</text>", FL_SVG_PAD, fl_num(b[0], 48, lo));
    fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"43\" text-anchor=\"end\">%s</text></svg>", FL_SVG_W - FL_SVG_PAD,
            fl_num(b[1], 48, hi));
#undef FLX
}

static void fl_html(FILE *f, const struct fleet *F)
{
    char b[4][48];
    fprintf(f, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>baremark fleet</title>"
            "<style>%s</style></head><body><h1>baremark fleet</h1>", fl_css);
    fprintf(f, "<p>%zu machines, %zu runs from %zu files. A machine is beyond when its value (the median of its "
            "runs) is more than %g%% away from the fleet median (the median of the machines' values); "
            "Mann-Whitney's two-sided p compares its raw samples with all the other machines' raw samples, "
            "where the files have them.</p>", F->nmachines, F->runs, F->files_read, F->threshold * 100);
    fputs("<h2>Machines</h2><table id=\"machines\"><tr><th>machine</th><th>runs</th><th>what</th></tr>", f);
    for (size_t i = 0; i < F->nmachines; i++) {
        fputs("<tr><td>", f);
        rj_html(f, F->machines[i].name);
        fprintf(f, "</td><td class=\"n\">%zu</td><td>", F->machines[i].runs);
        rj_html(f, F->machines[i].what);
        fputs("</td></tr>", f);
    }
    fputs("</table><h2>Figures</h2><table id=\"figures\"><tr><th>figure</th><th>unit</th><th>machines</th>"
          "<th>fleet median</th><th>spread (MAD)</th><th>beyond</th></tr>", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        fprintf(f, "<tr%s><td><a href=\"#%s\">%s</a></td><td>", g->beyond ? " class=\"beyond\"" : "", g->id, g->id);
        rj_html(f, g->unit);
        fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%zu</td></tr>",
                g->n, fl_num(b[0], 48, g->median), fl_num(b[1], 48, g->mad), g->beyond);
    }
    fputs("</table>", f);
    for (size_t k = 0; k < F->nfigs; k++) {
        const struct fl_figure *g = &F->figs[k];
        fprintf(f, "<section class=\"figure\" id=\"%s\" data-beyond=\"%zu\"><h3>%s (", g->id, g->beyond, g->id);
        rj_html(f, g->unit);
        fprintf(f, ")</h3><p>fleet median %s, spread (MAD) %s, range %s .. %s</p>", fl_num(b[0], 48, g->median),
                fl_num(b[1], 48, g->mad), fl_num(b[2], 48, g->lo), fl_num(b[3], 48, g->hi));
        fl_svg(f, F, g);
        fputs("<table><tr><th>machine</th><th>runs</th><th>value</th><th>vs median</th><th>samples</th>"
              "<th>Mann-Whitney p</th><th></th></tr>", f);
        for (size_t i = 0; i < g->n; i++) {
            const struct fl_cell *c = &g->cells[i];
            const char *way = c->beyond ? fl_way(g, c->value - g->median) : "";
            fprintf(f, "<tr%s><td>", c->beyond ? " class=\"beyond\"" : "");
            rj_html(f, F->machines[c->machine].name);
            fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%zu</td>"
                    "<td class=\"n\">%s</td><td class=\"%s\">%s</td></tr>", c->nv, fl_num(b[0], 48, c->value),
                    fl_pct(b[1], 48, c->dev), c->ns, fl_p(b[2], 48, c->mw_p), way, way);
        }
        fputs("</table></section>", f);
    }
    fputs("<footer>made by baremark fleet (tools/baremark-fleet)</footer></body></html>\n", f);
}

/* ---- the command ---------------------------------------------------------------------- */

int cmd_fleet(int argc, char **argv)
{
    static const char usage[] =
        "usage: baremark fleet [--csv|--html] [--threshold PCT] [-o FILE] DIR|FILE...\n";
    struct fleet F = { .threshold = FL_DEFAULT_THRESHOLD / 100 };
    enum fl_format fmt = FL_TEXT;
    const char *out = NULL;
    int ninputs = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv"))
            fmt = FL_CSV;
        else if (!strcmp(argv[i], "--html"))
            fmt = FL_HTML;
        else if (!strcmp(argv[i], "--text"))
            fmt = FL_TEXT;
        else if (!strcmp(argv[i], "--threshold") && i + 1 < argc) {
            char *end;
            double t = strtod(argv[++i], &end);
            if (*end || !(t > 0) || t >= 1000) {
                fprintf(stderr, "baremark fleet: --threshold wants a percentage above 0, e.g. 5\n");
                return 2;
            }
            F.threshold = t / 100;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) {
            fputs(usage, stderr);
            return 2;
        } else
            ninputs++;
    }
    if (!ninputs) {
        fputs(usage, stderr);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        char stem[FL_NAME_MAX];
        if (!strcmp(argv[i], "--threshold") || !strcmp(argv[i], "-o")) {
            i++;
            continue;
        }
        if (argv[i][0] == '-')
            continue;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "baremark fleet: %s: %s; skipped\n", argv[i], strerror(errno));
            F.files_skipped++;
        } else if (S_ISDIR(st.st_mode))
            fl_walk(&F, argv[i], NULL);
        else {
            fl_stem(argv[i], stem, sizeof stem);
            fl_read_file(&F, argv[i], stem);
        }
    }
    if (!F.runs) {
        fprintf(stderr, "baremark fleet: no runs were read\n");
        return 2;
    }
    fl_analyse(&F);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "baremark fleet: %s: %s\n", out, strerror(errno));
        return 2;
    }
    if (fmt == FL_CSV)
        fl_csv(f, &F);
    else if (fmt == FL_HTML)
        fl_html(f, &F);
    else
        fl_text(f, &F);
    if (out && fclose(f) != 0) {
        fprintf(stderr, "baremark fleet: %s: could not write\n", out);
        return 2;
    }
    if (F.files_skipped)
        fprintf(stderr, "baremark fleet: %zu file%s skipped (named above)\n", F.files_skipped,
                F.files_skipped == 1 ? "" : "s");
    for (size_t k = 0; k < F.nfigs; k++) {
        for (size_t i = 0; i < F.figs[k].n; i++) {
            free(F.figs[k].cells[i].vals);
            free(F.figs[k].cells[i].samples);
        }
        free(F.figs[k].cells);
    }
    free(F.figs);
    free(F.machines);
    return F.files_skipped ? 2 : 0;
}
