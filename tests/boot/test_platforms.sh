#!/bin/bash
# Boot tests: platforms that lack something.  A capability the platform
# simply lacks is reported, not a warning (status 0); a CPU without a TSC
# cannot be measured at all (one clear fatal line, status 3).
. "$(dirname "$0")/lib.sh"
img=$(fresh_image platforms)

boot notsc "$img" --cpu qemu64,-tsc --options "sections=none"
expect_rc 3 "no TSC: run-qemu exit 3 (could not run)"
expect_line '^fatal: this CPU has no time-stamp counter' "no TSC: one clear fatal line"
expect_line '^cpu: ' "no TSC: system information printed before giving up"
expect_line '^baremark: run ended, status 3 \(could not run\)$' "no TSC: final line with status 3"
json=$(esp_ls "$img" baremark | grep 'json$' | tail -1)
if [ -n "$json" ] && esp_cat "$img" "baremark/$json" | jq -e '.status == 3 and (.errors | length) == 1 and (.errors[0] | test("no time-stamp counter"))' >/dev/null; then
    pass "no TSC: the JSON says status 3 and why"
else
    fail "no TSC: the JSON says status 3 and why" "$json"
fi

boot maxcpu "$img" --cpu max --options "sections=none"
expect_rc 0 "cpu max: run-qemu exit 0"
expect_line '^tsc: rdtsc yes, rdtscp yes, invariant TSC (yes|no)$' "cpu max: rdtscp reported present"
