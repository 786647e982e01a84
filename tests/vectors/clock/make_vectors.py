#!/usr/bin/python3
"""
tests/vectors/clock/make_vectors.py - independent expected values for
tests/unit/test_clock.c (bench/clock/clock_math.c, bench/system/quiet.c).  Run with
Debian's /usr/bin/python3 (numpy):

    /usr/bin/python3 tests/vectors/clock/make_vectors.py

Writes tests/vectors/clock/vectors.h.  Data come from numpy's PCG64 with
fixed seeds, so the output is reproducible.

How each expected value is computed (never with the C code under test):
- counter wrap: a true, ever-growing tick count is drawn (steps below one
  wrap), the raw readings are that count modulo 2^bits (counting down for the
  PIT: start - count modulo 2^16); the expected total is the true count.
- window frequency and uncertainty: exact rational arithmetic (Fraction) on
  the integer TSC intervals and reference ticks, rounded once to a double:
  kHz = (mid1 - mid0) * ref_hz / ref_ticks / 1000 with mid = (lo + hi) / 2,
  ppm = ((hi0 - lo0) / 2 + (hi1 - lo1) / 2) / (mid1 - mid0) * 10^6,
  ms = ref_ticks / ref_hz * 1000.
- window choice: a separate Python statement of the documented rule
  (bench/clock/clock_math.h): the median of the valid windows (statistics.median),
  its ppm (middle window, or for an even count the larger of the two middle
  windows' plus half their spread), rejection beyond 3 x (ppm + median ppm),
  then the smallest ppm among the kept (the later one on a tie).
- quiet-machine counts: thresholds ceil(hz / 10^6) etc. with integer
  arithmetic, counts with numpy comparisons, rate = count / (elapsed / hz).
"""
import os
import statistics
from fractions import Fraction as F

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.Generator(np.random.PCG64(20261122))


def c_u64(xs):
    return "{ " + ", ".join("%dull" % int(x) for x in xs) + " }"


def c_dbl(x):
    return repr(float(x)) if np.isfinite(x) else "NAN"


# ---- counter wrap ---------------------------------------------------------------
def wrap_case(name, bits, down, n, max_step):
    mod = 1 << bits
    steps = rng.integers(0, max_step, size=n, endpoint=True)
    # some steps right at the largest legal size and some at zero
    steps[::7] = mod - 1 if max_step >= mod - 1 else max_step
    steps[3::11] = 0
    start = int(rng.integers(0, min(mod, 1 << 62)))
    count = 0
    raws = [start]
    for s in steps:
        count += int(s)
        raws.append((start - count) % mod if down else (start + count) % mod)
    return dict(name=name, bits=bits, down=down, raws=raws, total=count)


wraps = [
    wrap_case("pm_timer 24-bit up", 24, 0, 200, (1 << 24) - 1),
    wrap_case("pm_timer 32-bit up", 32, 0, 200, (1 << 32) - 1),
    wrap_case("pit 16-bit down", 16, 1, 300, (1 << 16) - 1),
    wrap_case("hpet 32-bit up, small steps", 32, 0, 500, 1000),
    wrap_case("64-bit up", 64, 0, 50, (1 << 40)),
]

# ---- windows ------------------------------------------------------------------------
REF_HZ = [1193182, 3579545, 100000000, 14318180]


def window_case(tsc_hz, ref_hz, ms, w0, w1):
    ref_ticks = int(ref_hz * ms / 1000) + int(rng.integers(0, 50))
    lo0 = int(rng.integers(1 << 30, 1 << 44))
    hi0 = lo0 + w0
    elapsed = F(ref_ticks, 1) / ref_hz * tsc_hz
    lo1 = int(lo0 + elapsed + int(rng.integers(-w1, w1 + 1))) if w1 else int(lo0 + elapsed)
    hi1 = lo1 + w1
    mid0, mid1 = F(lo0 + hi0, 2), F(lo1 + hi1, 2)
    khz = (mid1 - mid0) * F(ref_hz) / ref_ticks / 1000
    ppm = (F(hi0 - lo0, 2) + F(hi1 - lo1, 2)) / (mid1 - mid0) * 10**6
    msv = F(ref_ticks) / F(ref_hz) * 1000
    return dict(lo0=lo0, hi0=hi0, lo1=lo1, hi1=hi1, ticks=ref_ticks, ref_hz=ref_hz,
                khz=float(khz), ppm=float(ppm), ms=float(msv))


windows = []
for tsc_hz in (1000000000, 2596142000, 3000000001, 100000000):
    for ref_hz in REF_HZ:
        for ms in (10, 255):
            windows.append(window_case(tsc_hz, ref_hz, ms, int(rng.integers(0, 5000)),
                                       int(rng.integers(0, 5000))))
# an exact one: 1 GHz TSC, PIT, zero-width edges
windows.append(dict(lo0=1000, hi0=1000, lo1=1000 + 250000000, hi1=1000 + 250000000,
                    ticks=298295, ref_hz=1193182,
                    khz=float(F(250000000) * 1193182 / 298295 / 1000), ppm=0.0,
                    ms=float(F(298295) / 1193182 * 1000)))


# ---- window choice ---------------------------------------------------------------------
def pick(khz, ppm):
    valid = [i for i in range(len(khz)) if np.isfinite(khz[i])]
    rejected = [not np.isfinite(k) for k in khz]
    if not valid:
        return -1, rejected
    order = sorted(valid, key=lambda i: khz[i])
    m = len(order)
    med = statistics.median([khz[i] for i in valid])
    if m % 2:
        med_ppm = ppm[order[m // 2]]
    else:
        a, b = order[m // 2 - 1], order[m // 2]
        med_ppm = max(ppm[a], ppm[b]) + abs((khz[b] - med) / med * 1e6)
    best = -1
    for i in range(len(khz)):
        if rejected[i]:
            continue
        if abs((khz[i] - med) / med * 1e6) > 3.0 * (ppm[i] + med_ppm):
            rejected[i] = True
            continue
        if best < 0 or ppm[i] <= ppm[best]:
            best = i
    return best, rejected


picks = []
for k in range(60):
    n = int(rng.integers(1, 9))
    true = 2596142.0
    ppm = list(rng.uniform(0.5, 150, size=n))
    khz = [true * (1 + rng.normal(0, p) * 1e-6) for p in ppm]
    # disturb some: a lost PIT wrap, a slow edge far outside the bound, or
    # an offset near the bound
    for i in range(n):
        u = rng.uniform()
        if u < 0.15:
            khz[i] *= 1.25
        elif u < 0.25:
            khz[i] *= 1 + rng.choice([-1, 1]) * 3000e-6
        elif u < 0.3:
            khz[i] = float("nan")
            ppm[i] = float("nan")
        elif u < 0.6:   # near the bound: 1 to 8 times its own ppm off
            khz[i] = true * (1 + rng.choice([-1, 1]) * rng.uniform(1, 8) * ppm[i] * 1e-6)
    best, rej = pick(khz, ppm)
    picks.append(dict(khz=khz, ppm=ppm, best=best, rejected=rej))

# ---- quiet-machine counts -----------------------------------------------------------------
quiet = []
for hz in (1000000000, 2596142853, 999999):
    n = 5000
    gaps = rng.integers(20, 200, size=n)
    k = rng.choice(n, size=300, replace=False)
    gaps[k] = rng.integers(0, 30 * hz // 1000, size=300)   # up to 30 ms
    th = [-(-hz // d) for d in (10**6, 10**5, 10**4, 10**3)]
    th = [max(t, 1) for t in th]
    g = np.array(gaps, dtype=np.uint64)
    counts = [int((g > t).sum()) for t in th]
    elapsed = int(g.sum())
    quiet.append(dict(hz=hz, gaps=[int(x) for x in gaps], th=th, counts=counts,
                      max=int(g.max()), min=int(g.min()), max_at=int(g[:int(np.argmax(g))].sum()),
                      rate=counts[0] / (elapsed / hz), elapsed=elapsed))

# ---- write ------------------------------------------------------------------------------
out = []
w = out.append
w("/* Generated by tests/vectors/clock/make_vectors.py - do not edit. */")
w("#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n")
w("struct vec_wrap { const char *name; unsigned bits; int down; size_t n; const uint64_t *raw; uint64_t total; };")
w("struct vec_window { uint64_t lo0, hi0, lo1, hi1, ticks; double ref_hz, khz, ppm, ms; };")
w("struct vec_pick { size_t n; const double *khz, *ppm; int best; const int *rejected; };")
w("struct vec_quiet { uint64_t hz; size_t n; const uint64_t *gaps; uint64_t th[4], counts[4];"
  " uint64_t max, min, max_at, elapsed; double rate; };\n")
for i, c in enumerate(wraps):
    w("static const uint64_t vec_wrap_raw_%d[] = %s;" % (i, c_u64(c["raws"])))
w("static const struct vec_wrap vec_wraps[] = {")
for i, c in enumerate(wraps):
    w('    { "%s", %d, %d, %d, vec_wrap_raw_%d, %dull },' % (c["name"], c["bits"], c["down"],
                                                          len(c["raws"]), i, c["total"]))
w("};\n")
w("static const struct vec_window vec_windows[] = {")
for c in windows:
    w("    { %dull, %dull, %dull, %dull, %dull, %s, %s, %s, %s }," % (
        c["lo0"], c["hi0"], c["lo1"], c["hi1"], c["ticks"], c_dbl(c["ref_hz"]),
        c_dbl(c["khz"]), c_dbl(c["ppm"]), c_dbl(c["ms"])))
w("};\n")
for i, c in enumerate(picks):
    w("static const double vec_pick_khz_%d[] = { %s };" % (i, ", ".join(c_dbl(x) for x in c["khz"])))
    w("static const double vec_pick_ppm_%d[] = { %s };" % (i, ", ".join(c_dbl(x) for x in c["ppm"])))
    w("static const int vec_pick_rej_%d[] = { %s };" % (i, ", ".join(str(int(x)) for x in c["rejected"])))
w("static const struct vec_pick vec_picks[] = {")
for i, c in enumerate(picks):
    w("    { %d, vec_pick_khz_%d, vec_pick_ppm_%d, %d, vec_pick_rej_%d }," % (
        len(c["khz"]), i, i, c["best"], i))
w("};\n")
for i, c in enumerate(quiet):
    w("static const uint64_t vec_quiet_gaps_%d[] = %s;" % (i, c_u64(c["gaps"])))
w("static const struct vec_quiet vec_quiets[] = {")
for i, c in enumerate(quiet):
    w("    { %dull, %d, vec_quiet_gaps_%d, %s, %s, %dull, %dull, %dull, %dull, %s }," % (
        c["hz"], len(c["gaps"]), i, c_u64(c["th"]), c_u64(c["counts"]), c["max"], c["min"],
        c["max_at"], c["elapsed"], c_dbl(c["rate"])))
w("};")
with open(os.path.join(HERE, "vectors.h"), "w") as f:
    f.write("\n".join(out) + "\n")
print("wrote", os.path.join(HERE, "vectors.h"), "picks with a choice:",
      sum(1 for p in picks if p["best"] >= 0), "rejections:", sum(sum(p["rejected"]) for p in picks))
