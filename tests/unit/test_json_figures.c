/*
 * tests/unit/test_json_figures.c - the JSON writer through the figure
 * tables (bench/results/json.h json_fig_*, bench/results/figures_write.c): a figure's
 * name comes from its row, the text is what a plain write gives, and the
 * checker names each of the three ways past the tables (a number no row
 * declares, a named place written by name, a row written elsewhere) and
 * stays quiet for numbers a whole-container row declares.
 */
#include <string.h>

#include "check.h"
#include "figures.h"
#include "figures_clock.h"
#include "figures_cores.h"
#include "figures_run.h"
#include "json.h"

static struct figures_check chk;
static struct json_writer w;
static char problem[256];

/* A document with the checker, opened at member `member` (an object). */
static void doc_begin(const char *member)
{
    json_init(&w);
    json_check(&w, figures_json_check, &chk);
    json_obj_begin(&w, NULL);
    json_obj_begin(&w, member);
}

/* Close it; the problems found, the first into `problem`. */
static unsigned doc_end(void)
{
    json_obj_end(&w);
    json_obj_end(&w);
    return figures_check_take(&chk, problem, sizeof problem);
}

static void check_names_from_rows(void)
{
    doc_begin("clock");
    json_fig_double(&w, &figures_clock, CLOCK_CHOSEN_KHZ, 2596142.25);
    json_fig_null(&w, &figures_clock, CLOCK_FIG_REFINED_MS);
    json_arr_begin(&w, "references");
    json_obj_begin(&w, NULL);
    json_str(&w, "name", "hpet");
    json_fig_double(&w, &figures_clock, CLOCK_REFERENCES_KHZ, 2596142.5);
    json_fig_double(&w, &figures_clock, CLOCK_REFERENCES_PPM, 0.1);
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
    json_check(&w, figures_json_check, &chk);
    json_obj_begin(&w, NULL);
    json_fig_u64(&w, &figures_run, RUN_SCHEMA, 1);
    json_fig_i64(&w, &figures_run, RUN_STATUS, -2);
    json_obj_end(&w);
    CHECK_STR(w.buf, plain.buf, "the run's own rows give the text a plain write gives");
    CHECK_EQ_U64(figures_check_take(&chk, problem, sizeof problem), 0, "... and no problem at the top level");
    json_free(&w);
    json_free(&plain);
}

/* A row whose path ends in "[*]" names array elements: no name. */
static void check_element_rows(void)
{
    CHECK(json_fig_key(&figures_cores, CORES_LATENCY_MEDIAN_NS) == NULL,
          "latency.median_ns[*][*]'s cells have no name");
    CHECK_STR(json_fig_key(&figures_clock, CLOCK_AGREEMENT_MAX_MEASURED_PPM), "max_measured_ppm",
              "agreement.max_measured_ppm's name is its last segment");
    doc_begin("cores");
    json_obj_begin(&w, "latency");
    json_arr_begin(&w, "median_ns");
    for (int i = 0; i < 2; i++) {
        json_arr_begin(&w, NULL);
        for (int j = 0; j < 2; j++)
            json_fig_double(&w, &figures_cores, CORES_LATENCY_MEDIAN_NS, 40.0 + i + j);
        json_arr_end(&w);
    }
    json_arr_end(&w);
    json_obj_end(&w);
    CHECK_EQ_U64(doc_end(), 0, "a matrix written cell by cell through its row has no problem");
    CHECK(strstr(w.buf, "\"median_ns\":[[40,41],[41,42]]") != NULL, "... and is a plain matrix");
    json_free(&w);
}

static void check_problems(void)
{
    doc_begin("clock");
    json_double(&w, "chosen_khz", 1.0);
    CHECK_EQ_U64(doc_end(), 1, "a named place written by name is a problem");
    CHECK_STR(problem, "figure clock.chosen_khz is written by name, not through its row chosen_khz (json_fig_*)",
              "... said with the place and the row");
    json_free(&w);

    doc_begin("clock");
    json_null(&w, "chosen_khz");
    json_null(&w, "no_such_object");        /* a null no row names: may stand for an object */
    CHECK_EQ_U64(doc_end(), 1, "a null written by name where a row names the place is a problem; elsewhere not");
    CHECK(strstr(problem, "clock.chosen_khz is written by name") != NULL, "... said as for a number");
    json_free(&w);

    doc_begin("clock");
    json_arr_begin(&w, "references");
    json_obj_begin(&w, NULL);
    json_double(&w, "khz", 1.0);            /* under references[0]: a row of one place lies below */
    json_obj_end(&w);
    json_arr_end(&w);
    CHECK_EQ_U64(doc_end(), 1, "an element's named figure written by name is a problem, though references[*].* is detail");
    CHECK(strstr(problem, "clock.references[0].khz") != NULL, "... at its concrete place");
    json_free(&w);

    doc_begin("clock");
    json_u64(&w, "new_count", 3);
    json_u64(&w, "another", 4);
    CHECK_EQ_U64(doc_end(), 2, "numbers no row declares are problems, each counted");
    CHECK_STR(problem, "figure clock.new_count is not declared in any figure table", "... the first said");
    CHECK_EQ_U64(figures_check_take(&chk, problem, sizeof problem), 0, "taking them starts the count again");
    CHECK_STR(problem, "", "... with no words");
    json_free(&w);

    doc_begin("clock");
    json_obj_begin(&w, "agreement");
    json_fig_double(&w, &figures_clock, CLOCK_CHOSEN_KHZ, 1.0);
    json_obj_end(&w);
    CHECK_EQ_U64(doc_end(), 1, "a row written away from its path is a problem");
    CHECK_STR(problem, "figure row chosen_khz was written at clock.agreement.chosen_khz, not at its path",
              "... said with both places");
    json_free(&w);

    doc_begin("memory");
    json_fig_double(&w, &figures_clock, CLOCK_CHOSEN_KHZ, 1.0);
    CHECK_EQ_U64(doc_end(), 1, "a row of another member's table is a problem");
    json_free(&w);

    /* a number the writer is given still lands in the document */
    doc_begin("clock");
    json_u64(&w, "new_count", 3);
    doc_end();
    CHECK(strstr(w.buf, "\"new_count\":3") != NULL, "a number past the tables is written all the same");
    json_free(&w);
}

static void check_whole_containers(void)
{
    doc_begin("clock");
    json_obj_begin(&w, "quiet_phase");          /* quiet_phase.*: every number below is detail */
    json_u64(&w, "nmis", 0);
    json_obj_begin(&w, "deeper");
    json_arr_begin(&w, "list");
    json_double(&w, NULL, 1.5);
    json_arr_end(&w);
    json_obj_end(&w);
    json_obj_end(&w);
    json_obj_begin(&w, "legacy_timer_rates");
    json_double(&w, "pit_hz", 1193182.0);
    json_obj_end(&w);
    CHECK_EQ_U64(doc_end(), 0, "numbers under a whole-container row need no row of their own");
    json_free(&w);

    doc_begin("build");
    json_u64(&w, "anything", 1);                /* build: "*" */
    CHECK_EQ_U64(doc_end(), 0, "a member whose table is one \"*\" row takes any number");
    json_free(&w);

    CHECK(figures_covers(&figures_clock, "quiet_phase"), "quiet_phase is covered whole");
    CHECK(!figures_covers(&figures_clock, "references[3]"), "a reference is not: its khz and ppm have rows");
    CHECK(!figures_covers(&figures_clock, "quiet"), "nor is quiet: max_gap_ticks has a row");
    CHECK(!figures_covers(&figures_clock, ""), "nor the member itself");
    CHECK(!figures_covers(&figures_cores, "latency.median_ns[0]"), "nor a matrix row of cells with a row");
    CHECK(figures_covers(&figures_clock, "references[3].windows"), "a reference's windows are");
}

int main(void)
{
    check_names_from_rows();
    check_element_rows();
    check_problems();
    check_whole_containers();
    return check_done();
}
