#!/bin/bash
# Boot test: runs sent home to a results server (docs/results-upload.md),
# under QEMU's user network on loopback only (the guest reaches the host's
# 127.0.0.1 as 10.0.2.2).  The test starts `baremark history serve` on two
# free loopback ports (stopped by the trap) and boots, two at a time:
#  Rounds 1 and 2 go by the firmware's HTTP protocol where the card has
#  one (OVMF's HttpDxe), round 3 by TCP4 (RESULTS_VIA=tcp, and (f): a
#  firmware without the HTTP protocol, RESULTS_VIA=auto).
#  round 1  (a) a stick with a network card: the run is stored (the server
#           lists the SHA-256 of the stick's JSON file), uploaded.txt names
#           it with that SHA;  (b) at the same time a diskless PXE boot (no
#           disk at all): its run, composed in memory, is stored too; the
#           server then lists two machines' runs that arrived at once (d).
#  round 2  (c1) the second server is down: one line says so, the run stays
#           on the stick, uploaded.txt is absent;  (e) a wrong RESULTS_KEY:
#           401, the run says so, nothing stored, nothing recorded.  The
#           stick of (e) also carries a blank disk, so it has a boot index
#           and OVMF leaves the card unconnected: the image connects it.
#  round 3  (c2) the same stick, second server up, RESULTS_VIA=tcp (the
#           image's own client over TCP4): both runs are sent;
#           `baremark-results upload` with uploaded.txt removed then gets
#           409 for both: nothing is stored twice.  At the same time (f) a
#           firmware without the HTTP protocol (Debian's OVMF with its
#           HttpDxe made a pad file: tests/boot/ovmf_notpm.py --no-http),
#           RESULTS_VIA=auto, under -icount: the image finds no HTTP
#           service binding, says it goes by TCP4 in one line, and the run
#           is stored (the first server lists its SHA-256).
# The upload's cost after the summary (the image's own TSC figure) is
# printed as a "figure:" line.  UPLOAD_SERVER overrides the server program
# (default build/host/baremark).
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
B=$BUILD/host/baremark
SERVER=${UPLOAD_SERVER:-$B}
T=$TEST_TMP/upload
rm -rf "$T" && mkdir -p "$T/pxe"
cp "$BUILD/baremark.efi" "$T/pxe/baremark.efi"
printf 'lab-secret-34\n' > "$T/key"
OPTS="profile=quick sections=none verbose=t"

# GET a URL (Python urllib: no curl needed); fails when nothing answers.
get() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
p1=$(free_port) p2=$(free_port)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
serve() {   # PORT NAME: start a server, wait until it answers
    "$SERVER" history serve --listen "127.0.0.1:$1" --db "$T/$2.sqlite" --key-file "$T/key" \
        > "$T/$2.out" 2> "$T/$2.err" &
    pids+=($!)
    for _ in $(seq 100); do
        get "http://127.0.0.1:$1/" >/dev/null && return 0
        sleep 0.1
    done
    fail "server $2 started on 127.0.0.1:$1" "$(head -3 "$T/$2.err" | tr '\n' '|')"
}
runs() { get "http://127.0.0.1:$1/api/runs"; }     # PORT: the server's list (JSON)
has_sha() {   # PORT SHA [NAME]: the list holds this run (with this name)
    runs "$1" | python3 -c 'import json, sys; l = json.load(sys.stdin); sys.exit(0 if any(r.get("sha256") == sys.argv[1] and sys.argv[2] in ("", r.get("name")) for r in l) else 1)' "$2" "${3:-}"
}
stored_listed() {   # WHAT NAME SHA: the image's line for a run stored by server 1, and its list
    expect_line "^results: run $2 stored by http://10\\.0\\.2\\.2:$p1/ \\(201, sha256 $3\\), log sent\$" \
        "$1 the run stored (201) with the SHA-256 of the stick's JSON file"
    if has_sha "$p1" "$3" "$2"; then pass "$1 the server lists $2 with that SHA-256"
    else fail "$1 the server lists $2 with that SHA-256" "$(runs "$p1" | head -c 300)"; fi
}
count() { runs "$1" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
esp_sha() { esp_cat "$1" "baremark/$2.json" | sha256sum | cut -d' ' -f1; }
figure() {   # NAME: the image's own figure for the upload's cost
    local f
    f=$(grep -E -o 'sent in [0-9.]+ s after the summary' "$TEST_TMP/$1.log" | head -1)
    [ -n "$f" ] && echo "figure: $1: ${f#sent in }"
}
# A boot in the background: its rc and log by NAME.
bg_boot() {   # NAME IMAGE-OR-- OPTIONS...
    local name=$1 img=$2
    shift 2
    if [ "$img" = -- ]; then
        "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$TEST_TMP/$name.serial" --cpu qemu64 "$@" >/dev/null 2>"$TEST_TMP/$name.err"
    else
        "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$TEST_TMP/$name.serial" --cpu qemu64 "$@" "$img" >/dev/null 2>"$TEST_TMP/$name.err"
    fi
    echo $? > "$T/$name.rc"
    tr -d '\r' < "$TEST_TMP/$name.serial" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$TEST_TMP/$name.log"
}
use() { BOOT_LOG=$TEST_TMP/$1.log BOOT_RC=$(cat "$T/$1.rc"); }
# The way the requests went: by the firmware's HTTP protocol when the
# card has one (the "network:" line says so) and RESULTS_VIA is auto.
expect_path() {   # LABEL
    if grep -q '^network: HTTP protocol present' "$BOOT_LOG"; then
        expect_line "^results: by the firmware's HTTP protocol \\(EFI_HTTP_PROTOCOL\\)$" \
            "$1 the card has the HTTP protocol: the upload went by it (one line says so)"
    else
        expect_line "^results: by TCP4 with baremark's own HTTP/1.1 client \\(the card has no HTTP protocol\\)$" \
            "$1 no HTTP protocol: the upload went by TCP4 (one line says so)"
    fi
}
run_of() { sed -n 's/^results: \\baremark\\\([0-9-]*\)\.log .*/\1/p' "$TEST_TMP/$1.log" | head -1; }

serve "$p1" one
URL1=http://10.0.2.2:$p1/ URL2=http://10.0.2.2:$p2/

# ---- round 1: (a) a stick, (b) a diskless PXE boot, at once (d) ------------------------------
A=$(fresh_image upload-a)
bg_boot upload-a "$A" --net --options "$OPTS results=$URL1 results_key=lab-secret-34" &
b1=$!
bg_boot upload-pxe -- --no-ipxe --tftp "$T/pxe" --bootfile baremark.efi \
    --options "$OPTS results=$URL1 results_key=lab-secret-34" &
b2=$!
wait "$b1" "$b2"

use upload-a
expect_rc 0 "(a) stick: run-qemu exit 0"
expect_line '^network: (HTTP protocol present \(and TCP4\)|TCP4 only \(no HTTP protocol\)); TLS (present|absent)' \
    "(a) the firmware's network protocols named in one line"
expect_path "(a)"
name=$(run_of upload-a)
sha=$(esp_sha "$A" "$name")
stored_listed "(a)" "$name" "$sha"
rec=$(esp_cat "$A" baremark/uploaded.txt 2>/dev/null)
if [ "$rec" = "$name $sha $URL1" ]; then pass "(a) uploaded.txt: '$name SHA $URL1'"
else fail "(a) uploaded.txt: '$name SHA $URL1'" "$(printf '%s' "$rec" | head -c 200)"; fi
expect_line "^baremark: run ended, status 0" "(a) the final line comes after the upload"
expect_line '^settings: options ".* results_key=\(not shown\)"$' "(a) the options line hides the key"
if grep -q lab-secret-34 "$BOOT_LOG" || esp_cat "$A" "baremark/$name.log" | grep -q lab-secret-34 ||
   esp_cat "$A" "baremark/$name.json" | grep -q lab-secret-34; then
    fail "(a) the key is nowhere in serial, the log or the JSON" "found"
else
    pass "(a) the key is nowhere in serial, the log or the JSON"
fi
figure upload-a

use upload-pxe
expect_rc 2 "(b) diskless: run-qemu exit 2 (no volume for the files: status 2, as test_netboot's)"
expect_line '^network: address [0-9.]+ \(configured already\)|^network: address [0-9.]+ from DHCP' "(b) diskless: an address"
# no files, but its JSON carries the name they would have had: the server lists it by that name
pxe=$(sed -n 's/^results: run [0-9-]* stored by .* (201, sha256 \([0-9a-f]\{64\}\)), log sent$/\1/p' "$BOOT_LOG")
pxe_name=$(sed -n 's/^results: run \([0-9]\{8\}-[0-9]\{6\}\) stored by .*/\1/p' "$BOOT_LOG")
if [ -n "$pxe" ] && [ -n "$pxe_name" ] && has_sha "$p1" "$pxe" "$pxe_name"; then
    pass "(b) diskless: the run, from memory, stored and listed by the server under its name $pxe_name"
else
    fail "(b) diskless: the run stored" "$(grep '^results:' "$BOOT_LOG" | tr '\n' '|')"
fi
expect_path "(b) diskless:"
figure upload-pxe
n=$(count "$p1")
if [ "$n" = 2 ]; then pass "(d) two machines booted at once: the server holds both runs"
else fail "(d) two machines booted at once: the server holds both runs" "$n runs: $(runs "$p1" | head -c 300)"; fi

# ---- round 2: (c1) the server down, (e) a wrong key ------------------------------------------
C=$(fresh_image upload-c)
E=$(fresh_image upload-e)
mkfs.fat -C -n BLANK "$T/blank.img" 8192 >/dev/null
bg_boot upload-c1 "$C" --net --options "$OPTS results=$URL2 results_key=lab-secret-34" &
b1=$!
bg_boot upload-e "$E" --net --disk "$T/blank.img" --options "$OPTS results=$URL1 results_key=not-the-key" &
b2=$!
wait "$b1" "$b2"

use upload-c1
expect_rc 0 "(c) server down: run-qemu exit 0 (the run itself is fine)"
c1=$(run_of upload-c1)
expect_line "^results: server http://10\\.0\\.2\\.2:$p2/ not reached \\((TCP connect (failed: connection refused|failed: connection reset|timed out after 5 s)|the firmware's HTTP request failed \\((connection refused|connection reset|EFI_TIMEOUT)\\))\\); run kept on the stick, sent at the next boot$" \
    "(c) server down: one line says so"
if esp_ls "$C" baremark | grep -qx "$c1.json" && ! esp_ls "$C" baremark | grep -qx uploaded.txt; then
    pass "(c) server down: the run's file kept, no uploaded.txt"
else
    fail "(c) server down: the run's file kept, no uploaded.txt" "$(esp_ls "$C" baremark | tr '\n' ' ')"
fi

use upload-e
expect_rc 0 "(e) wrong key: run-qemu exit 0"
expect_line '^network: connected 1 network controller the firmware had left unconnected$' \
    "(e) the stick has a boot index: the image connected the card itself"
e=$(run_of upload-e)
expect_line "^results: server http://10\\.0\\.2\\.2:$p1/ refused run $e \\(401: [^)]+\\); check RESULTS_KEY" \
    "(e) wrong key: 401 and the run says so"
expect_path "(e)"
if ! esp_ls "$E" baremark | grep -qx uploaded.txt && [ "$(count "$p1")" = 2 ]; then
    pass "(e) wrong key: nothing stored, nothing recorded"
else
    fail "(e) wrong key: nothing stored, nothing recorded" "$(count "$p1") runs"
fi
if grep -q 'refused 401 from 127.0.0.1' "$T/one.err"; then pass "(e) the server logged the refusal"
else fail "(e) the server logged the refusal" "$(tail -2 "$T/one.err" | tr '\n' '|')"; fi

# ---- round 3: (c2) the server up: both runs sent, never twice --------------------------------
serve "$p2" two
F=$(fresh_image upload-f)
nohttp=$(ovmf_copy OVMF_CODE_4M.nohttp.fd --no-http)
[ -n "$nohttp" ] || fail "(f) a copy of OVMF without HttpDxe (tests/boot/ovmf_notpm.py --no-http)" "not made"
OVMF_CODE=$nohttp bg_boot upload-f "$F" --icount-nosleep --lean --net \
    --options "$OPTS results=$URL1 results_key=lab-secret-34" &
b1=$!
bg_boot upload-c2 "$C" --net --options "$OPTS results=$URL2 results_key=lab-secret-34 results_via=tcp"
wait "$b1"
use upload-f
expect_rc 0 "(f) firmware without the HTTP protocol: run-qemu exit 0"
expect_line '^network: TCP4 only \(no HTTP protocol\); TLS present$' \
    "(f) the firmware's network line: TCP4 only (HttpDxe taken out), TLS still there"
expect_line "^results: by TCP4 with baremark's own HTTP/1.1 client \\(the card has no HTTP protocol\\)\$" \
    "(f) RESULTS_VIA=auto fell back to TCP4 by itself (one line says so)"
f=$(run_of upload-f)
fsha=$(esp_sha "$F" "$f")
stored_listed "(f)" "$f" "$fsha"
figure upload-f
use upload-c2
expect_rc 0 "(c) next boot: run-qemu exit 0"
expect_line "^results: by TCP4 with baremark's own HTTP/1.1 client \\(RESULTS_VIA=tcp\\)$" \
    "(c) next boot, RESULTS_VIA=tcp: the upload went by the image's own client over TCP4"
c2=$(run_of upload-c2)
expect_line "^results: sending 2 runs to $URL2\$" "(c) next boot: the earlier run and this one are sent"
ok=1
for r in "$c1" "$c2"; do
    s=$(esp_sha "$C" "$r")
    has_sha "$p2" "$s" "$r" || ok=""
    esp_cat "$C" baremark/uploaded.txt | grep -qx "$r $s $URL2" || ok=""
done
if [ -n "$ok" ] && [ "$(esp_cat "$C" baremark/uploaded.txt | wc -l)" = 2 ]; then
    pass "(c) next boot: both runs stored and recorded in uploaded.txt, earlier one first"
else
    fail "(c) next boot: both runs stored and recorded" "$(esp_cat "$C" baremark/uploaded.txt | tr '\n' '|')"
fi
figure upload-c2
# The host tool on the same stick, its record removed: 409 twice, nothing new stored.
mdel -i "$C@@1M" ::/baremark/uploaded.txt
"$TOP/tools/baremark-results" upload "$C" "http://127.0.0.1:$p2/" --key-file "$T/key" > "$T/host.out" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(grep -c 'already stored (409' "$T/host.out")" = 2 ] && [ "$(count "$p2")" = 2 ]; then
    pass "baremark-results upload: both runs answered 409, the server still holds 2: nothing stored twice"
else
    fail "baremark-results upload: 409 twice, nothing stored twice" "rc $rc; $(tr '\n' '|' < "$T/host.out")"
fi
if [ "$(esp_cat "$C" baremark/uploaded.txt | wc -l)" = 2 ]; then pass "baremark-results upload: uploaded.txt written again"
else fail "baremark-results upload: uploaded.txt written again" "$(esp_cat "$C" baremark/uploaded.txt | tr '\n' '|')"; fi
