# tools/lib/common.sh - what the shell tools in tools/ share, so they speak
# one language: help, errors, exit codes, temporary files, the ESP of a
# disk image, the hosted program.  POSIX sh; sourced, never run:
#
#   top=$(cd "$(dirname "$0")/.." && pwd)     # tools/lava/*: /../..
#   . "$top/tools/lib/common.sh"
#   bm_init NAME "$@"                          # NAME --help prints the help
#
# The conventions every tool follows (README "The tools"):
#   - the help is the comment block at the top of the script (after the
#     #! line, up to the first line that is not a comment); NAME --help
#     (or -h) prints it to standard output and exits 0;
#   - a usage error is one line on standard error, "NAME: what is wrong (NAME
#     --help)", and exit status 2; a failure is one line "NAME: what
#     happened", exit status 1 unless the tool documents another;
#   - temporary files live in one directory, removed on exit however the
#     tool ends (bm_tmpdir), with the tool's own clean-up run first
#     (bm_at_exit).

BM_PROG=${BM_PROG:-$(basename "$0")}
BM_TOP=${BM_TOP:-${top:-$(cd "$(dirname "$0")/.." && pwd)}}
# The EFI System Partition's GPT type GUID (UEFI spec 5.3.3).
BM_ESP_TYPE=C12A7328-F81F-11D2-BA4B-00A0C93EC93B

# bm_init NAME "$@": name the tool in its messages; print the help and exit
# when the first argument asks for it.
bm_init() {
    BM_PROG=$1
    shift
    case ${1:-} in -h|--help) bm_help ;; esac
}

# bm_init_host NAME COMMAND "$@": as bm_init, for a tool that hands its
# arguments to `build/host/baremark COMMAND`: --help prints the script's
# comment block, then every option of the hosted command from its option
# table (tools/host/*/cmd_*.c), the one the parser reads, so the help cannot
# leave one out.
bm_init_host() {
    BM_PROG=$1
    BM_HOST_CMD=$2
    shift 2
    case ${1:-} in
    -h|--help)
        sed -n '2,$p' "$0" | sed -n '/^#/!q; s/^# \{0,1\}//p'
        echo
        bm_host_build
        "$BM_HOST_BIN" "$BM_HOST_CMD" --help
        exit 0 ;;
    esac
}

# The help: the script's leading comment block, "# " removed.  Exit 0.
bm_help() {
    sed -n '2,$p' "$0" | sed -n '/^#/!q; s/^# \{0,1\}//p'
    exit 0
}

# bm_usage_error MSG...: one line on stderr, exit 2.
bm_usage_error() {
    echo "$BM_PROG: $* ($BM_PROG --help)" >&2
    exit 2
}

# bm_die MSG...: one line on stderr, exit 1.
bm_die() {
    echo "$BM_PROG: $*" >&2
    exit 1
}

# bm_warn MSG...: one line on stderr; the tool goes on.
bm_warn() {
    echo "$BM_PROG: $*" >&2
}

# bm_at_exit CMD: run CMD (a shell command line) when the tool exits, before
# the temporary directory goes; later additions run first.
BM_AT_EXIT=""
bm_at_exit() {
    BM_AT_EXIT="$1${BM_AT_EXIT:+; $BM_AT_EXIT}"
    bm__trap
}

# bm_tmpdir: a private temporary directory in $BM_TMP, removed on exit.
BM_TMP=""
bm_tmpdir() {
    BM_TMP=$(mktemp -d "${TMPDIR:-/tmp}/$BM_PROG.XXXXXX") || bm_die "cannot create a temporary directory"
    bm__trap
}

bm__exit() {
    eval "${BM_AT_EXIT:-:}"
    [ -z "$BM_TMP" ] || rm -rf "$BM_TMP"
}
bm__trap() {
    trap bm__exit EXIT
    trap 'exit 1' INT TERM HUP
}

# bm_esp_offset IMAGE: the byte offset of the EFI System Partition inside a
# disk image or whole-disk device (its GPT, or an MBR partition of type EF),
# printed; nothing when there is none (a bare FAT image, no partition table).
bm_esp_offset() {
    sfdisk --json "$1" 2>/dev/null | jq -r --arg t "$BM_ESP_TYPE" '
        .partitiontable as $p | $p.partitions[]?
        | select((.type | ascii_upcase) == $t or .type == "ef")
        | .start * ($p.sectorsize // 512)' 2>/dev/null | head -1
}

# bm_host_build: make sure build/host/baremark (the hosted program) is
# built and current; its path in $BM_HOST_BIN.  When the rebuild fails, an
# existing build is used with a warning.
bm_host_build() {
    BM_HOST_BIN=$BM_TOP/build/host/baremark
    bm__log=$(mktemp "${TMPDIR:-/tmp}/$BM_PROG.make.XXXXXX") || bm_die "cannot create a temporary file"
    if ! make -s -C "$BM_TOP" host >"$bm__log" 2>&1; then
        if [ -x "$BM_HOST_BIN" ]; then
            bm_warn "could not rebuild the host program (make host failed); using the existing $BM_HOST_BIN"
        else
            tail -15 "$bm__log" >&2
            rm -f "$bm__log"
            bm_die "could not build $BM_HOST_BIN"
        fi
    fi
    rm -f "$bm__log"
}

# bm_host_exec COMMAND ARGS...: become `build/host/baremark COMMAND ARGS`
# (after bm_host_build; nothing of this shell runs after it, not even the
# clean-up, so use it only when there is nothing to clean).
bm_host_exec() {
    bm_host_build
    exec "$BM_HOST_BIN" "$@"
}
