/*
 * tools/host/history/history_series.c - the history's series and their changes.
 *
 * A series is one figure of one machine under one profile, in the order
 * the runs were made (the run's own start time, then the order stored).
 * A new build of baremark or of a plug-in continues its series: that is
 * the change people want to see, and the builds and hashes are among what
 * differed on either side of a step.  The points stream from the store
 * ordered by series, so one series is in memory at a time.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

#define HS_MAX_CHANGES 64

static const char HS_ALL[] =
    "SELECT m.name, r.profile, f.name, f.unit, f.kind, r.id, r.name, p.value, p.lo, p.hi, f.label, p.step"
    " FROM points p JOIN runs r ON r.id = p.run_id JOIN machines m ON m.id = r.machine_id"
    " JOIN figures f ON f.id = p.figure_id"
    " ORDER BY m.name, m.id, r.profile, f.name, r.started, r.id";
static const char HS_ONE[] =
    "SELECT m.name, r.profile, f.name, f.unit, f.kind, r.id, r.name, p.value, p.lo, p.hi, f.label, p.step"
    " FROM points p JOIN runs r ON r.id = p.run_id JOIN machines m ON m.id = r.machine_id"
    " JOIN figures f ON f.id = p.figure_id WHERE m.name = $1 OR m.key = $1"
    " ORDER BY m.name, m.id, r.profile, f.name, r.started, r.id";
static const char HS_RUN[] =
    "SELECT id, name, started, build, image_sha256, plugins, settings, firmware, microcode, secure_boot, status,"
    " memory_mib, firmware_id FROM runs WHERE id = $1";

struct hs_ctx {
    struct hdb *db;
    const struct history_filter *f;
    history_change_fn fn;
    history_series_fn series_fn;
    void *ctx;
    char machine[96], profile[16], figure[128], unit[32], kind[8], label[160];
    struct history_point *pts;
    double *x, *hw;
    size_t n, cap, *scratch;
    long series;
    int failed;
};

static int hs_run_row(void *ctx, int n, const char *const *v)
{
    struct history_run *r = ctx;
    if (n < 11)
        return 1;
    r->id = atol(v[0] ? v[0] : "0");
#define HS_COPY(field, i) snprintf(r->field, sizeof r->field, "%s", v[i] ? v[i] : "")
    HS_COPY(name, 1);
    HS_COPY(started, 2);
    HS_COPY(build, 3);
    HS_COPY(image, 4);
    HS_COPY(plugins, 5);
    HS_COPY(settings, 6);
    HS_COPY(firmware, 7);
    HS_COPY(microcode, 8);
    HS_COPY(secure_boot, 9);
    HS_COPY(status, 10);
    if (n > 11 && v[11])
        snprintf(r->memory, sizeof r->memory, "%s MiB", v[11]);
    if (n > 12 && v[12])
        HS_COPY(firmware_id, 12);
#undef HS_COPY
    return 1;
}

void history_run_get(struct hdb *db, long id, struct history_run *r)
{
    char num[24];
    const char *p[1] = { num };
    memset(r, 0, sizeof *r);
    snprintf(num, sizeof num, "%ld", id);
    hdb_exec(db, HS_RUN, 1, p, hs_run_row, r);
}

/* The series in hand is complete: its changes. */
static void hs_flush(struct hs_ctx *c)
{
    struct stats_change cps[HS_MAX_CHANGES];
    static double work[STATS_CP_PERM_MAX];
    struct stats_cp_params par = { c->f->alpha, c->f->alpha_strong, c->f->min_size, HISTORY_SPLIT * c->f->alpha, 1,
                                   HISTORY_PERM, HISTORY_ALPHA_PERM, work };
    if (!c->n)
        return;
    c->series++;
    size_t k = stats_changepoints(c->x, c->hw, c->n, &par, cps, HS_MAX_CHANGES, c->scratch);
    if (c->series_fn)
        c->series_fn(c->ctx, c->machine, c->profile, c->figure, c->label, c->unit, c->pts, c->n, cps, k);
    for (size_t i = 0; i < k && c->fn; i++) {
        struct history_change h;
        memset(&h, 0, sizeof h);
        snprintf(h.machine, sizeof h.machine, "%s", c->machine);
        snprintf(h.figure, sizeof h.figure, "%s", c->figure);
        snprintf(h.label, sizeof h.label, "%s", c->label);
        snprintf(h.unit, sizeof h.unit, "%s", c->unit);
        snprintf(h.kind, sizeof h.kind, "%s", c->kind);
        snprintf(h.profile, sizeof h.profile, "%s", c->profile);
        h.cp = cps[i];
        h.nruns = c->n;
        h.rel = cps[i].before != 0 ? (cps[i].after - cps[i].before) / fabs(cps[i].before) : NAN;
        h.regression = (!strcmp(c->kind, "lower") && cps[i].after > cps[i].before) ||
                       (!strcmp(c->kind, "higher") && cps[i].after < cps[i].before);
        history_run_get(c->db, c->pts[cps[i].at - 1].run, &h.before);
        history_run_get(c->db, c->pts[cps[i].at].run, &h.after);
        if (history_since(c->db, c->f->since, &h.after))
            c->fn(c->ctx, &h);
    }
    c->n = 0;
}

static int hs_grow(struct hs_ctx *c)
{
    size_t cap = c->cap ? c->cap * 2 : 1024;
    struct history_point *p = realloc(c->pts, cap * sizeof *p);
    double *x = p ? realloc(c->x, cap * sizeof *x) : NULL;
    double *hw = x ? realloc(c->hw, cap * sizeof *hw) : NULL;
    size_t *s = hw ? realloc(c->scratch, 3 * (cap + 1) * sizeof *s) : NULL;
    if (p)
        c->pts = p;
    if (x)
        c->x = x;
    if (hw)
        c->hw = hw;
    if (!s)
        return -1;
    c->scratch = s;
    c->cap = cap;
    return 0;
}

static int hs_row(void *ctx, int n, const char *const *v)
{
    struct hs_ctx *c = ctx;
    if (n < 10 || !v[0] || !v[2] || !v[7])
        return 0;
    const char *prof = v[1] ? v[1] : "";
    if (c->n && (strcmp(c->machine, v[0]) || strcmp(c->profile, prof) || strcmp(c->figure, v[2])))
        hs_flush(c);
    if (!c->n) {
        snprintf(c->machine, sizeof c->machine, "%s", v[0]);
        snprintf(c->profile, sizeof c->profile, "%s", prof);
        snprintf(c->figure, sizeof c->figure, "%s", v[2]);
        snprintf(c->unit, sizeof c->unit, "%s", v[3] ? v[3] : "");
        snprintf(c->kind, sizeof c->kind, "%s", v[4] ? v[4] : "");
        /* its name for a reader; a figure stored without one (LAVA's
         * recorded results, a store from before) by its id and unit */
        if (n > 10 && v[10] && v[10][0])
            snprintf(c->label, sizeof c->label, "%s", v[10]);
        else
            snprintf(c->label, sizeof c->label, "%s, %s", v[2], v[3] ? v[3] : "");
    }
    if (c->n == c->cap && hs_grow(c)) {
        c->failed = 1;
        return 1;
    }
    struct history_point *p = &c->pts[c->n];
    p->run = atol(v[5] ? v[5] : "0");
    snprintf(p->name, sizeof p->name, "%s", v[6] ? v[6] : "");
    p->value = strtod(v[7], NULL);
    p->lo = v[8] ? strtod(v[8], NULL) : NAN;
    p->hi = v[9] ? strtod(v[9], NULL) : NAN;
    c->x[c->n] = p->value;
    c->hw[c->n] = isnan(p->lo) || isnan(p->hi) ? NAN : (p->hi - p->lo) / 2;
    /* what the run cannot resolve: its interval, and never less than the
     * figure's resolution (the counter's step over the iterations) */
    p->step = n > 11 && v[11] ? strtod(v[11], NULL) : NAN;
    if (p->step > 0 && !(c->hw[c->n] >= p->step))
        c->hw[c->n] = p->step;
    c->n++;
    return 0;
}

long history_changes(struct hdb *db, const struct history_filter *f, history_change_fn fn,
                     history_series_fn series_fn, void *ctx)
{
    struct hs_ctx c = { .db = db, .f = f, .fn = fn, .series_fn = series_fn, .ctx = ctx };
    const char *p[1] = { f->machine };
    int rc = f->machine ? hdb_exec(db, HS_ONE, 1, p, hs_row, &c) : hdb_exec(db, HS_ALL, 0, NULL, hs_row, &c);
    if (!rc && !c.failed)
        hs_flush(&c);
    free(c.pts);
    free(c.x);
    free(c.hw);
    free(c.scratch);
    return rc || c.failed ? -1 : c.series;
}

/* ---- what differed, and what could have been seen ---------------------------------------------------------- */

int history_differs(const struct history_run *before, const struct history_run *after, char *out, size_t cap)
{
    /* known: compared only where both runs recorded it (a run made before
     * baremark recorded the firmware's identity says nothing about it) */
    static const struct { const char *what; size_t off; int width, known; } fields[] = {
        { "build", offsetof(struct history_run, build), 40, 0 },
        { "image", offsetof(struct history_run, image), 40, 0 },
        { "plug-ins", offsetof(struct history_run, plugins), 40, 0 },
        { "settings", offsetof(struct history_run, settings), 40, 0 },
        { "firmware", offsetof(struct history_run, firmware), 40, 0 },
        { "firmware image", offsetof(struct history_run, firmware_id), 12, 1 },
        { "microcode", offsetof(struct history_run, microcode), 40, 0 },
        { "Secure Boot", offsetof(struct history_run, secure_boot), 40, 0 },
        { "memory", offsetof(struct history_run, memory), 40, 0 },
    };
    int any = 0;
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *a = (const char *)before + fields[i].off, *b = (const char *)after + fields[i].off;
        if (fields[i].known && (!a[0] || !b[0] || !strcmp(a, "-") || !strcmp(b, "-")))
            continue;
        if (strcmp(a, b) && len < cap) {
            /* an unknown identity ("unknown: WHY") whole; a hash by its first digits */
            int w = strncmp(a, "unknown", 7) && strncmp(b, "unknown", 7) ? fields[i].width : 40;
            len += (size_t)snprintf(out + len, cap - len, "%s%s %.*s -> %.*s", any ? "; " : "",
                                    fields[i].what, w, a, w, b);
            any++;
        }
    }
    if (!any)
        snprintf(out, cap, "unexplained: the machine or the noise (nothing baremark records differs)");
    return any;
}

/* Student's t quantile: the t with two-sided p (bisection on the p). */
static double hs_t_quantile(double p, double df)
{
    double lo = 0, hi = 1e3;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (stats_t_p_two_sided(mid, df) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double history_smallest_step(const double *x, const double *hw, size_t n, size_t at, double alpha, size_t min)
{
    double sum = 0, hws = 0, *d = malloc(n * sizeof *d);
    size_t nd = 0, nhw = 0;
    if (!d || n < 4 || at < 2 || at + 2 > n) {
        free(d);
        return NAN;
    }
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        if (i && !isnan(x[i]) && !isnan(x[i - 1]))
            d[nd++] = fabs(x[i] - x[i - 1]);
        if (hw && !isnan(hw[i])) {
            hws += hw[i];
            nhw++;
        }
    }
    double level = fabs(sum / n);
    if (!nd || !(level > 0)) {
        free(d);
        return NAN;
    }
    /* the run-to-run sd from the median successive difference (a step or a
     * drift moves few differences, so it does not inflate it): for normal
     * noise |x_i - x_i-1| has median 0.6745 sqrt(2) sd */
    stats_sort_double(d, nd);
    double med = nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2;
    free(d);
    double sd = med / (0.674489750196082 * sqrt(2.0)), a = (double)at, b = (double)(n - at), df = a + b - 2;
    if (min && n + 1 > 2 * min)
        alpha /= (double)(n + 1 - 2 * min);     /* Bonferroni, as stats_changepoints' family */
    /* A short series whose runs scatter beyond their intervals must also
     * pass the permutation test (stats_changepoints): no ordering of n runs
     * split at `at` gives a p below about 2 / C(n, at), so where that is not
     * below its alpha no step of any size can be shown (INFINITY). */
    double choose = 1;
    for (size_t i = 1; i <= at && i <= n - at; i++)
        choose = choose * (double)(n - (at < n - at ? at : n - at) + i) / (double)i;
    int scatters = !nhw || sd > STATS_CP_SCATTER * (hws / nhw) / 1.959963984540054;
    if (!getenv("BAREMARK_HISTORY_NO_PERM") && n <= STATS_CP_PERM_MAX && scatters && 2 / choose >= HISTORY_ALPHA_PERM)
        return INFINITY;
    double step = (hs_t_quantile(alpha, df) + hs_t_quantile(0.4, df)) * sd * sqrt(1 / a + 1 / b);
    if (nhw && hws / nhw > step)
        step = hws / nhw;
    return step / level;
}

/* ---- --since REF ------------------------------------------------------------------------------ */

static int hs_text_row(void *ctx, int n, const char *const *v)
{
    snprintf(ctx, 40, "%s", n > 0 && v[0] ? v[0] : "");
    return 1;
}

/* REF as a start time: a run's name, a date or time (ISO, compared as
 * text), or a build: the first run made with a build starting with REF. */
static void hs_since_time(struct hdb *db, const char *ref, char *out)
{
    const char *p[1] = { ref };
    char like[80];
    out[0] = 0;
    hdb_exec(db, "SELECT started FROM runs WHERE name = $1 ORDER BY started LIMIT 1", 1, p, hs_text_row, out);
    if (out[0])
        return;
    if (strlen(ref) >= 10 && ref[4] == '-' && ref[7] == '-') {
        snprintf(out, 40, "%s", ref);
        return;
    }
    snprintf(like, sizeof like, "%s%%", ref);
    p[0] = like;
    hdb_exec(db, "SELECT min(started) FROM runs WHERE build LIKE $1", 1, p, hs_text_row, out);
    if (!out[0])
        snprintf(out, 40, "~");     /* after every run: nothing is since an unknown REF */
}

int history_since_at(struct hdb *db, const char *since, char *at)
{
    hs_since_time(db, since, at);
    return strcmp(at, "~") != 0;
}

int history_since(struct hdb *db, const char *since, const struct history_run *after)
{
    static char ref[80], at[40];
    if (!since)
        return 1;
    if (strcmp(ref, since)) {
        snprintf(ref, sizeof ref, "%s", since);
        hs_since_time(db, since, at);
    }
    return strcmp(after->started, at) >= 0;
}
