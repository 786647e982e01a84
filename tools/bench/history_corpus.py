#!/usr/bin/python3
"""tools/bench/history_corpus.py - the labelled series of the history's corpus.

    history_corpus.py compose [--seed S] [--reorders R] [--cycle N] OUT

OUT/boots.txt (written by tools/bench/history-corpus.sh) lists the boots in
the order they were made, each with its block: plain, firmware (the 2 MiB
OVMF build), rebuild (the plug-in rebuilt, another SHA-256) or icount.
Every boot timed every routine of tools/bench/corpus-plugin/steps.c.  A
series is a list of runs; run i is one boot's figure of one routine: before
a step the base routine's, after it the stepped routine's, both from boots
nobody chose by their figures (consecutive plain boots, in boot order).

Writes OUT/labels.tsv, one series a line, tab-separated:

    series kind family k step_pct changes levels planted runs

  kind      flat, step, back (a step that comes back), two (two steps up),
            drift (the level rises through small steps over the whole
            series), provenance (a planted firmware or plug-in change)
  family    add, walk or sort (the routine family)
  k         runs a side (for step: before and after; back and two: each
            segment; flat and drift: half the series)
  step_pct  the nominal size of the first change in percent of the base
            (the extra work: instructions, loads, passes); 0 for flat
  changes   the run indices where the level changes (comma list, "-": none)
  levels    the nominal level of each segment in percent above the base
  planted   the provenance field that changes at the first change (firmware,
            plug-ins, build) or "-"
  runs      BOOT:ROUTINE, ... one per run, in the series' order

--cycle N (an -icount corpus, where every boot of one image gives the same
figures): the plain boots are taken in turn until there are N of them, and
each other block's until there are 3; a run then stands for a boot that
would have given the same figures.  Without it every run is its own boot.

The nominal sizes are the work's: the add chain's passes, the walk's
loads, the sort's passes (each family runs one piece of code).  How much slower each really is under TCG is what the corpus
measures (history bench --corpus prints the measured ratio beside it).
"""
import argparse
import os
import random
import sys

# family: base routine, then {nominal step in %: routine}
FAMILIES = {
    "add": ("add400", {0.25: "add401", 0.5: "add402", 1: "add404", 2: "add408", 5: "add420"}),
    "walk": ("walk8000", {1: "walk8080", 2: "walk8160", 5: "walk8400"}),
    "sort": ("sort20", {5: "sort21"}),
}
# the nominal steps: the extra passes or loads, in percent of the base's
NOMINAL = {"add401": 0.25, "add402": 0.5, "add404": 1.0, "add408": 2.0, "add420": 5.0,
           "walk8080": 1.0, "walk8160": 2.0, "walk8400": 5.0, "sort21": 5.0}


def pct(routine):
    return NOMINAL.get(routine, 0.0)


def windows(n, width):
    """Disjoint windows of `width` boots over n boots, from the start."""
    return [w for w in range(0, n - width + 1, width)]


def fmt(x):
    return ("%.4f" % x).rstrip("0").rstrip(".")


def cycled(boots, n):
    """boots taken in turn until there are n (at least as many as given)."""
    return [boots[i % len(boots)] for i in range(max(n, len(boots)))] if boots else []


def compose(out, seed, reorders, cycle=0):
    rows = [l.split() for l in open(os.path.join(out, "boots.txt")) if l.strip()]
    blocks = {}
    for f, b in rows:
        if not os.path.exists(os.path.join(out, "boots", f)):
            print("history_corpus: %s listed in boots.txt is missing; left out" % f, file=sys.stderr)
            continue
        blocks.setdefault(b, []).append(f[:-5])    # the run's name: the file without .json
    if cycle:
        blocks = {b: cycled(v, cycle if b == "plain" else 3) for b, v in blocks.items()}
    plain = blocks.get("plain", [])
    n = len(plain)
    if n < 6:
        print("history_corpus: %d plain boots; at least 6 are needed" % n, file=sys.stderr)
        return 1
    series = []
    # The boots in the order they were made, then `orders` reorderings
    # drawn with a fixed seed: more series from the same boots (they share
    # boots, so cells are not independent samples; the labels say which).
    rnd = random.Random(seed)
    orders = [("o", plain)] + [("p%d" % j, rnd.sample(plain, n)) for j in range(1, reorders + 1)]

    def add(name, kind, family, k, step, changes, levels, planted, runs):
        series.append((name, kind, family, str(k), fmt(step), ",".join(map(str, changes)) or "-",
                       ",".join(fmt(l) for l in levels), planted, ",".join("%s:%s" % r for r in runs)))

    # step, and flat: one series per window of 2k plain boots, k = 3, 5, 10 and half of them all
    ks = sorted({k for k in (3, 5, 10, n // 2) if 2 * k <= n})
    for on, order in orders:
        for k in ks:
            for w in windows(n, 2 * k):
                bs = order[w:w + 2 * k]
                for fam, (base, steps) in FAMILIES.items():
                    for s, r in sorted(steps.items()):
                        add("%s-step%s-k%d-%s%d" % (fam, fmt(s), k, on, w), "step", fam, k, pct(r), [k],
                            [0, pct(r)], "-", [(b, base) for b in bs[:k]] + [(b, r) for b in bs[k:]])
                    for r in [base] + [r for _, r in sorted(steps.items())]:
                        add("%s-flat-%s-k%d-%s%d" % (fam, r, k, on, w), "flat", fam, k, 0, [], [pct(r)], "-",
                            [(b, r) for b in bs])
    # back: base, stepped, base; k = 3 a segment (6 with 18 boots or more)
    k = 6 if n >= 18 else 3
    for on, order in orders:
      for w in windows(n, 3 * k):
        bs = order[w:w + 3 * k]
        for fam, r in [("add", "add404"), ("add", "add408"), ("add", "add420"), ("walk", "walk8160"),
                       ("walk", "walk8400"), ("sort", "sort21")]:
            base = FAMILIES[fam][0]
            add("%s-back-%s-k%d-%s%d" % (fam, r, k, on, w), "back", fam, k, pct(r), [k, 2 * k], [0, pct(r), 0], "-",
                [(b, base) for b in bs[:k]] + [(b, r) for b in bs[k:2 * k]] + [(b, base) for b in bs[2 * k:]])
    # two steps up: base, +1%, +2%
    for on, order in orders:
      for k in sorted({3, n // 3}):
        for w in windows(n, 3 * k):
            bs = order[w:w + 3 * k]
            for fam, (r1, r2) in [("add", ("add404", "add408")), ("walk", ("walk8080", "walk8160"))]:
                base = FAMILIES[fam][0]
                add("%s-two-k%d-%s%d" % (fam, k, on, w), "two", fam, k, pct(r1), [k, 2 * k], [0, pct(r1), pct(r2)], "-",
                    [(b, base) for b in bs[:k]] + [(b, r1) for b in bs[k:2 * k]] + [(b, r2) for b in bs[2 * k:]])
    # drift: the level rises through the family's steps up to 2%, evenly over all plain boots
    for fam, ladder in [("add", ["add400", "add401", "add402", "add404", "add408"]),
                        ("walk", ["walk8000", "walk8080", "walk8160"])]:
        runs, changes = [], []
        for i, b in enumerate(plain):
            j = min(len(ladder) - 1, i * len(ladder) // n)
            if runs and runs[-1][1] != ladder[j]:
                changes.append(i)
            runs.append((b, ladder[j]))
        add("%s-drift" % fam, "drift", fam, n // 2, pct(ladder[1]), changes, [pct(r) for r in ladder], "-", runs)
    # provenance: the last plain boots, then a block with another firmware or plug-in build
    for block, field in (("firmware", "firmware"), ("rebuild", "plug-ins"), ("build", "build")):
        other = blocks.get(block, [])
        if len(other) < 3:
            continue
        k = len(other)
        before = plain[-k:]
        for fam, r in [("add", "add408"), ("walk", "walk8160")]:
            base = FAMILIES[fam][0]
            add("%s-%s-step" % (fam, block), "provenance", fam, k, pct(r), [k], [0, pct(r)], field,
                [(b, base) for b in before] + [(b, r) for b in other])
            add("%s-%s-flat" % (fam, block), "provenance", fam, k, 0, [k], [0, 0], field,
                [(b, base) for b in before] + [(b, base) for b in other])
    series.sort()
    with open(os.path.join(out, "labels.tsv"), "w") as f:
        f.write("# series\tkind\tfamily\tk\tstep_pct\tchanges\tlevels\tplanted\truns"
                " (tools/bench/history_corpus.py; see its header)\n")
        for s in series:
            f.write("\t".join(s) + "\n")
    kinds = {}
    for s in series:
        kinds[s[1]] = kinds.get(s[1], 0) + 1
    print("history_corpus: %d series from %d boots (%s)%s in %s" % (
        len(series), sum(len(set(v)) for v in blocks.values()),
        ", ".join("%d %s" % (len(set(v)), b) for b, v in blocks.items()),
        "; each taken in turn as %d plain runs and 3 of each other block" % cycle if cycle else "",
        os.path.join(out, "labels.tsv")), file=sys.stderr)
    print("history_corpus: " + ", ".join("%d %s" % (v, k) for k, v in sorted(kinds.items())), file=sys.stderr)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("verb", choices=["compose"])
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--reorders", type=int, default=4)
    ap.add_argument("--cycle", type=int, default=0)
    ap.add_argument("out")
    a = ap.parse_args()
    return compose(a.out, a.seed, a.reorders, a.cycle)


if __name__ == "__main__":
    sys.exit(main())
