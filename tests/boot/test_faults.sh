#!/bin/bash
# Boot test: a CPU exception inside a test fails that test only.  The
# INJECTFAULT/INJECTIN settings raise a divide error inside a BYTEmark
# kernel's timed work (interrupts masked), an invalid opcode inside a timing
# method, and a page fault inside a target routine.  Each time: one line with
# the vector, RIP, error code and the test's name, the test marked failed,
# the tests after it still run, earlier results kept in the files, status 2.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image faults)
off="dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"

last_json() {
    local j
    j=$(esp_ls "$img" baremark | grep 'json$' | sort | tail -1)
    esp_cat "$img" "baremark/$j"
}

# 1. divide error in numeric sort; string sort comes after it.
boot kernel "$img" --options "sections=clock,bytemark profile=quick injectfault=divide injectin=numsort $off"
expect_rc 2 "kernel: run-qemu exit 2 (completed with warnings)"
expect_line '^fault injection: divide fault in numsort' "kernel: the fault went off in numsort"
expect_line '^warning: bytemark: NUMERIC SORT stopped by a CPU exception: #DE divide error \(vector 0\) at RIP 0x[0-9a-f]+, error code 0x0$' \
    "kernel: one line with the test, vector, RIP and error code"
expect_line '^STRING SORT +: +[0-9]+\.[0-9]+ +:' "kernel: the next test (string sort) still ran and scored"
expect_line '^baremark: run ended, status 2 ' "kernel: the run completed"
if last_json | jq -e '.ended and .status == 2 and (.clock.chosen_khz > 0)
        and .bytemark.tests[0].status == "failed_fault" and (.bytemark.tests[0].why | test("vector 0"))
        and .bytemark.tests[1].status == "ok" and .bytemark.tests[1].runs >= 3
        and (.errors | length) == 1' >/dev/null; then
    pass "kernel: JSON keeps the clock, marks numsort failed, scores strsort, one error"
else
    fail "kernel: JSON" "$(last_json | jq -c '{status, errors, t: [.bytemark.tests[0:2][] | {key, status}]}' 2>&1 | head -c 300)"
fi

# 2. invalid opcode in a timing method.
boot method "$img" --options "sections=clock,methods profile=quick injectfault=opcode injectin=method:lfence_rdtsc"
expect_rc 2 "method: run-qemu exit 2"
expect_line '^fault injection: opcode fault in method:lfence_rdtsc' "method: the fault went off in lfence_rdtsc"
expect_line 'lfence_rdtsc.*#UD invalid opcode \(vector 6\) at RIP 0x[0-9a-f]+, error code 0x0' \
    "method: a line with the method, vector, RIP and error code"
expect_line '^baremark: run ended, status 2 ' "method: the run completed"
if last_json | jq -e '.ended and (.clock.chosen_khz > 0)
        and ([.methods.methods[] | select(.key == "rdtsc" or .name == "rdtsc") | .overhead.samples | length] | max > 0)
        and ([.. | strings | select(test("vector 6"))] | length > 0)' >/dev/null; then
    pass "method: JSON keeps the clock and the other methods' samples and says vector 6"
else
    fail "method: JSON" "$(last_json | jq -c '{status, errors}' 2>&1 | head -c 300)"
fi

# 3. page fault inside a target routine.
boot target "$img" --options "sections=methods profile=quick injectfault=page injectin=target:add10"
expect_rc 2 "target: run-qemu exit 2"
expect_line '^fault injection: page fault in target:add10' "target: the fault went off in add10"
expect_line 'add10.*#PF page fault \(vector 14\) at RIP 0x[0-9a-f]+, error code 0x[0-9a-f]+' \
    "target: a line with the target, vector, RIP and error code"
expect_line '^baremark: run ended, status 2 ' "target: the run completed"
