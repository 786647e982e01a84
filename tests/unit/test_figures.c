/*
 * tests/unit/test_figures.c - the figure tables (bench/figures.h) against
 * real results:
 *   - every numeric leaf of each results file matches a row of a table
 *     (a figure in the JSON that no table declares fails, naming its path);
 *   - every row not flagged FIG_SOMETIMES reaches a value in the full run
 *     (tests/fixtures/run-full.json: an -icount boot with every section),
 *     so no row names a path the JSON never has;
 *   - the LAVA cases the tables derive from that JSON are the lines the
 *     same boot printed (tests/fixtures/run-full.lava), id, value and unit,
 *     both ways;
 *   - each section's headline.
 * Usage: test_figures [RESULTS.json...]  (more files to walk: a boot
 * test passes the JSON its boot wrote).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tools/host/commands.h"
#include "figures.h"

#define FIXTURES "tests/fixtures/"

/* ---- every numeric leaf is declared ------------------------------------------- */

struct leaves {
    const char *file;
    unsigned numbers, undeclared;
};

static void walk(struct leaves *L, struct jr v, char *path, size_t plen, size_t cap)
{
    struct jr k, e;
    size_t it = 0, i = 0;
    char name[64];
    switch (jr_type(v)) {
    case JR_OBJECT:
        while (jr_next(v, &it, &k, &e)) {
            jr_str(k, name, sizeof name);
            snprintf(path + plen, cap - plen, "%s%s", plen ? "." : "", name);
            walk(L, e, path, strlen(path), cap);
        }
        break;
    case JR_ARRAY:
        while (jr_next(v, &it, NULL, &e)) {
            snprintf(path + plen, cap - plen, "[%zu]", i++);
            walk(L, e, path, strlen(path), cap);
        }
        break;
    case JR_NUMBER:
        L->numbers++;
        if (!figures_match(path, NULL)) {
            /* one line per path pattern would be nicer; the first few say enough */
            if (L->undeclared++ < 8)
                printf("FAIL: %s: %s is a number in the results but in no figure table "
                       "(bench/figures_SECTION.c)\n", L->file, path);
        }
        break;
    default:
        break;
    }
    path[plen] = 0;
}

static void check_leaves(const char *file)
{
    size_t len = 0;
    char *text = cli_slurp(file, &len), path[512] = "", what[256];
    struct leaves L = { file, 0, 0 };
    struct jr doc = jr_doc(text, len);
    if (jr_is_none(doc)) {
        snprintf(what, sizeof what, "%s is one JSON document", file);
        CHECK(0, what);
        free(text);
        return;
    }
    walk(&L, doc, path, 0, sizeof path);
    snprintf(what, sizeof what, "%s: each of its %u numbers is declared in a figure table", file, L.numbers);
    CHECK(L.numbers > 0 && L.undeclared == 0, what);
    free(text);
}

/* ---- every row reaches a value ----------------------------------------------------- */

static void count_present(void *ctx, const struct figure_value *v)
{
    *(unsigned *)ctx += !jr_is_none(v->json) && jr_type(v->json) != JR_NULL;
}

static void check_rows(struct jr doc)
{
    const struct figure_table *t;
    unsigned rows = 0, absent = 0;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++) {
            unsigned n = 0;
            if (t->rows[r].flags & FIG_SOMETIMES)
                continue;
            rows++;
            figures_each(doc, t, &t->rows[r], count_present, &n);
            if (!n && absent++ < 8)
                printf("FAIL: row %s.%s of the figure tables names a path the full run never has\n",
                       t->member ? t->member : "", t->rows[r].path);
        }
    char what[128];
    snprintf(what, sizeof what, "each of the %u rows reaches a value in the full run", rows);
    CHECK(rows > 50 && absent == 0, what);
}

/* ---- the LAVA lines are the tables' figures ------------------------------------------ */

struct lava_line {
    char id[LAVA_ID_MAX + 1], unit[32];
    double value;
    int seen;
};

struct lava_set {
    struct lava_line *l;
    size_t n;
    unsigned derived, missing, differ;
};

static void match_case(void *ctx, const struct figure_value *v)
{
    struct lava_set *S = ctx;
    if (!v->id[0] || isnan(v->lava_value) || !strcmp(v->id, "run_status"))
        return;
    S->derived++;
    for (size_t i = 0; i < S->n; i++) {
        struct lava_line *L = &S->l[i];
        if (strcmp(L->id, v->id))
            continue;
        L->seen = 1;
        if (strcmp(L->unit, v->unit) || fabs(L->value - v->lava_value) > 1e-9 * fabs(L->value) + 1e-12) {
            if (S->differ++ < 5)
                printf("FAIL: %s: serial says %.10g %s, the table from the JSON %.10g %s\n", v->id, L->value,
                       L->unit, v->lava_value, v->unit);
        }
        return;
    }
    if (S->missing++ < 5)
        printf("FAIL: %s (%s) comes from the JSON by the tables but the run printed no such case\n", v->id, v->path);
}

static void check_lava(struct jr doc)
{
    size_t len;
    char *text = cli_slurp(FIXTURES "run-full.lava", &len), *line, *save = NULL, what[160];
    struct lava_set S = { calloc(512, sizeof *S.l), 0, 0, 0, 0 };
    CHECK(text && S.l, "tests/fixtures/run-full.lava is read");
    if (!text || !S.l)
        return;
    for (line = strtok_r(text, "\n", &save); line && S.n < 512; line = strtok_r(NULL, "\n", &save)) {
        struct lava_line *L = &S.l[S.n];
        if (sscanf(line, "BAREMARK-LAVA case=%96s result=%*s measurement=%lf units=%31s", L->id, &L->value, L->unit)
            == 3 && strcmp(L->id, "run_status"))
            S.n++;
    }
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++)
            figures_each(doc, t, &t->rows[r], match_case, &S);
    unsigned unseen = 0;
    for (size_t i = 0; i < S.n; i++)
        if (!S.l[i].seen && unseen++ < 5)
            printf("FAIL: the run printed %s but no table row gives it from the JSON\n", S.l[i].id);
    snprintf(what, sizeof what, "the %zu measured LAVA cases of the full run are the %u the tables give, "
             "same value and unit", S.n, S.derived);
    CHECK(S.n > 150 && !S.missing && !S.differ && !unseen && S.derived == S.n, what);
    free(S.l);
    free(text);
}

/* ---- headlines ------------------------------------------------------------------------ */

static void check_headlines(struct jr doc)
{
    char h[256];
    figures_headline(doc, figures_find("clock"), h, sizeof h);
    CHECK_STR(h, "TSC 1000000 kHz, references agree within 0.169 ppm, largest gap 32 ticks", "clock's headline");
    figures_headline(doc, figures_find("memory"), h, sizeof h);
    CHECK(!strncmp(h, "read 23.27", 10) && strstr(h, " GB/s"),
          "memory's headline: the best read bandwidth in GB/s (the peak width's: avx under -cpu max)");
    figures_headline(doc, figures_find("nothing"), h, sizeof h);
    CHECK_STR(h, "", "no table, no headline");
}

int main(int argc, char **argv)
{
    static const char *const files[] = { FIXTURES "run-full.json", FIXTURES "run-guess.json",
                                         FIXTURES "results/20260101-120000.json",
                                         FIXTURES "results/20260101-120500.json" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        check_leaves(files[i]);
    for (int i = 1; i < argc; i++)
        check_leaves(argv[i]);
    size_t len = 0;
    char *full = cli_slurp(FIXTURES "run-full.json", &len);
    struct jr doc = jr_doc(full, len);
    CHECK(!jr_is_none(doc), "the full run is read");
    check_rows(doc);
    check_lava(doc);
    check_headlines(doc);
    free(full);
    return check_done();
}
