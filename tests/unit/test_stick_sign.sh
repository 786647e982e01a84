#!/bin/sh
# tests/unit/test_stick_sign.sh - Secure Boot signing without booting
# (tools/baremark-stick sign and add-plugin --key, tools/baremark-plugin
# --key, tools/efi-sign.sh) on copies of the built image, with throwaway
# keys made here: the signed files verify against the certificate
# (sbverify), signing again replaces the signature instead of adding one,
# the certificate lands on the stick in DER form, a key with a passphrase
# works through BAREMARK_KEY_PASSIN, a wrong passphrase or a key that does
# not match the certificate changes nothing, --shim lays out Debian's shim
# and keeps that layout when signed again, usage errors exit 2, and no
# decrypted key or private key material is left anywhere.
cd "$(dirname "$0")/../.." || exit 1
T=${TMPDIR:-/tmp}/test_stick_sign.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { if [ "$2" = 0 ]; then printf "PASS: %s\n" "$1"; else printf "FAIL: %s (%s)\n" "$1" "${3:-}"; fi; }
export MTOOLS_SKIP_CHECK=1
unset BAREMARK_KEY_PASSIN
S=tools/baremark-stick
if ! make -s build/baremark.img plugins-examples > "$T/build.log" 2>&1; then
    echo "FAIL: could not build the image and the example plug-ins ($(tail -3 "$T/build.log" | tr '\n' ' '))"
    exit 1
fi
for t in sbsign sbverify openssl; do
    command -v $t >/dev/null || { echo "FAIL: $t missing (sh tools/install-deps.sh)"; exit 1; }
done
openssl req -new -x509 -newkey rsa:2048 -nodes -subj "/CN=test one/" -days 1 -keyout "$T/a.key" -out "$T/a.pem" 2>/dev/null
openssl req -new -x509 -newkey rsa:2048 -nodes -subj "/CN=test two/" -days 1 -keyout "$T/b.key" -out "$T/b.pem" 2>/dev/null
openssl pkey -in "$T/a.key" -aes256 -passout pass:correct-horse -out "$T/a-enc.key" 2>/dev/null
IMG=$T/stick.img
cp build/baremark.img "$IMG"
D="$IMG@@1M"
get() { mcopy -n -i "$D" "::/$1" "$2" 2>/dev/null; }
nsig() { sbverify --list "$1" 2>/dev/null | grep -c '^signature [0-9]'; }

"$S" add-plugin "$IMG" build/plugins/chain.efi > /dev/null 2>&1
"$S" sign "$IMG" --key "$T/a.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
get EFI/BOOT/BOOTX64.EFI "$T/boot.efi"; get baremark/plugins/chain.efi "$T/chain.efi"
check "sign: exit 0; BOOTX64.EFI and the plug-in verify against the certificate" \
    $([ $rc = 0 ] && sbverify --cert "$T/a.pem" "$T/boot.efi" >/dev/null 2>&1 &&
      sbverify --cert "$T/a.pem" "$T/chain.efi" >/dev/null 2>&1 && grep -q 'signed 1 plug-in(s)' "$T/out"; echo $?) \
    "rc $rc: $(cat "$T/out")"
get baremark-key.cer "$T/key.cer"
check "sign: the certificate on the stick as \\baremark-key.cer (DER)" \
    $(openssl x509 -in "$T/a.pem" -outform der | cmp -s - "$T/key.cer"; echo $?)

"$S" sign "$IMG" --key "$T/b.key" --cert "$T/b.pem" > "$T/out" 2>&1; rc=$?
get EFI/BOOT/BOOTX64.EFI "$T/boot2.efi"
check "sign again with another key: one signature, the new one" \
    $([ $rc = 0 ] && [ "$(nsig "$T/boot2.efi")" = 1 ] && sbverify --cert "$T/b.pem" "$T/boot2.efi" >/dev/null 2>&1 &&
      ! sbverify --cert "$T/a.pem" "$T/boot2.efi" >/dev/null 2>&1; echo $?) "rc $rc, $(nsig "$T/boot2.efi") signatures"

before=$(md5sum < "$IMG")
BAREMARK_KEY_PASSIN=pass:wrong "$S" sign "$IMG" --key "$T/a-enc.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
check "a wrong passphrase: exit 1, says so, the stick unchanged" \
    $([ $rc = 1 ] && grep -q 'cannot read the key .*wrong passphrase' "$T/out" && [ "$(md5sum < "$IMG")" = "$before" ]; echo $?) \
    "rc $rc: $(cat "$T/out")"
"$S" sign "$IMG" --key "$T/a.key" --cert "$T/b.pem" > "$T/out" 2>&1; rc=$?
check "a key that is not the certificate's: exit 1, the stick unchanged" \
    $([ $rc = 1 ] && grep -q 'does not belong to the certificate' "$T/out" && [ "$(md5sum < "$IMG")" = "$before" ]; echo $?) \
    "rc $rc: $(cat "$T/out")"
export PASS_A=correct-horse
BAREMARK_KEY_PASSIN=env:PASS_A "$S" sign "$IMG" --key "$T/a-enc.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
get EFI/BOOT/BOOTX64.EFI "$T/boot3.efi"
check "a key with a passphrase through BAREMARK_KEY_PASSIN=env:VAR signs" \
    $([ $rc = 0 ] && sbverify --cert "$T/a.pem" "$T/boot3.efi" >/dev/null 2>&1; echo $?) "rc $rc: $(cat "$T/out")"
check "  ... and the passphrase is in no output" $(! grep -q correct-horse "$T/out"; echo $?)

"$S" add-plugin "$IMG" build/plugins/copy.efi --key "$T/a.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
get baremark/plugins/copy.efi "$T/copy.efi"
check "add-plugin --key on a signed stick: copied signed" \
    $([ $rc = 0 ] && sbverify --cert "$T/a.pem" "$T/copy.efi" >/dev/null 2>&1; echo $?) "rc $rc: $(cat "$T/out")"
sh tools/baremark-plugin build plugins/examples/copy/*.c -o "$T/p.efi" --key "$T/a.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
check "baremark-plugin --key: NAME.efi built signed" \
    $([ $rc = 0 ] && sbverify --cert "$T/a.pem" "$T/p.efi" >/dev/null 2>&1 && grep -q 'bytes, signed)' "$T/out"; echo $?) \
    "rc $rc: $(cat "$T/out")"

if [ -f /usr/lib/shim/shimx64.efi.signed ] && [ -f /usr/lib/shim/mmx64.efi.signed ]; then
    "$S" sign "$IMG" --shim --key "$T/a.key" --cert "$T/a.pem" > "$T/out" 2>&1; rc=$?
    get EFI/BOOT/BOOTX64.EFI "$T/b.efi"; get EFI/BOOT/grubx64.efi "$T/g.efi"; get EFI/BOOT/mmx64.efi "$T/m.efi"
    check "sign --shim: shim as BOOTX64.EFI, MokManager, baremark signed as grubx64.efi" \
        $([ $rc = 0 ] && cmp -s "$T/b.efi" /usr/lib/shim/shimx64.efi.signed && cmp -s "$T/m.efi" /usr/lib/shim/mmx64.efi.signed &&
          sbverify --cert "$T/a.pem" "$T/g.efi" >/dev/null 2>&1 && [ "$(nsig "$T/g.efi")" = 1 ]; echo $?) "rc $rc: $(cat "$T/out")"
    "$S" sign "$IMG" --key "$T/b.key" --cert "$T/b.pem" > "$T/out" 2>&1; rc=$?
    get EFI/BOOT/BOOTX64.EFI "$T/b2.efi"; get EFI/BOOT/grubx64.efi "$T/g2.efi"
    check "signing a shim stick again keeps shim and re-signs grubx64.efi" \
        $([ $rc = 0 ] && cmp -s "$T/b2.efi" /usr/lib/shim/shimx64.efi.signed &&
          sbverify --cert "$T/b.pem" "$T/g2.efi" >/dev/null 2>&1 && [ "$(nsig "$T/g2.efi")" = 1 ]; echo $?) "rc $rc: $(cat "$T/out")"
else
    echo "FAIL: shim-signed and shim-helpers-amd64-signed are not installed (sh tools/install-deps.sh)"
fi

"$S" sign "$IMG" > "$T/out" 2>&1; rc=$?
check "sign without --key: usage, exit 2" $([ $rc = 2 ]; echo $?) "rc $rc"
"$S" add-plugin "$IMG" build/plugins/copy.efi --key "$T/a.key" > "$T/out" 2>&1; rc=$?
check "--key without --cert: exit 2" $([ $rc = 2 ] && grep -q 'needs both --key and --cert' "$T/out"; echo $?) "rc $rc"
"$S" list-plugins "$IMG" --shim > "$T/out" 2>&1; rc=$?
check "list-plugins with a signing option: exit 2" $([ $rc = 2 ]; echo $?) "rc $rc"

secret=$(sed -n 3p "$T/a.key")
check "the private key is not on the stick" $(! grep -aqF "$secret" "$IMG"; echo $?)
left=$(ls -d /dev/shm/baremark-key.* "${TMPDIR:-/tmp}"/baremark-key.* 2>/dev/null)
check "no decrypted key left behind" $([ -z "$left" ]; echo $?) "$left"
