#!/bin/bash
# Boot test: the BYTEmark kernels' checks run inside the image (VERIFY=T)
# and give exactly the hosted program's PASS lines: the same checks, the
# same results, on bare metal (here under QEMU) and under Linux.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image verify)
host=$TEST_TMP/verify.host
"$BUILD/host/baremark" verify > "$host" 2>&1
host_rc=$?

boot verify "$img" --options "sections=none verify=t"
expect_rc 0 "run-qemu exit 0: every check passed in the image"
expect_no_line '^FAIL: ' "no check failed in the image"
n_img=$(grep -c '^PASS: ' "$BOOT_LOG")
n_host=$(grep -c '^PASS: ' "$host")
[ "$host_rc" = 0 ] && pass "host: baremark verify exit 0 ($n_host checks)" ||
    fail "host: baremark verify exit 0" "exit $host_rc"
if [ "$n_img" -gt 0 ] && diff <(grep '^PASS: \|^FAIL: ' "$host") <(grep '^PASS: \|^FAIL: ' "$BOOT_LOG") >/dev/null; then
    pass "the image ran the same $n_img checks as the host, all passed, same order"
else
    fail "the image ran the same checks as the host" "image $n_img, host $n_host PASS lines; diff $(diff <(grep '^PASS: \|^FAIL: ' "$host") <(grep '^PASS: \|^FAIL: ' "$BOOT_LOG") | head -3 | tr '\n' '|')"
fi
json=$(esp_ls "$img" baremark | grep 'json$' | tail -1)
if [ -n "$json" ] && esp_cat "$img" "baremark/$json" |
    jq -e --argjson n "$n_img" '.verify.passed == $n and .verify.failed == 0' >/dev/null; then
    pass "the JSON verify section counts $n_img passed, 0 failed"
else
    fail "the JSON verify section counts the checks" "$(esp_cat "$img" "baremark/$json" | jq -c '.verify | del(.checks)' 2>&1 | head -c 200)"
fi
