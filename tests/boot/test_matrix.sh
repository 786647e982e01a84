#!/bin/bash
# Boot test: a poor machine.  QEMU's old default CPU (--cpu qemu64) has no rdtscp and
# no invariant TSC; the machine has no HPET and 256 MiB; the command file
# asks numeric sort for 10000 arrays of 100000 elements (4 GB), which do not
# fit.  What the platform lacks is said once, clearly, and the run adapts:
# the clock calibrates from the other references, the rdtscp methods are
# skipped (never executed: rdtscp would fault here), the kernel that does not
# fit is skipped with a warning and the next one runs.  Everything measured
# is in the files; status 2 (one warning: the skipped kernel).
. "$(dirname "$0")/lib.sh"
img=$(fresh_image matrix)
off="dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"

boot matrix "$img" --cpu qemu64 --no-hpet --memory 256 \
    --options "sections=clock,methods,bytemark profile=quick numnumarrays=10000 numarraysize=100000 $off"
expect_rc 2 "run-qemu exit 2 (completed with warnings)"
# no rdtscp
expect_line '^note: no rdtscp on this CPU: the four rdtscp methods will be skipped' "no rdtscp: one note line"
n=$(grep -c '^  unsupported (no rdtscp: CPUID 0x80000001 EDX bit 27 clear): skipped, not executed$' "$BOOT_LOG")
[ "$n" = 4 ] && pass "no rdtscp: the four rdtscp methods reported unsupported" || fail "no rdtscp: four methods unsupported" "$n"
expect_no_line 'vector 6|invalid opcode' "no rdtscp: no rdtscp was executed (it would fault)"
# no invariant TSC
expect_line '^note: the TSC is not invariant' "no invariant TSC: one note line"
# no HPET
expect_line '^acpi: .*HPET absent' "no HPET: ACPI says the table is absent"
expect_line '^clock: hpet +absent \(no ACPI HPET table\)' "no HPET: the clock says the HPET is absent"
expect_line '^clock: chosen [0-9.]+ kHz from pm_timer' "no HPET: calibrated from the PM timer instead"
# too little memory
expect_line '^warning: bytemark: NUMERIC SORT skipped: not enough memory for 100000 x 10000 arrays; the other tests go on$' \
    "too little memory: numeric sort skipped with one warning"
expect_line '^STRING SORT +: +[0-9]+\.[0-9]+ +:' "too little memory: string sort still ran"
n=$(grep -c '^warning: ' "$BOOT_LOG")
[ "$n" = 1 ] && pass "exactly one warning (the skipped kernel)" || fail "exactly one warning" "$n: $(grep '^warning: ' "$BOOT_LOG" | head -3 | tr '\n' '|')"
expect_line '^baremark: run ended, status 2 \(completed with warnings\)$' "final line with status 2"
j=$(esp_ls "$img" baremark | grep 'json$' | tail -1)
esp_cat "$img" "baremark/$j" > "$TEST_TMP/matrix.json"
if jq -e '.ended and .status == 2 and (.errors | length) == 1
        and .system.rdtscp == false and .system.invariant_tsc == false and .system.acpi.hpet == "absent"
        and .clock.source == "pm_timer" and (.clock.chosen_khz > 0)
        and ([.methods.methods[] | select(.supported == false)] | length) == 4
        and .bytemark.tests[0].status == "skipped_nomem" and .bytemark.tests[1].status == "ok"' \
        "$TEST_TMP/matrix.json" >/dev/null; then
    pass "the JSON holds the clock, the methods and the kernels, with what was skipped"
else
    fail "the JSON holds everything" "$(jq -c '{status, errors, src: .clock.source, t: [.bytemark.tests[0:2][] | {key, status}]}' "$TEST_TMP/matrix.json" 2>&1 | head -c 300)"
fi
if "$BUILD/host/baremark" validate "$TEST_TMP/matrix.json" >/dev/null 2>&1; then
    pass "the results file validates"
else
    fail "the results file validates" "$("$BUILD/host/baremark" validate "$TEST_TMP/matrix.json" 2>&1 | head -3 | tr '\n' '|')"
fi
