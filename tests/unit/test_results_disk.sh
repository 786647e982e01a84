#!/bin/sh
# tests/unit/test_results_disk.sh - the results-disk tools, no guest booted.
#  1. tools/run-qemu --results-disk FILE[,bus=...]: what it asks QEMU for
#     (a stand-in qemu-system-x86_64 records its arguments): the disk on the
#     bus named (usb-storage, virtio-blk-pci, nvme, ide-hd on an AHCI port)
#     with no bootindex, the boot medium at bootindex=0; a bad bus or a
#     missing file refused with exit 1 and QEMU not started.
#  2. tools/mkresults-disk: whole-disk FAT and GPT + one FAT partition, read
#     back by tools that did not make them (fsck.fat, sfdisk --json, mdir);
#     --mark makes \baremark; bad usage exits 2.
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export MTOOLS_SKIP_CHECK=1
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
mkdir "$T/bin"
cat > "$T/bin/qemu-system-x86_64" <<'EOS'
#!/bin/sh
printf '%s\n' "$@" > "$ARGS_OUT"
log=$(printf '%s\n' "$@" | sed -n 's/^stdio,id=com1,signal=off,logfile=//p')
echo "baremark: run ended, status 0" >> "$log"
exit 1
EOS
chmod +x "$T/bin/qemu-system-x86_64"
: > "$T/OVMF_CODE.fd"
: > "$T/OVMF_VARS.fd"
python3 -c "import sys; b = bytearray(1024); b[510:512] = b'\x55\xaa'; b[512:520] = b'EFI PART'; open(sys.argv[1], 'wb').write(b)" "$T/disk.img"
: > "$T/res.img"
run() { # run NAME ARGS...: run-qemu with the stand-in; QEMU's args in $T/NAME
    n=$1
    shift
    env PATH="$T/bin:$PATH" ARGS_OUT="$T/$n" OVMF_CODE="$T/OVMF_CODE.fd" OVMF_VARS="$T/OVMF_VARS.fd" \
        bash tools/run-qemu "$@" > "$T/$n.out" 2>&1
}

# ---- 1. run-qemu --results-disk ----------------------------------------------------
for case in "usb:usb-storage,drive=res0" "virtio:virtio-blk-pci,drive=res0" \
            "nvme:nvme,drive=res0,serial=bmresults0" "sata:ide-hd,drive=res0,bus=ide.1"; do
    bus=${case%%:*} want=${case#*:}
    run "$bus" --results-disk "$T/res.img,bus=$bus" "$T/disk.img"
    rc=$?
    check "--results-disk FILE,bus=$bus: -device $want (no bootindex), the stick at bootindex=0" \
        $([ $rc = 0 ] && grep -qx -- "$want" "$T/$bus" && grep -qx "if=none,id=res0,format=raw,file=$T/res.img" "$T/$bus" &&
          grep -qx 'usb-storage,drive=stick,bootindex=0' "$T/$bus" && [ "$(grep -c bootindex "$T/$bus")" = 1 ]; echo $?) \
        "rc $rc; $(grep -e res0 -e bootindex "$T/$bus" | tr '\n' ' ')"
done
run default --results-disk "$T/res.img" "$T/disk.img"
grep -qx -- "usb-storage,drive=res0" "$T/default"
check "--results-disk FILE: USB by default" $?
run pc --machine pc --results-disk "$T/res.img,bus=sata" --results-disk "$T/res.img,bus=sata" "$T/disk.img"
check "--machine pc, two SATA results disks: one added AHCI controller, ports 0 and 1" \
    $(grep -qx 'ahci,id=resahci' "$T/pc" && [ "$(grep -c '^ahci,' "$T/pc")" = 1 ] &&
      grep -qx 'ide-hd,drive=res0,bus=resahci.0' "$T/pc" && grep -qx 'ide-hd,drive=res1,bus=resahci.1' "$T/pc"; echo $?) \
    "$(grep -e ahci "$T/pc" | tr '\n' ' ')"
run badbus --results-disk "$T/res.img,bus=scsi" "$T/disk.img"; rc=$?
check "--results-disk FILE,bus=scsi refused (exit 1, the bus named), QEMU not started" \
    $([ $rc = 1 ] && [ ! -e "$T/badbus" ] && grep -q "^run-qemu: --results-disk: 'bus=scsi' is not" "$T/badbus.out"; echo $?) \
    "rc $rc: $(cat "$T/badbus.out")"
run nofile --results-disk "$T/absent.img" "$T/disk.img"; rc=$?
check "--results-disk with a missing file refused (exit 1, the file named)" \
    $([ $rc = 1 ] && [ ! -e "$T/nofile" ] && grep -q "absent.img" "$T/nofile.out"; echo $?) "rc $rc"

# ---- 2. mkresults-disk -------------------------------------------------------------
MK=tools/mkresults-disk
$MK "$T/w.img" --size 16 > "$T/w.out" 2>&1
check "mkresults-disk: whole-disk FAT, 16 MiB, fsck.fat clean, label RESULTS, empty, no partition entry in sector 0" \
    $([ "$(stat -c %s "$T/w.img")" = $((16 << 20)) ] && fsck.fat -n "$T/w.img" > /dev/null 2>&1 &&
      [ "$(mlabel -s -i "$T/w.img" :: | sed 's/.*is //; s/ *$//')" = RESULTS ] &&
      [ -z "$(mdir -b -i "$T/w.img" :: 2>/dev/null)" ] && [ "$(od -v -An -tx1 -j446 -N64 "$T/w.img" | tr -d ' \n' | tr -d 0)" = "" ]; echo $?) \
    "$(cat "$T/w.out")"
$MK "$T/g.img" --layout gpt --mark --label LAB > "$T/g.out" 2>&1
start=$(sfdisk --json "$T/g.img" 2>/dev/null | jq -r '.partitiontable | select(.label == "gpt") | .partitions[0].start')
type=$(sfdisk --json "$T/g.img" 2>/dev/null | jq -r '.partitiontable.partitions[0].type')
n=$(sfdisk --json "$T/g.img" 2>/dev/null | jq -r '.partitiontable.partitions | length')
dd if="$T/g.img" of="$T/g.part" bs=512 skip="${start:-0}" status=none
check "mkresults-disk --layout gpt --mark --label LAB: one basic-data partition at 1 MiB, FAT clean, a baremark folder, label LAB" \
    $([ "$start" = 2048 ] && [ "$n" = 1 ] && [ "$type" = EBD0A0A2-B9E5-4433-87C0-68B6B72699C7 ] &&
      fsck.fat -n "$T/g.part" > /dev/null 2>&1 && [ "$(mdir -b -i "$T/g.part" :: 2>/dev/null)" = "::/baremark/" ] &&
      [ "$(mlabel -s -i "$T/g.part" :: | sed 's/.*is //; s/ *$//')" = LAB ]; echo $?) \
    "start $start, n $n, type $type; $(cat "$T/g.out")"
$MK "$T/x.img" --layout mbr > "$T/x.out" 2>&1; rc=$?
check "mkresults-disk --layout mbr refused (exit 2, one line naming the option), no file" \
    $([ $rc = 2 ] && [ "$(wc -l < "$T/x.out")" = 1 ] && grep -q "^mkresults-disk: --layout" "$T/x.out" && [ ! -e "$T/x.img" ]; echo $?) \
    "rc $rc: $(cat "$T/x.out")"
$MK --help > "$T/h.out" 2> "$T/h.err"; rc=$?
check "mkresults-disk --help: usage on stdout, exit 0" $([ $rc = 0 ] && grep -q '^tools/mkresults-disk FILE' "$T/h.out" && [ ! -s "$T/h.err" ]; echo $?)
