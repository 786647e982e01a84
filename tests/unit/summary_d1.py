#!/usr/bin/python3
"""The summary's target rows recomputed from a results JSON by definition D1
(docs/statistics.md, "A routine's time per iteration"), independently of
bench/summary/summary.c: net values, median, order-statistic interval, the
resolution floor, "below 1 step", "k of m".

    summary_d1.py RUN.json            print the expected rows
    summary_d1.py RUN.json SHOW.txt   check them against `baremark show`
                                      output (exit 1 on a difference)
"""
import json
import math
import sys

Z = 1.959964


def g(x):
    """figures_format: 4 significant digits; one decimal at most from 1e5."""
    if abs(x) >= 1e5 and abs(x) < 1e15:
        return ("%.1f" % x).removesuffix(".0")
    return "%.4g" % x


def median(v):
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def estimate(m, hz):
    """One measurement by D1: a dict of ticks, interval, resolved, X (ns)."""
    n_iter = m["iterations"]
    net = sorted((x - m["placeholder_median"]) / n_iter for x in m["samples"])
    n = len(net)
    j = max(1, math.floor(n / 2 - Z * math.sqrt(n) / 2))
    k = min(n, math.ceil(n / 2 + Z * math.sqrt(n) / 2))
    est, lo, hi = median(net), net[j - 1], net[k - 1]
    r = m["counter_step_ticks"] / n_iter if "counter_step_ticks" in m else 0.0
    wlo, whi = max(min(lo, est - r), 0.0), max(max(hi, est + r), 0.0)
    resolved = m["status"] != "too_short" and est >= r
    return dict(method=m["method"], ticks=est, lo=wlo, hi=whi, resolved=resolved,
                floor=resolved and r > 0 and (est - r < lo or est + r > hi),
                below_ns=max(max(hi, r), 0.0) * 1e9 / hz, hz=hz)


def targets(doc):
    """{target: [estimates]} in the document's order, and the reported method."""
    meth = doc["methods"]
    hz = meth["tick_hz"]
    out = {}
    for m in meth["measurements"]:
        if m["status"] not in ("ok", "too_short", "inconclusive") or not m.get("target"):
            continue
        out.setdefault(m["target"], []).append(estimate(m, hz))
    return out, doc.get("comparisons", {}).get("method", "sdm-recommended")


def text(e):
    """An estimate as every output writes it: (time, interval) in ns."""
    hz = e["hz"]
    if not e["resolved"]:
        return "below 1 step, < %s ns" % g(e["below_ns"]), ""
    return g(e["ticks"] * 1e9 / hz), "[%s, %s]" % (g(e["lo"] * 1e9 / hz), g(e["hi"] * 1e9 / hz))


def rows(doc):
    ts, method = targets(doc)
    lines = []
    for name, ests in ts.items():
        chosen = next((e for e in ests if e["method"] == method), ests[0])
        res = [e for e in ests if e["resolved"]]
        k = sum(1 for e in res if e["lo"] <= chosen["hi"] and chosen["lo"] <= e["hi"])
        hz = chosen["hz"]
        if not chosen["resolved"]:
            lines.append("%-16.16s %-29s %10s  %-19.19s %d of %d" % (
                name, "below 1 step, < %s ns" % g(chosen["below_ns"]), "-", chosen["method"], k, len(res)))
            continue
        ci = "[%s, %s]" % (g(chosen["lo"] * 1e9 / hz), g(chosen["hi"] * 1e9 / hz)) + (" *" if chosen["floor"] else "")
        lines.append("%-16.16s %9s  %-18s %10s  %-19.19s %d of %d" % (
            name, g(chosen["ticks"] * 1e9 / hz), ci, g(chosen["ticks"]), chosen["method"], k, len(res)))
    return lines


def main():
    doc = json.load(open(sys.argv[1]))
    want = ["          " + x for x in rows(doc)]
    if len(sys.argv) < 3:
        print("\n".join(want))
        return 0
    got = [l.rstrip("\n") for l in open(sys.argv[2])]
    bad = [w for w in want if w not in got]
    for w in want:
        print(("ok   " if w in got else "FAIL ") + w.strip())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
