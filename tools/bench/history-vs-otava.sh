#!/usr/bin/env bash
# tools/bench/history-vs-otava.sh - baremark's history and Apache Otava on
# the same labelled corpus, side by side (docs/guide-history.md, "How well
# it detects").  Not part of `make test`.
#
# usage: tools/bench/history-vs-otava.sh CORPUS [--otava DIR]
#
# CORPUS is what tools/bench/history-corpus.sh made.  Prints baremark's own
# table (`baremark history bench --corpus CORPUS`, with the provenance it
# names at each planted change), then both tools' recall, false alarms and
# position error per kind, step and runs a side
# (tools/bench/history_vs_otava.py).  --otava DIR: an unpacked Apache Otava
# source tree (e.g. `git archive` of github.com/apache/otava); Otava needs
# Debian's python3-numpy and python3-scipy.  Without it only baremark's
# column is printed, with the reason.
# Exit status: 0 done; 1 a step failed; 2 usage.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
corpus= otava=()
while [ $# -gt 0 ]; do
    case $1 in
        --otava) otava=(--otava "${2:?}"); shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "history-vs-otava: unknown option $1" >&2; exit 2 ;;
        *) corpus=$1; shift ;;
    esac
done
[ -n "$corpus" ] || { echo "history-vs-otava: name the corpus folder" >&2; exit 2; }
B=$TOP/build/host/baremark
[ -x "$B" ] || { echo "history-vs-otava: $B missing: run make host" >&2; exit 1; }
work=$(mktemp -d /tmp/history-vs-otava.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$B" history bench --corpus "$corpus" --series-csv "$work/series.csv" -v > "$work/bench.txt" || exit 1
grep -v '^  [^ ]\+ \+[a-z]\+ \+[0-9]\+ runs, changes at' "$work/bench.txt"
echo
echo "side by side (the same series, scored the same way):"
/usr/bin/python3 "$TOP/tools/bench/history_vs_otava.py" "$corpus" "$work/series.csv" "$work/bench.txt" "${otava[@]}"
