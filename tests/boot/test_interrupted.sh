#!/bin/bash
# Boot test: a run cut short reads as interrupted, in the section it was in.
# QEMU is killed (SIGKILL, as a power cut would stop the machine) as soon as
# the memory section prints its first line (the system section's "memory:
# 505 MiB" line starts with a digit).  The JSON left on the stick
# must be valid, say "status": "interrupted" with "stage": "memory", keep
# the sections finished before (clock) and not claim an end; every host
# tool (baremark-results' listing, validate, report, diff, fleet)
# must say "interrupted during memory", never "0 completed".
. "$(dirname "$0")/lib.sh"
img=$(fresh_image interrupted)
B=$BUILD/host/baremark
T=$TEST_TMP/interrupted-files
rm -rf "$T" && mkdir -p "$T"

boot_cut interrupted "$img" '^memory: [^0-9]' --options "sections=clock,memory profile=quick"
expect_rc 137 "QEMU killed at the memory section's first line"
expect_no_line '^baremark: run ended' "no final line (the run was cut)"

j=$(esp_ls "$img" baremark | grep 'json$' | sort | tail -1)
esp_cat "$img" "baremark/$j" > "$T/run.json" 2>/dev/null
if jq -e '.status == "interrupted" and .stage == "memory" and .ended == false
          and (.clock.chosen_khz > 0) and (has("memory") | not)' "$T/run.json" >/dev/null 2>&1; then
    pass "JSON: status interrupted, stage memory, the clock kept, no memory member, not ended"
else
    fail "JSON: interrupted during memory" "$(jq -c '{status, stage, ended, k: keys}' "$T/run.json" 2>&1 | head -c 300)"
fi

"$B" validate "$T/run.json" > "$T/validate" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q 'valid (schema 1.*; the run was interrupted during memory$' "$T/validate"; then
    pass "validate: valid, and says interrupted during memory"
else
    fail "validate" "exit $rc: $(head -3 "$T/validate" | tr '\n' '|')"
fi

"$TOP/tools/baremark-results" "$img" "$T/copied" > "$T/list" 2>&1
if grep -Eq "^${j%.json} .* interrupted during memory$" "$T/list" && ! grep -q 'completed' "$T/list"; then
    pass "baremark-results: the run listed as interrupted during memory"
else
    fail "baremark-results" "$(tr '\n' '|' < "$T/list")"
fi

"$B" report "$T/run.json" -o "$T/run.html" > /dev/null 2>&1
if grep -q 'id="verdict">interrupted during memory<' "$T/run.html"; then
    pass "report: the verdict badge says interrupted during memory"
else
    fail "report" "$(grep -o 'id="verdict">[^<]*' "$T/run.html")"
fi

"$B" diff "$T/run.json" "$T/run.json" > "$T/cmp" 2>&1
if grep -q '^A: .*), interrupted during memory: only the sections it finished$' "$T/cmp"; then
    pass "diff: each run's line says interrupted during memory"
else
    fail "diff" "$(head -2 "$T/cmp" | tr '\n' '|')"
fi

mkdir -p "$T/fleet/board-1" && cp "$T/run.json" "$T/fleet/board-1/"
"$B" fleet "$T/fleet" > "$T/fleet.txt" 2>&1
if grep -q '^  board-1 .*(1 run interrupted during memory)$' "$T/fleet.txt"; then
    pass "fleet: the machine's line says its run was interrupted during memory"
else
    fail "fleet" "$(head -3 "$T/fleet.txt" | tr '\n' '|')"
fi
