/*
 * bench/memory/memory_summary.c - the memory section's part of the run's
 * summary (bench/summary/summary_part.h): each cache level's latency (the
 * middle one of the sizes that fit in it, by the member's "fits") and the
 * best read bandwidth.  A latency's size_bytes and fits have no row of
 * their own (the table's "latency[*].*" declares them whole): read by name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_memory.h"
#include "summary_part.h"

summary_part_fn memory_summary;  /* its column in bench/sections.def */

void memory_summary(struct summary *s, struct jval m, struct jval doc)
{
    const struct figure_table *t = &figures_memory;
    struct jval lat = figures_array(m, t, FIG_MEMORY_LATENCY_NS_MEDIAN), e;
    size_t it = 0;
    char fits[SUMMARY_NAME_MAX];
    unsigned first[SUMMARY_LEVELS_MAX], count[SUMMARY_LEVELS_MAX], i = 0;
    while (jval_next(lat, &it, NULL, &e)) {
        jval_str(jval_get(e, "fits"), fits, sizeof fits);
        if (!fits[0])
            snprintf(fits, sizeof fits, "memory");
        unsigned k = s->n_levels;
        if (!k || strcmp(s->levels[k - 1].name, fits)) {
            if (k >= SUMMARY_LEVELS_MAX)
                break;
            snprintf(s->levels[k].name, sizeof s->levels[k].name, "%s", fits);
            first[k] = i;
            count[k] = 0;
            s->n_levels++;
        }
        count[s->n_levels - 1]++;
        i++;
    }
    for (unsigned k = 0; k < s->n_levels; k++) {
        struct jval mid = jval_at(lat, first[k] + (count[k] - 1) / 2);
        s->levels[k].bytes = jval_num(jval_get(mid, "size_bytes"), NAN);
        s->levels[k].ns = jval_num(figures_get(mid, t, FIG_MEMORY_LATENCY_NS_MEDIAN), NAN);
    }
    it = 0;
    while (jval_next(figures_array(m, t, FIG_MEMORY_READ_BEST), &it, NULL, &e)) {
        double r = jval_num(figures_get(e, t, FIG_MEMORY_READ_BEST), NAN) / 1e9;
        if (!isnan(r) && !(r <= s->read_gbps))
            s->read_gbps = r;
    }
}
