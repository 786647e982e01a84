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
#include "report_util.h"
#include "stats/stats.h"

/* Noise threshold for the report's own recomputed verdict: 1% of the
 * median, as `baremark compare` uses by default. */
#define REPORT_NOISE 0.01
/* Arrays longer than this are summarised ("N values") in generic tables. */
#define REPORT_INLINE_MAX 8

static const char report_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1120px;color:#1d2330;padding:0 16px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #c9d3e3;padding-bottom:3px;margin-top:30px}"
    "h3{font-size:15px;margin:18px 0 6px}h4{font-size:13px;margin:10px 0 4px;color:#445}"
    "table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d6dbe4;padding:2px 8px;text-align:left;vertical-align:top}"
    "th{background:#eef2f8;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".status0{color:#176b2c}.status2{color:#9a6200}.status3{color:#a31515}.none{color:#778;font-style:italic}"
    ".card{display:inline-block;vertical-align:top;margin:4px 14px 10px 0}"
    ".verdict{font-weight:600}.faster{color:#176b2c}.slower{color:#a31515}"
    "svg .bar-a{fill:#4c78a8}svg .bar-b{fill:#f58518;fill-opacity:.75}svg .key-a{fill:#4c78a8}svg .key-b{fill:#f58518}"
    "svg .axis{stroke:#556;stroke-width:1}svg .lbl{font-size:11px;fill:#334}"
    "svg .dots{fill:none;stroke-width:2.2;stroke-linecap:round}svg .dots-a{stroke:#4c78a8}svg .dots-b{stroke:#f58518}"
    "svg .ci-bar{fill:#c6dbef}svg .ci-err{stroke:#1d2330;stroke-width:2}svg .run{fill:#4c78a8;fill-opacity:.8}"
    "ul.errors li{color:#9a6200}footer{margin-top:30px;color:#778;font-size:12px}";

struct report {
    FILE *f;
    json_t *root;
};

/* ---- generic tables ------------------------------------------------------------ */

static int is_scalar(json_t *v) { return !json_is_object(v) && !json_is_array(v); }

static int array_of_objects(json_t *v)
{
    return json_is_array(v) && json_array_size(v) > 0 && json_is_object(json_array_get(v, 0));
}

/* One value in a cell: numbers formatted, short arrays inline, long ones counted. */
static void cell_value(FILE *f, json_t *v)
{
    char b[48];
    if (json_is_number(v))
        fputs(rj_fmt(b, sizeof b, json_number_value(v)), f);
    else if (json_is_string(v))
        rj_html(f, json_string_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", f);
    else if (json_is_null(v))
        fputs("-", f);
    else if (json_is_array(v) && json_array_size(v) <= REPORT_INLINE_MAX && !array_of_objects(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (i)
                fputs(", ", f);
            cell_value(f, e);
        }
    } else if (json_is_array(v))
        fprintf(f, "%zu values", json_array_size(v));
    else
        fputs("{...}", f);
}

static void td(FILE *f, json_t *v)
{
    fputs(json_is_number(v) ? "<td class=\"n\">" : "<td>", f);
    cell_value(f, v);
    fputs("</td>", f);
}

/* Key/value rows of an object's scalar members (and, prefixed, those of its
 * small nested objects); lists of objects are left to list_table. */
static void kv_rows(FILE *f, json_t *obj, const char *prefix, const char *skip)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (array_of_objects(v) || (skip && !strcmp(k, skip)))
            continue;
        if (json_is_object(v)) {
            char p[128];
            snprintf(p, sizeof p, "%s%s.", prefix, k);
            kv_rows(f, v, p, NULL);
            continue;
        }
        fputs("<tr><th>", f);
        rj_html(f, prefix);
        rj_html(f, k);
        fputs("</th>", f);
        td(f, v);
        fputs("</tr>", f);
    }
}

/* How many rows kv_rows would write. */
static size_t kv_count(json_t *obj)
{
    const char *k;
    json_t *v;
    size_t n = 0;
    json_object_foreach(obj, k, v)
        n += json_is_object(v) ? kv_count(v) : !array_of_objects(v);
    return n;
}

static void kv_table_skip(FILE *f, json_t *obj, const char *skip)
{
    if (!json_is_object(obj) || kv_count(obj) == 0)
        return;
    fputs("<table>", f);
    kv_rows(f, obj, "", skip);
    fputs("</table>", f);
}

static void kv_table(FILE *f, json_t *obj) { kv_table_skip(f, obj, NULL); }

/* A table of a list of objects: the union of their members as columns. */
static void list_table(FILE *f, json_t *arr)
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
            if (!have && !json_is_object(v) && !array_of_objects(v))
                json_array_append_new(cols, json_string(k));
        }
    }
    fputs("<table><tr>", f);
    for (j = 0; j < json_array_size(cols); j++) {
        fputs("<th>", f);
        rj_html(f, json_string_value(json_array_get(cols, j)));
        fputs("</th>", f);
    }
    fputs("</tr>", f);
    json_array_foreach(arr, i, el) {
        fputs("<tr>", f);
        for (j = 0; j < json_array_size(cols); j++) {
            json_t *v = json_object_get(el, json_string_value(json_array_get(cols, j)));
            if (v)
                td(f, v);
            else
                fputs("<td></td>", f);
        }
        fputs("</tr>", f);
    }
    fputs("</table>", f);
    json_decref(cols);
}

/* Everything of an object: its scalars, then each list as a table. */
static void generic_object(FILE *f, json_t *obj, const char *skip)
{
    const char *k;
    json_t *v;
    kv_table_skip(f, obj, skip);
    json_object_foreach(obj, k, v) {
        if (!array_of_objects(v) || (skip && !strcmp(k, skip)))
            continue;
        fputs("<h4>", f);
        rj_html(f, k);
        fputs("</h4>", f);
        list_table(f, v);
    }
}

static int section_missing(FILE *f, json_t *sec)
{
    if (sec)
        return 0;
    fputs("<p class=\"none\">not run (the section is not in this results file)</p>", f);
    return 1;
}

/* ---- the parts ------------------------------------------------------------------ */

static const char *status_text(int s)
{
    switch (s) {
    case 0: return "completed and saved";
    case 2: return "completed with warnings";
    case 3: return "could not run";
    default: return "unknown status";
    }
}

static void part_header(struct report *r)
{
    FILE *f = r->f;
    json_t *errors = json_object_get(r->root, "errors"), *e;
    int status = (int)rj_num(r->root, "status", -1);
    size_t i;
    fputs("<h1>baremark run ", f);
    if (!strcmp(rj_str(r->root, "platform", ""), "linux"))
        rj_html(f, rj_str(r->root, "name", "of the hosted program (Linux)"));
    else
        rj_html(f, rj_str(r->root, "name", "(unnamed: results were not saved to files)"));
    fprintf(f, "</h1><p class=\"status%d\" id=\"status\">status %d: %s%s</p>", status, status,
            status_text(status), rj_bool(r->root, "ended", 0) ? "" : " (the run did not finish: partial results)");
    if (json_array_size(errors)) {
        fputs("<h3>Warnings and errors</h3><ul class=\"errors\">", f);
        json_array_foreach(errors, i, e) {
            fputs("<li>", f);
            rj_html(f, json_string_value(e));
            fputs("</li>", f);
        }
        fputs("</ul>", f);
    }
}

/* One line a person reads first: what ran where. */
static void machine_line(FILE *f, json_t *root)
{
    json_t *sys = json_object_get(root, "system"), *build = json_object_get(root, "build");
    json_t *host = json_object_get(root, "host");
    const char *hv = rj_str(sys, "hypervisor", "");
    if (!sys && !build && !host)
        return;
    fputs("<p class=\"summary\" id=\"summary\">", f);
    if (!sys && json_is_object(host)) {
        rj_html(f, rj_str(host, "cpu_brand", "?"));
        fprintf(f, " (%s), %.0f logical CPU%s, under ", rj_str(host, "cpu_vendor", "?"),
                rj_num(host, "logical_cpus", NAN), rj_num(host, "logical_cpus", 0) == 1 ? "" : "s");
        rj_html(f, rj_str(host, "os", "Linux"));
        fputs(" (the hosted program: interrupts and the scheduler stay on). ", f);
    }
    if (sys) {
        rj_html(f, rj_str(sys, "cpu_brand", "?"));
        fprintf(f, " (%s family %.0f model %.0f stepping %.0f), %.0f logical CPU%s, ", rj_str(sys, "cpu_vendor", "?"),
                rj_num(sys, "family", NAN), rj_num(sys, "model", NAN), rj_num(sys, "stepping", NAN),
                rj_num(sys, "logical_cpus", NAN), rj_num(sys, "logical_cpus", 0) == 1 ? "" : "s");
        if (hv[0]) {
            fputs("under hypervisor ", f);
            rj_html(f, hv);
        } else {
            fputs("bare metal", f);
        }
        fprintf(f, ", %.0f MiB; firmware ", rj_num(sys, "memory_mib", NAN));
        rj_html(f, rj_str(sys, "firmware_vendor", "?"));
        fputs(". ", f);
    }
    if (build) {
        fputs("Build ", f);
        rj_html(f, rj_str(build, "version", "?"));
        fputs(", ", f);
        rj_html(f, rj_str(build, "compiler", "?"));
        fputs(" ", f);
        rj_html(f, rj_str(build, "flags", ""));
        fputs(".", f);
    }
    fputs("</p>", f);
}

static void part_machine(struct report *r)
{
    FILE *f = r->f;
    json_t *sys = json_object_get(r->root, "system"), *build = json_object_get(r->root, "build");
    if (!sys)
        sys = json_object_get(r->root, "host");      /* the hosted program's machine */
    fputs("<h2 id=\"machine\">Machine and build</h2><div class=\"card\"><h3>Machine</h3>", f);
    if (!section_missing(f, sys))
        kv_table(f, sys);
    fputs("</div><div class=\"card\"><h3>Build</h3>", f);
    if (!section_missing(f, build))
        kv_table(f, build);
    fputs("</div>", f);
}

static void part_clock(struct report *r)
{
    static const char *const khz_keys[] = { "khz", "tsc_khz", NULL };
    static const char *const ppm_keys[] = { "ppm", "uncertainty_ppm", "ppm_uncertainty", NULL };
    static const char *const chosen_keys[] = { "chosen_khz", "khz", "tsc_khz", NULL };
    FILE *f = r->f;
    json_t *clock = json_object_get(r->root, "clock"), *refs, *el;
    char b1[48], b2[48], b3[48], b4[48];
    size_t i;

    fputs("<h2 id=\"clock\">Clock</h2>", f);
    if (section_missing(f, clock))
        return;
    refs = rj_clock_refs(clock);
    double chosen = rj_num_any(json_object_get(clock, "chosen"), chosen_keys);
    if (isnan(chosen))
        chosen = rj_num_any(clock, chosen_keys);
    if (array_of_objects(refs)) {
        fputs("<table id=\"clock-refs\"><tr><th>reference</th><th>TSC kHz</th><th>&plusmn; ppm</th>"
              "<th>differs from chosen (ppm)</th><th>windows</th></tr>", f);
        json_array_foreach(refs, i, el) {
            static const char *const win_keys[] = { "windows", NULL };
            double khz = rj_num_any(el, khz_keys), ppm = rj_num_any(el, ppm_keys);
            json_t *w = rj_first_array(el, win_keys);
            double nwin = w ? (double)json_array_size(w) : rj_num(el, "windows", NAN);
            fputs("<tr><td>", f);
            rj_html(f, rj_name(el, "?"));
            fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                    "<td class=\"n\">%s</td></tr>", rj_fmt(b1, sizeof b1, khz), rj_fmt(b2, sizeof b2, ppm),
                    rj_fmt(b3, sizeof b3, isnan(chosen) || isnan(khz) ? NAN : round((khz - chosen) / chosen * 1e7) / 10),
                    rj_fmt(b4, sizeof b4, nwin));
        }
        fputs("</table>", f);
    }
    fputs("<h3>All clock results</h3>", f);
    generic_object(f, clock, NULL);
}

/* The quiet-machine check (the image's clock.quiet or the hosted
 * program's quiet document) and each section's measuring phases. */
static void quiet_phase_row(FILE *f, const char *what, json_t *q, int single)
{
    char b1[48], b2[48], b3[48];
    double phases = single ? 1 : rj_num(q, "phases", NAN);
    double stopped = single ? (json_is_true(json_object_get(q, "timer_stopped")) ? 1 : 0)
                            : rj_num(q, "timer_stopped_phases", NAN);
    fprintf(f, "<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>", what,
            rj_fmt(b1, sizeof b1, phases), rj_fmt(b2, sizeof b2, stopped));
    rj_html(f, rj_str(q, "timer_note", ""));
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">", rj_fmt(b3, sizeof b3, rj_num(q, "nmis", NAN)));
    if (json_is_true(json_object_get(q, "smi_counted")))
        fputs(rj_fmt(b1, sizeof b1, rj_num(q, "smis", NAN)), f);
    else
        fputs("not counted", f);
    fputs("</td></tr>", f);
}

static void part_quiet(struct report *r)
{
    static const char *const sections[] = { "methods", "comparisons", "bytemark", NULL };
    FILE *f = r->f;
    json_t *clock = json_object_get(r->root, "clock");
    json_t *q = json_object_get(clock, "quiet"), *ph;
    char b1[48], b2[48];
    int any = 0;

    if (!json_is_object(q))
        q = json_object_get(r->root, "quiet");     /* the hosted program's document */
    ph = json_object_get(clock, "quiet_phase");
    for (const char *const *k = sections; *k; k++)
        any |= json_is_object(json_object_get(json_object_get(r->root, *k), "quiet_phases"));
    if (!json_is_object(q) && !json_is_object(ph) && !any)
        return;
    fputs("<h2 id=\"quiet\">Quiet machine</h2>", f);
    if (json_is_object(q)) {
        double hz = rj_num(q, "tick_hz", NAN);
        static const struct { const char *key, *label; } gaps[] = {
            { "gaps_over_1us", "gaps over 1 us" }, { "gaps_over_10us", "gaps over 10 us" },
            { "gaps_over_100us", "gaps over 100 us" }, { "gaps_over_1ms", "gaps over 1 ms" },
        };
        fprintf(f, "<h3>TSC read back to back for %s ms, interrupts %s</h3><table id=\"quiet-check\">"
                "<tr><th>figure</th><th>ticks</th><th>ns</th></tr>", rj_fmt(b1, sizeof b1, rj_num(q, "ms", NAN)),
                json_is_true(json_object_get(q, "masked")) ? "masked" : "not masked (an operating system)");
        static const struct { const char *key, *label; } ticks[] = {
            { "min_gap_ticks", "one read (smallest gap)" }, { "max_gap_ticks", "largest gap" },
        };
        for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
            double t = rj_num(q, ticks[i].key, NAN);
            fprintf(f, "<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>", ticks[i].label,
                    rj_fmt(b1, sizeof b1, t), rj_fmt(b2, sizeof b2, isnan(hz) || hz <= 0 ? NAN : t * 1e9 / hz));
        }
        fputs("</table><table id=\"quiet-gaps\"><tr><th>reads</th>", f);
        for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
            fprintf(f, "<th>%s</th>", gaps[i].label);
        fprintf(f, "<th>gaps over 1 us per s</th></tr><tr><td class=\"n\">%s</td>",
                rj_fmt(b1, sizeof b1, rj_num(q, "reads", NAN)));
        for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
            fprintf(f, "<td class=\"n\">%s</td>", rj_fmt(b1, sizeof b1, rj_num(q, gaps[i].key, NAN)));
        fprintf(f, "<td class=\"n\">%s</td></tr></table>", rj_fmt(b1, sizeof b1, rj_num(q, "gaps_per_second", NAN)));
    }
    if (json_is_object(ph) || any) {
        fputs("<h3>Measuring phases (firmware timer stopped, what stayed unmasked)</h3><table id=\"quiet-phases\">"
              "<tr><th>section</th><th>phases</th><th>timer stopped in</th><th>why not</th><th>NMIs</th>"
              "<th>SMIs</th></tr>", f);
        if (json_is_object(ph))
            quiet_phase_row(f, "clock calibration", ph, 1);
        for (const char *const *k = sections; *k; k++) {
            json_t *qp = json_object_get(json_object_get(r->root, *k), "quiet_phases");
            if (json_is_object(qp))
                quiet_phase_row(f, *k, qp, 0);
        }
        fputs("</table>", f);
    }
}

/* A summary line of a sample, from stats/. */
static void sample_summary(FILE *f, const double *x, size_t n, const char *unit)
{
    struct stats_summary s;
    double *scratch = malloc((n ? n : 1) * sizeof *scratch);
    char a[48], b[48], c[48], d[48];
    if (!scratch || stats_summary_double(x, n, scratch, NULL, &s) != 0) {
        free(scratch);
        return;
    }
    fprintf(f, "<p>n = %zu; min %s, median %s, mean %s, sd %s %s</p>", n, rj_fmt(a, sizeof a, s.min),
            rj_fmt(b, sizeof b, s.median), rj_fmt(c, sizeof c, s.mean), rj_fmt(d, sizeof d, s.sd_sample), unit);
    free(scratch);
}

/* Each element of a list that carries raw samples gets a histogram card. */
static void sample_cards(FILE *f, json_t *list, const char *what)
{
    json_t *el;
    size_t i;
    json_array_foreach(list, i, el) {
        double *x;
        size_t n = rj_method_samples(el, &x);
        const char *unit = rj_str(el, "unit", "ticks");
        if (!n)
            continue;
        fprintf(f, "<div class=\"card %s\" data-name=\"", what);
        rj_html(f, rj_name(el, "?"));
        fputs("\"><h4>", f);
        rj_html(f, rj_name(el, "?"));
        fputs("</h4>", f);
        sample_summary(f, x, n, unit);
        rj_svg_histogram(f, x, n, NULL, 0, unit, NULL, NULL);
        fputs("</div>", f);
        free(x);
    }
}

/* The methods section's measurements (bench/methods.c): the three net-time
 * estimators per target and method, in ticks and ns per iteration. */
static void measurements_table(FILE *f, json_t *list)
{
    static const char *const est[] = { "minus_placeholder", "apple", "n_vs_2n" };
    json_t *el;
    size_t i;
    char b[48];
    fputs("<table id=\"method-measurements\"><tr><th rowspan=\"2\">target</th><th rowspan=\"2\">method</th>"
          "<th rowspan=\"2\">status</th><th rowspan=\"2\">N</th><th colspan=\"3\">ticks per iteration</th>"
          "<th colspan=\"3\">ns per iteration</th><th rowspan=\"2\">net median (ticks)</th>"
          "<th rowspan=\"2\">net sd</th><th rowspan=\"2\">retakes (calibration / benchmark)</th></tr><tr>"
          "<th>minus placeholder</th><th>(N+2)-(2)</th><th>N vs 2N</th>"
          "<th>minus placeholder</th><th>(N+2)-(2)</th><th>N vs 2N</th></tr>", f);
    json_array_foreach(list, i, el) {
        json_t *pi = json_object_get(el, "per_iteration"), *ns = json_object_get(el, "per_iteration_ns");
        json_t *net = json_object_get(el, "net");
        fputs("<tr><td>", f);
        rj_html(f, rj_str(el, "target", "?"));
        fputs("</td><td>", f);
        rj_html(f, rj_str(el, "method", "?"));
        fputs("</td><td>", f);
        rj_html(f, rj_str(el, "status", ""));
        fprintf(f, "</td><td class=\"n\">%s</td>", rj_fmt(b, sizeof b, rj_num(el, "iterations", NAN)));
        for (int k = 0; k < 3; k++)
            fprintf(f, "<td class=\"n\">%s</td>", rj_fmt(b, sizeof b, rj_num(pi, est[k], NAN)));
        for (int k = 0; k < 3; k++)
            fprintf(f, "<td class=\"n\">%s</td>", rj_fmt(b, sizeof b, rj_num(ns, est[k], NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", rj_fmt(b, sizeof b, rj_num(net, "median", NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", rj_fmt(b, sizeof b, rj_num(net, "sd", NAN)));
        if (json_object_get(el, "calibration_retakes"))
            fprintf(f, "<td class=\"n\">%s / %s</td></tr>", rj_fmt(b, sizeof b, rj_num(el, "calibration_retakes", NAN)),
                    rj_fmt(b + 24, 24, rj_num(el, "benchmark_retakes", NAN)));
        else
            fputs("<td></td></tr>", f);
    }
    fputs("</table>", f);
}

static void part_methods(struct report *r)
{
    FILE *f = r->f;
    json_t *methods = json_object_get(r->root, "methods"), *list, *v;
    const char *k;
    fputs("<h2 id=\"methods\">Timing methods</h2>", f);
    if (section_missing(f, methods))
        return;
    list = rj_methods_list(methods);
    if (array_of_objects(list)) {
        fputs("<h3>Overhead and resolution</h3>", f);
        list_table(f, list);
        sample_cards(f, list, "method");
    }
    if (!json_is_object(methods))
        return;
    /* Other lists (measurements, profiles): a table and their histograms. */
    json_object_foreach(methods, k, v) {
        if (v == list || !array_of_objects(v))
            continue;
        fputs("<h3>", f);
        rj_html(f, k);
        fputs("</h3>", f);
        if (!strcmp(k, "measurements"))
            measurements_table(f, v);
        else
            list_table(f, v);
        sample_cards(f, v, "measurement");
    }
    if (kv_count(methods)) {
        fputs("<h3>Other method results</h3>", f);
        kv_table(f, methods);
    }
}

static void comparison_card(FILE *f, json_t *cmp)
{
    double *a = NULL, *b = NULL;
    const char *la, *lb, *unit = rj_str(cmp, "unit", "ticks");
    size_t na = rj_ab_samples(cmp, 0, &a, &la), nb = rj_ab_samples(cmp, 1, &b, &lb);
    const char *verdict = rj_str(cmp, "verdict", NULL);

    fputs("<div class=\"comparison\"><h3>", f);
    rj_html(f, rj_name(cmp, "comparison"));
    fputs("</h3>", f);
    if (verdict) {
        fprintf(f, "<p class=\"verdict %s\">the run's verdict: A (", strstr(verdict, "faster") ? "faster" :
                strstr(verdict, "slower") ? "slower" : "same");
        rj_html(f, la);
        fputs(") against B (", f);
        rj_html(f, lb);
        fputs("): ", f);
        rj_html(f, verdict);
        fputs("</p>", f);
    }
    if (na >= 2 && nb >= 2) {
        double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
        struct stats_summary xa, xb;
        struct stats_compare c;
        char p1[48], p2[48], z[48];
        if (sa && sb && !stats_summary_double(a, na, sa, NULL, &xa) && !stats_summary_double(b, nb, sb, NULL, &xb)) {
            stats_compare_sorted_double(sa, &xa, sb, &xb, REPORT_NOISE, &c);
            fprintf(f, "<p class=\"recomputed\">recomputed from the raw samples: Welch p = %s, Mann-Whitney p = %s, "
                    "Karsh Z = %s; A is <span class=\"verdict\">%s</span> at 95%% (noise threshold %.0f%%)</p>",
                    rj_fmt(p1, sizeof p1, c.welch_p), rj_fmt(p2, sizeof p2, c.mw_p), rj_fmt(z, sizeof z, c.karsh_z),
                    stats_verdict_name(c.verdict), REPORT_NOISE * 100);
        }
        free(sa);
        free(sb);
    }
    kv_table(f, cmp);
    fputs("<div class=\"card\"><h4>Raw samples in the order taken (A blue, B orange)</h4>", f);
    rj_svg_strip(f, a, na, b, nb, unit);
    fputs("</div><div class=\"card\"><h4>Histograms on one scale</h4>", f);
    rj_svg_histogram(f, a, na, b, nb, unit, la, lb);
    fputs("</div></div>", f);
    free(a);
    free(b);
}

static void part_comparisons(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "comparisons"), *list, *el;
    size_t i;
    fputs("<h2 id=\"comparisons\">A/B comparisons</h2>", f);
    if (section_missing(f, sec))
        return;
    list = rj_comparisons_list(sec);
    json_array_foreach(list, i, el)
        if (json_is_object(el))
            comparison_card(f, el);
    if (json_is_object(sec) && kv_count(sec)) {
        fputs("<h3>Other comparison results</h3>", f);
        kv_table(f, sec);
    }
}

static void bytemark_row(FILE *f, json_t *t)
{
    static const char *const mean_keys[] = { "mean", "score", NULL };
    static const char *const sd_keys[] = { "sd", "stddev", NULL };
    static const char *const half_keys[] = { "half", "half_interval", "ci95_half", NULL };
    static const char *const old_keys[] = { "old_index", "index_old", "p90_index", NULL };
    static const char *const new_keys[] = { "new_index", "index_new", "k6_index", NULL };
    double *x;
    size_t n = rj_run_scores(t, &x);
    double mean = rj_num_any(t, mean_keys), sd = rj_num_any(t, sd_keys), half = rj_num_any(t, half_keys);
    char b[6][48];
    if (n && (isnan(mean) || isnan(sd) || isnan(half))) {
        double *s = malloc(n * sizeof *s);
        struct stats_summary xs;
        struct stats_bytemark bm;
        if (s && !stats_summary_double(x, n, s, NULL, &xs)) {
            stats_bytemark_rule(n, xs.mean, xs.sd_sample, &bm);
            mean = isnan(mean) ? xs.mean : mean;
            sd = isnan(sd) ? xs.sd_sample : sd;
            half = isnan(half) ? bm.half : half;
        }
        free(s);
    }
    fputs("<tr><td>", f);
    rj_html(f, rj_name(t, "?"));
    fputs("</td><td>", f);
    rj_html(f, rj_str(t, "status", ""));
    if (rj_str(t, "why", NULL)) {
        fputs(": ", f);
        rj_html(f, rj_str(t, "why", ""));
    }
    fputs("</td><td>", f);
    rj_html(f, rj_str(t, "unit", ""));
    fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n score\">%s</td><td class=\"n\">%s</td><td class=\"n\">",
            n, rj_fmt(b[0], 48, mean), rj_fmt(b[1], 48, sd));
    if (!isnan(half) && mean > 0)
        fprintf(f, "&plusmn;&nbsp;%s (%s%%)", rj_fmt(b[2], 48, half), rj_fmt(b[3], 48, round(half / mean * 1000) / 10));
    else
        fputs("-", f);
    fputs("</td><td>", f);
    rj_svg_runs(f, x, n, mean, half);
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>", rj_fmt(b[4], 48, rj_num_any(t, old_keys)),
            rj_fmt(b[5], 48, rj_num_any(t, new_keys)));
    free(x);
}

/* BYTEmark's index names and baselines (bench/bytemark/bytemark.c). */
static void index_table(FILE *f, json_t *idx)
{
    static const char *const names[][2] = {
        { "original_integer", "Integer index (original: Pentium 90 = 1)" },
        { "original_fp", "Floating-point index (original: Pentium 90 = 1)" },
        { "linux_memory", "Memory index (Linux: AMD K6-233 = 1)" },
        { "linux_integer", "Integer index (Linux: AMD K6-233 = 1)" },
        { "linux_fp", "Floating-point index (Linux: AMD K6-233 = 1)" },
        { "tests_missing", "Tests that did not run (left out of the products)" },
    };
    const char *k;
    json_t *v;
    fputs("<table id=\"bytemark-indexes\">", f);
    json_object_foreach(idx, k, v) {
        const char *label = k;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (!strcmp(names[i][0], k))
                label = names[i][1];
        fputs("<tr><th>", f);
        rj_html(f, label);
        fputs("</th>", f);
        td(f, v);
        fputs("</tr>", f);
    }
    fputs("</table>", f);
}

static void part_bytemark(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "bytemark"), *tests, *t, *idx;
    size_t i;
    fputs("<h2 id=\"bytemark\">BYTEmark kernels</h2>", f);
    if (section_missing(f, sec))
        return;
    tests = rj_bytemark_tests(sec);
    if (array_of_objects(tests)) {
        fputs("<table id=\"bytemark-tests\"><tr><th>test</th><th>status</th><th>unit</th><th>runs</th><th>score (mean)</th><th>sd</th>"
              "<th>95% interval</th><th>runs (dots) and the 95% interval</th><th>old index</th><th>new index</th></tr>", f);
        json_array_foreach(tests, i, t)
            bytemark_row(f, t);
        fputs("</table>", f);
    }
    idx = json_object_get(sec, "indexes");
    fputs("<h3>Indexes</h3>", f);
    if (json_is_object(idx))
        index_table(f, idx);
    else
        fputs("<p class=\"none\">not computed (CUSTOMRUN, as in BYTEmark, or not in the results)</p>", f);
    if (json_is_object(sec)) {
        fputs("<h3>Run settings</h3>", f);
        kv_table_skip(f, sec, "indexes");
    }
}

/* Sections this report has no special view of (verify, config, ...). */
static void part_others(struct report *r)
{
    static const char *const known[] = { "schema", "name", "build", "system", "host", "clock", "quiet", "methods",
                                         "comparisons", "bytemark", "errors", "status", "ended", NULL };
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v) {
        const char *const *q = known;
        while (*q && strcmp(*q, k))
            q++;
        if (*q || is_scalar(v))
            continue;
        fputs("<h2>", r->f);
        rj_html(r->f, k);
        fputs("</h2>", r->f);
        if (json_is_object(v))
            generic_object(r->f, v, NULL);
        else if (array_of_objects(v))
            list_table(r->f, v);
        else
            cell_value(r->f, v);
    }
}

static int report_write(json_t *root, FILE *f, const char *src)
{
    struct report r = { f, root };
    fputs("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>baremark ", f);
    rj_html(f, rj_str(root, "name", "run"));
    fprintf(f, "</title><style>%s</style></head><body>", report_css);
    part_header(&r);
    machine_line(f, root);
    part_machine(&r);
    part_clock(&r);
    part_quiet(&r);
    part_methods(&r);
    part_comparisons(&r);
    part_bytemark(&r);
    part_others(&r);
    fputs("<footer>made by baremark report from ", f);
    rj_html(f, src);
    fprintf(f, " (results schema %d); figures are as the run wrote them, p-values marked \"recomputed\" "
            "come from the raw samples</footer></body></html>\n", RJ_SCHEMA_VERSION);
    return ferror(f) ? -1 : 0;
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
    int rc = report_write(root, f, in);
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
