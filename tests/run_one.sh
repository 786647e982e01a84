#!/bin/sh
# tests/run_one.sh OUTDIR NAME COMMAND... - run one test program or script,
# keep its PASS:/FAIL: lines in OUTDIR/NAME.txt and print a summary line.
# A test that exits nonzero without a FAIL line, or prints no result at all,
# counts as a failure: a crash never passes silently.
# With one argument (a test program or script), runs just that test with
# build/tests/out as OUTDIR and the file's base name: sh tests/run_one.sh
# tests/boot/test_clock.sh (the images and programs must be built); its
# exit status is then the test's: 0 when every result passed, 1 when one
# failed (or the test crashed or printed no result).
if [ $# -eq 1 ]; then
    t=$1 out=build/tests/out name=$(basename "$1" .sh)
    mkdir -p "$out"
    # as tests/run.sh runs them: a unit script with sh, a boot test with bash
    case $t in
    tests/unit/*.sh) set -- "$out" "$name" sh "$t" ;;
    *.sh) set -- "$out" "$name" bash "$t" ;;
    *) set -- "$out" "$name" "$t" ;;
    esac
    sh "$0" "$@"
    cat "$out/$name.txt"
    ! grep -q '^FAIL:' "$out/$name.txt"
    exit $?
fi
out=$(cd "$1" && pwd) name=$2
shift 2
start=$(date +%s)
rm -f "$out/$name.boots"
BAREMARK_BOOT_TIMES=$out/$name.boots "$@" > "$out/$name.txt" 2> "$out/$name.err"
rc=$?
if [ $rc -ne 0 ] && ! grep -q '^FAIL:' "$out/$name.txt"; then
    echo "FAIL: $name exited $rc without saying why ($(tail -2 "$out/$name.err" | tr '\n' ' '))" >> "$out/$name.txt"
fi
grep -q '^PASS:\|^FAIL:' "$out/$name.txt" || echo "FAIL: $name printed no result" >> "$out/$name.txt"
# Boots (tools/run-qemu writes one line each to $name.boots): how many, and
# the seconds spent in firmware before baremark's banner.
boots=""
if [ -s "$out/$name.boots" ]; then
    boots=$(awk '{ n++; f += $2 } END { printf ", %d boot(s), %.0fs in firmware", n, f }' "$out/$name.boots")
fi
printf '%-26s %4s passed, %s failed  (%ss%s)\n' "$name" "$(grep -c '^PASS:' "$out/$name.txt")" \
    "$(grep -c '^FAIL:' "$out/$name.txt")" "$(( $(date +%s) - start ))" "$boots"
grep '^FAIL:' "$out/$name.txt" | sed 's/^/    /'
exit 0
