/*
 * tools/host/history/history_out.c - what the history says: `show` (each
 * machine's regressions and improvements, most certain first, with what
 * differed between the runs either side), `check` (for CI: regressions
 * beyond a threshold).  The exports (CSV; Bencher Metric Format JSON) are
 * history_export.c; the HTML page is history_html.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "report_util.h"

/* ---- collecting changes -------------------------------------------------------------------- */

struct ho_list {
    struct history_change *c;
    size_t n, cap;
};

static void ho_collect(void *ctx, const struct history_change *c)
{
    struct ho_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        struct history_change *nc = realloc(l->c, cap * sizeof *nc);
        if (!nc)
            return;
        l->c = nc;
        l->cap = cap;
    }
    l->c[l->n++] = *c;
}

/* Findings are listed most certain first, then the larger step, then by name. */
/* p and |rel| to 6 significant digits: figures that are one another
 * scaled (a score and its two indexes) have the same p and change but for
 * the last bits, which differ between SQLite and PostgreSQL (each stores
 * and returns the points its own way); their order is then by name, the
 * same from either database. */
static double ho_key(double v)
{
    char b[32];
    snprintf(b, sizeof b, "%.6g", v);
    return strtod(b, NULL);
}

/* ---- show ------------------------------------------------------------------------------------ */

static void ho_num(char *b, size_t n, double v)
{
    if (isnan(v))
        snprintf(b, n, "n/a");
    else
        snprintf(b, n, "%.4g", v);
}

/* What differs between the last run before and the first run after. */
static void ho_differs(FILE *out, const struct history_change *c)
{
    char why[1024];
    history_differs(&c->before, &c->after, why, sizeof why);
    fputs("      differs: ", out);
    term_put(out, why, sizeof why);
    fputc('\n', out);
}

static void ho_change(FILE *out, const struct history_change *c)
{
    char b[6][32];
    const char *what = c->regression ? "regression" : strcmp(c->kind, "info") ? "improvement" : "change";
    ho_num(b[0], 32, c->cp.before);
    ho_num(b[1], 32, c->cp.before_lo);
    ho_num(b[2], 32, c->cp.before_hi);
    ho_num(b[3], 32, c->cp.after);
    ho_num(b[4], 32, c->cp.after_lo);
    ho_num(b[5], 32, c->cp.after_hi);
    fprintf(out, "  %-11s ", what);
    term_put(out, c->label, 80);
    fprintf(out, " [%s]: %s (%s-%s) -> %s (%s-%s) %s, %+.1f%%, p %.2g%s\n", c->profile, b[0], b[1], b[2], b[3], b[4],
            b[5], c->unit, c->rel * 100, c->cp.p, c->cp.strong ? " (strong)" : " (weak)");
    fprintf(out, "      %zu runs before, %zu after; first run after: ", c->cp.at - c->cp.from, c->cp.to - c->cp.at);
    term_put(out, c->after.name, 40);
    fprintf(out, " (%s), last before: ", c->after.started);
    term_put(out, c->before.name, 40);
    fputc('\n', out);
    ho_differs(out, c);
}

static int ho_count_row(void *ctx, int n, const char *const *v)
{
    *(long *)ctx = n > 0 && v[0] ? atol(v[0]) : 0;
    return 1;
}

/* ---- findings: one change seen in many series of one routine ------------------------------
 *
 * A series' label is "ROUTINE, [PART, ...] UNIT" (history_add.c): its
 * routine is the first piece, its member the pieces between (the method:
 * "cpuid+rdtsc"; "old" of "numsort, old, index"), its unit the last.  The
 * changes of one machine and profile whose routine, direction (regression,
 * improvement or change, and the sign of the step) and first run after are
 * the same are one finding: a plug-in rebuilt with more work is one line,
 * "hist:k +4.7% (all 9 methods; ticks/iter, ns/iter)", not 18 blocks. */

static size_t ho_routine_len(const char *label)
{
    const char *c = strstr(label, ", ");
    return c ? (size_t)(c - label) : strlen(label);
}

/* The member: the label without its routine and its unit ("" when none). */
static void ho_member(const struct history_change *c, char *out, size_t cap)
{
    const char *l = c->label, *a = strstr(l, ", "), *z = strrchr(l, ',');
    if (!a || z == a)
        snprintf(out, cap, "%s", "");
    else
        snprintf(out, cap, "%.*s", (int)(z - a - 2), a + 2);
}

static const char *ho_what(const struct history_change *c)
{
    return c->regression ? "regression" : strcmp(c->kind, "info") ? "improvement" : "change";
}

static int ho_group_cmp(const struct history_change *x, const struct history_change *y)
{
    int m = strcmp(x->machine, y->machine);
    if (!m)
        m = strcmp(x->profile, y->profile);
    if (!m) {
        size_t lx = ho_routine_len(x->label), ly = ho_routine_len(y->label);
        m = lx != ly ? (lx < ly ? -1 : 1) : strncmp(x->label, y->label, lx);
    }
    if (!m)
        m = strcmp(ho_what(x), ho_what(y));
    if (!m)
        m = (x->rel > 0) - (y->rel > 0);
    if (!m)
        m = x->after.id < y->after.id ? -1 : x->after.id > y->after.id;
    return m;
}

static int ho_group_order(const void *a, const void *b)
{
    int m = ho_group_cmp(a, b);
    return m ? m : strcmp(((const struct history_change *)a)->label, ((const struct history_change *)b)->label);
}

struct ho_finding {
    const struct history_change *c;    /* its members, consecutive */
    size_t n;
    double p, rel, rel_lo, rel_hi;      /* the smallest p; the members' median step and range */
    int strong;
};

static int ho_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Findings, most certain first (as ho_order), from changes in l. */
static struct ho_finding *ho_findings(struct ho_list *l, size_t *nf)
{
    struct ho_finding *F = malloc((l->n ? l->n : 1) * sizeof *F);
    double *r = malloc((l->n ? l->n : 1) * sizeof *r);
    *nf = 0;
    if (!F || !r) {
        free(F);
        free(r);
        return NULL;
    }
    qsort(l->c, l->n, sizeof *l->c, ho_group_order);
    for (size_t i = 0, j; i < l->n; i = j) {
        struct ho_finding *f = &F[(*nf)++];
        for (j = i + 1; j < l->n && !ho_group_cmp(&l->c[i], &l->c[j]); j++)
            ;
        f->c = &l->c[i];
        f->n = j - i;
        f->p = 1;
        f->strong = 0;
        for (size_t k = 0; k < f->n; k++) {
            r[k] = f->c[k].rel;
            f->p = fmin(f->p, f->c[k].cp.p);
            f->strong |= f->c[k].cp.strong;
        }
        qsort(r, f->n, sizeof *r, ho_dbl);
        f->rel = f->n % 2 ? r[f->n / 2] : (r[f->n / 2 - 1] + r[f->n / 2]) / 2;
        f->rel_lo = r[0];
        f->rel_hi = r[f->n - 1];
    }
    free(r);
    return F;
}

static int ho_finding_order(const void *a, const void *b)
{
    const struct ho_finding *x = a, *y = b;
    int m = strcmp(x->c->machine, y->c->machine);
    if (m)
        return m;
    double px = ho_key(x->p), py = ho_key(y->p), rx = ho_key(fabs(x->rel)), ry = ho_key(fabs(y->rel));
    if (px != py)
        return px < py ? -1 : 1;
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return strcmp(x->c->label, y->c->label);
}

/* Every series' member per machine, profile and routine: how many methods
 * a routine has, so a finding can say "all 9". */
struct ho_series {
    char (*key)[300];
    size_t n, cap;
};

static void ho_series_seen(void *ctx, const char *machine, const char *profile, const char *figure,
                           const char *label, const char *unit, const struct history_point *pts, size_t n,
                           const struct stats_change *cps, size_t ncp)
{
    struct ho_series *s = ctx;
    struct history_change c;
    char member[160];
    (void)figure, (void)unit, (void)pts, (void)n, (void)cps, (void)ncp;
    snprintf(c.label, sizeof c.label, "%s", label);
    ho_member(&c, member, sizeof member);
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        void *k = realloc(s->key, cap * sizeof *s->key);
        if (!k)
            return;
        s->key = k;
        s->cap = cap;
    }
    snprintf(s->key[s->n++], sizeof s->key[0], "%s\x1f%s\x1f%.*s\x1f%s", machine, profile,
             (int)ho_routine_len(label), label, member);
}

static int ho_str(const void *a, const void *b) { return strcmp(a, b); }

/* Distinct members of the routine of c (its machine and profile). */
static size_t ho_routine_members(struct ho_series *s, const struct history_change *c)
{
    char pre[300];
    size_t n = 0, len = (size_t)snprintf(pre, sizeof pre, "%s\x1f%s\x1f%.*s\x1f", c->machine, c->profile,
                                         (int)ho_routine_len(c->label), c->label);
    for (size_t i = 0; i < s->n; i++)
        if (!strncmp(s->key[i], pre, len) && (!n || i == 0 || strcmp(s->key[i], s->key[i - 1])))
            n++;
    return n;
}

/* Series of the routine of c (its machine and profile). */
static size_t ho_routine_series(struct ho_series *s, const struct history_change *c)
{
    char pre[300];
    size_t n = 0, len = (size_t)snprintf(pre, sizeof pre, "%s\x1f%s\x1f%.*s\x1f", c->machine, c->profile,
                                         (int)ho_routine_len(c->label), c->label);
    for (size_t i = 0; i < s->n; i++)
        n += !strncmp(s->key[i], pre, len);
    return n;
}

static void ho_finding_print(FILE *out, const struct ho_finding *f, struct ho_series *s, int details, int ids)
{
    const struct history_change *c = f->c;
    if (f->n == 1 && !ids) {
        ho_change(out, c);
        return;
    }
    /* methods (meas_*): "all 9 methods" or "3 of 9 methods: a, b, c", then the units;
     * other series: "all 3 series" or "2 of 3 series", each named by the rest of its label */
    int methods = !strncmp(c->figure, "meas_", 5);
    char members[32][160], units[4][32], routine[96];
    size_t nm = 0, nu = 0, extra = 0;
    for (size_t k = 0; k < f->n; k++) {
        char m[160];
        size_t i;
        if (methods)
            ho_member(&c[k], m, sizeof m);
        else
            snprintf(m, sizeof m, "%s", c[k].label + ho_routine_len(c[k].label) + (strstr(c[k].label, ", ") ? 2 : 0));
        for (i = 0; i < nm && strcmp(members[i], m); i++)
            ;
        if (i == nm && nm < 32)
            snprintf(members[nm++], sizeof members[0], "%s", m);
        else if (i == nm)
            extra++;        /* beyond 32 distinct members: counted only roughly, and shown as "..." */
        for (i = 0; i < nu && strcmp(units[i], c[k].unit); i++)
            ;
        if (i == nu && nu < 4)
            snprintf(units[nu++], sizeof units[0], "%s", c[k].unit);
    }
    size_t total = methods ? ho_routine_members(s, c) : ho_routine_series(s, c), changed = nm + extra;
    snprintf(routine, sizeof routine, "%.*s", (int)ho_routine_len(c->label), c->label);
    fprintf(out, "  %-11s ", ho_what(c));
    term_put(out, routine, 95);
    fprintf(out, " %+.1f%%", f->rel * 100);
    if (f->rel_hi - f->rel_lo >= 0.001)
        fprintf(out, " (%+.1f to %+.1f%%)", f->rel_lo * 100, f->rel_hi * 100);
    fprintf(out, " [%s]: ", c->profile);
    if (changed == total)
        fprintf(out, "all %zu %s", total, methods ? "methods" : "series");
    else
        fprintf(out, "%zu of %zu %s", changed, total, methods ? "methods" : "series");
    fputs(changed == total && methods ? " (" : changed == total ? " (" : ": ", out);
    if (!(methods && changed == total)) {
        for (size_t i = 0; i < nm; i++) {
            fputs(i ? (methods ? ", " : "; ") : "", out);
            term_put(out, members[i], 60);
        }
        if (extra)
            fputs(", ...", out);
        fputs(changed == total ? ")" : "", out);
    }
    if (methods) {
        fputs(changed == total ? "" : " (", out);
        for (size_t i = 0; i < nu; i++) {
            fputs(i ? ", " : "", out);
            term_put(out, units[i], 32);
        }
        fprintf(out, "; %zu series)", f->n);
    }
    fprintf(out, ", p %.2g%s\n", f->p, f->strong ? " (strong)" : " (weak)");
    fprintf(out, "      first run after: ");
    term_put(out, c->after.name, 40);
    fprintf(out, " (%s), last before: ", c->after.started);
    term_put(out, c->before.name, 40);
    fputc('\n', out);
    ho_differs(out, c);
    if (!details) {
        if (f->n > 1)
            fputs("      (each series: -v)\n", out);
        return;
    }
    for (size_t k = 0; k < f->n; k++) {
        char b[2][32];
        ho_num(b[0], 32, c[k].cp.before);
        ho_num(b[1], 32, c[k].cp.after);
        fputs("      - ", out);
        term_put(out, c[k].label, 80);
        if (ids) {
            fputs(" (", out);
            term_put(out, c[k].figure, 80);
            fputc(')', out);
        }
        fprintf(out, ": %s -> %s, %+.1f%%, p %.2g\n", b[0], b[1], c[k].rel * 100, c[k].cp.p);
    }
}

/* The series that showed no change, and the smallest step each could
 * have shown (history_smallest_step at its middle), so none passes
 * silently: a closing line gives their range, -v one line each. */
struct ho_quiet {
    double *mde;
    size_t n, cap, unknown, short_of;
    size_t blind;               /* scattering and too short for the permutation test: no step shows */
    FILE *each;                 /* -v: one line per quiet series (memory) */
};

struct ho_show {
    struct ho_list l;
    struct ho_series s;
    struct ho_quiet q;
    const struct history_filter *f;
};

static void ho_quiet_add(struct ho_show *h, const char *machine, const char *profile, const char *label,
                         const struct history_point *pts, size_t n)
{
    struct ho_quiet *q = &h->q;
    double *x = malloc(n * sizeof *x), *hw = malloc(n * sizeof *hw), res = 0, level = 0;
    size_t nres = 0, min = h->f->min_size ? h->f->min_size : 1;
    if (n < 2 * min) {          /* no split has min runs a side: nothing could be found */
        q->unknown++;
        q->short_of = 2 * min;
        free(x);
        free(hw);
        return;
    }
    if (!x || !hw) {
        free(x);
        free(hw);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        x[i] = pts[i].value;
        hw[i] = isnan(pts[i].lo) || isnan(pts[i].hi) ? NAN : (pts[i].hi - pts[i].lo) / 2;
        if (pts[i].step > 0) {
            if (!(hw[i] >= pts[i].step))
                hw[i] = pts[i].step;
            res += pts[i].step;
            nres++;
        }
        level += x[i] / (double)n;
    }
    double m = history_smallest_step(x, hw, n, n / 2, h->f->alpha, h->f->min_size);
    free(x);
    free(hw);
    if (isnan(m)) {
        q->unknown++;
        return;
    }
    if (isinf(m)) {
        q->blind++;
        if (q->each) {
            fprintf(q->each, "  no change  ");
            term_put(q->each, label, 80);
            fprintf(q->each, " [%s] on ", profile);
            term_put(q->each, machine, 60);
            fprintf(q->each, ": %zu runs; no step of any size could have shown (its runs scatter beyond their "
                    "intervals, and %zu runs are too few for the permutation test at p < %g)\n", n, n,
                    HISTORY_ALPHA_PERM);
        }
        return;
    }
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        double *d = realloc(q->mde, cap * sizeof *d);
        if (!d)
            return;
        q->mde = d;
        q->cap = cap;
    }
    q->mde[q->n++] = m;
    if (q->each) {
        fprintf(q->each, "  no change  ");
        term_put(q->each, label, 80);
        fprintf(q->each, " [%s] on ", profile);
        term_put(q->each, machine, 60);
        fprintf(q->each, ": %zu runs; the smallest step it could have shown %.3g%%", n, 100 * m);
        if (nres && level != 0)
            fprintf(q->each, " (the counter's step %.3g%% of it)", 100 * res / (double)nres / fabs(level));
        fputc('\n', q->each);
    }
}

static void ho_series_both(void *ctx, const char *machine, const char *profile, const char *figure,
                           const char *label, const char *unit, const struct history_point *pts, size_t n,
                           const struct stats_change *cps, size_t ncp)
{
    struct ho_show *h = ctx;
    ho_series_seen(&h->s, machine, profile, figure, label, unit, pts, n, cps, ncp);
    if (!ncp && h->f)
        ho_quiet_add(h, machine, profile, label, pts, n);
}

/* The closing line on the quiet series: how many, and the range of the
 * smallest steps they could have shown. */
static void ho_quiet_print(FILE *out, struct ho_quiet *q, int details)
{
    if (!q->n && !q->unknown && !q->blind)
        return;
    fprintf(out, "%zu series without a change", q->n + q->unknown + q->blind);
    if (q->n) {
        stats_sort_double(q->mde, q->n);
        double med = q->n % 2 ? q->mde[q->n / 2] : (q->mde[q->n / 2 - 1] + q->mde[q->n / 2]) / 2;
        fprintf(out, ": the smallest step each could have shown is %.3g%% to %.3g%% (median %.3g%%)",
                100 * q->mde[0], 100 * q->mde[q->n - 1], 100 * med);
    }
    if (q->unknown)
        fprintf(out, "%s%zu where it cannot be said (fewer than %zu runs, or a level of 0)", q->n ? "; " : ": ",
                q->unknown, q->short_of ? q->short_of : (size_t)4);
    if (q->blind)
        fprintf(out, "%s%zu where no step of any size could show (runs scattering beyond their intervals, "
                "too few for the permutation test)", q->n || q->unknown ? "; " : ": ", q->blind);
    fprintf(out, "%s\n", details ? "" : " (-v: each)");
}

static void ho_collect_both(void *ctx, const struct history_change *c)
{
    ho_collect(&((struct ho_show *)ctx)->l, c);
}

/* The changes (those passing keep) as findings, each printed; returns how
 * many findings, -1 on error. */
static long ho_report(struct hdb *db, const struct history_filter *f, double threshold, int check, FILE *out,
                      long *series, size_t *nchanges, size_t *nreg)
{
    struct ho_show h = { { 0 }, { 0 }, { 0 }, check ? NULL : f };
    char *each = NULL;
    size_t each_len = 0;
    if (!check && f->details)
        h.q.each = open_memstream(&each, &each_len);
    long ns = history_changes(db, f, ho_collect_both, ho_series_both, &h);
    if (h.q.each)
        fclose(h.q.each);
    if (ns < 0) {
        free(h.l.c);
        free(h.s.key);
        free(h.q.mde);
        free(each);
        return -1;
    }
    if (series)
        *series = ns;
    if (check) {            /* only regressions beyond the threshold */
        size_t k = 0;
        for (size_t i = 0; i < h.l.n; i++)
            if (h.l.c[i].regression && fabs(h.l.c[i].rel) > threshold)
                h.l.c[k++] = h.l.c[i];
        h.l.n = k;
    }
    qsort(h.s.key, h.s.n, sizeof *h.s.key, ho_str);
    size_t nf = 0, reg = 0;
    struct ho_finding *F = ho_findings(&h.l, &nf);
    if (!F) {
        free(h.l.c);
        free(h.s.key);
        free(h.q.mde);
        free(each);
        return -1;
    }
    qsort(F, nf, sizeof *F, ho_finding_order);
    for (size_t i = 0; i < nf; i++) {
        if (check) {
            fprintf(out, "REGRESSION on ");
            term_put(out, F[i].c->machine, 80);
            fputc('\n', out);
        } else if (!i || strcmp(F[i].c->machine, F[i - 1].c->machine)) {
            fputs("machine ", out);
            term_put(out, F[i].c->machine, 80);
            fputc('\n', out);
        }
        reg += (size_t)F[i].c->regression;
        ho_finding_print(out, &F[i], &h.s, f->details, f->ids);
    }
    if (nchanges)
        *nchanges = h.l.n;
    if (nreg)
        *nreg = reg;
    if (!check) {
        fputs(each ? each : "", out);
        ho_quiet_print(out, &h.q, f->details);
    }
    free(each);
    free(F);
    free(h.l.c);
    free(h.s.key);
    free(h.q.mde);
    return (long)nf;
}

int history_show(struct hdb *db, const struct history_filter *f, FILE *out)
{
    long runs = 0, machines = 0, series = 0;
    size_t changes = 0, reg = 0;
    hdb_exec(db, "SELECT count(*) FROM runs", 0, NULL, ho_count_row, &runs);
    hdb_exec(db, "SELECT count(*) FROM machines", 0, NULL, ho_count_row, &machines);
    /* the head names the series count, known once they are read: print to memory first */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    long nf = mem ? ho_report(db, f, 0, 0, mem, &series, &changes, &reg) : -1;
    if (mem)
        fclose(mem);
    if (nf < 0) {
        free(text);
        return -1;
    }
    fprintf(out, "==== baremark history: %ld machine%s, %ld run%s, %ld series%s%s ====\n", machines,
            machines == 1 ? "" : "s", runs, runs == 1 ? "" : "s", series, f->since ? " since " : "",
            f->since ? f->since : "");
    fputs(text ? text : "", out);
    free(text);
    fprintf(out, "%ld finding%s (%zu regression%s) from %zu change%s; E-Divisive means, Welch p times the splits < %g, strong "
            "below %g\n", nf, nf == 1 ? "" : "s", reg, reg == 1 ? "" : "s", changes, changes == 1 ? "" : "s",
            f->alpha, f->alpha_strong);
    return 0;
}

long history_check(struct hdb *db, const struct history_filter *f, double threshold, FILE *out)
{
    return ho_report(db, f, threshold, 1, out, NULL, NULL, NULL);
}
