#!/bin/bash
# tests/check/regen-fixtures.sh [quick|full|faults]... - the committed real runs
# made again from boots of the current image (build/baremark.img; `make
# image` first), so the fixtures carry what the code now writes:
#
#   tests/fixtures/run-quick.json   plain TCG (real timings), --cpu max,
#                                   2 CPUs, 512 MiB, "profile=quick lava=t",
#                                   every default section
#   tests/fixtures/run-full.json    the same under -icount shift=0 (exact),
#   tests/fixtures/run-full.lava    and that boot's BAREMARK-LAVA lines
#   tests/fixtures/run-faults.json  failures and skips: -icount, --cpu qemu64
#   tests/fixtures/run-faults.lava  (no rdtscp), --no-hpet, 2 CPUs, 512 MiB,
#                                   profile auto, sections=clock,cores,methods,
#                                   compare,bytemark,memory quietms=50
#                                   methodsamples=20 methoditerations=10, a
#                                   divide error in the target add10
#                                   (injectfault=divide injectin=target:add10),
#                                   BYTEmark's kernels off but numsort,
#                                   strsort and fourier (so both indexes
#                                   miss tests), lava=t
#
# (the settings of the boots that made them: git log tests/fixtures).  With
# no argument all three.  Each new run is first checked by tests/check/recompute.py
# against its own serial summary, `baremark show` and report; a fixture is
# replaced only when its boot completed (run-qemu exit 0, 2 for faults) and `baremark
# validate` accepts the JSON.  The checker's verdict is printed, not
# enforced: the lead reads it.  Tests that name a fixture's figures (its run
# name, counts, ratios) must then follow the new run; the last lines list
# the files that read the fixtures.  Exit 1 when a boot failed.
# REGEN_OUT=DIR writes the files there instead of tests/fixtures (a trial).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
export TOP
. tests/boot/lib.sh
. tests/check/python.sh
B=$BUILD/host/baremark
[ -f "$BUILD/baremark.img" ] || { echo "regen-fixtures: no $BUILD/baremark.img: run make image" >&2; exit 1; }
[ -x "$B" ] || make -s host >/dev/null 2>&1 || { echo "regen-fixtures: make host failed" >&2; exit 1; }
W=$TEST_TMP/regen
OUT=${REGEN_OUT:-tests/fixtures}
mkdir -p "$W" "$OUT"
status=0

regen() { # regen NAME "OPTION WORDS" [run-qemu options...]
    local name=$1 words=$2 img run want=0
    shift 2
    img=$(fresh_image "regen-$name")
    echo "regen-fixtures: booting $name (${*:-TCG}, \"$words\")..."
    BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} boot "regen-$name" "$img" "$@" --options "$words"
    # the faults run completes with warnings (status 2: its divide error)
    [ "$name" = faults ] && want=2
    if [ "$BOOT_RC" != "$want" ]; then
        echo "regen-fixtures: $name: run-qemu exit $BOOT_RC, not $want (see $BOOT_LOG); fixture left as it was"
        status=1
        return
    fi
    run=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
    esp_cat "$img" "baremark/$run.json" > "$W/$name.json" 2>/dev/null
    if ! "$B" validate "$W/$name.json" > "$W/$name.validate" 2>&1; then
        echo "regen-fixtures: $name: baremark validate refuses $run.json: $(head -2 "$W/$name.validate" | tr '\n' '|')"
        status=1
        return
    fi
    "$B" show "$W/$name.json" > "$W/$name.show"
    "$B" report "$W/$name.json" -o "$W/$name.html" > /dev/null 2>&1
    if [ -n "$TRUTH_PY" ]; then
        "$TRUTH_PY" tests/check/recompute.py "$W/$name.json" "$BOOT_LOG" "$W/$name.show" --html "$W/$name.html" \
            > "$W/$name.check" 2>&1
        echo "regen-fixtures: $name: the checker says: $(tail -1 "$W/$name.check") (all: $W/$name.check)"
    fi
    cp "$W/$name.json" "$OUT/run-$name.json"
    echo "regen-fixtures: $OUT/run-$name.json <- run $run"
    if [ "$name" != quick ]; then
        grep '^BAREMARK-LAVA ' "$BOOT_LOG" > "$OUT/run-$name.lava"
        echo "regen-fixtures: $OUT/run-$name.lava <- its $(wc -l < "$OUT/run-$name.lava") LAVA lines"
    fi
}

plain="--cpu max --smp 2 --memory 512"
faultoff="dobitfield=f doemf=f doassign=f doidea=f dohuff=f donnet=f dolu=f"
[ $# -gt 0 ] || set -- quick full faults
for what in "$@"; do
    case $what in
        quick) regen quick "profile=quick lava=t" $plain ;;
        full) regen full "profile=quick lava=t" $plain --icount ;;
        faults) regen faults "sections=clock,cores,methods,compare,bytemark,memory quietms=50 methodsamples=20 methoditerations=10 injectfault=divide injectin=target:add10 $faultoff lava=t" \
                --icount --cpu qemu64 --no-hpet --smp 2 --memory 512 ;;
        *) echo "usage: tests/check/regen-fixtures.sh [quick|full|faults]..." >&2; exit 2 ;;
    esac
done
echo "regen-fixtures: files that read these fixtures (their expectations may name the old runs):"
grep -rl 'run-quick\.json\|run-full\.json\|run-full\.lava\|run-faults\.json\|run-faults\.lava' tests tools README.md docs 2>/dev/null |
    grep -v '^tests/check/regen-fixtures.sh$' | sed 's/^/    /'
exit $status
