#!/bin/bash
# Boot test: a full ESP.  The run completes, says the ESP is full, exits 2,
# and an earlier run's files stay byte for byte.  Then a nearly full one
# (below): the JSON the run saved last stays whole.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image fullesp)
echo "an earlier run" > "$TEST_TMP/19990101-000000.log"
mcopy -i "$img@@1M" "$TEST_TMP/19990101-000000.log" ::/baremark/ 2>/dev/null ||
    fail "fullesp: plant an earlier file" "mcopy failed"
esp_fill "$img"
mtype -i "$img@@1M" ::/baremark/19990101-000000.log > "$TEST_TMP/fullesp.before" 2>/dev/null
boot fullesp "$img" --options "sections=none"
expect_rc 2 "fullesp: run-qemu exit 2 (completed with warnings)"
expect_line '^warning: results not saved.*(full|EFI_VOLUME_FULL)' "fullesp: says the ESP is full"
expect_line '^cpu: ' "fullesp: system information still printed"
expect_line '^baremark: run ended, status 2 ' "fullesp: final line with status 2"
mtype -i "$img@@1M" ::/baremark/19990101-000000.log > "$TEST_TMP/fullesp.after" 2>/dev/null
cmp -s "$TEST_TMP/fullesp.before" "$TEST_TMP/fullesp.after" && [ -s "$TEST_TMP/fullesp.after" ] &&
    pass "fullesp: the earlier run's file is unchanged" || fail "fullesp: the earlier run's file is unchanged" "differs"
left=$(esp_ls "$img" baremark | grep -v '^19990101' | tr '\n' ' ')
[ -z "$left" ] && pass "fullesp: no empty result files left behind" || fail "fullesp: no empty result files left behind" "$left"
rm -f "$img"        # 64 MiB written in full: not kept

# Nearly full: room for the log and the first versions of the JSON, not for
# the second copy a later replacement needs (boot/file_replace.c writes
# NAME.json.new beside the old one).  Under -icount the run fails at the
# same write each time (the clock section's JSON).  The run says which
# write failed; the JSON it saved last stays whole and valid (interrupted
# where it was then); no NAME.json.new is left.
img=$(fresh_image nearfull)
free=$(mdir -i "$img@@1M" :: | sed -n 's/^ *\([0-9 ]*[0-9]\) bytes free.*/\1/p' | tr -d ' ')
# free must be a number above 12 KiB: `head -c -N /dev/zero` (an empty or
# failed reading) would write without end and fill the host's disk.
case $free in ''|*[!0-9]*) free=0 ;; esac
[ "$free" -gt 12288 ] &&
    head -c $((free - 12288)) /dev/zero > "$TEST_TMP/filler.$$" &&
    mcopy -i "$img@@1M" "$TEST_TMP/filler.$$" ::/FILLER.BIN &&
    mdir -i "$img@@1M" :: | grep -q '^ *12 288 bytes free' ||
    fail "nearly full: leave 12 KiB free on the ESP" "$(mdir -i "$img@@1M" :: | tail -1)"
rm -f "$TEST_TMP/filler.$$"
boot nearfull "$img" --icount --options "sections=clock"
expect_rc 2 "nearly full: run-qemu exit 2 (completed with warnings)"
expect_line '^warning: results not saved completely: the ESP is full \(EFI_VOLUME_FULL while writing the JSON results\)' \
    "nearly full: says the ESP is full and that the JSON could not be written"
names=$(esp_ls "$img" baremark | tr '\n' ' ')
j=$(esp_ls "$img" baremark | grep '\.json$')
esp_cat "$img" "baremark/$j" > "$TEST_TMP/nearfull.json" 2>/dev/null
if [ -n "$j" ] && "$BUILD/host/baremark" validate "$TEST_TMP/nearfull.json" > "$TEST_TMP/nearfull.validate" 2>&1 &&
   jq -e '.status == "interrupted" and .ended == false' "$TEST_TMP/nearfull.json" >/dev/null &&
   ! esp_ls "$img" baremark | grep -q '\.new$'; then
    pass "nearly full: the last JSON that fitted stays whole and valid ($(jq -r '"interrupted during \(.stage)"' "$TEST_TMP/nearfull.json")), no .new left"
else
    fail "nearly full: the last JSON stays whole, no .new" "$names $(head -1 "$TEST_TMP/nearfull.validate" 2>/dev/null)"
fi
rm -f "$img"
