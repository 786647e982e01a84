#!/bin/sh
# tests/unit/test_results_tool.sh - tools/baremark-results on a disk image
# made with tools/mkimage.sh (GPT + FAT32 ESP) holding the fixture runs of
# tests/fixtures/results/ (one complete, one interrupted during clock, one
# cut short mid-write), on a bare FAT image, on a mounted-ESP folder and on
# the baremark folder itself.  Also `baremark validate` on the same files.
# No boot, no root.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
TOP=$(pwd)
R=$TOP/tools/baremark-results
F=$TOP/tests/fixtures/results
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export MTOOLS_SKIP_CHECK=1
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
same_files() { # DIR: every fixture copied byte for byte
    for f in "$F"/*; do cmp -s "$f" "$1/$(basename "$f")" || return 1; done
}

# A GPT disk image with the runs in \baremark (the EFI file is a stand-in).
echo "not an EFI application" > "$T/stub.efi"
echo "# command file stand-in" > "$T/stub.cfg"
sh tools/mkimage.sh "$T/stub.efi" "$T/stub.cfg" "$T/disk.img" --size 40 >/dev/null 2>&1
check "mkimage.sh builds a test disk image" $?
mcopy -i "$T/disk.img@@1M" "$F"/* ::/baremark/
"$R" "$T/disk.img" "$T/out1" > "$T/list1" 2>&1
check "image: exit status 0" $?
check "image: every file copied byte for byte" $(same_files "$T/out1"; echo $?)
check "image: 3 runs listed" $(grep -q '^3 run(s) copied to' "$T/list1"; echo $?) "$(tail -1 "$T/list1")"
check "image: complete run listed with date, machine and status text" \
    $(grep -Eq '^20260101-120000 +2026-01-01T12:00:00 +QEMU Virtual CPU.*\(TCGTCGTCGTCG\) +0 completed and saved$' "$T/list1"; echo $?) \
    "$(grep 120000 "$T/list1")"
check "image: unfinished run listed as interrupted during the section it was in" \
    $(grep -Eq '^20260101-120500 .* interrupted during clock$' "$T/list1"; echo $?) \
    "$(grep 120500 "$T/list1")"
check "image: run cut short mid-write reported as unreadable" \
    $(grep -Eq '^20260101-121000 +\(unreadable JSON' "$T/list1"; echo $?) "$(grep 121000 "$T/list1")"
check "image: the stub EFI and the command file are not copied" $([ ! -e "$T/out1/BOOTX64.EFI" ] && [ ! -e "$T/out1/baremark.cfg" ]; echo $?)

# Again into the same folder: nothing changes, no .new copies.
"$R" "$T/disk.img" "$T/out1" > "$T/again" 2>&1
check "image again: no .new copies of identical files" $([ -z "$(ls "$T/out1" | grep '\.new$')" ]; echo $?)
check "image again: 0 copied, the 3 runs counted as already there" \
    $(grep -q '^0 run(s) copied to .*; 3 already there (identical, not copied again)$' "$T/again"; echo $?) "$(tail -1 "$T/again")"
# A file in DEST that differs is kept; the source's copy goes beside it.
echo changed > "$T/out1/20260101-120000.log"
"$R" "$T/disk.img" "$T/out1" > /dev/null 2> "$T/err"
check "image again: a differing file in DEST is kept" $(grep -qx changed "$T/out1/20260101-120000.log"; echo $?)
check "image again: the source's version saved as .new with a message" \
    $(cmp -s "$F/20260101-120000.log" "$T/out1/20260101-120000.log.new" && grep -q 'differs' "$T/err"; echo $?)

# A bare FAT file system (a partition device or image without a table).
truncate -s 40M "$T/fat.img"
mformat -i "$T/fat.img" -F :: >/dev/null 2>&1 && mmd -i "$T/fat.img" ::/baremark &&
    mcopy -i "$T/fat.img" "$F"/* ::/baremark/
"$R" "$T/fat.img" "$T/out2" > "$T/list2" 2>&1
check "bare FAT image: runs copied" $(same_files "$T/out2"; echo $?) "$(tr '\n' '|' < "$T/list2")"

# A mounted ESP folder, and the baremark folder itself.
mkdir -p "$T/esp/baremark" && cp "$F"/* "$T/esp/baremark/"
"$R" "$T/esp" "$T/out3" > "$T/list3" 2>&1
check "ESP folder: exit 0, runs copied" $(same_files "$T/out3"; echo $?) "$(tr '\n' '|' < "$T/list3")"
check "ESP folder: same listing as the image" $(diff "$T/list1" "$T/list3" | grep -v 'copied to' | grep -q '^[<>]'; [ $? -ne 0 ]; echo $?)
"$R" "$T/esp/baremark" "$T/out4" > /dev/null 2>&1
check "baremark folder itself: runs copied" $(same_files "$T/out4"; echo $?)

# A cut while the image zeroed an old NAME.json before its delete (its new
# version whole in NAME.json.new beside it): the .new is taken for the run;
# a zeroed NAME.json with no whole .new is skipped, named.  A folder source.
mkdir -p "$T/zeroed/baremark"
cp "$F/20260101-120000.json" "$T/zeroed/baremark/20260101-120000.json.new"
head -c 3000 /dev/zero > "$T/zeroed/baremark/20260101-120000.json"
{ head -c 200 "$F/20260101-120500.json"; head -c 800 /dev/zero; } > "$T/zeroed/baremark/20260101-120500.json"
"$R" "$T/zeroed" "$T/out8" > "$T/list8" 2>&1; rc=$?
check "zeroed NAME.json beside a whole .new: the .new copied as the run, said in one line" \
    $(cmp -s "$F/20260101-120000.json" "$T/out8/20260101-120000.json" &&
      grep -q '^baremark-results: took 20260101-120000.json.new for 20260101-120000.json: ' "$T/list8" &&
      [ ! -e "$T/out8/20260101-120000.json.new" ]; echo $?) "$(tr '\n' '|' < "$T/list8")"
check "half-zeroed NAME.json with no .new: skipped and named, not copied, exit 2" \
    $([ $rc = 2 ] && [ ! -e "$T/out8/20260101-120500.json" ] &&
      grep -q '^baremark-results: skipped 20260101-120500.json: holds NUL bytes' "$T/list8" &&
      grep -q '^1 run(s) copied' "$T/list8"; echo $?) "$(tr '\n' '|' < "$T/list8")"

# No runs, no such source, an image with no FAT.
sh tools/mkimage.sh "$T/stub.efi" "$T/stub.cfg" "$T/empty.img" --size 40 >/dev/null 2>&1
mrd -i "$T/empty.img@@1M" ::/baremark 2>/dev/null
out=$("$R" "$T/empty.img" "$T/out5" 2>&1); rc=$?
check "image without a baremark folder: says so, exit 0" $([ $rc -eq 0 ] && echo "$out" | grep -q 'no runs'; echo $?) "$out"
"$R" "$T/nonexistent" "$T/out6" > /dev/null 2> "$T/err"; rc=$?
check "missing source: exit 2 (bad input, docs/tools.md), named" $([ $rc -eq 2 ] && grep -q 'nonexistent: no such file' "$T/err"; echo $?)
head -c 100000 /dev/zero > "$T/zero.img"
"$R" "$T/zero.img" "$T/out7" > /dev/null 2> "$T/err"; rc=$?
check "no FAT on the source: exit 1 with a message" $([ $rc -eq 1 ] && grep -q 'no FAT' "$T/err"; echo $?)

# The copied files through the validator: two valid, the cut one named.
B=${BAREMARK_HOST:-build/host/baremark}
[ -n "${BAREMARK_HOST:-}" ] || [ -x "$B" ] || make -s host >/dev/null 2>&1
"$B" validate "$T/out1/20260101-120000.json" "$T/out1/20260101-120500.json" > "$T/v" 2>&1
check "validate: the complete and the unfinished run are valid" $? "$(tr '\n' '|' < "$T/v")"
"$B" validate "$T/out1/20260101-121000.json" > "$T/v" 2>&1; rc=$?
check "validate: the run cut short is invalid JSON, with file and line" \
    $([ $rc -eq 2 ] && grep -q '20260101-121000.json:[0-9]*:[0-9]*: not valid JSON' "$T/v"; echo $?) "$(cat "$T/v")"

# ---- diff and report on the fixture run (tests/fixtures/run-guess.json)
G=tests/fixtures/run-guess.json
# B: lfence+rdtsc 3 ticks slower, NUMERIC SORT 5% faster, FOURIER identical.
jq '.methods.methods[1].overhead.samples |= map(. + 3) | .bytemark.tests[0].scores |= map(. * 1.05)
    | .bytemark.tests[0].mean *= 1.05 | .name = "B"' $G > "$T/b.json"
"$B" diff --json $G "$T/b.json" > "$T/cmp.json"
check "diff --json: exit 0" $?
/usr/bin/python3 - $G "$T/b.json" "$T/cmp.json" > "$T/py" 2>&1 <<'PY'
# Expected values computed independently with scipy from the raw samples.
import json, sys
from scipy import stats
a, b, got = (json.load(open(p)) for p in sys.argv[1:4])
items = {i["name"]: i for i in got["items"]}
khz_a, khz_b = a["clock"]["chosen_khz"], b["clock"]["chosen_khz"]
def close(x, y, rel=1e-9):
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-300)
bad = []
for ma, mb in zip(a["methods"]["methods"], b["methods"]["methods"]):
    sa = [x * 1e6 / khz_a for x in ma.get("overhead", {}).get("samples", [])]
    sb = [x * 1e6 / khz_b for x in mb.get("overhead", {}).get("samples", [])]
    if not sa:
        continue
    it = items[ma["name"]]
    w = stats.ttest_ind(sa, sb, equal_var=False).pvalue
    u = stats.mannwhitneyu(sa, sb, method="asymptotic", use_continuity=True).pvalue
    if it["unit"] != "ns" or not close(it["welch_p"], w, 1e-6) or not close(it["mann_whitney_p"], u, 1e-6):
        bad.append(f"{ma['name']}: welch {it['welch_p']} vs {w}, mw {it['mann_whitney_p']} vs {u}")
for ta, tb in zip(a["bytemark"]["tests"], b["bytemark"]["tests"]):
    if not ta.get("scores"):
        continue
    it = items[ta["name"]]
    w = stats.ttest_ind(ta["scores"], tb["scores"], equal_var=False).pvalue
    ratio = (sum(ta["scores"]) / len(ta["scores"])) / (sum(tb["scores"]) / len(tb["scores"]))
    if not close(it["welch_p"], w, 1e-6) or not close(it["ratio"], ratio, 1e-8):
        bad.append(f"{ta['name']}: welch {it['welch_p']} vs {w}, ratio {it['ratio']} vs {ratio}")
want = {"lfence+rdtsc": "A faster", "cpuid+rdtsc": "no difference", "NUMERIC SORT": "A slower",
        "FOURIER": "no difference", "rdtscp": "no raw samples"}
for k, v in want.items():
    if items[k]["verdict"] != v:
        bad.append(f"{k}: verdict {items[k]['verdict']}, want {v}")
print("; ".join(bad) or "ok")
PY
check "diff: p-values and ratios match scipy from the raw samples; verdicts right" \
    $(grep -qx ok "$T/py"; echo $?) "$(cat "$T/py")"
"$B" diff --noise 0.2 --json $G "$T/b.json" | jq -e '[.items[] | select(.verdict == "A faster" or .verdict == "A slower")] | length == 0' >/dev/null
check "diff: a 20% noise threshold turns every verdict into no difference" $?
"$B" diff $G "$T/b.json" > "$T/cmp.txt"
check "diff text: one line per method and kernel in both runs" \
    $([ "$(grep -Ec '^(method|kernel) ' "$T/cmp.txt")" = 7 ]; echo $?) "$(cat "$T/cmp.txt")"
"$B" diff --html $G "$T/b.json" > "$T/cmp.html"
check "diff --html: a page with a row per item" \
    $([ "$(grep -o '<tr><td>' "$T/cmp.html" | wc -l)" = "$(jq '.items | length' "$T/cmp.json")" ]; echo $?)
"$B" diff $G > /dev/null 2>&1
check "diff with one file: usage, exit 2" $([ $? = 2 ]; echo $?)
"$B" report $G -o "$T/r.html" > /dev/null
check "report: exit 0 and an HTML file" $(grep -q '</html>' "$T/r.html"; echo $?)
check "report: no script and no external resource" $(! grep -Eq '<script|<link|src="http' "$T/r.html"; echo $?)
"$B" report "$T/nonexistent.json" > /dev/null 2>&1
check "report of a missing file: exit 2" $([ $? = 2 ]; echo $?)
jq '.bytemark.tests[0].runs = 3 | .status = 0 | .errors = ["x"] | .system.memory_mib = "512"' $G > "$T/bad.json"
"$B" validate "$T/bad.json" > "$T/v" 2>&1; rc=$?
check "validate: each inconsistency named (runs vs scores, status vs errors, type with unit)" \
    $([ $rc = 1 ] && grep -q 'tests\[0\] (numsort): runs is 3 but 6 scores' "$T/v" &&
      grep -q 'status: is 0 but the errors list is not empty' "$T/v" &&
      grep -q 'system.memory_mib: expected a non-negative integer (MiB), found a string' "$T/v"; echo $?) "$(cat "$T/v")"
