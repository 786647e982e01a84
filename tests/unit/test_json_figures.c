/*
 * tests/unit/test_json_figures.c - writing through the figure tables
 * (bench/results/figures.h json_fig_*, figures_write.c): a figure's name
 * comes from its row and the text is what a plain write gives; and the
 * rule "every number is declared" (figures_undeclared) finds each number
 * a document holds that no row declares, and no other.
 */
#include <string.h>

#include "check.h"
#include "figures.h"
#include "figures_clock.h"
#include "figures_cores.h"
#include "figures_run.h"
#include "json.h"

static struct json_writer w;
static char problem[256];
static unsigned problems;

/* A document opened at member `member` (an object). */
static void doc_begin(const char *member)
{
    json_init(&w);
    json_obj_begin(&w, NULL);
    json_obj_begin(&w, member);
}

static void undeclared(void *ctx, const char *path)
{
    (void)ctx;
    if (!problems++)
        snprintf(problem, sizeof problem, "%s", path);
}

/* Close it; how many of its numbers no row declares, the first one's
 * place into `problem`. */
static unsigned doc_end(void)
{
    json_obj_end(&w);
    json_obj_end(&w);
    problems = 0;
    problem[0] = 0;
    figures_undeclared(jval_doc(w.buf, w.len), undeclared, NULL);
    return problems;
}

static void check_names_from_rows(void)
{
    doc_begin("clock");
    json_fig_double(&w, &figures_clock, FIG_CLOCK_CHOSEN_KHZ, 2596142.25);
    json_fig_null(&w, &figures_clock, FIG_CLOCK_REFINED_MS);
    json_arr_begin(&w, "references");
    json_obj_begin(&w, NULL);
    json_str(&w, "name", "hpet");
    json_fig_double(&w, &figures_clock, FIG_CLOCK_REFERENCES_KHZ, 2596142.5);
    json_fig_double(&w, &figures_clock, FIG_CLOCK_REFERENCES_PPM, 0.1);
    json_u64(&w, "window_used", 2);         /* detail of references[*].* */
    json_obj_end(&w);
    json_arr_end(&w);
    unsigned n = doc_end();
    CHECK_EQ_U64(n, 0, "a clock member written through its rows has no problem");
    CHECK_STR(w.buf, "{\"clock\":{\"chosen_khz\":2596142.25,\"refined_ms\":null,\"references\":[{\"name\":\"hpet\","
              "\"khz\":2596142.5,\"ppm\":0.10000000000000001,\"window_used\":2}]}}",
              "the names are the rows' last segments, the numbers as a plain write gives them");
    json_free(&w);

    /* the same text as a writer without rows or checker */
    struct json_writer plain;
    json_init(&plain);
    json_obj_begin(&plain, NULL);
    json_u64(&plain, "schema", 1);
    json_i64(&plain, "status", -2);
    json_obj_end(&plain);
    json_init(&w);
    json_obj_begin(&w, NULL);
    json_fig_u64(&w, &figures_run, FIG_RUN_SCHEMA, 1);
    json_fig_i64(&w, &figures_run, FIG_RUN_STATUS, -2);
    json_obj_end(&w);
    CHECK_STR(w.buf, plain.buf, "the run's own rows give the text a plain write gives");
    problems = 0;
    CHECK_EQ_U64(figures_undeclared(jval_doc(w.buf, w.len), undeclared, NULL), 2, "the top level holds two numbers");
    CHECK_EQ_U64(problems, 0, "... both declared");
    json_free(&w);
    json_free(&plain);
}

/* A row whose path ends in "[*]" names array elements: no name. */
static void check_element_rows(void)
{
    CHECK(json_fig_key(&figures_cores, FIG_CORES_LATENCY_MEDIAN_NS) == NULL,
          "latency.median_ns[*][*]'s cells have no name");
    CHECK_STR(json_fig_key(&figures_clock, FIG_CLOCK_AGREEMENT_MAX_MEASURED_PPM), "max_measured_ppm",
              "agreement.max_measured_ppm's name is its last segment");
    doc_begin("cores");
    json_obj_begin(&w, "latency");
    json_arr_begin(&w, "median_ns");
    for (int i = 0; i < 2; i++) {
        json_arr_begin(&w, NULL);
        for (int j = 0; j < 2; j++)
            json_fig_double(&w, &figures_cores, FIG_CORES_LATENCY_MEDIAN_NS, 40.0 + i + j);
        json_arr_end(&w);
    }
    json_arr_end(&w);
    json_obj_end(&w);
    CHECK_EQ_U64(doc_end(), 0, "a matrix written cell by cell through its row has no problem");
    CHECK(strstr(w.buf, "\"median_ns\":[[40,41],[41,42]]") != NULL, "... and is a plain matrix");
    json_free(&w);
}

static void check_undeclared(void)
{
    doc_begin("clock");
    json_u64(&w, "new_count", 3);
    json_u64(&w, "another", 4);
    CHECK_EQ_U64(doc_end(), 2, "numbers no row declares are found, each counted");
    CHECK_STR(problem, "clock.new_count", "... the first by its place");
    json_free(&w);

    doc_begin("clock");
    json_arr_begin(&w, "references");
    json_obj_begin(&w, NULL);
    json_double(&w, "khz", 1.0);            /* references[*].khz */
    json_obj_begin(&w, "made_up");
    json_u64(&w, "deep", 1);                /* references[*].*: detail, declared whole */
    json_obj_end(&w);
    json_obj_end(&w);
    json_arr_end(&w);
    json_double(&w, "chosen_khz", 2.0);
    json_u64(&w, "chosen_khz_typo", 5);
    CHECK_EQ_U64(doc_end(), 1, "a number beside declared ones is found, and only it");
    CHECK_STR(problem, "clock.chosen_khz_typo", "... by its place");
    json_free(&w);

    doc_begin("memory");
    json_u64(&w, "made_up_ns", 1);
    json_obj_end(&w);
    json_obj_begin(&w, "build");
    json_u64(&w, "anything", 1);            /* build: "*" */
    json_obj_end(&w);
    json_obj_begin(&w, "no_such_member");
    json_double(&w, "x", 1.0);
    json_str(&w, "text", "1");              /* a string is no number */
    json_null(&w, "nothing");               /* nor is a null */
    problems = 0;
    json_obj_end(&w);
    json_obj_end(&w);
    unsigned numbers = figures_undeclared(jval_doc(w.buf, w.len), undeclared, NULL);
    CHECK_EQ_U64(numbers, 3, "every number of the document is looked at, strings and nulls are not");
    CHECK_EQ_U64(problems, 2, "a member's made-up number and a member no table has are found; build's is declared");
    CHECK_STR(problem, "memory.made_up_ns", "... the first by its place");
    json_free(&w);

    doc_begin("quiet_phase_not_a_member");
    CHECK_EQ_U64(doc_end(), 0, "an empty member holds nothing undeclared");
    json_free(&w);
}

/* The writer's nesting: JSON_MAX_DEPTH (32) levels are written whole; one
 * more marks the document failed instead of counting members past its array. */
static void check_depth(void)
{
    char want[2 * JSON_MAX_DEPTH + 8];
    for (int deep = JSON_MAX_DEPTH; deep <= JSON_MAX_DEPTH + 1; deep++) {
        json_init(&w);
        for (int i = 0; i < deep; i++)
            json_arr_begin(&w, NULL);
        json_i64(&w, NULL, 1);
        json_i64(&w, NULL, 2);
        for (int i = 0; i < deep; i++)
            json_arr_end(&w);
        if (deep == JSON_MAX_DEPTH) {
            memset(want, '[', (size_t)deep);
            memcpy(want + deep, "1,2", 3);
            memset(want + deep + 3, ']', (size_t)deep);
            want[2 * deep + 3] = 0;
            CHECK(!w.failed && w.len == strlen(want) && !memcmp(w.buf, want, w.len),
                  "32 nested arrays around 1,2: written whole");
        } else {
            CHECK(w.failed && w.depth == 0, "33 nested arrays: the document is marked failed, and closes back to depth 0");
        }
        json_free(&w);
    }
}

int main(void)
{
    check_depth();
    check_names_from_rows();
    check_element_rows();
    check_undeclared();
    return check_done();
}
