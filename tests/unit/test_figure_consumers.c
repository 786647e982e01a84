/*
 * tests/unit/test_figure_consumers.c - every tracked figure of a real run
 * reaches every reader of the figure tables (bench/results/figures.h, issue 24.2).
 * From tests/fixtures/run-full.json (an -icount boot with every section)
 * the tables give the tracked figures (rows with a LAVA id, places with a
 * value); each one must be:
 *   - a LAVA case: its id maps back to its row (figures_id_row), and the
 *     same boot printed a case of that id (tests/fixtures/run-full.lava),
 *     and every case it printed is one of them;
 *   - checked by `baremark validate`: the file is valid as it is, and with
 *     every tracked figure replaced by a string each one is named;
 *   - in the fleet table (fleet_runs.c on that JSON), id and value;
 *   - in the report (`baremark report`): a row of its section's tracked
 *     figures with its id and value.
 * And a number the tables do not declare makes validate fail with one line
 * "figure X is not declared in any figure table".
 * Usage: test_figure_consumers [RUN.json RUN.lava]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "figures.h"
#include "figures_text.h"
#include "tools/host/common/commands.h"
#include "tools/host/fleet/fleet.h"
#include "tools/host/validate/validate_sections.h"
#include "tools/host/validate/validate.h"

#define SHOW_MAX 5      /* failures named per check */

struct tracked {
    char id[LAVA_ID_MAX + 1];
    char path[160];
    double value;           /* in the LAVA unit; NAN: none (null, or `only` not met) */
    size_t at, len;         /* its JSON value's span in the text */
};

struct set {
    struct tracked *t;
    size_t n, cap;
    const char *text;
};

static void collect(void *ctx, const struct figure_value *v)
{
    struct set *S = ctx;
    if (!v->id[0] || jval_is_none(v->json))
        return;
    if (S->n == S->cap) {
        S->cap = S->cap ? 2 * S->cap : 256;
        S->t = realloc(S->t, S->cap * sizeof *S->t);
    }
    struct tracked *t = &S->t[S->n++];
    snprintf(t->id, sizeof t->id, "%s", v->id);
    snprintf(t->path, sizeof t->path, "%s", v->path);
    t->value = v->lava_value;
    t->at = (size_t)(v->json.p - S->text);
    t->len = v->json.n;
}

static char *slurp_or_fail(const char *path, size_t *len)
{
    char *text = cli_slurp(path, len), what[300];
    snprintf(what, sizeof what, "%s can be read", path);
    CHECK(text, what);
    return text;
}

/* ---- LAVA --------------------------------------------------------------------- */

static void check_lava(const struct set *S, const char *lava_path)
{
    size_t len, bad = 0, lines = 0, unknown = 0;
    char *lava = slurp_or_fail(lava_path, &len), what[200], want[LAVA_ID_MAX + 16];
    if (!lava)
        return;
    for (size_t i = 0; i < S->n; i++) {
        const struct figure *row = figures_id_row(S->t[i].id);
        snprintf(want, sizeof want, "case=%s ", S->t[i].id);
        if (!row || !strstr(lava, want)) {
            if (bad++ < SHOW_MAX)
                printf("FAIL: %s (%s): %s\n", S->t[i].id, S->t[i].path,
                       row ? "no such case in the boot's LAVA lines" : "its id maps to no row");
        }
    }
    snprintf(what, sizeof what, "LAVA: each of the %zu tracked figures is a case of the boot, its id its row's", S->n);
    CHECK(S->n > 100 && bad == 0, what);
    /* and the other way: every case printed is a tracked figure of the JSON */
    for (char *p = strstr(lava, "case="); p; p = strstr(p + 5, "case=")) {
        char id[LAVA_ID_MAX + 1], line[512];
        size_t k = strcspn(p + 5, " \n");
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        if (!strstr(line, " measurement="))
            continue;           /* a skip: a figure the run could not take (an absent clock) */
        snprintf(id, sizeof id, "%.*s", (int)(k < sizeof id ? k : sizeof id - 1), p + 5);
        lines++;
        size_t i = 0;
        while (i < S->n && strcmp(S->t[i].id, id))
            i++;
        if (i == S->n && unknown++ < SHOW_MAX)
            printf("FAIL: the boot printed case %s, which no row of the tables finds in the JSON\n", id);
    }
    snprintf(what, sizeof what, "LAVA: each of the boot's %zu cases with a measurement is a tracked figure of its JSON",
             lines);
    CHECK(lines > 100 && unknown == 0, what);
    free(lava);
}

/* ---- validate ------------------------------------------------------------------ */

/* Problems validate finds in a document given as text; its lines in *out. */
static int validate_text(const char *text, char **out)
{
    json_error_t e;
    size_t len = 0;
    int seen = 0, n = -1;
    json_t *root = json_loads(text, 0, &e);
    FILE *m = open_memstream(out, &len);
    if (root && m) {
        rv_out = m;
        n = rv_document(root, "run.json", 0, &seen);
        rv_out = NULL;
    }
    if (m)
        fclose(m);
    json_decref(root);
    return n;
}

static int by_place(const void *a, const void *b)
{
    const struct tracked *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

static void check_validate(const struct set *S0, const char *text)
{
    /* the places in the order of the text, to splice */
    struct set copy = *S0, *S = &copy;
    copy.t = malloc(S0->n * sizeof *copy.t);
    if (!copy.t)
        return;
    memcpy(copy.t, S0->t, S0->n * sizeof *copy.t);
    qsort(copy.t, copy.n, sizeof *copy.t, by_place);
    char *out = NULL, what[200];
    int n = validate_text(text, &out);
    CHECK(n == 0, "validate: the real run is valid");
    if (n)
        printf("%s", out ? out : "");
    free(out);

    /* every tracked figure a string (spans in the order of the text) */
    size_t cap = strlen(text) + 8 * S->n + 1, o = 0, from = 0, missed = 0, checked = 0;
    char *bad = malloc(cap);
    for (size_t i = 0; bad && i < S->n; i++) {
        if (S->t[i].at < from)
            continue;           /* one place reached by two rows (ticks and ns) */
        memcpy(bad + o, text + from, S->t[i].at - from);
        o += S->t[i].at - from;
        o += (size_t)sprintf(bad + o, "\"x\"");
        from = S->t[i].at + S->t[i].len;
    }
    if (!bad) {
        free(copy.t);
        return;
    }
    strcpy(bad + o, text + from);
    n = validate_text(bad, &out);
    for (size_t i = 0; out && i < S->n; i++) {
        char want[200], want_field[200];
        if (isnan(S->t[i].value))
            continue;           /* null, or a place whose `only` fails: anything goes there */
        checked++;
        /* by the figure's row, or by the section's field for it (which names the type) */
        snprintf(want, sizeof want, ": %s: is not a number or null", S->t[i].path);
        snprintf(want_field, sizeof want_field, ": %s: expected ", S->t[i].path);
        if (!strstr(out, want) && !strstr(out, want_field) && missed++ < SHOW_MAX)
            printf("FAIL: validate says nothing of %s (%s) made a string\n", S->t[i].path, S->t[i].id);
    }
    snprintf(what, sizeof what, "validate: each of the %zu tracked figures made a string is named", checked);
    CHECK(n > 0 && checked > 100 && missed == 0, what);
    free(out);
    free(bad);
    free(copy.t);
}

/* A number no table declares: one line, naming it, and the file invalid. */
static void check_undeclared(const char *text)
{
    const char *at = strstr(text, "\"clock\":{");
    char *out = NULL;
    if (!at) {
        CHECK(0, "validate: the run has a clock section to add a number to");
        return;
    }
    size_t k = (size_t)(at - text) + strlen("\"clock\":{");
    char *doc = malloc(strlen(text) + 64);
    if (!doc)
        return;
    sprintf(doc, "%.*s\"made_up_ns\":12.5,%s", (int)k, text, text + k);
    int n = validate_text(doc, &out);
    size_t lines = 0;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        lines++;
    CHECK(n == 1 && lines == 1 && out &&
          strstr(out, "run.json: clock.made_up_ns: figure clock.made_up_ns is not declared in any figure table"),
          "validate: a number no row declares (clock.made_up_ns) is one problem, one line naming it");
    if (n != 1)
        printf("# %s", out ? out : "");
    free(out);
    free(doc);
}

/* ---- fleet ---------------------------------------------------------------------- */

static void check_fleet(const struct set *S, const char *json_path)
{
    struct fleet F;
    size_t missing = 0, counted = 0;
    char what[200];
    memset(&F, 0, sizeof F);
    CHECK(fl_read_json(&F, json_path, "m") == 0, "fleet: reads the run");
    for (size_t i = 0; i < S->n; i++) {
        if (isnan(S->t[i].value))
            continue;           /* no value: not a cell of the table */
        counted++;
        size_t f = 0;
        while (f < F.nfigs && strcmp(F.figs[f].id, S->t[i].id))
            f++;
        int ok = f < F.nfigs && F.figs[f].n == 1 && F.figs[f].cells[0].nv >= 1;
        if (ok) {
            double got = F.figs[f].cells[0].vals[F.figs[f].cells[0].nv - 1];
            ok = fabs(got - S->t[i].value) <= 1e-12 * fabs(S->t[i].value);
        }
        if (!ok && missing++ < SHOW_MAX)
            printf("FAIL: fleet: %s (%s) is not in its table with value %.10g\n", S->t[i].id, S->t[i].path,
                   S->t[i].value);
    }
    snprintf(what, sizeof what, "fleet: each of the %zu tracked figures with a value is a figure of the table", counted);
    CHECK(counted > 100 && missing == 0, what);
}

/* ---- report --------------------------------------------------------------------- */

static void check_report(const struct set *S, const char *json_path)
{
    char html_path[] = "/tmp/test_figure_consumers.XXXXXX", what[200];
    int fd = mkstemp(html_path);
    size_t len = 0, missing = 0;
    if (fd < 0) {
        CHECK(0, "report: a temporary file");
        return;
    }
    close(fd);
    char *argv[] = { "report", (char *)json_path, "-o", html_path, NULL };
    CHECK(cmd_report(4, argv) == 0, "report: writes the page");
    char *html = cli_slurp(html_path, &len);
    unlink(html_path);
    for (size_t i = 0; html && i < S->n; i++) {
        char want[LAVA_ID_MAX + 80], num[48];
        if (isnan(S->t[i].value))
            snprintf(want, sizeof want, "<tr><td>%s</td><td class=\"n", S->t[i].id);
        else {
            figures_format(S->t[i].value, num, sizeof num);
            snprintf(want, sizeof want, "<tr><td>%s</td><td class=\"n\">%s</td>", S->t[i].id, num);
        }
        if (!strstr(html, want) && missing++ < SHOW_MAX)
            printf("FAIL: report: no row %s\n", want);
    }
    snprintf(what, sizeof what, "report: each of the %zu tracked figures is a row of its section's table, with its value",
             S->n);
    CHECK(html && S->n > 100 && missing == 0, what);
    free(html);
}

int main(int argc, char **argv)
{
    const char *json_path = argc > 2 ? argv[1] : "tests/fixtures/run-full.json";
    const char *lava_path = argc > 2 ? argv[2] : "tests/fixtures/run-full.lava";
    size_t len = 0;
    char *text = slurp_or_fail(json_path, &len);
    if (!text)
        return check_done();
    struct set S = { NULL, 0, 0, text };
    struct jval doc = jval_doc(text, len);
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++)
            if (t->rows[r].lava)
                figures_each(doc, t, &t->rows[r], collect, &S);
    printf("# %zu tracked figures in %s\n", S.n, json_path);
    check_lava(&S, lava_path);
    check_validate(&S, text);
    check_undeclared(text);
    check_fleet(&S, json_path);
    check_report(&S, json_path);
    free(S.t);
    free(text);
    return check_done();
}
