#!/bin/sh
# tests/unit/test_truth_fixtures.sh - the independent check of the answer on
# the committed runs (issue 33.5): for every tests/fixtures/run-*.json,
# `baremark show` and the report's first screen (`baremark report`) are
# recomputed from the JSON's raw samples by tests/check/recompute.py
# (Python, numpy/scipy, no project code), one PASS/FAIL line per row kind.
# Then the checker itself: on a hand-made document whose figures are worked
# out below from the definitions (docs/statistics.md) by hand, the right
# block passes and each wrong figure fails; one edited figure in a real
# run's block fails on that figure; a row it does not know fails; a block
# or JSON it cannot use exits 2.  No boot.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || { fail "build/host/baremark builds" "make host failed"; exit 0; }
. tests/check/python.sh
[ -n "$TRUTH_PY" ] || { fail "a python3 with numpy and scipy" "sh tools/install-deps.sh"; exit 0; }
CK="$TRUTH_PY tests/check/recompute.py"

# ---- the fixtures ---------------------------------------------------------------------
for j in tests/fixtures/run-*.json; do
    n=$(basename "$j" .json)
    "$B" show "$j" > "$T/$n.show" 2> "$T/$n.err"
    "$B" report "$j" -o "$T/$n.html" > /dev/null 2>&1 || fail "$n: report written" "$B report $j"
    $CK "$j" "$T/$n.show" --html "$T/$n.html" --grouped "truth $n:" "$T/$n.lines" > "$T/$n.out" 2>&1
    rc=$?
    if [ $rc -eq 2 ] || [ ! -s "$T/$n.lines" ]; then
        fail "truth $n: the checker ran" "exit $rc: $(tail -2 "$T/$n.out" | tr '\n' '|')"
    else
        cat "$T/$n.lines"
    fi
done

# ---- the checker against hand-worked figures -------------------------------------------
# Target t: iterations 2, placeholder median 10, samples 10 + 2k (k = 1..20):
#   net = 1..20; median 10.5; n = 20: ranks floor(10 - 1.959964*sqrt(20)/2) = 5
#   and ceil(10 + 4.38) = 15, so [5, 15]; step 2 ticks / 2 = r 1 -> widened
#   [min(5, 9.5), max(15, 11.5)] = [5, 15]; 1 GHz: ns = ticks.  1 of 1.
# Target u: too_short, iterations 1, step 4, samples 10,11,... (net 0 and 1,
#   ten each): hi = net_(15) = 1, r = 4 -> "below 1 step, < 4 ns"; no
#   resolved estimate: 0 of 0.
# Pair a vs b: a = 1,1,1,1, b = 2,2,2,2: every log(2/1) -> ratio 2; mn = 16,
#   c = floor(8 - 1.959964*sqrt(16*9/12)) = 1 -> [2, 2]; Mann-Whitney U = 0,
#   mean 8, tie-corrected variance 16/12 * (9 - 120/56) = 9.142857,
#   z = (8 - 0.5)/3.023716 = 2.480388, p = 2(1 - Phi(z)) = 0.01313 -> 0.013.
cat > "$T/hand.json" <<'JSON'
{"schema": 1, "name": "hand", "status": 0, "ended": true, "errors": [],
 "methods": {"tick_hz": 1000000000, "profile": "quick", "measurements": [
   {"target": "t", "method": "sdm-recommended", "status": "ok", "iterations": 2, "placeholder_median": 10,
    "counter_step_ticks": 2, "samples": [12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50]},
   {"target": "u", "method": "sdm-recommended", "status": "too_short", "iterations": 1, "placeholder_median": 10,
    "counter_step_ticks": 4, "samples": [10,11,10,11,10,11,10,11,10,11,10,11,10,11,10,11,10,11,10,11]}]},
 "comparisons": {"method": "sdm-recommended", "comparisons": [
   {"name": "a vs b", "expect": "faster", "verdict": "faster", "as_expected": true, "status": "ok",
    "a": {"name": "a", "samples": [1,1,1,1]}, "b": {"name": "b", "samples": [2,2,2,2]}}]}}
JSON
hand() { # hand FILE SED: the hand document's right block, edited by SED
    sed "$2" > "$1" <<'BLOCK'
==================== baremark summary: hand ====================
verdict   completed, 0 warnings; profile quick
targets   name               ns/iter  95% CI (ns)       ticks/iter  method              methods agree
          t                     10.5  [5, 15]                 10.5  sdm-recommended     1 of 1
          u                below 1 step, < 4 ns               sdm-recommended     0 of 0
A/B       a is 2x [2, 2] faster than b, p = 0.013
files     \baremark\hand.log, .json (saved)
================================================================
BLOCK
}
hand "$T/hand.txt" ""
$CK "$T/hand.json" "$T/hand.txt" > "$T/hand.out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "checker: the hand-worked block passes ($(tail -1 "$T/hand.out"))" ||
    fail "checker: the hand-worked block" "exit $rc: $(grep '^FAIL' "$T/hand.out" | head -3 | tr '\n' '|')"
wrong() { # wrong WHAT SED PATTERN: the block edited by SED fails, on a line matching PATTERN
    hand "$T/w.txt" "$2"
    $CK "$T/hand.json" "$T/w.txt" > "$T/w.out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && ! cmp -s "$T/w.txt" "$T/hand.txt" && grep -q "^FAIL .*$3" "$T/w.out"; then
        pass "checker: catches $1"
    else
        fail "checker: catches $1" "exit $rc: $(grep '^FAIL' "$T/w.out" | head -2 | tr '\n' '|')"
    fi
}
wrong "an estimate one unit off (10.6)" 's/  10.5  \[/  10.6  [/' "ns/iter"
wrong "an interval end off by one (14 for 15)" 's/\[5, 15\]/[5, 14]/' "high end: printed 14"
wrong "an unwidened interval [10.5, 10.5]" 's/\[5, 15\]/[10.5, 10.5]/' "low end"
wrong "agreement 0 of 1" 's/1 of 1/0 of 1/' "methods agree k"
wrong "the older interval spelling 5-15" 's/\[5, 15\]/5-15/' "is not written \[lo, hi\]"
wrong "an unresolved target shown as a number" 's/below 1 step, < 4 ns /0.5  [0, 4]  0.5/' "D1 leaves it unresolved"
wrong "the bound of an unresolved target (< 1 ns for < 4 ns)" 's/< 4 ns/< 1 ns/' "below X ns"
wrong "a ratio of 2.1" 's/2x/2.1x/' "ratio slower/faster"
wrong "the sides swapped" 's/a is 2x \[2, 2\] faster than b/b is 2x [2, 2] faster than a/' "faster side"
wrong "p = 0.014" 's/p = 0.013/p = 0.014/' "p (Mann-Whitney"
wrong "a row it does not know" '/^files/i\
newrow    something 12 ns' "row not understood"
wrong "a missing row" '/^files/d' "the files row is there"

# ---- one edited figure in a real run's block ------------------------------------------
sed 's/ read \([0-9.]*\) GB\/s/ read 1\1 GB\/s/' "$T/run-full.show" > "$T/edited.show"
$CK tests/fixtures/run-full.json "$T/run-full.show" > "$T/orig.out" 2>&1
$CK tests/fixtures/run-full.json "$T/edited.show" > "$T/edited.out" 2>&1
rc=$?
if ! cmp -s "$T/run-full.show" "$T/edited.show" && [ $rc -eq 1 ] &&
   grep -q '^PASS .*memory: read GB/s' "$T/orig.out" && grep -q '^FAIL .*memory: read GB/s' "$T/edited.out"; then
    pass "checker: run-full's read bandwidth edited (x+10 GB/s) fails where the original passes"
else
    fail "checker: an edited figure in run-full's block" "exit $rc: $(grep 'read GB/s' "$T/edited.out" | head -1)"
fi
$CK tests/fixtures/run-full.json "$T/run-full.show" "$T/edited.show" > "$T/two.out" 2>&1
grep -q '^FAIL  edited.show text: the same text as run-full.show' "$T/two.out" &&
    pass "checker: two summaries that differ are told apart" || fail "checker: two summaries differ" "$(grep ' text:' "$T/two.out")"

# ---- unusable input: exit 2, one line --------------------------------------------------
echo "no block here" > "$T/none.txt"
$CK tests/fixtures/run-full.json "$T/none.txt" > "$T/u1.out" 2>&1; r1=$?
head -c 300 tests/fixtures/run-full.json > "$T/cut.json"
$CK "$T/cut.json" "$T/run-full.show" > "$T/u2.out" 2>&1; r2=$?
if [ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ "$(wc -l < "$T/u1.out")" -eq 1 ] && [ "$(wc -l < "$T/u2.out")" -eq 1 ]; then
    pass "checker: no summary block, or a cut JSON: exit 2 with one line"
else
    fail "checker: unusable input" "exits $r1 $r2: $(cat "$T/u1.out" "$T/u2.out" | head -3 | tr '\n' '|')"
fi

# ---- an interrupted run: the section it stopped in, on the summary and the badge ---------
"$TRUTH_PY" - tests/fixtures/run-full.json "$T/cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("memory")
d["ended"] = False
d["errors"] = ["first", "second", "third", "fourth"]
d["status"] = 2
json.dump(d, open(sys.argv[2], "w"))
PY
"$B" show "$T/cut.json" > "$T/cut.show"
"$B" report "$T/cut.json" -o "$T/cut.html" > /dev/null 2>&1
$CK "$T/cut.json" "$T/cut.show" --html "$T/cut.html" > "$T/cut.out" 2>&1
if grep -q "^PASS  cut.show verdict: interrupted during: printed 'memory'" "$T/cut.out" &&
   grep -q "^PASS  cut.html badge: verdict: printed 'interrupted during memory'" "$T/cut.out" &&
   grep -q "^PASS  cut.show verdict: warnings not listed: printed 1" "$T/cut.out" && ! grep -q "^FAIL  cut.* verdict" "$T/cut.out"; then
    pass "checker: an interrupted run (memory cut): 'interrupted during memory' on the summary and the badge, 3 warnings + 1 counted"
else
    fail "checker: an interrupted run" "$(grep 'verdict\|badge' "$T/cut.out" | grep '^FAIL' | head -2 | tr '\n' '|')"
fi
