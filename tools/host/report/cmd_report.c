/*
 * tools/host/report/cmd_report.c - `baremark report RUN.json [-o FILE.html]`: one
 * self-contained HTML page of a run (inline CSS and SVG, no script, no
 * network).  It opens with the run's summary on one 1280 x 800 screen
 * (report_top.c: the verdict badge, bench/summary/summary.h's lines, every
 * target's estimate and dot plot, the A/B pairs), then each section as a
 * closed <details> below its one-line headline: the machine and build, the
 * clock's references with their ppm, each method's overhead with a
 * histogram, each A/B comparison with Karsh's raw-sample strip, overlaid
 * histograms and the verdict, each BYTEmark kernel's score with its 95%
 * interval; each fold ends with the section's tracked figures, generated
 * from its figure table (bench/report/report_figures.c,
 * bench/results/figures.h), so a figure added to a table shows here with
 * no code of this page.  Each section's fold is bench/NAME/report_NAME.c,
 * named by its row of bench/sections.def; the page's shared pieces are
 * bench/report/.
 *
 * Sections are read tolerantly (docs/results-schema.md): a missing section
 * says "not run", members the report does not know are shown with their
 * figure table's headline and tracked figures, then in plain tables, so
 * nothing the image wrote is hidden.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "figures_run.h"
#include "report_parts.h"
#include "validate_sections.h"
#include "report_util.h"
#include "run_state.h"
#include "section.h"
#include "summary.h"
#include "validate.h"

/* Sized for a 1280 px window: the first screen (report_top.c) on a grid of
 * tables and plots; numbers (class "n") right-aligned in tabular figures
 * and never wrapped; a table wider than the page scrolls sideways in its
 * own box (display:block with overflow-x) instead of squeezing its cells. */
static const char report_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1248px;color:#1d2330;padding:8px 16px;"
    "overflow-wrap:anywhere}"
    "h1{font-size:20px;margin:0 0 2px}h2{font-size:16px;margin:0}"
    "h3{font-size:15px;margin:14px 0 6px}h4{font-size:13px;margin:10px 0 4px;color:#445}"
    "table{border-collapse:collapse;margin:4px 0 8px;display:block;overflow-x:auto;max-width:100%;width:max-content}"
    "td,th{border:1px solid #d6dbe4;padding:2px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}"
    ".wide{overflow-x:auto;max-width:100%}"
    "th{background:#eef2f8;font-weight:600}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}"
    ".status0{color:#176b2c}.status2{color:#9a6200}.status3{color:#a31515}.none{color:#778;font-style:italic}"
    ".card{display:inline-block;vertical-align:top;margin:4px 14px 10px 0;max-width:100%}"
    ".verdict{font-weight:600}.faster{color:#176b2c}.slower{color:#a31515}"
    ".badge{display:inline-block;font-size:14px;font-weight:600;padding:1px 10px;border-radius:11px;color:#fff;"
    "vertical-align:2px;margin-left:10px}"
    ".b-completed{background:#1a7f37}.b-warnings{background:#9a6200}.b-failed,.b-interrupted{background:#b42318}"
    ".b-unknown{background:#667}"
    "p.summary{font-size:12px;color:#556;margin:0 0 6px}p.note{font-size:11px;color:#667;margin:-4px 0 8px;max-width:600px}"
    "table.lines{font-size:13px;width:100%}table.lines th{width:70px;white-space:nowrap}"
    "#targets,#pairs{font-size:13px}#targets td:first-child{white-space:nowrap}svg .lbl.m{font-size:10px}"
    ".glance-grid{display:grid;grid-template-columns:minmax(0,1fr) 608px;gap:6px 16px;align-items:start}"
    ".glance-tables{min-width:0}.glance-plots{display:flex;flex-wrap:wrap;gap:4px 8px;min-width:0}"
    "svg .ttl{font-size:12px;font-weight:600;fill:#1d2330}svg .ci{stroke:#4c78a8;stroke-width:2}"
    "svg .est{fill:#fff;stroke:#4c78a8;stroke-width:1.4}svg .chosen .est{fill:#d62728;stroke:#d62728}"
    "svg .chosen .lbl{font-weight:700;fill:#1d2330}"
    "svg .differs .est{stroke:#e8790c}svg .differs .ci{stroke:#f3b27a}svg .one{stroke:#d62728;stroke-dasharray:3 2}"
    "svg .below .ci{stroke-dasharray:3 2}svg .lt{fill:none;stroke:#4c78a8;stroke-width:1.4}"
    "svg .chosen .lt{stroke:#d62728}.floor{color:#5a6272;padding-left:2px}"
    "details.sec{border-top:1px solid #c9d3e3;padding:3px 0}details.sec[open]{padding-bottom:12px}"
    "details.sec>summary{cursor:pointer;padding:3px 0}"
    "details.sec>summary h2{display:inline;margin-right:8px}.hl{color:#334;font-size:13px}"
    "svg .bar-a{fill:#4c78a8}svg .bar-b{fill:#f58518;fill-opacity:.75}svg .key-a{fill:#4c78a8}svg .key-b{fill:#f58518}"
    "svg .axis{stroke:#556;stroke-width:1}svg .lbl{font-size:11px;fill:#334}"
    "svg .dots{fill:none;stroke-width:2.2;stroke-linecap:round}svg .dots-a{stroke:#4c78a8}svg .dots-b{stroke:#f58518}"
    "svg .ci-bar{fill:#c6dbef}svg .ci-err{stroke:#1d2330;stroke-width:2}svg .run{fill:#4c78a8;fill-opacity:.8}"
    "ul.errors li{color:#9a6200}.invalid{border:2px solid #a31515;background:#fff3f3;padding:2px 12px;margin:4px 0}"
    ".invalid summary{color:#a31515;font-weight:600;cursor:pointer}footer{margin-top:30px;color:#778;font-size:12px}"
    /* printed, every fold is open (browsers without ::details-content print the headlines) */
    "@media print{details::details-content{content-visibility:visible;display:block}}";

/* ---- the sections ------------------------------------------------------------------
 * The page shows these in order, after its head: its own folds
 * (bench/report/: the machine and build first; how quiet the machine was
 * after the cores),
 * then each section of bench/sections.def with a view of its own, in run
 * order.  A new section needs nothing here: its view is
 * bench/NAME/report_NAME.c, named in its row's REPORT column
 * (bench/report/report_parts.h; the generic tables of report_tables.c
 * show any object or list), and a top-level member no fold names is still
 * shown, by part_others, with its figure table's headline and tracked
 * figures, then as plain tables, so nothing the run wrote is hidden. */

/* A row's view declared, unless its REPORT column says NULL (section.h). */
#define SECTION(name, label, run, flags, figures, summary, report) \
    SECTION_IF_NAMED(SECTION_NONE_##report, extern const struct report_section report;)
#include "sections.def"
#undef SECTION

/* Each row's name and view, in run order (a NULL column leaves the view
 * out of the initialiser: NULL, the generic view). */
static const struct report_row {
    const char *name;
    const struct report_section *view;
} report_rows[] = {
#define SECTION(name, label, run, flags, figures, summary, report) \
    { name, SECTION_IF_NAMED(SECTION_NONE_##report, &report) },
#include "sections.def"
#undef SECTION
};

/* The page's own folds, no section's: each after the row it names (NULL:
 * before every section). */
static const struct report_own {
    const char *after;
    const struct report_section *view;
} report_own[] = {
    { NULL, &report_machine },
    { "cores", &report_quiet },
};

#define REPORT_ROWS (sizeof report_rows / sizeof report_rows[0])
#define REPORT_OWN (sizeof report_own / sizeof report_own[0])

/* The folds in the page's order (NULL-terminated): the own folds before
 * the sections, then each row's view followed by the own folds after it,
 * then any own fold whose row the table does not have. */
static const struct report_section *report_sections[REPORT_ROWS + REPORT_OWN + 1];

static void report_order(void)
{
    size_t n = 0;
    int placed[REPORT_OWN] = { 0 };
    for (size_t j = 0; j < REPORT_OWN; j++)
        if (!report_own[j].after)
            report_sections[n++] = report_own[j].view, placed[j] = 1;
    for (size_t k = 0; k < REPORT_ROWS; k++) {
        if (report_rows[k].view)
            report_sections[n++] = report_rows[k].view;
        for (size_t j = 0; j < REPORT_OWN; j++)
            if (!placed[j] && !strcmp(report_own[j].after, report_rows[k].name))
                report_sections[n++] = report_own[j].view, placed[j] = 1;
    }
    for (size_t j = 0; j < REPORT_OWN; j++)
        if (!placed[j])
            report_sections[n++] = report_own[j].view;
    report_sections[n] = NULL;
}

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

/* A section's members ("system|host|build") one at a time: *it starts at
 * 0; returns 0 past the last. */
static int report_next_member(const char *members, size_t *it, char *one, size_t cap)
{
    const char *p = members + *it;
    size_t n = strcspn(p, "|");
    if (!*p)
        return 0;
    snprintf(one, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
    *it += n + (p[n] == '|');
    return 1;
}

/* The tracked figures of each of a section's members, from their figure
 * tables; and the first of their tables' headlines (for a section the run
 * summary has no line for). */
static void report_member_tables(struct report *r, const char *members)
{
    char one[64];
    for (size_t it = 0; report_next_member(members, &it, one, sizeof one);)
        rp_figure_table(r, one);
}

static int report_member_headline(struct report *r, const char *members, char *out, size_t cap)
{
    char one[64];
    for (size_t it = 0; report_next_member(members, &it, one, sizeof one);)
        if (rp_table_headline(r, one, out, cap))
            return 1;
    return 0;
}

/* A section as a closed fold: its heading and its one-line headline (the
 * run summary's line for it, else its figure table's; "not run" when the
 * file lacks it) in the <summary>, the body below: the section's view,
 * then its tracked figures (report_figures.c).  The body is written
 * first, so a section with nothing to show gets no fold at all. */
static void report_fold(struct report *r, const struct report_section *s)
{
    char *body = NULL, table_headline[256] = "";
    size_t len = 0;
    FILE *out = r->f, *m = open_memstream(&body, &len);
    const char *k, *headline = report_headline(r->sum, s->id);
    json_t *v;
    int present = 0;
    if (!m) {
        s->write(r);                /* no memory for the fold: the body alone */
        return;
    }
    r->f = m;
    s->write(r);
    report_member_tables(r, s->members);
    if (s == &report_machine)       /* the machine and build: the run's own figures too */
        rp_figure_table(r, NULL);
    fclose(m);
    r->f = out;
    json_object_foreach(r->root, k, v)
        present |= rp_member_in(s->members, k);
    if (!headline && present && report_member_headline(r, s->members, table_headline, sizeof table_headline))
        headline = table_headline;
    if (len) {
        fprintf(out, "<details class=\"sec\" id=\"sec-%s\"><summary><h2 id=\"%s\">%s</h2><span class=\"hl\">",
                s->id, s->id, s->title);
        html_put(out, headline ? headline : present ? "" : "not run");
        fputs("</span></summary>", out);
        fwrite(body, 1, len, out);
        fputs("</details>", out);
    }
    free(body);
}

/* Sections this report has no special view of (verify, one added by
 * docs/adding-a-section.md, ...): the headline and the tracked figures
 * from the member's figure table (bench/results/figures.h), then everything as
 * plain tables. */
static void part_others(struct report *r)
{
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v) {
        int known = rp_member_in(REPORT_HEAD_MEMBERS, k);
        for (size_t i = 0; report_sections[i] && !known; i++)
            known = rp_member_in(report_sections[i]->members, k);
        if (known || rp_is_scalar(v))
            continue;
        fputs("<details class=\"sec\"><summary><h2>", r->f);
        html_put(r->f, k);
        fputs("</h2><span class=\"hl\">", r->f);
        char headline[256];
        if (rp_table_headline(r, k, headline, sizeof headline))
            html_put(r->f, headline);
        else
            fprintf(r->f, "shown as plain tables (%zu member%s)",
                    json_is_object(v) ? json_object_size(v) : json_array_size(v),
                    (json_is_object(v) ? json_object_size(v) : json_array_size(v)) == 1 ? "" : "s");
        fputs("</span></summary>", r->f);
        rp_figure_table(r, k);
        if (json_is_object(v))
            rp_generic_object(r->f, v, NULL);
        else if (rp_array_of_objects(v))
            rp_list_table(r->f, v);
        else
            rp_cell_value(r->f, v);
        fputs("</details>", r->f);
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
    fprintf(f, "<details class=\"invalid\" id=\"invalid\"><summary>Warning: this file does not pass baremark validate "
            "(%d problem%s)</summary><p>Figures below are shown as the file states them; those named here are missing, "
            "of the wrong kind or disagree with the raw samples.</p><ul>", n, n == 1 ? "" : "s");
    int shown = 0;
    for (const char *p = text; p && *p && shown < REPORT_PROBLEMS_SHOWN; shown++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        fputs("<li>", f);
        html_put(f, line ? line : "");
        fputs("</li>", f);
        free(line);
        p = nl ? nl + 1 : p + len;
    }
    if (n > shown)
        fprintf(f, "<li>... and %d more (baremark validate lists them all)</li>", n - shown);
    fputs("</ul></details>", f);
}

/* The run's summary (bench/summary/summary.h) of a results document's
 * text: the same the serial log ends with and `baremark show` prints.
 * NULL when out of memory (the page then has no first screen and says so
 * in its badge). */
static struct summary *report_summary(const char *text, size_t len)
{
    struct summary *s = calloc(1, sizeof *s);
    if (s && text)
        summary_build(s, text, len);
    else {
        free(s);
        s = NULL;
    }
    return s;
}

/* A file's whole text (NULL when it cannot be read; *len its length). */
static char *report_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
        (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    *len = text ? (size_t)n : 0;
    return text;
}

static int report_write(json_t *root, FILE *f, const char *src, struct summary *sum, int problems,
                        const char *problem_text)
{
    char *text = json_dumps(root, JSON_COMPACT);
    struct report r = { f, root, sum, text ? jval_doc(text, strlen(text)) : (struct jval){ 0 } };
    if (!sum)
        fputs("baremark report: could not build the run's summary (out of memory, or the file could not be read "
              "again); the page has no first screen\n", stderr);
    fputs("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>baremark ", f);
    html_put(f, doc_str(root, "name", "run"));
    fprintf(f, "</title><style>%s%s</style></head><body>", report_css, report_css_screens);
    part_header(&r);
    part_problems(f, problems, problem_text);
    part_top(&r);
    part_warnings(&r);
    report_order();
    for (size_t i = 0; report_sections[i]; i++)
        report_fold(&r, report_sections[i]);
    part_others(&r);
    free(sum);
    free(text);
    fputs("<footer>made by baremark report from ", f);
    html_put(f, src);
    fprintf(f, " (results schema %d); figures are as the run wrote them, p-values marked \"recomputed\" "
            "come from the raw samples</footer></body></html>\n", DOC_SCHEMA_VERSION);
    return ferror(f) ? -1 : 0;
}

/* A baremark results document: a schema version at the top level and a
 * run status or one of the sections validate knows. */
static int report_is_results(json_t *root)
{
    if (!json_is_integer(doc_fig(root, &figures_run, FIG_RUN_SCHEMA)))
        return 0;
    json_t *status = doc_fig(root, &figures_run, FIG_RUN_STATUS);
    if (json_is_integer(status) || (json_is_string(status) && !strcmp(json_string_value(status), RS_INTERRUPTED_TEXT)))
        return 1;
    for (const struct rv_section *const *s = rv_sections; *s; s++)
        if (json_object_get(root, (*s)->name))
            return 1;
    return 0;
}

/* The page of a results document (root parsed from text), with validate's
 * problems at its top (*problems: how many): 0, or -1 when f could not be
 * written. */
static int report_emit(json_t *root, const char *text, size_t len, const char *src, FILE *f, int *problems)
{
    char *problem_text = NULL;
    *problems = report_problems(root, src, &problem_text);
    int rc = report_write(root, f, src, report_summary(text, len), *problems, problem_text);
    free(problem_text);
    return rc;
}

int report_page(const char *text, size_t len, const char *src, FILE *f)
{
    json_error_t e;
    int problems, rc;
    json_t *root = json_loadb(text, len, JSON_DECODE_ANY, &e);
    if (!root || !json_is_object(root) || !report_is_results(root)) {
        json_decref(root);
        return 1;
    }
    rc = report_emit(root, text, len, src, f, &problems);
    json_decref(root);
    return rc ? -1 : 0;
}

/* The command line: one row per option (commands.h, struct cli_opt). */
enum { RP_OUT = 1 };
static const struct cli_opt rp_opts[] = {
    { RP_OUT, "-o", "FILE.html", "write FILE.html (default: RUN.html beside RUN.json)" },
    { 0 },
};
const struct cli_cmd cli_cmd_report = {
    "report", "RUN.json [-o FILE.html]", "self-contained HTML report of a run", rp_opts,
    "exit status: 0 written, 1 FILE.html could not be written, 2 usage or a file that is not a results document\n",
};

int cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    char err[512], def[1024];
    struct cli_iter it = { &cli_cmd_report, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == RP_OUT)
            out = it.val;
        else if (id == CLI_ARG && !in)
            in = it.val;
        else if (id == CLI_ARG)
            return cli_usage_error(&cli_cmd_report, "give one RUN.json");
        else
            return 2;
    }
    if (!in)
        return cli_usage_error(&cli_cmd_report, "give a RUN.json");
    if (doc_check_input("report", in))
        return 2;
    json_t *root = doc_load(in, err, sizeof err);
    if (!root) {
        fprintf(stderr, "baremark report: %s\n", err);
        return 2;
    }
    if (!report_is_results(root)) {
        fputs("baremark report: ", stderr);
        term_put(stderr, in, 200);
        fputs(": not a baremark results document (no \"schema\" version with a run status or a known section "
              "at the top level: docs/results-schema.md)\n", stderr);
        json_decref(root);
        return 2;
    }
    if (!out) {
        size_t n = strlen(in);
        snprintf(def, sizeof def, "%.*s.html", (int)(n > 5 && !strcmp(in + n - 5, ".json") ? n - 5 : n), in);
        out = def;
    }
    FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "baremark report: cannot write %s\n", out);
        json_decref(root);
        return 2;
    }
    size_t tlen;
    int problems;
    char *t = report_slurp(in, &tlen);      /* the summary reads the file's own text, as show does */
    int rc = report_emit(root, t, tlen, in, f, &problems);
    free(t);
    if (problems > 0) {
        fputs("baremark report: warning: ", stderr);
        term_put(stderr, in, 200);
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
