/*
 * tools/host/history/history_corpus.c - `baremark history bench --corpus DIR`: the
 * history's change-point detection measured on a labelled corpus of real
 * runs (tools/bench/history-corpus.sh makes one; its labels are described
 * in tools/bench/history_corpus.py).
 *
 * The boots in DIR/boots/ go into a temporary store through `history add`
 * (so each figure and its interval are what the history keeps).  Each
 * labelled series is then put together from the store: run i is the
 * figure of routine R_i in boot B_i, for each timing method of the
 * routine (every method times the same code, so a series has one
 * sub-series per method).  Each sub-series goes through the history's own
 * detection (stats_changepoints with `history show`'s parameters); a
 * labelled series' findings are the runs at which its methods' changes
 * start, taken together (changes within FIND_MERGE runs are one), as
 * `history show` groups the changes of one routine into one finding.
 *
 * Scored against the labels: a planted change is found when a finding
 * lies within TOLERANCE runs of it; a finding near no planted change is a
 * false alarm (drifts have no false alarms: any change in one is real).
 * For each series the smallest step its own noise could have shown
 * (history_smallest_step) is printed, so a miss is never silent.  Each
 * finding in a series with planted provenance names what differs between
 * the runs either side (history_differs).
 *
 * --series-csv FILE writes every sub-series (series, method, run, value,
 * lo, hi) for another tool (tools/bench/history_vs_otava.py runs Apache
 * Otava on exactly these).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history.h"

#define TOLERANCE   2           /* runs: a finding this close to a planted change finds it */
#define FIND_MERGE  1           /* runs: changes of two methods this close are one finding */
#define MAX_METHODS 16
#define MAX_RUNS    256
#define MAX_CP      32

struct hc_point {
    char run[40], figure[128];
    double value, lo, hi, step;
    long run_id;
};

struct hc_label {
    char name[96], kind[16], family[16], planted[16];
    int k;
    double step;
    size_t changes[8], nchanges;
    size_t n;
    char boot[MAX_RUNS][40], routine[MAX_RUNS][32];
};

static struct hc_point *hc_pts;
static size_t hc_npts, hc_cap;

static int hc_point_row(void *ctx, int n, const char *const *v)
{
    (void)ctx;
    if (n < 6 || !v[0] || !v[1] || !v[2])
        return 0;
    if (hc_npts == hc_cap) {
        size_t cap = hc_cap ? 2 * hc_cap : 4096;
        struct hc_point *p = realloc(hc_pts, cap * sizeof *p);
        if (!p)
            return 1;
        hc_pts = p;
        hc_cap = cap;
    }
    struct hc_point *p = &hc_pts[hc_npts++];
    snprintf(p->run, sizeof p->run, "%s", v[0]);
    snprintf(p->figure, sizeof p->figure, "%s", v[1]);
    p->value = strtod(v[2], NULL);
    p->lo = v[3] ? strtod(v[3], NULL) : NAN;
    p->hi = v[4] ? strtod(v[4], NULL) : NAN;
    p->run_id = atol(v[5] ? v[5] : "0");
    p->step = n > 6 && v[6] ? strtod(v[6], NULL) : NAN;
    return 0;
}

static int hc_cmp(const void *a, const void *b)
{
    const struct hc_point *x = a, *y = b;
    int c = strcmp(x->run, y->run);
    return c ? c : strcmp(x->figure, y->figure);
}

static const struct hc_point *hc_find(const char *run, const char *figure)
{
    struct hc_point key;
    snprintf(key.run, sizeof key.run, "%s", run);
    snprintf(key.figure, sizeof key.figure, "%.120s", figure);
    return bsearch(&key, hc_pts, hc_npts, sizeof key, hc_cmp);
}

/* One line of labels.tsv; 0 when it is not a series (a comment). */
static int hc_parse_label(char *line, struct hc_label *l)
{
    char *f[9], *save = NULL;
    int nf = 0;
    if (line[0] == '#' || line[0] == '\n')
        return 0;
    line[strcspn(line, "\n")] = 0;
    for (char *t = strtok_r(line, "\t", &save); t && nf < 9; t = strtok_r(NULL, "\t", &save))
        f[nf++] = t;
    if (nf != 9)
        return -1;
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", f[0]);
    snprintf(l->kind, sizeof l->kind, "%s", f[1]);
    snprintf(l->family, sizeof l->family, "%s", f[2]);
    l->k = atoi(f[3]);
    l->step = strtod(f[4], NULL);
    if (strcmp(f[5], "-"))
        for (char *t = strtok_r(f[5], ",", &save); t && l->nchanges < 8; t = strtok_r(NULL, ",", &save))
            l->changes[l->nchanges++] = (size_t)atol(t);
    snprintf(l->planted, sizeof l->planted, "%s", f[7]);
    for (char *t = strtok_r(f[8], ",", &save); t && l->n < MAX_RUNS; t = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(t, ':');
        if (!colon)
            return -1;
        *colon = 0;
        snprintf(l->boot[l->n], sizeof l->boot[0], "%s", t);
        snprintf(l->routine[l->n], sizeof l->routine[0], "%s", colon + 1);
        l->n++;
    }
    return l->n ? 1 : -1;
}

/* The timing methods of a routine: the figures meas_steps_ROUTINE_*_ticks. */
static size_t hc_methods(const char *routine, char methods[][48])
{
    char prefix[64];
    size_t n = 0, pl = (size_t)snprintf(prefix, sizeof prefix, "meas_steps_%s_", routine);
    for (size_t i = 0; i < hc_npts && n < MAX_METHODS; i++) {
        const char *fg = hc_pts[i].figure;
        size_t len = strlen(fg);
        if (strncmp(fg, prefix, pl) || len < pl + 6 || strcmp(fg + len - 6, "_ticks"))
            continue;
        char m[48];
        snprintf(m, sizeof m, "%.*s", (int)(len - pl - 6), fg + pl);
        size_t j = 0;
        while (j < n && strcmp(methods[j], m))
            j++;
        if (j == n)
            snprintf(methods[n++], 48, "%s", m);
    }
    return n;
}

/* ---- the score of one group of series (kind, family, step, k) ---------------------------------------------- */

struct hc_cell {
    char kind[16], family[16];
    double step;
    int k;
    size_t series, planted, found, false_alarms, series_with_false, pos_n, size_n, mde_n, missed;
    double pos_err, size_err, mde_sum;
};

static struct hc_cell hc_cells[256];
static size_t hc_ncells;

static struct hc_cell *hc_cell(const struct hc_label *l)
{
    int flat = !strcmp(l->kind, "flat");
    for (size_t i = 0; i < hc_ncells; i++) {
        struct hc_cell *c = &hc_cells[i];
        if (!strcmp(c->kind, l->kind) && (flat || !strcmp(c->family, l->family)) && c->k == l->k &&
            (flat || c->step == l->step))
            return c;
    }
    if (hc_ncells == sizeof hc_cells / sizeof hc_cells[0])
        return &hc_cells[hc_ncells - 1];
    struct hc_cell *c = &hc_cells[hc_ncells++];
    memset(c, 0, sizeof *c);
    snprintf(c->kind, sizeof c->kind, "%s", l->kind);
    snprintf(c->family, sizeof c->family, "%s", flat ? "all" : l->family);
    c->step = flat ? 0 : l->step;
    c->k = l->k;
    return c;
}

static int hc_cell_cmp(const void *a, const void *b)
{
    static const char *order[] = { "step", "back", "two", "drift", "flat", "provenance" };
    const struct hc_cell *x = a, *y = b;
    int ox = 6, oy = 6;
    for (int i = 0; i < 6; i++) {
        if (!strcmp(x->kind, order[i]))
            ox = i;
        if (!strcmp(y->kind, order[i]))
            oy = i;
    }
    if (ox != oy)
        return ox - oy;
    int c = strcmp(x->family, y->family);
    if (c)
        return c;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return x->k - y->k;
}

/* ---- one labelled series -------------------------------------------------------------------------------------- */

struct hc_run {
    struct hdb *db;
    FILE *csv, *out;
    struct stats_cp_params par;
    int verbose;
    double seconds;
    size_t series, subseries, missing, attributed, planted_found, planted_named;
};

static void hc_series(struct hc_run *r, const struct hc_label *l)
{
    char methods[MAX_METHODS][48], fig[256];
    size_t nm = hc_methods(l->routine[0], methods), scratch[3 * (MAX_RUNS + 1)];
    double x[MAX_RUNS], hw[MAX_RUNS];
    long ids[MAX_RUNS];
    /* findings: the runs at which a change starts (several methods at about the same run are one) */
    size_t find_at[MAX_CP * MAX_METHODS], nfind = 0, find_votes[MAX_CP * MAX_METHODS];
    double find_rel[MAX_CP * MAX_METHODS];
    double mde_best = NAN;
    struct hc_cell *cell = hc_cell(l);
    r->series++;
    cell->series++;
    for (size_t m = 0; m < nm; m++) {
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++) {
            snprintf(fig, sizeof fig, "meas_steps_%.31s_%.47s_ticks", l->routine[i], methods[m]);
            const struct hc_point *p = hc_find(l->boot[i], fig);
            if (!p) {
                r->missing++;
                break;
            }
            x[n] = p->value;
            hw[n] = isnan(p->lo) || isnan(p->hi) ? NAN : (p->hi - p->lo) / 2;
            if (p->step > 0 && !(hw[n] >= p->step))
                hw[n] = p->step;        /* as history show: never below the figure's resolution */
            ids[n] = p->run_id;
            if (r->csv)
                fprintf(r->csv, "%s,%s,%zu,%.17g,%.17g,%.17g\n", l->name, methods[m], n, p->value, p->lo, p->hi);
            n++;
        }
        if (n != l->n)
            continue;
        r->subseries++;
        struct stats_change cps[MAX_CP];
        double t0 = (double)clock() / CLOCKS_PER_SEC;
        size_t k = stats_changepoints(x, hw, n, &r->par, cps, MAX_CP, scratch);
        r->seconds += (double)clock() / CLOCKS_PER_SEC - t0;
        /* the smallest step a planted change at the first labelled run (or
         * the middle) could have been seen at, from this method's noise */
        size_t at = l->nchanges ? l->changes[0] : n / 2;
        double mde = history_smallest_step(x, hw, n, at, r->par.alpha, r->par.min_size);
        if (!isnan(mde) && (isnan(mde_best) || mde < mde_best))
            mde_best = mde;
        for (size_t c = 0; c < k; c++) {
            size_t j = 0;
            while (j < nfind && (find_at[j] + FIND_MERGE < cps[c].at || cps[c].at + FIND_MERGE < find_at[j]))
                j++;
            double rel = (cps[c].after - cps[c].before) / fabs(cps[c].before);
            if (j == nfind) {
                find_at[nfind] = cps[c].at;
                find_votes[nfind] = 0;
                find_rel[nfind++] = 0;
                if (!strcmp(l->planted, "-") || nfind > 1)
                    ;
                else {
                    struct history_run before, after;
                    char why[600];
                    history_run_get(r->db, ids[cps[c].at - 1], &before);
                    history_run_get(r->db, ids[cps[c].at], &after);
                    history_differs(&before, &after, why, sizeof why);
                    r->attributed++;
                    int near = 0;
                    for (size_t t = 0; t < l->nchanges; t++)
                        near |= cps[c].at + TOLERANCE >= l->changes[t] && cps[c].at <= l->changes[t] + TOLERANCE;
                    int named = strstr(why, l->planted) != NULL;
                    if (near) {
                        r->planted_found++;
                        r->planted_named += named;
                    }
                    fprintf(r->out, "  %-24s change at run %zu (%s, %+.2f%%): %s%s\n", l->name, cps[c].at,
                            methods[m], 100 * rel, why,
                            near ? (named ? "  [planted change named]" : "  [planted change NOT named]") : "");
                }
            }
            find_votes[j]++;
            find_rel[j] += rel;
        }
    }
    /* score */
    int is_drift = !strcmp(l->kind, "drift"), is_prov = !strcmp(l->kind, "provenance");
    size_t fa = 0;
    for (size_t t = 0; t < l->nchanges && !is_prov; t++) {
        size_t best = (size_t)-1, bj = 0;
        for (size_t j = 0; j < nfind; j++) {
            size_t d = find_at[j] > l->changes[t] ? find_at[j] - l->changes[t] : l->changes[t] - find_at[j];
            if (d < best) {
                best = d;
                bj = j;
            }
        }
        cell->planted++;
        if (is_drift ? nfind > 0 : best <= TOLERANCE) {
            cell->found++;
            if (!is_drift) {
                cell->pos_err += (double)best;
                cell->pos_n++;
                if (t == 0) {
                    cell->size_err += fabs(100 * find_rel[bj] / find_votes[bj] - l->step);
                    cell->size_n++;
                }
            }
        } else if (!is_drift)
            cell->missed++;
        if (is_drift)
            break;      /* a drift counts once: found or not */
    }
    if (!is_drift && !is_prov)
        for (size_t j = 0; j < nfind; j++) {
            int near = 0;
            for (size_t t = 0; t < l->nchanges; t++)
                near |= find_at[j] + TOLERANCE >= l->changes[t] && find_at[j] <= l->changes[t] + TOLERANCE;
            fa += !near;
        }
    if (is_prov && nfind)
        cell->found++;
    cell->false_alarms += fa;
    cell->series_with_false += fa > 0;
    if (isfinite(mde_best)) {          /* INFINITY: no step of any size could show */
        cell->mde_sum += 100 * mde_best;
        cell->mde_n++;
    }
    if (r->verbose) {
        fprintf(r->out, "  %-24s %-10s %zu runs, changes at", l->name, l->kind, l->n);
        if (!nfind)
            fputs(" none", r->out);
        for (size_t j = 0; j < nfind; j++)
            fprintf(r->out, " %zu (%zu of %zu methods, %+.2f%%)", find_at[j], find_votes[j], nm,
                    100 * find_rel[j] / find_votes[j]);
        if (isinf(mde_best))
            fputs("; no step of any size could show (runs scattering beyond their intervals, too few for the "
                  "permutation test)\n", r->out);
        else
            fprintf(r->out, "; smallest step its noise could show %.4g%%\n", 100 * mde_best);
    }
}

int history_corpus_bench(const char *dir, const char *series_csv, int verbose, FILE *out)
{
    char path[4096], err[600], dbpath[64], line[1 << 16];
    snprintf(path, sizeof path, "%s/labels.tsv", dir);
    FILE *lf = fopen(path, "r");
    if (!lf) {
        fprintf(stderr, "baremark history bench: --corpus %s: no labels.tsv there (tools/bench/history-corpus.sh "
                        "makes a corpus)\n", dir);
        return 2;
    }
    snprintf(dbpath, sizeof dbpath, "/tmp/baremark-history-corpus-%d.db", (int)getpid());
    unlink(dbpath);
    struct hdb *db = hdb_open(dbpath, err, sizeof err);
    if (!db) {
        fprintf(stderr, "baremark history bench: %s\n", err);
        fclose(lf);
        return 1;
    }
    snprintf(path, sizeof path, "%s/boots", dir);
    char *paths[1] = { path };
    struct history_add_opts ao = { "corpus", 1 };
    struct history_add_result ar = { 0, 0, 0 };
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    int rc = history_add(db, paths, 1, &ao, &ar);
    double t_add = (double)clock() / CLOCKS_PER_SEC - t0;
    if (rc == 1 || !ar.added) {
        fprintf(stderr, "baremark history bench: --corpus %s: no boots could be added from %s\n", dir, path);
        fclose(lf);
        hdb_close(db);
        unlink(dbpath);
        return rc ? rc : 2;
    }
    hc_npts = 0;
    hdb_exec(db,
             "SELECT r.name, f.name, p.value, p.lo, p.hi, r.id, p.step FROM points p JOIN runs r ON r.id = p.run_id"
             " JOIN figures f ON f.id = p.figure_id WHERE f.name LIKE 'meas_steps_%'",
             0, NULL, hc_point_row, NULL);
    qsort(hc_pts, hc_npts, sizeof *hc_pts, hc_cmp);
    FILE *csv = NULL;
    if (series_csv) {
        csv = fopen(series_csv, "w");
        if (!csv) {
            fprintf(stderr, "baremark history bench: cannot write --series-csv %s\n", series_csv);
            fclose(lf);
            hdb_close(db);
            unlink(dbpath);
            return 1;
        }
        fputs("series,method,run,value,lo,hi\n", csv);
    }
    static double work[STATS_CP_PERM_MAX];
    struct hc_run r = { .db = db, .csv = csv, .out = out, .verbose = verbose,
                        .par = { 0.001, 1e-5, 3, HISTORY_SPLIT * 0.001, 1, HISTORY_PERM, HISTORY_ALPHA_PERM, work } };
    if (getenv("BAREMARK_HISTORY_NO_PERM"))     /* the decision without the permutation test, to compare */
        r.par.perm = 0;
    struct hc_label *l = malloc(sizeof *l);
    size_t bad = 0, lineno = 0;
    hc_ncells = 0;
    fprintf(out, "corpus %s: %zu boots added (%zu skipped) in %.1f s of CPU; detection as `history show`: "
                 "E-Divisive means with Welch's t-test, splits kept at p < %g and re-tested at p < %g, at least %zu runs "
                 "a side, a step larger than the runs' own intervals",
            dir, ar.added, ar.skipped, t_add, r.par.alpha_split, r.par.alpha, r.par.min_size);
    if (r.par.perm)
        fprintf(out, "; segments of at most %d runs also by a Monte-Carlo permutation test (%u orderings, xorshift64 "
                     "seed 0x%llx) at p < %g\n", STATS_CP_PERM_MAX, r.par.perm,
                (unsigned long long)STATS_CP_PERM_SEED, r.par.alpha_perm);
    else
        fputs("; no permutation test (BAREMARK_HISTORY_NO_PERM)\n", out);
    fputs("provenance planted in the corpus, and what the history names at each change it finds there:\n", out);
    while (fgets(line, sizeof line, lf)) {
        lineno++;
        int ok = hc_parse_label(line, l);
        if (ok < 0) {
            if (!bad++)
                fprintf(stderr, "baremark history bench: %s/labels.tsv line %zu: not a series (9 tab-separated "
                                "fields); skipped\n", dir, lineno);
            continue;
        }
        if (ok)
            hc_series(&r, l);
    }
    fclose(lf);
    free(l);
    if (csv)
        fclose(csv);
    qsort(hc_cells, hc_ncells, sizeof hc_cells[0], hc_cell_cmp);
    fprintf(out, "\n%zu series (%zu method series) from %zu boots; %zu runs missing from the store; "
                 "detection took %.3f s of CPU\n", r.series, r.subseries, ar.added, r.missing, r.seconds);
    fprintf(out, "  %-10s %-6s %6s %4s %6s %7s %8s %10s %9s %9s %10s\n", "kind", "family", "step%", "k", "series",
            "recall", "false/s", "series w/FA", "pos err", "size err", "smallest%");
    for (size_t i = 0; i < hc_ncells; i++) {
        struct hc_cell *c = &hc_cells[i];
        char recall[16] = "-", pos[16] = "-", size[16] = "-", mde[16] = "-";
        if (c->planted)
            snprintf(recall, sizeof recall, "%.0f%%", 100.0 * c->found / c->planted);
        else if (!strcmp(c->kind, "provenance"))
            snprintf(recall, sizeof recall, "%zu/%zu", c->found, c->series);
        if (c->pos_n)
            snprintf(pos, sizeof pos, "%.2f", c->pos_err / c->pos_n);
        if (c->size_n)
            snprintf(size, sizeof size, "%.2fpp", c->size_err / c->size_n);
        if (c->mde_n)
            snprintf(mde, sizeof mde, "%.3g", c->mde_sum / c->mde_n);
        fprintf(out, "  %-10s %-6s %6.2f %4d %6zu %7s %8.2f %10zu %9s %9s %10s\n", c->kind, c->family, c->step, c->k,
                c->series, recall, (double)c->false_alarms / c->series, c->series_with_false, pos, size, mde);
    }
    fprintf(out, "recall: planted changes found within %d runs; false/s: findings near no planted change, per series; "
                 "pos err: runs between a found change and the planted one; size err: |found - nominal| step in "
                 "percentage points; smallest%%: the mean over the series of the smallest step their noise could "
                 "show (a t-test at p < %g over the splits the series allows found 80%% of the time, k runs a side, or the "
                 "runs' own intervals)\n",
            TOLERANCE, r.par.alpha);
    fprintf(out, "attribution: %zu planted provenance changes found, %zu of them named\n", r.planted_found,
            r.planted_named);
    free(hc_pts);
    hc_pts = NULL;
    hc_cap = hc_npts = 0;
    hdb_close(db);
    hdb_remove_sqlite(dbpath);
    return bad ? 2 : 0;
}
