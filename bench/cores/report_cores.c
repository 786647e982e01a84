/*
 * bench/cores/report_cores.c - the report's cores section (bench/cores/cores_section.c):
 * every logical CPU (with its SMT core and TSC_ADJUST), how the TSC reads
 * were fenced, the TSC of each against the bootstrap processor (warp
 * handoffs, offsets, the fitted rates with what they could detect), the
 * cache-line round trips between every pair as a heat map (with the one-way
 * half), the per-core and all-core BYTEmark scores (SMT siblings, overlap).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_cores.h"
#include "report_parts.h"
#include "report_util.h"

static void cores_td_num(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fputs("<td class=\"n none\">-</td>", f);
    else {
        fputs("<td class=\"n\">", f);
        fprintf(f, fmt, v);
        fputs("</td>", f);
    }
}

static void cores_td_str(FILE *f, const char *s)
{
    fputs("<td>", f);
    html_put(f, s ? s : "-");
    fputs("</td>", f);
}

static void cores_list(FILE *f, json_t *sec)
{
    json_t *cpu;
    size_t i;
    fputs("<table id=\"cores-cpus\"><tr><th>CPU</th><th>APIC ID</th><th>firmware package/core/thread</th>"
          "<th>CPUID package/core/thread</th><th>core type</th><th>SMT: core of CPU (threads)</th>"
          "<th>IA32_TSC_ADJUST</th><th>state</th><th>note</th></tr>", f);
    json_array_foreach(json_object_get(sec, "cpus"), i, cpu) {
        json_t *fw = json_object_get(cpu, "firmware"), *id = json_object_get(cpu, "cpuid");
        fprintf(f, "<tr><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f/%.0f/%.0f</td>",
                doc_num(cpu, "number", NAN), doc_num(cpu, "apic_id", NAN), doc_num(fw, "package", NAN),
                doc_num(fw, "core", NAN), doc_num(fw, "thread", NAN));
        if (json_is_object(id) && json_object_get(id, "package"))
            fprintf(f, "<td class=\"n\">%.0f/%.0f/%.0f</td>", doc_num(id, "package", NAN),
                    doc_num(id, "core", NAN), doc_num(id, "thread", NAN));
        else
            fputs("<td class=\"none\">-</td>", f);
        cores_td_str(f, json_is_object(id) ? doc_str(id, "core_type", NULL) : NULL);
        if (json_object_get(cpu, "core_of"))
            fprintf(f, "<td class=\"n\">%.0f (%.0f)</td>", doc_num(cpu, "core_of", NAN), doc_num(cpu, "threads_in_core", NAN));
        else
            fputs("<td class=\"none\">-</td>", f);
        if (json_is_object(id) && json_object_get(id, "tsc_adjust"))
            fprintf(f, "<td class=\"n\">%.0f</td>", doc_num(id, "tsc_adjust", NAN));
        else
            cores_td_str(f, json_is_object(id) ? doc_str(id, "tsc_adjust_msr", NULL) : NULL);
        cores_td_str(f, doc_str(cpu, "state", NULL));
        cores_td_str(f, doc_str(cpu, "why", ""));
        fputs("</tr>", f);
    }
    fputs("</table>", f);
}

static void cores_tsc(FILE *f, json_t *sec)
{
    json_t *tsc = json_object_get(sec, "tsc"), *t;
    size_t i;
    if (!json_is_object(tsc))
        return;
    json_t *rd = json_object_get(sec, "tsc_read");
    if (json_is_object(rd)) {
        fputs("<p>Every TSC read around a cross-CPU access: <code>", f);
        html_put(f, doc_str(rd, "why", "?"));
        fputs("</code>.</p>", f);
    }
    fprintf(f, "<h3>TSC against CPU %.0f</h3><p>Warp check: the largest backward step of one CPU's TSC "
            "against the other's read just before it under a lock, counted only on handoffs (a read "
            "right after the other CPU's; %.0f turns each, at least %.0f handoffs wanted). It cannot see "
            "an offset smaller than the time one handoff takes. Offset: the interval the round trips allow "
            "(%.0f each way), its midpoint &plusmn; half-width. Rate: least squares of each CPU's TSC "
            "against the ", doc_num(tsc, "reference_cpu", NAN), doc_num(tsc, "warp_loops", NAN),
            doc_num(tsc, "warp_min_handoffs", NAN), doc_num(tsc, "round_trips_each_way", NAN));
    html_put(f, doc_str(tsc, "reference", "?"));
    fprintf(f, " over %.0f session(s) of %.0f edges spread over the section; &plusmn; is the 95%% half-width "
            "of the difference; a difference below the detectable one may have been missed (largest: %.3g ppm). "
            "Bounds for a warning: %.0f ns, %.0f ppm.</p>", doc_num(tsc, "rate_sessions", NAN),
            doc_num(tsc, "rate_points_per_session", NAN), doc_num(tsc, "rate_detectable_ppm", NAN),
            doc_num(tsc, "skew_bound_ns", NAN), doc_num(tsc, "rate_bound_ppm", NAN));
    fputs("<table id=\"cores-tsc\"><tr><th>CPU</th><th>warp: largest step back (ticks)</th><th>handoffs</th>"
          "<th>offset (ns)</th><th>&plusmn; ns</th><th>rate (MHz)</th><th>vs reference CPU (ppm)</th>"
          "<th>&plusmn; ppm (95%)</th><th>detectable (ppm)</th><th>note</th></tr>", f);
    json_array_foreach(json_object_get(tsc, "cpus"), i, t) {
        fprintf(f, "<tr><td class=\"n\">%.0f</td>", doc_num(t, "cpu", NAN));
        cores_td_num(f, doc_num(t, "warp_max_back_ticks", NAN), "%.0f");
        cores_td_num(f, doc_num(t, "warp_handoffs", NAN), "%.0f");
        cores_td_num(f, doc_fig_num(t, &figures_cores, FIG_CORES_TSC_OFFSET_NS), "%+.1f");
        cores_td_num(f, doc_num(t, "offset_uncertainty_ns", NAN), "%.1f");
        cores_td_num(f, doc_num(t, "rate_hz", NAN) / 1e6, "%.6f");
        cores_td_num(f, doc_fig_num(t, &figures_cores, FIG_CORES_TSC_RATE_PPM), "%+.3f");
        cores_td_num(f, doc_num(t, "rate_uncertainty_ppm", NAN), "%.3f");
        cores_td_num(f, doc_num(t, "rate_detectable_ppm", NAN), "%.3f");
        cores_td_str(f, doc_str(t, "why", NULL) ? doc_str(t, "why", "")
                        : !doc_bool(t, "offset_consistent", 1) ? "empty offset interval: the TSCs drift" : "");
        fputs("</tr>", f);
    }
    fputs("</table>", f);
}

/* The matrix as a heat map: cell colour from the minimum round trip, pale
 * (the fastest pair) to dark red (the slowest). */
static void cores_heatmap(FILE *f, json_t *sec)
{
    json_t *lat = json_object_get(sec, "latency");
    json_t *mn = json_object_get(lat, "min_ns"), *md = json_object_get(lat, "median_ns");
    json_t *ids = json_object_get(lat, "cpus");
    size_t n = json_array_size(ids);
    double lo = INFINITY, hi = -INFINITY;
    if (!json_is_object(lat))
        return;
    fprintf(f, "<h3>Core-to-core latency</h3><p><b>Round trip</b> between two CPUs: one writes a ping "
            "flag, the other answers on a pong flag, each flag alone in its own 128-byte block (so the "
            "adjacent-line prefetcher moves nothing else): minimum / median over %.0f samples of %.0f round "
            "trips, in ns, and one way (half the round trip, as other core-to-core tools report) in "
            "brackets. Half assumes both directions cost the same. Colour: the minimum, from the fastest "
            "pair (pale) to the slowest (dark).</p>",
            doc_num(lat, "samples", NAN), doc_num(lat, "round_trips_per_sample", NAN));   /* not a row: latency.* */
    if (!json_is_array(mn) || json_array_size(mn) != n) {
        fputs("<p class=\"none\">no matrix</p>", f);
        return;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            json_t *v = json_array_get(json_array_get(mn, i), j);
            if (json_is_number(v)) {
                double x = json_number_value(v);
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
        }
    fputs("<table id=\"cores-latency\" class=\"heatmap\"><tr><th>CPU</th>", f);
    for (size_t j = 0; j < n; j++)
        fprintf(f, "<th>%.0f</th>", json_number_value(json_array_get(ids, j)));
    fputs("</tr>", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<tr><th>%.0f</th>", json_number_value(json_array_get(ids, i)));
        for (size_t j = 0; j < n; j++) {
            json_t *v = json_array_get(json_array_get(mn, i), j), *w = json_array_get(json_array_get(md, i), j);
            if (!json_is_number(v)) {
                fputs(i == j ? "<td class=\"none\">-</td>" : "<td class=\"none\">n/a</td>", f);
                continue;
            }
            double x = json_number_value(v), k = hi > lo ? (x - lo) / (hi - lo) : 0;
            /* lightness 95% (fastest) .. 45% (slowest), white text on the dark half */
            fprintf(f, "<td class=\"n\" style=\"background:hsl(8,75%%,%.0f%%)%s\" title=\"CPU %.0f - CPU %.0f\">"
                    "%.0f / %.0f (%.0f / %.0f)</td>", 95 - 50 * k, k > 0.6 ? ";color:#fff" : "",
                    json_number_value(json_array_get(ids, i)), json_number_value(json_array_get(ids, j)), x,
                    json_is_number(w) ? json_number_value(w) : NAN, x / 2,
                    json_is_number(w) ? json_number_value(w) / 2 : NAN);
        }
        fputs("</tr>", f);
    }
    fputs("</table>", f);
    if (lo <= hi)
        fprintf(f, "<p>fastest pair %.0f ns, slowest %.0f ns (minimum round trips)</p>", lo, hi);
}

/* Whether any all-at-once entry has member key. */
static int cores_any(json_t *sc, const char *key)
{
    json_t *a;
    size_t i;
    json_array_foreach(json_object_get(sc, "all_cores"), i, a)
        if (json_object_get(a, key))
            return 1;
    return 0;
}

static void cores_scores(FILE *f, json_t *root, json_t *sec)
{
    json_t *sc = json_object_get(sec, "scores"), *p, *t, *a;
    size_t i, k;
    if (!json_is_object(sc))
        return;
    fputs("<h3>BYTEmark on each CPU, then on all at once</h3><p>Profile ", f);
    html_put(f, doc_run_profile(root, "?"));
    fputs("; each cell: mean &plusmn; the 95% half-interval (relative).</p><table id=\"cores-scores\"><tr><th>CPU</th>", f);
    json_array_foreach(json_object_get(sc, "tests"), i, t) {
        fputs("<th>", f);
        html_put(f, json_string_value(t));
        fputs("</th>", f);
    }
    fputs("</tr>", f);
    json_array_foreach(json_object_get(sc, "per_core"), i, p) {
        fprintf(f, "<tr><td class=\"n\">%.0f</td>", doc_num(p, "cpu", NAN));
        json_array_foreach(json_object_get(p, "tests"), k, t) {
            if (!strcmp(doc_str(t, "status", ""), "ok"))     /* not a row: a test's status, scores.* */
                fprintf(f, "<td class=\"n\">%.5g &plusmn; %.1f%%</td>", doc_fig_num(t, &figures_cores, FIG_CORES_PER_CORE_MEAN),
                        100 * doc_num(t, "rel_half", NAN));
            else {
                fputs("<td class=\"status2\">", f);
                html_put(f, doc_str(t, "status", "?"));      /* not a row: as above */
                if (doc_str(t, "why", NULL)) {
                    fputs(": ", f);
                    html_put(f, doc_str(t, "why", ""));
                }
                fputs("</td>", f);
            }
        }
        fputs("</tr>", f);
    }
    /* One line per cell (numbers never wrap): the sum, then the cores
     * behind it, then how much of the time all ran at once, a row each. */
    fputs("<tr><th>all at once: sum</th>", f);
    json_array_foreach(json_object_get(sc, "all_cores"), i, a)
        fprintf(f, "<td class=\"n\">%.5g on %.0f CPUs (%.2f &times; one core)</td>", doc_fig_num(a, &figures_cores, FIG_CORES_ALL_CORES_SUM),
                doc_num(a, "cpus", NAN), doc_fig_num(a, &figures_cores, FIG_CORES_ALL_CORES_RATIO));
    fputs("</tr>", f);
    if (cores_any(sc, "cores")) {
        fputs("<tr><th>cores behind the sum</th>", f);
        json_array_foreach(json_object_get(sc, "all_cores"), i, a) {
            if (!json_object_get(a, "cores")) {
                fputs("<td></td>", f);
                continue;
            }
            fprintf(f, "<td class=\"n\">%.0f core%s%s</td>", doc_num(a, "cores", NAN),
                    doc_num(a, "cores", 0) == 1 ? "" : "s",
                    doc_bool(a, "smt_siblings", 0) ? " (SMT siblings: a sum over threads)" : "");
        }
        fputs("</tr>", f);
    }
    if (cores_any(sc, "overlap")) {
        fputs("<tr><th>time all ran at once</th>", f);
        json_array_foreach(json_object_get(sc, "all_cores"), i, a) {
            json_t *o = json_object_get(a, "overlap");
            if (!json_is_object(o)) {
                fputs("<td></td>", f);
                continue;
            }
            fprintf(f, "<td class=\"n\">%.0f%% of %.1f ms, %.2f running on average</td>",
                    100 * doc_num(o, "all_at_once_fraction", NAN), doc_num(o, "span_ms", NAN),
                    doc_num(o, "mean_running", NAN));
        }
        fputs("</tr>", f);
    }
    fputs("</tr></table>", f);
}

static void part_cores(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "cores");
    if (rp_section_missing(f, sec))
        return;
    fprintf(f, "<p>%.0f logical CPUs (%.0f enabled)%s; bootstrap processor CPU %.0f; selected (CORES=",
            doc_fig_num(sec, &figures_cores, FIG_CORES_COUNT), doc_fig_num(sec, &figures_cores, FIG_CORES_ENABLED),
            doc_bool(sec, "mp_services", 0) ? " through the firmware's MP Services" : ", no MP Services",
            doc_fig_num(sec, &figures_cores, FIG_CORES_BSP));
    html_put(f, doc_str(sec, "cores_setting", "?"));
    fprintf(f, "): %zu.</p>", json_array_size(json_object_get(sec, "selected")));
    if (doc_str(sec, "note", NULL)) {
        fputs("<p>", f);
        html_put(f, doc_str(sec, "note", ""));
        fputs("</p>", f);
    }
    cores_list(f, sec);
    cores_tsc(f, sec);
    cores_heatmap(f, sec);
    cores_scores(f, r->root, sec);
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_cores = { "cores", "cores", "Cores", part_cores };
