#!/bin/sh
# `baremark show RUN.json` (tools/host/show/cmd_show.c) and
# `tools/baremark-results show RUN.json`: the run's summary on a terminal.
# Checks: the block between its markers (at most 40 rows), the target rows
# against D1 recomputed in Python (tests/unit/summary_d1.py), the A/B ratio
# and its interval against an independent Hodges-Lehmann computation in
# Python (run-guess.json's Foo vs FooBar), an interrupted run (JSON written
# before the memory section ended: "interrupted during memory"; the
# "interrupted" status word), warnings with their reasons, control
# characters from a hostile file shown as \xNN, exit codes.
set -u
cd "$(dirname "$0")/../.."
TOP=$(pwd)
BIN=$TOP/build/host/baremark
T=$TOP/build/tests/summary_show
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$BIN" ] || { fail "host program built" "no $BIN"; exit 1; }

"$BIN" show tests/fixtures/run-full.json > "$T/full.txt"
rc=$?
n=$(wc -l < "$T/full.txt")
run=$(jq -r .name tests/fixtures/run-full.json)
if [ $rc -eq 0 ] && head -1 "$T/full.txt" | grep -q "^=\{20\} baremark summary: $run =\{20\}\$" &&
   tail -1 "$T/full.txt" | grep -q '^=\{40,\}$' && [ "$n" -le 42 ]; then
    pass "show: exit 0, the block between its markers, $n lines (at most 42)"
else
    fail "show: the block" "exit $rc, $n lines"
fi
tools/baremark-results show tests/fixtures/run-full.json > "$T/full2.txt" 2>&1
cmp -s "$T/full.txt" "$T/full2.txt" && pass "baremark-results show: the same block" ||
    fail "baremark-results show: the same block" "$(head -2 "$T/full2.txt" | tr '\n' '|')"

# A/B: Hodges-Lehmann ratio of the slower's to the faster's time (the
# samples as stored: already net of the overhead loop, nothing subtracted
# again), its distribution-free 95% interval, and scipy's Mann-Whitney p;
# Foo vs FooBar (ABAB, an identical copy) is the placement check.
"$BIN" show tests/fixtures/run-guess.json > "$T/guess.txt"
if /usr/bin/python3 - tests/fixtures/run-guess.json "$T/guess.txt" > "$T/hl.txt" <<'PY'
import json, math, sys
from scipy import stats
d = json.load(open(sys.argv[1]))
c = d["comparisons"]["comparisons"][1]
a = c["a"]["samples"]
b = c["b"]["samples"]
diffs = sorted(math.log(y) - math.log(x) for y in b for x in a)   # B (slower) over A
n = len(diffs)
k = math.floor(n / 2 - 1.959963984540054 * math.sqrt(len(a) * len(b) * (len(a) + len(b) + 1) / 12))
mid = (diffs[(n - 1) // 2] + diffs[n // 2]) / 2
p = stats.mannwhitneyu(a, b, alternative="two-sided", use_continuity=True, method="asymptotic").pvalue
def g(x):
    s = "%.4g" % x
    return s
want = "Foo is %sx [%s, %s] faster than FooBar, p = %.1e (placement check)" % (
    g(math.exp(mid)), g(math.exp(diffs[k])), g(math.exp(diffs[n - 1 - k])), p)
line = [l for l in open(sys.argv[2]) if "faster than FooBar" in l]
print(want, "|", line)
sys.exit(0 if line and line[0].strip() == want else 1)
PY
then
    pass "A/B: Foo's ratio to FooBar and its interval are Python's Hodges-Lehmann"
else
    fail "A/B: Foo vs FooBar ratio" "$(grep FooBar "$T/guess.txt")"
fi

# Target rows: D1 (docs/statistics.md) recomputed in Python from the raw
# samples (tests/unit/summary_d1.py): the interval widened to the counter's
# step, "below 1 step, < X ns", "k of m" over the resolved estimates.
for f in run-full run-quick run-faults run-guess; do
    "$BIN" show tests/fixtures/$f.json > "$T/d1-$f.txt"
    if /usr/bin/python3 tests/unit/summary_d1.py tests/fixtures/$f.json "$T/d1-$f.txt" > "$T/d1-$f.out"; then
        pass "target rows of $f.json are D1's ($(grep -c '^ok' "$T/d1-$f.out") rows)"
    else
        fail "target rows of $f.json by D1" "$(grep '^FAIL' "$T/d1-$f.out" | head -2 | tr '\n' '|')"
    fi
done
grep -q '^          empty            below 1 step, < ' "$T/d1-run-quick.txt" && ! grep -q '^          empty  *0 ' "$T/d1-run-quick.txt" &&
    pass "a target every method found too short reads \"below 1 step\", never 0 ns" ||
    fail "empty: below 1 step" "$(grep '^          empty' "$T/d1-run-quick.txt")"
! grep -E '^          [a-z].*(\[-|[0-9]-[0-9])' "$T/d1-run-quick.txt" | grep -v ' faster than ' | grep -q . &&
    pass "no target interval with a negative end or written as a-b" ||
    fail "target intervals: negative or a-b" "$(grep -E '\[-|[0-9]-[0-9]' "$T/d1-run-quick.txt" | head -2)"

# An interrupted run: the JSON as written after bytemark, before memory ended.
/usr/bin/python3 - tests/fixtures/run-full.json "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("memory")
d["ended"] = False
d["errors"] = ["cores: CPU 1: NUMERIC SORT stopped: divide error\x1b[2J at RIP 0x1\x07", "second", "third", "fourth"]
d["status"] = 2
json.dump(d, open(sys.argv[2] + "/cut-memory.json", "w"))
d["status"] = "interrupted"
d["interrupted_in"] = "bytemark"
json.dump(d, open(sys.argv[2] + "/said.json", "w"))
PY
"$BIN" show "$T/cut-memory.json" > "$T/cut.txt"
# the time up to the last write: duration_ms in seconds, one decimal
took=$(jq -r .duration_ms tests/fixtures/run-full.json | awk '{ printf "%.1f", $1 / 1000 }')
grep -q "^verdict   interrupted during memory, 4 warnings; profile quick; last saved $took s into the run\$" "$T/cut.txt" &&
    pass "interrupted: during the first enabled section with no results (memory), 4 warnings" ||
    fail "interrupted: during memory" "$(sed -n 2p "$T/cut.txt")"
grep -q '^          warning: cores: CPU 1: NUMERIC SORT stopped: divide error\\x1b\[2J at RIP 0x1\\x07$' "$T/cut.txt" &&
    pass "hostile text: control characters shown as \\xNN" || fail "hostile text escaped" "$(sed -n 3p "$T/cut.txt")"
grep -q '^          (1 more warnings in the results)$' "$T/cut.txt" && ! grep -q '^memory ' "$T/cut.txt" &&
    pass "interrupted: three reasons shown, the fourth counted; no memory row" || fail "interrupted: reasons" "$(cat "$T/cut.txt" | head -8 | tr '\n' '|')"
"$BIN" show "$T/said.json" | grep -q '^verdict   interrupted during bytemark, ' &&
    pass "interrupted: the run's own word for the section (\"status\": \"interrupted\", interrupted_in)" ||
    fail "interrupted: the run's own word" "$("$BIN" show "$T/said.json" | sed -n 2p)"

# Bad input: one clear line, status 2; the others are still shown.
"$BIN" show tests/fixtures/results/20260101-121000.json tests/fixtures/run-guess.json > "$T/bad.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -Eq '^baremark show: tests/fixtures/results/20260101-121000.json:[0-9]+:[0-9]+: not valid JSON: .*; no summary shown$' "$T/bad.txt" &&
    ! grep -q 'unnamed run' "$T/bad.txt" &&
    grep -q 'Foo is ' "$T/bad.txt" && pass "a cut file: named with the place it stops (line:column), no summary made up for it, exit 2, the next file still shown" ||
    fail "a cut file" "exit $rc: $(head -3 "$T/bad.txt" | tr '\n' '|')"
"$BIN" show "$T/nope.json" > /dev/null 2> "$T/nope.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'no such file' "$T/nope.err" && pass "a missing file: named, exit 2" || fail "a missing file" "exit $rc"
"$BIN" show > /dev/null 2>&1
[ $? -eq 2 ] && pass "no file: usage, exit 2" || fail "no file: usage, exit 2"
