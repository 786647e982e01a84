/*
 * bench/summary/summary_part.c - the helpers the sections' summary parts
 * share (summary_part.h).
 */
#include <math.h>

#include "platform.h"
#include "summary_part.h"

double *summary_numbers(struct jval arr, size_t *n)
{
    size_t cap = jval_count(arr), it = 0;
    struct jval v;
    double *x = cap ? plat_alloc(cap * sizeof *x) : NULL;
    *n = 0;
    if (!x)
        return NULL;
    while (jval_next(arr, &it, NULL, &v) && *n < cap) {
        double d = jval_num(v, NAN);
        if (!isnan(d))
            x[(*n)++] = d;
    }
    return x;
}
