#!/bin/bash
# Boot test: the clock section (bench/clock/clock_section.c).
#  1. QEMU -icount shift=0: one instruction per ns, so the guest TSC runs at
#     exactly 1 GHz and every timer QEMU emulates counts on the same virtual
#     clock: each reference present must give 1,000,000 kHz within 1 ppm.
#     The PIT and PM timer are taken at QEMU's emulated rates (1193182 and
#     3579545 Hz), said so on serial and in JSON; each reference line prints
#     windows_rejected and windows_failed as the JSON has them.
# 1b. -cpu qemu64,-hypervisor and a board's SMBIOS (looks like hardware): the crystal's rates.
#  2. --no-hpet: the run says the HPET is absent and calibrates from the
#     others.
#  3. plain TCG: the references agree within 500 ppm (the issue's bound; they
#     all follow the host's clock, so a few ppm is usual), the whole
#     calibration takes under one second, the run completes.
#  4. no HPET, no PIT, no ACPI tables: nothing to calibrate against; one
#     warning, status 2, the file still valid.
# Every results file must validate.  Boots are short: sections=clock, a
# 50 ms quiet check.
. "$(dirname "$0")/lib.sh"
VALIDATE="$BUILD/host/baremark"
[ -x "$VALIDATE" ] || make -s -C "$TOP" host >/dev/null 2>&1

# json_of NAME IMAGE: the run's JSON from the ESP into $TEST_TMP/NAME.json
json_of() {
    local f
    f=$(esp_ls "$2" baremark | grep -E '\.json$' | sort | tail -1)
    [ -n "$f" ] && esp_cat "$2" "baremark/$f" > "$TEST_TMP/$1.json"
}

# check_json NAME WHAT PYTHON-EXPRESSIONS...: run checks on the clock section
# (variable c) and the document (d); each expression prints a problem or "".
check_json() {
    local name=$1 what=$2
    shift 2
    local out
    out=$(/usr/bin/python3 - "$TEST_TMP/$name.json" "$@" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d.get("clock") or {}
refs = {r["name"]: r for r in c.get("references", [])}
bad = []
for expr in sys.argv[2:]:
    try:
        msg = eval(expr)
    except Exception as e:
        msg = "%s: %r" % (expr, e)
    if msg:
        bad.append(str(msg))
print("; ".join(bad))
PY
)
    if [ -z "$out" ]; then pass "$what"; else fail "$what" "$out"; fi
}

validates() {
    if "$VALIDATE" validate "$TEST_TMP/$1.json" > "$TEST_TMP/$1.validate" 2>&1; then
        pass "$1: the results file validates"
    else
        fail "$1: the results file validates" "$(tr '\n' '|' < "$TEST_TMP/$1.validate")"
    fi
}

# ---- 1. icount: exactly 1 GHz --------------------------------------------------
img=$(fresh_image clock-icount)
boot clock-icount "$img" --icount --options "sections=clock quietms=50"
expect_rc 0 "icount: run completes with status 0"
expect_line '^clock: firmware timer stopped while calibrating \(Timer Architectural Protocol; period [0-9]+ x 100 ns restored after\)$' \
    "icount: the firmware timer is stopped and restored"
for r in hpet pm_timer pit; do
    expect_line "^clock: $r +1000000\.[0-9]{3} kHz \+-0\.[0-9]{3} ppm|^clock: $r +999999\.[0-9]{3} kHz \+-0\.[0-9]{3} ppm" \
        "icount: $r line shows about 1,000,000 kHz, under 1 ppm uncertainty"
done
expect_line '^clock: chosen 1000000\.0[0-9]{2} kHz from hpet|^clock: chosen 999999\.9[0-9]{2} kHz from hpet' \
    "icount: chosen from the HPET"
expect_line '^clock: unmasked while calibrating: NMI \([0-9]+ seen\), SMI \(' "icount: the report line of what stays unmasked"
expect_line '^quiet: 50 ms with interrupts masked: ' "icount: quiet-machine check line"
expect_no_line '^warning: ' "icount: no warnings"
json_of clock-icount "$img"
validates clock-icount
check_json clock-icount "icount: hpet, pm_timer and pit each give 1,000,000 kHz within 1 ppm (JSON)" \
    '"" if set(refs) >= {"hpet", "pm_timer", "pit"} else "references: %s" % sorted(refs)' \
    '"; ".join("%s %.6f kHz" % (n, r["khz"]) for n, r in refs.items() if r["kind"] == "measured" and abs(r["khz"] - 1e6) > 1.0)'
check_json clock-icount "icount: chosen 1,000,000 kHz within 1 ppm, refined window >= 250 ms, calibration < 1 s" \
    '"" if abs(c["chosen_khz"] - 1e6) <= 1.0 else "chosen %r" % c["chosen_khz"]' \
    '"" if c["refined_ms"] >= 250 else "refined %r ms" % c["refined_ms"]' \
    '"" if c["calibration_ms"] < 1000 else "calibration %r ms" % c["calibration_ms"]' \
    '"" if all(r["windows_refined"][r["window_used"]] for r in refs.values() if r["kind"] == "measured") else "a short window was used"'
check_json clock-icount "icount: the quiet check read the TSC for 50 ms at 1 GHz (1 ppm) with no gap over 1 us" \
    '"" if abs(c["quiet"]["tick_hz"] - 1000000000) <= 1000 else "tick_hz %r" % c["quiet"]["tick_hz"]' \
    '"" if abs(c["quiet"]["elapsed_ticks"] - 50000000) < 1000 else "elapsed %r" % c["quiet"]["elapsed_ticks"]' \
    '"" if c["quiet"]["gaps_over_1us"] == 0 else "gaps %r" % c["quiet"]["gaps_over_1us"]'
# Issue 14.7: both window counts named as in the schema, and the legacy
# timers' rates: QEMU's emulated ones under QEMU (TCG), said why.
expect_line '^clock: PIT 1193182\.000 Hz, PM timer 3579545\.000 Hz \(emulated: hypervisor QEMU \(TCG\): ' \
    "icount: under QEMU the PIT and PM timer are taken at QEMU's emulated rates, and the line says why"
for r in hpet pm_timer pit; do
    line=$(grep -E "^clock: $r +[0-9]" "$BOOT_LOG" | head -1)
    /usr/bin/python3 - "$TEST_TMP/clock-icount.json" "$r" "$line" > "$TEST_TMP/clock-counts.out" 2>&1 <<'PY2'
import json, re, sys
c = json.load(open(sys.argv[1]))["clock"]
r = [x for x in c["references"] if x["name"] == sys.argv[2]][0]
m = re.search(r"; (\d+) windows, windows_rejected (\d+), windows_failed (\d+); ([0-9.]+) Hz counter", sys.argv[3])
want = (len(r["windows"]), sum(r["windows_rejected"]), r["windows_failed"])
if not m or tuple(int(g) for g in m.groups()[:3]) != want or float(m.group(4)) != r["counter_hz"]:
    print("line %r, JSON windows/rejected/failed/counter_hz %s %s" % (sys.argv[3], want, r["counter_hz"]))
PY2
    if [ -s "$TEST_TMP/clock-counts.out" ]; then
        fail "icount: $r line prints windows_rejected and windows_failed as the JSON has them" "$(cat "$TEST_TMP/clock-counts.out")"
    else
        pass "icount: $r line prints windows_rejected and windows_failed as the JSON has them"
    fi
done
check_json clock-icount "icount: legacy_timer_rates says emulated, and the PIT and PM timer counted at 1193182 and 3579545 Hz" \
    '"" if c["legacy_timer_rates"]["basis"] == "emulated" and "QEMU" in c["legacy_timer_rates"]["why"] else "rates %r" % c.get("legacy_timer_rates")' \
    '"" if c["legacy_timer_rates"]["pit_hz"] == 1193182 and c["legacy_timer_rates"]["pm_timer_hz"] == 3579545 else "rates %r" % c["legacy_timer_rates"]' \
    '"" if refs["pit"]["counter_hz"] == 1193182 and refs["pm_timer"]["counter_hz"] == 3579545 else "counter_hz %r %r" % (refs["pit"]["counter_hz"], refs["pm_timer"]["counter_hz"])'
# validate checks the rates against the references; the report shows them.
/usr/bin/python3 - "$TEST_TMP/clock-icount.json" "$TEST_TMP/clock-badrate.json" <<'PY2'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["clock"]["references"]:
    if r["name"] == "pit":
        r["counter_hz"] = 105e6 / 88      # the crystal's, while legacy_timer_rates says emulated
json.dump(d, open(sys.argv[2], "w"))
PY2
if "$VALIDATE" validate "$TEST_TMP/clock-badrate.json" > "$TEST_TMP/clock-badrate.out" 2>&1; then
    fail "validate: a PIT counted at another rate than legacy_timer_rates says is an error" "accepted"
else
    grep -q 'legacy_timer_rates: the pit reference counted at 1193181.81' "$TEST_TMP/clock-badrate.out" &&
        pass "validate: a PIT counted at another rate than legacy_timer_rates says is an error" ||
        fail "validate: rate mismatch named" "$(tr '\n' '|' < "$TEST_TMP/clock-badrate.out")"
fi
"$VALIDATE" report "$TEST_TMP/clock-icount.json" -o "$TEST_TMP/clock-icount.html" > /dev/null 2>&1
if grep -q '<p id="clock-rates">PIT taken at 1193182.000 Hz, PM timer at 3579545.000 Hz (emulated)' "$TEST_TMP/clock-icount.html" &&
   grep -q '<th>windows_rejected</th><th>windows_failed</th><th>counter Hz</th>' "$TEST_TMP/clock-icount.html"; then
    pass "report: the legacy timers' rates and each reference's windows_rejected/windows_failed"
else
    fail "report: clock rates and window counts" "$TEST_TMP/clock-icount.html"
fi
grep -E '^clock: (hpet|pm_timer|pit|chosen|calibration)' "$BOOT_LOG" | sed 's/^/# /'

# ---- 1b. the hypervisor bit hidden (-cpu qemu64,-hypervisor) and SMBIOS
# naming a board, not QEMU: what hardware looks like to the image, so the
# crystal's rates are taken (with QEMU's own SMBIOS the run would see the
# hidden hypervisor: test_sysinfo) ---------------------------------------------------
img=$(fresh_image clock-nohv)
BOOT_TIMEOUT=400 boot clock-nohv "$img" --icount --cpu qemu64,-hypervisor --options "sections=clock quietms=50" \
    --qemu-arg -smbios --qemu-arg "type=1,manufacturer=Example Boards,product=EB-1"
expect_rc 0 "no hypervisor bit: run completes with status 0"
expect_line '^clock: PIT 1193181\.818 Hz, PM timer 3579545\.455 Hz \(crystal: no hypervisor: ' \
    "no hypervisor bit: the crystal's rates (105/88 and 315/88 MHz), and the line says why"
json_of clock-nohv "$img"
validates clock-nohv
check_json clock-nohv "no hypervisor bit: the PIT and PM timer counted at 14.31818 MHz / 12 and / 4 (JSON)" \
    '"" if c["legacy_timer_rates"]["basis"] == "crystal" else "rates %r" % c.get("legacy_timer_rates")' \
    '"" if abs(refs["pit"]["counter_hz"] - 105e6 / 88) < 1e-6 and abs(refs["pm_timer"]["counter_hz"] - 315e6 / 88) < 1e-6 else "counter_hz %r %r" % (refs["pit"]["counter_hz"], refs["pm_timer"]["counter_hz"])'

# ---- 2. no HPET --------------------------------------------------------------------
img=$(fresh_image clock-nohpet)
boot clock-nohpet "$img" --no-hpet --options "sections=clock quietms=50"
expect_rc 0 "no HPET: run completes with status 0"
expect_line '^clock: hpet +absent \(no ACPI HPET table\)$' "no HPET: the run says the HPET is absent"
expect_line '^clock: chosen [0-9]+\.[0-9]{3} kHz from pm_timer ' "no HPET: calibrated from the PM timer"
json_of clock-nohpet "$img"
validates clock-nohpet
check_json clock-nohpet "no HPET: JSON lists hpet as unavailable and takes the PM timer" \
    '"" if "hpet" not in refs and any(u["name"] == "hpet" for u in c["unavailable"]) else "hpet listed"' \
    '"" if c["source"] == "pm_timer" and {"pm_timer", "pit"} <= set(refs) else "source %r refs %s" % (c["source"], sorted(refs))'

# ---- 3. plain TCG: the references agree ------------------------------------------------
img=$(fresh_image clock-tcg)
boot clock-tcg "$img" --options "sections=clock quietms=50"
expect_rc 0 "TCG: run completes with status 0"
expect_line '^clock: agreement: measured references within [0-9.]+ ppm of each other \(bound 500 ppm\)$' "TCG: agreement line"
json_of clock-tcg "$img"
validates clock-tcg
check_json clock-tcg "TCG: hpet, pm_timer and pit agree pairwise within 500 ppm; calibration under 1 s" \
    '"" if set(refs) >= {"hpet", "pm_timer", "pit"} else "references: %s" % sorted(refs)' \
    '"; ".join("%s-%s %g ppm" % (p["a"], p["b"], p["ppm"]) for p in c["agreement"]["pairs"] if abs(p["ppm"]) > 500)' \
    '"" if c["agreement"]["agree"] else "agree false"' \
    '"" if c["calibration_ms"] < 1000 else "calibration %r ms" % c["calibration_ms"]'
grep -E '^clock: (hpet|pm_timer|pit|chosen|calibration|agreement)|^quiet:' "$BOOT_LOG" | sed 's/^/# /'

# ---- 4. no reference at all (no HPET, no PIT, no ACPI tables) -------------------------
img=$(fresh_image clock-none)
boot clock-none "$img" --no-hpet --qemu-arg -machine --qemu-arg pit=off,acpi=off --options "sections=clock quietms=50"
expect_rc 2 "no reference: the run completes with status 2 (a warning)"
expect_line '^clock: pit +absent \(channel 2 does not count: no 8254, or its clock is gated off\)$' "no reference: the PIT is found absent"
expect_line '^clock: pm_timer +absent \(no ACPI FADT\)$' "no reference: the PM timer is absent without a FADT"
expect_line '^warning: clock: no reference gave a TSC frequency' "no reference: one warning says so"
expect_line '^quiet: skipped \(' "no reference: the quiet check says why it is skipped"
json_of clock-none "$img"
validates clock-none
check_json clock-none "no reference: chosen_khz null, no source, every reference unavailable" \
    '"" if c["chosen_khz"] is None and "source" not in c and not refs else "chosen %r" % c.get("chosen_khz")' \
    '"" if len(c["unavailable"]) == 5 else "unavailable %r" % c["unavailable"]'
