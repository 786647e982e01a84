#!/bin/bash
# Boot test: a write-protected stick.  The run completes on serial, says
# once and clearly that results were not saved and why, exits with status 2,
# and the stick is unchanged.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image readonly)
sum0=$(sha256sum < "$img")
boot readonly "$img" --readonly --options "sections=none"
expect_rc 2 "readonly: run-qemu exit 2 (completed with warnings)"
expect_line '^warning: results not saved: the ESP is write-protected' "readonly: says results were not saved and why"
n=$(grep -c '^warning: results not saved' "$BOOT_LOG")
[ "$n" = 1 ] && pass "readonly: said once" || fail "readonly: said once" "said $n times"
expect_line '^cpu: ' "readonly: system information still printed"
expect_line '^baremark: run ended, status 2 \(completed with warnings\)$' "readonly: final line with status 2"
[ "$(sha256sum < "$img")" = "$sum0" ] && pass "readonly: the stick is unchanged" || fail "readonly: the stick is unchanged" "image changed"
