#!/bin/bash
# tests/check/regen-fixtures.sh [quick|full]... - the committed real runs
# made again from boots of the current image (build/baremark.img; `make
# image` first), so the fixtures carry what the code now writes:
#
#   tests/fixtures/run-quick.json   plain TCG (real timings), --cpu max,
#                                   2 CPUs, 512 MiB, "profile=quick lava=t",
#                                   every default section
#   tests/fixtures/run-full.json    the same under -icount shift=0 (exact),
#   tests/fixtures/run-full.lava    and that boot's BAREMARK-LAVA lines
#
# (the settings of the boots that made them: git log tests/fixtures).  With
# no argument both.  Each new run is first checked by tests/check/recompute.py
# against its own serial summary, `baremark show` and report; a fixture is
# replaced only when its boot completed (run-qemu exit 0) and `baremark
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

regen() { # regen NAME [run-qemu options...]
    local name=$1 img run
    shift
    img=$(fresh_image "regen-$name")
    echo "regen-fixtures: booting $name (${*:-TCG}, --cpu max --smp 2 --memory 512, profile=quick lava=t)..."
    BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} boot "regen-$name" "$img" --cpu max --smp 2 --memory 512 "$@" \
        --options "profile=quick lava=t"
    if [ "$BOOT_RC" != 0 ]; then
        echo "regen-fixtures: $name: run-qemu exit $BOOT_RC (see $BOOT_LOG); fixture left as it was"
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
    if [ "$name" = full ]; then
        grep '^BAREMARK-LAVA ' "$BOOT_LOG" > "$OUT/run-full.lava"
        echo "regen-fixtures: $OUT/run-full.lava <- its $(wc -l < "$OUT/run-full.lava") LAVA lines"
    fi
}

[ $# -gt 0 ] || set -- quick full
for what in "$@"; do
    case $what in
        quick) regen quick ;;
        full) regen full --icount ;;
        *) echo "usage: tests/check/regen-fixtures.sh [quick|full]..." >&2; exit 2 ;;
    esac
done
echo "regen-fixtures: files that read these fixtures (their expectations may name the old runs):"
grep -rl 'run-quick\.json\|run-full\.json\|run-full\.lava' tests tools README.md docs 2>/dev/null |
    grep -v '^tests/check/regen-fixtures.sh$' | sed 's/^/    /'
exit $status
