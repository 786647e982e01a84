#!/bin/bash
# Boot test: a LAVA job names the lab's results server, and the run
# arrives there (docs/guide-lab.md#results-sent-to-the-labs-server).
# tools/lava/make-job --results URL --results-key-file FILE writes the QEMU
# job; lava-run (Debian's lava-dispatcher, no server) runs it with
# tools/lava/devices/qemu-local.yaml; the test's own `baremark history
# serve` on a free loopback port is the lab's server (10.0.2.2 from QEMU's
# user network).  Checked: the job finished and LAVA's monitor found the
# end line, which came after the upload's line (a LAVA job stops the
# machine at the end line); the server stored the run LAVA saw (its
# run_status case is in LAVA's results); `baremark history show` reads the
# server's store and `baremark fleet` the JSON the server serves back.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
if ! command -v lava-run >/dev/null; then
    fail "lava-run is installed" "install lava-dispatcher: tools/install-deps.sh --test"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    fail "lava-run runs as root" "lava-run deploys under /var/lib/lava and must run as root"
    exit 0
fi
W=$TEST_TMP/lava-results
rm -rf "$W" && mkdir -p "$W/runs"
printf 'lab-lava-key\n' > "$W/key"
get() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$B" history serve --listen "127.0.0.1:$port" --db "$W/lab.sqlite" --key-file "$W/key" > "$W/serve.out" 2> "$W/serve.err" &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
for _ in $(seq 50); do get "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done

img=$(fresh_image lava-results)
"$TOP/tools/lava/make-job" --device qemu --image "file://$img" --options "sections=none" --name "baremark results test" \
    --timeout-factor 4 --results "http://10.0.2.2:$port/" --results-key-file "$W/key" \
    > "$W/job.yaml" || { fail "make-job writes the QEMU job with --results" "exit $?"; exit 0; }
timeout -k 10 1200 lava-run --job-id "baremark-results-$$" --output-dir "$W/out" \
    --device "$TOP/tools/lava/devices/qemu-local.yaml" "$W/job.yaml" > "$W/lava-run.out" 2> "$W/lava-run.log"
rc=$?
if [ $rc -eq 0 ] && grep -q '"msg": "Job finished correctly"' "$W/lava-run.log"; then
    pass "lava-run: the job finished correctly (exit 0)"
else
    fail "lava-run: the job finished correctly" "exit $rc; $(grep -E '"lvl": "(error|exception)"' "$W/lava-run.log" | head -3 | cut -c1-300 | tr '\n' '|')"
fi

# LAVA's records: the serial lines (target) and the results
/usr/bin/python3 - "$W/lava-run.log" "$W/lava.txt" <<'PY'
import json, re, sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    line = re.sub(r'!\S* "null"', 'null', line)
    line = re.sub(r'!\S* (")', r'\1', line)
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("lvl") == "target" and isinstance(r.get("msg"), str):
        out.write("target " + r["msg"] + "\n")
    elif r.get("lvl") == "results" and isinstance(r.get("msg"), dict):
        m = r["msg"]
        out.write("result %s %s %s %s\n" % (m.get("definition"), m.get("case"), m.get("result"), m.get("measurement")))
PY
sha=$(sed -n 's/^target results: run [0-9-]* stored by http:\/\/10\.0\.2\.2:[0-9]*\/ (201, sha256 \([0-9a-f]\{64\}\)), log sent$/\1/p' "$W/lava.txt" | head -1)
if [ -n "$sha" ]; then pass "the run says it was stored by the lab's server (201)"
else fail "the run says it was stored by the lab's server" "$(grep '^target results:' "$W/lava.txt" | tr '\n' '|' | head -c 300)"; fi
up=$(grep -n '^target results: run .* stored by' "$W/lava.txt" | head -1 | cut -d: -f1)
end=$(grep -n '^target BAREMARK-LAVA end status=' "$W/lava.txt" | head -1 | cut -d: -f1)
if [ -n "$up" ] && [ -n "$end" ] && [ "$up" -lt "$end" ] &&
   grep -q '^result lava lava-test-monitor pass\|^result baremark run_status pass' "$W/lava.txt"; then
    pass "LAVA's end line came after the upload, and the monitor recorded the run"
else
    fail "LAVA's end line after the upload" "upload line $up, end line $end; $(grep '^result' "$W/lava.txt" | head -3 | tr '\n' '|')"
fi
status=$(sed -n 's/^result baremark run_status [a-z]* \([0-9.]*\)$/\1/p' "$W/lava.txt" | head -1)
get "http://127.0.0.1:$port/api/runs" > "$W/runs.json"
if python3 -c 'import json, sys; l = json.load(open(sys.argv[1])); sys.exit(0 if len(l) == 1 and l[0]["sha256"] == sys.argv[2] else 1)' "$W/runs.json" "$sha"; then
    pass "the server holds that run, and only it"
else
    fail "the server holds that run" "$(head -c 300 "$W/runs.json")"
fi
get "http://127.0.0.1:$port/api/runs/$sha" > "$W/runs/lab-run.json"
if [ "$(sha256sum < "$W/runs/lab-run.json" | cut -d' ' -f1)" = "$sha" ]; then
    pass "the server serves the run's JSON back byte for byte (its SHA-256)"
else
    fail "the server serves the run's JSON back byte for byte" "$(head -c 200 "$W/runs/lab-run.json")"
fi
"$B" fleet --csv "$W/runs" > "$W/fleet.csv" 2> "$W/fleet.err"
st=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("status"))' "$W/runs/lab-run.json" 2>/dev/null)
if grep -q "^run_status,status,[^,]*,1,$st," "$W/fleet.csv" && [ -n "$status" ] && [ "${status%.*}" = "$st" ]; then
    pass "baremark fleet reads the run that arrived: run_status $st, as LAVA recorded it"
else
    fail "baremark fleet reads the run that arrived" "LAVA $status, JSON $st; $(head -3 "$W/fleet.csv" | tr '\n' '|') $(head -c 200 "$W/fleet.err")"
fi
kill $spid 2>/dev/null; wait $spid 2>/dev/null
"$B" history show --db "$W/lab.sqlite" > "$W/show.txt" 2> "$W/show.err"
if grep -q '^==== baremark history: 1 machine, 1 run, ' "$W/show.txt"; then
    pass "baremark history show reads the server's store (1 machine, 1 run)"
else
    fail "baremark history show reads the server's store" "$(head -5 "$W/show.txt" "$W/show.err" | tr '\n' '|')"
fi
