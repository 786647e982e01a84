/*
 * tools/host/report_clock.c - the report's clock section (kernel/clock.c): the
 * references with their ppm and how far each is from the chosen rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

void part_clock(struct report *r)
{
    static const char *const khz_keys[] = { "khz", "tsc_khz", NULL };
    static const char *const ppm_keys[] = { "ppm", "uncertainty_ppm", "ppm_uncertainty", NULL };
    static const char *const chosen_keys[] = { "chosen_khz", "khz", "tsc_khz", NULL };
    FILE *f = r->f;
    json_t *clock = json_object_get(r->root, "clock"), *refs, *el;
    char b1[48], b2[48], b3[48], b4[48];
    size_t i;

    fputs("<h2 id=\"clock\">Clock</h2>", f);
    if (rp_section_missing(f, clock))
        return;
    refs = rj_clock_refs(clock);
    double chosen = rj_num_any(json_object_get(clock, "chosen"), chosen_keys);
    if (isnan(chosen))
        chosen = rj_num_any(clock, chosen_keys);
    if (rp_array_of_objects(refs)) {
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
    rp_generic_object(f, clock, NULL);
}
