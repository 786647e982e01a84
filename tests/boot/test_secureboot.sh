#!/bin/bash
# Boot test: Secure Boot with the firmware Debian ships for it (README
# "Secure Boot").  Three boots:
#   1. OVMF_CODE_4M.snakeoil.fd + OVMF_VARS_4M.snakeoil.fd (Secure Boot
#      enforced, Debian's test key in db): a stick signed with that key
#      (its passphrase given through BAREMARK_KEY_PASSIN) with a signed
#      plug-in and an unsigned one beside it.  baremark boots and says
#      Secure Boot is on, names its own file with the SHA-256 of the bytes on
#      the stick, times the signed plug-in's routines, and names the unsigned
#      one as refused by the firmware with how to sign it; the run goes on
#      (status 2 for the skipped file).
#   2. The same firmware, an unsigned image: the firmware refuses it and
#      tools/run-qemu stops at once with status 4 and a line saying so.
#   3. Microsoft's keys only (OVMF_*_4M.ms.fd) with a throwaway key made
#      here in shim's MOK list (written into a copy of the variable store,
#      as MokManager would after `mokutil --import`): the stick laid out by
#      `baremark-stick sign --shim` boots Debian's Microsoft-signed shim,
#      which hands over to baremark; baremark says it was started through
#      shim, and skips a signed plug-in with a line saying why (shim 16's
#      loader frees every image when its entry point returns).
# The stick tool's refusals (mixing signed and unsigned files) are checked
# on the way, and that neither private key reached a stick or a log.
. "$(dirname "$0")/lib.sh"
FW=/usr/share/OVMF
SNAKEOIL_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key     # Debian's ovmf: the key enrolled in the snakeoil db
SNAKEOIL_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23        # shim's variables (MokList)
MOK_ATTRIBUTES=0x3                                     # NV + BS: shim rejects a MokList visible at runtime
S=$TOP/tools/baremark-stick
W=$TEST_TMP/secureboot
rm -rf "$W"
mkdir -p "$W"

for f in $FW/OVMF_CODE_4M.snakeoil.fd $FW/OVMF_VARS_4M.snakeoil.fd $FW/OVMF_CODE_4M.ms.fd $FW/OVMF_VARS_4M.ms.fd \
         $SNAKEOIL_KEY /usr/lib/shim/shimx64.efi.signed /usr/lib/shim/mmx64.efi.signed; do
    [ -f "$f" ] || { fail "secureboot: $f present" "install the test packages: sh tools/install-deps.sh --test"; exit 1; }
done
for t in sbsign cert-to-efi-sig-list openssl; do
    command -v $t >/dev/null || { fail "secureboot: $t present" "sh tools/install-deps.sh --test"; exit 1; }
done
[ -f "$BUILD/plugins/chain.efi" ] && [ -f "$BUILD/plugins/copy.efi" ] ||
    make -s -C "$TOP" plugins-examples >/dev/null 2>&1
export SNAKEOIL_PASS=snakeoil                          # public: shipped beside the key
export BAREMARK_KEY_PASSIN=env:SNAKEOIL_PASS
K=(--key "$SNAKEOIL_KEY" --cert "$SNAKEOIL_CERT")

check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "${3:-}"; fi; }

# ---- the stick: signed image, signed chain.efi, unsigned copy.efi --------------------
img=$(fresh_image secureboot-db)
"$S" add-plugin "$img" "$BUILD/plugins/chain.efi" "${K[@]}" > "$W/add0.log" 2>&1; rc=$?
check "stick: add-plugin --key on an unsigned stick is refused (sign the stick first)" \
    $([ $rc = 1 ] && grep -q 'is not signed: sign the stick first' "$W/add0.log"; echo $?) "rc $rc: $(cat "$W/add0.log")"
"$S" sign "$img" "${K[@]}" > "$W/sign.log" 2>&1; rc=$?
check "stick: sign with the snakeoil key (a passphrase through BAREMARK_KEY_PASSIN)" \
    $([ $rc = 0 ] && grep -q 'signed baremark (\\EFI\\BOOT\\BOOTX64.EFI)' "$W/sign.log"; echo $?) "rc $rc: $(cat "$W/sign.log")"
"$S" add-plugin "$img" "$BUILD/plugins/chain.efi" "${K[@]}" > "$W/add1.log" 2>&1; rc=$?
check "stick: add-plugin --key signs chain.efi as it copies it" \
    $([ $rc = 0 ] && grep -q 'added .*chain.efi (.*, signed,' "$W/add1.log"; echo $?) "rc $rc: $(cat "$W/add1.log")"
"$S" add-plugin "$img" "$BUILD/plugins/copy.efi" > "$W/add2.log" 2>&1; rc=$?
check "stick: an unsigned plug-in on a signed stick is refused without --unsigned" \
    $([ $rc = 1 ] && grep -q 'copy.efi is not signed but the stick is' "$W/add2.log"; echo $?) "rc $rc: $(cat "$W/add2.log")"
"$S" add-plugin "$img" "$BUILD/plugins/copy.efi" --unsigned > "$W/add3.log" 2>&1
"$S" add-plugin "$img" "$BUILD/plugins/branch.efi" "${K[@]}" > "$W/add4.log" 2>&1; rc=$?
check "stick: add-plugin --key refuses while an unsigned plug-in is on the stick" \
    $([ $rc = 1 ] && grep -q 'copy.efi on the stick is not signed' "$W/add4.log"; echo $?) "rc $rc: $(cat "$W/add4.log")"
esp_cat "$img" EFI/BOOT/BOOTX64.EFI > "$W/boot.efi"
sbverify --cert "$SNAKEOIL_CERT" "$W/boot.efi" >/dev/null 2>&1
check "stick: BOOTX64.EFI verifies against the certificate (sbverify)" $?
boot_sum=$(sha256sum < "$W/boot.efi" | cut -d' ' -f1)
auth() { hash-to-efi-sig-list "$1" "$W/hash.esl" 2>/dev/null | sed -n 's/^HASH IS //p'; }   # efitools' Authenticode SHA-256
boot_auth=$(auth "$W/boot.efi")
chain_sum=$(esp_cat "$img" baremark/plugins/chain.efi | sha256sum | cut -d' ' -f1)

# ---- boot 1: snakeoil firmware, signed stick --------------------------------------------
OVMF_CODE=$FW/OVMF_CODE_4M.snakeoil.fd OVMF_VARS=$FW/OVMF_VARS_4M.snakeoil.fd \
    boot secureboot-db "$img" --options "sections=plugins,methods profile=quick pluginroutines=chain methoditerations=10 methodsamples=10"
expect_rc 2 "snakeoil: the signed image runs to the end, status 2 (one plug-in skipped)"
expect_line '^secureboot: on \(SecureBoot 1, SetupMode 0' "snakeoil: Secure Boot on, user mode"
expect_line "^secureboot: image \\\\EFI\\\\BOOT\\\\BOOTX64\\.EFI, [0-9]+ bytes, signed, SHA-256 $boot_sum " \
    "snakeoil: the image names its file, signed, with the SHA-256 of BOOTX64.EFI on the stick"
expect_line "^boot +Secure Boot on; image signed, SHA-256 $boot_sum\$" "snakeoil: the run's summary has the boot state and the image's SHA-256"
expect_line "^secureboot: image Authenticode SHA-256 ${boot_auth:-none} " "snakeoil: the image's Authenticode SHA-256 is efitools' (hash-to-efi-sig-list)"
expect_line "^plugin chain\\.efi: [0-9]+ bytes, SHA-256 $chain_sum\$" "snakeoil: the signed chain.efi loaded, with its SHA-256"
expect_line '^profile of chain:add1000 with every supported method' "snakeoil: chain:add1000 measured"
expect_line '^warning: plugin copy\.efi: refused by the firmware under Secure Boot \(EFI_(ACCESS_DENIED|SECURITY_VIOLATION): .*sign it: baremark-stick add-plugin STICK copy\.efi --key KEY --cert CERT; skipped$' \
    "snakeoil: the unsigned copy.efi refused by name, with how to sign it"
json=$(esp_ls "$img" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | tail -1)
esp_cat "$img" "baremark/$json" > "$W/db.json" 2>/dev/null
jq -e --arg s "$boot_sum" --arg a "$boot_auth" '.system.secure_boot | .enabled == true and .supported == true and .setup_mode == false
        and .shim == false and .image_path == "\\EFI\\BOOT\\BOOTX64.EFI" and .image_sha256 == $s and .image_signed == true
        and .image_authenticode_sha256 == $a' \
    "$W/db.json" >/dev/null 2>&1
check "snakeoil JSON: system.secure_boot on, not through shim, the image's SHA-256 and signature" $? "$W/db.json"
jq -e '[.plugins.files[] | {(.file): .status}] | add | .["chain.efi"] == "loaded" and .["copy.efi"] == "rejected"' \
    "$W/db.json" >/dev/null 2>&1
check "snakeoil JSON: chain.efi loaded, copy.efi rejected" $? "$(jq -c '[.plugins.files[] | [.file, .status]]' "$W/db.json" 2>&1)"

# ---- boot 2: snakeoil firmware, unsigned image ------------------------------------------
img2=$(fresh_image secureboot-unsigned)
t0=$(date +%s)
OVMF_CODE=$FW/OVMF_CODE_4M.snakeoil.fd OVMF_VARS=$FW/OVMF_VARS_4M.snakeoil.fd \
    boot secureboot-unsigned "$img2" --options "sections=none"
dt=$(( $(date +%s) - t0 ))
expect_rc 4 "unsigned: run-qemu exit 4 (the firmware refused the image)"
check "unsigned: detected in ${dt}s, well before the ${BOOT_TIMEOUT:-240}s timeout" $([ $dt -lt 60 ]; echo $?)
check "unsigned: run-qemu says the firmware refused it, quoting OVMF's Access Denied line" \
    $(grep -q '^run-qemu: the firmware refused to start the image (Secure Boot): BdsDxe: failed to load Boot0001 .*: Access Denied' \
        "$TEST_TMP/secureboot-unsigned.err"; echo $?) "$(cat "$TEST_TMP/secureboot-unsigned.err")"
expect_no_line '^baremark [^ ]+ - bare-metal timing' "unsigned: no baremark banner"

# ---- boot 3: Microsoft's keys, shim, a throwaway key in MOK --------------------------------
openssl req -new -x509 -newkey rsa:2048 -nodes -subj "/CN=baremark test key $$/" -days 2 \
    -keyout "$W/mok.key" -out "$W/mok.pem" >/dev/null 2>&1
chmod 600 "$W/mok.key"
img3=$(fresh_image secureboot-shim)
BAREMARK_KEY_PASSIN= "$S" add-plugin "$img3" "$BUILD/plugins/chain.efi" --unsigned > "$W/shim-add.log" 2>&1
BAREMARK_KEY_PASSIN= "$S" sign "$img3" --shim --key "$W/mok.key" --cert "$W/mok.pem" > "$W/shim.log" 2>&1; rc=$?
esp_cat "$img3" EFI/BOOT/grubx64.efi > "$W/grubx64.efi"
check "shim stick: sign --shim (shim as BOOTX64.EFI, MokManager, baremark as grubx64.efi, the certificate)" \
    $([ $rc = 0 ] && cmp -s <(esp_cat "$img3" EFI/BOOT/BOOTX64.EFI) /usr/lib/shim/shimx64.efi.signed &&
      cmp -s <(esp_cat "$img3" EFI/BOOT/mmx64.efi) /usr/lib/shim/mmx64.efi.signed &&
      sbverify --cert "$W/mok.pem" "$W/grubx64.efi" >/dev/null 2>&1 &&
      cmp -s <(esp_cat "$img3" baremark-key.cer) <(openssl x509 -in "$W/mok.pem" -outform der); echo $?) \
    "rc $rc: $(cat "$W/shim.log")"
grub_sum=$(sha256sum < "$W/grubx64.efi" | cut -d' ' -f1)
grub_auth=$(auth "$W/grubx64.efi")
cert-to-efi-sig-list -g "$SHIM_GUID" "$W/mok.pem" "$W/mok.esl" >/dev/null 2>&1 &&
    python3 "$TOP/tests/boot/ovmf_vars_add.py" $FW/OVMF_VARS_4M.ms.fd "$W/vars-mok.fd" MokList "$SHIM_GUID" \
        $MOK_ATTRIBUTES "$W/mok.esl" 2> "$W/vars.log"
check "shim: the certificate in MokList of a copy of OVMF_VARS_4M.ms.fd" $? "$(cat "$W/vars.log")"
OVMF_CODE=$FW/OVMF_CODE_4M.ms.fd OVMF_VARS=$W/vars-mok.fd boot secureboot-shim "$img3" --options "sections=plugins"
expect_rc 2 "shim: Microsoft-signed shim starts baremark signed with the MOK key, run completes (status 2: the plug-in)"
expect_line '^secureboot: on \(SecureBoot 1' "shim: Secure Boot on under Microsoft's keys"
expect_line '^secureboot: started through shim \(SHIM_LOCK protocol present\)' "shim: baremark says it was started through shim"
expect_line "^secureboot: image \\\\EFI\\\\BOOT\\\\grubx64\\.efi, [0-9]+ bytes, signed, SHA-256 $grub_sum " \
    "shim: the image names grubx64.efi with its SHA-256"
expect_line "^boot +Secure Boot on, started through shim; image signed, SHA-256 $grub_sum\$" "shim: the summary says so too"
expect_line "^secureboot: image Authenticode SHA-256 ${grub_auth:-none} " "shim: grubx64.efi's Authenticode SHA-256 is efitools'"
expect_line '^warning: plugin chain\.efi: unloaded as soon as it started: the loader baremark was started by \(shim\) frees drivers; .*; skipped$' \
    "shim: a signed plug-in, which shim 16 frees on return, is refused by name (its table is never read)"

# ---- the private keys stayed where they were ------------------------------------------
secret=$(openssl pkey -in "$SNAKEOIL_KEY" -passin env:SNAKEOIL_PASS 2>/dev/null | sed -n 3p)
secret2=$(sed -n 3p "$W/mok.key")
leak=""
for f in "$img" "$img3" "$W"/*.log "$TEST_TMP"/secureboot-*.log "$TEST_TMP"/secureboot-*.err; do
    [ -f "$f" ] || continue
    grep -aqF -e "$secret" -e "$secret2" "$f" && leak="$leak $f"
done
check "keys: neither private key on a stick or in a log" $([ -n "$secret" ] && [ -n "$secret2" ] && [ -z "$leak" ]; echo $?) \
    "found in:$leak"
left=$(ls -d /dev/shm/baremark-key.* "${TMPDIR:-/tmp}"/baremark-key.* 2>/dev/null)
check "keys: no decrypted key left behind" $([ -z "$left" ]; echo $?) "$left"
