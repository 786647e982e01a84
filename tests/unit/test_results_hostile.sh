#!/bin/sh
# tests/unit/test_results_hostile.sh - tools/baremark-results on a stick
# from somewhere else (issue 15 point 4): only run files are copied, names it
# skips are said with the reason, symbolic links out of the source are not
# followed (nor written through in DEST), a JSON of the wrong types gives one
# clear line (no jq error, no temp path), control characters in the files
# never reach the terminal raw, and a failure leaves nothing behind.  On a
# folder and on a FAT image.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
R=${BAREMARK_RESULTS:-$(pwd)/tools/baremark-results}
F=tests/fixtures/results
T=$(mktemp -d)
trap "rm -rf $T" EXIT; [ -n "${KEEP:-}" ] && trap "" EXIT
export MTOOLS_SKIP_CHECK=1
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
ESC=$(printf '\033')

# A stick's baremark folder with runs and things that are not runs.
S=$T/stick/baremark
mkdir -p "$S/sub" "$T/outside"
cp $F/20260101-120000.json $F/20260101-120000.log "$S/"
echo "secret" > "$T/outside/secret.txt"
echo "a note" > "$S/notes.log"
echo '{"x": 1}' > "$S/evil.json"
echo "x" > "$S/sub/20260101-120000.log"
ln -s "$T/outside/secret.txt" "$S/20260101-130000.log"
# a run's name followed by a newline and more: not a run file
cp $F/20260101-120000.log "$S/20260101-120000.log
x"
# a JSON a power cut left mid-write (boot/file_replace.c): not a run
head -c 100 $F/20260101-120000.json > "$S/20260101-120000.json.new"
# wrong types: a name that is a number, system a string, status a string
printf '{"schema": 1, "name": 5, "system": "x", "status": "0", "ended": true, "errors": []}\n' > "$S/20260101-140000.json"
# control characters in the machine's name
jq '.system.cpu_brand = "Evil\u001b[2J\u001b]0;pwned\u0007CPU" + ("x" * 80) | .name = "20260101-150000"' \
    $F/20260101-120000.json > "$S/20260101-150000.json"

"$R" "$T/stick" "$T/out" > "$T/list" 2> "$T/err"; rc=$?
check "folder: exit 2 (runs copied, names skipped)" $([ $rc = 2 ]; echo $?) "rc $rc: $(tr '\n' '|' < "$T/err")"
check "folder: the run files are copied" \
    $(cmp -s $F/20260101-120000.json "$T/out/20260101-120000.json" && [ -f "$T/out/20260101-140000.json" ] &&
      [ -f "$T/out/20260101-150000.json" ]; echo $?)
check "folder: files that are not runs are not copied" \
    $([ ! -e "$T/out/notes.log" ] && [ ! -e "$T/out/evil.json" ] && [ ! -e "$T/out/sub" ]; echo $?) "$(ls "$T/out" | tr '\n' ' ')"
check "folder: each skipped name is said with its reason" \
    $(grep -q 'skipped notes.log: not a run file' "$T/err" && grep -q 'skipped evil.json: not a run file' "$T/err" &&
      grep -q 'skipped sub/: a folder' "$T/err"; echo $?) "$(tr '\n' '|' < "$T/err")"
check "folder: a NAME.json.new is named as left by a power cut, not copied" \
    $([ ! -e "$T/out/20260101-120000.json.new" ] &&
      grep -q 'skipped 20260101-120000.json.new: left by a power cut while the image wrote it' "$T/err"; echo $?) \
    "$(tr '\n' '|' < "$T/err")"
check "folder: a name with a newline after a run's name is not a run file" \
    $([ "$(ls "$T/out" | grep -c 'x$')" = 0 ] && grep -q 'skipped 20260101-120000.log\\x0ax: not a run file' "$T/err"; echo $?) \
    "$(tr '\n' '|' < "$T/err")"
check "folder: a symbolic link (to a file outside) is not followed" \
    $([ ! -e "$T/out/20260101-130000.log" ] && ! grep -rq secret "$T/out" &&
      grep -q 'skipped 20260101-130000.log: a symbolic link' "$T/err"; echo $?)
check "folder: a JSON of the wrong types is one clear line" \
    $(grep -Eq '^20260101-140000 +\(not a baremark results document: name is a number, system is a string, status is a string;' "$T/list" &&
      ! grep -q 'jq: error' "$T/list" "$T/err" && ! grep 140000 "$T/list" | grep -q /; echo $?) "$(cat "$T/list" "$T/err" | tr '\n' '|')"
check "folder: no ESC or BEL byte reaches the terminal" \
    $(! grep -q "$ESC\|$(printf '\007')" "$T/list" "$T/err"; echo $?)
check "folder: a long machine name is cut to its column with a note" \
    $(grep -q '^20260101-150000 .*~ ' "$T/list" && grep -q '^(~: a field cut to its column' "$T/list"; echo $?) "$(grep 150000 "$T/list")"
check "folder: control characters shown as \\x1b" $(grep -Fq 'Evil\x1b[2J\x1b]0;pwned\x07CPU' "$T/list"; echo $?) \
    "$(grep 150000 "$T/list" | cat -v)"

# The baremark folder as a symbolic link out of the source: refused.
mkdir -p "$T/stick2" "$T/elsewhere"
cp $F/20260101-120000.json "$T/elsewhere/"
ln -s "$T/elsewhere" "$T/stick2/baremark"
"$R" "$T/stick2" "$T/out2" > /dev/null 2> "$T/err"; rc=$?
check "a baremark folder linking out of the source: refused (exit 1), nothing copied, no DEST left" \
    $([ $rc = 1 ] && grep -q 'symbolic link out of' "$T/err" && [ ! -e "$T/out2" ]; echo $?) "rc $rc: $(cat "$T/err")"

# A failure leaves nothing behind: no DEST, no temp folder.
mkdir -p "$T/empty" "$T/tmpdir"
TMPDIR=$T/tmpdir "$R" "$T/empty" "$T/out3" > /dev/null 2> "$T/err"; rc=$?
check "a source with no runs: exit 1, DEST not created, no temp files" \
    $([ $rc = 1 ] && [ ! -e "$T/out3" ] && [ -z "$(ls -A "$T/tmpdir")" ]; echo $?) "rc $rc: $(ls -A "$T/tmpdir")"
"$R" "$T/nonexistent" "$T/out4" > /dev/null 2>&1
check "a missing source: DEST not created" $([ ! -e "$T/out4" ]; echo $?)

# DEST entries that are symbolic links are never written through.
mkdir -p "$T/out5"
echo "keep" > "$T/victim"
ln -s "$T/victim" "$T/out5/20260101-120000.log"
"$R" "$T/stick" "$T/out5" > /dev/null 2> "$T/err"
check "a symbolic link in DEST is not written through" \
    $(grep -qx keep "$T/victim" && grep -q 'is a symbolic link: not written through' "$T/err"; echo $?)
ln -s "$T/out" "$T/destlink"
"$R" "$T/stick" "$T/destlink" > /dev/null 2> "$T/err"; rc=$?
check "DEST that is a symbolic link: refused (exit 1)" $([ $rc = 1 ] && grep -q 'DEST' "$T/err"; echo $?) "rc $rc"

# A FAT image: the same choice of names.
truncate -s 40M "$T/fat.img"
mformat -i "$T/fat.img" -F :: >/dev/null 2>&1 && mmd -i "$T/fat.img" ::/baremark ::/baremark/plugins &&
    mcopy -i "$T/fat.img" $F/20260101-120000.json $F/20260101-120000.log "$S/notes.log" "$S/evil.json" ::/baremark/
"$R" "$T/fat.img" "$T/out6" > "$T/list" 2> "$T/err"; rc=$?
check "FAT image: exit 2, only the run files copied, the others named" \
    $([ $rc = 2 ] && [ "$(ls "$T/out6" | wc -l)" = 2 ] && grep -q 'skipped notes.log: not a run file' "$T/err" &&
      grep -q 'skipped evil.json' "$T/err"; echo $?) "rc $rc: $(ls "$T/out6" | tr '\n' ' ') $(tr '\n' '|' < "$T/err")"
check "FAT image: the plug-ins folder is left, said, not counted as skipped" \
    $(grep -q 'left .*plugins' "$T/err" && grep -q '2 name(s) skipped' "$T/err"; echo $?) "$(tr '\n' '|' < "$T/err")"
