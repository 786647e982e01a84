#!/bin/bash
# Boot test: LAVA runs baremark.  tools/lava/make-job writes the QEMU job,
# lava-run (Debian's lava-dispatcher, no server) deploys the image to tmpfs,
# boots it with OVMF and records the result lines with the monitors action.
# The device is tools/lava/devices/qemu-local.yaml with -icount shift=0 and
# -cpu max, so the figures are exact instruction counts (derivation in
# tests/boot/test_methods.sh); a divide error is injected into numeric sort.
#
# Checked from lava-run's log (records "lvl: results"): the job completed,
# the monitor found the end line, every result line the image printed was
# recorded with the same result, measurement and units, the expected cases
# are there with exact measurements (each method's overhead, each
# measurement's net ticks per iteration, the comparisons, the clock at
# 1 GHz), the injected fault is a `fail` case (not a missing one), the
# run's status (2) is the run_status case, and tools/baremark-fleet reads
# the log.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1
if ! command -v lava-run >/dev/null; then
    fail "lava-run is installed" "install lava-dispatcher: tools/install-deps.sh --test"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    fail "lava-run runs as root" "lava-run deploys under /var/lib/lava and must run as root"
    exit 0
fi

W=$TEST_TMP/lava
rm -rf "$W"
mkdir -p "$W"
img=$(fresh_image lava)
off="dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"
# verbose=t: the checks below read the methods' sequences and BYTEmark's
# table from the serial text LAVA recorded (the console's full text).
opts="sections=clock,methods,compare,bytemark methoditerations=10 methodsamples=20 quietms=50 verbose=t"
opts="$opts injectfault=divide injectin=numsort $off"
# The firmware the other boot tests use (tests/boot/lib.sh: ovmf_dir), so
# the boot under -icount does not wait out OVMF's TPM probe.
ovmf=$(ovmf_dir "$W/ovmf") || { fail "a firmware folder for the job" "cannot copy OVMF into $W/ovmf"; exit 0; }
# Timeouts x 4: a loaded CI machine runs TCG several times slower.
"$TOP/tools/lava/make-job" --device qemu --image "file://$img" --options "$opts" --name "baremark lava test" \
    --timeout-factor 4 --ovmf-dir "$ovmf" \
    > "$W/job.yaml" || { fail "make-job writes the QEMU job" "exit $?"; exit 0; }
# The lab's device, made exact: one instruction per ns, a CPU with rdtscp;
# and lean as run-qemu --lean makes the other -icount boots (no PS/2
# controller, no chipset SATA: OVMF's probes of them cost real seconds).
sed 's/^          - -accel tcg$/          - -accel tcg\n          - -icount shift=0\n          - -cpu max/
     s/^          - -machine q35,hpet=on$/&,i8042=off,sata=off/' \
    "$TOP/tools/lava/devices/qemu-local.yaml" > "$W/device.yaml"
grep -q -- '-icount shift=0' "$W/device.yaml" || { fail "device file made exact" "no -icount line"; exit 0; }
grep -q -- '-machine q35,hpet=on,i8042=off,sata=off' "$W/device.yaml" || { fail "device file made lean" "no -machine line"; exit 0; }

# A job id of our own: lava-run works in /var/lib/lava/dispatcher/tmp/ID.
timeout -k 10 2400 lava-run --job-id "baremark-test-$$" --output-dir "$W/out" --device "$W/device.yaml" \
    "$W/job.yaml" > "$W/lava-run.out" 2> "$W/lava-run.log"
rc=$?
if [ $rc -eq 0 ] && grep -q '"msg": "Job finished correctly"' "$W/lava-run.log"; then
    pass "lava-run: the job finished correctly (exit 0)"
else
    fail "lava-run: the job finished correctly" "exit $rc; $(grep -E '"lvl": "(error|exception)"' "$W/lava-run.log" | head -3 | cut -c1-300 | tr '\n' '|')"
fi

if /usr/bin/python3 - "$W/lava-run.log" > "$W/check.txt" 2>&1 <<'PY'
import json, re, sys
recs, target = [], []
for line in open(sys.argv[1]):
    # lava-run writes JSON except for YAML tags: a None as ! "null".
    line = re.sub(r'!\S* "null"', 'null', line)
    line = re.sub(r'!\S* (")', r'\1', line)
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("lvl") == "results":
        recs.append(r["msg"])
    elif r.get("lvl") == "target" and isinstance(r.get("msg"), str):
        target.append(r["msg"])
bad = []
def need(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        bad.append(what)
lava = {m["case"]: m for m in recs if m.get("definition") == "lava"}
cases = {m["case"]: m for m in recs if m.get("definition") == "baremark"}
need(lava.get("lava-test-monitor", {}).get("extra", {}).get("status") == "passed",
     "the monitor found the start and the end line")
need(lava.get("job", {}).get("result") == "pass", "the job's own result is pass")

# Every line the image printed is one recorded case, unchanged.
printed = {}
for t in target:
    m = re.match(r"BAREMARK-LAVA case=(\w+) result=(pass|fail|skip)( measurement=(\S+) units=(\S+))?$", t)
    if m:
        printed[m.group(1)] = (m.group(2), m.group(4), m.group(5) or "")
need(len(printed) > 100, "the image printed %d result lines" % len(printed))
lost = [c for c in printed if c not in cases]
need(not lost, "every printed line was recorded by LAVA (lost: %s)" % lost[:5])
changed = [c for c in printed if c in cases and
           (cases[c]["result"], cases[c].get("measurement"), cases[c].get("units")) != printed[c]]
need(not changed, "each recorded case has the printed result, measurement and units (differ: %s)" % changed[:5])
need(not [c for c in cases if c not in printed], "LAVA recorded nothing the image did not print")

def val(case):
    c = cases.get(case)
    return float(c["measurement"]) if c and c.get("measurement") not in (None, "") else None
def exact(case, want, result="pass", tol=1e-9):
    c = cases.get(case)
    got = val(case)
    need(c is not None and c["result"] == result and got is not None and abs(got - want) <= tol * max(1, abs(want)),
         "%s: %s %s (want %s %.10g)" % (case, c and c["result"], got, result, want))

# The clock: 1 GHz under -icount, within 1 ppm.
exact("clock_tsc_khz", 1e6, tol=1e-6)
for r in ("hpet", "pm_timer", "pit"):
    exact("clock_%s_khz" % r, 1e6, tol=1e-6)
    need(cases.get("clock_%s_ppm" % r, {}).get("units") == "ppm", "clock_%s_ppm recorded in ppm" % r)
need(cases.get("clock_agreement", {}).get("result") == "pass", "clock_agreement: pass")

# Each method's overhead: after + 3 + before + 1 ticks (its sequence from the
# serial text of the same run), and the same in ns at 1 GHz.
seqs = {}
for t in target:
    m = re.match(r"method \d+ (\S+): start and stop: ([^[]+?)( \[.*)?$", t)
    if m:
        seqs[m.group(1)] = [p.strip() for p in m.group(2).split(";")]
need(len(seqs) == 9, "nine methods listed on serial")
for name, parts in seqs.items():
    k = [i for i, p in enumerate(parts) if p in ("rdtsc", "rdtscp")][0]
    key = re.sub(r"\W+", "_", name)
    want = (len(parts) - 1 - k) + 3 + k + 1
    exact("method_%s_overhead_ticks" % key, want)
    exact("method_%s_overhead_ns" % key, want, tol=1e-6)
    # Each measurement's net ticks per iteration with N = 10: (F - 1 + N*P) / N.
    for target_name, (F, P) in {"empty": (1, 0), "add10": (4, 12), "add100": (4, 102),
                                "add1000": (4, 1002), "foo": (3, 28)}.items():
        exact("meas_%s_%s_ticks" % (target_name, key), (F - 1 + 10 * P) / 10)
        exact("meas_%s_%s_ns" % (target_name, key), (F - 1 + 10 * P) / 10, tol=1e-6)
    need(cases.get("meas_strlen_%s_ticks" % key, {}).get("result") == "pass", "meas_strlen_%s_ticks: pass" % key)

# The comparisons: Foo against itself and its copy differ by 0; add10 against
# add100 is 1203 against 10203 ticks per timing.
for name in ("compare_foo_vs_foo", "compare_foo_vs_foobar", "compare_foo_vs_foo_random_order"):
    exact(name, 0)
exact("compare_add10_vs_add100", (1203 - 10203) / 10203 * 100)

# BYTEmark: the injected fault is a fail case, string sort scored as printed.
need(cases.get("bytemark_numsort", {}).get("result") == "fail", "bytemark_numsort: fail (the injected divide error)")
line = [t for t in target if t.startswith("STRING SORT")]
cols = re.findall(r"[0-9.]+", line[0]) if line else []
need(len(cols) == 3, "STRING SORT line on serial: %s" % line)
if len(cols) == 3:
    for case, printed_value in (("bytemark_strsort", cols[0]), ("bytemark_strsort_old_index", cols[1]),
                                ("bytemark_strsort_new_index", cols[2])):
        got = val(case)
        half = 0.5 * 10 ** -len(printed_value.split(".")[1])
        need(cases.get(case, {}).get("result") == "pass" and got is not None and abs(got - float(printed_value)) <= half,
             "%s: %s, printed %s" % (case, got, printed_value))
    need(cases["bytemark_strsort"]["units"].endswith("/s"), "bytemark_strsort: a rate unit")
for k in ("bitfield", "lu"):
    need(cases.get("bytemark_" + k, {}).get("result") == "skip", "bytemark_%s: skip (switched off)" % k)

# The run's status travels as the last case: 2 (a warning: the fault).
exact("run_status", 2, result="fail")
need(recs and [m for m in recs if m.get("definition") == "baremark"][-1]["case"] == "run_status",
     "run_status is the last case")
sys.exit(1 if bad else 0)
PY
then
    pass "LAVA recorded every result line, the exact figures, the injected fault as fail and status 2"
else
    fail "LAVA's recorded results" "$(grep '^FAIL' "$W/check.txt" | head -5 | tr '\n' '|')"
fi
grep '^FAIL' "$W/check.txt" | sed 's/^FAIL /FAIL: lava: /; s/$/ (see build\/tests\/boot\/lava\/check.txt)/'

# The fleet tool reads lava-run's log.
"$B" fleet --csv "$W/lava-run.log" > "$W/fleet.csv" 2> "$W/fleet.err"
if grep -q '^meas_add10_lfence_rdtsc_ticks,ticks/iter,lava-run,1,12.3,' "$W/fleet.csv" &&
   grep -q '^run_status,status,lava-run,1,2,' "$W/fleet.csv" && ! grep -q '^bytemark_numsort,' "$W/fleet.csv"; then
    pass "baremark fleet reads lava-run's log (net 12.3 ticks/iter, status 2, no figure for the failed case)"
else
    fail "baremark fleet reads lava-run's log" "$(head -c 300 "$W/fleet.err")"
fi

# ---- the hardware job: flasher deploy, minimal boot, monitors -------------------
# A stand-in for a lab machine: the flasher command writes the stick, power
# on boots it in QEMU (serial to a file), the connection reads that file,
# power off stops QEMU.  Settings come from the image's command file, as on
# a lab's stick.
U=$W/uefi
mkdir -p "$U"
cp "$img" "$U/baremark.img"
# LAVA=T: a lab's stick asks for the result lines (off by default).
printf 'SECTIONS=clock\r\nQUIETMS=50\r\nLAVA=T\r\n' > "$U/baremark.cfg"
mcopy -o -i "$U/baremark.img@@1M" "$U/baremark.cfg" ::/baremark.cfg
cat > "$U/power" <<POWER
#!/bin/sh
case \$1 in
off) [ -f "$U/qemu.pid" ] && kill "\$(cat "$U/qemu.pid")" 2>/dev/null; rm -f "$U/qemu.pid"; exit 0 ;;
on|reset)
    "\$0" off
    cp /usr/share/OVMF/OVMF_VARS_4M.fd "$U/vars.fd"
    : > "$U/serial.log"
    exec qemu-system-x86_64 -machine q35 -accel tcg -m 512 -display none -monitor none -nodefaults -vga std \\
        -drive if=pflash,format=raw,unit=0,readonly=on,file=$ovmf/OVMF_CODE_4M.fd \\
        -drive if=pflash,format=raw,unit=1,file="$U/vars.fd" \\
        -drive if=none,id=stick,format=raw,file="$U/stick.img" -device qemu-xhci -device usb-storage,drive=stick \\
        -serial file:"$U/serial.log" -daemonize -pidfile "$U/qemu.pid" ;;
esac
POWER
chmod +x "$U/power"
: > "$U/serial.log"
# What a lab server renders from tools/lava/device-types/x86-uefi-baremark.jinja2
# and a device dictionary, with the constants lava-run needs without a server.
cat > "$U/device.yaml" <<DEVICE
constants:
  failure_retry: 1
  boot_retry: 0
  spawn_maxread: 4092
  default-shell-prompt: 'lava-test: # '
commands:
  connect: tail -n +1 -F $U/serial.log
  power_on: $U/power on
  power_off: $U/power off
  hard_reset: $U/power reset
actions:
  deploy:
    methods:
      flasher:
        commands:
        - cp {IMAGE} $U/stick.img
  boot:
    connections:
      serial: null
    methods:
      minimal: null
timeouts:
  actions: {}
  connections: {}
DEVICE
"$TOP/tools/lava/make-job" --device uefi --profile quick --timeout-factor 4 --image "file://$U/baremark.img" \
    > "$U/job.yaml"
timeout -k 10 1200 lava-run --job-id "baremark-uefi-$$" --output-dir "$U/out" --device "$U/device.yaml" \
    "$U/job.yaml" > "$U/lava-run.out" 2> "$U/lava-run.log"
rc=$?
"$U/power" off
if [ $rc -eq 0 ] && grep -q '"msg": "Job finished correctly"' "$U/lava-run.log"; then
    pass "hardware job: flasher wrote the stick, minimal boot, the job finished correctly"
else
    fail "hardware job: finished correctly" "exit $rc; $(grep -E '"lvl": "(error|exception)"' "$U/lava-run.log" | head -3 | cut -c1-300 | tr '\n' '|')"
fi
if /usr/bin/python3 - "$U/lava-run.log" <<'PY'
import json, re, sys
cases = {}
for line in open(sys.argv[1]):
    # lava-run writes JSON except for YAML tags: a None as ! "null".
    line = re.sub(r'!\S* "null"', 'null', line)
    line = re.sub(r'!\S* (")', r'\1', line)
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("lvl") == "results" and r["msg"].get("definition") == "baremark":
        cases[r["msg"]["case"]] = r["msg"]
ok = (cases.get("run_status", {}).get("result") == "pass" and cases["run_status"].get("measurement") == "0"
      and cases.get("clock_tsc_khz", {}).get("result") == "pass" and cases["clock_tsc_khz"].get("units") == "kHz"
      and not [c for c in cases if c.startswith(("method_", "bytemark_"))])
sys.exit(0 if ok else 1)
PY
then
    pass "hardware job: the command file's sections (clock only) ran, run_status pass 0, clock_tsc_khz in kHz"
else
    fail "hardware job: recorded cases" "$(grep '"definition": "baremark"' "$U/lava-run.log" | cut -c1-200 | head -5 | tr '\n' '|')"
fi

# ---- LAVA=T: the lines on serial are the results JSON's figures ---------------
# A plain TCG run with every section and lava=t (the lines are off by
# default, as checked below): the start, run_status and end lines,
# and each case's measurement is the figure tools/baremark-fleet reads from
# the run's JSON under the same id (the fleet's mapping of the JSON is the
# image's), both ways.
img2=$(fresh_image lava-json)
boot lava-json "$img2" --options "sections=clock,methods,compare,bytemark methodsamples=20 quietms=50 lava=t $off"
expect_line '^LAVA=T$' "lava=t: LAVA=T in the settings in effect"
expect_line '^BAREMARK-LAVA start$' "lava=t: the start line"
expect_line "^BAREMARK-LAVA case=run_status result=(pass|fail) measurement=$BOOT_RC units=status\$" \
    "lava=t: run_status carries the run's status ($BOOT_RC)"
expect_line "^BAREMARK-LAVA end status=$BOOT_RC\$" "lava=t: the end line with the status"
j=$(esp_ls "$img2" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
esp_cat "$img2" "baremark/$j" > "$W/run.json" 2>/dev/null
"$B" fleet --csv "$W/run.json" > "$W/run.csv" 2> "$W/run.err"
if /usr/bin/python3 - "$BOOT_LOG" "$W/run.csv" > "$W/same.txt" 2>&1 <<'PY'
import csv, re, sys
serial = {}
for line in open(sys.argv[1]):
    m = re.match(r"BAREMARK-LAVA case=(\w+) result=\w+ measurement=(\S+) units=(\S+)$", line.strip())
    if m:
        serial[m.group(1)] = (float(m.group(2)), m.group(3))
fleet = {r["figure"]: (float(r["value"]), r["unit"]) for r in csv.DictReader(open(sys.argv[2]))}
bad = [f for f in fleet if f not in serial]
bad += [f for f in serial if f not in fleet]
bad += ["%s %s %s" % (f, fleet[f], serial[f]) for f in fleet if f in serial and
        (fleet[f][1] != serial[f][1] or abs(fleet[f][0] - serial[f][0]) > 1e-9 * abs(fleet[f][0]) + 1e-12)]
print(len(fleet), "figures;", "\n".join(bad) or "same")
sys.exit(1 if bad or len(fleet) < 80 else 0)
PY
then
    pass "lava=t: every measured case on serial is the JSON's figure under the same id, and back ($(head -c 20 "$W/same.txt"))"
else
    fail "lava=t: serial cases = the JSON's figures" "$(head -c 400 "$W/same.txt" | tr '\n' '|')"
fi

# Each section's cases come as one block right after its text (never inside
# a table a person reads on the same console), in the sections' order.
if /usr/bin/python3 - "$BOOT_LOG" > "$W/blocks.txt" 2>&1 <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
section = {"method": "methods", "meas": "methods", "compare": "comparisons"}
last = {"clock": ("clock: ", "quiet: ")}
blocks, i = [], 0
while i < len(lines):
    if lines[i].startswith("BAREMARK-LAVA case=") and "case=run_status" not in lines[i]:
        j = i
        while j < len(lines) and lines[j].startswith("BAREMARK-LAVA case=") and "case=run_status" not in lines[j]:
            j += 1
        secs = sorted(set(section.get(k, k) for k in
                          (re.match(r"BAREMARK-LAVA case=([a-z0-9]+)_", l).group(1) for l in lines[i:j])))
        blocks.append((secs, lines[i - 1]))
        i = j
    else:
        i += 1
bad = [] if [b[0] for b in blocks] == [["clock"], ["methods"], ["comparisons"], ["bytemark"]] else ["blocks %s" % blocks]
bad += ["%s after %r" % (s[0], b) for s, b in blocks if not b.startswith(last.get(s[0], (s[0] + ": ",)))]
print("\n".join(bad) or "one block per section")
sys.exit(1 if bad else 0)
PY
then
    pass "lava=t: each section's cases are one block right after its text (clock, methods, comparisons, bytemark)"
else
    fail "lava=t: LAVA blocks" "$(head -c 300 "$W/blocks.txt" | tr '\n' '|')"
fi

# ---- no LAVA setting: no result lines (LAVA=F is the default) ------------------------
boot lava-off "$img" --options "sections=clock quietms=50"
expect_rc 0 "LAVA=F: run-qemu exit 0"
expect_line '^LAVA=F$' "LAVA=F (the default, nothing asked): in the settings in effect"
expect_no_line 'BAREMARK-LAVA' "LAVA=F (the default): no result line at all"
