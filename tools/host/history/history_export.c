/*
 * tools/host/history/history_export.c - the history's exports: every stored
 * point as CSV (`history export --csv`), and one run's figures in Bencher
 * Metric Format JSON (`history export --bmf [--run NAME]`, the latest run
 * without --run).
 */
#include <stdio.h>

#include "history.h"

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
