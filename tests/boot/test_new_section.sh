#!/bin/bash
# Boot test: a new section is one file plus one row (docs/adding-a-section.md).
# tests/fixtures/section/example.c (a section written by the recipe: its run
# function and its figure table) and example.def (its row) are built into
# an image and a hosted program with `make extra-section`, touching no other
# file; one -icount boot with SECTIONS=clock,example.  The section's figure
# must then be everywhere a built-in one is: its text on serial, its LAVA
# case in a block after that text (made by the image from its table row and
# its member: the section calls no LAVA function), its results member in the JSON, its row
# in the run's summary (from its table's headline), `baremark show`, the
# HTML report (a fold with that headline) and the fleet table, all with the
# same number.
. "$(dirname "$0")/lib.sh"
X=$BUILD/extra/example
W=$TEST_TMP/new_section
rm -rf "$W"
mkdir -p "$W"
if ! make -s -C "$TOP" extra-section EXTRA_SECTION=tests/fixtures/section/example > "$W/make.log" 2>&1; then
    fail "make extra-section builds the example section" "$(tail -3 "$W/make.log" | tr '\n' '|')"
    exit 0
fi
pass "make extra-section: the example's image and hosted program built from one file and one row"
git -C "$TOP" status --porcelain -- bench boot kernel tools > "$W/touched" 2>/dev/null
cp "$X/baremark.img" "$W/example.img"
boot new_section "$W/example.img" --icount --options "sections=clock,example quietms=50 lava=t"
expect_rc 0 "example: run-qemu exit 0"
n=$(sed -n 's/^example: two back-to-back TSC reads \([0-9]*\) ticks apart at best (16 tries)$/\1/p' "$BOOT_LOG")
[ -n "$n" ] && pass "example: its text on serial ($n ticks)" || { fail "example: its text on serial" "no line"; exit 0; }
if grep -q 'lava_' "$TOP/tests/fixtures/section/example.c"; then
    fail "example: the section prints no LAVA line itself" "tests/fixtures/section/example.c calls lava_*"
fi
[ "$(grep -c '"min_ticks"' "$TOP/tests/fixtures/section/example.c")" = 1 ] &&
    pass "example: its figure's name is spelled once, in its table's row (the writer names the row)" ||
    fail "example: its figure's name spelled once" "$(grep -n '"min_ticks"' "$TOP/tests/fixtures/section/example.c" | tr '\n' '|')"
grep -A1 '^example: two back-to-back' "$BOOT_LOG" | tail -1 |
    grep -q "^BAREMARK-LAVA case=example_min_ticks result=pass measurement=$n units=ticks\$" &&
    pass "example: its LAVA case from its table row and its member (the section calls no lava_case), right after its text" ||
    fail "example: its LAVA case after its text" "$(grep -A1 '^example: two back-to-back' "$BOOT_LOG" | tail -1)"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
esp_cat "$W/example.img" "baremark/$name.json" > "$W/run.json" 2>/dev/null
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['example']['min_ticks'] == int(sys.argv[2]) else 1)" \
    "$W/run.json" "$n" && pass "example: its results member in the JSON (min_ticks $n)" ||
    fail "example: its member in the JSON" "$(head -c 200 "$W/run.json")"
grep -q "^example   back-to-back reads $n ticks\$" "$BOOT_LOG" &&
    pass "example: its row in the serial summary, from its table's headline" ||
    fail "example: its row in the summary" "$(sed -n '/baremark summary/,/^baremark: run ended/p' "$BOOT_LOG" | tail -4 | tr '\n' '|')"
"$X/baremark" show "$W/run.json" | grep -q "^example   back-to-back reads $n ticks\$" &&
    pass "example: baremark show has the row too" || fail "example: baremark show" "no row"
"$X/baremark" report "$W/run.json" -o "$W/run.html" > /dev/null 2>&1
grep -q "back-to-back reads $n ticks" "$W/run.html" && grep -q '<details class="sec"[^>]*><summary><h2[^>]*>example</h2>' "$W/run.html" &&
    pass "example: the report folds it below its headline" ||
    fail "example: in the report" "$(grep -o '<h2[^<]*example[^<]*</h2>.\{0,120\}' "$W/run.html" | head -1)"
"$X/baremark" fleet --csv "$W/run.json" > "$W/fleet.csv" 2> "$W/fleet.err"
grep -q "^example_min_ticks,ticks,[^,]*,1,$n," "$W/fleet.csv" &&
    pass "example: the fleet table reads its figure from the JSON" || fail "example: in the fleet table" "$(grep example "$W/fleet.csv")"
"$X/baremark" validate "$W/run.json" > "$W/validate.txt" 2>&1 &&
    pass "example: the run's JSON validates" || fail "example: validate" "$(tail -2 "$W/validate.txt" | tr '\n' '|')"
[ ! -s "$W/touched" ] && pass "example: no file of the tree was changed to add it" ||
    fail "example: no other file touched" "$(head -3 "$W/touched" | tr '\n' '|')"
