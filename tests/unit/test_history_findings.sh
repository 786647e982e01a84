#!/bin/sh
# tests/unit/test_history_findings.sh - `history show` and `check` name a
# series as a reader knows it ("hist:k, cpuid+rdtsc, ticks/iter", not the
# LAVA id meas_hist_k_cpuid_rdtsc_ticks) and report one change seen in many
# series of one routine as one finding (docs/tools.md, history_out.c).
#
# Stores are built from tests/fixtures/run-quick.json: 30 runs of one
# machine, its routine "foo" renamed "hist:k" (a plug-in routine's name),
# every measurement jittered by 0.3% (Gaussian, seeded) and, from run 15
# on, stepped as each case says.  What each case expects follows from the
# definition of a finding: the changes of one machine and profile with the
# same routine, the same direction and the same first run after are one.
#   A. hist:k x 1.047 in all nine methods: its ticks/iter and ns/iter
#      series (18) step together -> one finding, "+4.7%", "all 9 methods",
#      both units, 18 series; with -v each of the 18 named, --ids their ids.
#   B. hist:k x 1.047 and add100 x 0.90, both at run 15 -> two findings, a
#      regression of hist:k and an improvement of add100.
#   D. as A, with another firmware image (system.firmware_id) from run 15:
#      `history serve`'s /api/changes gives each change the two runs'
#      provenance and what differs, the firmware image named (A's changes:
#      unexplained, nothing recorded differs).
#   C. the TSC runs 4.7% faster (methods.tick_hz x 1.047) and every
#      routine's ticks with it: the ns/iter series do not move -> one
#      finding per routine (no routine twice), each of ticks/iter alone,
#      none of ns/iter.
# Prints PASS:/FAIL: lines.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
B=$BUILD/host/baremark
W=$BUILD/tests/history-findings
rm -rf "$W"
mkdir -p "$W"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

python3 - "$TOP/tests/fixtures/run-quick.json" "$W" <<'PY'
import copy, json, os, random, sys
base = json.load(open(sys.argv[1]))
cases = {"A": {"hist:k": 1.047}, "B": {"hist:k": 1.047, "add100": 0.90}, "C": "tsc", "D": {"hist:k": 1.047}}
for case, step in cases.items():
    rng = random.Random(11)
    out = os.path.join(sys.argv[2], case, "box")
    os.makedirs(out)
    for i in range(30):
        d = copy.deepcopy(base)
        d["name"] = "202611%02d-0300%02d" % (1 + i // 10, i)
        d["system"]["started"] = "2026-11-%02dT03:00:%02d" % (1 + i // 10, i)
        after = i >= 15
        meth = d["methods"]
        if case == "C" and after:
            meth["tick_hz"] = round(meth["tick_hz"] * 1.047)
        if case == "D" and after:                   # another firmware image under the step
            d["system"]["firmware_id"] = "5eed" * 16
        for m in meth["measurements"]:
            if m["target"] == "foo":
                m["target"] = "hist:k"
                m["name"] = "hist:k/" + m["method"]
            f = 1 + 0.003 * rng.gauss(0, 1)
            if after:
                f *= 1.047 if step == "tsc" else step.get(m["target"], 1.0)
            net = m.get("net")
            if isinstance(net, dict):
                for k in ("min", "median", "mean", "max", "q1", "q3", "mode", "trimmed_mean"):
                    if isinstance(net.get(k), (int, float)):
                        net[k] *= f
        json.dump(d, open(os.path.join(out, d["name"] + ".json"), "w"))
PY
for c in A B C D; do
    "$B" history add --db "$W/$c.db" --quiet "$W/$c" > "$W/add$c.txt" 2>&1 ||
        fail "case $c: the 30 runs are added" "$(tail -3 "$W/add$c.txt" | tr '\n' '|')"
    "$B" history show --db "$W/$c.db" > "$W/show$c.txt" 2>&1
    "$B" history show --db "$W/$c.db" -v > "$W/show$c-v.txt" 2>&1
    "$B" history show --db "$W/$c.db" --ids > "$W/show$c-ids.txt" 2>&1
done
if grep -q '^history: 30 runs added, 0 already stored, 0 skipped' "$W/addA.txt"; then
    pass "A: 30 constructed runs stored (each valid)"
else
    fail "A: 30 constructed runs stored" "$(tail -3 "$W/addA.txt" | tr '\n' '|')"
fi

# A: one finding for 18 series.
n=$(grep -c '^  \(regression\|improvement\|change\) ' "$W/showA.txt")
line=$(grep '^  regression  hist:k ' "$W/showA.txt")
rel=$(printf '%s\n' "$line" | sed -n 's/^  regression  hist:k \([-+][0-9.]*\)% .*/\1/p')
if [ "$n" = 1 ] && printf '%s\n' "$line" | grep -q '\[quick\]: all 9 methods (ns/iter, ticks/iter; 18 series), p ' &&
    awk -v r="$rel" 'BEGIN { exit !(r >= 4.2 && r <= 5.2) }'; then
    pass "A: 18 series stepping at one run are one finding: hist:k $rel%, all 9 methods, both units"
else
    fail "A: one finding naming all nine methods" "$n findings; $(head -6 "$W/showA.txt" | tr '\n' '|')"
fi
if grep -q '^1 finding (1 regression) from 18 changes;' "$W/showA.txt"; then
    pass "A: the summary counts 1 finding from 18 changes"
else
    fail "A: the summary line" "$(tail -1 "$W/showA.txt")"
fi
if ! grep -q 'meas_' "$W/showA.txt" && [ "$(grep -c '^      - hist:k, [a-z+-]*, \(ticks\|ns\)/iter: ' "$W/showA-v.txt")" = 18 ] &&
    [ "$(grep -c '^      - hist:k, cpuid+rdtsc, \(ticks\|ns\)/iter: ' "$W/showA-v.txt")" = 2 ]; then
    pass "A: series named as a reader knows them (no LAVA id); -v lists the 18, cpuid+rdtsc in both units"
else
    fail "A: reader's names, -v details" "$(grep -m3 '^      - ' "$W/showA-v.txt" | tr '\n' '|')"
fi
if grep -q '^      - hist:k, cpuid+rdtsc, ticks/iter (meas_hist_k_cpuid_rdtsc_ticks): ' "$W/showA-ids.txt"; then
    pass "A: --ids keeps the LAVA id beside the name"
else
    fail "A: --ids" "$(grep -m2 '^      - ' "$W/showA-ids.txt" | tr '\n' '|')"
fi
"$B" history check --db "$W/A.db" --since 20261101-030005 --threshold 2 > "$W/checkA.txt"; rc=$?
if [ $rc = 1 ] && [ "$(grep -c '^REGRESSION on box$' "$W/checkA.txt")" = 1 ] &&
    grep -q '^  regression  hist:k +[0-9.]*% .*all 9 methods' "$W/checkA.txt"; then
    pass "A: check reports the one finding once (exit 1)"
else
    fail "A: check" "rc $rc; $(head -3 "$W/checkA.txt" | tr '\n' '|')"
fi

# B: two routines, two findings.
if [ "$(grep -c '^  \(regression\|improvement\|change\) ' "$W/showB.txt")" = 2 ] &&
    grep -q '^  regression  hist:k +[0-9.]*% .*all 9 methods (ns/iter, ticks/iter; 18 series)' "$W/showB.txt" &&
    grep -q '^  improvement add100 -[0-9.]*% .*all 9 methods (ns/iter, ticks/iter; 18 series)' "$W/showB.txt"; then
    pass "B: two routines stepping at one run are two findings (a regression, an improvement)"
else
    fail "B: two findings" "$(grep '^  [a-z]' "$W/showB.txt" | tr '\n' '|')"
fi

# C: ticks step, ns do not: a finding per routine (no routine twice), of
# ticks/iter alone; the five routines with a real net time in all 9
# methods ("empty", the placeholder against itself, is as its series show).
n=$(grep -c '^  regression ' "$W/showC.txt")
twice=$(sed -n 's/^  regression  \([^ ,]*\).*/\1/p' "$W/showC.txt" | sort | uniq -d)
nt=$(grep -c '^  regression  \(add10\|add100\|add1000\|strlen\|hist:k\) +[0-9.]*% .*all 9 methods (ticks/iter; 9 series)' "$W/showC.txt")
if [ "$n" -ge 5 ] && [ "$n" -le 6 ] && [ -z "$twice" ] && [ "$nt" = 5 ] && ! grep -q 'ns/iter' "$W/showC.txt"; then
    pass "C: a faster TSC moves ticks, not ns: one ticks-only finding per routine ($n), no ns/iter"
else
    fail "C: ticks-only findings" "$n findings, $nt ticks-only, twice: $twice; $(grep '^  [a-z]' "$W/showC.txt" | head -8 | tr '\n' '|')"
fi

# D (and A): /api/changes carries each change's provenance either side and
# what differs, as history show says it.  Expected from what was planted:
# D's runs from 15 on carry another firmware_id, A's nothing else.
printf 'findings key\n' > "$W/key"
api_changes() {     # DB OUT: the server's /api/changes for the store
    "$B" history serve --listen 127.0.0.1:0 --db "$1" --key-file "$W/key" 2> "$2.err" &
    spid=$!
    i=0
    while [ $i -lt 100 ] && ! grep -q 'listening on' "$2.err"; do sleep 0.1; i=$((i + 1)); done
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$2.err")
    curl -s "http://127.0.0.1:$port/api/changes" > "$2"
    kill "$spid"; wait "$spid" 2>/dev/null
}
api_changes "$W/D.db" "$W/changesD.json"
api_changes "$W/A.db" "$W/changesA.json"
if out=$(python3 - "$TOP/tests/fixtures/run-quick.json" "$W/changesD.json" "$W/changesA.json" 2>&1 <<'PY'
import json, sys
old = json.load(open(sys.argv[1]))["system"]["firmware_id"]
new = "5eed" * 16
d, a = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert d and a, "no change served (D %d, A %d)" % (len(d), len(a))
for c in d:
    assert c["last_before"]["firmware_id"] == old and c["first_after"]["firmware_id"] == new, c["first_after"]
    assert c["explained"] is True and c["differs"] == "firmware image %s -> %s" % (old[:12], new[:12]), c["differs"]
    assert c["last_before"]["name"] == "20261102-030014" and c["first_after"]["name"] == "20261102-030015", c["first_after"]["name"]
for c in a:
    assert c["explained"] is False and c["differs"].startswith("unexplained: "), c["differs"]
print("%d and %d changes" % (len(d), len(a)))
PY
); then
    pass "D: /api/changes names the planted firmware image in each change ($out: D, A) with both runs' provenance; A's are unexplained"
else
    fail "D: /api/changes attributes each change" "$(printf '%s\n' "$out" | tail -1)"
fi
