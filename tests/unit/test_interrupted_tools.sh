#!/bin/sh
# tests/unit/test_interrupted_tools.sh - the host tools on runs that never
# ended: tests/fixtures/results/20260101-120500.json ("status":
# "interrupted", "stage": "clock"), the same run as an older image wrote it
# (status 2, "ended": false, no stage) and malformed variants for validate.
# Every tool must say "interrupted during clock" (or "stage not recorded"),
# never "completed".  No boot.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
F=tests/fixtures/results/20260101-120500.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
check() { # NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
mkdir -p "$T/stick/baremark" "$T/fleet/board-1" "$T/fleet/board-2"
cp "$F" "$T/stick/baremark/"
jq 'del(.stage) | .status = 2 | .name = "20260101-130000"' "$F" > "$T/stick/baremark/20260101-130000.json"
cp "$F" "$T/fleet/board-1/"
cp "$T/stick/baremark/20260101-130000.json" "$T/fleet/board-2/"

"$B" validate "$F" > "$T/v" 2>&1
check "validate: an interrupted run is valid and said so" \
    $(grep -q 'valid (schema 1, 2 sections); the run was interrupted during clock$' "$T/v"; echo $?) "$(cat "$T/v")"
"$B" validate "$T/stick/baremark/20260101-130000.json" > "$T/v" 2>&1
check "validate: an older image's unfinished run (number, ended false) is valid, stage not recorded" \
    $(grep -q 'valid (schema 1, 2 sections); the run was interrupted (stage not recorded)$' "$T/v"; echo $?) "$(cat "$T/v")"
for bad in '.status = "done"' '.ended = true' 'del(.stage)' '.stage = "lunch"' '.stage = 7' '.status = null'; do
    jq "$bad" "$F" > "$T/bad.json"
    "$B" validate "$T/bad.json" > "$T/v" 2>&1; rc=$?
    check "validate: '$bad' is a problem named on status or stage (exit 1)" \
        $([ $rc -eq 1 ] && grep -Eq 'bad.json: (status|stage): ' "$T/v"; echo $?) "exit $rc: $(head -2 "$T/v" | tr '\n' '|')"
done

sh tools/baremark-results "$T/stick" "$T/out" > "$T/list" 2>&1
check "baremark-results: interrupted during clock" \
    $(grep -Eq '^20260101-120500 .* interrupted during clock$' "$T/list"; echo $?) "$(cat "$T/list")"
check "baremark-results: the older file: interrupted (stage not recorded), no completed" \
    $(grep -Eq '^20260101-130000 .* interrupted \(stage not recorded\)$' "$T/list" && ! grep -q completed "$T/list"; echo $?) \
    "$(cat "$T/list")"

"$B" report "$F" -o "$T/r.html" > /dev/null 2>&1
check "report: the verdict badge says interrupted during clock" \
    $(grep -q 'class="badge b-interrupted" id="verdict">interrupted during clock<' "$T/r.html"; echo $?) \
    "$(grep -o 'id="verdict">[^<]*' "$T/r.html")"

"$B" diff "$F" tests/fixtures/results/20260101-120000.json > "$T/c" 2>&1
check "diff text: A interrupted during clock, B as it was" \
    $(grep -q '^A: .*, interrupted during clock: only the sections it finished$' "$T/c" &&
      grep -q '^B: .*)$' "$T/c"; echo $?) "$(head -2 "$T/c" | tr '\n' '|')"
"$B" diff --json "$F" tests/fixtures/results/20260101-120000.json > "$T/c.json" 2>&1
check "diff --json: each run's state in words" \
    $(jq -e '.a.run == "interrupted during clock" and .b.run == "0 completed and saved"' "$T/c.json" >/dev/null; echo $?)

"$B" fleet "$T/fleet" > "$T/fl" 2>&1
check "fleet: each machine's line says its run was interrupted" \
    $(grep -q '^  board-1 .*(1 run interrupted during clock)$' "$T/fl" &&
      grep -q '^  board-2 .*(1 run interrupted (stage not recorded))$' "$T/fl"; echo $?) "$(head -3 "$T/fl" | tr '\n' '|')"
