#!/bin/bash
# Boot test: the ISO (build/baremark.iso, tools/mkiso.sh) on virtual media.
#  1. As a CD-ROM with a blank FAT disk beside it: the El Torito boot image is
#     read-only, so the run says so and where its results go instead; the
#     log and JSON on the blank disk are read back (the log byte for byte
#     against serial), the disk passes fsck.fat.
#  2. As a CD-ROM alone: the run says plainly that its results are on
#     serial and screen only (status 2), once.
#  3. Written to a stick (the hybrid GPT's EFI partition): boots, saves on
#     the stick's own FAT partition, the ISO 9660 tree still reads.
# 1 and 2 boot in parallel; no section runs (the boot paths are the point).
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
ISO=$BUILD/baremark.iso
B=$BUILD/host/baremark
T=$TEST_TMP/media
rm -rf "$T" && mkdir -p "$T"
[ -f "$ISO" ] || { fail "media: build/baremark.iso exists" "run make first"; exit 0; }
cp "$ISO" "$T/cd.iso"
cp "$ISO" "$T/cd-alone.iso"
iso_sum=$(sha256sum < "$ISO")
# A blank FAT volume with no partition table, as a freshly formatted stick.
mkfs.fat -C -n RESULTS "$T/results.img" 16384 >/dev/null

# The serial text from the banner to before the final line, LAVA lines
# taken out: what the image writes to its .log (which starts with "\n").
serial_as_log() {
    printf '\n'
    awk '/^baremark [^ ]+ - bare-metal timing/{p=1} /^baremark: run ended/{p=0} p' "$1" | grep -v '^BAREMARK-LAVA'
}

( boot media-cd "$T/cd.iso" --cdrom --disk "$T/results.img" --options "sections=none"
  echo "$BOOT_RC" > "$T/cd.rc" ) &
( boot media-cd-alone "$T/cd-alone.iso" --cdrom --options "sections=none"
  echo "$BOOT_RC" > "$T/cd-alone.rc" ) &
wait

# ---- 1. CD + blank FAT disk -------------------------------------------------------
BOOT_LOG=$TEST_TMP/media-cd.log BOOT_RC=$(cat "$T/cd.rc")
expect_rc 0 "CD + blank disk: run-qemu exit 0 (completed and saved)"
expect_line '^BdsDxe: starting Boot[0-9A-F]+ "UEFI QEMU DVD-ROM' "CD + blank disk: the firmware booted the CD-ROM"
expect_line '^results: the boot volume cannot take them \(EFI_WRITE_PROTECTED while creating \\baremark\); they go to the writable FAT volume "RESULTS" at PciRoot' \
    "CD + blank disk: says the CD is read-only and names the volume the results went to"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .* on the volume named above$/\1/p' "$BOOT_LOG")
files=$(mdir -b -i "$T/results.img" ::/baremark 2>/dev/null | sed 's|.*/||' | sort | tr '\n' ' ')
if [ -n "$name" ] && [ "$files" = "$name.json $name.log " ]; then
    pass "CD + blank disk: \\baremark\\$name.log and .json on the blank disk, nothing else"
else
    fail "CD + blank disk: the run's two files on the blank disk" "name '$name', files '$files'"
fi
mtype -i "$T/results.img" "::/baremark/$name.log" > "$T/cd.log" 2>/dev/null
serial_as_log "$BOOT_LOG" > "$T/cd.serial-log"
if [ -s "$T/cd.log" ] && cmp -s "$T/cd.log" "$T/cd.serial-log"; then
    pass "CD + blank disk: the log on the disk is byte for byte the serial text ($(wc -c < "$T/cd.log") bytes)"
else
    fail "CD + blank disk: log equals serial" "$(cmp "$T/cd.log" "$T/cd.serial-log" 2>&1 | head -1)"
fi
mtype -i "$T/results.img" "::/baremark/$name.json" > "$T/cd.json" 2>/dev/null
if "$B" validate "$T/cd.json" > "$T/cd.validate" 2>&1 &&
   jq -e --arg n "$name" '.status == 0 and .ended == true and .name == $n' "$T/cd.json" >/dev/null 2>&1; then
    pass "CD + blank disk: the JSON is valid, status 0, ended, named $name"
else
    fail "CD + blank disk: the JSON" "$(head -2 "$T/cd.validate" | tr '\n' '|')"
fi
fsck.fat -n "$T/results.img" > "$T/cd.fsck" 2>&1 &&
    pass "CD + blank disk: fsck.fat finds the disk clean" || fail "CD + blank disk: fsck.fat clean" "$(tail -2 "$T/cd.fsck" | tr '\n' '|')"
[ "$(sha256sum < "$T/cd.iso")" = "$iso_sum" ] && pass "CD + blank disk: the ISO file is unchanged" ||
    fail "CD + blank disk: the ISO file is unchanged" "changed"

# ---- 2. CD alone ------------------------------------------------------------------
BOOT_LOG=$TEST_TMP/media-cd-alone.log BOOT_RC=$(cat "$T/cd-alone.rc")
expect_rc 2 "CD alone: run-qemu exit 2 (completed, results not saved)"
expect_line '^warning: results not saved: the ESP is write-protected \(EFI_WRITE_PROTECTED while creating \\baremark\); no other writable FAT volume was found: results are on serial and screen only$' \
    "CD alone: says the results are on serial and screen only, and why"
n=$(grep -c '^warning: results not saved' "$BOOT_LOG")
[ "$n" = 1 ] && pass "CD alone: said once" || fail "CD alone: said once" "said $n times"
expect_line '^baremark: run ended, status 2 \(completed with warnings\)$' "CD alone: final line with status 2"

# ---- 3. the ISO written to a stick --------------------------------------------------
cp "$ISO" "$T/stick.img"
# The EFI System partition of the hybrid GPT (xorriso's appended partition).
start=$(sfdisk --json "$T/stick.img" 2>/dev/null |
        jq -r '.partitiontable.partitions[] | select(.type == "C12A7328-F81F-11D2-BA4B-00A0C93EC93B") | .start')
if [ -z "$start" ]; then
    fail "stick: the ISO has an EFI System partition in its GPT" "$(sfdisk -l "$T/stick.img" 2>&1 | tail -3 | tr '\n' '|')"
else
    pass "stick: the ISO has an EFI System partition in its GPT (sector $start)"
    boot media-stick "$T/stick.img" --options "sections=none"
    expect_rc 0 "stick: the ISO written to a stick boots and saves (exit 0)"
    expect_line '^results: \\baremark\\[^ ]+\.log and \\baremark\\[^ ]+\.json on the ESP$' "stick: results on the stick's own FAT partition"
    name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$BOOT_LOG")
    mtype -i "$T/stick.img@@$((start * 512))" "::/baremark/$name.json" > "$T/stick.json" 2>/dev/null
    jq -e '.status == 0 and .ended == true' "$T/stick.json" >/dev/null 2>&1 &&
        pass "stick: its JSON read back from the partition says status 0" || fail "stick: JSON on the partition" "$(head -c 200 "$T/stick.json")"
    if xorriso -indev "$T/stick.img" -find /EFI/BOOT/BOOTX64.EFI 2>/dev/null | grep -q BOOTX64.EFI; then
        pass "stick: the ISO 9660 tree still reads after the run wrote its partition"
    else
        fail "stick: the ISO 9660 tree still reads" "xorriso cannot find /EFI/BOOT/BOOTX64.EFI"
    fi
fi
