/*
 * tests/unit/test_smallest_step.c - history_smallest_step (tools/host/history/
 * history_series.c) where the permutation test decides: a series of at most
 * STATS_CP_PERM_MAX runs that scatter more than STATS_CP_SCATTER times what
 * their intervals say must also pass a permutation test at p < 0.01, and no
 * ordering of n runs split at `at` gives p below about 2 / C(n, at).  By that
 * definition: 6 runs at 3 (2/20 = 0.1) and 8 at 4 (2/70 = 0.029) can show no
 * step of any size (INFINITY); 10 at 5 (2/252 = 0.0079) can; and 6 runs whose
 * intervals explain their scatter are decided by Welch's test alone, so a
 * finite step.  (The finite value itself is checked against scipy in
 * tests/unit/test_history.sh.)
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "history.h"

/* n runs around 1000 with +/-2% scatter (alternating), half-width hw each (0: none) */
static double step_of(size_t n, size_t at, double hw)
{
    double x[16], h[16];
    for (size_t i = 0; i < n; i++) {
        x[i] = 1000 + (i % 2 ? 20 : -20) + (double)(i % 3);
        h[i] = hw;
    }
    return history_smallest_step(x, hw > 0 ? h : NULL, n, at, 0.001, 3);
}

int main(void)
{
    unsetenv("BAREMARK_HISTORY_NO_PERM");
    CHECK(isinf(step_of(6, 3, 0)), "6 runs, 3 a side, no intervals: no step of any size can show (2/C(6,3) = 0.1)");
    CHECK(isinf(step_of(8, 4, 0)), "8 runs, 4 a side, no intervals: none (2/C(8,4) = 0.029)");
    double ten = step_of(10, 5, 0);
    CHECK(isfinite(ten) && ten > 0, "10 runs, 5 a side: a finite step (2/C(10,5) = 0.0079 < 0.01)");
    CHECK(isinf(step_of(6, 3, 5)), "6 runs scattering +/-2% with intervals of +/-0.5%: scatter unexplained, none");
    double wide = step_of(6, 3, 100);
    CHECK(isfinite(wide) && wide > 0, "6 runs with intervals of +/-10% that explain the scatter: Welch alone, a finite step");
    setenv("BAREMARK_HISTORY_NO_PERM", "1", 1);
    double off = step_of(6, 3, 0);
    CHECK(isfinite(off) && off > 0, "BAREMARK_HISTORY_NO_PERM: the decision without the permutation test, a finite step");
    return check_done();
}
