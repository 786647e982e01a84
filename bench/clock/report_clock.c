/*
 * bench/clock/report_clock.c - the report's clock section (bench/clock/clock_section.c): the
 * references with their ppm and how far each is from the chosen rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_clock.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

/* A counter's rate to the millihertz (the crystal's and QEMU's rates differ
 * by 0.18 Hz); "-" when not given. */
static const char *clock_fmt_hz(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.3f", v);
    return buf;
}

static void part_clock(struct report *r)
{
    FILE *f = r->f;
    json_t *clock = json_object_get(r->root, "clock"), *refs, *el;
    char b1[48], b2[48], b3[48], b4[48];
    size_t i;

    if (rp_section_missing(f, clock))
        return;
    refs = doc_fig_list(clock, &figures_clock, FIG_CLOCK_REFERENCES_KHZ);
    double chosen = doc_fig_num(clock, &figures_clock, FIG_CLOCK_CHOSEN_KHZ);
    if (rp_array_of_objects(refs)) {
        fputs("<table id=\"clock-refs\"><tr><th>reference</th><th>TSC kHz</th><th>&plusmn; ppm</th>"
              "<th>differs from chosen (ppm)</th><th>windows</th><th>windows_rejected</th>"
              "<th>windows_failed</th><th>counter Hz</th></tr>", f);
        json_array_foreach(refs, i, el) {
            static const char *const win_keys[] = { "windows", NULL };
            double khz = doc_fig_num(el, &figures_clock, FIG_CLOCK_REFERENCES_KHZ);
            double ppm = doc_fig_num(el, &figures_clock, FIG_CLOCK_REFERENCES_PPM);
            json_t *w = doc_first_array(el, win_keys);
            double nwin = w ? (double)json_array_size(w) : doc_num(el, "windows", NAN);
            json_t *rej = json_object_get(el, "windows_rejected"), *x;
            double nrej = json_is_array(rej) ? 0 : NAN;
            size_t k;
            json_array_foreach(rej, k, x)
                nrej += json_is_true(x);
            char b5[48], b6[48], b7[48];
            fputs("<tr><td>", f);
            html_put(f, doc_name(el, "?"));
            fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                    "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                    "</tr>", num_text(b1, sizeof b1, khz), num_text(b2, sizeof b2, ppm),
                    num_text(b3, sizeof b3, isnan(chosen) || isnan(khz) ? NAN : round((khz - chosen) / chosen * 1e7) / 10),
                    num_text(b4, sizeof b4, nwin), num_text(b5, sizeof b5, nrej),
                    num_text(b6, sizeof b6, doc_num(el, "windows_failed", NAN)),
                    clock_fmt_hz(b7, sizeof b7, doc_num(el, "counter_hz", NAN)));
        }
        fputs("</table>", f);
    }
    json_t *lr = json_object_get(clock, "legacy_timer_rates");
    if (json_is_object(lr)) {
        fprintf(f, "<p id=\"clock-rates\">PIT taken at %s Hz, PM timer at %s Hz (",
                clock_fmt_hz(b1, sizeof b1, doc_num(lr, "pit_hz", NAN)), clock_fmt_hz(b2, sizeof b2, doc_num(lr, "pm_timer_hz", NAN)));
        html_put(f, doc_str(lr, "basis", "?"));     /* a string from the file: escaped like every other */
        fputs("): ", f);
        html_put(f, doc_str(lr, "why", ""));
        fputs("</p>", f);
    }
    fputs("<h3>All clock results</h3>", f);
    rp_generic_object(f, clock, NULL);
}

/* Its fold of the page: the members it shows, its id, its title (the REPORT column of its row of bench/sections.def). */
const struct report_section report_clock = { "clock", "clock", "Clock", part_clock };
