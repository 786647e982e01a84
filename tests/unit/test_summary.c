/*
 * tests/unit/test_summary.c - the run's summary (bench/summary/summary.h) built
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
#include "tools/host/common/commands.h"
#include "json_read.h"
#include "figures_text.h"
#include "summary.h"
#include "summary_internal.h"

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
static double net_median(struct jval doc, const char *t, const char *m)
{
    struct jval e;
    size_t it = 0;
    while (jval_next(jval_path(doc, "methods.measurements"), &it, NULL, &e))
        if (jval_str_eq(jval_get(e, "target"), t) && jval_str_eq(jval_get(e, "method"), m))
            return jval_num(jval_path(e, "net.median"), NAN);
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
    struct jval doc = jval_doc(text, strlen(text));
    CHECK(rc == 0, "run-full: a summary is built");
    CHECK(s->verdict == SUMMARY_COMPLETED && s->status == 0 && s->warnings == 0, "run-full: completed, 0 warnings");
    CHECK_STR(s->run, "20261127-211424", "run-full: the run's name");
    CHECK_STR(s->profile, "quick", "run-full: the profile in effect");
    CHECK_NEAR(s->tsc_mhz, jval_num(jval_path(doc, "clock.chosen_khz"), 0) / 1000, 0, "run-full: the TSC rate is the clock's");
    CHECK_STR(s->tsc_source, "hpet", "run-full: from the HPET");
    CHECK_EQ_U64(s->references, 3, "run-full: three measured references");
    CHECK_NEAR(s->gap_max_us, 0.032, 1e-9, "run-full: largest gap 32 ticks at 1 GHz = 0.032 us");
    CHECK_EQ_U64(s->n_targets, 6, "run-full: six targets");
    int same = 1, agree = 1;
    double hz = jval_num(jval_path(doc, "methods.tick_hz"), NAN);
    for (unsigned i = 0; i < s->n_targets; i++) {
        const struct summary_target *t = &s->targets[i];
        const struct summary_estimate *e = &t->est[t->chosen];
        same &= e->ticks == net_median(doc, t->name, e->method) && e->ticks_lo <= e->ticks && e->ticks <= e->ticks_hi;
        same &= !strcmp(e->method, "sdm-recommended") && e->chosen && fabs(e->ns - e->ticks * 1e9 / hz) < 1e-9;
        /* every measurement of "empty" is too short (the run's status): none resolved */
        agree &= t->n_est == 9 && (strcmp(t->name, "empty") ? t->agree == 9 && t->resolved == 9
                                   : t->agree == 0 && t->resolved == 0 && e->resolved == 0);
    }
    CHECK(same, "run-full: each target's estimate is its section's net median with the comparisons' method");
    CHECK(agree, "run-full: every target measured by the 9 methods, all resolved ones agreeing (-icount); "
          "empty's nine, too short, are none of them");
    /* was: a zero-width interval (wrong by D1: never narrower than the counter's step) */
    const struct summary_target *add10 = target(s, "add10");
    const struct summary_estimate *e10 = add10 ? &add10->est[add10->chosen] : NULL;
    CHECK(e10 && e10->ticks_lo < e10->ticks && e10->ticks < e10->ticks_hi && e10->at_floor,
          "run-full: identical samples under -icount: an interval as wide as the counter's step, marked so");
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
    CHECK_NEAR(s->index_integer, jval_num(jval_path(doc, "bytemark.indexes.original_integer"), 0), 0,
               "run-full: the integer index");
    CHECK(s->cores_cpus == 2 && s->cores_offset_ns == jval_num(jval_path(doc, "cores.tsc.cpus[1].offset_ns"), 0) &&
          s->cores_c2c_ns == jval_num(jval_path(doc, "cores.latency.median_ns[0][1]"), 0),
          "run-full: cores: 2 CPUs, the offset of CPU 1, the round trip");
    CHECK(s->n_levels == 4 && !strcmp(s->levels[0].name, "L1d") && !strcmp(s->levels[2].name, "L3") &&
          !strcmp(s->levels[3].name, "memory") && s->levels[1].bytes == 262144,
          "run-full: memory levels L1d, L2 (at 256 KiB), L3, memory (the quick profile reaches 64 MiB)");
    CHECK(s->n_sections == 7 && !strcmp(s->sections[0].name, "clock") &&
          !strncmp(s->sections[0].headline, "TSC 1000 MHz, ", 14), "run-full: each section's headline (the TSC in MHz, "
          "as the clock row says it; was kHz)");

    struct lines L = { .n = 0 };
    summary_print(s, collect, &L);
    CHECK(L.n <= 42 && L.n == s->n_rows + 2, "run-full: at most 40 rows between the two markers");
    CHECK_STR(L.text[0], "==================== baremark summary: 20261127-211424 ====================", "run-full: opening marker");
    CHECK(strspn(L.text[L.n - 1], "=") == strlen(L.text[0]) && strlen(L.text[L.n - 1]) == strlen(L.text[0]),
          "run-full: the closing rule is as long as the opening marker");
    /* duration_ms 10094.876: 10.1 s */
    CHECK_STR(L.text[1], "verdict   completed, 0 warnings; profile quick; run took 10.1 s", "run-full: verdict row");
    /* clock.counter_step: 1 tick, 1 ns (-icount) */
    CHECK_STR(L.text[5], "clock     TSC 1000.000 MHz +/- 0.276 ppm from the hpet; 3 references agree within 0.148 ppm; "
              "TSC steps 1 tick (1 ns)",
              "run-full: clock row (after the machine's two rows and Secure Boot's)");
    int found = 0;
    for (unsigned i = 0; i < L.n; i++)
        /* add10: 100 samples of 206 ticks, placeholder 11, N = 16, step 1: net 195 / 16 = 12.1875,
         * r = 1/16; [12.125, 12.25] ticks x 1e9 / 1000000025 Hz = [12.1249997, 12.2499997] ns
         * (docs/statistics.md), 4 significant digits; was 12.19-12.19 */
        found += !strcmp(L.text[i], "          add10                12.19  [12.12, 12.25] *        12.19  "
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

/*
 * D1 by hand (docs/statistics.md, "A routine's time per iteration") on a
 * built document: tick_hz 2e9 (ns = ticks / 2); 9 samples give ranks
 * j = floor(4.5 - 1.959964 * 3 / 2) = 1 and k = ceil(7.44) = 8, 4 give
 * j = floor(2 - 1.96) -> 1 and k = ceil(3.96) = 4.
 *   t/sdm-recommended  P 100, N 4, step 8 (r 2): net 10 x8, 30 -> median 10,
 *                      [10, 10] -> widened [8, 12] ticks, [4, 6] ns, marked
 *   t/rdtsc            P 100, N 4, step 8 (r 2): net 11.5 12 12 12.5 13 13 13.5
 *                      14 20 -> 13, [11.5, 14] -> [11, 15]: meets [8, 12]
 *   t/lfence+rdtsc     P 50, N 2, step 4 (r 2): net 20 21 21 22 22 22 23 23 40
 *                      -> 22, [20, 23] -> [20, 24]: does not meet [8, 12]
 *   t/rdtscp           too_short, N 1, step 8: net -8..8, hi 4 -> X = max(4, 8)
 *                      = 8 ticks = 4 ns, not counted
 *   t/cpuid+rdtsc      ok but P 100, N 2, step 8 (r 4): net 1 2 2 3 3 3 3 5 6
 *                      -> 3 < 4: below 1 step, X = max(5, 4) = 5 ticks = 2.5 ns
 *   -> t: 5 ns [4, 6] *, 2 of 3 (sdm-recommended and rdtsc of the three resolved)
 *   z/sdm-recommended  too_short, P 100, N 1, step 25: net -10 -5 0 0 0 0 0 5 10
 *                      -> 0, lo -10 (clamped: 0), hi 5; X = 25 ticks = 12.5 ns; 0 of 0
 *   even/rdtsc         P 0, N 1, step 1: net 10 20 30 40 -> 25 (mean of 20 and 30),
 *                      [10, 40], wider than 25 -+ 1: not marked; 12.5 ns [5, 20]
 * tests/unit/summary_d1.py recomputes the same rows independently of this file.
 */
#define MEAS(t, m, st, n, step, pm, samples) \
    "{\"target\":\"" t "\",\"method\":\"" m "\",\"status\":\"" st "\",\"iterations\":" #n \
    ",\"counter_step_ticks\":" #step ",\"placeholder_median\":" #pm ",\"samples\":[" samples "]}"
static const char hand_doc[] =
    "{\"schema\":1,\"name\":\"hand\",\"status\":0,\"ended\":true,\"errors\":[],"
    "\"methods\":{\"tick_hz\":2e9,\"measurements\":["
    MEAS("t", "sdm-recommended", "ok", 4, 8, 100, "140,140,140,140,140,140,140,140,220") ","
    MEAS("t", "rdtsc", "ok", 4, 8, 100, "146,148,148,150,152,152,154,156,180") ","
    MEAS("t", "lfence+rdtsc", "ok", 2, 4, 50, "90,92,92,94,94,94,96,96,130") ","
    MEAS("t", "rdtscp", "too_short", 1, 8, 100, "100,104,96,100,108,92,100,100,104") ","
    MEAS("t", "cpuid+rdtsc", "ok", 2, 8, 100, "102,104,104,106,106,106,106,110,112") ","
    MEAS("z", "sdm-recommended", "too_short", 1, 25, 100, "90,95,100,100,100,105,110,100,100") ","
    MEAS("even", "rdtsc", "ok", 1, 1, 0, "10,20,30,40") "]},"
    "\"cores\":{\"tsc\":{\"reference_cpu\":0,\"cpus\":[{\"cpu\":0,\"offset_ns\":0},"
    "{\"cpu\":1,\"offset_ns\":-15.13,\"offset_ok\":true},{\"cpu\":2,\"offset_ns\":7,\"offset_ok\":true}]}}}";

static const struct summary_estimate *est_of(const struct summary_target *t, const char *method)
{
    for (unsigned i = 0; t && i < t->n_est; i++)
        if (!strcmp(t->est[i].method, method))
            return &t->est[i];
    return NULL;
}

static void test_hand(void)
{
    struct summary *s = calloc(1, sizeof *s);
    char time[SUMMARY_EST_TEXT_MAX], ci[SUMMARY_EST_TEXT_MAX];
    CHECK(s && summary_build(s, hand_doc, strlen(hand_doc)) == 0 && s->n_targets == 3, "hand: built, three targets");
    if (!s || s->n_targets != 3) {
        free(s);
        return;
    }
    const struct summary_target *t = target(s, "t"), *z = target(s, "z"), *ev = target(s, "even");
    const struct summary_estimate *e = est_of(t, "sdm-recommended");
    CHECK(e && e->chosen && e->ticks == 10 && e->ticks_lo == 8 && e->ticks_hi == 12 && e->ns == 5 && e->ns_lo == 4 &&
          e->ns_hi == 6 && e->at_floor && e->resolved == 1, "hand: t: 10 ticks, [10, 10] widened to [8, 12]; 5 ns [4, 6]");
    e = est_of(t, "rdtsc");
    CHECK(e && e->ticks == 13 && e->ticks_lo == 11 && e->ticks_hi == 15 && e->agrees,
          "hand: t/rdtsc: 13 [11.5, 14] widened to [11, 15], meets [8, 12] (unwidened it would not)");
    e = est_of(t, "lfence+rdtsc");
    CHECK(e && e->ticks == 22 && e->ticks_lo == 20 && e->ticks_hi == 24 && e->resolved == 1 && !e->agrees,
          "hand: t/lfence+rdtsc: 22 [20, 24] (hi widened), resolved, does not agree");
    e = est_of(t, "rdtscp");
    if (e)
        summary_estimate_text(e, time, ci);
    CHECK(e && e->resolved == 0 && !e->agrees && !strcmp(time, "below 1 step, < 4 ns") && !ci[0],
          "hand: t/rdtscp, too short: \"below 1 step, < 4 ns\" (X = max(hi 4, r 8) ticks)");
    e = est_of(t, "cpuid+rdtsc");
    if (e)
        summary_estimate_text(e, time, ci);
    CHECK(e && e->resolved == 0 && e->ticks == 3 && e->ticks_lo == 0 && e->ticks_hi == 7 &&
          !strcmp(time, "below 1 step, < 2.5 ns"), "hand: t/cpuid+rdtsc, 3 ticks below r = 4: \"below 1 step, < 2.5 ns\"; "
          "interval [0, 7] (lower end clamped at 0)");
    CHECK(t->agree == 2 && t->resolved == 3, "hand: t: 2 of 3 (the two unresolved not counted)");
    e = z ? &z->est[z->chosen] : NULL;
    CHECK(e && e->resolved == 0 && e->ticks_lo == 0 && e->ticks_hi == 25 && z->agree == 0 && z->resolved == 0,
          "hand: z: too short, interval clamped to [0, 25], 0 of 0");
    e = ev ? &ev->est[ev->chosen] : NULL;
    CHECK(e && e->ticks == 25 && e->ticks_lo == 10 && e->ticks_hi == 40 && !e->at_floor && ev->agree == 1 &&
          ev->resolved == 1 && !strcmp(ev->why, "first method that measured it"),
          "hand: even: median 25 of four, [10, 40], wider than the floor: not marked");

    struct lines L = { .n = 0 };
    summary_print(s, collect, &L);
    static const char *const want[] = {
        "targets   name               ns/iter  95% CI (ns)        ticks/iter  method              agree",
        "          t                        5  [4, 6] *                   10  sdm-recommended     2 of 3",
        "          z                below 1 step, < 12.5 ns                -  sdm-recommended     0 of 0",
        "          even                  12.5  [5, 20]                    25  rdtsc               1 of 1",
    };
    unsigned first = 0;
    while (first < L.n && strncmp(L.text[first], "targets ", 8))
        first++;
    int rows_ok = first + 4 <= L.n;
    for (unsigned i = 0; rows_ok && i < 4; i++) {
        rows_ok &= !strcmp(L.text[first + i], want[i]);
        if (strcmp(L.text[first + i], want[i]))
            printf("    got  \"%s\"\n    want \"%s\"\n", L.text[first + i], want[i]);
    }
    CHECK(rows_ok, "hand: the target rows: widened interval marked *, below 1 step, k of m");
    int notes = 0, widest = 0;
    for (unsigned i = 0; i < L.n; i++) {
        notes += !strncmp(L.text[i], "          * interval widened to 1 step", 38) ||
                 !strncmp(L.text[i], "          below 1 step: ", 24);
        widest = strlen(L.text[i]) > (size_t)widest ? (int)strlen(L.text[i]) : widest;
    }
    CHECK(notes == 2 && widest <= 100, "hand: a note row for * and one for below 1 step; no line over 100 characters");

    /* a figure with no better side (a TSC offset) is its size in both the row and the fold's headline */
    int row_ok = 0, hl_ok = 0;
    for (unsigned i = 0; i < s->n_rows; i++)
        row_ok |= !strcmp(s->rows[i].label, "cores") && strstr(s->rows[i].text, "largest TSC offset 15.13 ns;");
    for (unsigned i = 0; i < s->n_sections; i++)
        hl_ok |= !strcmp(s->sections[i].name, "cores") && !strcmp(s->sections[i].headline, "largest TSC offset 15.13 ns");
    CHECK(row_ok && hl_ok, "hand: offsets 0, -15.13, 7 ns: \"largest TSC offset 15.13 ns\" in the row and the headline "
          "(was -15.13 in the headline)");
    free(s);
}

/* The profile in the verdict row: the run's top-level "profile" (what
 * ran), not the one asked for; a clock-only run, which has no section
 * that states a profile of its own, says it too.  A file older than the
 * member: methods' copy (the one a committed fixture, run-guess.json,
 * needs); else no profile is stated: neither the one asked for
 * (settings.profile, "auto" here) nor another section's old copy. */
static void test_profile(void)
{
    static const char *const doc[] = {
        /* a clock-only run under a hypervisor, PROFILE=auto */
        "{\"schema\":1,\"settings\":{\"profile\":\"auto\"},\"profile\":\"quick\",\"clock\":{},"
        "\"errors\":[],\"status\":0,\"ended\":true}",
        /* on bare metal, BYTEmark's row says it too */
        "{\"schema\":1,\"settings\":{\"profile\":\"auto\"},\"profile\":\"full\",\"bytemark\":{\"indexes\":"
        "{\"original_integer\":2,\"original_fp\":3},\"tests\":[]},\"errors\":[],\"status\":0,\"ended\":true}",
        /* older files: methods' profile */
        "{\"schema\":1,\"settings\":{\"profile\":\"auto\"},\"methods\":{\"profile\":\"quick\"},"
        "\"errors\":[],\"status\":0,\"ended\":true}",
        /* none: the one asked for is not the one that ran */
        "{\"schema\":1,\"settings\":{\"profile\":\"auto\"},\"clock\":{},\"errors\":[],\"status\":0,\"ended\":true}",
        /* an older copy no committed file needs any more: not read */
        "{\"schema\":1,\"settings\":{\"profile\":\"auto\"},\"cores\":{\"scores\":{\"profile\":\"quick\"}},"
        "\"errors\":[],\"status\":0,\"ended\":true}",
    };
    static const char *const want[] = {
        "completed, 0 warnings; profile quick",
        "completed, 0 warnings; profile full",
        "completed, 0 warnings; profile quick",
        "completed, 0 warnings",
        "completed, 0 warnings",
    };
    struct summary *s = calloc(1, sizeof *s);
    for (size_t i = 0; s && i < sizeof doc / sizeof doc[0]; i++) {
        summary_build(s, doc[i], strlen(doc[i]));
        CHECK_STR(s->rows[0].text, want[i], "the profile in the verdict row");
        if (i == 1)
            CHECK_STR(s->bytemark_profile, "full", "the run's profile in BYTEmark's row");
    }
    free(s);
}

/* The counter's step in the clock row: clock.counter_step's ticks and ns
 * as written (figures_format: four significant digits); no words when the
 * step is null (unknown) or absent (run-full's row above). */
static void test_counter_step(void)
{
    static const char *const doc[] = {
        "{\"schema\":1,\"errors\":[],\"status\":0,\"ended\":true,\"clock\":{\"chosen_khz\":2600000,"
        "\"source\":\"hpet\",\"references\":[{\"name\":\"hpet\",\"kind\":\"measured\",\"ppm\":0.5}],"
        "\"agreement\":{\"max_measured_ppm\":0},\"counter_step\":{\"ticks\":24,\"ns\":9.2308}}}",
        "{\"schema\":1,\"errors\":[],\"status\":0,\"ended\":true,\"clock\":{\"chosen_khz\":1000000,"
        "\"source\":\"hpet\",\"references\":[{\"name\":\"hpet\",\"kind\":\"measured\",\"ppm\":0.5}],"
        "\"agreement\":{\"max_measured_ppm\":0},\"counter_step\":{\"ticks\":1,\"ns\":1}}}",
        "{\"schema\":1,\"errors\":[],\"status\":0,\"ended\":true,\"clock\":{\"chosen_khz\":2600000,"
        "\"source\":\"hpet\",\"references\":[{\"name\":\"hpet\",\"kind\":\"measured\",\"ppm\":0.5}],"
        "\"agreement\":{\"max_measured_ppm\":0},\"counter_step\":{\"ticks\":null,\"ns\":null}}}",
    };
    static const char *const want[] = {
        "TSC 2600.000 MHz +/- 0.5 ppm from the hpet; 1 reference agree within 0 ppm; TSC steps 24 ticks (9.231 ns)",
        "TSC 1000.000 MHz +/- 0.5 ppm from the hpet; 1 reference agree within 0 ppm; TSC steps 1 tick (1 ns)",
        "TSC 2600.000 MHz +/- 0.5 ppm from the hpet; 1 reference agree within 0 ppm",
    };
    struct summary *s = calloc(1, sizeof *s);
    for (size_t i = 0; s && i < sizeof doc / sizeof doc[0]; i++) {
        const char *got = "";
        summary_build(s, doc[i], strlen(doc[i]));
        for (unsigned k = 0; k < s->n_rows; k++)
            if (!strcmp(s->rows[k].label, "clock"))
                got = s->rows[k].text;
        CHECK_STR(got, want[i], "the clock row says the counter's step (ticks, ns), nothing when unknown");
    }
    free(s);
}

/* BYTEmark's indexes: shown only when the document's tests[] shows every
 * test of the index with status "ok" (integer: numsort, strsort, bitfield,
 * emfloat, assign, idea, huffman; floating-point: fourier, nnet, lu), so an
 * older file's index of fewer tests, or one with no tests[] at all, reads
 * n/a; the row is there whenever the document has a bytemark section
 * (both n/a too: BYTEmark ran and gave no index), and only then. */
static void test_bytemark_indexes(void)
{
    static const char *const keys[] = { "numsort", "strsort", "bitfield", "emfloat", "fourier",
                                        "assign", "idea", "huffman", "nnet", "lu" };
    /* which test is not "ok" (-1 none), its status, whether tests[] is written */
    static const struct { int odd; const char *status; int has_tests; int want_int, want_fp; } c[] = {
        { -1, "ok", 1, 1, 1 },
        { 6, "disabled", 1, 0, 1 },        /* idea off: no integer index */
        { 4, "failed_fault", 1, 1, 0 },    /* fourier failed: no floating-point index */
        { 9, NULL, 1, 1, 0 },              /* lu not in tests[] */
        { -1, "ok", 0, 0, 0 },             /* no tests[]: which ran is unknown */
    };
    struct summary *s = calloc(1, sizeof *s);
    for (size_t i = 0; s && i < sizeof c / sizeof c[0]; i++) {
        char doc[4096];
        size_t o = (size_t)snprintf(doc, sizeof doc, "{\"schema\":1,\"profile\":\"quick\",\"errors\":[],\"status\":0,"
                                    "\"ended\":true,\"bytemark\":{\"indexes\":{\"original_integer\":2.5,"
                                    "\"original_fp\":3.5}");
        if (c[i].has_tests) {
            o += (size_t)snprintf(doc + o, sizeof doc - o, ",\"tests\":[");
            for (int k = 0, first = 1; k < 10; k++) {
                if (k == c[i].odd && !c[i].status)
                    continue;
                o += (size_t)snprintf(doc + o, sizeof doc - o, "%s{\"key\":\"%s\",\"status\":\"%s\"}", first ? "" : ",",
                                      keys[k], k == c[i].odd ? c[i].status : "ok");
                first = 0;
            }
            o += (size_t)snprintf(doc + o, sizeof doc - o, "]");
        }
        snprintf(doc + o, sizeof doc - o, "}}");
        summary_build(s, doc, strlen(doc));
        int row = 0;
        for (unsigned k = 0; k < s->n_rows; k++)
            row += !strcmp(s->rows[k].label, "BYTEmark");
        CHECK(isnan(s->index_integer) == !c[i].want_int && isnan(s->index_fp) == !c[i].want_fp &&
              (c[i].want_int ? s->index_integer == 2.5 : 1) && (c[i].want_fp ? s->index_fp == 3.5 : 1) &&
              row == 1, "BYTEmark: an index only when every test of it is ok in tests[]; the row whenever it ran");
    }
    if (s) {
        static const char none[] = "{\"schema\":1,\"profile\":\"quick\",\"errors\":[],\"status\":0,\"ended\":true}";
        int row = 0;
        summary_build(s, none, strlen(none));
        for (unsigned k = 0; k < s->n_rows; k++)
            row += !strcmp(s->rows[k].label, "BYTEmark");
        CHECK(row == 0, "BYTEmark: no row when the document has no bytemark section");
    }
    free(s);
}

/* The quiet row: a gap of a millisecond or more in ms, and the SMI count in a
 * buffer of its own (it once shared the gaps' buffer: whichever argument was
 * formatted last showed in both places). Expected text from the definition. */
static void test_quiet_row(void)
{
    char *text;
    int rc;
    struct summary *s = build(FIXTURES "run-full.json", &text, &rc);
    const char *quiet = NULL;
    s->gap_max_us = 13142.5;
    s->quiet_ms = 200;
    s->gaps_over_1us = 437;
    s->nmis = 0;
    s->smis = 3;
    summary_rows(s);
    for (unsigned i = 0; i < s->n_rows; i++)
        if (!strcmp(s->rows[i].label, "quiet"))
            quiet = s->rows[i].text;
    CHECK_STR(quiet ? quiet : "(none)", "largest gap 13.14 ms in 200 ms; 437 gaps over 1 us; NMI 0, SMI 3",
              "quiet: 13142.5 us reads 13.14 ms; 437 gaps and 3 SMIs each in its place");
    s->gap_max_us = 999.5;
    s->smis = NAN;
    summary_rows(s);
    quiet = NULL;
    for (unsigned i = 0; i < s->n_rows; i++)
        if (!strcmp(s->rows[i].label, "quiet"))
            quiet = s->rows[i].text;
    CHECK_STR(quiet ? quiet : "(none)", "largest gap 999.5 us in 200 ms; 437 gaps over 1 us; NMI 0, SMI n/a (no counter)",
              "quiet: under a millisecond stays in us; no SMI counter reads n/a");
    free(s);
    free(text);
}

int main(void)
{
    test_hand();
    test_full();
    test_guess();
    test_unfinished();
    test_duration();
    test_profile();
    test_counter_step();
    test_bytemark_indexes();
    test_quiet_row();
    return check_done();
}
