#!/bin/bash
# Boot test: a run that outlasts the firmware's 5-minute watchdog is not
# reset.  Under -icount shift=0,sleep=off the guest's idle time costs almost
# nothing, so the run idles (interrupts enabled, firmware timer ticking, CPU
# halted between ticks) for 310 guest seconds after the sections.  The
# control arms the watchdog again for 5 s and idles 20 s: that run must be
# reset before its end, which shows this test would see a reset.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image watchdog)

boot long "$img" --icount-nosleep --options "sections=none idleseconds=310"
expect_rc 0 "310 s run: run-qemu exit 0"
expect_line '^watchdog: disabled$' "310 s run: the image disabled the watchdog"
ticks=$(sed -n 's/^idle: done after \([0-9]*\) TSC ticks$/\1/p' "$BOOT_LOG")
# icount shift=0: the TSC counts 10^9 a guest second.  The firmware's timer
# events run on its 10 ms tick and its own count of ticks, so the event may
# come up to one tick early (309.996 s seen).
if [ -n "$ticks" ] && [ "$ticks" -ge 309980000000 ] && [ "$ticks" -lt 311000000000 ]; then
    pass "310 s run: idled $ticks TSC ticks (310 s at 1 GHz) and went on"
else
    fail "310 s run: idled 310 s" "ticks '${ticks}'"
fi
expect_line '^baremark: run ended, status 0 ' "310 s run: ended normally, not reset"

boot reset "$img" --icount-nosleep --options "sections=none idleseconds=20 watchdogseconds=5"
expect_rc 3 "control, watchdog armed for 5 s: run-qemu sees no end (exit 3)"
expect_line '^watchdog: armed again for 5 s' "control: watchdog armed again"
expect_line '^idle: 20 s' "control: idle started"
expect_no_line '^idle: done' "control: the firmware reset the machine during the idle"
expect_no_line '^baremark: run ended' "control: no final line"

# ---- a hang on the CD and network paths: reset, and the next boot says where --------
# Two machines at once, each one QEMU that is allowed to reboot (--reboot):
# the ISO as a CD-ROM with a blank FAT disk beside it, and OVMF's own PXE
# client with no disk at all.  INJECTFAULT=hang INJECTIN=section:clock
# stops the run at the start of the clock section with interrupts enabled;
# the watchdog (10 s for each stage) resets the machine; the firmware boots
# the image again with the same settings and the same variable store.  The
# second boot must name the first run and the section from the marker
# variable, leave clock out once and end (status 2).  Real time, not
# -icount: nothing here is a figure, and 10 s leaves room for a loaded host.
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
T=$TEST_TMP/watchdog-hang
rm -rf "$T" && mkdir -p "$T/pxe"
cp "$BUILD/baremark.iso" "$T/cd.iso"
cp "$BUILD/baremark.efi" "$T/pxe/baremark.efi"
mkfs.fat -C -n RESULTS "$T/results.img" 16384 >/dev/null
cp "${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}" "$T/cd-vars.fd"
hang="sections=clock watchdogseconds=10 injectfault=hang injectin=section:clock"
( boot watchdog-cd "$T/cd.iso" --reboot --vars "$T/cd-vars.fd" --cdrom --disk "$T/results.img" --options "$hang"
  echo "$BOOT_RC" > "$T/cd.rc" ) &
( raw=$TEST_TMP/watchdog-pxe.serial
  "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$raw" --cpu qemu64 --reboot --no-ipxe --tftp "$T/pxe" \
      --bootfile baremark.efi --options "$hang verbose=t" >/dev/null 2>"$TEST_TMP/watchdog-pxe.err"
  echo $? > "$T/pxe.rc"
  tr -d '\r' < "$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$TEST_TMP/watchdog-pxe.log" ) &
wait

# hang_checks WHO BOOT-LINE: the two boots in one serial log
hang_checks() {
    local who=$1 bds=$2 n run1 first
    expect_rc 2 "$who: run-qemu exit 2 (the second boot completed with warnings; QEMU was not ended by the reset)"
    n=$(grep -c -E "^BdsDxe: starting Boot[0-9A-F]+ \"$bds" "$BOOT_LOG")
    [ "$n" = 2 ] && pass "$who: the firmware booted the image twice" || fail "$who: booted twice" "$n boots"
    # The first boot: from its banner to the second banner.
    first=$(awk '/^baremark [^ ]+ - bare-metal timing/{n++} n==1' "$BOOT_LOG")
    if printf '%s\n' "$first" | grep -q '^fault injection: clock hangs here (INJECTFAULT setting)' &&
       ! printf '%s\n' "$first" | grep -q '^baremark: run ended'; then
        pass "$who: the first run hung at the start of clock and never ended"
    else
        fail "$who: the first run hung in clock" "$(printf '%s\n' "$first" | tail -2 | tr '\n' '|')"
    fi
    run1=$(printf '%s\n' "$first" | sed -n 's/^watchdog: run \([0-9-]*\) keeps its stage in the UEFI variable BaremarkRun-62956c7a-134d-4f60-95fe-8c17c53c5856, .*/\1/p')
    [ -n "$run1" ] && pass "$who: the first run named its marker variable ($run1)" ||
        fail "$who: the first run named its marker variable" "no 'watchdog: run ... keeps its stage' line"
    expect_line "^warning: the previous run \\($run1\\) did not end: it stopped in section clock, with the watchdog armed for 10 s \\(a hang the watchdog ended, a power cut or a manual reset\\); this run leaves clock out once\$" \
        "$who: the second boot names the first run, the section it hung in and the watchdog"
    expect_line '^clock: skipped this once: the previous run stopped in it' "$who: the second boot leaves clock out once"
    expect_line '^baremark: run ended, status 2 ' "$who: the second run ended, status 2"
    RUN1=$run1
}

BOOT_LOG=$TEST_TMP/watchdog-cd.log BOOT_RC=$(cat "$T/cd.rc")
hang_checks "CD hang" "UEFI QEMU DVD-ROM"
run1=$RUN1
run2=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .* on the volume named above$/\1/p' "$BOOT_LOG" | tail -1)
mtype -i "$T/results.img" "::/baremark/$run1.json" > "$T/run1.json" 2>/dev/null
mtype -i "$T/results.img" "::/baremark/$run2.json" > "$T/run2.json" 2>/dev/null
if [ -n "$run1" ] && jq -e '.status == "interrupted" and .stage == "clock" and .ended == false' "$T/run1.json" >/dev/null 2>&1; then
    pass "CD hang: the first run's JSON on the disk says interrupted during clock"
else
    fail "CD hang: the first run's JSON says interrupted during clock" "$(head -c 200 "$T/run1.json")"
fi
if [ "$run2" != "$run1" ] && "$BUILD/host/baremark" validate "$T/run2.json" > "$T/run2.validate" 2>&1 &&
   jq -e --arg r "$run1" '.status == 2 and .ended == true and (.clock == null) and
       any(.errors[]; startswith("the previous run (" + $r + ") did not end: it stopped in section clock"))' \
       "$T/run2.json" >/dev/null 2>&1; then
    pass "CD hang: the second run's JSON ($run2) is valid, status 2, no clock, the report in its errors"
else
    fail "CD hang: the second run's JSON" "$run2: $(head -2 "$T/run2.validate" | tr '\n' '|') $(jq -c '{status, errors}' "$T/run2.json" 2>&1 | head -c 300)"
fi
# The CD machine's variable store, as the QEMU left it: the marker's
# records (EDK2 keeps a deleted record until it reclaims the store), the
# first run's last one naming clock, none live after the second run ended.
python3 "$TOP/tests/boot/ovmf_vars_list.py" "$T/cd-vars.fd" 62956c7a-134d-4f60-95fe-8c17c53c5856 > "$T/vars" 2>&1
if grep -qx "deleted BaremarkRun 0x7 $run1 clock 10 -" "$T/vars" && ! grep -q '^live ' "$T/vars"; then
    pass "CD hang: the store held \"$run1 clock 10 -\" (non-volatile, boot and runtime access); no marker left after the second run"
else
    fail "CD hang: the marker in the variable store" "$(tr '\n' '|' < "$T/vars")"
fi
fsck.fat -n "$T/results.img" > "$T/fsck" 2>&1 && pass "CD hang: fsck.fat finds the disk clean" ||
    fail "CD hang: fsck.fat clean" "$(tail -2 "$T/fsck" | tr '\n' '|')"

BOOT_LOG=$TEST_TMP/watchdog-pxe.log BOOT_RC=$(cat "$T/pxe.rc")
hang_checks "PXE hang, no disk" "UEFI PXEv4 "
expect_line '^warning: results not saved: EFI_UNSUPPORTED while opening the ESP; no other writable FAT volume was found' \
    "PXE hang, no disk: no volume at all (the marker lived in the variable only)"

# A misspelt point of the final write: said at once, and the run does not
# stop (the final write has no such step).
img=$(fresh_image watchdog-typo)
boot watchdog-typo "$img" --options "sections=clock quietms=50 injectfault=hang injectin=files:end-writen"
expect_rc 2 "misspelt files: point: the run ends, status 2"
expect_line '^warning: INJECTIN=files:end-writen is no point of the final write \(files:end-written, files:end-scrubbed, files:end-deleted\): no hang fault will be injected$' \
    "misspelt files: point: one warning naming the two points"
expect_line '^baremark: run ended, status 2' "misspelt files: point: no stop inside the final write"
