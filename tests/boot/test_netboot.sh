#!/bin/bash
# Boot test: network boot under QEMU's user network (DHCP and TFTP inside
# QEMU, loopback only).  Two boots in parallel:
#  1. iPXE (the virtio-net card's option ROM): DHCP names an iPXE script on
#     TFTP; the script fetches the command file and the image over HTTP from
#     a server this test starts on 127.0.0.1 (the guest reaches it as
#     10.0.2.2) and starts the image with settings in its load options.  The
#     command file fetched beside the image is read (iPXE's file system);
#     iPXE's volume is read-only, so the results go to a blank FAT disk
#     attached beside the card: the log there is serial's text byte for
#     byte, the JSON valid, the disk clean (fsck.fat).
#  2. OVMF's own PXE client (no iPXE ROM) fetches the image over TFTP: no file
#     system at all, so the run says its results are on serial only (status 2).
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
B=$BUILD/host/baremark
T=$TEST_TMP/netboot
rm -rf "$T" && mkdir -p "$T/tftp" "$T/http" "$T/pxe"
cp "$BUILD/baremark.efi" "$T/http/baremark.efi"
cp "$BUILD/baremark.efi" "$T/pxe/baremark.efi"
# SECTIONS in the file, ENDWAIT too, and VERBOSE=T (the checks read the
# console's full text); the load options add PROFILE.
printf 'SECTIONS=none\nENDWAIT=F\nVERBOSE=T\n' > "$T/http/net.cfg"
mkfs.fat -C -n RESULTS "$T/results.img" 16384 >/dev/null

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$T/http" "$port" > "$T/http.log" 2>&1 &
http=$!
trap 'kill "$http" 2>/dev/null' EXIT
cat > "$T/tftp/boot.ipxe" <<EOF
#!ipxe
imgfetch http://10.0.2.2:$port/net.cfg
chain http://10.0.2.2:$port/baremark.efi profile=quick -c net.cfg
EOF
for _ in $(seq 50); do grep -q 'Serving HTTP' "$T/http.log" && break; sleep 0.1; done

net_boot() {   # NAME RUN-QEMU-OPTIONS...: boot without an image
    local name=$1 raw="$TEST_TMP/$1.serial"
    shift
    "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$raw" --cpu qemu64 "$@" >/dev/null 2>"$TEST_TMP/$name.err"
    echo $? > "$T/$name.rc"
    tr -d '\r' < "$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$TEST_TMP/$name.log"
}
net_boot netboot-ipxe --tftp "$T/tftp" --bootfile boot.ipxe --disk "$T/results.img" &
b1=$!
net_boot netboot-pxe --no-ipxe --tftp "$T/pxe" --bootfile baremark.efi --options "sections=none" &
b2=$!
wait "$b1" "$b2"     # not the HTTP server
kill "$http" 2>/dev/null

# ---- 1. iPXE, TFTP script, HTTP image and command file ------------------------------------
BOOT_LOG=$TEST_TMP/netboot-ipxe.log BOOT_RC=$(cat "$T/netboot-ipxe.rc")
expect_rc 0 "iPXE: run-qemu exit 0 (completed and saved)"
expect_line '^boot\.ipxe : [0-9]+ bytes \[script\]' "iPXE: DHCP named the script and TFTP served it"
if grep -q '"GET /net.cfg HTTP/1\.[01]" 200' "$T/http.log" && grep -q '"GET /baremark.efi HTTP/1\.[01]" 200' "$T/http.log"; then
    pass "iPXE: the command file and the image came from the loopback HTTP server"
else
    fail "iPXE: HTTP fetches" "$(tr '\n' '|' < "$T/http.log" | head -c 300)"
fi
expect_line '^settings: options "baremark\.efi profile=quick -c net\.cfg qemuexit=t"$' "iPXE: the script's settings arrived as load options"
expect_line "^settings: command file \\\\net\\.cfg \\($(wc -c < "$T/http/net.cfg") bytes\\)\$" "iPXE: the command file fetched beside the image was read"
expect_line '^clock: skipped \(settings\)$' "iPXE: the command file's SECTIONS=none took effect"
expect_line '^results: the boot volume cannot take them \(EFI_[A-Z_]+ while creating \\baremark\); they go to the writable FAT volume "RESULTS" at ' \
    "iPXE: says iPXE's volume cannot take the results and names the disk they went to"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .* on the volume named above$/\1/p' "$BOOT_LOG")
mtype -i "$T/results.img" "::/baremark/$name.log" > "$T/ipxe.log" 2>/dev/null
{ printf '\n'; awk '/^baremark [^ ]+ - bare-metal timing/{p=1} /^baremark: run ended/{p=0} p' "$BOOT_LOG" |
    grep -v '^BAREMARK-LAVA'; } > "$T/ipxe.serial-log"
if [ -n "$name" ] && [ -s "$T/ipxe.log" ] && cmp -s "$T/ipxe.log" "$T/ipxe.serial-log"; then
    pass "iPXE: the log on the disk is byte for byte the serial text ($(wc -c < "$T/ipxe.log") bytes)"
else
    fail "iPXE: log on the disk equals serial" "name '$name': $(cmp "$T/ipxe.log" "$T/ipxe.serial-log" 2>&1 | head -1)"
fi
mtype -i "$T/results.img" "::/baremark/$name.json" > "$T/ipxe.json" 2>/dev/null
if "$B" validate "$T/ipxe.json" > "$T/ipxe.validate" 2>&1 &&
   jq -e '.status == 0 and .ended == true and .settings.profile == "quick"' "$T/ipxe.json" >/dev/null 2>&1; then
    pass "iPXE: the JSON on the disk is valid, status 0, profile quick from the load options"
else
    fail "iPXE: the JSON" "$(head -2 "$T/ipxe.validate" | tr '\n' '|') $(jq -c '{status, ended, p: .settings.profile}' "$T/ipxe.json" 2>&1 | head -c 200)"
fi
fsck.fat -n "$T/results.img" > "$T/fsck" 2>&1 && pass "iPXE: fsck.fat finds the disk clean" ||
    fail "iPXE: fsck.fat clean" "$(tail -2 "$T/fsck" | tr '\n' '|')"

# ---- 2. OVMF's own PXE --------------------------------------------------------------------
BOOT_LOG=$TEST_TMP/netboot-pxe.log BOOT_RC=$(cat "$T/netboot-pxe.rc")
expect_rc 2 "OVMF PXE: run-qemu exit 2 (completed, results not saved)"
expect_line '^BdsDxe: starting Boot[0-9A-F]+ "UEFI PXEv4 ' "OVMF PXE: OVMF's own PXE client booted the image"
expect_no_line '^iPXE ' "OVMF PXE: no iPXE involved"
expect_line '^warning: results not saved: EFI_UNSUPPORTED while opening the ESP; no other writable FAT volume was found: results are on serial and screen only$' \
    "OVMF PXE: says the results are on serial and screen only, and why"
expect_line '^baremark: run ended, status 2 ' "OVMF PXE: final line with status 2"
