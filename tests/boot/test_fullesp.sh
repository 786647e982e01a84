#!/bin/bash
# Boot test: a full ESP.  The run completes, says the ESP is full, exits 2,
# and an earlier run's files stay byte for byte.
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
