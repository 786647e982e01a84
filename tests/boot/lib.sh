# tests/boot/lib.sh - helpers for QEMU boot tests (sourced by tests/boot/test_*.sh).
#
# A boot test is a shell script printing "PASS: what" / "FAIL: what (detail)"
# lines; tests/run.sh runs them two at a time and counts the lines.  Each test
# boots its OWN copy of the image (fresh_image), so tests are independent.
#
#   fresh_image NAME            -> path of a private copy of build/baremark.img
#   boot NAME IMAGE [run-qemu options...]
#                               boots; sets BOOT_RC (run-qemu's exit status) and
#                               BOOT_LOG (serial text: CR, ANSI escapes removed).
#                               The CPU is --cpu qemu64 unless the options name
#                               one: the figures the tests assert were taken on
#                               it (run-qemu's own default is max).
#   boot_cut NAME IMAGE REGEX [run-qemu options...]
#                               boots and kills QEMU (SIGKILL: a power cut) as
#                               soon as a serial line matches REGEX; BOOT_RC
#                               is 137 when it was cut, else run-qemu's status
#                               Both add verbose=t to the settings (--options),
#                               so BOOT_LOG holds the full text the tests grep
#                               (docs/console.md); BOOT_CONSOLE=default before
#                               the call boots with the default console instead
#   boot_args ARGS...           sets BOOT_ARGS to ARGS with verbose=t added
#                               so (for a test that calls run-qemu itself),
#                               and --lean before them when they ask for
#                               --icount (run-qemu --help: the firmware's
#                               slow probes of PS/2 and SATA left out)
#   expect_rc WANT WHAT         PASS if BOOT_RC == WANT
#   expect_line REGEX WHAT      PASS if a line of BOOT_LOG matches (grep -E)
#   expect_no_line REGEX WHAT   PASS if no line matches
#   esp_ls IMAGE [DIR]          list file names in a directory of the ESP
#   esp_cat IMAGE PATH          print a file from the ESP
#   last_json IMAGE NAME        copy the stick's newest results JSON to
#                               $TEST_TMP/NAME.json and print that path
#   expect_valid FILE WHAT      PASS if `baremark validate FILE` accepts it
#   pass WHAT / fail WHAT DETAIL
#
# Firmware: boots use build/ovmf/OVMF_CODE_4M.notpm.fd, Debian's
# OVMF_CODE_4M.fd with its TPM probe cut to one poll (tests/boot/ovmf_notpm.py
# says why: without it each boot waits 1.5 virtual seconds for a TPM QEMU
# does not have, which under --icount costs 60-200 s of real time).  A test
# that sets OVMF_CODE, or passes --firmware, boots what it names;
# BAREMARK_STOCK_OVMF=1 boots Debian's file everywhere.
# `ovmf_copy NAME --no-http` prints the path of a copy without EDK II's
# HTTP driver (TCP4 only), made the same way (test_upload boots it).
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
RUN_QEMU=$TOP/tools/run-qemu
TEST_TMP=${TEST_TMP:-$BUILD/tests/boot}
export MTOOLS_SKIP_CHECK=1
mkdir -p "$TEST_TMP"

# A patched copy of Debian's OVMF_CODE_4M.fd (tests/boot/ovmf_notpm.py):
# made once per build directory (flock: two tests start at once); prints
# its path, or nothing when the patch does not apply to this OVMF (one line
# on stderr says so).  ovmf_copy NAME [--no-http]
ovmf_copy() {
    local stock=/usr/share/OVMF/OVMF_CODE_4M.fd out="$BUILD/ovmf/$1"
    shift
    [ -f "$stock" ] || return 1
    mkdir -p "$BUILD/ovmf"
    if [ ! -f "$out" ] || [ "$stock" -nt "$out" ] || [ "$TOP/tests/boot/ovmf_notpm.py" -nt "$out" ]; then
        flock "$BUILD/ovmf/.lock" sh -c '
            [ -f "$2" ] && [ ! "$1" -nt "$2" ] && [ ! "$3" -nt "$2" ] && exit 0
            python3 "$3" $4 "$1" "$2.tmp.$$" >/dev/null && mv -f "$2.tmp.$$" "$2"
            rm -f "$2.tmp.$$"' sh "$stock" "$out" "$TOP/tests/boot/ovmf_notpm.py" "$*"
    fi
    [ -f "$out" ] && echo "$out"
}
# The firmware the boots use unless a test names one (see above); the
# stock file if the patch does not apply.
ovmf_notpm() {
    local f
    f=$(ovmf_copy OVMF_CODE_4M.notpm.fd) && export OVMF_CODE="$f"
}
[ -z "${OVMF_CODE:-}" ] && [ "${BAREMARK_STOCK_OVMF:-}" != 1 ] && ovmf_notpm
# A folder for tools/lava/make-job --ovmf-dir: OVMF_CODE_4M.fd is the
# firmware the other boots use (above: the TPM probe cut to one poll, or
# the stock file), OVMF_VARS_4M.fd Debian's.  LAVA's QEMU jobs then spend
# in firmware what run-qemu's boots do.  ovmf_dir DIR (prints DIR)
ovmf_dir() {
    mkdir -p "$1" &&
        cp "${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}" "$1/OVMF_CODE_4M.fd" &&
        cp /usr/share/OVMF/OVMF_VARS_4M.fd "$1/OVMF_VARS_4M.fd" && echo "$1"
}

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }

fresh_image() {   # a copy of the built image without the runs `make run` left on it
    local img="$TEST_TMP/$1.img"
    cp "$BUILD/baremark.img" "$img"
    if [ -n "$(mdir -b -i "$img@@1M" ::/baremark 2>/dev/null)" ]; then
        { mdeltree -i "$img@@1M" ::/baremark && mmd -i "$img@@1M" ::/baremark; } >/dev/null 2>&1 ||
            echo "fresh_image: cannot clear ::/baremark in $img" >&2
    fi
    echo "$img"
}

# The console shows progress, warnings and the summary unless verbose=t;
# the tests read the full text (BOOT_CONSOLE=default: as a person sees it).
boot_args() {
    BOOT_ARGS=("$@")
    local i at=-1
    # --icount boots leave out the devices the firmware probes slowly (run-qemu --lean)
    for ((i = 0; i < ${#BOOT_ARGS[@]}; i++)); do
        case ${BOOT_ARGS[i]} in --icount|--icount-nosleep) BOOT_ARGS=(--lean "${BOOT_ARGS[@]}"); break ;; esac
    done
    [ "${BOOT_CONSOLE:-verbose}" = default ] && return
    for ((i = 0; i + 1 < ${#BOOT_ARGS[@]}; i++)); do
        [ "${BOOT_ARGS[i]}" = --options ] && at=$((i + 1))
    done
    if [ $at -ge 0 ]; then BOOT_ARGS[at]="${BOOT_ARGS[at]} verbose=t"; else BOOT_ARGS+=(--options verbose=t); fi
}

boot() {
    local name=$1 img=$2
    shift 2
    boot_args "$@"
    set -- "${BOOT_ARGS[@]}"
    local raw="$TEST_TMP/$name.serial" cpu=(--cpu qemu64) a
    BOOT_LOG="$TEST_TMP/$name.log"
    for a in "$@"; do [ "$a" = --cpu ] && cpu=(); done
    "$RUN_QEMU" --timeout "${BOOT_TIMEOUT:-240}" --serial "$raw" "${cpu[@]}" "$@" "$img" >/dev/null 2>"$TEST_TMP/$name.err"
    BOOT_RC=$?
    tr -d '\r' < "$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$BOOT_LOG"
}

boot_cut() {
    local name=$1 img=$2 re=$3
    shift 3
    boot_args "$@"
    set -- "${BOOT_ARGS[@]}"
    local raw="$TEST_TMP/$name.serial" cpu=(--cpu qemu64) a pid
    BOOT_LOG="$TEST_TMP/$name.log"
    for a in "$@"; do [ "$a" = --cpu ] && cpu=(); done
    : > "$raw"
    # Its own process group, so the kill reaches QEMU and nothing else.
    setsid "$RUN_QEMU" --timeout "${BOOT_TIMEOUT:-240}" --serial "$raw" "${cpu[@]}" "$@" "$img" \
        >/dev/null 2>"$TEST_TMP/$name.err" &
    pid=$!
    BOOT_RC=""
    while kill -0 "$pid" 2>/dev/null; do
        if tr -d '\r' < "$raw" | grep -Eq -- "$re"; then
            kill -KILL -- "-$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            BOOT_RC=137
            break
        fi
        sleep "${CUT_POLL:-0.2}"
    done
    if [ -z "$BOOT_RC" ]; then wait "$pid"; BOOT_RC=$?; fi
    tr -d '\r' < "$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$BOOT_LOG"
}

expect_rc() {
    if [ "$BOOT_RC" = "$1" ]; then pass "$2"; else fail "$2" "run-qemu exit $BOOT_RC, want $1; $(tail -3 "$BOOT_LOG" | tr '\n' '|')"; fi
}

expect_line() {
    if grep -Eq -- "$1" "$BOOT_LOG"; then pass "$2"; else fail "$2" "no line matches /$1/ in $BOOT_LOG"; fi
}

expect_no_line() {
    if grep -Eq -- "$1" "$BOOT_LOG"; then fail "$2" "$(grep -E -m1 -- "$1" "$BOOT_LOG")"; else pass "$2"; fi
}

esp_ls() { mdir -b -i "$1@@1M" "::/${2:-}" 2>/dev/null | sed 's|.*/||'; }
esp_cat() { mtype -i "$1@@1M" "::/$2"; }
last_json() {
    local j
    j=$(esp_ls "$1" baremark | grep 'json$' | tail -1)
    esp_cat "$1" "baremark/$j" > "$TEST_TMP/$2.json" 2>/dev/null
    echo "$TEST_TMP/$2.json"
}
expect_valid() {
    if "$BUILD/host/baremark" validate "$1" > "$1.validate" 2>&1; then
        pass "$2"
    else
        fail "$2" "$(head -3 "$1.validate" | tr '\n' '|')"
    fi
}

# esp_fill IMAGE: fill every free byte of the ESP with \FILLER.BIN.
esp_fill() {
    local free
    free=$(mdir -i "$1@@1M" :: | sed -n 's/^ *\([0-9 ]*[0-9]\) bytes free.*/\1/p' | tr -d ' ')
    head -c "$free" /dev/zero > "$TEST_TMP/filler.$$"
    mcopy -i "$1@@1M" "$TEST_TMP/filler.$$" ::/FILLER.BIN
    rm -f "$TEST_TMP/filler.$$"
}
