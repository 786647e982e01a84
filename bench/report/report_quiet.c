/*
 * bench/report/report_quiet.c - the report's quiet-machine part: the TSC gap check
 * (clock.quiet, or the hosted program's quiet document) and each section's
 * measuring phases.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_host.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

/* The quiet-machine check (the image's clock.quiet or the hosted
 * program's quiet document) and each section's measuring phases. */
static void quiet_phase_row(FILE *f, const char *what, json_t *q, int single)
{
    char b1[48], b2[48], b3[48];
    double phases = single ? 1 : doc_num(q, "phases", NAN);
    double stopped = single ? (json_is_true(json_object_get(q, "timer_stopped")) ? 1 : 0)
                            : doc_num(q, "timer_stopped_phases", NAN);
    fputs("<tr><td>", f);
    html_put(f, what);
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
            num_text(b1, sizeof b1, phases), num_text(b2, sizeof b2, stopped));
    html_put(f, doc_str(q, "timer_note", ""));
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">", num_text(b3, sizeof b3, doc_num(q, "nmis", NAN)));
    if (json_is_true(json_object_get(q, "smi_counted")))
        fputs(num_text(b1, sizeof b1, doc_num(q, "smis", NAN)), f);
    else
        fputs("not counted", f);
    fputs("</td></tr>", f);
}

static void part_quiet(struct report *r)
{
    FILE *f = r->f;
    json_t *clock = json_object_get(r->root, "clock");
    json_t *q = json_object_get(clock, "quiet"), *ph, *sec;
    const char *k;
    char b1[48], b2[48];
    int any = 0;

    if (!json_is_object(q))
        q = json_object_get(r->root, "quiet");     /* the hosted program's document */
    ph = json_object_get(clock, "quiet_phase");
    /* Every section with measuring phases (methods, comparisons, bytemark,
     * and any later one), in the order of the document. */
    json_object_foreach(r->root, k, sec)
        any |= json_is_object(json_object_get(sec, "quiet_phases"));
    if (!json_is_object(q) && !json_is_object(ph) && !any)
        return;
    if (json_is_object(q)) {
        double hz = doc_num(q, "tick_hz", NAN);       /* not a row: quiet.* */
        /* the figures of rows by their rows' names, the others as the schema names them */
        const struct { const char *key, *label; } gaps[] = {
            { figures_row_tail(&figures_quiet, FIG_QUIET_GAPS_OVER_1US), "gaps over 1 us" }, { "gaps_over_10us", "gaps over 10 us" },
            { "gaps_over_100us", "gaps over 100 us" }, { "gaps_over_1ms", "gaps over 1 ms" },
        };
        fprintf(f, "<h3>TSC read back to back for %s ms, interrupts %s</h3><table id=\"quiet-check\">"
                "<tr><th>figure</th><th>ticks</th><th>ns</th></tr>", num_text(b1, sizeof b1, doc_num(q, "ms", NAN)),
                json_is_true(json_object_get(q, "masked")) ? "masked" : "not masked (an operating system)");
        const struct { const char *key, *label; } ticks[] = {
            { "min_gap_ticks", "one read (smallest gap)" },
            { figures_row_tail(&figures_quiet, FIG_QUIET_MAX_GAP_TICKS), "largest gap" },
        };
        for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
            double t = doc_num(q, ticks[i].key, NAN);
            fprintf(f, "<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>", ticks[i].label,
                    num_text(b1, sizeof b1, t), num_text(b2, sizeof b2, isnan(hz) || hz <= 0 ? NAN : t * 1e9 / hz));
        }
        fputs("</table><table id=\"quiet-gaps\"><tr><th>reads</th>", f);
        for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
            fprintf(f, "<th>%s</th>", gaps[i].label);
        fprintf(f, "<th>gaps over 1 us per s</th></tr><tr><td class=\"n\">%s</td>",
                num_text(b1, sizeof b1, doc_num(q, "reads", NAN)));
        for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
            fprintf(f, "<td class=\"n\">%s</td>", num_text(b1, sizeof b1, doc_num(q, gaps[i].key, NAN)));
        fprintf(f, "<td class=\"n\">%s</td></tr></table>", num_text(b1, sizeof b1, doc_num(q, "gaps_per_second", NAN)));
    }
    if (json_is_object(ph) || any) {
        fputs("<h3>Measuring phases (firmware timer stopped, what stayed unmasked)</h3><table id=\"quiet-phases\">"
              "<tr><th>section</th><th>phases</th><th>timer stopped in</th><th>why not</th><th>NMIs</th>"
              "<th>SMIs</th></tr>", f);
        if (json_is_object(ph))
            quiet_phase_row(f, "clock calibration", ph, 1);
        json_object_foreach(r->root, k, sec) {
            json_t *qp = json_object_get(sec, "quiet_phases");
            if (json_is_object(qp))
                quiet_phase_row(f, k, qp, 0);
        }
        fputs("</table>", f);
    }
}

/* Its fold of the page: the members it shows, its id, its title
 * (cmd_report.c's own list: no section's). */
const struct report_section report_quiet = { "quiet", "quiet", "Quiet machine", part_quiet };
