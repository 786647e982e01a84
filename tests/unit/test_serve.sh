#!/bin/sh
# Unit test: `baremark history serve`, the results server of the upload
# protocol (docs/results-server.md), on 127.0.0.1 with a temporary SQLite
# store and then a private PostgreSQL cluster (tools/lib/pg-cluster.sh).
# The client is tests/unit/serve_client.py: Python's hmac and hashlib sign
# and hash, apart from the server's libcrypto and SHA-256.
#
# Checked on each store: a signed run is stored (201, the SHA-256 that
# hashlib finds), its log beside it, both served back byte for byte; a
# duplicate is 409; a forged or missing signature 401; a body over
# --max-bytes 413 (by its Content-Length, and chunked as it grows); a
# truncated body, a log for no run (404), a schema-invalid run (422 naming
# the member broken here), not JSON (400), a body a byte a second and
# headers a byte a second (cut after --timeout) are each refused with one
# log line, and the store (`history export --csv`, /api/runs, the tables'
# row counts) is the same before and after; two runs sent at once are both
# stored; the first page lists both machines, in Chromium too, and each
# run's firmware image (system.firmware_id, as the fixture's JSON has it);
# /api/changes is JSON; /runs/SHA is a sent run's report page, linked from
# the first page; SIGTERM stops the server with status 0.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
B=$BUILD/host/baremark
W=$BUILD/tests/serve
C="python3 $TOP/tests/unit/serve_client.py"
F=$TOP/tests/fixtures
TIMEOUT=3
MAX=300000
rm -rf "$W"
mkdir -p "$W"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1
. "$TOP/tools/lib/pg-cluster.sh"

SRV=
cleanup() {
    [ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
    SRV=
    pg_cluster_stop
}
trap cleanup EXIT
trap 'exit 1' INT TERM

printf 'lab secret 42\n' > "$W/key"

# The inputs refused: each made here from a fixture, broken one known way.
python3 - "$F" "$W" "$MAX" <<'PY'
import json, sys
f, w, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(f + "/run-faults.json"))
d["ended"] = "yes"                       # a boolean in the schema
open(w + "/invalid.json", "w").write(json.dumps(d))
open(w + "/notjson.json", "w").write(open(f + "/run-guess.json").read()[:5000])
open(w + "/big.json", "wb").write(b" " * (top + 1))   # one byte over --max-bytes
PY
printf 'baremark log\nline two\n' > "$W/run.log"

# start DB TAG: the server in the background on a free port (PORT)
start() {
    "$B" history serve --listen 127.0.0.1:0 --db "$1" --key-file "$W/key" --timeout $TIMEOUT --max-bytes $MAX \
        2> "$W/$2.err" &
    SRV=$!
    i=0
    while [ $i -lt 100 ] && ! grep -q 'listening on' "$W/$2.err"; do sleep 0.2; i=$((i + 1)); done
    PORT=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$W/$2.err")
    [ -n "$PORT" ]
}

# snap DB FILE: what is stored, as the tools and the API see it
snap() {
    "$B" history export --db "$1" --csv > "$2" 2>&1
    curl -s "http://127.0.0.1:$PORT/api/runs" >> "$2"
    if ! hdb_is_pg "$1"; then
        python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print([c.execute('select count(*) from '+t).fetchone()[0] for t in ('machines','runs','points','figures','run_files')])" "$1" >> "$2"
    fi
}
hdb_is_pg() { case $1 in postgresql://*) return 0 ;; esac; return 1; }

# refused CODE TAG WHAT: the log gained exactly one line, a refusal with CODE
LINES=0
refused() {
    i=0     # a refusal the client cannot see (truncated) is logged when the server notices
    while [ $i -lt 50 ] && [ "$(wc -l < "$W/$2.err")" -le "$LINES" ]; do sleep 0.2; i=$((i + 1)); done
    n=$(wc -l < "$W/$2.err")
    new=$(tail -n +$((LINES + 1)) "$W/$2.err")
    LINES=$n
    [ "$(printf '%s\n' "$new" | grep -c .)" = 1 ] && printf '%s\n' "$new" | grep -q "^baremark history serve: refused $1 from 127\.0\.0\.1: "
}

suite() {   # DB TAG
    DB=$1
    T=$2
    if ! start "$DB" "$T"; then
        fail "$T: the server starts" "$(tail -2 "$W/$T.err")"
        return
    fi
    full_sha=$($C sha "$F/run-full.json")
    out=$($C post "$PORT" /api/runs "$F/run-full.json" "$W/key")
    if [ "$out" = "201 {\"sha256\":\"$full_sha\",\"stored\":true}" ]; then
        pass "$T: a signed run is stored: 201 and hashlib's SHA-256 of the body"
    else
        fail "$T: a signed run is stored" "$out"
    fi
    lout=$($C post "$PORT" "/api/runs/$full_sha/log" "$W/run.log" "$W/key")
    curl -s "http://127.0.0.1:$PORT/api/runs/$full_sha" > "$W/$T-got.json"
    curl -s "http://127.0.0.1:$PORT/api/runs/$full_sha/log" > "$W/$T-got.log"
    if [ "${lout%% *}" = 201 ] && cmp -s "$W/$T-got.json" "$F/run-full.json" && cmp -s "$W/$T-got.log" "$W/run.log"; then
        pass "$T: its log is stored beside it; both are served back byte for byte"
    else
        fail "$T: the log stored, both served back" "$lout"
    fi
    LINES=$(wc -l < "$W/$T.err")
    snap "$DB" "$W/$T-before.txt"

    ok=""
    out=$($C post "$PORT" /api/runs "$F/run-full.json" "$W/key")
    [ "$out" = "409 {\"sha256\":\"$full_sha\",\"stored\":false,\"error\":\"duplicate\"}" ] && refused 409 "$T" || ok="$ok duplicate($out)"
    out=$($C post "$PORT" /api/runs "$F/run-quick.json" "$W/key" bad)
    [ "${out%% *}" = 401 ] && refused 401 "$T" || ok="$ok forged($out)"
    out=$($C post "$PORT" /api/runs "$F/run-quick.json" "$W/key" none)
    [ "${out%% *}" = 401 ] && refused 401 "$T" || ok="$ok unsigned($out)"
    out=$($C post "$PORT" /api/runs "$W/big.json" "$W/key")
    [ "${out%% *}" = 413 ] && refused 413 "$T" || ok="$ok oversized($out)"
    out=$($C chunked "$PORT" "$F/run-faults.json" "$W/key" 3)
    [ "$out" = "answered 413" ] && refused 413 "$T" || ok="$ok grew($out)"
    $C truncated "$PORT" "$F/run-quick.json" "$W/key" > /dev/null
    refused 400 "$T" || ok="$ok truncated($(tail -1 "$W/$T.err"))"
    out=$($C post "$PORT" /api/runs "$W/invalid.json" "$W/key")
    case $out in "422 "*ended*) refused 422 "$T" || ok="$ok invalid-log" ;; *) ok="$ok invalid($out)" ;; esac
    out=$($C post "$PORT" /api/runs "$W/notjson.json" "$W/key")
    [ "${out%% *}" = 400 ] && refused 400 "$T" || ok="$ok notjson($out)"
    out=$($C post "$PORT" "/api/runs/$($C sha "$W/run.log")/log" "$W/run.log" "$W/key")
    [ "${out%% *}" = 404 ] && refused 404 "$T" || ok="$ok log-for-no-run($out)"
    out=$($C post "$PORT" "/api/runs/$full_sha/log" "$W/run.log" "$W/key")
    [ "${out%% *}" = 409 ] && refused 409 "$T" || ok="$ok log-twice($out)"
    if [ -z "$ok" ]; then
        pass "$T: duplicate 409, forged and unsigned 401, oversized 413 (declared and grown), truncated, not JSON 400, invalid 422 naming 'ended', a log for no run 404, a log twice 409: one log line each"
    else
        fail "$T: each refusal with its status and one log line" "$ok"
    fi

    # slow: a body a byte a second, headers a byte a second (both at once)
    $C slow "$PORT" "$F/run-guess.json" "$W/key" > "$W/$T-slow.txt" &
    p1=$!
    $C slow-headers "$PORT" > "$W/$T-slowh.txt"
    wait $p1
    s1=$(sed -n 's/.* after \([0-9]*\)\..*/\1/p' "$W/$T-slow.txt")
    s2=$(sed -n 's/.* after \([0-9]*\)\..*/\1/p' "$W/$T-slowh.txt")
    n408=$(tail -n +$((LINES + 1)) "$W/$T.err" | grep -c "refused 408 from 127\.0\.0\.1: .*(--timeout)")
    LINES=$(wc -l < "$W/$T.err")
    # the body: cut at the first byte after --timeout; the headers: by the
    # watchdog, 2 s after it (each a second's step later at most)
    if [ -n "$s1" ] && [ -n "$s2" ] && [ "$s1" -ge $TIMEOUT ] && [ "$s1" -le $((TIMEOUT + 3)) ] &&
        [ "$s2" -ge $TIMEOUT ] && [ "$s2" -le $((TIMEOUT + 5)) ] && [ "$n408" = 2 ]; then
        pass "$T: a body and headers sent a byte a second are cut after --timeout $TIMEOUT s (${s1} s, ${s2} s), logged 408"
    else
        fail "$T: slow clients cut after --timeout" "$(cat "$W/$T-slow.txt" "$W/$T-slowh.txt" | tr '\n' ' ') 408 lines: $n408"
    fi
    snap "$DB" "$W/$T-after.txt"
    if cmp -s "$W/$T-before.txt" "$W/$T-after.txt" && [ "$(wc -c < "$W/$T-before.txt")" -gt 1000 ]; then
        pass "$T: nothing stored changed after the refusals (export, /api/runs, row counts)"
    else
        fail "$T: nothing stored changed after the refusals" "$(diff "$W/$T-before.txt" "$W/$T-after.txt" | head -3 | tr '\n' '|')"
    fi

    $C concurrent "$PORT" "$W/key" "$F/run-quick.json" "$F/run-faults.json" > "$W/$T-two.txt"
    n=$(curl -s "http://127.0.0.1:$PORT/api/runs" | python3 -c "import json,sys; print(sorted(r['sha256'] for r in json.load(sys.stdin)))")
    want=$(python3 -c "import sys; print(sorted(sys.argv[1:]))" "$full_sha" "$($C sha "$F/run-quick.json")" "$($C sha "$F/run-faults.json")")
    if [ "$(cat "$W/$T-two.txt" | tr '\n' ' ')" = "201 same-sha 201 same-sha " ] && [ "$n" = "$want" ]; then
        pass "$T: two runs sent at once: both 201, both stored"
    else
        fail "$T: two runs sent at once" "$(cat "$W/$T-two.txt" | tr '\n' ' ') $n"
    fi

    curl -s "http://127.0.0.1:$PORT/" > "$W/$T-index.html"
    curl -s "http://127.0.0.1:$PORT/api/changes" > "$W/$T-changes.json"
    hist=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/history")
    if grep -q '<td>QEMU TCG CPU version 2.5+</td>' "$W/$T-index.html" &&
        grep -q '<td>QEMU Virtual CPU version 2.5+</td>' "$W/$T-index.html" && ! grep -qi '<script' "$W/$T-index.html" &&
        python3 -c "import json,sys; assert isinstance(json.load(open(sys.argv[1])), list)" "$W/$T-changes.json" && [ "$hist" = 200 ]; then
        pass "$T: the first page lists both machines (no script); /api/changes is a JSON list; /history is served"
    else
        fail "$T: the pages" "history $hist; $(head -c 200 "$W/$T-changes.json")"
    fi
    # the firmware image's identity: each run's row in the latest runs shows
    # the first 12 hex digits of its file's system.firmware_id ("-" when the
    # file has none; run-quick.json has one)
    if python3 - "$W/$T-index.html" "$F/run-quick.json" "$F/run-full.json" "$F/run-faults.json" <<'PY'
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.table = None; s.rows = []; s.cell = None
    def handle_starttag(s, t, a):
        if t == "table": s.table = dict(a).get("id")
        if t == "tr" and s.table == "runs": s.rows.append([])
        if t in ("td", "th") and s.table == "runs": s.cell = ""
    def handle_endtag(s, t):
        if t in ("td", "th") and s.cell is not None: s.rows[-1].append(s.cell.strip()); s.cell = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
head, rows = p.rows[0], p.rows[1:]
run, fw = head.index("run"), head.index("firmware image")
shown = {r[run]: r[fw] for r in rows}
for f in sys.argv[2:]:
    d = json.load(open(f))
    want = (d.get("system") or {}).get("firmware_id")
    want = want[:12] if want else "-"
    assert shown.get(d["name"]) == want, (f, shown.get(d["name"]), want)
quick = json.load(open(sys.argv[2]))
assert len(quick["system"]["firmware_id"]) == 64 and shown[quick["name"]] != "-"
PY
    then
        pass "$T: the latest runs show each run's firmware image (system.firmware_id's first 12 hex digits, '-' without one)"
    else
        fail "$T: the latest runs show each run's firmware image" "$(grep -o '<table id=runs>.*' "$W/$T-index.html" | head -c 300)"
    fi
    # the run page: a run sent to the server is shown as `baremark report`
    # shows its file (but the footer, which names where it came from), under
    # a policy that lets the page run and load nothing; the first page links
    # the run's name to it; a run the server does not keep is a 404
    curl -s -D "$W/$T-page.hdr" "http://127.0.0.1:$PORT/runs/$full_sha" > "$W/$T-page.html"
    "$B" report "$F/run-full.json" -o "$W/$T-local.html" > /dev/null 2>&1
    foot='s/<footer>made by baremark report from [^<]* (results schema/<footer>(results schema/'
    miss=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/runs/$(printf '%064d' 0)")
    sed "$foot" "$W/$T-page.html" > "$W/$T-page.cmp"
    sed "$foot" "$W/$T-local.html" > "$W/$T-local.cmp"
    if [ -s "$W/$T-local.html" ] && cmp -s "$W/$T-page.cmp" "$W/$T-local.cmp" &&
        grep -qi "^content-type: text/html" "$W/$T-page.hdr" &&
        grep -qi "^content-security-policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:" "$W/$T-page.hdr" &&
        grep -q "<a href=\"/runs/$full_sha\">$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['name'])" "$F/run-full.json")</a>" "$W/$T-index.html" &&
        [ "$miss" = 404 ]; then
        pass "$T: /runs/SHA is the run's report page (as baremark report makes it from the file), no script allowed; the first page links it; an unknown run 404"
    else
        fail "$T: /runs/SHA, the run's page" "$(head -c 200 "$W/$T-page.html"); unknown run: $miss"
    fi
    if [ "$T" = sqlite ]; then
        CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
        if [ -z "$CHROMIUM" ]; then
            fail "chromium is installed" "run: sh tools/install-deps.sh --test"
        else
            prof=$(mktemp -d /tmp/baremark-serve-chromium.XXXXXX)
            timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
                --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
                --dump-dom "http://127.0.0.1:$PORT/" > "$W/dom.html" 2> "$W/chromium.err"
            rm -rf "$prof"
            if python3 - "$W/dom.html" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.table = None; s.cells = []; s.cell = None
    def handle_starttag(s, t, a):
        if t == "table": s.table = dict(a).get("id")
        if t == "td" and s.table == "machines": s.cell = ""
    def handle_endtag(s, t):
        if t == "td" and s.cell is not None: s.cells.append(s.cell); s.cell = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
assert "QEMU TCG CPU version 2.5+" in p.cells and "QEMU Virtual CPU version 2.5+" in p.cells, p.cells
PY
            then
                pass "Chromium renders the first page with both machines in its machines table"
            else
                fail "Chromium renders the first page with both machines" "$(tail -2 "$W/chromium.err" | tr '\n' '|')"
            fi
        fi
    fi
    kill -TERM "$SRV"
    wait "$SRV"
    rc=$?
    SRV=
    if [ $rc = 0 ] && tail -1 "$W/$T.err" | grep -q 'stopping (SIGTERM)'; then
        pass "$T: SIGTERM stops the server, status 0"
    else
        fail "$T: SIGTERM stops the server" "status $rc"
    fi
}

suite "$W/serve.db" sqlite

if pg_cluster_start "$W"; then
    suite "$PG_URL" postgresql
else
    fail "a private PostgreSQL cluster starts on 127.0.0.1" "$(tail -2 "$W"/pg-*.log | tr '\n' '|')"
fi

# usage: one line each, status 2
"$B" history serve --listen 127.0.0.1 --key-file "$W/key" > /dev/null 2> "$W/u1.err"; u1=$?
printf '' > "$W/empty.key"
"$B" history serve --listen 127.0.0.1:0 --key-file "$W/empty.key" > /dev/null 2> "$W/u2.err"; u2=$?
"$B" history serve --listen 127.0.0.1:0 > /dev/null 2> "$W/u3.err"; u3=$?
if [ $u1 = 2 ] && [ $u2 = 2 ] && [ $u3 = 2 ] && [ "$(cat "$W"/u[123].err | wc -l)" = 3 ] &&
    grep -q -- '--listen' "$W/u1.err" && grep -q -- 'empty.key' "$W/u2.err"; then
    pass "serve: a bad --listen, an empty key file, a missing --key-file: one line each, status 2"
else
    fail "serve: usage errors" "$u1 $u2 $u3 $(cat "$W"/u[123].err | tr '\n' '|')"
fi
# --tls-cert without --tls-key, and a certificate file that is not PEM: one line each, status 2
"$B" history serve --listen 127.0.0.1:0 --key-file "$W/key" --tls-cert "$W/key" > /dev/null 2> "$W/t1.err"; t1=$?
printf 'not a certificate\n' > "$W/notpem"
"$B" history serve --listen 127.0.0.1:0 --key-file "$W/key" --tls-cert "$W/notpem" --tls-key "$W/notpem" \
    > /dev/null 2> "$W/t2.err"; t2=$?
if [ $t1 = 2 ] && [ $t2 = 2 ] && [ "$(cat "$W"/t[12].err | wc -l)" = 2 ] && grep -q -- '--tls-key' "$W/t1.err" &&
    grep -q -- "--tls-cert $W/notpem: not a PEM file" "$W/t2.err"; then
    pass "serve: --tls-cert without --tls-key, a file that is not PEM: one line each, status 2"
else
    fail "serve: TLS usage errors" "$t1 $t2 $(cat "$W"/t[12].err | tr '\n' '|')"
fi
