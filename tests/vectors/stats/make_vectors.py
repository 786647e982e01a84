#!/usr/bin/python3
"""
tests/vectors/stats/make_vectors.py - independent expected values for
tests/unit/test_stats.c.  Run with Debian's /usr/bin/python3 (numpy, scipy):

    /usr/bin/python3 tests/vectors/stats/make_vectors.py

Writes tests/vectors/stats/vectors.h (C arrays of data and expected values)
and a few one-number-a-line data files for the command-line test.  The data
come from numpy's PCG64 with fixed seeds, so the output is reproducible.

How each expected value is computed (never with the C code under test):
- mean, variances, median, percentiles, MAD, trimmed mean: exact rational
  arithmetic (fractions.Fraction) on the integer or float data, rounded once
  to a double; for data sets that fit a double they are also cross-checked
  here against numpy.mean/var, numpy.percentile (linear), scipy.stats.
  median_abs_deviation(scale=1.0) and scipy.stats.trim_mean(x, 0.2).
- Karsh's mode: a separate implementation that filters the unsorted data the
  way his TStats did (bin by (x - min) * nbins // span with the top bin
  holding max, as many bins as samples as his GatherTimes did, keep the data
  of the fullest bin, lowest bin on a tie, repeat), then, when some value
  occurs twice or more, ends on the most frequent value counted with
  collections.Counter (the lowest of equally frequent values).
- outliers: Tukey fences and modified Z counted here from the exact quartiles.
- comparisons: scipy.stats.ttest_ind(a, b, equal_var=False) for Welch;
  scipy.stats.mannwhitneyu(a, b, method='asymptotic', use_continuity=True)
  and (use_continuity=False) for Mann-Whitney; Karsh's Z as
  |mean_a - mean_b| / sqrt(s_a^2/n_a + s_b^2/n_b) with sample sds and
  p = 2 * scipy.stats.norm.sf(Z).
- paired differences (vectors_paired.h): Wilcoxon's signed-rank p from
  scipy.stats.wilcoxon(d, zero_method='wilcox', correction=False,
  method='approx'), its z recomputed here from scipy.stats.rankdata, and
  the exact sign-flip p by brute force over all 2^m sign patterns (m <= 16)
  or by an integer count of sign patterns per doubled rank sum (exact
  rational arithmetic), cross-checked against scipy's method='exact' where
  the data have no ties and no zeros.
- binomial quantiles (vectors_paired.h): the smallest k with P(X <= k) >= q
  for the double q, in exact integer arithmetic (sum of C(n, j) a^j
  (b - a)^(n - j) against q b^n for p = a / b) for n up to 10^5, and for
  n = 10^6 (METHODSAMPLES' top) in 80-digit decimal arithmetic (which
  agrees with the integer sums at 10^4 and 10^5); all cross-checked
  against scipy.stats.binom.ppf.
- Student t: scipy.stats.t.ppf(0.975, df) (good to ~1e-8 only in scipy 1.10),
  exact t95 for even df from the closed-form distribution in 40-digit decimal
  arithmetic, and 2 * scipy.stats.t.sf(|t|, df) for p-values;
  scipy.special.betainc for the incomplete beta.
"""
import collections
import os
from fractions import Fraction as F

import numpy as np
import scipy.special
import scipy.stats

HERE = os.path.dirname(os.path.abspath(__file__))
NBINS_HIST = 10
MODE_BINS = 0   # as many bins as samples (Karsh's GatherTimes)
MODE_PASSES = 16


def fl(x):
    return float(x)


def pct_exact(xs, p):
    """Type-7 percentile on sorted data; h computed as the C code's double."""
    n = len(xs)
    h = (n - 1) * p / 100.0
    k = int(np.floor(h))
    if k >= n - 1:
        return F(xs[-1])
    return F(xs[k]) + F(h - k) * (F(xs[k + 1]) - F(xs[k]))


def median_exact(xs):
    n = len(xs)
    return (F(xs[(n - 1) // 2]) + F(xs[n // 2])) / 2


def karsh_mode(data, is_int, nbins=MODE_BINS, passes=MODE_PASSES):
    """Karsh's TSFilterMode on the unsorted array, repeated."""
    work = list(data)
    if nbins == 0:
        nbins = max(len(data), 2)
    done = 0
    while min(work) != max(work) and done < passes:
        lo, hi = min(work), max(work)
        if is_int:
            idx = [min((x - lo) * nbins // (hi - lo), nbins - 1) for x in work]
        else:
            idx = [min(int(np.floor((x - lo) * float(nbins) / (hi - lo))), nbins - 1)
                   for x in work]
        counts = [0] * nbins
        for k in idx:
            counts[k] += 1
        best = max(range(nbins), key=lambda k: (counts[k], -k))
        work = [x for x, k in zip(work, idx) if k == best]
        done += 1
    counts = collections.Counter(data)
    top = max(counts.values())
    if top >= 2:
        work = [min(x for x, c in counts.items() if c == top)] * top
    mean = sum(F(x) for x in work) / len(work)
    var = sum((F(x) - mean) ** 2 for x in work) / len(work)
    return dict(count=len(work), passes=done, pure=int(min(work) == max(work)),
                value=fl(mean), sd=float(np.sqrt(fl(var))), lo=min(work), hi=max(work))


def histogram(data, is_int, nbins=NBINS_HIST):
    lo, hi = min(data), max(data)
    counts = [0] * nbins
    for x in data:
        if hi == lo:
            k = 0
        elif is_int:
            k = min((x - lo) * nbins // (hi - lo), nbins - 1)
        else:
            k = min(int(np.floor((x - lo) * float(nbins) / (hi - lo))), nbins - 1)
        counts[k] += 1
    return counts


def summary(name, data, is_int):
    n = len(data)
    d = dict(name=name, is_int=is_int, data=data, n=n)
    if n == 0:
        return d
    xs = sorted(data)
    mean = sum(F(x) for x in xs) / n
    ss = sum((F(x) - mean) ** 2 for x in xs)
    med = median_exact(xs)
    devs = sorted(abs(F(x) - med) for x in xs)
    mad = median_exact(devs)
    cut = n // 5
    trimmed = sum(F(x) for x in xs[cut:n - cut]) / (n - 2 * cut)
    q1, q3 = pct_exact(xs, 25.0), pct_exact(xs, 75.0)
    iqr = q3 - q1
    out = dict(mild_low=0, mild_high=0, extreme_low=0, extreme_high=0, modz_low=0, modz_high=0)
    for x in xs:
        x = F(x)
        if x < q1 - 3 * iqr:
            out['extreme_low'] += 1
        elif x < q1 - F(3, 2) * iqr:
            out['mild_low'] += 1
        elif x > q3 + 3 * iqr:
            out['extreme_high'] += 1
        elif x > q3 + F(3, 2) * iqr:
            out['mild_high'] += 1
        if mad > 0 and abs(0.6745 * fl(x - med) / fl(mad)) > 3.5:
            out['modz_low' if x < med else 'modz_high'] += 1
    d.update(min=xs[0], max=xs[-1], mean=fl(mean), mean_above_min=fl(mean - xs[0]),
             var_pop=fl(ss / n), var_sample=fl(ss / (n - 1)) if n > 1 else float('nan'),
             median=fl(med), median_floor=int(np.floor(med)) if is_int else 0,
             median_half=int(med.denominator == 2),
             p1=fl(pct_exact(xs, 1)), p5=fl(pct_exact(xs, 5)), q1=fl(q1), q3=fl(q3),
             p95=fl(pct_exact(xs, 95)), p99=fl(pct_exact(xs, 99)), mad=fl(mad),
             trimmed=fl(trimmed), mode=karsh_mode(data, is_int), out=out,
             hist=histogram(data, is_int))
    # Cross-check the exact arithmetic against numpy/scipy where doubles hold the data.
    if max(abs(x) for x in xs) < 2 ** 53:
        a = np.array(data, dtype=float)
        assert np.isclose(a.mean(), d['mean'], rtol=1e-14, atol=0)
        assert np.isclose(a.var(), d['var_pop'], rtol=1e-10, atol=1e-300)
        for p, key in ((1, 'p1'), (5, 'p5'), (25, 'q1'), (50, 'median'), (75, 'q3'),
                       (95, 'p95'), (99, 'p99')):
            assert np.isclose(np.percentile(a, p), d[key], rtol=1e-14), (name, key)
        assert np.isclose(scipy.stats.median_abs_deviation(a, scale=1.0), d['mad'], rtol=1e-14)
        assert np.isclose(scipy.stats.trim_mean(a, 0.2), d['trimmed'], rtol=1e-14)
    return d


def make_sets():
    rng = np.random.Generator(np.random.PCG64(20240503))
    sets = []
    sets.append(summary("empty", [], True))
    sets.append(summary("one", [42], True))
    sets.append(summary("two", [10, 13], True))
    sets.append(summary("all_equal", [1000] * 50, True))
    big = 2 ** 63
    near = [big - 5000 + int(v) for v in rng.integers(0, 10001, 201)]
    near[7] = 2 ** 64 - 1          # an extreme just below 2^64
    near[8] = big - 5000           # exact min
    sets.append(summary("near_2_63", near, True))
    bim = np.concatenate([rng.normal(1000, 3, 600), rng.normal(1200, 5, 400)])
    rng.shuffle(bim)
    sets.append(summary("bimodal", [int(round(v)) for v in bim], True))
    # timing-like: a floor, a geometric tail, a few large spikes
    tim = [100 + int(g) for g in rng.geometric(0.3, 997)] + [400, 900, 5000]
    rng.shuffle(tim)
    sets.append(summary("timing", tim, True))
    sets.append(summary("lognormal", [float(v) for v in rng.lognormal(0.0, 0.5, 257)], False))
    sets.append(summary("small_double", [2.5, -1.0, 3.25, 0.0, 7.5, 2.5], False))
    return rng, sets


def compare(name, a, b, is_int):
    aa, bb = np.array(a, dtype=float), np.array(b, dtype=float)
    w = scipy.stats.ttest_ind(aa, bb, equal_var=False)
    # Welch df as scipy computes it internally
    va, vb = aa.var(ddof=1) / len(aa), bb.var(ddof=1) / len(bb)
    df = (va + vb) ** 2 / (va ** 2 / (len(aa) - 1) + vb ** 2 / (len(bb) - 1))
    m1 = scipy.stats.mannwhitneyu(aa, bb, method='asymptotic', use_continuity=True)
    m0 = scipy.stats.mannwhitneyu(aa, bb, method='asymptotic', use_continuity=False)
    se = np.sqrt(aa.var(ddof=1) / len(aa) + bb.var(ddof=1) / len(bb))
    z = abs(aa.mean() - bb.mean()) / se
    return dict(name=name, is_int=is_int, a=a, b=b, welch_t=w.statistic, welch_p=w.pvalue,
                welch_df=df, mw_u=m1.statistic, mw_p=m1.pvalue, mw_p_nocont=m0.pvalue,
                karsh_z=z, karsh_p=2 * scipy.stats.norm.sf(z),
                diff_mean=aa.mean() - bb.mean(),
                diff_median=float(median_exact(sorted(a)) - median_exact(sorted(b))))


def make_compares(rng):
    cs = []
    base = [int(round(v)) for v in rng.normal(1000, 10, 300)]
    slower = [int(round(v)) for v in rng.normal(1010, 12, 250)]
    same = [int(round(v)) for v in rng.normal(1000, 10, 280)]
    cs.append(compare("shifted_ties", base, slower, True))
    cs.append(compare("same_ties", base, same, True))
    small_a, small_b = [5, 7, 7, 9, 12], [8, 9, 11, 11, 14, 15, 9]
    cs.append(compare("small", small_a, small_b, True))
    la = [float(v) for v in rng.lognormal(0.0, 0.3, 120)]
    lb = [float(v) * 0.93 for v in rng.lognormal(0.0, 0.3, 140)]
    cs.append(compare("lognormal_faster_b", la, lb, False))
    return cs


def tvals():
    dfs = list(range(1, 41)) + [50, 60, 100, 120, 500, 999, 1000, 1001, 1500, 10000, 10 ** 6]
    return [(df, scipy.stats.t.ppf(0.975, df)) for df in dfs]


def t95_even_exact(nu):
    """t95 for even df from the closed-form t distribution, 40 digits.

    For even nu, P(|T| >= t) = 1 - x * sum_{k<nu/2} C(2k,k)/4^k (1-x^2)^k
    with x = t / sqrt(nu + t^2); solved by bisection in decimal arithmetic.
    scipy's t.ppf is only good to about 1e-8 here, so this is the reference
    for the tight check."""
    from decimal import Decimal as D, getcontext
    from math import comb
    getcontext().prec = 40

    def p(t):
        x = t / (D(nu) + t * t).sqrt()
        return 1 - x * sum(D(comb(2 * k, k)) / D(4 ** k) * (1 - x * x) ** k
                           for k in range(nu // 2))
    lo, hi = D("1.9"), D("13")
    for _ in range(120):
        mid = (lo + hi) / 2
        if p(mid) > D("0.05"):
            lo = mid
        else:
            hi = mid
    return float((lo + hi) / 2)


def tpvals():
    pts = [(0.0, 5.0), (0.5, 1.0), (1.0, 2.0), (2.0, 10.0), (2.5, 7.3), (-3.1, 4.6),
           (4.0, 30.0), (1.96, 1e4), (6.0, 2.2), (0.1, 150.5), (12.706204736, 1.0),
           (2.2, 123456.7), (3.0, 2.0e6), (40.0, 3.0)]
    return [(t, df, 2 * scipy.stats.t.sf(abs(t), df)) for t, df in pts]


def betavals():
    pts = [(0.5, 0.5, 0.3), (2.0, 3.0, 0.4), (10.0, 0.5, 0.95), (0.5, 50.0, 0.01),
           (5.0, 5.0, 0.5), (100.0, 200.0, 0.33), (1.0, 1.0, 0.77), (3.5, 0.5, 0.999)]
    return [(a, b, x, scipy.special.betainc(a, b, x)) for a, b, x in pts]


def bytemark_rule():
    """(n, mean, sd) -> state, with BYTEmark's rule and scipy's t."""
    cases = [(4, 100.0, 0.1), (5, 100.0, 1.0), (5, 100.0, 5.0), (12, 50.0, 4.0),
             (29, 10.0, 1.5), (30, 10.0, 1.5), (30, 10.0, 1.3), (31, 10.0, 5.0), (2, 1.0, 0.0)]
    out = []
    for n, m, s in cases:
        half = scipy.stats.t.ppf(0.975, n - 1) * s / np.sqrt(n)
        if n < 5:
            st = 0
        elif half / m <= 0.05:
            st = 1
        elif n >= 30:
            st = 2
        else:
            st = 0
        out.append((n, m, s, half, st))
    return out


# ---- C output --------------------------------------------------------------

def cnum(v):
    if isinstance(v, float) and np.isnan(v):
        return "NAN"
    return repr(float(v))


def carr(name, vals, is_int):
    if not vals:
        return ""
    if is_int:
        body = ", ".join("UINT64_C(%d)" % v for v in vals)
        return "static const uint64_t %s[%d] = { %s };\n" % (name, len(vals), body)
    body = ", ".join(repr(float(v)) for v in vals)
    return "static const double %s[%d] = { %s };\n" % (name, len(vals), body)


def emit(sets, cs):
    L = ["/* Generated by tests/vectors/stats/make_vectors.py - do not edit. */",
         "#include <math.h>", "#include <stddef.h>", "#include <stdint.h>", ""]
    L.append("#define VEC_HIST_BINS %d" % NBINS_HIST)
    L.append("#define VEC_MODE_BINS %d" % MODE_BINS)
    L.append("#define VEC_MODE_PASSES %d" % MODE_PASSES)
    L.append("""
struct vec_summary {
    const char *name; int is_u64; size_t n; const uint64_t *u; const double *d;
    uint64_t min_u64, max_u64, median_u64; int median_half;
    double min, max, mean, mean_above_min, var_pop, var_sample, median;
    double p1, p5, q1, q3, p95, p99, mad, trimmed;
    size_t mode_count; int mode_passes, mode_pure; double mode_value, mode_sd, mode_lo, mode_hi;
    size_t mild_low, mild_high, extreme_low, extreme_high, modz_low, modz_high;
    size_t hist[VEC_HIST_BINS];
};
struct vec_compare {
    const char *name; int is_u64; size_t na, nb;
    const uint64_t *ua, *ub; const double *da, *db;
    double welch_t, welch_df, welch_p, mw_u, mw_p, mw_p_nocont, karsh_z, karsh_p;
    double diff_mean, diff_median;
};
struct vec_t95 { unsigned long df; double t; };
struct vec_tp { double t, df, p; };
struct vec_beta { double a, b, x, i; };
struct vec_bm { size_t n; double mean, sd, half; int state; };
""")
    for s in sets:
        L.append(carr("vec_data_" + s["name"], s["data"], s["is_int"]))
    for c in cs:
        L.append(carr("vec_a_" + c["name"], c["a"], c["is_int"]))
        L.append(carr("vec_b_" + c["name"], c["b"], c["is_int"]))
    L.append("static const struct vec_summary vec_summaries[] = {")
    for s in sets:
        nm, n, iu = s["name"], s["n"], s["is_int"]
        u = ("vec_data_" + nm) if (iu and n) else "NULL"
        d = ("vec_data_" + nm) if (not iu and n) else "NULL"
        if n == 0:
            L.append('    { "%s", 1, 0, NULL, NULL },' % nm)
            continue
        mo, o = s["mode"], s["out"]
        L.append('    { "%s", %d, %d, %s, %s,' % (nm, iu, n, u, d))
        if iu:
            L.append("      UINT64_C(%d), UINT64_C(%d), UINT64_C(%d), %d," %
                     (s["min"], s["max"], s["median_floor"], s["median_half"]))
        else:
            L.append("      0, 0, 0, 0,")
        L.append("      " + ", ".join(cnum(s[k]) for k in (
            "min", "max", "mean", "mean_above_min", "var_pop", "var_sample", "median",
            "p1", "p5", "q1", "q3", "p95", "p99", "mad", "trimmed")) + ",")
        L.append("      %d, %d, %d, %s, %s, %s, %s," % (
            mo["count"], mo["passes"], mo["pure"], cnum(mo["value"]), cnum(mo["sd"]),
            cnum(float(mo["lo"])), cnum(float(mo["hi"]))))
        L.append("      %d, %d, %d, %d, %d, %d," % tuple(o[k] for k in (
            "mild_low", "mild_high", "extreme_low", "extreme_high", "modz_low", "modz_high")))
        L.append("      { %s } }," % ", ".join(str(c) for c in s["hist"]))
    L.append("};\n")
    L.append("static const struct vec_compare vec_compares[] = {")
    for c in cs:
        nm, iu = c["name"], c["is_int"]
        ua, ub = ("vec_a_" + nm, "vec_b_" + nm) if iu else ("NULL", "NULL")
        da, db = ("NULL", "NULL") if iu else ("vec_a_" + nm, "vec_b_" + nm)
        L.append('    { "%s", %d, %d, %d, %s, %s, %s, %s,' % (nm, iu, len(c["a"]), len(c["b"]),
                                                          ua, ub, da, db))
        L.append("      " + ", ".join(cnum(c[k]) for k in (
            "welch_t", "welch_df", "welch_p", "mw_u", "mw_p", "mw_p_nocont", "karsh_z",
            "karsh_p", "diff_mean", "diff_median")) + " },")
    L.append("};\n")
    L.append("static const struct vec_t95 vec_t95s[] = {")
    L += ["    { %d, %s }," % (df, cnum(t)) for df, t in tvals()]
    L.append("};\n")
    L.append("static const struct vec_t95 vec_t95_exact[] = {")
    L += ["    { %d, %s }," % (df, cnum(t95_even_exact(df))) for df in (2, 4, 6, 10, 28, 40, 100)]
    L.append("};\n")
    L.append("static const struct vec_tp vec_tps[] = {")
    L += ["    { %s, %s, %s }," % (cnum(t), cnum(df), cnum(p)) for t, df, p in tpvals()]
    L.append("};\n")
    L.append("static const struct vec_beta vec_betas[] = {")
    L += ["    { %s, %s, %s, %s }," % tuple(cnum(v) for v in r) for r in betavals()]
    L.append("};\n")
    L.append("static const struct vec_bm vec_bms[] = {")
    L += ["    { %d, %s, %s, %s, %d }," % (n, cnum(m), cnum(s), cnum(h), st)
          for n, m, s, h, st in bytemark_rule()]
    L.append("};")
    with open(os.path.join(HERE, "vectors.h"), "w") as f:
        f.write("\n".join(L) + "\n")


def emit_files(sets, cs):
    """Data files for tests/unit/test_stats_cli.sh, with expected figures."""
    byname = {s["name"]: s for s in sets}
    for nm in ("bimodal", "near_2_63"):
        with open(os.path.join(HERE, nm + ".txt"), "w") as f:
            f.write("# %s: generated by make_vectors.py\n" % nm)
            for i, v in enumerate(byname[nm]["data"]):
                f.write("%d\n" % v)
                if i == 3:
                    f.write("\n  # a comment line and a blank line are allowed\n")
    c = [c for c in cs if c["name"] == "shifted_ties"][0]
    for side in ("a", "b"):
        with open(os.path.join(HERE, "shifted_%s.txt" % side), "w") as f:
            f.write("".join("%d\n" % v for v in c[side]))
    with open(os.path.join(HERE, "expected_cli.txt"), "w") as f:
        b, nr = byname["bimodal"], byname["near_2_63"]
        f.write("bimodal n %d\nbimodal min %d\nbimodal max %d\nbimodal median %s\n" %
                (b["n"], b["min"], b["max"], repr(b["median"])))
        f.write("near_2_63 min %d\nnear_2_63 max %d\nnear_2_63 median %d\n" %
                (nr["min"], nr["max"], nr["median_floor"]))
        f.write("shifted welch_p %.10g\nshifted mw_p %.10g\n" % (c["welch_p"], c["mw_p"]))


# ---- paired differences and binomial quantiles (vectors_paired.h) ----------

def signed_rank_exact_p(d):
    """Exact two-sided sign-flip p of W+ (zeros dropped, midranks)."""
    nz = [x for x in d if x != 0]
    m = len(nz)
    if m == 0:
        return F(1)
    r2 = [int(round(2 * r)) for r in scipy.stats.rankdata([abs(x) for x in nz])]
    w2 = sum(r for r, x in zip(r2, nz) if x > 0)
    total = m * (m + 1)
    if m <= 16:     # brute force over every sign pattern
        counts = collections.Counter(
            sum(r for k, r in enumerate(r2) if mask >> k & 1) for mask in range(2 ** m))
    else:           # integer count of patterns per doubled rank sum
        counts = {0: 1}
        for r in r2:
            nxt = collections.Counter(counts)
            for s_, c in counts.items():
                nxt[s_ + r] += c
            counts = nxt
    dev = abs(F(w2) - F(total, 2))
    if dev == 0:
        return F(1)
    extreme = sum(c for s_, c in counts.items() if abs(F(s_) - F(total, 2)) >= dev)
    return min(F(1), F(extreme, 2 ** m))


def paired_case(name, d):
    d = [float(x) for x in d]
    nz = [x for x in d if x != 0]
    m = len(nz)
    xs = sorted(d)
    mean = sum(F(x) for x in d) / len(d)
    nan = float('nan')
    sd = float(np.sqrt(fl(sum((F(x) - mean) ** 2 for x in d) / (len(d) - 1)))) if len(d) > 1 else nan
    out = dict(name=name, d=d, n=len(d), nonzero=m, positive=sum(x > 0 for x in d),
               mean=fl(mean), sd=sd, median=fl(median_exact(xs)),
               half=scipy.stats.t.ppf(0.975, len(d) - 1) * sd / np.sqrt(len(d)) if len(d) > 1 else nan)
    if m == 0:
        out.update(w_plus=0.0, z=0.0, p_approx=1.0, p_exact=1.0)
        return out
    ranks = scipy.stats.rankdata([abs(x) for x in nz])
    w = float(sum(r for r, x in zip(ranks, nz) if x > 0))
    _, tcount = np.unique([abs(x) for x in nz], return_counts=True)
    var = m * (m + 1) * (2 * m + 1) / 24.0 - float(sum(t ** 3 - t for t in tcount)) / 48.0
    z = (w - m * (m + 1) / 4.0) / np.sqrt(var)
    papprox = 2 * scipy.stats.norm.sf(abs(z))
    if m > 1:       # scipy wants two differences
        res = scipy.stats.wilcoxon(d, zero_method='wilcox', correction=False, method='approx')
        assert np.isclose(res.pvalue, papprox, rtol=1e-12), name
    pe = signed_rank_exact_p(d) if m <= 200 else None     # C's exact limit
    if m == len(d) and len(set(abs(x) for x in d)) == m and m <= 50:
        ex = scipy.stats.wilcoxon(d, method='exact')
        assert np.isclose(ex.pvalue, fl(pe), rtol=1e-12), (name, ex.pvalue, fl(pe))
    out.update(w_plus=w, z=z, p_approx=papprox, p_exact=fl(pe) if pe is not None else float('nan'))
    return out


def make_paired():
    rng = np.random.Generator(np.random.PCG64(20261125))
    cs = []
    cs.append(paired_case("distinct", [float(v) for v in rng.normal(0.4, 1.0, 12)]))
    cs.append(paired_case("ties_zeros", [3, -1, 0, 2, 2, -2, 5, 0, 1, -1, 3, 4, -3, 2, 0, 6, 1, -5]))
    grid = [21 * int(v) for v in rng.choice([-2, -1, 0, 0, 0, 1, 1, 2], 100)]
    cs.append(paired_case("grid21", grid))
    cs.append(paired_case("shift60", [float(v) for v in rng.normal(0.35, 1.0, 60)]))
    cs.append(paired_case("all_zero", [0, 0, 0, 0, 0]))
    cs.append(paired_case("one", [7]))
    big = [int(round(v)) for v in rng.normal(0.5, 30.0, 1000)]
    cs.append(paired_case("big_approx", big))
    return cs


def binom_exact(n, p, qs):
    """For each double q in qs the smallest k with P(X <= k) >= q, p = a / b,
    exactly: one walk up the terms C(n, j) a^j (b - a)^(n - j), the running
    sum compared with ceil(q b^n)."""
    pf = F(p)
    a, b = pf.numerator, pf.denominator
    out = {}
    if n == 0:
        return {q: 0 for q in qs}
    need = sorted(((-(-(F(q) * b ** n).numerator // (F(q) * b ** n).denominator)), q) for q in qs)
    t = (b - a) ** n             # the j = 0 term
    s, k = t, 0
    for want, q in need:
        while s < want:
            t = t * (n - k) * a // ((k + 1) * (b - a))
            k += 1
            s += t
        out[q] = k
    return out


def binom_decimal(n, p, qs):
    """The same quantiles in 80-digit decimal arithmetic, for n where the
    integer sums take too long: the terms relative to the mode's by the
    ratio recurrence, out to 10^-70 of it, then the running sum against q
    times their total.  Decides like the exact sums unless P(X <= k) lies
    within about 10^-60 of q."""
    from decimal import Decimal as D, getcontext
    getcontext().prec = 80
    pd, qd = D(F(p).numerator) / D(F(p).denominator), D(1)
    odds = pd / (qd - pd)
    mode = int((n + 1) * p)
    terms = {mode: D(1)}
    r, k = D(1), mode
    while k > 0 and r > D("1e-70"):
        r = r * k / ((n - k + 1) * odds)
        k -= 1
        terms[k] = r
    r, k = D(1), mode
    while k < n and r > D("1e-70"):
        r = r * (n - k) * odds / (k + 1)
        k += 1
        terms[k] = r
    total = sum(terms.values())
    out = {}
    for q in qs:
        want, c = D(F(q).numerator) / D(F(q).denominator) * total, D(0)
        for k in sorted(terms):
            c += terms[k]
            if c >= want:
                out[q] = k
                break
    return out


def make_binom():
    out = []
    ns = [0, 1, 2, 10, 100, 200, 1074, 1075, 1076, 2000, 10000, 100000, 1000000]
    # (q = 1/2 with p = 1/2 and n odd is an exact tie, P(X <= (n-1)/2) = 1/2,
    # where scipy's ppf rounds up: q = 0.3 instead.)
    qs = (0.999, 0.0005, 0.9995, 0.3, 0.025)
    for n in ns:
        for p in (0.05, 0.5):
            # exact integer sums up to 10^5 (there also the decimal walk,
            # which must agree); the 80-digit walk for 10^6
            ks = binom_exact(n, p, qs) if n <= 100000 else binom_decimal(n, p, qs)
            if n >= 10000:
                assert binom_decimal(n, p, qs) == ks, (n, p)
            for q in qs:
                ref = scipy.stats.binom.ppf(q, n, p)
                assert ref == ks[q], (n, p, q, ks[q], ref)
                out.append((n, p, q, ks[q]))
    return out


def emit_paired(cs, bs):
    L = ["/* Generated by tests/vectors/stats/make_vectors.py - do not edit. */",
         "#include <math.h>", "#include <stddef.h>", "#include <stdint.h>", "",
         "struct vec_paired {",
         "    const char *name; size_t n; const double *d;",
         "    size_t nonzero, positive;",
         "    double mean, sd, half95, median, w_plus, z, p_approx, p_exact;",
         "};",
         "struct vec_binom { uint32_t n; double p, q; uint32_t k; };", ""]
    for c in cs:
        L.append(carr("vec_pd_" + c["name"], c["d"], False))
    L.append("static const struct vec_paired vec_paireds[] = {")
    for c in cs:
        L.append('    { "%s", %d, vec_pd_%s, %d, %d,' % (c["name"], c["n"], c["name"], c["nonzero"],
                                                        c["positive"]))
        L.append("      " + ", ".join(cnum(c[k]) for k in ("mean", "sd", "half", "median", "w_plus",
                                                            "z", "p_approx", "p_exact")) + " },")
    L.append("};\n")
    L.append("static const struct vec_binom vec_binoms[] = {")
    L += ["    { %d, %s, %s, %d }," % (n, repr(p), repr(q), k) for n, p, q, k in bs]
    L.append("};")
    with open(os.path.join(HERE, "vectors_paired.h"), "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    rng, sets = make_sets()
    cs = make_compares(rng)
    emit(sets, cs)
    emit_files(sets, cs)
    emit_paired(make_paired(), make_binom())
    print("wrote vectors.h, vectors_paired.h and CLI data files")
