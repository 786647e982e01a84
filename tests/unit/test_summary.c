/*
 * tests/unit/test_summary.c - the run's summary (bench/summary.h) built
 * from real results files:
 *   - tests/fixtures/run-full.json (an -icount boot, every section): each
 *     field against the document's own figures (the chosen estimate is the
 *     section's net median, the clock its chosen rate, ...), the exact
 *     ratio of add10 and add100 (their samples as stored, already net of
 *     the overhead loop: constant 1203 and 10203 ticks, so every log
 *     difference and the ratio is log(10203 / 1203)), what each pair is
 *     (order check, placement check, A/A control, A/B), and the whole text
 *     block, row by row;
 *   - tests/fixtures/run-guess.json (real noise): intervals around the
 *     medians, the A/A control as expected, Foo faster than FooBar;
 *   - the fixture of an unfinished run ("status": "interrupted", "stage": "clock");
 *   - a cut file: no summary, one row saying why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tools/host/commands.h"
#include "json_read.h"
#include "summary.h"

#define FIXTURES "tests/fixtures/"

static struct summary *build(const char *file, char **text, int *rc)
{
    size_t len = 0;
    struct summary *s = malloc(sizeof *s);
    *text = cli_slurp(file, &len);
    *rc = summary_build(s, *text ? *text : "", len);
    return s;
}

static const struct summary_target *target(const struct summary *s, const char *name)
{
    for (unsigned i = 0; i < s->n_targets; i++)
        if (!strcmp(s->targets[i].name, name))
            return &s->targets[i];
    return NULL;
}

/* The section's own net median of (target, method). */
static double net_median(struct jr doc, const char *t, const char *m)
{
    struct jr e;
    size_t it = 0;
    while (jr_next(jr_path(doc, "methods.measurements"), &it, NULL, &e))
        if (jr_str_eq(jr_get(e, "target"), t) && jr_str_eq(jr_get(e, "method"), m))
            return jr_num(jr_path(e, "net.median"), NAN);
    return NAN;
}

struct lines {
    char text[64][256];
    unsigned n;
};

static void collect(void *ctx, const char *line)
{
    struct lines *L = ctx;
    if (L->n < 64)
        snprintf(L->text[L->n++], sizeof L->text[0], "%s", line);
}

static void test_full(void)
{
    char *text;
    int rc;
    struct summary *s = build(FIXTURES "run-full.json", &text, &rc);
    struct jr doc = jr_doc(text, strlen(text));
    CHECK(rc == 0, "run-full: a summary is built");
    CHECK(s->verdict == SUMMARY_COMPLETED && s->status == 0 && s->warnings == 0, "run-full: completed, 0 warnings");
    CHECK_STR(s->run, "20261125-153437", "run-full: the run's name");
    CHECK_STR(s->profile, "quick", "run-full: the profile in effect");
    CHECK_NEAR(s->tsc_mhz, jr_num(jr_path(doc, "clock.chosen_khz"), 0) / 1000, 0, "run-full: the TSC rate is the clock's");
    CHECK_STR(s->tsc_source, "hpet", "run-full: from the HPET");
    CHECK_EQ_U64(s->references, 3, "run-full: three measured references");
    CHECK_NEAR(s->gap_max_us, 0.032, 1e-9, "run-full: largest gap 32 ticks at 1 GHz = 0.032 us");
    CHECK_EQ_U64(s->n_targets, 6, "run-full: six targets");
    int same = 1, agree = 1;
    double hz = jr_num(jr_path(doc, "methods.tick_hz"), NAN);
    for (unsigned i = 0; i < s->n_targets; i++) {
        const struct summary_target *t = &s->targets[i];
        const struct summary_estimate *e = &t->est[t->chosen];
        same &= e->ticks == net_median(doc, t->name, e->method) && e->ticks_lo <= e->ticks && e->ticks <= e->ticks_hi;
        same &= !strcmp(e->method, "sdm-recommended") && e->chosen && fabs(e->ns - e->ticks * 1e9 / hz) < 1e-9;
        agree &= t->n_est == 9 && t->agree == 9;
    }
    CHECK(same, "run-full: each target's estimate is its section's net median with the comparisons' method");
    CHECK(agree, "run-full: every target measured by the 9 methods, all agreeing (-icount)");
    const struct summary_target *add10 = target(s, "add10");
    CHECK(add10 && add10->est[add10->chosen].ticks_lo == add10->est[add10->chosen].ticks_hi,
          "run-full: identical samples under -icount give a zero-width interval");
    CHECK_EQ_U64(s->n_ab, 4, "run-full: four comparisons");
    const struct summary_ab *ab = &s->ab[3];
    CHECK(ab->detected && !ab->control && !strcmp(ab->faster, "add10") && !strcmp(ab->slower, "add100"),
          "run-full: add10 is faster than add100");
    CHECK_NEAR(ab->ratio, 10203.0 / 1203, 1e-12, "run-full: ratio 10203 / 1203 (nothing subtracted again)");
    CHECK(ab->ratio_lo == ab->ratio && ab->ratio_hi == ab->ratio, "run-full: constant samples, an interval of one point");
    CHECK(!s->ab[0].control && !strcmp(s->ab[0].check, "order check") && !s->ab[0].detected &&
          s->ab[0].as_expected == 1, "run-full: foo vs foo in ABAB order is the order check, not an A/A control");
    CHECK(!s->ab[1].control && !strcmp(s->ab[1].check, "placement check"), "run-full: foo vs foobar, the placement check");
    CHECK(s->ab[2].control && !strcmp(s->ab[2].check, "a/a control") && !s->ab[2].detected &&
          s->ab[2].as_expected == 1, "run-full: foo vs foo in random order, the A/A control, as expected");
    CHECK_NEAR(s->index_integer, jr_num(jr_path(doc, "bytemark.indexes.original_integer"), 0), 0,
               "run-full: the integer index");
    CHECK(s->cores_cpus == 2 && s->cores_offset_ns == jr_num(jr_path(doc, "cores.tsc.cpus[1].offset_ns"), 0) &&
          s->cores_c2c_ns == jr_num(jr_path(doc, "cores.latency.median_ns[0][1]"), 0),
          "run-full: cores: 2 CPUs, the offset of CPU 1, the round trip");
    CHECK(s->n_levels == 4 && !strcmp(s->levels[0].name, "L1d") && !strcmp(s->levels[2].name, "L3") &&
          !strcmp(s->levels[3].name, "memory") && s->levels[1].bytes == 262144,
          "run-full: memory levels L1d, L2 (at 256 KiB), L3, memory (the quick profile reaches 64 MiB)");
    CHECK(s->n_sections == 7 && !strcmp(s->sections[0].name, "clock") &&
          !strncmp(s->sections[0].headline, "TSC 1000000 kHz", 15), "run-full: each section's headline");

    struct lines L = { .n = 0 };
    summary_print(s, collect, &L);
    CHECK(L.n <= 42 && L.n == s->n_rows + 2, "run-full: at most 40 rows between the two markers");
    CHECK_STR(L.text[0], "==================== baremark summary: 20261125-153437 ====================", "run-full: opening marker");
    CHECK(strspn(L.text[L.n - 1], "=") == strlen(L.text[0]) && strlen(L.text[L.n - 1]) == strlen(L.text[0]),
          "run-full: the closing rule is as long as the opening marker");
    CHECK_STR(L.text[1], "verdict   completed, 0 warnings; profile quick", "run-full: verdict row");
    CHECK_STR(L.text[5], "clock     TSC 1000.000 MHz +/- 0.276 ppm from the hpet; 3 references agree within 0.148 ppm",
              "run-full: clock row (after the machine's two rows and Secure Boot's)");
    int found = 0;
    for (unsigned i = 0; i < L.n; i++)
        found += !strcmp(L.text[i], "          add10                12.19  12.19-12.19            12.19  "
                                    "sdm-recommended     9 of 9") ||
                 !strcmp(L.text[i], "          add10 is 8.481x [8.481, 8.481] faster than add100, p = 9.2e-89") ||
                 !strcmp(L.text[i], "cores     2 CPUs; largest TSC offset 46 ns; worst core-to-core round trip 2606 ns") ||
                 !strcmp(L.text[i], "memory    L1d 1.125 ns, L2 1.125 ns, L3 1.125 ns, memory 1.125 ns per load; "
                                    "read 23.27 GB/s");
    CHECK(found == 4, "run-full: the add10 row, its A/B line, the cores and memory rows");
    free(s);
    free(text);
}

static void test_guess(void)
{
    char *text;
    int rc;
    struct summary *s = build(FIXTURES "run-guess.json", &text, &rc);
    CHECK(rc == 0 && s->verdict == SUMMARY_COMPLETED, "run-guess: completed");
    const struct summary_target *foo = target(s, "foo");
    CHECK(foo && foo->n_est == 1 && !strcmp(foo->why, "first method that measured it"),
          "run-guess: foo by its one method (the comparisons' did not measure it)");
    const struct summary_target *add10 = target(s, "add10");
    CHECK(add10 && add10->n_est == 1, "run-guess: add10's unsupported rdtscp is no estimate");
    CHECK(s->n_ab == 2 && !s->ab[0].control && !strcmp(s->ab[0].check, "order check") &&
          s->ab[0].as_expected == 1 && !s->ab[0].detected,
          "run-guess: Foo vs Foo (ABAB, written before \"check\"): the order check, no difference");
    const struct summary_ab *ab = &s->ab[1];
    CHECK(ab->detected && !strcmp(ab->faster, "Foo") && ab->ratio > 1 && ab->ratio_lo <= ab->ratio &&
          ab->ratio <= ab->ratio_hi && ab->ratio_hi > ab->ratio_lo, "run-guess: Foo faster than FooBar, a ratio inside its interval");
    CHECK(isnan(s->cores_offset_ns) && s->cores_cpus == 0 && s->n_levels == 0, "run-guess: no cores, no memory");
    free(s);
    free(text);
}

static void test_unfinished(void)
{
    char *text;
    int rc;
    struct summary *s = build(FIXTURES "results/20260101-120500.json", &text, &rc);
    CHECK(rc == 0 && s->verdict == SUMMARY_INTERRUPTED && s->status == -1, "status \"interrupted\" is interrupted");
    CHECK(!strncmp(s->rows[0].text, "interrupted during clock, 1 warning", 35),
          "interrupted: the verdict row names the run's own \"stage\" (clock)");
    CHECK_STR(s->rows[1].text, "warning: results not saved completely: the ESP is full", "interrupted: its warning");
    free(s);
    free(text);
    s = build(FIXTURES "results/20260101-121000.json", &text, &rc);
    CHECK(rc == -1 && s->n_rows == 1 && strstr(s->rows[0].text, "not one whole results document"),
          "a cut file: no summary, one row saying why");
    free(s);
    free(text);
}

/* "duration_ms" in the verdict row: the run's time, or an interrupted
 * file's time up to its last write; nothing when null. */
static void test_duration(void)
{
    static const char *const doc[] = {
        "{\"schema\":1,\"errors\":[],\"duration_ms\":41234.567,\"status\":0,\"ended\":true}",
        "{\"schema\":1,\"errors\":[],\"duration_ms\":12345.678,\"status\":\"interrupted\",\"stage\":\"clock\","
        "\"ended\":false}",
        "{\"schema\":1,\"errors\":[],\"duration_ms\":null,\"status\":0,\"ended\":true}",
    };
    static const char *const want[] = {
        "completed, 0 warnings; run took 41.2 s",
        "interrupted during clock, 0 warnings; last saved 12.3 s into the run",
        "completed, 0 warnings",
    };
    struct summary *s = calloc(1, sizeof *s);
    for (size_t i = 0; s && i < sizeof doc / sizeof doc[0]; i++) {
        summary_build(s, doc[i], strlen(doc[i]));
        CHECK_STR(s->rows[0].text, want[i], "duration_ms in the verdict row");
    }
    free(s);
}

int main(void)
{
    test_full();
    test_guess();
    test_unfinished();
    test_duration();
    return check_done();
}
