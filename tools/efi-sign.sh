# tools/efi-sign.sh - Secure Boot signing shared by tools/baremark-stick and
# tools/baremark-plugin (sourced, not run).  sbsign and sbverify (Debian
# package sbsigntool) do the work; openssl reads the key.
#
#   efisign_open KEY CERT   check the pair; a key with a passphrase is
#                           decrypted once into a private 0600 file
#                           (BAREMARK_KEY_PASSIN in openssl's -passin form:
#                           env:VAR, file:PATH, fd:N, pass:TEXT; without it
#                           openssl asks on the terminal)
#   efisign_file IN OUT     sign IN into OUT (an earlier signature is
#                           replaced, not added to), verify OUT with CERT
#   efisign_is_signed FILE  true when FILE carries an Authenticode signature
#   efisign_close           shred and remove the decrypted key (also on EXIT
#                           through the caller's trap)
#
# The private key is only ever read by openssl and sbsign: it is not copied
# anywhere but the private temporary file, never printed, and nothing here
# writes it to a stick or an image.  sbsign has no passphrase option, hence
# the temporary file: in /dev/shm (memory) where there is one, in a folder
# only the user can enter, shredded and removed when the tool ends.
# Callers set `me` (the tool's name) and call efisign_close on exit.

EFISIGN_KEY="" EFISIGN_CERT="" EFISIGN_DIR=""

efisign_fail() { printf '%s: %s\n' "$me" "$*" >&2; return 1; }

efisign_need_tools() {
    for t in sbsign sbverify sbattach openssl; do
        command -v "$t" >/dev/null 2>&1 ||
            { efisign_fail "$t is missing (Debian packages sbsigntool and openssl: sh tools/install-deps.sh)"; return 1; }
    done
}

# A private folder for the decrypted key: memory-backed where possible.
efisign_private_dir() {
    base=${TMPDIR:-/tmp}
    [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
    EFISIGN_DIR=$(umask 077 && mktemp -d "$base/baremark-key.XXXXXX") ||
        { efisign_fail "cannot make a private temporary folder in $base"; return 1; }
    chmod 700 "$EFISIGN_DIR"
}

efisign_open() {
    key=$1 cert=$2
    efisign_need_tools || return 1
    [ -r "$key" ] || { efisign_fail "cannot read the key $key"; return 1; }
    [ -r "$cert" ] || { efisign_fail "cannot read the certificate $cert"; return 1; }
    openssl x509 -in "$cert" -noout 2>/dev/null ||
        { efisign_fail "$cert is not a PEM X.509 certificate (convert a DER one: openssl x509 -inform der -in C.cer -out C.pem)"; return 1; }
    EFISIGN_CERT=$cert
    if openssl pkey -in "$key" -passin pass: -noout 2>/dev/null; then
        EFISIGN_KEY=$key            # not encrypted: sbsign reads it directly
    else
        efisign_private_dir || return 1
        # openssl writes the decrypted key with mode 0600 under umask 077.
        if [ -n "${BAREMARK_KEY_PASSIN:-}" ]; then
            (umask 077 && openssl pkey -in "$key" -passin "$BAREMARK_KEY_PASSIN" -out "$EFISIGN_DIR/key.pem") 2>/dev/null
        else
            (umask 077 && openssl pkey -in "$key" -out "$EFISIGN_DIR/key.pem") </dev/tty 2>/dev/tty
        fi || { efisign_close; efisign_fail "cannot read the key $key (wrong passphrase, BAREMARK_KEY_PASSIN unset without a terminal, or not a PEM private key)"; return 1; }
        EFISIGN_KEY=$EFISIGN_DIR/key.pem
    fi
    kpub=$(openssl pkey -in "$EFISIGN_KEY" -pubout 2>/dev/null | sha256sum)
    cpub=$(openssl x509 -in "$cert" -noout -pubkey 2>/dev/null | sha256sum)
    [ "$kpub" = "$cpub" ] || { efisign_close; efisign_fail "the key $key does not belong to the certificate $cert"; return 1; }
}

efisign_is_signed() {
    sbverify --list "$1" 2>/dev/null | grep -q '^signature 1'
}

efisign_file() {
    in=$1 out=$2
    log=$(mktemp "${TMPDIR:-/tmp}/baremark-sign.XXXXXX")
    src=$in
    if efisign_is_signed "$in"; then
        # sbsign adds a signature to a signed file; replace it instead.
        cp "$in" "$log.bare" && sbattach --remove "$log.bare" >"$log" 2>&1 && src=$log.bare || src=""
    fi
    # sbsign's warnings ("gaps between PE/COFF sections": the COFF symbol
    # table objcopy leaves at the end, which the signature covers) are shown
    # only when signing fails.
    if [ -n "$src" ] && sbsign --key "$EFISIGN_KEY" --cert "$EFISIGN_CERT" --output "$out" "$src" >"$log" 2>&1 &&
       sbverify --cert "$EFISIGN_CERT" "$out" >>"$log" 2>&1; then
        rm -f "$log" "$log.bare"
        return 0
    fi
    grep -v 'gaps between PE/COFF sections' "$log" | sed "s|^|$me: sbsign: |" >&2
    rm -f "$log" "$log.bare"
    efisign_fail "could not sign $in"
}

efisign_close() {
    if [ -n "$EFISIGN_DIR" ] && [ -d "$EFISIGN_DIR" ]; then
        [ -f "$EFISIGN_DIR/key.pem" ] && shred -u "$EFISIGN_DIR/key.pem" 2>/dev/null
        rm -rf "$EFISIGN_DIR"
    fi
    EFISIGN_DIR=""
}
