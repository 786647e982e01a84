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
#   xorriso          builds the hybrid El Torito ISO (build/baremark.iso) for
#                    CDs and a BMC's virtual media
#   libjansson-dev   JSON parser for the host report tools
#   python3-scipy    reference values for the statistics test vectors (tests only)
#   python3-pil      compares the report pictures in docs/ with freshly rendered ones (tests only)
#   chromium         headless browser that renders the HTML report in
#                    tests/boot/test_report_browser.sh (tests only)
#   lava-dispatcher  lava-run: runs the LAVA jobs of tools/lava/ in
#                    tests/boot/test_lava.sh without a LAVA server (tests only)
#   clang            libFuzzer for `make fuzz`
#   libclang-rt-dev  libFuzzer's runtime (libclang_rt.fuzzer); only a Recommends
#                    of clang, so missing where apt skips recommends
#   jq               reads the results JSON in the shell tools (baremark-results)
#   libsqlite3-dev   the results history's default store, one file (baremark history)
#   libpq-dev        the results history on PostgreSQL, for a lab that runs one
#   libmicrohttpd-dev  the HTTP server of `baremark history serve` (uploads, pages)
#   libssl-dev       libcrypto's HMAC-SHA256: the uploads' signatures (history serve)
#   pkg-config       the link flags of libmicrohttpd and libcrypto (Makefile)
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
#
# The LAVA lab (tools/lava/lab, tests/boot/test_lab.sh; with --test or --lab),
# installed without recommends: those would pull apache2, lxc, nfs and tftp
# servers that listen on every interface on a machine with an init.
#   lava-server      the server: Django web API, scheduler, event publisher
#   lavacli          submits jobs and reads device dictionaries, as a lab user does
#   postgresql       lava-server's database (started on 127.0.0.1 only)
#   curl             reads the server's REST API in the lab test
set -u
. "$(cd "$(dirname "$0")/.." && pwd)/tools/lib/common.sh"
bm_init install-deps "$@"
case ${1:-} in ''|--test|--lab) ;; *) bm_usage_error "unknown option $1 (the options are --test and --lab)" ;; esac
LAB_PACKAGES="lava-server lava-dispatcher lavacli postgresql curl"
PACKAGES="gnu-efi nasm musl-dev qemu-system-x86 ovmf mtools dosfstools fdisk xorriso libjansson-dev clang libclang-rt-dev jq"
PACKAGES="$PACKAGES libsqlite3-dev libpq-dev"
PACKAGES="$PACKAGES libmicrohttpd-dev libssl-dev pkg-config"
PACKAGES="$PACKAGES sbsigntool openssl shim-signed shim-helpers-amd64-signed efitools"
[ "${1:-}" = "--test" ] && PACKAGES="$PACKAGES python3-scipy python3-pil chromium lava-dispatcher"
lab=""
case ${1:-} in --test|--lab) lab=1 ;; esac
[ "${1:-}" = "--lab" ] && PACKAGES=""

# missing LIST: the packages of LIST that are not installed.
missing() {
    for p in $1; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf ' %s' "$p"
    done
}

# install LIST [APT-OPTION...]: install LIST, updating the package lists
# once if the install fails on a stale or empty list.
install() {
    list=$1
    shift
    echo "install-deps: installing:$list"
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-deps: error: no apt-get here; install these packages by hand:$list" >&2
        exit 1
    fi
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO="sudo"
        else
            echo "install-deps: error: not root and no sudo; as root run: apt-get install $*$list" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! $SUDO apt-get install -y -q "$@" $list >/tmp/baremark-apt.log 2>&1; then
        $SUDO apt-get update -q >>/tmp/baremark-apt.log 2>&1
        if ! $SUDO apt-get install -y -q "$@" $list >>/tmp/baremark-apt.log 2>&1; then
            echo "install-deps: error: could not install:$list (see /tmp/baremark-apt.log)" >&2
            tail -5 /tmp/baremark-apt.log >&2
            exit 1
        fi
    fi
    echo "install-deps: done"
}

m=$(missing "$PACKAGES")
[ -z "$m" ] || install "$m"
if [ -n "$lab" ]; then
    m=$(missing "$LAB_PACKAGES")
    [ -z "$m" ] || install "$m" --no-install-recommends
fi
exit 0
