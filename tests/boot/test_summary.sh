#!/bin/bash
# Boot test: the run's summary at the end of serial (bench/summary/summary.h), one
# exact boot (-icount shift=0: the TSC at 1 GHz, every timing an
# instruction count) with clock, methods, comparisons and memory, LAVA on.
#
# Checked: the block sits between its two marker lines, right before the
# final line, after LAVA's end line; it is byte for byte what
# `baremark show` and `tools/baremark-results show` print from the JSON the
# run wrote (one summary, built from the results); its figures are the
# JSON's own, recomputed here independently (the TSC rate, each target's
# row by D1 from its raw samples: tests/unit/summary_d1.py, add10 against
# add100 from their stored samples (D2: Hodges-Lehmann on the logs, Bauer's
# interval, scipy's Mann-Whitney p) and the JSON's "ratio" member, which
# pairs are called A/A controls and the order check, the memory
# levels, the file names; the run's duration_ms, positive and below the
# boot's wall time, in the verdict row); the text log on the ESP ends with it; every
# section's LAVA cases come as one block right after that section's text;
# every number of the run's JSON is declared in a figure table.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1
W=$TEST_TMP/summary
rm -rf "$W"
mkdir -p "$W"
img=$(fresh_image summary)
t0=$(date +%s)
boot summary "$img" --icount --options "sections=clock,methods,compare,memory quietms=50 methodsamples=20 lava=t"
wall=$(( $(date +%s) - t0 + 1 ))     # whole seconds, rounded up: the boot's wall time
expect_rc 0 "summary: run-qemu exit 0"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
esp_cat "$img" "baremark/$name.json" > "$W/run.json" 2>/dev/null
esp_cat "$img" "baremark/$name.log" | tr -d '\r' > "$W/run.log" 2>/dev/null

# The block: from its opening marker to the line before the final one.
sed -n '/^=\{20\} baremark summary: /,/^baremark: run ended/p' "$BOOT_LOG" | sed '$d' > "$W/serial.txt"
lines=$(wc -l < "$W/serial.txt")
if head -1 "$W/serial.txt" | grep -q "^==================== baremark summary: $name ====================\$" &&
   tail -1 "$W/serial.txt" | grep -q '^=\{40,\}$' && [ "$lines" -ge 8 ] && [ "$lines" -le 42 ]; then
    pass "summary: between its markers, right before the final line ($lines lines)"
else
    fail "summary: the block before the final line" "$lines lines; $(head -1 "$W/serial.txt")"
fi
grep -B1 '^=\{20\} baremark summary: ' "$BOOT_LOG" | head -1 | grep -q '^BAREMARK-LAVA end status=0$' &&
    pass "summary: LAVA's end line comes before it, not inside" ||
    fail "summary: after LAVA's end line" "$(grep -B1 '^=\{20\} baremark summary: ' "$BOOT_LOG" | head -1)"

"$B" show "$W/run.json" > "$W/show.txt" 2> "$W/show.err"
cmp -s "$W/serial.txt" "$W/show.txt" &&
    pass "summary: baremark show prints the same block from the run's JSON" ||
    fail "summary: serial = baremark show" "$(diff "$W/serial.txt" "$W/show.txt" | head -4 | tr '\n' '|')"
"$TOP/tools/baremark-results" show "$W/run.json" > "$W/show2.txt" 2>&1
cmp -s "$W/serial.txt" "$W/show2.txt" && pass "summary: baremark-results show prints it too" ||
    fail "summary: baremark-results show" "$(head -2 "$W/show2.txt" | tr '\n' '|')"
tail -n "$lines" "$W/run.log" | cmp -s - "$W/serial.txt" &&
    pass "summary: the text log on the ESP ends with it" || fail "summary: the log ends with it" "$(tail -2 "$W/run.log" | tr '\n' '|')"

# The figures, recomputed from the JSON.
if /usr/bin/python3 - "$W/run.json" "$W/serial.txt" "$wall" "$TOP" > "$W/figures.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [l.rstrip("\n") for l in open(sys.argv[2])]
bad = []
def need(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        bad.append(what)
def g(x):                      # figures_format: 4 significant digits below 1e5
    return ("%.1f" % x).removesuffix(".0") if abs(x) >= 1e5 else "%.4g" % x
def row(label):
    return [r[10:] for r in rows if r.startswith(label.ljust(10))]
c = d["clock"]
ref = [r for r in c["references"] if r["name"] == c["source"]][0]
want = "TSC %.3f MHz +/- %s ppm from the %s; %d references agree within %s ppm" % (
    c["chosen_khz"] / 1000, g(ref["ppm"]), c["source"], len(c["references"]), g(c["agreement"]["max_measured_ppm"]))
step = (c.get("counter_step") or {}).get("ticks")     # D3: the counter's step, in ns at the chosen rate
if step is not None:
    want += "; TSC steps %s tick%s (%s ns)" % (g(step), "" if step == 1 else "s", g(step * 1e6 / c["chosen_khz"]))
need(row("clock") == [want], "clock row: %s" % want)
need(c["chosen_khz"] == 1000000 or abs(c["chosen_khz"] - 1e6) < 1, "the TSC at 1 GHz under -icount")
dur, wall = d.get("duration_ms"), float(sys.argv[3])
# guest time under -icount: at most the boot's wall time (TCG is slower than 1 instruction a ns)
need(isinstance(dur, (int, float)) and 0 < dur < wall * 1000, "duration_ms %s: positive, below the boot's %g s" % (dur, wall))
need(row("verdict") == ["completed, 0 warnings; profile quick; run took %.1f s" % ((dur or 0) / 1000)], "verdict row")
m = d["methods"]
hz = m["tick_hz"]
method = d["comparisons"]["method"]
meas = [x for x in m["measurements"] if x["method"] == method]
need(len(meas) >= 5, "%d targets measured with %s" % (len(meas), method))
# each target's row by D1 (docs/statistics.md), recomputed from the raw samples
# (tests/unit/summary_d1.py): the net median, its interval widened to the
# counter's step, "below 1 step, < X ns" when too short, k of m
sys.path.insert(0, sys.argv[4] + "/tests/unit")
import summary_d1
for line in summary_d1.rows(d):
    need(("          " + line) in rows, "target row: %s" % line)
ab = [x for x in d["comparisons"]["comparisons"] if x["name"] == "add10 vs add100"][0]
# D2: the samples as stored (already net of the overhead loop), Hodges-Lehmann
# on the logs with Bauer's interval, scipy's Mann-Whitney p
import math
from scipy import stats as sps
sa, sb = ab["a"]["samples"], ab["b"]["samples"]
dl = sorted(math.log(y) - math.log(x) for y in sb for x in sa)
mn = len(dl)
k = max(0, math.floor(mn / 2 - 1.959963984540054 * math.sqrt(len(sa) * len(sb) * (len(sa) + len(sb) + 1) / 12)))
r, rlo, rhi = math.exp((dl[(mn - 1) // 2] + dl[mn // 2]) / 2), math.exp(dl[k]), math.exp(dl[mn - 1 - k])
pv = sps.mannwhitneyu(sa, sb, alternative="two-sided", use_continuity=True, method="asymptotic").pvalue
want = "add10 is %sx [%s, %s] faster than add100, p = %.1e" % (g(r), g(rlo), g(rhi), pv)
need(any(x.endswith(want) for x in rows), "A/B row: %s" % want)
jr = ab["ratio"]
need(jr["faster"] == "a" and abs(jr["estimate"] - r) <= 1e-12 * r and abs(jr["lo"] - rlo) <= 1e-12 * r
     and abs(jr["hi"] - rhi) <= 1e-12 * r and abs(jr["p"] - pv) <= 1e-9 * pv,
     "the JSON's ratio member is Python's: %s" % jr)
aa = [x for x in d["comparisons"]["comparisons"] if x.get("check") == "a/a control"]
need(aa and all(x["order"] == "random" and x["a"]["name"] == x["b"]["name"] for x in aa),
     "every A/A control is one routine in random order")
ctl = [x for x in rows if "A/A control" in x]
need(len(ctl) == len(aa) and all("(random order)" in x for x in ctl), "the summary calls only those A/A controls: %s" % ctl)
need(any("foo vs foo:" in x and "(order check" in x for x in rows), "foo vs foo (ABAB) is labelled the order check")
lat = d["memory"]["latency"]
levels = []
for e in lat:
    if not levels or levels[-1][0] != e["fits"]:
        levels.append([e["fits"], []])
    levels[-1][1].append(e)
lv = ", ".join("%s %s ns" % (k, g(v[(len(v) - 1) // 2]["ns_median"])) for k, v in levels)
rd = max(b["read"]["best_bytes_per_s"] for b in d["memory"]["bandwidth"]) / 1e9
want = "%s per load; read %s GB/s" % (lv, g(rd))
need(row("memory") == [want], "memory row: %s" % want)
need(row("files") == ["\\baremark\\%s.log, .json (saved)" % d["name"]], "files row")
sys.exit(1 if bad else 0)
PY
then
    pass "summary: every figure is the JSON's, recomputed here ($(grep -c '^ok' "$W/figures.txt") checks)"
else
    fail "summary: figures against the JSON" "$(grep '^FAIL' "$W/figures.txt" | head -3 | tr '\n' '|')"
fi

# Every number of this run's JSON is declared in a figure table (the unit
# test walks the fixtures; this walks a fresh boot's file).
[ -x "$BUILD/tests/test_figures" ] || make -s -C "$TOP" "$BUILD/tests/test_figures" >/dev/null 2>&1
(cd "$TOP" && "$BUILD/tests/test_figures" "$W/run.json") > "$W/figures_leaves.txt" 2>&1
grep -q "^PASS: $W/run.json: each of its [0-9]* numbers is declared in a figure table" "$W/figures_leaves.txt" &&
    pass "summary: every number of the run's JSON is declared in a figure table" ||
    fail "summary: undeclared numbers in the run's JSON" "$(grep "^FAIL" "$W/figures_leaves.txt" | head -3 | tr '\n' '|')"

# LAVA: each section's cases are one block, right after that section's text.
if /usr/bin/python3 - "$BOOT_LOG" > "$W/lava.txt" 2>&1 <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
section = {"clock": "clock", "method": "methods", "meas": "methods", "compare": "comparisons", "memory": "memory"}
blocks, i, bad = [], 0, []
while i < len(lines):
    if lines[i].startswith("BAREMARK-LAVA case=") and not lines[i].startswith("BAREMARK-LAVA case=run_status"):
        j = i
        while j < len(lines) and lines[j].startswith("BAREMARK-LAVA case=") and "run_status" not in lines[j]:
            j += 1
        ids = [re.match(r"BAREMARK-LAVA case=([a-z0-9]+)_", l).group(1) for l in lines[i:j]]
        secs = sorted(set(section.get(k, k) for k in ids))
        blocks.append((secs, lines[i - 1]))
        i = j
    else:
        i += 1
print(blocks)
names = [b[0] for b in blocks]
if names != [["clock"], ["methods"], ["comparisons"], ["memory"]]:
    bad.append("blocks %s" % names)
# each section's last line: "SECTION: ..." (clock ends with its quiet check)
last = {"clock": ("clock: ", "quiet: ")}
for secs, before in blocks:
    if not before.startswith(last.get(secs[0], (secs[0] + ": ",))):
        bad.append("the %s block follows %r, not the section's last line" % (secs[0], before))
print("\n".join(bad) or "one block per section")
sys.exit(1 if bad else 0)
PY
then
    pass "LAVA: one block per section, right after its text (clock, methods, comparisons, memory)"
else
    fail "LAVA: blocks" "$(tail -2 "$W/lava.txt" | tr '\n' '|')"
fi

# A clock-only run, PROFILE=auto under QEMU (a hypervisor: CPUID.1:ECX bit 31
# is set under TCG): the run uses the quick profile, says so once on serial,
# records it once (top-level "profile"; settings.profile stays "auto") and
# its summary's verdict row says "profile quick", though no section of the
# run states a profile of its own.
img=$(fresh_image summary-clock)
boot summary-clock "$img" --options "sections=clock quietms=50"
expect_rc 0 "clock only: run-qemu exit 0"
expect_line '^profile: quick \(PROFILE=auto: a hypervisor is present\)$' "clock only: serial names the profile it resolved"
expect_line '^verdict   completed, 0 warnings; profile quick; run took [0-9.]+ s$' \
    "clock only: the summary's verdict row says the resolved profile (quick), not auto"
j=$(last_json "$img" summary-clock)
jq -e '.profile == "quick" and .settings.profile == "auto" and ([paths | select(.[-1] == "profile")] | length) == 2' \
    "$j" >/dev/null 2>&1 && pass "clock only: the JSON records the profile once (top level), settings keep auto" ||
    fail "clock only: the JSON's profile" "$(jq -c '{profile, s: .settings.profile}' "$j" 2>&1 | head -c 200)"
