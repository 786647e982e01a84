#!/bin/bash
# Boot test: a real LAVA lab on this machine, used as a lab user would.
#
# tools/lava/lab brings up PostgreSQL, lava-server (API, scheduler,
# publisher) and one worker with three QEMU devices of baremark's device
# type (tools/lava/devices/lab: CPU model, CPU count, board and memory
# differ, and bm-qemu-03-slow runs at -icount shift=1, i.e. planted 2x
# slower).  The
# server renders each device's template itself (a template it rejects fails
# `lab up`).  The baremark job (tools/lava/make-job, with a plug-in on the
# image) is submitted with lavacli to the device type three times, and once
# more with a divide error injected into numeric sort; the scheduler places
# them.  Everything below is then checked from the server's REST API alone:
# every job Complete; each job's baremark cases and exact measurements
# (clock, methods, the plug-in routine, BYTEmark, cores, memory; under
# -icount one instruction is one ns, and two on the slow device); the
# injected fault a failing case with the run's status 2 while the job stays
# Complete (the lab's infrastructure worked); `baremark fleet --lava`
# names the slow device and no other.  One of the 3 jobs also names the
# lab's results server (make-job --results http://10.0.2.2:PORT/
# --results-key-file): a `baremark history serve` the test starts on a free
# loopback port with a SQLite store in the test's directory (the worker's
# QEMU reaches it as 10.0.2.2); the run it stored is the one the job's log
# names (its SHA-256), and `baremark fleet` (the JSON the server serves
# back) and `baremark history show` (the server's store) read it.  Last,
# `lab up` sets aside a job-output folder no job in the database owns
# (planted: an earlier database's job whose ID a new job would reuse), and
# `lab down` leaves nothing listening and no lab process, and the results
# server is stopped (also on failure).  The lab's cost is printed.
. "$(dirname "$0")/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH    # Debian's python3 for LAVA
W=$TEST_TMP/lab
STATE=$W/state
rm -rf "$W"
mkdir -p "$W"
t0=$SECONDS

if [ "$(id -u)" != 0 ]; then
    fail "the lab runs as root" "the worker deploys under /var/lib/lava"
    exit 0
fi
if ! command -v lavacli >/dev/null || ! [ -x /usr/bin/lava-server ] || ! command -v pg_ctlcluster >/dev/null; then
    fail "lava-server, lavacli and postgresql are installed" "tools/install-deps.sh --lab"
    exit 0
fi
[ -x "$BUILD/host/baremark" ] || make -s -C "$TOP" host >/dev/null 2>&1
[ -f "$BUILD/plugins/chain.efi" ] || make -s -C "$TOP" plugins-examples >/dev/null 2>&1

img=$(fresh_image lab)
if ! "$TOP/tools/baremark-stick" add-plugin "$img" "$BUILD/plugins/chain.efi" > "$W/stick.log" 2>&1; then
    fail "the job's image carries the chain plug-in" "$(tail -2 "$W/stick.log")"
    exit 0
fi

lab() { "$TOP/tools/lava/lab" "$@" --state "$STATE"; }
spid=""
cleanup() { [ -z "$spid" ] || kill "$spid" 2>/dev/null; lab down > "$W/down-trap.log" 2>&1; }
trap cleanup EXIT

# A job-output folder no job in the database owns (as an earlier database
# leaves behind: the new job with its ID would write its log into it) is
# set aside by `lab up`, kept, not deleted.
out=/var/lib/lava-server/default/media/job-output
orphan=$(date +%Y/%m/%d)/987654321
mkdir -p "$out/$orphan" && echo "- {msg: an earlier database's job}" > "$out/$orphan/output.yaml"

if lab up > "$W/up.log" 2>&1; then
    pass "lab up: PostgreSQL, lava-server, the worker and 3 devices, each rendered by the server"
else
    fail "lab up" "$(tail -3 "$W/up.log" | tr '\n' '|')"
    exit 0
fi
aside=$(sed -n 's/.* moved to \([^ ,]*\), so a new job.*/\1/p' "$W/up.log")
if [ ! -e "$out/$orphan" ] && [ -n "$aside" ] && grep -q "earlier database" "$aside/$orphan/output.yaml" 2>/dev/null; then
    pass "lab up sets aside a job-output folder no job owns, kept in $aside"
    rm -rf "${aside:?}/$orphan"
else
    fail "lab up sets aside a job-output folder no job owns" "still in job-output: $([ -e "$out/$orphan" ] && echo yes || echo no); up.log: $(head -3 "$W/up.log" | tr '\n' '|')"
    rm -rf "${out:?}/$orphan"
fi
t_up=$((SECONDS - t0))
. "$STATE/env"
URI="http://$LAB_USER:$LAB_TOKEN@127.0.0.1:8000/RPC2"
api() { curl -sf -H "Authorization: Token $LAB_TOKEN" "${LAB_URL}api/v0.2/$1"; }

# The server rendered every device: its configuration holds the device's
# own QEMU options.
for d in bm-qemu-01:"-smp 2" bm-qemu-02:"-machine pc" bm-qemu-03-slow:"-icount shift=1,sleep=off"; do
    n=${d%%:*} want=${d#*:}
    if lavacli --uri "$URI" devices dict get --render "$n" 2>/dev/null | grep -q -- "$want"; then
        pass "the server renders $n through baremark-qemu.jinja2 ($want)"
    else
        fail "the server renders $n through baremark-qemu.jinja2" "no '$want' in its configuration"
    fi
done

# The real-hardware pieces, as a lab admin adds a board: a device of type
# x86-uefi-baremark (in maintenance: nothing here can power it) with the
# example dictionary, rendered by the server, and the hardware job checked
# by the server's own schema.
if lavacli --uri "$URI" devices add --type x86-uefi-baremark --worker baremark-lab-worker \
        --health MAINTENANCE uefi-board-01 > "$W/hw.log" 2>&1 || lavacli --uri "$URI" devices show uefi-board-01 >/dev/null 2>&1; then
    lavacli --uri "$URI" devices dict set uefi-board-01 "$TOP/tools/lava/devices/uefi-example.jinja2" >> "$W/hw.log" 2>&1
    lavacli --uri "$URI" devices dict get --render uefi-board-01 > "$W/hw-rendered.yaml" 2>> "$W/hw.log"
fi
if grep -q 'pduclient --hostname pdu1 --port 4 --command reboot' "$W/hw-rendered.yaml" 2>/dev/null &&
    grep -q 'usbsdmux /dev/sg0 dut' "$W/hw-rendered.yaml" && grep -q 'minimal' "$W/hw-rendered.yaml"; then
    pass "the server renders a hardware board (x86-uefi-baremark: PDU, stick mux, serial, minimal boot)"
else
    fail "the server renders a hardware board (x86-uefi-baremark)" "$(tail -2 "$W/hw.log" | tr '\n' '|')"
fi
"$TOP/tools/lava/make-job" --device uefi --image "file://$img" > "$W/uefi-job.yaml"
if lavacli --uri "$URI" jobs validate "$W/uefi-job.yaml" > "$W/validate.log" 2>&1 &&
    ! grep -qi 'error\|invalid' "$W/validate.log"; then
    pass "the server validates the hardware job (make-job --device uefi)"
else
    fail "the server validates the hardware job (make-job --device uefi)" "$(head -3 "$W/validate.log" | tr '\n' '|')"
fi

# One job for all devices; timeouts x 4 for a loaded CI machine.
off="dostringsort=f dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"
opts="sections=clock,cores,plugins,methods,bytemark,memory quietms=50 methoditerations=10 methodsamples=20"
opts="$opts pluginroutines=chain smp=tsc,latency $off"
# The jobs boot the firmware the other boot tests use (tests/boot/lib.sh:
# ovmf_dir): under -icount the stock file's TPM probe alone costs a minute
# or more of each job.
ovmf=$(ovmf_dir "$W/ovmf") || { fail "a firmware folder for the jobs" "cannot copy OVMF into $W/ovmf"; exit 0; }
mk() { "$TOP/tools/lava/make-job" --device qemu --device-type baremark-qemu --image "file://$img" \
       --timeout-factor 4 --ovmf-dir "$ovmf" "$@"; }
# The lab's results server (docs/results-server.md), on a free loopback
# port: the first job sends its run there.
get() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null; }
printf 'lab-results-key-34\n' > "$W/results.key"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BUILD/host/baremark" history serve --listen "127.0.0.1:$port" --db "$W/home.sqlite" --key-file "$W/results.key" \
    > "$W/serve.out" 2> "$W/serve.err" &
spid=$!
for _ in $(seq 50); do get "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done
mk --options "$opts" --name "baremark lab" > "$W/job.yaml" &&
    mk --options "$opts" --name "baremark lab results" --results "http://10.0.2.2:$port/" \
        --results-key-file "$W/results.key" > "$W/home.yaml" &&
    mk --options "$opts injectfault=divide injectin=numsort" --name "baremark lab fault" > "$W/fault.yaml" ||
    { fail "make-job writes the lab's jobs" "exit $?"; exit 0; }

jobs="" home=""
for i in 1 2 3; do
    y=$W/job.yaml
    [ $i = 1 ] && y=$W/home.yaml
    id=$(lavacli --uri "$URI" jobs submit "$y" 2>>"$W/submit.log") && jobs="$jobs $id"
    [ $i = 1 ] && home=$id
done
fault=$(lavacli --uri "$URI" jobs submit "$W/fault.yaml" 2>>"$W/submit.log")
if [ "$(echo $jobs | wc -w)" = 3 ] && [ -n "$fault" ]; then
    pass "lavacli submits 4 jobs to device type baremark-qemu (jobs$jobs, fault job $fault; job $home names the results server)"
else
    fail "lavacli submits 4 jobs to device type baremark-qemu" "$(tail -2 "$W/submit.log")"
    exit 0
fi

# Wait for the scheduler and the worker: every job Finished.
all="$jobs $fault"
deadline=$((SECONDS + 1500))
while [ $SECONDS -lt $deadline ]; do
    left=0
    for id in $all; do
        api "jobs/$id/" | grep -q '"state": *"Finished"' || left=$((left + 1))
    done
    [ $left -eq 0 ] && break
    sleep 3
done
t_jobs=$((SECONDS - t0 - t_up))

# Everything from here is read from the server's API.
for id in $all; do
    api "jobs/$id/" > "$W/job-$id.json"
    api "jobs/$id/suites/?limit=100" > "$W/suites-$id.json"
    api "jobs/$id/logs/" > "$W/log-$id.txt"
done
for id in $all; do
    : > "$W/tests-$id.json"
    url="jobs/$id/tests/?limit=100"
    while [ -n "$url" ]; do
        api "$url" > "$W/page.json" || break
        cat "$W/page.json" >> "$W/tests-$id.json"; echo >> "$W/tests-$id.json"
        url=$(jq -r '.next // empty' "$W/page.json" | sed "s|^${LAB_URL}api/v0.2/||")
    done
done

if /usr/bin/python3 - "$W" "$fault" $jobs > "$W/check.txt" 2>&1 <<'PY'
import json, re, sys
w, fault, jobs = sys.argv[1], sys.argv[2], sys.argv[3:]

def load(id):
    job = json.load(open(f"{w}/job-{id}.json"))
    suites = {s["id"]: s["name"] for s in json.load(open(f"{w}/suites-{id}.json"))["results"]}
    cases = {}
    for line in open(f"{w}/tests-{id}.json"):
        if line.strip():
            for t in json.loads(line)["results"]:
                if suites.get(t["suite"]) != "lava":
                    cases[t["name"]] = (t["result"], None if t["measurement"] is None else float(t["measurement"]), t["unit"])
    return job, cases

def check(ok, what, detail=""):
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok else f" ({detail})"))

devices = {}
for id in jobs + [fault]:
    job, cases = load(id)
    dev = job["actual_device"]
    devices[id] = dev
    tag = f"job {id} on {dev}"
    check(job["state"] == "Finished" and job["health"] == "Complete", f"{tag}: Complete",
          f"{job['state']}, {job['health']}")
    slow = 2 if dev.endswith("-slow") else 1       # ns per instruction
    def exact(case, want, unit, tol=1e-6):
        r = cases.get(case)
        check(r is not None and r[0] == "pass" and r[1] is not None and abs(r[1] - want) <= tol * max(1, abs(want))
              and r[2] == unit, f"{tag}: {case} = {want} {unit}", f"recorded {r}")
    def present(case, unit, result="pass"):
        r = cases.get(case)
        check(r is not None and r[0] == result and (r[1] is not None) == (result == "pass") and
              (result != "pass" or (r[1] > 0 and r[2] == unit)), f"{tag}: {case} {result}" +
              (f" with a measurement in {unit}" if result == "pass" else ""), f"recorded {r}")
    # clock: the TSC runs at 1 GHz under -icount whatever the shift
    present("clock_tsc_khz", "kHz")
    r = cases.get("clock_tsc_khz")
    check(r is not None and r[1] is not None and abs(r[1] - 1e6) < 10, f"{tag}: TSC 1 GHz within 10 ppm", f"{r}")
    # methods: exact overheads and the plug-in routine's net ticks
    exact("method_rdtscp_overhead_ticks", 4 * slow, "ticks")
    exact("meas_chain_add1000_rdtscp_ticks", 1002.4 * slow, "ticks/iter")
    exact("meas_chain_add100_rdtscp_ticks", 102.4 * slow, "ticks/iter")
    # memory: the first size's latency, a figure per size
    present("memory_latency_4096_ns", "ns")
    present("memory_read_4096_gbps", "GB/s")
    # cores: a second CPU where the device has one
    if dev in ("bm-qemu-01", "bm-qemu-03-slow"):
        present("cores_latency_cpu0_cpu1_ns", "ns")
        r = cases.get("cores_cpu1_tsc_offset_ns")
        check(r is not None and r[0] == "pass" and r[2] == "ns", f"{tag}: cores_cpu1_tsc_offset_ns recorded", f"{r}")
    # every case the device printed is stored by the server (the job's log
    # from the API against its test cases), skips and fails included
    printed = set(re.findall(r"BAREMARK-LAVA case=(\w+) result=", open(f"{w}/log-{id}.txt").read()))
    lost = sorted(printed - set(cases))
    check(len(printed) > 100 and not lost, f"{tag}: the server stored all {len(printed)} cases the device printed",
          f"lost {len(lost)}: {lost[:4]}")
    r = cases.get("clock_cpuid_15_khz")
    check(r is not None and r[0] == "skip" and r[1] is None, f"{tag}: a skipped case is stored as skip", f"{r}")
    if id == fault:
        present("bytemark_numsort", "", result="fail")
        r = cases.get("run_status")
        check(r == ("fail", 2.0, "status"), f"{tag}: run_status fail, 2", f"recorded {r}")
    else:
        present("bytemark_numsort", "arrays/s")
        exact("run_status", 0, "status")
normal = sorted(devices[j] for j in jobs)
check(len(set(normal)) == 3, "the scheduler spread the 3 jobs over the 3 devices", f"{normal}")
PY
then :; fi
cat "$W/check.txt"
grep -q '^PASS:\|^FAIL:' "$W/check.txt" || fail "the API checks ran" "$(tail -3 "$W/check.txt")"

# The fleet, straight from the server: the 4 jobs, each device a machine.
"$TOP/tools/baremark-fleet" --lava "$LAB_URL" --token "$LAB_TOKEN" --jobs "$(echo $jobs | tr ' ' ',')" \
    > "$W/fleet.txt" 2> "$W/fleet.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^LAVA jobs: 3 (3 Complete)$' "$W/fleet.txt"; then
    pass "baremark fleet --lava: 3 jobs read from the server, LAVA's own cases shown as job health"
else
    fail "baremark fleet --lava: 3 jobs read from the server" "exit $rc; $(head -3 "$W/fleet.txt" "$W/fleet.err" | tr '\n' '|')"
fi
if ! grep -Eq '(file-download|execute-qemu|lava-test-monitor|validate)' "$W/fleet.txt"; then
    pass "baremark fleet --lava: no LAVA action is a figure"
else
    fail "baremark fleet --lava: no LAVA action is a figure" "$(grep -E 'file-download|execute-qemu|lava-test-monitor' "$W/fleet.txt" | head -2)"
fi
# The performance figures: the slow device beyond the threshold on each,
# no other device on any.
for fig in bytemark_numsort meas_chain_add1000_rdtscp_ns method_rdtscp_overhead_ns memory_latency_4096_ns; do
    beyond=$(awk -v f="$fig" '$1 == f { on = 1; next } on && /beyond .* of the fleet median:/ { sub(/.*median: /, ""); print; exit }' "$W/fleet.txt")
    named=$(printf '%s' "$beyond" | tr ';' '\n' | sed 's/^ *//; s/ .*//' | grep -v '^none$' | sort | tr '\n' ' ')
    if [ "$named" = "bm-qemu-03-slow " ]; then
        pass "baremark fleet --lava: $fig names the planted slow device alone"
    else
        fail "baremark fleet --lava: $fig names the planted slow device alone" "beyond: '$beyond'"
    fi
done
# The newest jobs of the device type, paged two at a time by the API.
"$TOP/tools/baremark-fleet" --lava "$URI" --device-type baremark-qemu --last 4 --page 3 > "$W/fleet-last.txt" 2>&1
if grep -q '^LAVA jobs: 4 (4 Complete)$' "$W/fleet-last.txt"; then
    pass "baremark fleet --lava --device-type baremark-qemu --last 4 --page 3: the newest 4 jobs, paged"
else
    fail "baremark fleet --lava --device-type baremark-qemu --last 4 --page 3" "$(head -3 "$W/fleet-last.txt" | tr '\n' '|')"
fi

# The history, straight from the server: each job a run of its device.
H=$W/history.db
"$BUILD/host/baremark" history add --db "$H" --lava "$LAB_URL" --token "$LAB_TOKEN" --jobs "$(echo $jobs | tr ' ' ',')" \
    > "$W/history.txt" 2> "$W/history.err"
if grep -q '^history: 3 runs added, 0 already stored, 0 skipped' "$W/history.txt" &&
    grep -Eq 'LAVA job [0-9]+ on bm-qemu-03-slow, [0-9]{2,} figures' "$W/history.txt"; then
    pass "baremark history add --lava: the 3 jobs stored as runs of their devices"
else
    fail "baremark history add --lava" "$(cat "$W/history.txt" "$W/history.err" | tail -3 | tr '\n' '|')"
fi

# The run that came home: job $home's log names what the server stored.
hdev=$(jq -r '.actual_device // empty' "$W/job-$home.json" 2>/dev/null)
slow=1; case $hdev in *-slow) slow=2 ;; esac
sha=$(grep -o "results: run [0-9-]* stored by http://10\.0\.2\.2:$port/ (201, sha256 [0-9a-f]\{64\}), log sent" "$W/log-$home.txt" |
    sed -n 's/.*sha256 \([0-9a-f]*\)).*/\1/p' | head -1)
hname=$(grep -o "results: run [0-9-]* stored by http://10\.0\.2\.2:$port/" "$W/log-$home.txt" | head -1 | cut -d' ' -f3)
if [ -n "$sha" ]; then pass "job $home on $hdev: the run says the lab's results server stored it (201, its SHA-256)"
else fail "job $home: the run says the lab's results server stored it" "$(grep -o 'results: [^"]*' "$W/log-$home.txt" | head -4 | tr '\n' '|')"; fi
get "http://127.0.0.1:$port/api/runs" > "$W/home-runs.json"
if python3 -c 'import json, sys; l = json.load(open(sys.argv[1])); sys.exit(0 if len(l) == 1 and l[0]["sha256"] == sys.argv[2] and l[0]["name"] == sys.argv[3] else 1)' \
        "$W/home-runs.json" "$sha" "$hname" 2>/dev/null; then
    pass "GET /api/runs: the results server holds that run ($hname), and only it"
else
    fail "GET /api/runs: the results server holds that run" "$(head -c 300 "$W/home-runs.json")"
fi
mkdir -p "$W/home"
get "http://127.0.0.1:$port/api/runs/$sha" > "$W/home/$hdev.json"
if [ -n "$sha" ] && [ "$(sha256sum < "$W/home/$hdev.json" | cut -d' ' -f1)" = "$sha" ]; then
    pass "GET /api/runs/SHA: the stored JSON's SHA-256 is the one the job's log names"
else
    fail "GET /api/runs/SHA: the stored JSON's SHA-256 is the one the job's log names" "$(head -c 200 "$W/home/$hdev.json")"
fi
# fleet reads the run that arrived: the figures -icount defines (one
# instruction per ns, 2 on the slow device; the TSC at 1 GHz), and the
# run's status as LAVA recorded it for this job.
"$BUILD/host/baremark" fleet --csv "$W/home" > "$W/home-fleet.csv" 2> "$W/home-fleet.err"
st=$(jq -r '.results[] | select(.name == "run_status") | .measurement' "$W/tests-$home.json" 2>/dev/null | head -1)
chk=$(python3 - "$W/home-fleet.csv" "$hdev" "$slow" "$st" 2>&1 <<'PY'
import csv, sys
rows = {r["figure"]: r for r in csv.DictReader(open(sys.argv[1])) if r["machine"] == sys.argv[2]}
slow, st = int(sys.argv[3]), sys.argv[4]
want = {"method_rdtscp_overhead_ticks": 4 * slow, "meas_chain_add1000_rdtscp_ticks": 1002.4 * slow,
        "run_status": float(st) if st not in ("", "null") else None}
bad = [f"{k}: {rows[k]['value'] if k in rows else 'absent'}, want {v}" for k, v in want.items()
       if v is None or k not in rows or abs(float(rows[k]["value"]) - v) > 1e-6 * max(1, v)]
print("; ".join(bad) if bad else "run_status %g" % want["run_status"])
sys.exit(1 if bad else 0)
PY
)
if [ $? = 0 ]; then
    pass "baremark fleet reads the run that arrived: rdtscp overhead $((4 * slow)) ticks, chain add1000 $slow x 1002.4 ticks/iter, $chk as LAVA recorded it"
else
    fail "baremark fleet reads the run that arrived" "$chk; $(head -c 200 "$W/home-fleet.err")"
fi
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; spid=""
"$BUILD/host/baremark" history show --db "$W/home.sqlite" > "$W/home-show.txt" 2> "$W/home-show.err"
if grep -q '^==== baremark history: 1 machine, 1 run, ' "$W/home-show.txt"; then
    pass "baremark history show reads the results server's store (1 machine, 1 run)"
else
    fail "baremark history show reads the results server's store" "$(head -3 "$W/home-show.txt" "$W/home-show.err" | tr '\n' '|')"
fi

trap - EXIT
if lab down > "$W/down.log" 2>&1 && ! pgrep -f 'lava-worker|lava-server manage|gunicorn3 lava_server|lava-run' >/dev/null &&
    ! ss -Hltn | grep -Eq '127\.0\.0\.1:(8000|8001|5500|5432) '; then
    pass "lab down: no lab process left, nothing listens on 8000, 8001, 5500, 5432"
else
    fail "lab down leaves nothing running" "$(tail -2 "$W/down.log"; pgrep -af 'lava|gunicorn' | head -3)"
fi
pass "the lab's cost: up ${t_up} s, 4 jobs ${t_jobs} s, all $((SECONDS - t0)) s (3 devices, 1 worker)"
