#!/bin/bash
# Boot test: every results file an image writes validates against
# docs/results-schema.md (`baremark validate`), and tools/baremark-results
# copies and lists it.  One boot with the quick profile keeps it short.
. "$(dirname "$0")/lib.sh"
B=${BAREMARK_HOST:-$BUILD/host/baremark}
[ -n "${BAREMARK_HOST:-}" ] || make -s -C "$TOP" host >/dev/null 2>&1
[ -x "$B" ] || { fail "results: build/host/baremark builds" "make host failed"; exit 0; }

img=$(fresh_image results)
boot results "$img" --options "profile=quick"
[ "$BOOT_RC" = 0 ] || [ "$BOOT_RC" = 2 ] && pass "results: quick run completed (run-qemu exit $BOOT_RC)" ||
    fail "results: quick run completed" "run-qemu exit $BOOT_RC; $(tail -3 "$BOOT_LOG" | tr '\n' '|')"

out=$TEST_TMP/results.files
rm -rf "$out"
"$TOP/tools/baremark-results" "$img" "$out" > "$TEST_TMP/results.list" 2>&1
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
[ -n "$name" ] && [ -f "$out/$name.json" ] && pass "results: baremark-results copied this run's JSON ($name.json)" ||
    fail "results: baremark-results copied this run's JSON" "name '$name'; $(tr '\n' '|' < "$TEST_TMP/results.list")"
grep -Eq "^$name .* $(jq -r .status "$out/$name.json" 2>/dev/null) (completed|could)" "$TEST_TMP/results.list" &&
    pass "results: baremark-results lists the run with its status" ||
    fail "results: baremark-results lists the run with its status" "$(tr '\n' '|' < "$TEST_TMP/results.list")"

n=0
for f in "$out"/*.json; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    if "$B" validate "$f" > "$TEST_TMP/results.validate" 2>&1; then
        pass "results: $(basename "$f") validates ($(tail -1 "$TEST_TMP/results.validate" | sed 's/.*: //'))"
    else
        fail "results: $(basename "$f") validates" "$(tr '\n' '|' < "$TEST_TMP/results.validate")"
    fi
done
[ $n -ge 1 ] && pass "results: $n results file(s) checked" || fail "results: at least one results file" "none in $out"

# Sections this run wrote: each one listed, so a reader sees what was checked.
if [ -f "$out/$name.json" ]; then
    secs=$(jq -r 'to_entries | map(select(.key != "errors" and (.value | type == "object" or type == "array"))) | map(.key) | join(" ")' "$out/$name.json")
    # the default run: every section of bench/sections.def not off by
    # default, in its order, each written as it completed under its label
    want="build settings system$(awk -F, '/^SECTION\(/ { sub(/^SECTION\(/, "", $1); gsub(/[ "]/, "", $1);
        gsub(/[ "]/, "", $2); if ($4 !~ /OFF_BY_DEFAULT/) printf " %s", ($2 == "NULL" ? $1 : $2) }' "$TOP/bench/sections.def")"
    [ "$secs" = "$want" ] &&
        pass "results: sections in this run: $secs" ||
        fail "results: every section of the default run ($want)" "$secs"
    # Every measuring section ran with OVMF's timer stopped in each phase.
    q=$(jq -r '[.methods, .comparisons, .bytemark] | map(.quiet_phases | "\(.timer_stopped_phases)/\(.phases)") | join(" ")' "$out/$name.json")
    jq -e '[.methods, .comparisons, .bytemark] | all(.quiet_phases.phases > 0 and
            .quiet_phases.timer_stopped_phases == .quiet_phases.phases and .quiet_phases.timer_period_100ns > 0)' \
        "$out/$name.json" > /dev/null &&
        [ "$(grep -c '^\(methods\|comparisons\|bytemark\): firmware timer stopped in each of its [0-9]* measuring phases' "$BOOT_LOG")" = 3 ] &&
        pass "results: methods, comparisons and bytemark measured with the firmware timer stopped in every phase ($q)" ||
        fail "results: the firmware timer stopped in every measuring phase" "$q; $(grep 'measuring phases' "$BOOT_LOG" | tr '\n' '|')"
    # A corrupted copy must not validate: the validator can fail.
    jq '.status = "0" | .system.cpu_brand = 5' "$out/$name.json" > "$TEST_TMP/results.bad.json"
    "$B" validate "$TEST_TMP/results.bad.json" > "$TEST_TMP/results.bad.out" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q 'status: a string other than "interrupted"' "$TEST_TMP/results.bad.out" &&
        grep -q 'system.cpu_brand: expected a string' "$TEST_TMP/results.bad.out" &&
        pass "results: a damaged copy is rejected with the field named" ||
        fail "results: a damaged copy is rejected" "rc $rc: $(tr '\n' '|' < "$TEST_TMP/results.bad.out")"
fi
