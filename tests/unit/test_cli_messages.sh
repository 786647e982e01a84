#!/bin/sh
# tests/unit/test_cli_messages.sh - the hosted program's messages as a new
# user meets them (issue 15 point 6): a missing file says "no such file", a
# directory says "is a directory" (stats DIR and config DIR fail instead of
# printing n = 0 or the defaults), every subcommand's --help prints a
# one-line purpose and exits 0 (none runs its work), contradictory flags are
# refused.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
if [ ! -x "$B" ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
mkdir "$T/dir"

# ---- missing files and directories ----------------------------------------------
for cmd in stats report validate config "compare-runs $T/dir/../missing.json"; do
    # shellcheck disable=SC2086
    $B $cmd "$T/missing.json" > "$T/o" 2>&1; rc=$?
    check "${cmd%% *} of a missing file: says \"no such file\", fails" \
        $([ $rc -ne 0 ] && grep -q 'missing.json: no such file' "$T/o" && ! grep -qi 'No such file or directory' "$T/o"; echo $?) \
        "rc $rc: $(head -2 "$T/o" | tr '\n' '|')"
done
for cmd in stats report validate config compare-runs; do
    if [ "$cmd" = compare-runs ]; then
        $B $cmd "$T/dir" "$T/dir" > "$T/o" 2>&1; rc=$?
    else
        $B $cmd "$T/dir" > "$T/o" 2>&1; rc=$?
    fi
    check "$cmd of a directory: says \"is a directory\", fails" \
        $([ $rc -ne 0 ] && grep -q "dir: is a directory" "$T/o" && ! grep -q 'n = 0' "$T/o" &&
          ! grep -q 'PROFILE=' "$T/o"; echo $?) "rc $rc: $(head -2 "$T/o" | tr '\n' '|')"
done
$B bytemark -c "$T/missing.cfg" > "$T/o" 2>&1; rc=$?
check "bytemark -c MISSING: says \"no such file\", runs nothing" \
    $([ $rc = 2 ] && grep -q 'missing.cfg: no such file' "$T/o" && ! grep -q 'INDEX' "$T/o"; echo $?) "rc $rc: $(head -2 "$T/o")"
$B bytemark -c "$T/dir" > "$T/o" 2>&1; rc=$?
check "bytemark -c DIR: says \"is a directory\", runs nothing (not the defaults)" \
    $([ $rc = 2 ] && grep -q 'dir: is a directory' "$T/o" && ! grep -q 'INDEX' "$T/o"; echo $?) "rc $rc: $(head -2 "$T/o")"
printf '1\n2\n' > "$T/a.txt"
$B compare "$T/a.txt" "$T/dir" > "$T/o" 2>&1; rc=$?
check "compare A DIR: says \"is a directory\", fails" $([ $rc = 2 ] && grep -q 'dir: is a directory' "$T/o"; echo $?) \
    "rc $rc: $(cat "$T/o")"

# ---- --help on every subcommand -------------------------------------------------
cmds=$($B --help | awk 'NR > 2 { print $1 }')
[ -n "$cmds" ]
check "baremark --help lists the subcommands" $? 
for c in $cmds; do
    timeout 20 $B "$c" --help > "$T/h" 2> "$T/he"; rc=$?
    check "$c --help: exit 0, a one-line purpose and the usage on stdout, nothing run" \
        $([ $rc = 0 ] && head -1 "$T/h" | grep -Eq "^baremark $c: [a-z]" && sed -n 2p "$T/h" | grep -q "^usage: baremark $c" &&
          [ "$(wc -l < "$T/h")" -le 3 ] && [ ! -s "$T/he" ]; echo $?) "rc $rc: $(head -3 "$T/h" "$T/he" | tr '\n' '|')"
done
$B report "$T/missing.json" -h > "$T/h" 2>&1
check "report FILE -h: the help too (exit 0)" $?

# ---- contradictory flags --------------------------------------------------------
G=tests/fixtures/run-guess.json
$B compare-runs --json --html $G $G > "$T/o" 2>&1; rc=$?
check "compare-runs --json --html: refused (exit 2), says why" \
    $([ $rc = 2 ] && grep -q 'contradict' "$T/o" && ! grep -q '<html\|^{' "$T/o"; echo $?) "rc $rc: $(head -c 200 "$T/o")"
$B compare-runs --html --json $G $G > "$T/o" 2>&1; rc=$?
check "compare-runs --html --json: refused too" $([ $rc = 2 ] && grep -q 'contradict' "$T/o"; echo $?) "rc $rc"
$B compare-runs --json --json $G $G > "$T/o" 2>&1; rc=$?
check "compare-runs --json --json: not a contradiction (exit 0)" $([ $rc = 0 ]; echo $?) "rc $rc"
$B methods --quick --full > "$T/o" 2>&1; rc=$?
check "methods --quick --full: refused (exit 2)" $([ $rc = 2 ] && grep -q 'contradict' "$T/o"; echo $?) "rc $rc"
