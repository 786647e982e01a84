/*
 * tests/fuzz/fuzz_json_read.c - libFuzzer target for bench/results/json_read.c and
 * what reads results documents with it: the figure tables' walk
 * (bench/results/figures.c) and the run's summary (bench/results/summary.c), on text from
 * anywhere (a stick from elsewhere).
 *
 * Built by tests/fuzz/run.sh.  Besides "no crash, no sanitizer report":
 *   - jr_doc accepts the input only as one whole value: the span it gives
 *     lies inside the input and jr_span measures the same length;
 *   - every value the walk reaches lies inside its container, an object's
 *     members and an array's elements counted by jr_next match jr_count;
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

static void fuzz_walk(struct jr v, const char *lo, const char *hi, int depth)
{
    char s[64];
    struct jr k, e;
    size_t it = 0, n = 0;
    fuzz_require(v.p >= lo && v.p + v.n <= hi && v.n > 0 && depth <= JR_MAX_DEPTH + 1);
    switch (jr_type(v)) {
    case JR_OBJECT:
    case JR_ARRAY:
        while (jr_next(v, &it, &k, &e)) {
            fuzz_require(e.p > v.p && e.p + e.n < v.p + v.n);
            if (jr_type(v) == JR_OBJECT)
                fuzz_require(jr_str(k, s, sizeof s) && strlen(s) < sizeof s);
            fuzz_walk(e, v.p, v.p + v.n, depth + 1);
            n++;
        }
        fuzz_require(n == jr_count(v));
        break;
    case JR_STRING:
        fuzz_require(jr_str(v, s, sizeof s) && strlen(s) < sizeof s);
        break;
    default:
        (void)jr_num(v, 0);
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
    struct jr doc = jr_doc(text, size);
    if (!jr_is_none(doc)) {
        fuzz_require(doc.p >= text && doc.p + doc.n <= text + size && jr_span(doc.p, doc.n) == doc.n);
        fuzz_walk(doc, text, text + size, 0);
        const struct figure_table *t;
        for (unsigned i = 0; (t = figures_table(i)); i++)
            for (unsigned r = 0; r < t->n; r++)
                figures_each(doc, t, &t->rows[r], fuzz_figure, NULL);
    }
    (void)jr_path(doc, "methods.measurements[0].samples[1]");
    int rc = summary_build(&fuzz_summary, text, size);
    fuzz_require(rc == 0 || rc == -1);
    fuzz_require(fuzz_summary.n_rows <= SUMMARY_ROWS_MAX);
    for (unsigned i = 0; i < fuzz_summary.n_rows; i++)
        fuzz_require(memchr(fuzz_summary.rows[i].text, 0, sizeof fuzz_summary.rows[i].text) != NULL);
    return 0;
}
