/*
 * tests/unit/test_figures.c - the figure tables (bench/results/figures.h) against
 * real results:
 *   - every numeric leaf of each results file matches a row of a table
 *     (a figure in the JSON that no table declares fails, naming its path);
 *   - every row not flagged FIG_SOMETIMES reaches a value in the full run
 *     (tests/fixtures/run-full.json: an -icount boot with every section),
 *     so no row names a path the JSON never has;
 *   - the LAVA cases the tables make from that JSON (figures_lava, as the
 *     image makes them when a section ends) are the lines the same boot
 *     printed (tests/fixtures/run-full.lava): id, result, value and unit,
 *     both ways; the same for a boot with failures and skips
 *     (tests/fixtures/run-faults.json and .lava);
 *   - each rule of a row (none, skip, only, lost, pass) on a small document
 *     made for it;
 *   - each section's headline.
 * Usage: test_figures [RESULTS.json...]  (more files to walk: a boot
 * test passes the JSON its boot wrote).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tools/host/common/commands.h"
#include "figures.h"
#include "figures_text.h"
#include "section.h"

#define FIXTURES "tests/fixtures/"

/* ---- every numeric leaf is declared ------------------------------------------- */

struct leaves {
    const char *file;
    unsigned undeclared;
};

static void undeclared(void *ctx, const char *path)
{
    struct leaves *L = ctx;
    /* one line per path pattern would be nicer; the first few say enough */
    if (L->undeclared++ < 8)
        printf("FAIL: %s: %s is a number in the results but in no figure table "
               "(bench/SECTION/figures_SECTION.c)\n", L->file, path);
}

static void check_leaves(const char *file)
{
    size_t len = 0;
    char *text = cli_slurp(file, &len), what[256];
    struct leaves L = { file, 0 };
    struct jval doc = jval_doc(text, len);
    if (jval_is_none(doc)) {
        snprintf(what, sizeof what, "%s is one JSON document", file);
        CHECK(0, what);
        free(text);
        return;
    }
    unsigned numbers = figures_undeclared(doc, undeclared, &L);
    snprintf(what, sizeof what, "%s: each of its %u numbers is declared in a figure table", file, numbers);
    CHECK(numbers > 0 && L.undeclared == 0, what);
    free(text);
}

/* ---- every row reaches a value ----------------------------------------------------- */

static void count_present(void *ctx, const struct figure_value *v)
{
    *(unsigned *)ctx += !jval_is_none(v->json) && jval_type(v->json) != JVAL_NULL;
}

/* Whether the recorded run ran the section whose figure table is t: its
 * settings.sections names it.  A table of no section (the run's own, the
 * machine's) is always recorded.  A section added to bench/sections.def
 * after the fixtures were recorded is named and not required: the full
 * run cannot hold what it never ran (tests/check/regen-fixtures.sh records
 * it again). */
static int recorded(struct jval doc, const struct figure_table *t)
{
    struct jval ran = jval_path(doc, "settings.sections");
    for (unsigned k = 0; k < section_count; k++) {
        if (section_table[k].figures != t)
            continue;
        for (size_t i = 0; i < jval_count(ran); i++)
            if (jval_str_eq(jval_at(ran, i), section_table[k].name))
                return 1;
        printf("note: section %s did not run in the recorded full run (its settings.sections): "
               "its rows are not required of it\n",
               section_table[k].name);
        return 0;
    }
    return 1;
}

static void check_rows(struct jval doc)
{
    const struct figure_table *t;
    unsigned rows = 0, absent = 0;
    for (unsigned i = 0; (t = figures_table(i)); i++) {
        if (!recorded(doc, t))
            continue;
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
    }
    char what[128];
    snprintf(what, sizeof what, "each of the %u rows reaches a value in the full run", rows);
    CHECK(rows > 50 && absent == 0, what);
}

/* ---- the LAVA lines are the tables' figures ------------------------------------------ */

/* The run's lines (run-full.lava) against the cases the generator makes
 * from the same run's JSON (figures_lava over each section's table, as the
 * image does when a section ends): the same ids, each with the same result,
 * measurement and unit, both ways. */
struct lava_line {
    char id[LAVA_ID_MAX + 1], result[8], unit[32];
    double value;                       /* NAN: no measurement */
    int seen;
};

struct lava_set {
    struct lava_line *l;
    size_t n;
    unsigned made, measured, missing, differ, twice;
};

static int same_value(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabs(a - b) <= 1e-9 * fabs(a) + 1e-12;
}

static void match_case(void *ctx, const struct figure_value *v)
{
    struct lava_set *S = ctx;
    const char *result = lava_result_name(v->result), *unit = isnan(v->case_value) ? "" : v->unit;
    S->made++;
    S->measured += !isnan(v->case_value);
    for (size_t i = 0; i < S->n; i++) {
        struct lava_line *L = &S->l[i];
        if (strcmp(L->id, v->id))
            continue;
        S->twice += L->seen++ > 0;
        if (strcmp(L->result, result) || strcmp(L->unit, unit) || !same_value(L->value, v->case_value)) {
            if (S->differ++ < 5)
                printf("FAIL: %s: serial says %s %.10g %s, the tables from the JSON %s %.10g %s (%s)\n", v->id,
                       L->result, L->value, L->unit, result, v->case_value, unit, v->path);
        }
        return;
    }
    if (S->missing++ < 5)
        printf("FAIL: %s %s (%s) comes from the JSON by the tables but the run printed no such case\n", v->id,
               result, v->path);
}

/* want[]: at least this many pass, fail, skip lines */
static void check_lava(const char *json, const char *lava, const unsigned want[3])
{
    size_t len, jlen = 0;
    char *text = cli_slurp(lava, &len), *js = cli_slurp(json, &jlen), *line, *save = NULL, what[320];
    struct lava_set S = { calloc(1024, sizeof *S.l), 0, 0, 0, 0, 0, 0 };
    struct jval doc = js ? jval_doc(js, jlen) : (struct jval){ 0 };
    snprintf(what, sizeof what, "%s and %s are read", json, lava);
    CHECK(text && S.l && !jval_is_none(doc), what);
    if (!text || !S.l || jval_is_none(doc)) {
        free(text);
        free(js);
        free(S.l);
        return;
    }
    unsigned results[3] = { 0, 0, 0 };
    for (line = strtok_r(text, "\n", &save); line && S.n < 1024; line = strtok_r(NULL, "\n", &save)) {
        struct lava_line *L = &S.l[S.n];
        int k = sscanf(line, "BAREMARK-LAVA case=%96s result=%7s measurement=%lf units=%31s", L->id, L->result,
                       &L->value, L->unit);
        if (k < 2 || !strcmp(L->id, "run_status"))
            continue;
        if (k < 4) {
            L->value = NAN;
            L->unit[0] = 0;
        }
        results[!strcmp(L->result, "fail") ? 1 : !strcmp(L->result, "skip") ? 2 : 0]++;
        S.n++;
    }
    for (unsigned i = 0; i < section_count; i++)
        figures_lava(doc, section_table[i].figures, match_case, &S);
    unsigned unseen = 0;
    for (size_t i = 0; i < S.n; i++)
        if (!S.l[i].seen && unseen++ < 5)
            printf("FAIL: the run printed %s %s but the tables make no such case from the JSON\n", S.l[i].id,
                   S.l[i].result);
    snprintf(what, sizeof what, "%s: the run's %zu LAVA cases (%u pass, %u fail, %u skip; %u measured) are the "
             "%u the tables make from its JSON, each with the same result, measurement and unit", lava, S.n,
             results[0], results[1], results[2], S.measured, S.made);
    CHECK(results[0] >= want[0] && results[1] >= want[1] && results[2] >= want[2] && !S.missing && !S.differ &&
          !unseen && !S.twice && S.made == S.n, what);
    free(S.l);
    free(text);
    free(js);
}

/* ---- each rule of a row ------------------------------------------------------------------ */

static const struct figure rule_rows[] = {
    { "items[*].v", "t_{name}", "u", FIG_INFO, 0, .none = "cpu={ref} or name=z", .skip = "status=off",
      .only = "status=ok|late", .lost = "why", .pass = "chk=true" },
    { "items[*].v", "m_{name}", "{unit}", FIG_INFO, 0, .pass = "m={n}", .scale = 10 },
    { "nested.x",   "cut",      "u", FIG_INFO, 0 },         /* an object on the way is null: no case */
    { "leaf",       "leaf",     "u", FIG_INFO, 0 },         /* the leaf alone is absent: skip */
    { "gone",       "gone",     "u", FIG_INFO, 0, .lost = "gone=null" },
    { "items[*].v", NULL,       "u", FIG_INFO, 0 },         /* no LAVA id: no case */
};
static const struct figure_table rule_table = { "t", rule_rows, sizeof rule_rows / sizeof rule_rows[0], NULL };

static void rule_case(void *ctx, const struct figure_value *v)
{
    char *out = ctx, one[160];
    snprintf(one, sizeof one, "%s%s %s", *out ? "; " : "", v->id, lava_result_name(v->result));
    if (!isnan(v->case_value))
        snprintf(one + strlen(one), sizeof one - strlen(one), " %g%s%s", v->case_value, *v->unit ? " " : "",
                 v->unit);
    strncat(out, one, 1023 - strlen(out));
}

static void check_rules(void)
{
    static const char doc_text[] =
        "{\"t\": {\"ref\": 0, \"nested\": null, \"gone\": null, \"items\": ["
        "{\"name\": \"a\", \"cpu\": 0, \"status\": \"ok\", \"v\": 1.5},"
        "{\"name\": \"b\", \"cpu\": 1, \"status\": \"off\"},"
        "{\"name\": \"c\", \"cpu\": 2, \"status\": \"broke\", \"v\": 2, \"chk\": true},"
        "{\"name\": \"d\", \"cpu\": 3, \"status\": \"ok\", \"v\": null, \"why\": \"no answer\"},"
        "{\"name\": \"e\", \"cpu\": 4, \"status\": \"late\", \"v\": 7, \"chk\": false, \"n\": 4, \"m\": 5,"
        " \"unit\": \"x/s\"},"
        "{\"name\": \"f\", \"cpu\": 5, \"status\": \"ok\"},"
        "{\"name\": \"g\", \"cpu\": 6, \"status\": \"ok\", \"v\": 3, \"chk\": true, \"n\": 2, \"m\": 2},"
        "{\"name\": \"z\", \"cpu\": 7, \"status\": \"ok\", \"v\": 9, \"chk\": true}]}}";
    char out[1024] = "";
    figures_lava(jval_doc(doc_text, strlen(doc_text)), &rule_table, rule_case, out);
    CHECK_STR(out,
              /* none (the reference cpu, name z), skip, only, lost, missing, pass, passed */
              "t_b skip; t_c fail; t_d fail; t_e fail 7 u; t_f skip; t_g pass 3 u; "
              /* pass by a template: m={n}, both absent being equal */
              "m_a pass 15; m_b skip; m_c pass 20; m_d skip; m_e fail 70 x/s; m_f skip; m_g pass 30; m_z pass 90; "
              "leaf skip; gone fail",
              "each rule of a row: none, skip, only, an absent object on the way, a missing value (skip, "
              "or fail by lost), pass (a bool, a template, clauses joined by or)");
}

/* "/KEY": a condition on the document's top level (BYTEmark's: a score
 * that is not 95% certain fails unless the run's profile is quick). */
static const struct figure top_rows[] = {
    { "items[*].v", "p_{name}", "u", FIG_INFO, 0, .pass = "certain=true or /profile=quick" },
};
static const struct figure_table top_table = { "t", top_rows, 1, NULL };

static void check_top_level_key(void)
{
    static const char *const doc[] = {
        "{\"profile\": \"quick\", \"t\": {\"profile\": \"full\", \"items\": ["
        "{\"name\": \"a\", \"v\": 1, \"certain\": false}, {\"name\": \"b\", \"v\": 2, \"certain\": true}]}}",
        "{\"profile\": \"full\", \"t\": {\"profile\": \"quick\", \"items\": ["
        "{\"name\": \"a\", \"v\": 1, \"certain\": false}, {\"name\": \"b\", \"v\": 2, \"certain\": true}]}}",
    };
    static const char *const want[] = { "p_a pass 1 u; p_b pass 2 u", "p_a fail 1 u; p_b pass 2 u" };
    for (int i = 0; i < 2; i++) {
        char out[1024] = "";
        figures_lava(jval_doc(doc[i], strlen(doc[i])), &top_table, rule_case, out);
        CHECK_STR(out, want[i], "a condition's /KEY reads the document's top level, not the member's KEY");
    }
}

/* ---- headlines ------------------------------------------------------------------------ */

static void check_headlines(struct jval doc)
{
    char h[256];
    figures_headline(doc, figures_find("clock"), h, sizeof h);
    /* chosen_khz 1000000 = 1000 MHz: the unit the summary's clock row uses (was kHz, LAVA's) */
    CHECK_STR(h, "TSC 1000 MHz, references agree within 0.148 ppm, largest gap 0.032 us", "clock's headline");
    figures_headline(doc, figures_find("memory"), h, sizeof h);
    CHECK(!strncmp(h, "read 23.27", 10) && strstr(h, " GB/s"),
          "memory's headline: the best read bandwidth in GB/s (the peak width's: avx under -cpu max)");
    figures_headline(doc, figures_find("nothing"), h, sizeof h);
    CHECK_STR(h, "", "no table, no headline");
}

int main(int argc, char **argv)
{
    static const char *const files[] = { FIXTURES "run-full.json", FIXTURES "run-faults.json",
                                         FIXTURES "run-guess.json", FIXTURES "results/20260101-120000.json",
                                         FIXTURES "results/20260101-120500.json" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        check_leaves(files[i]);
    for (int i = 1; i < argc; i++)
        check_leaves(argv[i]);
    size_t len = 0;
    char *full = cli_slurp(FIXTURES "run-full.json", &len);
    struct jval doc = jval_doc(full, len);
    CHECK(!jval_is_none(doc), "the full run is read");
    check_rows(doc);
    /* every section, every case passes but the CPUID references' */
    check_lava(FIXTURES "run-full.json", FIXTURES "run-full.lava", (const unsigned[3]){ 200, 0, 4 });
    /* failures and skips (-icount, qemu64, no HPET, 2 CPUs): a divide error
     * in add10 (the five RDTSC methods' measurements of it and the comparison
     * with add100 fail), no RDTSCP (those four methods skip), no HPET (skip),
     * BYTEmark kernels switched off (skip) */
    check_lava(FIXTURES "run-faults.json", FIXTURES "run-faults.lava", (const unsigned[3]){ 100, 11, 80 });
    check_rules();
    check_top_level_key();
    check_headlines(doc);
    free(full);
    return check_done();
}
