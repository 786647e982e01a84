#!/bin/bash
# Boot test: the independent check of the answer (issue 33.5).  Two short
# boots of the image with every section the summary has a row for (clock,
# cores, methods, compare, bytemark, memory; profile quick): one exact
# (-icount shift=0, 2 CPUs: every timing an instruction count) and one
# under plain TCG with 2 CPUs (real timings, noise and all).  For each, the
# summary block on serial, `baremark show` of the run's JSON and the
# report's first screen (`baremark report`) are recomputed from the JSON's
# raw samples by tests/check/recompute.py (Python, numpy/scipy, sharing
# nothing with the project's statistics): one PASS/FAIL line per row kind
# and consumer; serial and show must also be the same text.  The checker's
# full output (one line per figure) is kept as build/tests/boot/truth-*/check.txt.
# Each boot may take up to BOOT_TIMEOUT (1500 s by default: an -icount boot
# with two CPUs took 827 s on a 2-core machine running five other QEMUs).
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1
. "$TOP/tests/check/python.sh"
[ -n "$TRUTH_PY" ] || { fail "truth: a python3 with numpy and scipy" "sh tools/install-deps.sh"; exit 0; }
OPTS="profile=quick sections=clock,cores,methods,compare,bytemark,memory quietms=50"

truth() { # truth NAME [run-qemu options...]
    local name=$1 W=$TEST_TMP/truth-$1 img
    shift
    rm -rf "$W"
    mkdir -p "$W"
    img=$(fresh_image "truth-$name")
    BOOT_TIMEOUT=${BOOT_TIMEOUT:-1500} boot "truth-$name" "$img" --smp 2 "$@" --options "$OPTS"
    if [ "$BOOT_RC" != 0 ] && [ "$BOOT_RC" != 2 ]; then
        fail "truth $name: the run completed" "run-qemu exit $BOOT_RC; $(tail -3 "$BOOT_LOG" | tr '\n' '|')"
        return
    fi
    pass "truth $name: the run completed (run-qemu exit $BOOT_RC)"
    local run
    run=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
    esp_cat "$img" "baremark/$run.json" > "$W/run.json" 2>/dev/null
    cp "$BOOT_LOG" "$W/serial.txt"
    "$B" show "$W/run.json" > "$W/show.txt" 2> "$W/show.err"
    "$B" report "$W/run.json" -o "$W/report.html" > /dev/null 2> "$W/report.err" ||
        fail "truth $name: the report is written" "$(head -2 "$W/report.err" | tr '\n' '|')"
    "$TRUTH_PY" "$TOP/tests/check/recompute.py" "$W/run.json" "$W/serial.txt" "$W/show.txt" --html "$W/report.html" \
        --grouped "truth $name:" "$W/lines.txt" > "$W/check.txt" 2>&1
    local rc=$?
    if [ $rc -eq 2 ] || [ ! -s "$W/lines.txt" ]; then
        fail "truth $name: the checker ran on serial, show and the report" "exit $rc: $(tail -2 "$W/check.txt" | tr '\n' '|')"
    else
        cat "$W/lines.txt"
    fi
}

truth icount --icount
truth tcg
