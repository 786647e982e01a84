#!/usr/bin/python3
"""tests/vectors/stats/make_cp_perm_vectors.py - the expected permutation p
of tests/unit/test_changepoint.c's permutation checks, from the definition
(stats.h, stats_cp_perm_p), computed here independently of the C code:

  T(x) = max over splits t (min <= t <= n - min) of
         |mean(x[:t]) - mean(x[t:])| * sqrt(t (n - t) / n)
  p = P(T(x permuted) >= T(x)) over the n! orderings

exactly (every ordering, itertools.permutations) for n <= 8, and by numpy
Monte-Carlo with 400000 orderings (seed 1) for the longer series; the C
code's Monte-Carlo p (1999 orderings) must lie within 4 of its standard
errors of these.

/usr/bin/python3 tests/vectors/stats/make_cp_perm_vectors.py > tests/vectors/stats/vectors_cp_perm.h
"""
import itertools
import math

import numpy as np

SERIES = [
    ("a clean step, 3 a side", 3, [10, 10.1, 9.9, 12, 12.2, 11.9]),
    ("a clean step, 4 a side", 3, [5.0, 5.2, 4.9, 5.1, 6.0, 6.3, 5.9, 6.1]),
    ("flat noise, 8 runs", 3, [3.1, 2.7, 3.4, 2.9, 3.0, 3.3, 2.8, 3.2]),
    ("one slow run, 7 runs", 2, [7.0, 7.1, 6.9, 9.5, 7.0, 7.2, 6.8]),
    ("a step of 2 sd, 10 a side", 3, None),
    ("flat noise, 24 runs", 3, None),
]


def stat(x, m):
    n = x.shape[-1]
    c = np.cumsum(x, axis=-1)
    tot = c[..., -1:]
    best = np.zeros(x.shape[:-1])
    for t in range(m, n - m + 1):
        left = c[..., t - 1] / t
        right = (tot[..., 0] - c[..., t - 1]) / (n - t)
        best = np.maximum(best, np.abs(left - right) * math.sqrt(t * (n - t) / n))
    return best


def main():
    rng = np.random.default_rng(20261128)
    step = np.concatenate([rng.normal(0, 1, 10), rng.normal(2, 1, 10)])
    flat = rng.normal(0, 1, 24)
    print("/* tests/vectors/stats/vectors_cp_perm.h - written by make_cp_perm_vectors.py (numpy); do not edit */")
    print("struct cp_perm_vector { const char *what; size_t min, n; double x[24]; double p; int exact; };")
    print("static const struct cp_perm_vector cp_perm_vectors[] = {")
    for what, m, x in SERIES:
        x = np.array(x if x is not None else (step if "step" in what else flat), dtype=float)
        obs = stat(x, m)
        tol = 1e-12 * max(obs, 1)
        if len(x) <= 8:
            perms = np.array(list(itertools.permutations(x)))
            p, exact = float(np.mean(stat(perms, m) >= obs - tol)), 1
        else:
            r = np.random.default_rng(1)
            hits = 0
            for _ in range(8):
                perms = r.permuted(np.tile(x, (50000, 1)), axis=1)
                hits += int(np.sum(stat(perms, m) >= obs - tol))
            p, exact = hits / 400000, 0
        print('    { "%s", %d, %d, { %s }, %.10g, %d },' % (what, m, len(x), ", ".join("%.17g" % v for v in x), p, exact))
    print("};")


main()
