#!/bin/sh
# tests/unit/test_cli_messages.sh - the hosted program's messages as a new
# user meets them (issue 15 point 6): a missing file says "no such file", a
# directory says "is a directory" (stats DIR and config DIR fail instead of
# printing n = 0 or the defaults), every subcommand's --help prints a
# one-line purpose and exits 0 (none runs its work), contradictory flags are
# refused; every shell tool in tools/ answers --help on stdout with exit 0 and
# a bad option with exit 2 and one line; the old names of renamed verbs work
# with a notice; tests/run_one.sh returns a single test's status.  Prints
# PASS:/FAIL: lines.
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
for cmd in stats report validate config "diff $T/dir/../missing.json"; do
    # shellcheck disable=SC2086
    $B $cmd "$T/missing.json" > "$T/o" 2>&1; rc=$?
    check "${cmd%% *} of a missing file: says \"no such file\", fails" \
        $([ $rc -ne 0 ] && grep -q 'missing.json: no such file' "$T/o" && ! grep -qi 'No such file or directory' "$T/o"; echo $?) \
        "rc $rc: $(head -2 "$T/o" | tr '\n' '|')"
done
for cmd in stats report validate config diff; do
    if [ "$cmd" = diff ]; then
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
$B stats "$T/a.txt" "$T/dir" > "$T/o" 2>&1; rc=$?
check "stats A DIR: says \"is a directory\", fails" $([ $rc = 2 ] && grep -q 'dir: is a directory' "$T/o"; echo $?) \
    "rc $rc: $(cat "$T/o")"

# ---- --help on every subcommand -------------------------------------------------
cmds=$($B --help | awk 'NR > 2 && /^  / { print $1 }')
[ -n "$cmds" ]
check "baremark --help lists the subcommands" $? 
for c in $cmds; do
    timeout 20 $B "$c" --help > "$T/h" 2> "$T/he"; rc=$?
    check "$c --help: exit 0, a one-line purpose and the usage on stdout, nothing run" \
        $([ $rc = 0 ] && head -1 "$T/h" | grep -Eq "^baremark $c: [a-z]" && sed -n 2p "$T/h" | grep -q "^usage: baremark $c" &&
          { [ "$(wc -l < "$T/h")" -le 3 ] || grep -q '^options:' "$T/h"; } && [ ! -s "$T/he" ]; echo $?) "rc $rc: $(head -3 "$T/h" "$T/he" | tr '\n' '|')"
done
$B report "$T/missing.json" -h > "$T/h" 2>&1
check "report FILE -h: the help too (exit 0)" $?

# ---- contradictory flags --------------------------------------------------------
G=tests/fixtures/run-guess.json
$B diff --json --html $G $G > "$T/o" 2>&1; rc=$?
check "diff --json --html: refused (exit 2), says why" \
    $([ $rc = 2 ] && grep -q 'contradict' "$T/o" && ! grep -q '<html\|^{' "$T/o"; echo $?) "rc $rc: $(head -c 200 "$T/o")"
$B diff --html --json $G $G > "$T/o" 2>&1; rc=$?
check "diff --html --json: refused too" $([ $rc = 2 ] && grep -q 'contradict' "$T/o"; echo $?) "rc $rc"
$B diff --json --json $G $G > "$T/o" 2>&1; rc=$?
check "diff --json --json: not a contradiction (exit 0)" $([ $rc = 0 ]; echo $?) "rc $rc"
$B methods --quick --full > "$T/o" 2>&1; rc=$?
check "methods --quick --full: refused (exit 2)" $([ $rc = 2 ] && grep -q 'contradict' "$T/o"; echo $?) "rc $rc"

# ---- the shell tools: one language (tools/lib/common.sh) ------------------------
make -s host > /dev/null 2>&1    # current, so the wrappers below do not rebuild it inside their timeout
# --help: the usage on stdout, exit 0, nothing on stderr; a bad option: exit 2
# (run-qemu 1: 2 is a run status there) and exactly one line on stderr that
# names the tool (a wrapper of the hosted program, as "baremark diff", the
# command it runs).  tools/baremark-compare is only the old name of
# baremark-diff (checked below).
for t in tools/baremark-diff tools/baremark-fleet tools/baremark-plugin tools/baremark-report \
         tools/baremark-results tools/baremark-stick tools/run-qemu tools/write-stick tools/lava/make-job \
         tools/lava/lab tools/lava/fetch-results tools/mkimage.sh tools/make-run.sh tools/gen-nnet-data.sh \
         tools/install-deps.sh; do
    case $t in *fetch-results) run="python3 $t" ;; *.sh) run="sh $t" ;; *) run=$t ;; esac
    name=$(basename "$t")
    timeout 60 $run --help > "$T/h" 2> "$T/he" < /dev/null; rc=$?
    check "$name --help: usage on stdout, exit 0, stderr empty" \
        $([ $rc = 0 ] && [ -s "$T/h" ] && grep -qi 'usage\|^tools/' "$T/h" && [ ! -s "$T/he" ]; echo $?) \
        "rc $rc: $(head -2 "$T/h" "$T/he" | tr '\n' '|')"
    want=2
    [ "$name" = run-qemu ] && want=1
    timeout 60 $run --no-such-option > "$T/o" 2> "$T/e" < /dev/null; rc=$?
    check "$name --no-such-option: exit $want, one line on stderr naming the tool" \
        $([ $rc = $want ] && [ "$(wc -l < "$T/e")" = 1 ] && grep -q "^${name%.sh}\\|^make run\\|^usage: baremark\\|^baremark ${name#baremark-}: " "$T/e" && [ ! -s "$T/o" ]; echo $?) \
        "rc $rc: $(head -3 "$T/e" | tr '\n' '|')"
done

# ---- the hosted program's subcommands: a bad option is one line too -------------
for c in $(echo "$cmds" | sort -u); do
    timeout 20 $B "$c" --no-such-option > "$T/o" 2> "$T/e" < /dev/null; rc=$?
    check "baremark $c --no-such-option: exit 2, one line on stderr, nothing run" \
        $([ $rc = 2 ] && [ "$(wc -l < "$T/e")" = 1 ] && [ ! -s "$T/o" ]; echo $?) "rc $rc: $(head -3 "$T/e" | tr '\n' '|')"
done

# ---- one meaning of each verb; the old spellings still work, with a notice ------
$B compare-runs $G $G > "$T/o" 2> "$T/e"; rc=$?
check "compare-runs (old name of diff): works, one line saying the new name" \
    $([ $rc = 0 ] && [ "$(cat "$T/e")" = "baremark: 'compare-runs' is now 'baremark diff'" ] && grep -q '^A: ' "$T/o"; echo $?) \
    "rc $rc: $(cat "$T/e")"
tools/baremark-compare $G $G > "$T/o" 2> "$T/e"; rc=$?
check "tools/baremark-compare (old name of baremark-diff): works, one line of notice" \
    $([ $rc = 0 ] && [ "$(wc -l < "$T/e")" = 1 ] && grep -q 'baremark-diff' "$T/e" && grep -q '^A: ' "$T/o"; echo $?) "rc $rc"
printf '1\n2\n3\n' > "$T/s1"; printf '2\n3\n4\n' > "$T/s2"
$B stats "$T/s1" "$T/s2" > "$T/o" 2> "$T/e"; rc=$?
$B compare "$T/s1" "$T/s2" > "$T/o2" 2> "$T/e2"; rc2=$?
check "stats A B compares two sample files; compare A B still does, with one line of notice" \
    $([ $rc = 0 ] && [ ! -s "$T/e" ] && [ $rc2 = 0 ] && cmp -s "$T/o" "$T/o2" && [ "$(wc -l < "$T/e2")" = 1 ] &&
      grep -q 'stats A B' "$T/e2"; echo $?) "rc $rc/$rc2: $(cat "$T/e2")"

# ---- tests/run_one.sh in single-test mode returns the test's status -------------
printf '#!/bin/sh\necho "PASS: a"\necho "FAIL: b"\n' > "$T/t_fail.sh"
printf '#!/bin/sh\necho "PASS: a"\n' > "$T/t_pass.sh"
printf '#!/bin/sh\nexit 3\n' > "$T/t_crash.sh"
for k in fail pass crash; do
    sh tests/run_one.sh "$T/t_$k.sh" > /dev/null 2>&1
    eval "rc_$k=\$?"
done
check "run_one.sh FILE: exit 0 when every result passed, 1 on a FAIL line or a crash" \
    $([ "$rc_pass" = 0 ] && [ "$rc_fail" = 1 ] && [ "$rc_crash" = 1 ]; echo $?) "pass $rc_pass, fail $rc_fail, crash $rc_crash"
