/*
 * tools/host/history_out.c - what the history says: `show` (each
 * machine's regressions and improvements, most certain first, with what
 * differed between the runs either side), `check` (for CI: regressions
 * beyond a threshold), exports (CSV; Bencher Metric Format JSON) and the
 * HTML page (an SVG trend plot per series, each change point marked, no
 * script, works offline).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "report_util.h"

/* ---- collecting changes -------------------------------------------------------------------- */

struct ho_list {
    struct history_change *c;
    size_t n, cap;
};

static void ho_collect(void *ctx, const struct history_change *c)
{
    struct ho_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        struct history_change *nc = realloc(l->c, cap * sizeof *nc);
        if (!nc)
            return;
        l->c = nc;
        l->cap = cap;
    }
    l->c[l->n++] = *c;
}

/* Most certain first, then the larger step, then by name (stable). */
/* p and |rel| to 6 significant digits: figures that are one another
 * scaled (a score and its two indexes) have the same p and change but for
 * the last bits, which differ between SQLite and PostgreSQL (each stores
 * and returns the points its own way); their order is then by name, the
 * same from either database. */
static double ho_key(double v)
{
    char b[32];
    snprintf(b, sizeof b, "%.6g", v);
    return strtod(b, NULL);
}

static int ho_order(const void *a, const void *b)
{
    const struct history_change *x = a, *y = b;
    int m = strcmp(x->machine, y->machine);
    if (m)
        return m;
    double px = ho_key(x->cp.p), py = ho_key(y->cp.p), rx = ho_key(fabs(x->rel)), ry = ho_key(fabs(y->rel));
    if (px != py)
        return px < py ? -1 : 1;
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return strcmp(x->figure, y->figure);
}

/* ---- show ------------------------------------------------------------------------------------ */

static void ho_num(char *b, size_t n, double v)
{
    if (isnan(v))
        snprintf(b, n, "n/a");
    else
        snprintf(b, n, "%.4g", v);
}

/* What differs between the last run before and the first run after. */
static void ho_differs(FILE *out, const struct history_change *c)
{
    static const struct { const char *what; size_t off; } fields[] = {
        { "build", offsetof(struct history_run, build) },
        { "image", offsetof(struct history_run, image) },
        { "plug-ins", offsetof(struct history_run, plugins) },
        { "settings", offsetof(struct history_run, settings) },
        { "firmware", offsetof(struct history_run, firmware) },
        { "microcode", offsetof(struct history_run, microcode) },
        { "Secure Boot", offsetof(struct history_run, secure_boot) },
    };
    int any = 0;
    fputs("      differs:", out);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *a = (const char *)&c->before + fields[i].off, *b = (const char *)&c->after + fields[i].off;
        if (strcmp(a, b)) {
            fprintf(out, "%s %s ", any ? ";" : "", fields[i].what);
            rj_term(out, a, 40);
            fputs(" -> ", out);
            rj_term(out, b, 40);
            any = 1;
        }
    }
    fputs(any ? "\n" : " nothing baremark records (the change came from elsewhere, or chance)\n", out);
}

static void ho_change(FILE *out, const struct history_change *c)
{
    char b[6][32];
    const char *what = c->regression ? "regression" : strcmp(c->kind, "info") ? "improvement" : "change";
    ho_num(b[0], 32, c->cp.before);
    ho_num(b[1], 32, c->cp.before_lo);
    ho_num(b[2], 32, c->cp.before_hi);
    ho_num(b[3], 32, c->cp.after);
    ho_num(b[4], 32, c->cp.after_lo);
    ho_num(b[5], 32, c->cp.after_hi);
    fprintf(out, "  %-11s ", what);
    rj_term(out, c->figure, 60);
    fprintf(out, " [%s]: %s (%s-%s) -> %s (%s-%s) %s, %+.1f%%, p %.2g%s\n", c->profile, b[0], b[1], b[2], b[3], b[4],
            b[5], c->unit, c->rel * 100, c->cp.p, c->cp.strong ? " (strong)" : " (weak)");
    fprintf(out, "      %zu runs before, %zu after; first run after: ", c->cp.at - c->cp.from, c->cp.to - c->cp.at);
    rj_term(out, c->after.name, 40);
    fprintf(out, " (%s), last before: ", c->after.started);
    rj_term(out, c->before.name, 40);
    fputc('\n', out);
    ho_differs(out, c);
}

static int ho_count_row(void *ctx, int n, const char *const *v)
{
    *(long *)ctx = n > 0 && v[0] ? atol(v[0]) : 0;
    return 1;
}

int history_show(struct hdb *db, const struct history_filter *f, FILE *out)
{
    struct ho_list l = { 0 };
    long runs = 0, machines = 0;
    long series = history_changes(db, f, ho_collect, NULL, &l);
    if (series < 0) {
        free(l.c);
        return -1;
    }
    hdb_exec(db, "SELECT count(*) FROM runs", 0, NULL, ho_count_row, &runs);
    hdb_exec(db, "SELECT count(*) FROM machines", 0, NULL, ho_count_row, &machines);
    qsort(l.c, l.n, sizeof *l.c, ho_order);
    fprintf(out, "==== baremark history: %ld machine%s, %ld run%s, %ld series%s%s ====\n", machines,
            machines == 1 ? "" : "s", runs, runs == 1 ? "" : "s", series, f->since ? " since " : "",
            f->since ? f->since : "");
    size_t reg = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (!i || strcmp(l.c[i].machine, l.c[i - 1].machine)) {
            fputs("machine ", out);
            rj_term(out, l.c[i].machine, 80);
            fputc('\n', out);
        }
        reg += (size_t)l.c[i].regression;
        ho_change(out, &l.c[i]);
    }
    fprintf(out, "%zu change%s (%zu regression%s); E-Divisive means, Welch p < %g, strong below %g\n", l.n,
            l.n == 1 ? "" : "s", reg, reg == 1 ? "" : "s", f->alpha, f->alpha_strong);
    free(l.c);
    return 0;
}

long history_check(struct hdb *db, const struct history_filter *f, double threshold, FILE *out)
{
    struct ho_list l = { 0 };
    long bad = 0;
    if (history_changes(db, f, ho_collect, NULL, &l) < 0) {
        free(l.c);
        return -1;
    }
    qsort(l.c, l.n, sizeof *l.c, ho_order);
    for (size_t i = 0; i < l.n; i++)
        if (l.c[i].regression && fabs(l.c[i].rel) > threshold) {
            fprintf(out, "REGRESSION on ");
            rj_term(out, l.c[i].machine, 80);
            fputc('\n', out);
            ho_change(out, &l.c[i]);
            bad++;
        }
    free(l.c);
    return bad;
}

/* ---- exports ----------------------------------------------------------------------------------- */

static const char HO_POINTS[] =
    "SELECT m.name, r.name, r.started, r.profile, f.name, f.unit, p.value, p.lo, p.hi, r.build, r.firmware"
    " FROM points p JOIN runs r ON r.id = p.run_id JOIN machines m ON m.id = r.machine_id"
    " JOIN figures f ON f.id = p.figure_id ORDER BY m.name, r.started, r.id, f.name";

static void ho_csv_field(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static int ho_csv_row(void *ctx, int n, const char *const *v)
{
    FILE *out = ctx;
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        ho_csv_field(out, v[i]);
    }
    fputc('\n', out);
    return 0;
}

int history_export_csv(struct hdb *db, FILE *out)
{
    fputs("machine,run,started,profile,figure,unit,value,lo,hi,build,firmware\n", out);
    return hdb_exec(db, HO_POINTS, 0, NULL, ho_csv_row, out);
}

static void ho_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

struct ho_bmf {
    FILE *out;
    int first;
};

/* Bencher Metric Format: {"benchmark": {"measure": {"value", "lower_value",
 * "upper_value"}}}; a figure is a benchmark, its unit the measure. */
static int ho_bmf_row(void *ctx, int n, const char *const *v)
{
    struct ho_bmf *b = ctx;
    if (n < 5 || !v[0] || !v[1] || !v[2])
        return 0;
    fputs(b->first ? "\n  " : ",\n  ", b->out);
    b->first = 0;
    ho_json_str(b->out, v[0]);
    fputs(": {", b->out);
    ho_json_str(b->out, v[1][0] ? v[1] : "value");
    fprintf(b->out, ": {\"value\": %s", v[2]);
    if (v[3] && v[4])
        fprintf(b->out, ", \"lower_value\": %s, \"upper_value\": %s", v[3], v[4]);
    fputs("}}", b->out);
    return 0;
}

static int ho_text_row(void *ctx, int n, const char *const *v)
{
    snprintf(ctx, 64, "%s", n > 0 && v[0] ? v[0] : "");
    return 1;
}

int history_export_bmf(struct hdb *db, const char *run, FILE *out)
{
    char latest[64] = "";
    struct ho_bmf b = { out, 1 };
    if (!run) {
        hdb_exec(db, "SELECT name FROM runs ORDER BY started DESC, id DESC LIMIT 1", 0, NULL, ho_text_row, latest);
        run = latest;
    }
    const char *p[1] = { run };
    fputc('{', out);
    int rc = hdb_exec(db,
                      "SELECT f.name, f.unit, p.value, p.lo, p.hi FROM points p JOIN runs r ON r.id = p.run_id"
                      " JOIN figures f ON f.id = p.figure_id WHERE r.name = $1 ORDER BY f.name",
                      1, p, ho_bmf_row, &b);
    fputs(b.first ? "}\n" : "\n}\n", out);
    return rc ? rc : b.first ? 1 : 0;
}
