/*
 * tools/host/history/history_label.c - a series' name as a reader knows it
 * ("hist:k, cpuid+rdtsc, ticks/iter"), made from its figure's LAVA id
 * template when a run is added (history_add.c) and kept in the store.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "history.h"
#include "json_read.h"

/* A figure's name as a reader knows it, from its LAVA id template: each
 * {placeholder} is the value as the file has it ("hist:k", not the id's
 * "hist_k"), the template's words are kept, the section's word before the
 * first piece (meas_, clock_) and the unit's word at the end (_ticks, _ns)
 * are dropped, the pieces are joined by ", " and the unit comes last:
 * "meas_{target}_{method}_ticks" -> "hist:k, cpuid+rdtsc, ticks/iter",
 * "method_{name}_overhead_ns" -> "rdtscp, overhead, ns".  A placeholder
 * the element does not hold leaves the LAVA id. */
void history_series_label(const struct figure_value *v, char *out, size_t cap)
{
    static const char *const unit_words[] = { "ticks", "ns", "khz", "ppm", "gbps", "index", "ratio", "pct" };
    const char *t = v->fig->lava;
    char piece[8][96];
    int np = 0, literal[8] = { 0 };
    snprintf(out, cap, "%s", v->id);
    for (const char *p = t; p && *p && np < 8;) {
        char tok[96];
        size_t k = 0;
        int has_ph = 0;
        while (*p && *p != '_' && k + 1 < sizeof tok) {    /* one '_'-separated token, {..} whole */
            if (*p == '{') {
                const char *end = strchr(p, '}');
                char key[64], val[64] = "";
                if (!end || (size_t)(end - p - 1) >= sizeof key)
                    return;
                memcpy(key, p + 1, (size_t)(end - p - 1));
                key[end - p - 1] = 0;
                struct jval x = jval_get(v->elem, key);
                if (jval_type(x) == JVAL_STRING)
                    jval_str(x, val, sizeof val);
                else if (jval_type(x) == JVAL_NUMBER)
                    snprintf(val, sizeof val, "%.15g", jval_num(x, NAN));
                if (!val[0])
                    return;
                k += (size_t)snprintf(tok + k, sizeof tok - k, "%s", val);
                if (k >= sizeof tok)
                    return;
                p = end + 1;
                has_ph = 1;
            } else
                tok[k++] = *p++;
        }
        tok[k] = 0;
        if (*p == '_')
            p++;
        if (!has_ph && np && literal[np - 1]) {     /* words run together: "old index" */
            size_t n = strlen(piece[np - 1]);
            snprintf(piece[np - 1] + n, sizeof piece[0] - n, " %s", tok);
        } else {
            snprintf(piece[np], sizeof piece[0], "%s", tok);
            literal[np++] = !has_ph;
        }
    }
    int first = 0, last = np;
    if (np > 1 && literal[0]) {                    /* the section's word: drop its first word */
        char *sp = strchr(piece[0], ' ');
        if (sp)
            memmove(piece[0], sp + 1, strlen(sp));
        else
            first = 1;
    }
    if (last - first > 1 && literal[last - 1]) {   /* the unit's word at the end */
        char *w = strrchr(piece[last - 1], ' ');
        const char *word = w ? w + 1 : piece[last - 1];
        for (size_t i = 0; i < sizeof unit_words / sizeof unit_words[0]; i++)
            if (!strcmp(word, unit_words[i])) {
                if (w)
                    *w = 0;
                else
                    last--;
                break;
            }
    }
    size_t o = 0;
    out[0] = 0;
    for (int i = first; i < last && o < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? ", " : "", piece[i]);
    if (o < cap && v->unit[0])
        snprintf(out + o, cap - o, "%s%s", o ? ", " : "", v->unit);
}
