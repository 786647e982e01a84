/*
 * bench/memory/report_memory.c - the report's memory part: the caches the CPU
 * states, latency per load and bandwidth by working-set size as log-scale
 * plots (x: size, log 2; y: log 10) with the cache sizes marked, the knees,
 * the vector widths and the AVX state, the pages behind the buffer and the
 * TLB-against-cache chase, and the table of every size.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_memory.h"
#include "report_parts.h"
#include "report_util.h"

#define MP_W 620
#define MP_H 260
#define MP_L 64
#define MP_R 16
#define MP_T 20
#define MP_B 40

struct mp_series { const char *cls, *label; double y[64]; };
/* The bandwidth kernels plotted (bench/memory/memory.h MEMORY_BW_*). */
#define MP_OPS 5

static double mp_x(double size, double lo, double hi)
{
    return MP_L + (log2(size) - lo) / (hi - lo > 0 ? hi - lo : 1) * (MP_W - MP_L - MP_R);
}

static double mp_y(double v, double lo, double hi)
{
    return MP_H - MP_B - (log10(v) - lo) / (hi - lo > 0 ? hi - lo : 1) * (MP_H - MP_T - MP_B);
}

static void mp_size_label(char *b, size_t n, double s)
{
    if (s >= 1 << 30)
        snprintf(b, n, "%gG", s / (1 << 30));
    else if (s >= 1 << 20)
        snprintf(b, n, "%gM", s / (1 << 20));
    else
        snprintf(b, n, "%gK", s / 1024);
}

/* One log-log plot of ns series over sizes, the caches as dashed lines. */
static void mp_plot(FILE *f, const char *id, const char *ylabel, const double *size, size_t n,
                    const struct mp_series *s, size_t ns, json_t *caches)
{
    double xlo = log2(size[0]), xhi = log2(size[n - 1]), ylo = INFINITY, yhi = -INFINITY;
    size_t pts = 0;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < n; i++)
            if (s[k].y[i] > 0 && isfinite(s[k].y[i])) {
                ylo = fmin(ylo, log10(s[k].y[i]));
                yhi = fmax(yhi, log10(s[k].y[i]));
            }
    if (!isfinite(ylo))
        return;
    ylo = floor(ylo);
    yhi = ceil(yhi) > ylo ? ceil(yhi) : ylo + 1;
    fprintf(f, "<svg id=\"%s\" class=\"memplot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "data-xscale=\"log2\" data-yscale=\"log10\" role=\"img\">", id, MP_W, MP_H, MP_W, MP_H);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", MP_L, MP_H - MP_B, MP_W - MP_R, MP_H - MP_B);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", MP_L, MP_T, MP_L, MP_H - MP_B);
    for (double d = ylo; d <= yhi + 1e-9; d += 1)
        fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>", MP_L - 4,
                mp_y(pow(10, d), ylo, yhi) + 4, pow(10, d));
    for (double e = ceil(xlo); e <= xhi + 1e-9; e += 2) {
        char b[16];
        mp_size_label(b, sizeof b, pow(2, e));
        fprintf(f, "<text class=\"lbl\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", mp_x(pow(2, e), xlo, xhi),
                MP_H - MP_B + 14, b);
    }
    fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">working set (log scale)</text>",
            (MP_L + MP_W) / 2, MP_H - 6);
    fprintf(f, "<text class=\"lbl\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">%s</text>",
            (MP_T + MP_H - MP_B) / 2, (MP_T + MP_H - MP_B) / 2, ylabel);
    size_t i;
    json_t *c;
    json_array_foreach(caches, i, c) {
        double cs = doc_num(c, "size_bytes", NAN);
        if (!strcmp(doc_str(c, "type", ""), "instruction") || !(log2(cs) >= xlo && log2(cs) <= xhi))
            continue;
        double x = mp_x(cs, xlo, xhi);
        fprintf(f, "<line class=\"cache\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\" "
                "stroke-dasharray=\"4 3\"/><text class=\"lbl\" x=\"%.1f\" y=\"%d\">", x, MP_T, x, MP_H - MP_B, x + 3, MP_T + 10);
        html_put(f, doc_str(c, "name", "?"));
        fputs("</text>", f);
    }
    static const char *const colour[] = { "#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756" };
    for (size_t k = 0; k < ns; k++) {
        fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", s[k].cls, colour[k % 5]);
        for (i = 0; i < n; i++)
            if (s[k].y[i] > 0 && isfinite(s[k].y[i]))
                fprintf(f, "%.1f,%.1f ", mp_x(size[i], xlo, xhi), mp_y(s[k].y[i], ylo, yhi));
        fputs("\"/>", f);
        for (i = 0; i < n; i++)
            if (s[k].y[i] > 0 && isfinite(s[k].y[i])) {
                fprintf(f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", s[k].cls,
                        mp_x(size[i], xlo, xhi), mp_y(s[k].y[i], ylo, yhi), colour[k % 5]);
                pts++;
            }
        fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"%zu\" fill=\"%s\">%s</text>", MP_W - MP_R - 120,
                MP_T + 12 + 12 * k, colour[k % 5], s[k].label);
    }
    fprintf(f, "<desc data-points=\"%zu\"></desc></svg>", pts);
}

/* The widths measured and skipped (why), the AVX state, the peaks. */
static void mp_vectors(FILE *f, json_t *vec, json_t *peaks)
{
    char b1[48];
    size_t i;
    json_t *w;
    if (!json_is_object(vec))
        return;
    fputs("<p id=\"memory-vectors\">Vector widths:", f);
    json_array_foreach(json_object_get(vec, "widths"), i, w) {
        fputs(i ? "; " : " ", f);
        html_put(f, doc_str(w, "width", "?"));
        fprintf(f, " (%s bytes) ", num_text(b1, sizeof b1, doc_num(w, "vector_bytes", NAN)));
        if (json_is_true(json_object_get(w, "measured")))
            fputs("measured", f);
        else {
            fputs("skipped: ", f);
            html_put(f, doc_str(w, "why", "?"));
        }
    }
    fputs(". AVX state enabled by ", f);
    html_put(f, doc_str(vec, "enabled_by", "?"));
    fprintf(f, " (XCR0 %s%s).", num_text(b1, sizeof b1, doc_num(vec, "xcr0", NAN)),
            !strcmp(doc_str(vec, "enabled_by", ""), "baremark") && json_is_true(json_object_get(vec, "restored"))
                ? "; the state found was restored after" : "");
    const char *key;
    json_t *o;
    i = 0;
    json_object_foreach(peaks, key, o) {
        fputs(i++ ? "; " : " Peaks: ", f);
        html_put(f, key);
        fputs(" with ", f);
        html_put(f, doc_str(o, "width", "?"));
        fprintf(f, " at %s bytes", num_text(b1, sizeof b1, doc_num(o, "size_bytes", NAN)));
    }
    fputs("</p>", f);
}

/* The pages behind the buffer and the TLB chase's rows. */
static void mp_pages(FILE *f, json_t *pg, json_t *tlb)
{
    char b1[48], b2[48], b3[48];
    size_t i;
    json_t *row;
    if (json_is_object(pg)) {
        fputs("<p id=\"memory-pages\">Pages behind the buffer (", f);
        html_put(f, doc_str(pg, "source", "?"));
        fprintf(f, "): %s bytes in 4 KiB pages, %s in 2 MiB, %s in 1 GiB, %s not mapped or not resident",
                num_text(b1, sizeof b1, doc_num(pg, "bytes_4k", NAN)), num_text(b2, sizeof b2, doc_num(pg, "bytes_2m", NAN)),
                num_text(b3, sizeof b3, doc_num(pg, "bytes_1g", NAN)), num_text(b1, sizeof b1, doc_num(pg, "bytes_unmapped", NAN)));
        if (doc_str(pg, "note", "")[0]) {
            fputs("; ", f);
            html_put(f, doc_str(pg, "note", ""));
        }
        fputs(".</p>", f);
    }
    if (!json_array_size(json_object_get(tlb, "rows")))
        return;
    fputs("<p>TLB against cache: the same lines chased packed (64 to a 4 KiB page) and spread (one to a page, in "
          "the same cache sets); the difference is the cost of reaching more pages, not of the caches.</p>"
          "<table id=\"memory-tlb\"><tr><th>lines</th><th>4 KiB pages packed</th><th>spread</th>"
          "<th>packed per load</th><th>spread per load</th></tr>", f);
    json_array_foreach(json_object_get(tlb, "rows"), i, row) {
        json_t *a = json_object_get(row, "packed"), *b = json_object_get(row, "spread");
        double pa = doc_num(a, "ns_median", NAN), pb = doc_num(b, "ns_median", NAN);    /* not a row: tlb.* */
        const char *u = " ns";
        if (!isfinite(pa)) {
            pa = doc_num(a, "ticks_median", NAN) / doc_num(a, "loads", NAN);
            pb = doc_num(b, "ticks_median", NAN) / doc_num(b, "loads", NAN);
            u = " ticks";
        }
        fprintf(f, "<tr><td class=\"n\">%s</td><td class=\"n\">%s</td>", num_text(b1, sizeof b1, doc_num(row, "lines", NAN)),
                num_text(b2, sizeof b2, doc_num(a, "pages_4k", NAN)));
        fprintf(f, "<td class=\"n\">%s</td>", num_text(b1, sizeof b1, doc_num(b, "pages_4k", NAN)));
        fprintf(f, "<td class=\"n\">%s%s</td>", num_text(b1, sizeof b1, pa), u);
        fprintf(f, "<td class=\"n\">%s%s</td></tr>", num_text(b1, sizeof b1, pb), u);
    }
    fputs("</table>", f);
}

static void part_memory(struct report *r)
{
    FILE *f = r->f;
    json_t *sec = json_object_get(r->root, "memory");
    if (!json_is_object(sec))
        return;
    json_t *lat = json_object_get(sec, "latency"), *bw = json_object_get(sec, "bandwidth");
    json_t *caches = json_object_get(json_object_get(sec, "caches"), "list");
    char b1[48], b2[48], b3[48];
    size_t n = json_is_array(lat) ? json_array_size(lat) : 0, i;
    if (n > 64)
        n = 64;

    fputs("<p>", f);
    html_put(f, doc_run_profile(r->root, "?"));      /* a string from the file: escaped like every other */
    fprintf(f, " profile, %s timings per size; %s bytes allocated with ",
            num_text(b1, sizeof b1, doc_fig_num(sec, &figures_memory, FIG_MEMORY_SAMPLES)),
            num_text(b2, sizeof b2, doc_fig_num(sec, &figures_memory, FIG_MEMORY_ALLOCATED_BYTES)));
    html_put(f, doc_str(sec, "allocator", "?"));
    fprintf(f, "; free memory %s bytes", num_text(b3, sizeof b3, doc_fig_num(sec, &figures_memory, FIG_MEMORY_FREE_BYTES)));
    if (doc_str(sec, "limited_by", "")[0]) {
        fprintf(f, "; the profile asked for %s bytes, bounded by ", num_text(b1, sizeof b1,
                doc_fig_num(sec, &figures_memory, FIG_MEMORY_WANT_TOP_BYTES)));
        html_put(f, doc_str(sec, "limited_by", ""));
    }
    fputs(". Latency: dependent loads around a random cycle of lines; bandwidth: the fastest vector width of "
          "each kernel (read; write of a changing non-zero pattern; write_nt with non-temporal stores; copy of "
          "half the set to the other half, bytes copied; STREAM's triad a = b + 3c, bytes as STREAM counts them). "
          "Under QEMU's TCG there is no cache or TLB cost model: every size costs the same per instruction. "
          "Caches (", f);
    html_put(f, doc_str(json_object_get(sec, "caches"), "source", "?"));
    fputs("):", f);
    json_t *c;
    json_array_foreach(caches, i, c) {
        fputs(i ? ", " : " ", f);
        html_put(f, doc_str(c, "name", "?"));
        fprintf(f, " %s bytes", num_text(b1, sizeof b1, doc_num(c, "size_bytes", NAN)));
    }
    fputs(".</p>", f);
    mp_vectors(f, json_object_get(sec, "vector"), json_object_get(sec, "bandwidth_peaks"));
    mp_pages(f, json_object_get(sec, "pages"), json_object_get(sec, "tlb"));
    if (!n) {
        fputs("<p>No sizes were measured.</p>", f);
        return;
    }
    double size[64];
    struct mp_series ls[2] = { { "lat-min", "ns/load (min)", { 0 } }, { "lat-med", "ns/load (median)", { 0 } } };
    struct mp_series bs[MP_OPS] = { { "bw-read", "read", { 0 } }, { "bw-write", "write", { 0 } },
                                    { "bw-write-nt", "write_nt", { 0 } }, { "bw-copy", "copy", { 0 } },
                                    { "bw-triad", "triad", { 0 } } };
    static const unsigned bw_rows[MP_OPS] = { FIG_MEMORY_READ_BEST, FIG_MEMORY_WRITE_BEST, FIG_MEMORY_WRITE_NT_BEST,
                                              FIG_MEMORY_COPY_BEST, FIG_MEMORY_TRIAD_BEST };   /* as bs */
    int ticks = 0;
    for (i = 0; i < n; i++) {
        json_t *row = json_array_get(lat, i), *b = json_array_get(bw, i);
        size[i] = doc_num(row, "size_bytes", NAN);
        ls[0].y[i] = doc_num(row, "ns_min", NAN);
        ls[1].y[i] = doc_fig_num(row, &figures_memory, FIG_MEMORY_LATENCY_NS_MEDIAN);
        if (!isfinite(ls[0].y[i])) {   /* no clock: ticks per load */
            ticks = 1;
            ls[0].y[i] = doc_num(row, "ticks_min", NAN) / doc_num(row, "loads", NAN);
            ls[1].y[i] = doc_num(row, "ticks_median", NAN) / doc_num(row, "loads", NAN);
        }
        for (int k = 0; k < MP_OPS; k++) {
            json_t *o = json_object_get(b, bs[k].label);
            bs[k].y[i] = ticks ? doc_num(o, "bytes", NAN) / doc_num(o, "ticks_min", NAN)
                               : doc_fig_num(b, &figures_memory, bw_rows[k]) / 1e9;
        }
    }
    mp_plot(f, "memory-latency", ticks ? "ticks per load" : "ns per load", size, n, ls, 2, caches);
    if (json_is_array(bw) && json_array_size(bw) >= n)
        mp_plot(f, "memory-bandwidth", ticks ? "bytes per tick (best)" : "GB/s (best)", size, n, bs, MP_OPS, caches);
    json_t *knees = json_object_get(sec, "knees"), *k;
    if (json_array_size(knees)) {
        fputs("<p>Knees (the median latency rises by 25% or more over the size before):", f);
        json_array_foreach(knees, i, k) {
            fprintf(f, "%s %s bytes (x%s", i ? "," : "", num_text(b1, sizeof b1, doc_num(k, "size_bytes", NAN)),
                    num_text(b2, sizeof b2, doc_num(k, "ratio", NAN)));
            if (json_is_string(json_object_get(k, "label"))) {
                fputs(": ", f);
                html_put(f, doc_str(k, "label", ""));
            } else if (json_is_string(json_object_get(k, "past"))) {   /* runs before the label */
                fputs(", past ", f);
                html_put(f, doc_str(k, "past", ""));
            } else if (json_is_string(json_object_get(k, "within"))) {
                fputs(", within ", f);
                html_put(f, doc_str(k, "within", ""));
            }
            fputs(")", f);
        }
        fputs("</p>", f);
    }
    const char *u = ticks ? "bytes/tick" : "GB/s";
    fprintf(f, "<table id=\"memory-table\"><tr><th>size (bytes)</th><th>fits in</th><th>loads</th><th>ns/load min</th>"
            "<th>ns/load median</th><th>read %s</th><th>write %s</th><th>write_nt %s</th><th>copy %s</th>"
            "<th>triad %s</th></tr>", u, u, u, u, u);
    for (i = 0; i < n; i++) {
        json_t *row = json_array_get(lat, i);
        fprintf(f, "<tr><td class=\"n\">%s</td><td>", num_text(b1, sizeof b1, size[i]));
        html_put(f, doc_str(row, "fits", ""));
        fprintf(f, "</td><td class=\"n\">%s</td>", num_text(b1, sizeof b1, doc_num(row, "loads", NAN)));
        fprintf(f, "<td class=\"n\">%s</td><td class=\"n\">%s</td>", num_text(b1, sizeof b1, doc_num(row, "ns_min", NAN)),
                num_text(b2, sizeof b2, doc_fig_num(row, &figures_memory, FIG_MEMORY_LATENCY_NS_MEDIAN)));
        for (int q = 0; q < MP_OPS; q++)
            fprintf(f, "<td class=\"n\">%s</td>", num_text(b1, sizeof b1, bs[q].y[i]));
        fputs("</tr>", f);
    }
    fputs("</table>", f);
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_memory = { "memory", "memory", "Memory hierarchy", part_memory };
