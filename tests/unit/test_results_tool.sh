#!/bin/sh
# tests/unit/test_results_tool.sh - tools/baremark-results on a disk image
# made with tools/mkimage.sh (GPT + FAT32 ESP) holding the fixture runs of
# tests/fixtures/results/ (one complete, one unfinished with a warning, one
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
check "image: unfinished run marked incomplete with status 2" \
    $(grep -Eq '^20260101-120500 .* 2 completed with warnings \(incomplete: the run did not finish\)$' "$T/list1"; echo $?) \
    "$(grep 120500 "$T/list1")"
check "image: run cut short mid-write reported as unreadable" \
    $(grep -Eq '^20260101-121000 +\(unreadable JSON' "$T/list1"; echo $?) "$(grep 121000 "$T/list1")"
check "image: the stub EFI and the command file are not copied" $([ ! -e "$T/out1/BOOTX64.EFI" ] && [ ! -e "$T/out1/baremark.cfg" ]; echo $?)

# Again into the same folder: nothing changes, no .new copies.
"$R" "$T/disk.img" "$T/out1" > /dev/null 2>&1
check "image again: no .new copies of identical files" $([ -z "$(ls "$T/out1" | grep '\.new$')" ]; echo $?)
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

# No runs, no such source, an image with no FAT.
sh tools/mkimage.sh "$T/stub.efi" "$T/stub.cfg" "$T/empty.img" --size 40 >/dev/null 2>&1
mrd -i "$T/empty.img@@1M" ::/baremark 2>/dev/null
out=$("$R" "$T/empty.img" "$T/out5" 2>&1); rc=$?
check "image without a baremark folder: says so, exit 0" $([ $rc -eq 0 ] && echo "$out" | grep -q 'no runs'; echo $?) "$out"
"$R" "$T/nonexistent" "$T/out6" > /dev/null 2> "$T/err"; rc=$?
check "missing source: exit 1 with a message" $([ $rc -eq 1 ] && grep -q 'no such file' "$T/err"; echo $?)
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
    $([ $rc -eq 1 ] && grep -q '20260101-121000.json:[0-9]*:[0-9]*: not valid JSON' "$T/v"; echo $?) "$(cat "$T/v")"
