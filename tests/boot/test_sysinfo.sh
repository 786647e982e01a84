#!/bin/bash
# Boot test: the banner, the system information lines, the final line, and
# the files on the ESP.  Clock/methods/kernels are switched off: this is
# about the skeleton.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image sysinfo)
# A machine with an SMBIOS serial number and UUID, as a lab's board has.
UUID=1b4e28ba-2fa1-11d2-883f-0016d3cca427
boot sysinfo "$img" --options "sections=none" --qemu-arg -smbios --qemu-arg "type=1,serial=box-07,uuid=$UUID"
expect_rc 0 "sysinfo: run-qemu exit 0 (completed and saved)"
expect_line '^baremark [^ ]+ - bare-metal timing' "sysinfo: banner with version"
expect_line '^build: gcc .*-O3' "sysinfo: compiler and flags in the banner"
expect_line '^watchdog: disabled$' "sysinfo: watchdog disabled"
expect_line '^cpu: [A-Za-z]{12}, .+' "sysinfo: CPU vendor and brand"
expect_line '^cpu: family 0x[0-9a-f]+ model 0x[0-9a-f]+ stepping [0-9]+, 1 logical CPUs$' "sysinfo: family/model/stepping and 1 logical CPU (-smp 1)"
expect_line '^hypervisor: TCGTCGTCGTCG$' "sysinfo: hypervisor vendor under TCG"
expect_line '^tsc: rdtsc yes, rdtscp no, invariant TSC no$' "sysinfo: TSC features of qemu64"
expect_line '^cpuid 0x15: ' "sysinfo: CPUID 0x15 line"
expect_line '^cpuid 0x16: ' "sysinfo: CPUID 0x16 line"
expect_line '^firmware: EDK II revision 0x[0-9a-f]{8}, UEFI 2\.[0-9]+$' "sysinfo: firmware vendor, revision, UEFI revision"
expect_line '^memory: (4[5-9][0-9]|50[0-9]) MiB conventional$' "sysinfo: conventional memory near 512 MiB"
expect_line '^acpi: RSDP -> XSDT; FADT found, HPET found, MADT found$' "sysinfo: ACPI tables"
expect_line '^microcode: 0x[0-9a-f]+$' "sysinfo: the microcode revision (MSR 0x8B, read safely)"
expect_line "^smbios [23]\\.[0-9]+: QEMU Standard PC \\(Q35 \\+ ICH9, 2009\\) \\(version pc-q35-[0-9.]+\\), serial box-07, UUID $UUID; BIOS EFI Development Kit II / OVMF " \
    "sysinfo: SMBIOS system and BIOS structures (the serial and UUID QEMU was given, UUID fields in their byte order)"
expect_line '^secureboot: off \(SecureBoot (0|absent), SetupMode ' "sysinfo: Secure Boot off under the default OVMF"
expect_line '^secureboot: started by the firmware directly \(no shim\)$' "sysinfo: no shim"
expect_line "^secureboot: image \\\\EFI\\\\BOOT\\\\BOOTX64\\.EFI, $(stat -c %s "$BUILD/baremark.efi") bytes, not signed, SHA-256 $(sha256sum < "$BUILD/baremark.efi" | cut -d' ' -f1) " \
    "sysinfo: the running image's path, size, unsigned, and the SHA-256 of build/baremark.efi"
auth=$(hash-to-efi-sig-list "$BUILD/baremark.efi" "$TEST_TMP/sysinfo.esl" 2>/dev/null | sed -n 's/^HASH IS //p')
expect_line "^secureboot: image Authenticode SHA-256 ${auth:-none} " \
    "sysinfo: the image's Authenticode SHA-256 is efitools' (hash-to-efi-sig-list; the trailing symbol table counts)"
expect_line "^boot +Secure Boot off; image not signed, SHA-256 $(sha256sum < "$BUILD/baremark.efi" | cut -d' ' -f1)\$" \
    "sysinfo: the run's summary says Secure Boot off, with the image's SHA-256"
expect_line '^baremark: run ended, status 0 \(completed and saved\)$' "sysinfo: final line says status 0"
last=$(grep -v '^\s*$' "$BOOT_LOG" | tail -1)
[[ $last == "baremark: run ended, status 0"* ]] && pass "sysinfo: the final line is the last line" || fail "sysinfo: the final line is the last line" "$last"

# Files: one log and one json, named from the firmware clock.
files=$(esp_ls "$img" baremark | sort)
log=$(echo "$files" | grep -E '^[0-9]{8}-[0-9]{6}\.log$')
json=$(echo "$files" | grep -E '^[0-9]{8}-[0-9]{6}\.json$')
[ -n "$log" ] && [ -n "$json" ] && [ "${log%.log}" = "${json%.json}" ] &&
    pass "files: \\baremark\\YYYYMMDD-HHMMSS.log and .json written" || fail "files: log and json written" "$files"
if [ -n "$log" ]; then
    esp_cat "$img" "baremark/$log" | tr -d '\r' > "$TEST_TMP/sysinfo.esp.log"
    # The log holds the same text as serial from the banner on (but the
    # LAVA result lines, which go to serial only: bench/results/lava.h).
    sed -n '/^baremark [^ ]* - bare-metal/,$p' "$BOOT_LOG" | grep -v '^baremark: run ended' |
        grep -v '^BAREMARK-LAVA ' > "$TEST_TMP/sysinfo.serial.part"
    if diff -q <(grep -v '^\s*$' "$TEST_TMP/sysinfo.serial.part") <(grep -v '^\s*$' "$TEST_TMP/sysinfo.esp.log" | grep -v '^baremark: run ended') >/dev/null; then
        pass "files: the log holds the serial text"
    else
        fail "files: the log holds the serial text" "diff $TEST_TMP/sysinfo.serial.part $TEST_TMP/sysinfo.esp.log"
    fi
fi
if [ -n "$json" ]; then
    esp_cat "$img" "baremark/$json" > "$TEST_TMP/sysinfo.json"
    if /usr/bin/python3 - "$TEST_TMP/sysinfo.json" "$(sha256sum < "$BUILD/baremark.efi" | cut -d' ' -f1)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sb = d["system"]["secure_boot"]
assert sb["enabled"] is False and sb["shim"] is False, sb
assert sb["image_path"] == "\\EFI\\BOOT\\BOOTX64.EFI", sb["image_path"]
assert sb["image_sha256"] == sys.argv[2] and sb["image_signed"] is False, sb
assert d["schema"] == 1, "schema"
s = d["system"]
assert s["hypervisor"] == "TCGTCGTCGTCG", s["hypervisor"]
assert s["rdtsc"] is True and s["rdtscp"] is False, "tsc flags"
assert s["logical_cpus"] == 1, "cpus"
assert s["acpi"]["hpet"] == "found", "hpet"
assert s["microcode"].startswith("0x"), s["microcode"]
sm = s["smbios"]
assert sm["uuid"] == "1b4e28ba-2fa1-11d2-883f-0016d3cca427" and sm["serial"] == "box-07", sm
assert sm["manufacturer"] == "QEMU" and sm["bios_vendor"].startswith("EFI Development Kit II"), sm
assert isinstance(d["errors"], list) and d["errors"] == [], d["errors"]
assert d["status"] == 0 and d["ended"] is True, "status"
assert d["build"]["compiler"].startswith("gcc"), "compiler"
PY
    then pass "files: JSON has schema 1, system (Secure Boot off, the image's SHA-256, microcode, SMBIOS serial and UUID), errors [], status 0"; else fail "files: JSON content" "$TEST_TMP/sysinfo.json"; fi
fi

# CPUID leaves 0x15/0x16 present but all zero (QEMU TCG with level=0x16 puts
# nothing in them): reported as such, the clock skips them with the reason
# and calibrates from the timers.  The same boot hides the hypervisor from
# CPUID (-hypervisor: CPUID.1:ECX bit 31 clear), as a VM passed off as a
# machine does: QEMU's SMBIOS still says "QEMU", so the run says it is
# under a hypervisor, PROFILE=auto is quick, and the clock takes QEMU's
# emulated legacy timer rates.
img=$(fresh_image sysinfo-cpuid15)
boot sysinfo-cpuid15 "$img" --cpu "max,level=0x16,-hypervisor" --options "sections=clock profile=auto"
expect_rc 0 "cpuid 0x15/0x16 zero: run-qemu exit 0"
expect_line "^hypervisor: none by CPUID, but the firmware's SMBIOS names QEMU: a virtual machine that hides itself" \
    "hidden hypervisor: the system block says CPUID hides it and SMBIOS names QEMU"
expect_line '^profile: quick \(PROFILE=auto: a hypervisor CPUID hides, named by SMBIOS\)$' \
    "hidden hypervisor: PROFILE=auto is quick, and why"
expect_line '^ +under a hypervisor CPUID hides \(SMBIOS: QEMU\): timings are the emulation.s, not a machine.s$' \
    "hidden hypervisor: the summary says the timings are not a machine's"
json=$(esp_ls "$img" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
esp_cat "$img" "baremark/$json" > "$TEST_TMP/sysinfo-hidden.json" 2>/dev/null
if out=$(/usr/bin/python3 - "$TEST_TMP/sysinfo-hidden.json" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, r = d["system"], d["clock"]["legacy_timer_rates"]
assert s["hypervisor"] == "" and s["hypervisor_hidden"] == "QEMU", (s["hypervisor"], s.get("hypervisor_hidden"))
assert d["profile"] == "quick", d["profile"]
assert r["basis"] == "emulated" and r["pit_hz"] == 1193182 and r["pm_timer_hz"] == 3579545, r
PY
); then
    pass "hidden hypervisor: JSON system.hypervisor \"\", hypervisor_hidden \"QEMU\", profile quick, QEMU's timer rates (1193182, 3579545 Hz)"
else
    fail "hidden hypervisor: the JSON" "$(printf '%s\n' "$out" | tail -1)"
fi
expect_line '^cpuid 0x15: eax=0 ebx=0 ecx=0 .*\(no TSC/crystal ratio\)$' "cpuid 0x15 zero: printed with what is missing"
expect_line '^cpuid 0x16: base 0 MHz, max 0 MHz, bus 0 MHz$' "cpuid 0x16 zero: printed"
expect_line '^clock: cpuid_15 absent \(CPUID 0x15 gives no TSC/crystal ratio\)$' "clock: cpuid_15 skipped with the reason"
expect_line '^clock: cpuid_16 absent \(CPUID 0x16 gives no base frequency\)$' "clock: cpuid_16 skipped with the reason"
expect_line '^clock: chosen [0-9.]+ kHz from hpet' "clock: calibrated from the HPET all the same"
