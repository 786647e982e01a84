#!/bin/sh
# tests/run.sh [--unit-only | --boot-only] - build, run every test, count.
#
# Unit tests: each build/tests/test_* program and each tests/unit/*.sh.
# Boot tests: each tests/boot/test_*.sh, two at a time (the machine has two
# cores and each QEMU uses one).  Every test prints PASS:/FAIL: lines; the
# closing line is "N passed, N failed".  Exit status 1 when anything failed.
set -u
cd "$(dirname "$0")/.."
TOP=$(pwd)
export TOP
mode=${1:-all}
out=build/tests/results
rm -rf "$out"
mkdir -p "$out"
JOBS=${JOBS:-2}

if [ "$mode" != "--boot-only" ]; then
    units=$(ls tests/unit/test_*.c 2>/dev/null | sed 's|tests/unit/\(.*\)\.c|build/tests/\1|')
    if ! make -s host $units > "$out/build-host.log" 2>&1; then
        tail -20 "$out/build-host.log"
        echo "FAIL: host build (see $out/build-host.log)" > "$out/build-host.txt"
    fi
fi
if [ "$mode" != "--unit-only" ]; then
    if ! make -s image > "$out/build-image.log" 2>&1; then
        tail -20 "$out/build-image.log"
        echo "FAIL: image build (see $out/build-image.log)" > "$out/build-image.txt"
    fi
fi

if [ "$mode" != "--boot-only" ]; then
    for t in build/tests/test_*; do
        [ -x "$t" ] && sh tests/run_one.sh "$out" "$(basename "$t")" "$t"
    done
    for t in tests/unit/*.sh; do
        [ -f "$t" ] && sh tests/run_one.sh "$out" "$(basename "$t" .sh)" sh "$t"
    done
fi

if [ "$mode" != "--unit-only" ] && [ -f build/baremark.img ] && [ ! -f "$out/build-image.txt" ]; then
    ls tests/boot/test_*.sh 2>/dev/null |
        xargs -r -P "$JOBS" -I{} sh -c 'sh tests/run_one.sh "$1" "$(basename "$2" .sh)" bash "$2"' _ "$out" {}
fi

passed=$(cat "$out"/*.txt 2>/dev/null | grep -c '^PASS:')
failed=$(cat "$out"/*.txt 2>/dev/null | grep -c '^FAIL:')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
