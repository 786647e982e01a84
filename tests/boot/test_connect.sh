#!/bin/bash
# Boot test: a results disk nobody put in the boot order (docs/results-volumes.md).
# The image boots from a medium that cannot take its results, with one
# blank results disk that has NO boot index (tools/run-qemu --results-disk):
# OVMF then connects only the boot device's path, as fast-boot firmware
# does, and the image must connect the rest itself.  The disk is on USB,
# virtio-blk, NVMe or SATA, formatted as a whole-disk FAT (no partition
# table; booted from the ISO as a CD-ROM) or as GPT with one FAT partition
# (booted from a write-protected stick whose \baremark exists): 8 boots.
# For each:
#   - run-qemu exit 0; the run's log says what connecting did (a count, a
#     time, the bound) and that the file systems grew (the disk was not
#     connected before: without the step its volume is not there);
#   - the volume it names is on that bus (its device-path node) and of that
#     layout (the disk itself, or its partition HD(1,GPT,...));
#   - exactly NAME.log and NAME.json are on the disk (read back with mtools),
#     the disk passes fsck.fat; the JSON validates, is named NAME, status 0;
#   - serial's summary block is `baremark show` of that JSON, headed NAME.
# Then a write-protected stick with no results disk at all: one clear
# warning, the connect line, status 2, the final line.
# profile=quick sections=none: no section runs (the results volume is the
# point); boots run two at a time.
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
ISO=$BUILD/baremark.iso
B=$BUILD/host/baremark
MK=$TOP/tools/mkresults-disk
T=$TEST_TMP/connect
rm -rf "$T" && mkdir -p "$T"
[ -f "$ISO" ] || { fail "connect: build/baremark.iso exists" "run make first"; exit 0; }
[ -x "$B" ] || { fail "connect: build/host/baremark exists" "run make host first"; exit 0; }
OPTS="profile=quick sections=none"

combos="usb:whole usb:gpt virtio:whole virtio:gpt nvme:whole nvme:gpt sata:whole sata:gpt"

one_boot() {   # BUS LAYOUT: make the disk, boot beside it, keep the exit status
    local bus=$1 layout=$2 id=connect-$1-$2 medium
    "$MK" "$T/$id.disk" --layout "$layout" --size 32 > "$T/$id.mk" 2>&1 || { echo mk > "$T/$id.rc"; return; }
    if [ "$layout" = whole ]; then
        cp "$ISO" "$T/$id.boot"
        medium=(--cdrom)
    else
        mv "$(fresh_image "$id")" "$T/$id.boot"
        medium=(--readonly)
    fi
    sha256sum < "$T/$id.boot" > "$T/$id.sum"
    boot "$id" "$T/$id.boot" "${medium[@]}" --results-disk "$T/$id.disk,bus=$bus" --options "$OPTS"
    echo "$BOOT_RC" > "$T/$id.rc"
}

check_boot() {   # BUS LAYOUT
    local bus=$1 layout=$2 id=connect-$1-$2 vol node hd name files line
    local what="$bus, $layout"
    BOOT_LOG=$TEST_TMP/$id.log BOOT_RC=$(cat "$T/$id.rc")
    if [ "$BOOT_RC" = mk ]; then
        fail "$what: tools/mkresults-disk makes the disk" "$(tr '\n' '|' < "$T/$id.mk")"
        return
    fi
    expect_rc 0 "$what: run-qemu exit 0 (completed and saved)"
    vol=$T/$id.disk
    [ "$layout" = gpt ] && vol="$vol@@1M"
    files=$(mdir -b -i "$vol" ::/baremark 2>/dev/null | sed 's|.*/||' | sort | tr '\n' ' ')
    name=${files%%.json *}
    if [ -n "$name" ] && [ "$files" = "$name.json $name.log " ]; then
        pass "$what: \\baremark\\$name.log and .json on the results disk, nothing else"
    else
        fail "$what: the run's two files on the results disk" "files '$files'"
        return
    fi
    mtype -i "$vol" "::/baremark/$name.log" | tr -d '\r' > "$T/$id.disk-log" 2>/dev/null
    mtype -i "$vol" "::/baremark/$name.json" > "$T/$id.json" 2>/dev/null
    # The connect line, from the run's own log (it keeps the full text).
    line=$(grep -E '^results: connected [0-9]+ controllers? in [0-9]+\.[0-9]{2} s \(file systems [0-9]+ -> [0-9]+, device handles [0-9]+ -> [0-9]+, [0-9] sweeps?; bound [0-9]+ s\)$' \
           "$T/$id.disk-log")
    local a b
    a=$(echo "$line" | sed -n 's/.*file systems \([0-9]*\) -> .*/\1/p')
    b=$(echo "$line" | sed -n 's/.*file systems [0-9]* -> \([0-9]*\),.*/\1/p')
    if [ -n "$line" ] && [ "$b" -gt "$a" ]; then
        pass "$what: says what connecting did and how long it took, a file system appeared (${line#results: })"
    else
        fail "$what: the connect line, with more file systems after" "'$line'"
    fi
    case $bus in
    usb) node='/USB\([^)]*\)' ;;
    nvme) node='/NVMe\([^)]*\)' ;;
    sata) node='/Sata\([^)]*\)' ;;
    virtio) node='^PciRoot\([^)]*\)/Pci\([^)]*\)' ;;    # the PCI function is the disk
    esac
    # whole disk: the path ends at the disk; GPT: at its first partition
    [ "$layout" = gpt ] && hd='/HD\(1,GPT,[^)]*\)$' || hd='$'
    line=$(grep -E '^results: the boot volume cannot take them \(EFI_WRITE_PROTECTED while creating (\\baremark|the result files)\); they go to the writable FAT volume "RESULTS" at PciRoot' \
           "$T/$id.disk-log")
    if [ -n "$line" ] && echo "${line##* at }" | grep -Eq "$node$hd"; then
        pass "$what: the log names the volume on that bus and layout (${line##* at })"
    else
        fail "$what: the volume named is on $bus, $layout" "'$line'"
    fi
    if "$B" validate "$T/$id.json" > "$T/$id.validate" 2>&1 &&
       jq -e --arg n "$name" '.status == 0 and .ended == true and .name == $n' "$T/$id.json" >/dev/null 2>&1; then
        pass "$what: the JSON validates, status 0, ended, named $name"
    else
        fail "$what: the JSON" "$(head -2 "$T/$id.validate" | tr '\n' '|') $(jq -c '{name, status, ended}' "$T/$id.json" 2>&1)"
    fi
    sed -n '/^=\{20\} baremark summary: /,/^baremark: run ended/p' "$BOOT_LOG" | sed '$d' > "$T/$id.summary"
    "$B" show "$T/$id.json" > "$T/$id.show" 2> "$T/$id.show.err"
    if head -1 "$T/$id.summary" | grep -q "^=\{20\} baremark summary: $name =\{20\}\$" &&
       cmp -s "$T/$id.summary" "$T/$id.show"; then
        pass "$what: serial's summary block ($(wc -l < "$T/$id.summary") lines) is baremark show of the disk's JSON"
    else
        fail "$what: serial's summary = baremark show" "$(diff "$T/$id.summary" "$T/$id.show" 2>&1 | head -3 | tr '\n' '|')"
    fi
    if [ "$layout" = gpt ]; then
        # the partition's FAT: fsck.fat on a copy of it
        dd if="$T/$id.disk" of="$T/$id.part" bs=1M skip=1 status=none
        fsck.fat -n "$T/$id.part" > "$T/$id.fsck" 2>&1
    else
        fsck.fat -n "$T/$id.disk" > "$T/$id.fsck" 2>&1
    fi && pass "$what: fsck.fat finds the FAT clean" || fail "$what: fsck.fat clean" "$(tail -2 "$T/$id.fsck" | tr '\n' '|')"
    sha256sum < "$T/$id.boot" | cmp -s - "$T/$id.sum" && pass "$what: the boot medium is unchanged" ||
        fail "$what: the boot medium is unchanged" "it changed"
    rm -f "$T/$id.boot" "$T/$id.part"
}

# Two at a time: each QEMU uses one of the two cores.
set -- $combos
while [ $# -gt 0 ]; do
    one_boot "${1%%:*}" "${1#*:}" &
    if [ $# -ge 2 ]; then one_boot "${2%%:*}" "${2#*:}" & shift; fi
    shift
    wait
done
for c in $combos; do
    check_boot "${c%%:*}" "${c#*:}"
done

# ---- no results disk: a write-protected stick alone --------------------------------------
img=$(fresh_image connect-none)
boot connect-none "$img" --readonly --options "$OPTS"
expect_rc 2 "no results disk: run-qemu exit 2 (completed, results not saved)"
expect_line '^results: connected [0-9]+ controllers? in [0-9]+\.[0-9]{2} s \(file systems [0-9]+ -> [0-9]+, device handles [0-9]+ -> [0-9]+, [0-9] sweeps?; bound [0-9]+ s\)$' \
    "no results disk: says what connecting did and how long it took"
expect_line '^warning: results not saved: the ESP is write-protected \(EFI_WRITE_PROTECTED while creating the result files\); no other writable FAT volume was found: results are on serial and screen only$' \
    "no results disk: says the results are on serial and screen only, and why"
n=$(grep -c '^warning: ' "$BOOT_LOG")
[ "$n" = 1 ] && pass "no results disk: one warning, no other" || fail "no results disk: one warning" "$n: $(grep '^warning: ' "$BOOT_LOG" | tr '\n' '|')"
expect_line '^baremark: run ended, status 2 \(completed with warnings\)$' "no results disk: final line with status 2"
