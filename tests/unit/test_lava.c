/*
 * tests/unit/test_lava.c - the LAVA result lines (bench/results/lava.h): LAVA's id
 * cleaning, each line's exact text, nothing while off or after the end, and
 * (given a file name, writes the lines there: tests/unit/test_lava_jobs.sh
 * matches the job files' pattern against them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lava.h"

/* The lines go to standard output on the host: capture them in a file. */
static char captured[131072];

static const char *capture(void (*fn)(void))
{
    char path[] = "/tmp/test_lava.XXXXXX";
    int fd = mkstemp(path);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    fn();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, captured, sizeof captured - 1);
    captured[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return captured;
}

static void run_off(void)
{
    lava_enable(0);
    lava_start();
    lava_case("clock_hpet_khz", LAVA_PASS, 1000000, "kHz");
    lava_end(0);
}

static void run_on(void)
{
    lava_enable(1);
    lava_start();
    lava_case("clock_hpet_khz", LAVA_PASS, 2596142.125, "kHz");
    lava_case("clock_pit_khz", LAVA_SKIP, NAN, "kHz");
    lava_case("bytemark_numsort", LAVA_FAIL, NAN, NULL);
    lava_case("compare_foo vs foo (random order)", LAVA_PASS, -0.25, "%");
    lava_case("bytemark_idea", LAVA_PASS, 1234.5, "loops/s");
    lava_case("meas_add10_lfence_rdtsc_ns", LAVA_PASS, 1e-7, "ns/iter");
    lava_case("odd unit", LAVA_PASS, 3, "per thing");
    lava_end(2);
    lava_case("after_end", LAVA_PASS, 1, "x");
    lava_end(0);
}

static const char want_on[] =
    "BAREMARK-LAVA start\n"
    "BAREMARK-LAVA case=clock_hpet_khz result=pass measurement=2596142.125 units=kHz\n"
    "BAREMARK-LAVA case=clock_pit_khz result=skip\n"
    "BAREMARK-LAVA case=bytemark_numsort result=fail\n"
    "BAREMARK-LAVA case=compare_foo_vs_foo_random_order result=pass measurement=-0.25 units=%\n"
    "BAREMARK-LAVA case=bytemark_idea result=pass measurement=1234.5 units=loops/s\n"
    "BAREMARK-LAVA case=meas_add10_lfence_rdtsc_ns result=pass measurement=1e-07 units=ns/iter\n"
    "BAREMARK-LAVA case=odd_unit result=pass measurement=3 units=per_thing\n"
    "BAREMARK-LAVA case=run_status result=fail measurement=2 units=status\n"
    "BAREMARK-LAVA end status=2\n";

static void ids(void)
{
    static const struct { const char *raw, *want; } t[] = {
        { "clock_hpet_khz", "clock_hpet_khz" },
        { "Clock.HPET.kHz", "clock_hpet_khz" },
        { "add10/lfence+rdtsc", "add10_lfence_rdtsc" },
        { "foo vs foo (random order)", "foo_vs_foo_random_order" },
        { "  leading and trailing  ", "leading_and_trailing" },
        { "keep__double_underscores", "keep__double_underscores" },
        { "", "" },
    };
    char out[LAVA_ID_MAX + 1], what[160];
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        lava_id(out, sizeof out, t[i].raw);
        snprintf(what, sizeof what, "id \"%s\" cleaned as LAVA does", t[i].raw);
        CHECK_STR(out, t[i].want, what);
    }
    char small[8];
    CHECK_EQ_U64(lava_id(small, sizeof small, "abcdefghijkl"), 7, "a long id is cut to the buffer");
    CHECK_STR(small, "abcdefg", "the cut id keeps its start");
}

/* A section's cases wait for lava_flush (the end of the section). */
static void section_cases(void)
{
    lava_enable(1);
    lava_case("memory_latency_4096_ns", LAVA_PASS, 1.125, "ns");
}

static void section_end(void) { lava_flush(); }

static void many_cases(void)
{
    char id[64];
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "memory_latency_%d_ns", i);
        lava_case(id, LAVA_PASS, i, "ns");
    }
    lava_flush();
}

int main(int argc, char **argv)
{
    ids();
    CHECK_STR(capture(run_off), "", "nothing is printed while LAVA lines are off");
    CHECK_STR(capture(run_on), want_on, "start, cases, run_status and end, exactly; nothing after the end");
    CHECK_STR(capture(section_cases), "", "a section's cases are held while it runs");
    CHECK_STR(capture(section_end), "BAREMARK-LAVA case=memory_latency_4096_ns result=pass measurement=1.125 units=ns\n",
              "and printed as one block when it ends (lava_flush)");
    const char *all = capture(many_cases);
    CHECK(strstr(all, "case=memory_latency_0_ns ") && strstr(all, "case=memory_latency_999_ns result=pass measurement=999 "),
          "more cases than the block holds: none lost");
    lava_enable(1);
    CHECK_STR(lava_result_name(LAVA_SKIP), "skip", "result names");
    /* tests/unit/test_lava_jobs.sh matches the job files' pattern against
     * these very lines. */
    if (argc > 1) {
        FILE *f = fopen(argv[1], "w");
        CHECK(f && fputs(captured, f) >= 0 && fclose(f) == 0, "the lines are written for the pattern test");
    }
    return check_done();
}
