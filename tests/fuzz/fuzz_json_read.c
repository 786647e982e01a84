/*
 * tests/fuzz/fuzz_json_read.c - libFuzzer target for bench/results/json_read.c and
 * what reads results documents with it: the figure tables' walk
 * (bench/results/figures.c) and the run's summary (bench/summary/summary.c), on text from
 * anywhere (a stick from elsewhere).
 *
 * Built by tests/fuzz/run.sh.  Besides "no crash, no sanitizer report":
 *   - jval_doc accepts the input only as one whole value: the span it gives
 *     lies inside the input and jval_span measures the same length;
 *   - every value the walk reaches lies inside its container, an object's
 *     members and an array's elements counted by jval_next match jval_count;
 *   - strings come out NUL-terminated within their buffer;
 *   - summary_build returns 0 or -1, its rows stay within SUMMARY_ROWS_MAX,
 *     each a terminated string.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "json_read.h"
#include "summary.h"

static void fuzz_require(int ok)
{
    if (!ok)
        abort();
}

static void fuzz_walk(struct jval v, const char *lo, const char *hi, int depth)
{
    char s[64];
    struct jval k, e;
    size_t it = 0, n = 0;
    fuzz_require(v.p >= lo && v.p + v.n <= hi && v.n > 0 && depth <= JVAL_MAX_DEPTH + 1);
    switch (jval_type(v)) {
    case JVAL_OBJECT:
    case JVAL_ARRAY:
        while (jval_next(v, &it, &k, &e)) {
            fuzz_require(e.p > v.p && e.p + e.n < v.p + v.n);
            if (jval_type(v) == JVAL_OBJECT)
                fuzz_require(jval_str(k, s, sizeof s) && strlen(s) < sizeof s);
            fuzz_walk(e, v.p, v.p + v.n, depth + 1);
            n++;
        }
        fuzz_require(n == jval_count(v));
        break;
    case JVAL_STRING:
        fuzz_require(jval_str(v, s, sizeof s) && strlen(s) < sizeof s);
        break;
    default:
        (void)jval_num(v, 0);
        break;
    }
}

static void fuzz_figure(void *ctx, const struct figure_value *v)
{
    (void)ctx;
    fuzz_require(strlen(v->id) < sizeof v->id && strlen(v->path) < sizeof v->path);
}

static struct summary fuzz_summary;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct jval doc = jval_doc(text, size);
    if (!jval_is_none(doc)) {
        fuzz_require(doc.p >= text && doc.p + doc.n <= text + size && jval_span(doc.p, doc.n) == doc.n);
        fuzz_walk(doc, text, text + size, 0);
        const struct figure_table *t;
        for (unsigned i = 0; (t = figures_table(i)); i++)
            for (unsigned r = 0; r < t->n; r++)
                figures_each(doc, t, &t->rows[r], fuzz_figure, NULL);
    }
    (void)jval_path(doc, "methods.measurements[0].samples[1]");
    int rc = summary_build(&fuzz_summary, text, size);
    fuzz_require(rc == 0 || rc == -1);
    fuzz_require(fuzz_summary.n_rows <= SUMMARY_ROWS_MAX);
    for (unsigned i = 0; i < fuzz_summary.n_rows; i++)
        fuzz_require(memchr(fuzz_summary.rows[i].text, 0, sizeof fuzz_summary.rows[i].text) != NULL);
    return 0;
}
