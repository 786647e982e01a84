/*
 * tools/host/cmd_report.c - `baremark report RUN.json [-o FILE.html]`: one
 * self-contained HTML page of a run (inline CSS and SVG, no script, no
 * network): the machine and build, the clock's references with their ppm,
 * each method's overhead with a histogram, each A/B comparison with Karsh's
 * raw-sample strip, overlaid histograms and the verdict, each BYTEmark
 * kernel's score with its 95% interval, and the indexes.
 *
 * Sections are read tolerantly (docs/results-schema.md): a missing section
 * says "not run", members the report does not know are shown in plain
 * tables, so nothing the image wrote is hidden.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report_parts.h"
#include "report_schema.h"
#include "report_util.h"
#include "validate.h"

static const char report_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1120px;color:#1d2330;padding:0 16px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #c9d3e3;padding-bottom:3px;margin-top:30px}"
    "h3{font-size:15px;margin:18px 0 6px}h4{font-size:13px;margin:10px 0 4px;color:#445}"
    "table{border-collapse:collapse;margin:6px 0 10px;max-width:100%}"
    "td,th{border:1px solid #d6dbe4;padding:2px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}"
    ".wide{overflow-x:auto;max-width:100%}"
    "th{background:#eef2f8;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".status0{color:#176b2c}.status2{color:#9a6200}.status3{color:#a31515}.none{color:#778;font-style:italic}"
    ".card{display:inline-block;vertical-align:top;margin:4px 14px 10px 0}"
    ".verdict{font-weight:600}.faster{color:#176b2c}.slower{color:#a31515}"
    "svg .bar-a{fill:#4c78a8}svg .bar-b{fill:#f58518;fill-opacity:.75}svg .key-a{fill:#4c78a8}svg .key-b{fill:#f58518}"
    "svg .axis{stroke:#556;stroke-width:1}svg .lbl{font-size:11px;fill:#334}"
    "svg .dots{fill:none;stroke-width:2.2;stroke-linecap:round}svg .dots-a{stroke:#4c78a8}svg .dots-b{stroke:#f58518}"
    "svg .ci-bar{fill:#c6dbef}svg .ci-err{stroke:#1d2330;stroke-width:2}svg .run{fill:#4c78a8;fill-opacity:.8}"
    "ul.errors li{color:#9a6200}.invalid{border:2px solid #a31515;background:#fff3f3;padding:4px 12px;margin:10px 0}"
    ".invalid h3{color:#a31515;margin:6px 0}footer{margin-top:30px;color:#778;font-size:12px}";

/* ---- the sections ------------------------------------------------------------------
 * The page shows these in order, after its head.  To add a section NAME:
 * write tools/host/report_NAME.c with `void part_NAME(struct report *r)`
 * (declare it in report_parts.h; the generic tables of report_tables.c
 * show any object or list), then add { "NAME", part_NAME } below.  A
 * top-level member no entry names is still shown, by part_others, as plain
 * tables: nothing the run wrote is hidden. */
const struct report_section report_sections[] = {
    { "system|host|build", part_machine },
    { "clock", part_clock },
    { "cores", part_cores },
    { "quiet", part_quiet },
    { "plugins", part_plugins },
    { "methods", part_methods },
    { "comparisons", part_comparisons },
    { "bytemark", part_bytemark },
    { "memory", part_memory },
    { NULL, NULL },
};

/* The top level's own members, shown by the page's head. */
#define REPORT_HEAD_MEMBERS "schema|name|errors|status|ended"

int rp_member_in(const char *members, const char *k)
{
    size_t n = strlen(k);
    for (const char *p = members; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, k, n))
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* Sections this report has no special view of (verify, config, ...). */
static void part_others(struct report *r)
{
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v) {
        int known = rp_member_in(REPORT_HEAD_MEMBERS, k);
        for (const struct report_section *s = report_sections; s->members && !known; s++)
            known = rp_member_in(s->members, k);
        if (known || rp_is_scalar(v))
            continue;
        fputs("<h2>", r->f);
        rj_html(r->f, k);
        fputs("</h2>", r->f);
        if (json_is_object(v))
            rp_generic_object(r->f, v, NULL);
        else if (rp_array_of_objects(v))
            rp_list_table(r->f, v);
        else
            rp_cell_value(r->f, v);
    }
}

/* What `baremark validate` finds in the file, as a warning at the top of
 * the page (the page still shows everything, tolerantly). */
#define REPORT_PROBLEMS_SHOWN 50

static int report_problems(json_t *root, const char *src, char **text)
{
    size_t len = 0;
    int seen = 0, n;
    FILE *m = open_memstream(text, &len);
    if (!m) {
        *text = NULL;
        return 0;
    }
    rv_out = m;
    n = rv_document(root, src, 0, &seen);
    rv_out = NULL;
    fclose(m);
    return n;
}

static void part_problems(FILE *f, int n, const char *text)
{
    if (n <= 0)
        return;
    fprintf(f, "<div class=\"invalid\" id=\"invalid\"><h3>Warning: this file does not pass baremark validate "
            "(%d problem%s)</h3><p>Figures below are shown as the file states them; those named here are missing, "
            "of the wrong kind or disagree with the raw samples.</p><ul>", n, n == 1 ? "" : "s");
    int shown = 0;
    for (const char *p = text; p && *p && shown < REPORT_PROBLEMS_SHOWN; shown++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        fputs("<li>", f);
        rj_html(f, line ? line : "");
        fputs("</li>", f);
        free(line);
        p = nl ? nl + 1 : p + len;
    }
    if (n > shown)
        fprintf(f, "<li>... and %d more (baremark validate lists them all)</li>", n - shown);
    fputs("</ul></div>", f);
}

static int report_write(json_t *root, FILE *f, const char *src, int problems, const char *problem_text)
{
    struct report r = { f, root };
    fputs("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>baremark ", f);
    rj_html(f, rj_str(root, "name", "run"));
    fprintf(f, "</title><style>%s</style></head><body>", report_css);
    part_header(&r);
    part_problems(f, problems, problem_text);
    machine_line(f, root);
    for (const struct report_section *s = report_sections; s->members; s++)
        s->write(&r);
    part_others(&r);
    fputs("<footer>made by baremark report from ", f);
    rj_html(f, src);
    fprintf(f, " (results schema %d); figures are as the run wrote them, p-values marked \"recomputed\" "
            "come from the raw samples</footer></body></html>\n", RJ_SCHEMA_VERSION);
    return ferror(f) ? -1 : 0;
}

/* A baremark results document: a schema version at the top level and a
 * run status or one of the sections validate knows. */
static int report_is_results(json_t *root)
{
    if (!json_is_integer(json_object_get(root, "schema")))
        return 0;
    if (json_is_integer(json_object_get(root, "status")))
        return 1;
    for (const struct rv_section *const *s = rv_sections; *s; s++)
        if (json_object_get(root, (*s)->name))
            return 1;
    return 0;
}

int cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    char err[512], def[1024];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !in)
            in = argv[i];
        else {
            fprintf(stderr, "usage: baremark report RUN.json [-o FILE.html]\n");
            return 2;
        }
    }
    if (!in) {
        fprintf(stderr, "usage: baremark report RUN.json [-o FILE.html]\n");
        return 2;
    }
    json_t *root = rj_load(in, err, sizeof err);
    if (!root) {
        fprintf(stderr, "baremark report: %s\n", err);
        return 2;
    }
    if (!report_is_results(root)) {
        fputs("baremark report: ", stderr);
        rj_term(stderr, in, 200);
        fputs(": not a baremark results document (no \"schema\" version with a run status or a known section "
              "at the top level: docs/results-schema.md)\n", stderr);
        json_decref(root);
        return 2;
    }
    char *problem_text = NULL;
    int problems = report_problems(root, in, &problem_text);
    if (!out) {
        size_t n = strlen(in);
        snprintf(def, sizeof def, "%.*s.html", (int)(n > 5 && !strcmp(in + n - 5, ".json") ? n - 5 : n), in);
        out = def;
    }
    FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "baremark report: cannot write %s\n", out);
        json_decref(root);
        free(problem_text);
        return 2;
    }
    int rc = report_write(root, f, in, problems, problem_text);
    free(problem_text);
    if (problems > 0) {
        fputs("baremark report: warning: ", stderr);
        rj_term(stderr, in, 200);
        fprintf(stderr, " has %d problem%s (baremark validate lists them); the page warns of them at the top\n",
                problems, problems == 1 ? "" : "s");
    }
    if (f != stdout && fclose(f) != 0)
        rc = -1;
    json_decref(root);
    if (rc) {
        fprintf(stderr, "baremark report: error writing %s\n", out);
        return 1;
    }
    if (f != stdout && out == def)      /* a name the user did not give: say it */
        printf("%s\n", out);
    return 0;
}
