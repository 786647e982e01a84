#!/bin/sh
# tests/unit/test_stats_cli.sh - the `stats` and `compare` commands of the
# hosted program, against figures from tests/vectors/stats/make_vectors.py
# (expected_cli.txt).  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=build/host/baremark
V=tests/vectors/stats
T=${TMPDIR:-/tmp}/test_stats_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
fail=0
check() { # check NAME CONDITION-EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi
}
expect() { grep "^$1 " $V/expected_cli.txt | cut -d' ' -f3; }
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi

# A malformed line: its line number, exit status 2, no summary on stdout.
printf '12\n13\n# comment\n\n14.5.1\n15\n' > "$T/bad.txt"
$B stats "$T/bad.txt" > "$T/out" 2> "$T/err"; rc=$?
check "malformed line: exit status 2" $([ $rc -eq 2 ]; echo $?)
check "malformed line: message names line 5" $(grep -q 'bad.txt:5: not a number' "$T/err"; echo $?)
check "malformed line: no summary printed" $([ ! -s "$T/out" ]; echo $?)
printf '1\nNaN\n' | $B stats > /dev/null 2> "$T/err"; rc=$?
check "NaN is rejected with its line (stdin)" $([ $rc -eq 2 ] && grep -q '(stdin):2:' "$T/err"; echo $?)
printf '1\n99999999999999999999999\n' | $B stats --json > "$T/out" 2>/dev/null; rc=$?
check "an integer beyond 2^64 is read as a double, not wrapped" \
    $([ $rc -eq 0 ] && grep -q '"type":"double"' "$T/out"; echo $?)
$B stats $V/shifted_a.txt "$T/bad.txt" > /dev/null 2> "$T/err"; rc=$?
check "compare: malformed B gives exit 2 and the line" $([ $rc -eq 2 ] && grep -q ':5:' "$T/err"; echo $?)
$B stats "$T/nonexistent" > /dev/null 2>&1; rc=$?
check "missing file: exit status 2" $([ $rc -eq 2 ]; echo $?)

# Comments and blank lines are skipped; figures match the vectors.
$B stats $V/bimodal.txt > "$T/out"; rc=$?
check "stats bimodal: exit 0" $rc
check "stats bimodal: n" $(grep -q "n = $(expect 'bimodal n')" "$T/out"; echo $?)
check "stats bimodal: min" $(grep -Eq "^  min +$(expect 'bimodal min')\$" "$T/out"; echo $?)
check "stats bimodal: max" $(grep -Eq "^  max +$(expect 'bimodal max')\$" "$T/out"; echo $?)
check "stats bimodal: histogram and strip printed" \
    $(grep -q '^histogram' "$T/out" && grep -q '^raw samples' "$T/out"; echo $?)
check "stats bimodal: every line within 80 columns" \
    $([ "$(awk 'length > 80' "$T/out" | wc -l)" -eq 0 ]; echo $?)
$B stats < $V/near_2_63.txt > "$T/out"
check "stats near 2^63 (stdin): exact min" $(grep -Eq "^  min +$(expect 'near_2_63 min')\$" "$T/out"; echo $?)
check "stats near 2^63: exact max" $(grep -Eq "^  max +$(expect 'near_2_63 max')\$" "$T/out"; echo $?)
check "stats near 2^63: exact median" $(grep -Eq "^  median +$(expect 'near_2_63 median')\$" "$T/out"; echo $?)

# JSON is valid and carries the p-values scipy gives.
$B stats --json $V/shifted_a.txt $V/shifted_b.txt > "$T/cmp.json"; rc=$?
check "compare --json: exit 0" $rc
/usr/bin/python3 - "$T/cmp.json" $(expect 'shifted welch_p') $(expect 'shifted mw_p') <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["compare"]
ok = abs(d["welch_p"] - float(sys.argv[2])) <= 1e-6 * float(sys.argv[2]) + 1e-15
print(("PASS" if ok else "FAIL") + ": compare --json: Welch p as scipy")
ok = abs(d["mw_p"] - float(sys.argv[3])) <= 1e-6 * float(sys.argv[3]) + 1e-15
print(("PASS" if ok else "FAIL") + ": compare --json: Mann-Whitney p as scipy")
print(("PASS" if d["verdict"] == "no difference" else "FAIL")
      + ": compare: 0.8% median difference is within the default 1% noise")
PY
$B stats --noise 0.001 $V/shifted_a.txt $V/shifted_b.txt > "$T/out"
check "compare --noise 0.001: A is faster" $(grep -q 'A is faster than B' "$T/out"; echo $?)
$B stats --json $V/bimodal.txt | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null
check "stats --json is valid JSON" $?
exit $fail
