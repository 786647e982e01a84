#!/usr/bin/env bash
# tools/bench/history-corpus.sh - the history's labelled corpus of real runs
# (docs/guide-history.md, "How well it detects").  Not part of `make test`.
#
# usage: tools/bench/history-corpus.sh [--boots N] [--firmware-boots N]
#            [--rebuild-boots N] [--icount-boots N] [--icount]
#            [--build-image IMG [--build-boots N]] [--compose-only] OUT
#
# 1. Boots the image under QEMU (TCG, --smp 2, quick profile, sections
#    plugins and methods) with the plug-in tools/bench/corpus-plugin, whose
#    routines cost known fractions more than their base (400 passes of a
#    2000-add chain and 401..420; a memory walk of 8000 loads and
#    8080..8400; 20 and 21 passes of a small sort).  Each boot times every routine.
#      N boots (default 40) as they are;
#      --firmware-boots (default 8) with Debian's 2 MiB OVMF build
#        (run-qemu --firmware 2m) instead of the 4 MiB one: a planted
#        firmware change;
#      --rebuild-boots (default 8) with the plug-in rebuilt (its
#        description changed, so its SHA-256 differs): a planted build
#        change;
#      --build-boots (default 0; 1 with --build-image) with IMG, another
#        build of baremark (e.g. make all at another commit, copied
#        away): a planted build change;
#      --icount-boots (default 0) under -icount shift=0, where each
#        routine's figure is its exact instruction count (slow: the
#        firmware alone takes ~100 s a boot on a busy 2-core machine).
#      --icount: every boot (plain, firmware, rebuild) under -icount
#        (run-qemu --icount-nosleep --lean, 20 samples a measurement), where
#        each figure is the routine's exact instruction count and every
#        boot of one image gives the same figures: defaults 2 plain, 1
#        firmware, 1 rebuild (about 5 minutes a boot on a busy 2-core
#        machine), and the series reuse those boots in turn (compose
#        --cycle 20: 20 plain runs, 3 of each other block).
#    The boots' JSON files go to OUT/boots/ (names in boot order), with
#    OUT/boots.txt: BOOT-FILE BLOCK (plain, firmware, rebuild, build, icount).
# 2. Composes the labelled series from them (tools/bench/history_corpus.py):
#    OUT/series/NAME/RUN.json (each run one boot's file with the series'
#    routine in it: the base routine before a step, the stepped routine
#    after) and OUT/labels.tsv.  --compose-only redoes this step alone.
#
# Then: build/host/baremark history bench --corpus OUT
#       tools/bench/history-vs-otava.sh OUT [--otava DIR]
#
# Exit status: 0 done; 1 a boot or the composition failed; 2 usage.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
boots=40 fwboots=8 rbboots=8 icboots=0 compose_only=0 icount=0 out= nb= nf= nr= bimg= bboots=
usage() { sed -n '2,44p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
    case $1 in
        --boots) nb=${2:?}; shift 2 ;;
        --firmware-boots) nf=${2:?}; shift 2 ;;
        --rebuild-boots) nr=${2:?}; shift 2 ;;
        --icount) icount=1; shift ;;
        --build-image) bimg=${2:?}; shift 2 ;;
        --build-boots) bboots=${2:?}; shift 2 ;;
        --icount-boots) icboots=${2:?}; shift 2 ;;
        --compose-only) compose_only=1; shift ;;
        -h|--help) usage 0 ;;
        -*) echo "history-corpus: unknown option $1" >&2; usage 2 ;;
        *) out=$1; shift ;;
    esac
done
[ -n "$out" ] || { echo "history-corpus: name the output folder" >&2; usage 2; }
[ $icount = 1 ] && boots=2 fwboots=1 rbboots=1
boots=${nb:-$boots} fwboots=${nf:-$fwboots} rbboots=${nr:-$rbboots}
[ -n "$bimg" ] && bboots=${bboots:-1}
bboots=${bboots:-0}
[ "$bboots" = 0 ] || [ -f "$bimg" ] || { echo "history-corpus: --build-boots wants --build-image IMG (a file)" >&2; usage 2; }
cycle=()
[ $icount = 1 ] && cycle=(--cycle 20)
mkdir -p "$out/boots" || exit 1
out=$(cd "$out" && pwd)

compose() {
    /usr/bin/python3 "$TOP/tools/bench/history_corpus.py" compose "${cycle[@]}" "$out"
}
[ $compose_only = 1 ] && { compose; exit $?; }

IMG=$TOP/build/baremark.img
[ -f "$IMG" ] || { echo "history-corpus: $IMG missing: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/history-corpus.XXXXXX)
trap 'rm -rf "$work"' EXIT
PL=$TOP/tools/bench/corpus-plugin
"$TOP/tools/baremark-plugin" build "$PL/steps.c" "$PL/steps.asm" -o "$work/steps.efi" > "$work/build.log" 2>&1 ||
    { echo "history-corpus: the plug-in did not build ($work/build.log):" >&2; tail -5 "$work/build.log" >&2; exit 1; }
# the same routines rebuilt: only the plug-in's description differs
mkdir -p "$work/rebuilt"
sed 's/(the history corpus)"/(the history corpus, rebuilt)"/' "$PL/steps.c" > "$work/rebuilt/steps.c"
cp "$PL/steps.asm" "$work/rebuilt/"
"$TOP/tools/baremark-plugin" build "$work/rebuilt/steps.c" "$work/rebuilt/steps.asm" -o "$work/rebuilt/steps.efi" \
    >> "$work/build.log" 2>&1 || { echo "history-corpus: the rebuilt plug-in did not build" >&2; exit 1; }
cmp -s "$work/steps.efi" "$work/rebuilt/steps.efi" && { echo "history-corpus: the rebuild has the same bytes" >&2; exit 1; }

OPTS="profile=quick sections=plugins,methods pluginroutines=steps"
[ $icount = 1 ] && OPTS="$OPTS methodsamples=20"
one_boot() {   # one_boot BLOCK INDEX
    local block=$1 i=$2 img=$work/boot.img efi=$work/steps.efi args=(--smp 2 --timeout 900)
    if [ "$block" = build ]; then cp "$bimg" "$img" || return 1; else cp "$IMG" "$img" || return 1; fi
    [ "$block" = rebuild ] && efi=$work/rebuilt/steps.efi
    [ "$block" = firmware ] && args+=(--firmware 2m)
    [ "$block" = icount ] && args=(--icount --timeout 1800)
    if [ $icount = 1 ]; then
        args=(--icount-nosleep --lean --timeout 1800)
        [ "$block" = firmware ] && args+=(--firmware 2m)
    fi
    mmd -i "$img@@1M" ::/baremark/plugins 2>/dev/null
    mcopy -o -i "$img@@1M" "$efi" ::/baremark/plugins/steps.efi || return 1
    local t0=$SECONDS rc
    "$TOP/tools/run-qemu" "${args[@]}" --options "$OPTS" "$img" > "$work/serial.txt" 2>&1
    rc=$?
    local f
    f=$(mdir -b -i "$img@@1M" ::/baremark 2>/dev/null | sed 's|.*/||' | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
    if [ -z "$f" ] || ! mcopy -o -i "$img@@1M" "::/baremark/$f" "$out/boots/$f"; then
        echo "history-corpus: $block boot $i: no results (run-qemu $rc; serial in $out/boots/failed-$block-$i.txt)" >&2
        cp "$work/serial.txt" "$out/boots/failed-$block-$i.txt"
        return 1
    fi
    echo "$f $block" >> "$out/boots.txt"
    echo "history-corpus: $block boot $i: $f (run-qemu $rc, $((SECONDS - t0)) s)" >&2
}

: > "$out/boots.txt"
failed=0
for b in plain:$boots firmware:$fwboots rebuild:$rbboots build:$bboots icount:$icboots; do
    block=${b%%:*} n=${b#*:}
    for ((i = 1; i <= n; i++)); do
        one_boot "$block" "$i" || failed=$((failed + 1))
    done
done
[ $failed = 0 ] || echo "history-corpus: $failed boots failed (named above); composing from the rest" >&2
compose || exit 1
[ $failed = 0 ]
