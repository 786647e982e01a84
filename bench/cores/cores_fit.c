/*
 * bench/cores/cores_fit.c - each CPU's TSC rate as the least-squares slope of its
 * TSC against a shared reference counter, with the slope's standard error,
 * and two CPUs' rates compared (see cores_math.h).
 */
#include <math.h>
#include <string.h>

#include "cores_math.h"

uint64_t cores_ref_extend(uint64_t prev_ext, uint64_t prev_tsc, uint32_t raw, uint64_t tsc,
                          uint32_t mask, double ref_per_tsc)
{
    uint64_t period = (uint64_t)mask + 1;
    double expect = (double)prev_ext + (double)(tsc - prev_tsc) * ref_per_tsc;
    /* the extended value with raw's low bits nearest to the expectation */
    uint64_t base = prev_ext & ~(uint64_t)mask;
    uint64_t cand = base + raw;
    while ((double)cand + (double)period / 2 < expect)
        cand += period;
    while ((double)cand - (double)period / 2 > expect && cand >= period)
        cand -= period;
    return cand;
}

static int cores_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The median bracket width (a copy is sorted; at most CORES_FIT_MAX points). */
#define CORES_FIT_MAX 1024
static uint64_t cores_median_width(const struct cores_rate_point *p, uint32_t n)
{
    uint64_t w[CORES_FIT_MAX];
    uint32_t m = n < CORES_FIT_MAX ? n : CORES_FIT_MAX;
    for (uint32_t i = 0; i < m; i++)
        w[i] = p[i].width;
    /* insertion sort: the point counts are small */
    for (uint32_t i = 1; i < m; i++)
        for (uint32_t j = i; j > 0 && cores_cmp_u64(&w[j - 1], &w[j]) > 0; j--) {
            uint64_t t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    return m ? w[m / 2] : 0;
}

static int cores_keep(const struct cores_rate_point *p, uint64_t med)
{
    return (double)p->width <= CORES_FIT_WIDTH_FACTOR * (double)(med ? med : 1);
}

int cores_rate_fit(const struct cores_rate_point *p, uint32_t n, double ref_hz, struct cores_rate_fit *f)
{
    memset(f, 0, sizeof *f);
    if (n > CORES_FIT_MAX)
        n = CORES_FIT_MAX;
    if (n < 3 || ref_hz <= 0)
        return -1;
    f->median_width = cores_median_width(p, n);
    /* centred on the first kept point: doubles keep every digit */
    uint64_t x0 = 0, y0 = 0, xlo = UINT64_MAX, xhi = 0, ylo = UINT64_MAX, yhi = 0;
    int have0 = 0;
    double sx = 0, sy = 0, sw2 = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!cores_keep(&p[i], f->median_width)) {
            f->dropped++;
            continue;
        }
        if (!have0) {
            x0 = p[i].ref;
            y0 = p[i].tsc;
            have0 = 1;
        }
        sx += (double)(int64_t)(p[i].ref - x0);
        sy += (double)(int64_t)(p[i].tsc - y0);
        sw2 += (double)p[i].width * (double)p[i].width / 12.0;
        xlo = p[i].ref < xlo ? p[i].ref : xlo;
        xhi = p[i].ref > xhi ? p[i].ref : xhi;
        ylo = p[i].tsc < ylo ? p[i].tsc : ylo;
        yhi = p[i].tsc > yhi ? p[i].tsc : yhi;
        f->used++;
    }
    if (f->used < 3 || xhi <= xlo)
        return -1;
    double m = f->used, mx = sx / m, my = sy / m, sxx = 0, sxy = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!cores_keep(&p[i], f->median_width))
            continue;
        double dx = (double)(int64_t)(p[i].ref - x0) - mx, dy = (double)(int64_t)(p[i].tsc - y0) - my;
        sxx += dx * dx;
        sxy += dx * dy;
    }
    double b = sxy / sxx, a = my - b * mx, ss = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!cores_keep(&p[i], f->median_width))
            continue;
        double r = (double)(int64_t)(p[i].tsc - y0) - (a + b * (double)(int64_t)(p[i].ref - x0));
        ss += r * r;
    }
    if (!(b > 0))
        return -1;
    f->ticks_per_ref = b;
    f->hz = b * ref_hz;
    f->se_resid_rel = sqrt(ss / (m - 2) / sxx) / b;
    f->se_bracket_rel = sqrt(sw2 / m / sxx) / b;
    f->se_rel = f->se_resid_rel > f->se_bracket_rel ? f->se_resid_rel : f->se_bracket_rel;
    f->span_ref = xhi - xlo;
    f->span_tsc = yhi - ylo;
    f->ok = 1;
    return 0;
}

void cores_rate_compare(const struct cores_rate_fit *a, const struct cores_rate_fit *b,
                        struct cores_rate_diff *d)
{
    memset(d, 0, sizeof *d);
    if (!a->ok || !b->ok) {
        d->ppm = d->se_ppm = d->half95_ppm = d->detectable_ppm = NAN;
        return;
    }
    d->ppm = (a->ticks_per_ref / b->ticks_per_ref - 1) * 1e6;
    d->se_ppm = sqrt(a->se_rel * a->se_rel + b->se_rel * b->se_rel) * 1e6;
    d->half95_ppm = CORES_Z95 * d->se_ppm;
    d->detectable_ppm = (CORES_Z95 + CORES_Z80) * d->se_ppm;
}
