#!/bin/bash
# Boot test: a run sent home over HTTPS by the firmware's HTTP protocol
# with TLS (docs/results-upload.md#https), under QEMU's user network on
# loopback only.  The test makes its own CA and a server certificate for
# 10.0.2.2 (the address the guest reaches the host's 127.0.0.1 by) with
# openssl, starts `baremark history serve --tls-cert --tls-key`, and boots
# two sticks at once:
#  (a) RESULTS_CA=\baremark\ca.pem holds the CA that signed the server's
#      certificate: the image sets it as the firmware's TlsCaCertificate,
#      the run is stored (201, the SHA-256 of the stick's JSON file) and
#      recorded in uploaded.txt;
#  (b) the stick's ca.pem holds another CA: the TLS handshake fails, one
#      line says so, the run stays on the stick, nothing is stored.
# The firmware must offer the HTTP protocol with TLS (Debian's OVMF has
# HttpDxe and TlsDxe); without them the test fails and says so.
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
B=$BUILD/host/baremark
T=$TEST_TMP/upload-tls
rm -rf "$T" && mkdir -p "$T"
printf 'lab-secret-tls\n' > "$T/key"
OPTS="profile=quick sections=none verbose=t"

# the CA, another CA, and the server's certificate (RSA: the firmware's TLS takes it)
(
    cd "$T" || exit 1
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=baremark test CA" &&
    openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 2 -subj "/CN=another CA" &&
    openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr -subj "/CN=10.0.2.2" &&
    printf 'subjectAltName=IP:10.0.2.2,IP:127.0.0.1,DNS:10.0.2.2\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > ext &&
    openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 2 -extfile ext
) > "$T/openssl.out" 2>&1 || { fail "openssl made the test CA and certificate" "$(tail -3 "$T/openssl.out" | tr '\n' '|')"; exit 1; }

get() { python3 -c 'import ssl, sys, urllib.request; c = ssl.create_default_context(cafile=sys.argv[2]); sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5, context=c).read().decode())' "$1" "$T/ca.pem" 2>/dev/null; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$B" history serve --listen "127.0.0.1:$port" --db "$T/runs.sqlite" --key-file "$T/key" \
    --tls-cert "$T/srv.pem" --tls-key "$T/srv.key" > "$T/serve.out" 2> "$T/serve.err" &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
for _ in $(seq 50); do get "https://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done
if get "https://127.0.0.1:$port/api/runs" >/dev/null; then pass "the server answers https (checked against the test CA)"
else fail "the server answers https" "$(head -3 "$T/serve.err" | tr '\n' '|')"; exit 1; fi
URL=https://10.0.2.2:$port/

stick() {   # NAME PEM: a fresh stick with PEM as \baremark\ca.pem
    local img
    img=$(fresh_image "$1")
    mmd -i "$img@@1M" ::/baremark 2>/dev/null
    mcopy -o -i "$img@@1M" "$2" ::/baremark/ca.pem
    echo "$img"
}
bg_boot() {   # NAME IMAGE OPTIONS...
    local name=$1 img=$2
    shift 2
    "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$TEST_TMP/$name.serial" --cpu qemu64 "$@" "$img" >/dev/null 2>"$TEST_TMP/$name.err"
    echo $? > "$T/$name.rc"
    tr -d '\r' < "$TEST_TMP/$name.serial" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$TEST_TMP/$name.log"
}
use() { BOOT_LOG=$TEST_TMP/$1.log BOOT_RC=$(cat "$T/$1.rc"); }
run_of() { sed -n 's/^results: \\baremark\\\([0-9-]*\)\.log .*/\1/p' "$TEST_TMP/$1.log" | head -1; }
runs() { get "https://127.0.0.1:$port/api/runs"; }

A=$(stick tls-a "$T/ca.pem")
Bimg=$(stick tls-b "$T/other.pem")
bg_boot tls-a "$A" --net --options "$OPTS results=$URL results_key=lab-secret-tls results_ca=\\baremark\\ca.pem" &
b1=$!
bg_boot tls-b "$Bimg" --net --options "$OPTS results=$URL results_key=lab-secret-tls results_ca=\\baremark\\ca.pem" &
b2=$!
wait "$b1" "$b2"

use tls-a
if grep -q '^network: .*TLS absent' "$BOOT_LOG" || grep -q '^network: TCP4 only' "$BOOT_LOG"; then
    fail "the firmware offers the HTTP protocol with TLS (Debian's OVMF has HttpDxe and TlsDxe)" \
        "$(grep '^network:' "$BOOT_LOG" | head -1)"
    exit 1
fi
expect_rc 0 "(a) run-qemu exit 0"
expect_line '^results: 1 CA certificate from \\baremark\\ca\.pem set as the firmware.s TlsCaCertificate \(volatile, [0-9]+ bytes\)$' \
    "(a) RESULTS_CA: the stick's CA set as the firmware's TlsCaCertificate"
expect_line "^results: by the firmware's HTTP protocol \\(EFI_HTTP_PROTOCOL\\)$" "(a) https goes by the firmware's HTTP protocol"
name=$(run_of tls-a)
sha=$(esp_cat "$A" "baremark/$name.json" | sha256sum | cut -d' ' -f1)
expect_line "^results: run $name stored by https://10\\.0\\.2\\.2:$port/ \\(201, sha256 $sha\\), log sent$" \
    "(a) the run stored over https (201) with the SHA-256 of the stick's JSON file"
if runs | python3 -c 'import json, sys; sys.exit(0 if any(r["sha256"] == sys.argv[1] for r in json.load(sys.stdin)) else 1)' "$sha"; then
    pass "(a) the server lists the run"
else
    fail "(a) the server lists the run" "$(runs | head -c 300)"
fi
rec=$(esp_cat "$A" baremark/uploaded.txt 2>/dev/null)
if [ "$rec" = "$name $sha $URL" ]; then pass "(a) uploaded.txt: '$name SHA $URL'"
else fail "(a) uploaded.txt: '$name SHA $URL'" "$(printf '%s' "$rec" | head -c 200)"; fi

use tls-b
expect_rc 0 "(b) another CA: run-qemu exit 0 (the run itself is fine)"
expect_line "^results: server https://10\\.0\\.2\\.2:$port/ not reached \\(.+the TLS handshake failed.+\\); run kept on the stick, sent at the next boot$" \
    "(b) another CA: the server's certificate is not trusted, one line says so"
if ! esp_ls "$Bimg" baremark | grep -qx uploaded.txt &&
   [ "$(runs | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 1 ]; then
    pass "(b) another CA: nothing stored, nothing recorded"
else
    fail "(b) another CA: nothing stored, nothing recorded" "$(runs | head -c 300)"
fi
