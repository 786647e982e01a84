#!/usr/bin/env python3
"""tools/bench/between_boots.py RUN.json... - how far one boot's intervals
carry to the next boot of the same image (issue 33, "Between boots").

For each target (the chosen method's measurement, D1 of the definitions in
docs/statistics.md) and each A/B pair (D2), over every pair of boots given:
how often the two boots' 95% intervals overlap, and how far the estimates
spread.  Everything is recomputed from the raw samples in the JSON files
(numpy), sharing no code with baremark.

D1, a target with one method: net_i = (samples_i - median(placeholder
samples)) / N; the estimate is median(net); the interval is the order
statistics of ranks j = floor(n/2 - 1.959964 sqrt(n)/2), k = ceil(n/2 +
1.959964 sqrt(n)/2) (1-based, clamped to [1, n]), widened to at least
[est - r, est + r] with r = counter_step_ticks / N (the resolution floor),
its lower bound never below 0.  A measurement that is too_short, or whose
estimate is below r, is unresolved: its reader sees "below 1 step, < X"
with X = max(hi, r), so its interval here is [0, X].

D2, an A/B pair: d = every log(b_j) - log(a_i) (B over A, the same
orientation in every boot, so boots compare whichever side won);
ratio = exp(median(d)); interval exp(d_(c)), exp(d_(mn-1-c)) with c =
floor(mn/2 - 1.959964 sqrt(mn(m+n+1)/12)), clamped at 0 (0-based).

Spread: max - min and the SD (n-1) of the estimates over the boots; for a
target also in units of r (the resolution floor, one counter step spread
over the N iterations: the median r over the boots), i.e. counter steps
of one timing; for a pair in percent of the median ratio.
"""
import itertools
import json
import math
import sys

import numpy as np

Z = 1.959964


def d1(m):
    """(estimate, lo, hi, r, resolved) of a measurement, in ticks per iteration."""
    t = np.asarray(m.get("samples") or [], dtype=float)
    p = np.asarray(m.get("placeholder_samples") or [], dtype=float)
    n_iter = float(m["iterations"])
    step = float(m.get("counter_step_ticks") or 1)
    r = step / n_iter
    if t.size == 0 or p.size == 0:
        return None
    net = np.sort((t - np.median(p)) / n_iter)
    n = net.size
    est = float(np.median(net))
    j = math.floor(n / 2 - Z * math.sqrt(n) / 2)
    k = math.ceil(n / 2 + Z * math.sqrt(n) / 2)
    j = min(max(j, 1), n)
    k = min(max(k, 1), n)
    lo, hi = float(net[j - 1]), float(net[k - 1])
    lo, hi = min(lo, est - r), max(hi, est + r)
    lo = max(lo, 0.0)
    resolved = m.get("status") != "too_short" and est >= r
    if not resolved:
        lo, hi = 0.0, max(hi, r)
    return est, lo, hi, r, resolved


def d2(c):
    """(ratio B/A, lo, hi) of a comparison, or None when a side has no
    positive sample."""
    a = np.asarray(c.get("a", {}).get("samples") or [], dtype=float)
    b = np.asarray(c.get("b", {}).get("samples") or [], dtype=float)
    a, b = a[a > 0], b[b > 0]
    if a.size == 0 or b.size == 0:
        return None
    m, n = a.size, b.size
    d = np.sort((np.log(b)[None, :] - np.log(a)[:, None]).ravel())
    mn = m * n
    cc = math.floor(mn / 2 - Z * math.sqrt(mn * (m + n + 1) / 12))
    cc = max(cc, 0)
    return float(np.exp(np.median(d))), float(np.exp(d[cc])), float(np.exp(d[mn - 1 - cc]))


def overlap(x, y):
    return x[1] <= y[2] and y[1] <= x[2]


def main(paths):
    targets, pairs, skipped = {}, {}, []
    for path in paths:
        try:
            doc = json.load(open(path))
        except (OSError, ValueError) as e:
            skipped.append("%s: %s" % (path, e))
            continue
        meth = doc.get("methods") or {}
        chosen = (doc.get("comparisons") or {}).get("method") or "sdm-recommended"
        by_target = {}
        for m in meth.get("measurements") or []:
            if m.get("status") not in ("ok", "too_short", "inconclusive"):
                continue
            by_target.setdefault(m.get("target"), []).append(m)
        for tgt, ms in by_target.items():
            pick = [m for m in ms if m.get("method") == chosen] or ms[:1]
            e = d1(pick[0])
            if e is not None:
                targets.setdefault((tgt, pick[0].get("method")), []).append(e + (pick[0]["iterations"],))
        for i, c in enumerate((doc.get("comparisons") or {}).get("comparisons") or []):
            e = d2(c)
            if e is not None:
                pairs.setdefault(c.get("name") or "#%d" % i, []).append(e)
    for s in skipped:
        print("skipped: " + s)
    print("boots read: %d" % (len(paths) - len(skipped)))
    print()
    print("%-22s %-16s %5s %9s %10s %9s %9s %9s %7s" %
          ("target", "method", "boots", "overlap", "median", "max-min", "SD", "r", "N"))
    print("%-22s %-16s %5s %9s %10s %9s %9s %9s %7s" %
          ("", "", "", "of pairs", "ticks/it", "in r", "in r", "ticks/it", ""))
    for (tgt, method), es in sorted(targets.items()):
        ests = np.array([e[0] for e in es])
        rs = np.array([e[3] for e in es])
        ns = sorted(set(int(e[5]) for e in es))
        ov = [overlap(x, y) for x, y in itertools.combinations(es, 2)]
        unres = sum(1 for e in es if not e[4])
        rmed = float(np.median(rs))
        sd = float(np.std(ests, ddof=1)) if len(es) > 1 else float("nan")
        print("%-22s %-16s %5d %4d/%-4d %10.4g %9.3g %9.3g %9.3g %7s%s" %
              (tgt[:22], method[:16], len(es), sum(ov), len(ov), float(np.median(ests)),
               (ests.max() - ests.min()) / rmed, sd / rmed, rmed,
               str(ns[0]) if len(ns) == 1 else "%d-%d" % (ns[0], ns[-1]),
               "  (%d unresolved)" % unres if unres else ""))
    if pairs:
        print()
        print("%-40s %5s %9s %10s %9s %9s" % ("A/B pair (ratio B/A)", "boots", "overlap", "median", "max-min", "SD"))
        print("%-40s %5s %9s %10s %9s %9s" % ("", "", "of pairs", "ratio", "% of med", "% of med"))
        for name, es in sorted(pairs.items()):
            rat = np.array([e[0] for e in es])
            ov = [overlap(x, y) for x, y in itertools.combinations(es, 2)]
            med = float(np.median(rat))
            sd = float(np.std(rat, ddof=1)) if len(es) > 1 else float("nan")
            print("%-40s %5d %4d/%-4d %10.4g %9.3g %9.3g" %
                  (name[:40], len(es), sum(ov), len(ov), med, 100 * (rat.max() - rat.min()) / med, 100 * sd / med))
    # Over every target, only pairs of boots that both resolved it (an
    # unresolved estimate's interval [0, X] overlaps nearly anything).
    both = [(x, y) for es in targets.values() for x, y in itertools.combinations(es, 2) if x[4] and y[4]]
    if both:
        hit = sum(overlap(x, y) for x, y in both)
        print()
        print("resolved targets, all together: %d of %d pairs of boots have overlapping intervals (%.0f%%)" %
              (hit, len(both), 100.0 * hit / len(both)))
        print("(two valid 95%% intervals of one fixed value, of equal width, overlap in %.1f%% of pairs;" %
              (100 * math.erf(Z)))   # the difference of two: sd sqrt(2); apart by over 2 Z sd
        print(" fewer says the boots differ by more than one boot's interval allows for)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: between_boots.py RUN.json RUN.json...", file=sys.stderr)
        sys.exit(1)
    sys.exit(main(sys.argv[1:]))
