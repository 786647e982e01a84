#!/bin/bash
# tools/bench/between-boots.sh - boot one image several times under TCG and
# say how far one boot's intervals carry to the next (issue 33, "Between
# boots").  A benchmark of baremark itself, not a test: nothing passes or
# fails, it prints a table and exits 0.
#
# usage: tools/bench/between-boots.sh [--boots N] [--jobs J] [--options "SETTINGS"]
#                                     [--timeout S] [--keep DIR] [IMAGE]
#
# Boots IMAGE (default build/baremark.img) N times (default 10) with
# tools/run-qemu --smp 2, J boots at a time (default 2), each on its own
# copy of the image with the settings "profile=quick sections=methods,compare"
# (--options replaces them), takes each boot's results JSON from its copy
# and hands them to tools/bench/between_boots.py, which recomputes every
# target's estimate and interval (D1) and every A/B pair's ratio and
# interval (D2) from the raw samples and prints, per target and per pair,
# how many of the N(N-1)/2 pairs of boots have overlapping 95% intervals
# and how far the estimates spread (max - min and SD, for a target in
# counter steps of one timing).  A boot that fails is named and left out.
# Needs qemu-system-x86_64, OVMF, mtools and python3 with numpy.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
boots=10 jobs=2 timeout=900 keep=""
options="profile=quick sections=methods,compare"
image=$TOP/build/baremark.img
usage() { sed -n '6,8p' "$0" | sed 's/^# \{0,1\}//' >&2; [ -n "${1:-}" ] && echo "between-boots: $1" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case $1 in
    --boots) [ $# -ge 2 ] || usage "--boots wants a number"; boots=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage "--jobs wants a number"; jobs=$2; shift 2 ;;
    --options) [ $# -ge 2 ] || usage "--options wants the settings"; options=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || usage "--timeout wants seconds"; timeout=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage "--keep wants a folder"; keep=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) usage "unknown option $1" ;;
    *) image=$1; shift ;;
    esac
done
case "$boots$jobs$timeout" in *[!0-9]*) usage "--boots, --jobs and --timeout want whole numbers" ;; esac
[ "$boots" -ge 2 ] || usage "--boots wants at least 2 (pairs of boots)"
[ "$jobs" -ge 1 ] || jobs=1
[ -f "$image" ] || usage "no image at $image (make image)"
export MTOOLS_SKIP_CHECK=1

if [ -n "$keep" ]; then
    work=$keep
    mkdir -p "$work" || exit 1
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/between-boots.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
fi

# One boot: its own copy of the image, its results JSON taken from it.
one() {
    local i=$1 img=$work/boot$1.img
    cp "$image" "$img" || return
    mdeltree -i "$img@@1M" ::/baremark >/dev/null 2>&1 && mmd -i "$img@@1M" ::/baremark >/dev/null 2>&1
    local t0=$SECONDS
    "$TOP/tools/run-qemu" --smp 2 --timeout "$timeout" --serial "$work/boot$i.serial" \
        --options "$options" "$img" >/dev/null 2>"$work/boot$i.err"
    local rc=$? j
    j=$(mdir -b -i "$img@@1M" ::/baremark 2>/dev/null | grep -i 'json$' | tail -1)
    if [ -n "$j" ] && mtype -i "$img@@1M" "$j" > "$work/boot$i.json" 2>/dev/null && [ -s "$work/boot$i.json" ]; then
        echo "boot $i: run-qemu exit $rc, $((SECONDS - t0)) s"
    else
        rm -f "$work/boot$i.json"
        echo "boot $i: no results JSON (run-qemu exit $rc; $(tail -1 "$work/boot$i.err" 2>/dev/null))"
    fi
    rm -f "$img"
}

echo "between-boots: $boots boots of $image, $jobs at a time, --smp 2, options \"$options\""
t0=$SECONDS
running=0
for i in $(seq 1 "$boots"); do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    one "$i" &
    running=$((running + 1))
done
wait
echo "between-boots: all boots done in $((SECONDS - t0)) s"
echo

jsons=$(ls "$work"/boot*.json 2>/dev/null | sort -V)
if [ "$(echo "$jsons" | grep -c .)" -lt 2 ]; then
    echo "between-boots: fewer than 2 boots gave results; nothing to compare"
    exit 0
fi
# shellcheck disable=SC2086
/usr/bin/python3 "$TOP/tools/bench/between_boots.py" $jsons ||
    { echo "between-boots: the analysis failed (above); the JSON files: ${keep:-use --keep DIR to keep them}"; exit 1; }
exit 0
