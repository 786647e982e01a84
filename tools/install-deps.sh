#!/bin/sh
# tools/install-deps.sh - install the Debian packages baremark needs.
# Idempotent and silent when everything is present; says clearly what is
# missing when it cannot install (not root, no apt-get, no network).
#
#   gnu-efi          UEFI headers, crt0 and linker script, libefi
#   nasm             the timing stubs
#   musl-dev         libm (and snprintf) linked into the image
#   qemu-system-x86  boot tests and `make run`
#   ovmf             UEFI firmware for QEMU
#   mtools dosfstools fdisk   build the FAT32 ESP disk image without root
#   libjansson-dev   JSON parser for the host report tools
#   python3-scipy    reference values for the statistics test vectors (tests only)
#   chromium         headless browser that renders the HTML report in
#                    tests/boot/test_report_browser.sh (tests only)
#   lava-dispatcher  lava-run: runs the LAVA jobs of tools/lava/ in
#                    tests/boot/test_lava.sh without a LAVA server (tests only)
#   clang            libFuzzer for `make fuzz`
#   libclang-rt-dev  libFuzzer's runtime (libclang_rt.fuzzer); only a Recommends
#                    of clang, so missing where apt skips recommends
#   jq               reads the results JSON in the shell tools (baremark-results)
#   sbsigntool       sbsign/sbverify/sbattach: Secure Boot signatures on the image
#                    and plug-ins (make sign, baremark-stick sign, baremark-plugin --key)
#   openssl          reads the signing key (decrypts one with a passphrase) and
#                    converts the certificate to DER for MOK/db enrolment
#   shim-signed      Debian's Microsoft-signed shim, the first stage of a stick
#                    for machines that trust only Microsoft's keys (sign --shim)
#   shim-helpers-amd64-signed  its MokManager (mmx64.efi), which enrols the
#                    user's certificate at boot
#   efitools         cert-to-efi-sig-list, sign-efi-sig-list: the certificate as
#                    an EFI signature list for db or MOK (README "Secure Boot";
#                    the Secure Boot boot test writes one into OVMF's variables)
set -u
PACKAGES="gnu-efi nasm musl-dev qemu-system-x86 ovmf mtools dosfstools fdisk libjansson-dev clang libclang-rt-dev jq"
PACKAGES="$PACKAGES sbsigntool openssl shim-signed shim-helpers-amd64-signed efitools"
[ "${1:-}" = "--test" ] && PACKAGES="$PACKAGES python3-scipy chromium lava-dispatcher"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: error: no apt-get here; install these packages by hand:$missing" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-deps: error: not root and no sudo; as root run: apt-get install$missing" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
# Update the package lists once if an install fails on a stale or empty list.
if ! $SUDO apt-get install -y -q $missing >/tmp/baremark-apt.log 2>&1; then
    $SUDO apt-get update -q >>/tmp/baremark-apt.log 2>&1
    if ! $SUDO apt-get install -y -q $missing >>/tmp/baremark-apt.log 2>&1; then
        echo "install-deps: error: could not install:$missing (see /tmp/baremark-apt.log)" >&2
        tail -5 /tmp/baremark-apt.log >&2
        exit 1
    fi
fi
echo "install-deps: done"
