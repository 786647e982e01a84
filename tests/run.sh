#!/bin/sh
# tests/run.sh [--unit-only | --boot-only] - build, run every test, count.
#
# Unit tests: each build/tests/test_* program and each tests/unit/*.sh.
# Boot tests: each tests/boot/test_*.sh, two at a time (the machine has two
# cores and each QEMU uses one), beside the unit tests (one job, serial).  Every test prints PASS:/FAIL: lines; the
# closing line is "N passed, N failed".  Exit status 1 when anything failed.
set -u
cd "$(dirname "$0")/.."
TOP=$(pwd)
export TOP
# The unit tests, one after another (they were written to run alone).
run_units() {
    for t in build/tests/test_*; do
        [ -x "$t" ] && sh tests/run_one.sh "$out" "$(basename "$t")" "$t"
    done
    for t in tests/unit/*.sh; do
        [ -f "$t" ] && sh tests/run_one.sh "$out" "$(basename "$t" .sh)" sh "$t"
    done
}
[ "${1:-}" = --units-job ] && { out=$2; run_units; exit 0; }

mode=${1:-all}
out=build/tests/results
rm -rf "$out"
mkdir -p "$out" "$out/boot"
JOBS=${JOBS:-2}

# The builds use the $JOBS cores too (make test calls this script from a
# shell, so no -j of its own reaches the makes below).
if [ "$mode" != "--boot-only" ]; then
    units=$(ls tests/unit/test_*.c 2>/dev/null | sed 's|tests/unit/\(.*\)\.c|build/tests/\1|')
    if ! make -s -j"$JOBS" host $units > "$out/build-host.log" 2>&1; then
        tail -20 "$out/build-host.log"
        echo "FAIL: host build (see $out/build-host.log)" > "$out/build-host.txt"
    fi
fi
if [ "$mode" != "--unit-only" ]; then
    if ! make -s -j"$JOBS" image > "$out/build-image.log" 2>&1; then
        tail -20 "$out/build-image.log"
        echo "FAIL: image build (see $out/build-image.log)" > "$out/build-image.txt"
    fi
fi

# Every boot test (and, in a whole run, the unit tests as one job) goes to
# one pool of $JOBS, the costliest first, so that a long test never starts
# last and the two cores stay busy to the end.  tests/boot/costs.txt holds
# each test's seconds from an earlier CI run, and the unit tests' together
# as "units" (a new test counts as 60 s).
cost() { awk -v n="$1" '$1 == n { print $2; exit }' tests/boot/costs.txt 2>/dev/null; }
jobs() {
    [ "$mode" != "--boot-only" ] && echo "$(c=$(cost units); echo "${c:-180}") units -"
    if [ "$mode" != "--unit-only" ] && [ -f build/baremark.img ] && [ ! -f "$out/build-image.txt" ]; then
        for t in tests/boot/test_*.sh; do
            n=$(basename "$t" .sh)
            c=$(cost "$n")
            echo "${c:-60} $n $t"
        done
    fi
}
jobs | sort -k1,1nr -k2,2 | while read -r cost name path; do echo "$name $path"; done |
    xargs -r -P "$JOBS" -L 1 sh -c '
        if [ "$1" = units ]; then sh tests/run.sh --units-job "$0"
        else sh tests/run_one.sh "$0/boot" "$1" bash "$2"; fi' "$out"

# Boot tests keep their lines in $out/boot/: a unit test and a boot test may
# share a name (tests/unit/test_clock.c and tests/boot/test_clock.sh), and
# one file each keeps both counted.
passed=$(cat "$out"/*.txt "$out"/boot/*.txt 2>/dev/null | grep -c '^PASS:')
failed=$(cat "$out"/*.txt "$out"/boot/*.txt 2>/dev/null | grep -c '^FAIL:')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
