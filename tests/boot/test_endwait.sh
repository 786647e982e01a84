#!/bin/bash
# Boot test: how a run ends on hardware (QEMUEXIT=F).  By default the image
# says so on the line before the run's summary (which ends right before the
# final line) and waits for a key, so a person
# can read the screen; the key returns to the firmware (its front page then
# draws on the serial console).  ENDWAITSECONDS=N stops waiting after N
# seconds; ENDWAIT=F returns at once.  The key is a real key press: QEMU's
# QMP send-key on the PS/2 keyboard, read by the firmware's console.
. "$(dirname "$0")/lib.sh"

# start NAME OPTIONS: boot in the background; QMP on $TEST_TMP/NAME.qmp
start() {
    RAW="$TEST_TMP/$1.serial" QMP="$TEST_TMP/$1.qmp"
    rm -f "$QMP"
    : > "$RAW"
    "$RUN_QEMU" --timeout 200 --serial "$RAW" --cpu qemu64 --options "sections=none $2" \
        --qemu-arg -qmp --qemu-arg "unix:$QMP,server=on,wait=off" "$(fresh_image "$1")" \
        > /dev/null 2> "$TEST_TMP/$1.err" &
    PID=$!
}
# stop: end this boot (QEMU and run-qemu: their command lines name the QMP socket)
stop() { pkill -f "unix:$QMP,server" 2>/dev/null; wait "$PID" 2>/dev/null; return 0; }

# text: the serial output so far, CR and escape sequences removed
text() { tr -d '\r' < "$RAW" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g'; }

# watch final|after SECONDS: polls the serial file every 10 ms.  final: waits
# for the final line; after: then waits for the firmware's first output after
# it.  Prints the milliseconds waited, nothing on timeout.
watch() {
    /usr/bin/python3 - "$RAW" "$1" "$2" <<'PY'
import sys, time
path, what, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
final = b"baremark: run ended, status"
t0 = time.monotonic()
while time.monotonic() - t0 < limit:
    data = open(path, "rb").read()
    k = data.find(final)
    if k >= 0:
        nl = data.find(b"\n", k)
        if what == "final" and nl >= 0:
            print(int((time.monotonic() - t0) * 1000)); break
        if what == "after" and nl >= 0 and data[nl + 1:].strip(b"\r\n"):
            print(int((time.monotonic() - t0) * 1000)); break
    time.sleep(0.01)
PY
}

key() {
    /usr/bin/python3 - "$QMP" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()
for cmd in ({"execute": "qmp_capabilities"},
            {"execute": "send-key", "arguments": {"keys": [{"type": "qcode", "data": "ret"}]}}):
    f.write(json.dumps(cmd) + "\n")
    f.flush()
    r = json.loads(f.readline())
    if "return" not in r:
        sys.exit("QMP: %s" % r)
PY
}

# ---- 1. the default: wait for a key, no limit -------------------------------
start endwait-key "qemuexit=f"
if [ -n "$(watch final 120)" ]; then
    pass "key: the run ends with its final line"
    # (the LAVA result lines go to serial only, not to the screen a person reads)
    # On the screen: the key asked for, the run's summary, the final line.
    text | grep -v '^BAREMARK-LAVA ' | grep -B1 '^=* baremark summary: ' | head -1 |
        grep -q '^end: press a key to return to the firmware$' &&
        pass "key: the line before the summary on the screen asks for a key" ||
        fail "key: the line before the summary on the screen asks for a key" \
            "$(text | grep -v '^BAREMARK-LAVA ' | grep -B1 '^=* baremark summary: ' | head -1)"
    text | grep -B1 '^baremark: run ended' | head -1 | grep -q '^=\{40,\}$' &&
        pass "key: the summary's closing rule is the line before the final one" ||
        fail "key: the summary's closing rule is the line before the final one" \
            "$(text | grep -B1 '^baremark: run ended' | head -1)"
    t=$(watch after 6)
    [ -z "$t" ] && pass "key: 6 s later nothing follows the final line (still waiting)" ||
        fail "key: still waiting 6 s later" "firmware output after the final line within $t ms"
    if key 2> "$TEST_TMP/endwait-key.qmp.err"; then
        t=$(watch after 20)
        [ -n "$t" ] && pass "key: a key press returns to the firmware (its output follows in $t ms)" ||
            fail "key: a key press returns to the firmware" "nothing after the final line 20 s after the key"
    else
        fail "key: QMP send-key" "$(cat "$TEST_TMP/endwait-key.qmp.err")"
    fi
else
    fail "key: the run ends with its final line" "$(text | tail -3 | tr '\n' '|')"
fi
stop

# ---- 2. ENDWAITSECONDS=3: returns by itself -----------------------------------
start endwait-timeout "qemuexit=f endwaitseconds=3"
if [ -n "$(watch final 120)" ]; then
    text | grep -q '^end: press a key to return to the firmware (or wait 3 s)$' &&
        pass "timeout: says it waits at most 3 s" || fail "timeout: says it waits at most 3 s" "$(text | tail -3 | tr '\n' '|')"
    t=$(watch after 30)
    # 3 s of the guest's timer seen from outside, less the time it took us to
    # see the final line: more than 1.5 s, well under 30 s
    [ -n "$t" ] && [ "$t" -ge 1500 ] && pass "timeout: returns to the firmware by itself after about 3 s ($t ms)" ||
        fail "timeout: returns to the firmware after about 3 s" "${t:-no output in 30 s} ms"
else
    fail "timeout: the run ends with its final line" "$(text | tail -3 | tr '\n' '|')"
fi
stop

# ---- 3. ENDWAIT=F: returns at once --------------------------------------------
start endwait-off "qemuexit=f endwait=f"
if [ -n "$(watch final 120)" ]; then
    text | grep -q '^end: ' && fail "off: no key is asked for" "$(text | grep '^end: ')" ||
        pass "off: no key is asked for"
    t=$(watch after 30)
    [ -n "$t" ] && [ "$t" -lt 1500 ] && pass "off: returns to the firmware at once ($t ms)" ||
        fail "off: returns to the firmware at once" "${t:-no output in 30 s} ms"
else
    fail "off: the run ends with its final line" "$(text | tail -3 | tr '\n' '|')"
fi
stop
