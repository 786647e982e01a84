#!/bin/bash
# Boot test: OUTFILE (issue 15.5).  BYTEmark's OUTFILE=NAME makes the image
# write a copy of the run's log as \baremark\NAME on the stick: the same
# bytes as the run's own .log.  A value that could reach outside
# \baremark\ (a path with "..", a drive) is refused with a warning (status
# 2) and nothing is written anywhere.  Two short boots (no section runs).
. "$(dirname "$0")/lib.sh"

# ---- a plain name: the copy is written --------------------------------------------
img=$(fresh_image outfile)
boot outfile "$img" --options "sections=none outfile=NBENCH.LOG"
expect_rc 0 "OUTFILE=NBENCH.LOG: run-qemu exit 0"
expect_line '^outfile: this log copied to \\baremark\\NBENCH\.LOG \(OUTFILE\)$' "OUTFILE=NBENCH.LOG: said on serial"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
esp_cat "$img" "baremark/$name.log" > "$TEST_TMP/outfile.run.log" 2>/dev/null
esp_cat "$img" baremark/NBENCH.LOG > "$TEST_TMP/outfile.copy.log" 2>/dev/null
if [ -n "$name" ] && [ -s "$TEST_TMP/outfile.copy.log" ] && cmp -s "$TEST_TMP/outfile.run.log" "$TEST_TMP/outfile.copy.log"; then
    pass "OUTFILE=NBENCH.LOG: \\baremark\\NBENCH.LOG holds the same bytes as $name.log ($(wc -c < "$TEST_TMP/outfile.copy.log") bytes)"
else
    fail "OUTFILE=NBENCH.LOG: the copy equals the run's log" \
        "run $name: $(wc -c < "$TEST_TMP/outfile.run.log") vs $(wc -c < "$TEST_TMP/outfile.copy.log") bytes"
fi
grep -q '^outfile: this log copied' "$TEST_TMP/outfile.copy.log" &&
    pass "OUTFILE=NBENCH.LOG: the copy includes its own line" || fail "OUTFILE: the copy includes its own line"

# ---- a path out of \baremark\: refused, nothing written -------------------------------
img=$(fresh_image outfile-bad)
before=$(mdir -/ -b -i "$img@@1M" ::/ 2>/dev/null | grep -v '^::/baremark/' | sort)
boot outfile-bad "$img" --options 'sections=none outfile=..\EFI\BOOT\BOOTX64.EFI'
expect_rc 2 "OUTFILE=..\\EFI\\BOOT\\BOOTX64.EFI: run-qemu exit 2 (a warning)"
expect_line "^warning: .*OUTFILE: '\.\.\\\\EFI\\\\BOOT\\\\BOOTX64\.EFI' refused: '\.\.' is not allowed" \
    "OUTFILE with ..: refused with a warning naming it"
expect_no_line '^outfile: ' "OUTFILE with ..: no copy announced"
after=$(mdir -/ -b -i "$img@@1M" ::/ 2>/dev/null | grep -v '^::/baremark/' | sort)
[ "$before" = "$after" ] && pass "OUTFILE with ..: no file outside \\baremark\\ created or replaced" ||
    fail "OUTFILE with ..: nothing outside \\baremark\\" "$(diff <(echo "$before") <(echo "$after") | head -3)"
cmp -s <(esp_cat "$img" EFI/BOOT/BOOTX64.EFI) "$BUILD/baremark.efi" &&
    pass "OUTFILE with ..: the boot loader is untouched" || fail "OUTFILE with ..: the boot loader is untouched"
n=$(esp_ls "$img" baremark | grep -vc '^[0-9]\{8\}-[0-9]\{6\}\.\(log\|json\)$')
[ "$n" = 0 ] && pass "OUTFILE with ..: nothing but the run's files in \\baremark\\" ||
    fail "OUTFILE with ..: nothing but the run's files" "$(esp_ls "$img" baremark | tr '\n' ' ')"
json=$(esp_ls "$img" baremark | grep '\.json$' | tail -1)
esp_cat "$img" "baremark/$json" | jq -e '.status == 2 and (.errors | any(test("OUTFILE.*refused")))' >/dev/null &&
    pass "OUTFILE with ..: the JSON's errors name it, status 2" || fail "OUTFILE with ..: in the JSON's errors"
