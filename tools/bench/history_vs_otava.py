#!/usr/bin/python3
"""tools/bench/history_vs_otava.py - the history's detection and Apache
Otava's on the same series of a labelled corpus, scored the same way.

    history_vs_otava.py CORPUS SERIES.CSV BENCH.TXT [--otava DIR]

CORPUS/labels.tsv  the labels (tools/bench/history_corpus.py)
SERIES.CSV         every series as `baremark history bench --corpus CORPUS
                   --series-csv SERIES.CSV` put it together (one row per
                   series, method and run: value, lo, hi)
BENCH.TXT          that command's -v output: the runs at which baremark's
                   findings start in each series
--otava DIR        an unpacked Apache Otava source tree; its analysis runs
                   on each method's values exactly as its CSV importer hands
                   a metric column to it (otava.series.AnalyzedSeries:
                   fill_missing, then compute_change_points with the default
                   AnalysisOptions: window 50, p 0.001, no minimum magnitude).
                   Without it (or without numpy and scipy) only baremark's
                   column is printed, and the script says why.

Both tools see the same values; Otava sees nothing else (no intervals, no
provenance).  A finding: the runs where a method's change starts, several
methods within 1 run of each other being one finding (as `history show`
groups a routine's changes).  A planted change is found when a finding lies
within 2 runs of it; other findings are false alarms (none in a drift).
"""
import argparse
import csv
import os
import re
import sys
import time

TOL, MERGE = 2, 1


def labels_of(path):
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        out[f[0]] = dict(kind=f[1], family=f[2], k=int(f[3]), step=float(f[4]),
                         changes=[int(c) for c in f[5].split(",")] if f[5] != "-" else [])
    return out


def group(starts):
    found = []
    for at in sorted(starts):
        if not found or at - found[-1] > MERGE:
            found.append(at)
    return found


def score(labels, findings):
    cells = {}
    for name, lab in labels.items():
        if name not in findings or lab["kind"] == "provenance":
            continue
        kind = lab["kind"]
        key = (kind, "all" if kind == "flat" else lab["family"], 0 if kind == "flat" else lab["step"], lab["k"])
        c = cells.setdefault(key, dict(series=0, planted=0, found=0, fa=0, pos=[], with_fa=0))
        c["series"] += 1
        f = findings[name]
        for t in lab["changes"]:
            c["planted"] += 1
            d = min([abs(a - t) for a in f], default=None)
            if kind == "drift":
                c["found"] += bool(f)
                break
            if d is not None and d <= TOL:
                c["found"] += 1
                c["pos"].append(d)
        if kind != "drift":
            fa = sum(1 for a in f if not any(abs(a - t) <= TOL for t in lab["changes"]))
            c["fa"] += fa
            c["with_fa"] += fa > 0
    return cells


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("series_csv")
    ap.add_argument("bench_txt")
    ap.add_argument("--otava")
    a = ap.parse_args()
    labels = labels_of(os.path.join(a.corpus, "labels.tsv"))
    series = {}
    for row in csv.DictReader(open(a.series_csv)):
        series.setdefault(row["series"], {}).setdefault(row["method"], []).append(float(row["value"]))
    ours = {}
    for line in open(a.bench_txt):
        # "; smallest step its noise could show X%" or, for a series too
        # short for its scatter, "; no step of any size could show (...)"
        m = re.match(r"  (\S+) +\S+ +\d+ runs, changes at(.*?); (?:smallest|no step)", line)
        if m:
            ours[m.group(1)] = [int(x) for x in re.findall(r" (\d+) \(\d+ of", m.group(2))]
    tools = [("baremark", score(labels, ours), None)]
    why = None
    if not a.otava:
        why = "no --otava DIR given"
    elif not os.path.isdir(os.path.join(a.otava, "otava")):
        why = "%s holds no otava/ package" % a.otava
    else:
        sys.path.insert(0, a.otava)
        try:
            from otava.analysis import compute_change_points, fill_missing
            from otava.series import AnalysisOptions
        except ImportError as e:
            why = "Otava could not be imported from %s: %s" % (a.otava, e)
    if why is None:
        opt = AnalysisOptions()
        theirs, t0 = {}, time.process_time()
        for name, methods in series.items():
            starts = []
            for values in methods.values():
                v = list(values)
                fill_missing(v)
                cps, _ = compute_change_points(v, window_len=opt.window_len, max_pvalue=opt.max_pvalue,
                                               min_magnitude=opt.min_magnitude)
                starts += [c.index for c in cps]
            theirs[name] = group(starts)
        seconds = time.process_time() - t0
        tools.append(("Otava", score(labels, theirs), seconds))
    else:
        print("history_vs_otava: Apache Otava not run: %s (an unpacked source tree of "
              "https://github.com/apache/otava and Debian's python3-numpy and python3-scipy)" % why)
    keys = sorted(set().union(*[set(c) for _, c, _ in tools]),
                  key=lambda k: (["step", "back", "two", "drift", "flat"].index(k[0]), k[1], k[2], k[3]))
    head = "  %-6s %-6s %6s %4s %6s" % ("kind", "family", "step%", "k", "series")
    for name, _, _ in tools:
        head += " | %-8s %7s %8s %7s" % (name, "recall", "false/s", "pos err")
    print(head)
    for k in keys:
        line = "  %-6s %-6s %6.2f %4d" % k
        line += " %6d" % max(cells[k]["series"] for _, cells, _ in tools if k in cells)
        for _, cells, _ in tools:
            c = cells.get(k)
            if c is None:
                line += " | %-8s %7s %8s %7s" % ("", "-", "-", "-")
                continue
            rec = "%.0f%%" % (100 * c["found"] / c["planted"]) if c["planted"] else "-"
            pos = "%.2f" % (sum(c["pos"]) / len(c["pos"])) if c["pos"] else "-"
            line += " | %-8s %7s %8.2f %7s" % ("", rec, c["fa"] / c["series"], pos)
        print(line)
    for name, _, seconds in tools:
        if seconds is not None:
            print("%s: %.1f s of CPU for %d series (%d method series)" % (
                name, seconds, len(series), sum(len(m) for m in series.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
