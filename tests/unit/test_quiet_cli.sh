#!/bin/sh
# tests/unit/test_quiet_cli.sh - `baremark quiet` (the quiet-machine check
# under Linux) and `baremark validate` on the clock section: the real layout
# of tests/fixtures/run-guess.json validates, and each broken figure is
# named.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=build/host/baremark
T=${TMPDIR:-/tmp}/test_quiet_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { # check NAME CONDITION-EXIT-STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1 (${3:-})"; fi
}
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi

# ---- quiet --------------------------------------------------------------------
$B quiet --seconds 0.05 > "$T/q.out" 2>&1; rc=$?
check "quiet: exit 0" $rc "$(cat "$T/q.out")"
check "quiet: the TSC rate line (measured against CLOCK_MONOTONIC_RAW)" \
    $(grep -Eq '^quiet: TSC at [0-9]+\.[0-9]{3} kHz \(measured against CLOCK_MONOTONIC_RAW\)' "$T/q.out"; echo $?)
check "quiet: 50 ms, not masked, reads and the largest gap" \
    $(grep -Eq '^quiet: 50 ms \(interrupts not masked\): [1-9][0-9]* reads, each [0-9.]+ us; largest gap [0-9]+ ticks' "$T/q.out"; echo $?) \
    "$(cat "$T/q.out")"
check "quiet: the gap counts and the rate" \
    $(grep -Eq '^quiet: gaps over 1 us [0-9]+, 10 us [0-9]+, 100 us [0-9]+, 1 ms [0-9]+; [0-9.]+ gaps over 1 us per second$' "$T/q.out"; echo $?)

$B quiet --seconds 0.05 --json > "$T/q.json" 2> "$T/q.err"; rc=$?
check "quiet --json: exit 0, JSON only on standard output" \
    $([ $rc = 0 ] && jq -e . "$T/q.json" > /dev/null; echo $?) "$(head -c 300 "$T/q.json")"
$B validate "$T/q.json" > "$T/v" 2>&1
check "quiet --json: the document validates" $? "$(cat "$T/v")"
/usr/bin/python3 - "$T/q.json" > "$T/py" 2>&1 <<'PY'
# The figures, from the document's own counts and the time: thresholds
# are 1 us etc. of tick_hz, so the counts nest and the rate follows.
import json, sys
d = json.load(open(sys.argv[1]))
q = d["quiet"]
bad = []
if d.get("platform") != "linux" or q["masked"] is not False:
    bad.append("platform %r masked %r" % (d.get("platform"), q["masked"]))
if q["ms"] != 50:
    bad.append("ms %r" % q["ms"])
secs = q["elapsed_ticks"] / q["tick_hz"]
# first to last read: at least the 50 ms deadline in whole ticks (bench/system/quiet.c)
if not (q["elapsed_ticks"] >= q["tick_hz"] * 50 // 1000 and secs < 0.5):
    bad.append("elapsed %.4f s for 50 ms" % secs)
if not q["reads"] > 1000:
    bad.append("reads %r" % q["reads"])
if abs(q["gaps_per_second"] - q["gaps_over_1us"] / secs) > 1e-6 * max(1, q["gaps_per_second"]):
    bad.append("rate %r" % q["gaps_per_second"])
if not q["min_gap_ticks"] <= q["max_gap_ticks"]:
    bad.append("min > max")
if q["max_gap_ticks"] > q["tick_hz"] // 10**6 and q["gaps_over_1us"] == 0:
    bad.append("largest gap over 1 us but no gap counted")
print("; ".join(bad) or "ok")
PY
check "quiet --json: 50 ms of reads, rate = gaps over 1 us per second, largest gap counted" \
    $(grep -qx ok "$T/py"; echo $?) "$(cat "$T/py")"
$B quiet --seconds 0.02 --json "$T/q2.json" > "$T/q2.out" 2>&1; rc=$?
check "quiet --json FILE: text on standard output, the document in FILE" \
    $([ $rc = 0 ] && grep -q '^quiet: 20 ms' "$T/q2.out" && jq -e '.quiet.ms == 20' "$T/q2.json" > /dev/null; echo $?)
$B quiet --seconds 0 > /dev/null 2>&1
check "quiet --seconds 0: exit 2" $([ $? = 2 ]; echo $?)
$B quiet --seconds 61 > /dev/null 2>&1
check "quiet --seconds 61: exit 2 (the image's QUIETMS stops at 60 s)" $([ $? = 2 ]; echo $?)
$B quiet --seconds x > /dev/null 2>&1
check "quiet --seconds x: exit 2" $([ $? = 2 ]; echo $?)
$B quiet --nonsense > /dev/null 2>&1
check "quiet --nonsense: usage, exit 2" $([ $? = 2 ]; echo $?)

# ---- validate: the clock section ----------------------------------------------
G=tests/fixtures/run-guess.json
# Only the clock's lines count here: other sections have their own tests.
$B validate $G > "$T/v" 2>&1
check "validate: the fixture's clock section (real layout) has no problem" \
    $(! grep -q ': clock' "$T/v"; echo $?) "$(grep ': clock' "$T/v" | tr '\n' '|')"
bad() { # bad NAME JQ-FILTER EXPECTED-MESSAGE-REGEX
    jq "$2" $G > "$T/b.json"
    $B validate "$T/b.json" > "$T/v" 2>&1; rc=$?
    check "validate: $1" $([ $rc = 1 ] && grep -Eq "$3" "$T/v"; echo $?) "$(grep ': clock' "$T/v" | tr '\n' '|')"
}
bad "chosen_khz differs from its source" '.clock.chosen_khz += 1' \
    'clock: chosen_khz .* is not the source.s khz'
bad "a reference's kHz is not its window's (by 0.2 ppm)" '.clock.references[0].khz += 0.5' \
    'references\[0\] \(hpet\): khz .* is not windows\[window_used\]'
bad "a window array one short" '.clock.references[2].windows_ms |= .[1:]' \
    'references\[2\] \(pit\): windows_ms does not have one entry per window'
bad "window_used out of range" '.clock.references[1].window_used = 7' \
    'window_used 7 is not one of the 2 windows'
bad "the window used is rejected" '.clock.references[1].windows_rejected[1] = true' \
    'the window used is marked rejected'
bad "a pair's ppm does not follow from the kHz" '.clock.agreement.pairs[1].ppm = 5' \
    'agreement.pairs\[1\]: ppm 5 is not \(a - b\) / b'
bad "agree contradicts the bound" '.clock.agreement.agree = false' \
    'agree does not follow'
bad "an unknown reference name" '.clock.references[0].name = "tsc"' \
    'references\[0\].name: "tsc" is not one of'
bad "quiet counts that do not nest" '.clock.quiet.gaps_over_10us = 99' \
    'clock.quiet: gaps_over_1us \(3\) is less than a count it contains \(99\)'
bad "quiet rate that is not count over time" '.clock.quiet.gaps_per_second = 1' \
    'gaps_per_second 1 is not gaps_over_1us'
bad "agreement missing" 'del(.clock.agreement)' \
    'clock.agreement: missing'
bad "chosen_khz given without a source" 'del(.clock.source)' \
    'chosen_khz is given but no source'
