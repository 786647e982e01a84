#!/bin/sh
# tests/unit/test_write_stick.sh - tools/write-stick refuses what is not a
# whole removable disk and writes nothing then: usage, a missing image, a
# regular file, and (as root, where loop devices work) a loop disk, which is
# not removable, and its partition; each target's bytes are checked unchanged.
# The confirmation and the write itself need a real USB stick.
cd "$(dirname "$0")/../.." || exit 1
T=${TMPDIR:-/tmp}/test_write_stick.$$
mkdir -p "$T"
LOOP=""
trap '[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT
check() { if [ "$2" = 0 ]; then echo "PASS: $1"; else echo "FAIL: $1 (${3:-})"; fi; }
W=tools/write-stick
IMG=$T/image.img
head -c 1048576 /dev/urandom > "$IMG"

"$W" > "$T/out" 2>&1; rc=$?
check "no arguments: one line saying what to give and --help, exit 2" \
    $([ $rc = 2 ] && [ "$(wc -l < "$T/out")" = 1 ] && grep -q '^write-stick: give IMAGE and DEVICE.*(write-stick --help)$' "$T/out"; echo $?) "rc $rc"

"$W" "$T/missing.img" /dev/null > "$T/out" 2>&1; rc=$?
check "a missing image is refused (exit 1)" $([ $rc = 1 ] && grep -q 'no image' "$T/out"; echo $?) "rc $rc: $(cat "$T/out")"

head -c 2097152 /dev/zero > "$T/file.bin"
sum0=$(md5sum < "$T/file.bin")
"$W" "$IMG" "$T/file.bin" > "$T/out" 2>&1 < /dev/null; rc=$?
check "a regular file is refused as not a block device, unchanged" $([ $rc = 1 ] &&
    grep -q 'is not a block device' "$T/out" && [ "$(md5sum < "$T/file.bin")" = "$sum0" ]; echo $?) "rc $rc: $(cat "$T/out")"

# A loop disk with a GPT and one partition: a whole disk that is not removable.
truncate -s 16M "$T/disk.bin"
printf 'label: gpt\nstart=2048, size=8192\n' | sfdisk -q "$T/disk.bin" > /dev/null 2>&1
if [ "$(id -u)" = 0 ] && LOOP=$(losetup -f --show -P "$T/disk.bin" 2>/dev/null) && [ -b "$LOOP" ]; then
    sum0=$(md5sum < "$T/disk.bin")
    "$W" "$IMG" "$LOOP" > "$T/out" 2>&1 < /dev/null; rc=$?
    check "a disk that is not removable ($LOOP) is refused, unchanged" $([ $rc = 1 ] &&
        grep -q 'is not a removable disk: refusing' "$T/out" && [ "$(md5sum < "$T/disk.bin")" = "$sum0" ]; echo $?) \
        "rc $rc: $(cat "$T/out")"
    part=${LOOP}p1
    [ -b "$part" ] || partx -u "$LOOP" 2>/dev/null   # without udev the scan may need asking
    i=0
    while [ ! -b "$part" ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
    if [ -b "$part" ]; then
        "$W" "$IMG" "$part" > "$T/out" 2>&1 < /dev/null; rc=$?
        check "a partition ($part) is refused: the whole device is wanted" $([ $rc = 1 ] &&
            grep -q 'is a partition or not a whole disk' "$T/out" && [ "$(md5sum < "$T/disk.bin")" = "$sum0" ]; echo $?) \
            "rc $rc: $(cat "$T/out")"
    else
        echo "# skipped: $LOOP has no partition device (no partition scanning here)"
    fi
else
    echo "# skipped: the loop-device checks need root and loop devices"
fi
