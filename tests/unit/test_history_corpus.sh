#!/bin/sh
# Unit test: `baremark history bench --corpus` on a small corpus of every
# labelled series kind, made here from one real boot of the corpus plug-in
# (tests/fixtures/corpus-boot.json.xz: a quick-profile boot under TCG made
# by tools/bench/history-corpus.sh, timing tools/bench/corpus-plugin).
#
# The Python below makes 24 boots from it: each routine's figure (every
# method's net median; the whole measurement scaled so that it still
# validates) set to the base routine's level
# times the routine's nominal work (+0.25% .. +5%, tools/bench/history_corpus.py)
# times a boot's noise (sd 0.2%, drawn with a fixed seed);
# 18 plain boots, 6 with another firmware revision, 6 with the plug-in's
# SHA-256 changed, 6 with another baremark build (build.version): 6 a
# side, where the 2% provenance steps are above what the series can show.
# history_corpus.py composes the labelled series.  Checked against the
# definitions of what was planted, never against what the bench printed:
#   step    every 2% and 5% step with 5 runs a side or more (0.2% noise:
#           ten sd and more) found at the planted run, its size within 0.5
#           percentage points of the planted one (3 a side are too few for
#           Welch's test at p < 0.001: its df is about 2)
#   back    both changes of a 2% or 5% step that comes back found, 6 runs
#           a segment (with 3, binary segmentation cannot split them: the
#           corpus's tables show it)
#   two     both 1% steps of two steps found, 6 runs a segment, where 1%
#           is 1.5 times the series' smallest step (below) or more
#   drift   a change found in the drift
#   flat    at most 1 false alarm in 100 flat series (the issue's bound)
#   provenance  where the series could show its planted step (its smallest
#           step, below, is under it): the change planted with a firmware
#           revision names the firmware, the one with a rebuilt plug-in
#           names the plug-ins, the one with another build names the build
#   smallest step  the figure printed for each series equals the definition
#           recomputed here with scipy from the series the bench wrote
#           (--series-csv): (t(1-a'/2) + t(0.8)) * s * sqrt(1/a + 1/b),
#           a' = alpha / (n - 5) (Bonferroni over the splits with 3 a side)
#           over the level, s the median |successive difference| over
#           its median for normal noise (0.6745 sqrt 2), not below the
#           runs' mean interval half-width; none (no step of any size) where
#           the runs scatter beyond twice their intervals' sd in a series of
#           at most 60 and 2 / C(n, a) is not below 0.01 (the permutation
#           test's smallest p); the smallest over the methods
# A corpus without labels.tsv is refused (status 2, naming it).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
B=$BUILD/host/baremark
W=$BUILD/tests/history-corpus
rm -rf "$W"
mkdir -p "$W/corpus/boots"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

/usr/bin/python3 - "$TOP/tests/fixtures/corpus-boot.json.xz" "$W/corpus" <<'PY'
import copy, json, lzma, os, random, statistics, sys
sys.path.insert(0, os.path.join(os.environ.get("TOP", "."), "tools", "bench"))
base = json.loads(lzma.open(sys.argv[1]).read())
out = sys.argv[2]
rng = random.Random(11)
ratio = {"add400": 1, "add401": 1.0025, "add402": 1.005, "add404": 1.01, "add408": 1.02, "add420": 1.05,
         "walk8000": 1, "walk8080": 1.01, "walk8160": 1.02, "walk8400": 1.05, "sort20": 1, "sort21": 1.05}
family = lambda r: "add400" if r.startswith("add") else "walk8000" if r.startswith("walk") else "sort20"
# A measurement as if its clock ran f times as fast: every tick figure times
# f, the integer ones (minima, samples) rounded, and what `validate`
# derives from them (per-iteration minima, fences) derived again.
COUNTS = {"status_code", "samples_requested", "iterations", "iterations_requested", "instructions_fixed",
          "instructions_per_iteration", "calibration_retakes", "benchmark_retakes", "routine_first", "pairs",
          "nonzero", "positive", "w_plus", "z", "p", "exact", "mann_whitney_p", "mann_whitney_u", "n",
          "mode_count", "counter_step_ticks"}
INTS = {"placeholder_min", "routine_min", "min_t2", "min_tn2", "min_t2n", "samples", "placeholder_samples",
        "samples_untruncated", "placeholder_samples_untruncated"}
def scaled(o, f, key=None):
    if isinstance(o, dict):
        return {k: scaled(v, f, k) for k, v in o.items()}
    if isinstance(o, list):
        return [scaled(v, f, key) for v in o]
    if isinstance(o, bool) or not isinstance(o, (int, float)) or key in COUNTS:
        return o
    return round(o * f) if key in INTS else o * f
def timescale(m, f):
    m = scaled(m, f)
    it = m["iterations"]
    m["per_iteration"]["minus_placeholder"] = (m["routine_min"] - m["placeholder_min"]) / it
    m["per_iteration"]["n_vs_2n"] = (m["min_t2n"] - m["routine_min"]) / it
    m["per_iteration"]["apple"] = (m["min_tn2"] - m["min_t2"]) / it
    m["per_iteration"]["mean_minus_mean"] = (statistics.mean(m["samples"]) -
                                             statistics.mean(m["placeholder_samples"])) / it
    mr, mp = statistics.median(m["samples_untruncated"]), statistics.median(m["placeholder_samples_untruncated"])
    a = max(m["fence_above_median"], max(m["samples"]) - mr, max(m["placeholder_samples"]) - mp)
    m["fence_above_median"], m["benchmark_fence"], m["calibration_fence"] = a, mr + a, mp + a
    diffs = [x - y for x, y in zip(m["samples_untruncated"], m["placeholder_samples_untruncated"])]
    m["paired"]["median_diff"], m["paired"]["mean_diff"] = statistics.median(diffs), statistics.mean(diffs)
    return m
level = {}
for m in base["methods"]["measurements"]:
    if m["target"] in ("steps:add400", "steps:walk8000", "steps:sort20"):
        level[(m["target"][6:], m["method"])] = m["net"]["median"]
blocks = ["plain"] * 18 + ["firmware"] * 6 + ["rebuild"] * 6 + ["build"] * 6
lines = []
for i, block in enumerate(blocks):
    d = copy.deepcopy(base)
    d["name"] = "20261201-01%02d00" % i
    d["system"]["started"] = "2026-12-01T01:%02d:00" % i
    if block == "firmware":
        d["system"]["firmware_revision"] = 65537
    if block == "rebuild":
        d["plugins"]["files"][0]["sha256"] = "ab" * 32
    if block == "build":
        d["build"]["version"] = "c0ffee1"
    boot = {r: 1 + 0.002 * rng.gauss(0, 1) for r in ratio}
    for j, m in enumerate(d["methods"]["measurements"]):
        r = m["target"][6:] if m["target"].startswith("steps:") else None
        if r not in ratio:
            continue
        want = level[(family(r), m["method"])] * ratio[r] * boot[r]
        d["methods"]["measurements"][j] = timescale(m, want / m["net"]["median"])
    json.dump(d, open(os.path.join(out, "boots", d["name"] + ".json"), "w"))
    lines.append("%s.json %s\n" % (d["name"], block))
open(os.path.join(out, "boots.txt"), "w").writelines(lines)
PY
/usr/bin/python3 "$TOP/tools/bench/history_corpus.py" compose --reorders 1 "$W/corpus" 2> "$W/compose.txt" ||
    fail "compose the labelled series" "$(tail -2 "$W/compose.txt")"

"$B" history bench --corpus "$W/corpus" --series-csv "$W/series.csv" -v > "$W/bench.txt" 2> "$W/bench.err"
rc=$?
[ $rc = 0 ] && grep -q '^corpus .*: 36 boots added (0 skipped)' "$W/bench.txt" &&
    pass "bench --corpus: 36 boots added, status 0" || fail "bench --corpus ran" "rc $rc: $(head -3 "$W/bench.err")"

/usr/bin/python3 - "$W/corpus/labels.tsv" "$W/bench.txt" "$W/series.csv" > "$W/check.txt" 2>&1 <<'PY'
import csv, math, re, sys
import numpy as np
from scipy import stats
labels = {}
for l in open(sys.argv[1]):
    if l.startswith("#"):
        continue
    f = l.rstrip("\n").split("\t")
    labels[f[0]] = dict(kind=f[1], k=int(f[3]), step=float(f[4]),
                        changes=[int(c) for c in f[5].split(",")] if f[5] != "-" else [], planted=f[7],
                        n=len(f[8].split(",")))
found, smallest, attrib = {}, {}, {}
for l in open(sys.argv[2]):
    m = re.match(r"  (\S+) +\S+ +\d+ runs, changes at(.*); (smallest step its noise could show ([-+0-9.ena]+)%|"
                 r"no step of any size could show)", l)
    if m:
        found[m.group(1)] = [(int(a), float(r)) for a, r in re.findall(r" (\d+) \(\d+ of \d+ methods, ([-+0-9.]+)%\)", m.group(2))]
        smallest[m.group(1)] = float(m.group(4)) if m.group(4) else math.inf
    m = re.match(r"  (\S+) +change at run (\d+) .*?: (.*?)(  \[planted.*)?$", l)
    if m:
        attrib[m.group(1)] = m.group(3)
# the smallest step, recomputed from the series the bench wrote
series = {}
for row in csv.DictReader(open(sys.argv[3])):
    series.setdefault(row["series"], {}).setdefault(row["method"], []).append(
        (float(row["value"]), float(row["lo"]), float(row["hi"])))
alpha, nmde, mde, bad = 0.001, 0, {}, []
for name, methods in series.items():
    lab = labels[name]
    best = math.inf
    for rows in methods.values():
        x = np.array([r[0] for r in rows])
        hw = np.array([(r[2] - r[1]) / 2 for r in rows])
        n = len(x)
        a = lab["changes"][0] if lab["changes"] else n // 2
        b = n - a
        s = np.median(np.abs(np.diff(x))) / (stats.norm.ppf(0.75) * math.sqrt(2))
        df = n - 2
        fw = alpha / (n - 2 * 3 + 1)    # family-wise: Bonferroni over the splits with 3 runs a side
        step = (stats.t.ppf(1 - fw / 2, df) + stats.t.ppf(0.8, df)) * s * math.sqrt(1 / a + 1 / b)
        hw = hw[~np.isnan(hw)]
        if len(hw):
            step = max(step, hw.mean())
        # runs scattering beyond twice their intervals' sd (or without intervals) in
        # a series of at most 60 must also pass the permutation test at p < 0.01,
        # whose smallest p is about 2 / C(n, a): where that is not below, no step shows
        scatters = not len(hw) or s > 2 * hw.mean() / stats.norm.ppf(0.975)
        if n <= 60 and scatters and 2 / math.comb(n, min(a, b)) >= 0.01:
            step = math.inf
        best = min(best, 100 * step / abs(x.mean()))
    nmde += 1
    mde[name] = best
    got = smallest.get(name, -1)
    if (math.isinf(best) != math.isinf(got)) or (not math.isinf(best) and abs(best - got) > 1e-9 + 0.001 * best):
        bad.append("%s: smallest step printed %s%%, by definition %.4f%%" % (name, smallest.get(name), best))
def near(at, t):
    return abs(at - t) <= 2
checked = {"step": 0, "back": 0, "two": 0, "drift": 0, "flat": 0, "provenance": 0}
fa = nflat = 0
named = set()
for name, lab in labels.items():
    f = found.get(name)
    if f is None:
        bad.append("%s: no line" % name)
        continue
    kind = lab["kind"]
    if kind == "step" and lab["step"] >= 2 and lab["k"] >= 5:
        checked["step"] += 1
        hit = [r for a, r in f if near(a, lab["changes"][0])]
        if not hit:
            bad.append("%s: the %.2f%% step at run %d not found (%s)" % (name, lab["step"], lab["changes"][0], f))
        elif abs(hit[0] - lab["step"]) > 0.5:
            bad.append("%s: size %.2f%%, planted %.2f%%" % (name, hit[0], lab["step"]))
    # two steps: required where the step is 1.5 times the smallest the
    # series could show (80% found at 1x; at 1.5x the normal shift is 3.5
    # sd past the threshold: missed less than once in 1000)
    if (kind == "back" and lab["step"] >= 2 and lab["k"] >= 6 or
            kind == "two" and lab["k"] >= 6 and lab["step"] >= 1.5 * mde[name]):
        checked[kind] += 1
        for t in lab["changes"]:
            if not any(near(a, t) for a, _ in f):
                bad.append("%s: the change at run %d not found (%s)" % (name, t, f))
    if kind == "drift":
        checked["drift"] += 1
        if not f:
            bad.append("%s: nothing found in the drift" % name)
    if kind == "flat":
        checked["flat"] += 1
        nflat += 1
        fa += len(f)
    if kind == "provenance" and name.endswith("-step") and mde[name] < lab["step"]:
        checked["provenance"] += 1
        named.add(lab["planted"])
        want = {"firmware": "firmware", "plug-ins": "plug-ins", "build": "build"}[lab["planted"]]
        if want not in attrib.get(name, ""):
            bad.append("%s: the change does not name %s (%s)" % (name, want, attrib.get(name)))
if named != {"firmware", "plug-ins", "build"}:
    bad.append("planted provenance checked only for %s" % sorted(named))
if nflat and fa > nflat / 100:
    bad.append("%d false alarms in %d flat series" % (fa, nflat))
print("checked: %s; %d false alarms in %d flat series; %d smallest steps" % (checked, fa, nflat, nmde))
for b in bad[:20]:
    print("BAD " + b)
sys.exit(1 if bad or min(checked.values()) == 0 else 0)
PY
[ $? = 0 ] && pass "every labelled kind as planted: $(head -1 "$W/check.txt")" ||
    fail "labelled kinds" "$(grep -m5 -e BAD -e Error -e checked "$W/check.txt" | tr '\n' '|')"

mkdir -p "$W/empty"
"$B" history bench --corpus "$W/empty" > "$W/empty.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q '^baremark history bench: --corpus .*: no labels.tsv there' "$W/empty.txt" &&
    pass "a corpus without labels is refused (status 2)" || fail "a corpus without labels" "rc $rc: $(cat "$W/empty.txt")"
