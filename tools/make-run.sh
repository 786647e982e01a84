#!/bin/sh
# tools/make-run.sh IMAGE RESULTS-DIR - what `make run` does: boot IMAGE under
# QEMU (serial shown live), then copy the run's files out of the image.
# The quick profile keeps the whole boot under 90 s under TCG; set
# RUN_OPTIONS to pass other settings (e.g. RUN_OPTIONS="profile=full").
# The guest has 2 logical CPUs (RUN_SMP=N for another count), so the cores
# section has an application processor to start.
# PLUGINS="a.efi b.efi" copies those plug-ins into the image's
# \baremark\plugins\ first (tools/baremark-stick add-plugin); like a stick,
# the image keeps them for later runs until removed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/lib/common.sh"
bm_init "make run" "$@"
[ $# -eq 2 ] || bm_usage_error "give IMAGE and RESULTS-DIR"
img=$1 results=$2
if [ -n "${PLUGINS:-}" ]; then
    # shellcheck disable=SC2086
    "$top/tools/baremark-stick" add-plugin "$img" $PLUGINS ||
        { echo "make run: could not put PLUGINS on $img (see above); not booted"; exit 1; }
fi
plugins=$("$top/tools/baremark-stick" list-plugins "$img" 2>/dev/null | awk 'NR > 1 && NF == 3 { printf " %s", $1 }')
[ -n "$plugins" ] && echo "make run: plug-ins on the image:$plugins (tools/baremark-stick remove-plugin $img NAME takes one off)"
bm_tmpdir
serial=$BM_TMP/serial
echo "make run: booting $img under QEMU (${ACCEL:-tcg}); serial output follows"
"$top/tools/run-qemu" --timeout "${RUN_TIMEOUT:-1800}" --serial "$serial" \
    --smp "${RUN_SMP:-2}" --options "${RUN_OPTIONS:-profile=quick}" "$img"
rc=$?
echo
case $rc in
0) echo "make run: run completed (status 0)" ;;
2) echo "make run: run completed with warnings (status 2): see the warning lines above" ;;
124) echo "make run: QEMU timed out" ;;
*) echo "make run: the run failed (run-qemu exit $rc)" ;;
esac
# baremark-results exits 2 when it skipped names that are not run files
# (it says which): the runs were copied all the same.
rrc=0
"$top/tools/baremark-results" "$img" "$results" >/dev/null || rrc=$?
[ $rrc -le 2 ] || echo "make run: could not copy results from $img"
name=$(tr -d '\r' < "$serial" | sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' | tail -1)
# The last lines: how the run ended (a run cut short says where, from its
# JSON), then where its files and its report are.
if [ -n "$name" ] && [ -f "$results/$name.json" ]; then
    if [ "$rc" != 0 ] && [ "$rc" != 2 ] && command -v jq >/dev/null 2>&1; then
        stage=$(jq -r 'select(.status == "interrupted") | .stage // "an unknown stage"' "$results/$name.json" 2>/dev/null)
        [ -n "$stage" ] && echo "make run: the results file says the run was interrupted during $stage"
    fi
    echo "make run: results $results/$name.json (and $name.log)"
    if "$top/tools/baremark-report" "$results/$name.json" -o "$results/$name.html"; then
        echo "make run: report  $results/$name.html"
    fi
else
    echo "make run: this run saved no files (see the warnings above); earlier runs are in $results"
fi
# A run that completed with warnings is a completed run: make succeeds and
# the warnings are on screen; a failed run or a timeout fails make.
[ $rc = 2 ] && exit 0
exit $rc
