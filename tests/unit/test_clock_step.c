/*
 * tests/unit/test_clock_step.c - the counter's effective step
 * (clockm_step_estimate, bench/clock/clock_math.h) on simulated counter series.
 *
 * Each series is made here from a grid chosen by the test: increments of
 * back-to-back reads around a dithered delay, put on multiples of q (with
 * or without one tick of jitter), or on every tick.  The expected step is
 * the grid the simulation used, never what the code printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "clock_math.h"

#define NREADS 512

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A uniform integer in [a, b]. */
static uint64_t uni(uint64_t a, uint64_t b)
{
    return a + next() % (b - a + 1);
}

/* Increments on multiples k q of a grid q, k uniform in [k0, k1], each
 * moved by one tick up or down with probability jitter (each side half). */
static void grid(uint64_t *x, size_t n, double q, uint64_t k0, uint64_t k1, double jitter)
{
    for (size_t i = 0; i < n; i++) {
        double v = floor(q * (double)uni(k0, k1) + 0.5);
        double u = (double)(next() >> 11) / 9007199254740992.0;
        if (u < jitter / 2)
            v -= 1;
        else if (u < jitter)
            v += 1;
        x[i] = (uint64_t)v;
    }
}

static void expect(const char *what, uint64_t *x, size_t n, uint64_t want)
{
    struct clockm_step s;
    char name[160];
    int rc = clockm_step_estimate(x, n, &s);
    snprintf(name, sizeof name, "%s: step %llu ticks", what, (unsigned long long)want);
    CHECK_EQ_U64(rc == 0 ? s.ticks : 0, want, name);
    if (rc == 0) {
        snprintf(name, sizeof name, "%s: fit %.3f at least the threshold %.2f", what, s.fit, CLOCKM_STEP_FIT);
        CHECK(s.fit >= CLOCKM_STEP_FIT && s.fit <= 1 + 1e-12, name);
    }
}

static void expect_unknown(const char *what, uint64_t *x, size_t n)
{
    struct clockm_step s;
    char name[160];
    int rc = clockm_step_estimate(x, n, &s);
    snprintf(name, sizeof name, "%s: unknown, not a guess (%s)", what, s.why);
    CHECK(rc == -1 && s.ticks == 0 && s.q == 0 && isnan(s.fit) && s.why[0], name);
}

static void test_grids(void)
{
    uint64_t x[NREADS];

    /* QEMU TCG: a grid of 24 ticks, a third of the reads a tick off. */
    grid(x, NREADS, 24, 2, 60, 1.0 / 3);
    expect("TCG-like grid 24, +-1 jitter", x, NREADS, 24);
    /* every read a tick off one way or the other: the worst jitter */
    grid(x, NREADS, 24, 2, 60, 1.0);
    expect("grid 24, every read +-1", x, NREADS, 24);
    grid(x, NREADS, 26, 1, 40, 0);
    expect("grid 26 exact", x, NREADS, 26);
    /* AMD: the TSC advances in 10 ns strides of a 3.6 GHz rate */
    grid(x, NREADS, 36, 1, 20, 0.1);
    expect("AMD-like grid 36", x, NREADS, 36);
    /* a grid that is not whole ticks: 9.6 (a 2.4 GHz counter in 4 ns) */
    grid(x, NREADS, 9.6, 3, 80, 0);
    expect("grid 9.6 ticks, to the nearest tick", x, NREADS, 10);
    {
        struct clockm_step s;
        grid(x, NREADS, 9.6, 3, 80, 0);
        clockm_step_estimate(x, NREADS, &s);
        CHECK_NEAR(s.q, 9.6, 0.05, "grid 9.6 ticks: the fractional step found");
    }
    /* small grids with jitter: 8 (R of uniform +-1 about 0.80) */
    grid(x, NREADS, 8, 3, 100, 2.0 / 3);
    expect("grid 8, uniform +-1 jitter", x, NREADS, 8);
}

static void test_fine(void)
{
    uint64_t x[NREADS];

    /* hardware counting every tick: an offset and a delay anywhere in 512 */
    for (size_t i = 0; i < NREADS; i++)
        x[i] = 40 + uni(0, 511);
    expect("1-tick continuous values", x, NREADS, 1);
    /* -icount: a fixed cost and the delay, one tick per instruction */
    for (size_t i = 0; i < NREADS; i++)
        x[i] = 23 + next() % 256;
    expect("icount-like exact increments of a dithered delay", x, NREADS, 1);
    /* the same through a loop of two instructions: the values do lie on a grid of 2 */
    for (size_t i = 0; i < NREADS; i++)
        x[i] = 24 + 2 * (next() % 128);
    expect("icount through a 2-instruction loop: grid 2", x, NREADS, 2);
    /* a wide spread of slow reads */
    for (size_t i = 0; i < NREADS; i++)
        x[i] = uni(150, 1200);
    expect("1-tick values from 150 to 1200", x, NREADS, 1);
}

static void test_disturbed(void)
{
    uint64_t x[NREADS];
    struct clockm_step s;

    grid(x, NREADS, 24, 2, 60, 1.0 / 3);
    for (size_t i = 0; i < 10; i++)
        x[i * 37] = 100000 + 7 * i;     /* interrupts inside ten timings */
    x[5] = 0;                           /* and two reads that saw no change */
    x[6] = 0;
    expect("grid 24 with ten disturbed reads and two zeros", x, NREADS, 24);
    grid(x, NREADS, 24, 2, 60, 1.0 / 3);
    for (size_t i = 0; i < 10; i++)
        x[i * 37] = 100000 + 7 * i;
    x[5] = x[6] = 0;
    clockm_step_estimate(x, NREADS, &s);
    CHECK(s.dropped == 10 && s.zeros == 2 && s.reads == NREADS - 12,
          "disturbed reads dropped (above 3 x the median) and zeros counted apart");
}

static void test_thin(void)
{
    uint64_t x[NREADS];

    grid(x, 20, 24, 2, 60, 0);
    expect_unknown("20 reads", x, 20);
    expect_unknown("no reads", x, 0);
    memset(x, 0, sizeof x);
    expect_unknown("every increment 0", x, NREADS);
    for (size_t i = 0; i < NREADS; i++)
        x[i] = 24;
    expect_unknown("one value repeated (no dither)", x, NREADS);
    /* two multiples only: 24 and 48 span 24 ticks, under 3 x 25 */
    grid(x, NREADS, 24, 1, 2, 0);
    expect_unknown("grid 24 seen at two multiples", x, NREADS);
    /* a delay too short: 100..150 ticks of 1, a step of 100 not ruled out */
    for (size_t i = 0; i < NREADS; i++)
        x[i] = uni(100, 150);
    expect_unknown("spread narrower than 3 x the smallest increment", x, NREADS);
    /* 63 usable: under the minimum, with the zeros and the disturbed left out */
    grid(x, NREADS, 24, 2, 60, 0);
    for (size_t i = 63; i < NREADS; i++)
        x[i] = 0;
    expect_unknown("63 usable reads, the rest 0", x, NREADS);
}

static void test_fit(void)
{
    /* R(q) by its definition: multiples of q give 1; two values half a step
     * apart give 0; a quarter step apart give |1 + i| / 2 = 0.7071. */
    uint64_t a[4] = { 24, 48, 72, 96 }, b[2] = { 24, 36 }, c[2] = { 24, 30 };
    CHECK_NEAR(clockm_step_fit(a, 4, 24), 1, 1e-12, "fit: multiples of q give 1");
    CHECK_NEAR(clockm_step_fit(b, 2, 24), 0, 1e-12, "fit: half a step apart gives 0");
    CHECK_NEAR(clockm_step_fit(c, 2, 24), sqrt(0.5), 1e-12, "fit: a quarter step apart gives 1/sqrt(2)");
    CHECK(isnan(clockm_step_fit(a, 0, 24)), "fit: no values is NAN");
}

int main(void)
{
    test_grids();
    test_fine();
    test_disturbed();
    test_thin();
    test_fit();
    return check_done();
}
