#!/bin/sh
# tests/unit/test_run_qemu_args.sh - what tools/run-qemu asks QEMU for
# (issue 15 point 8): -cpu max by default under TCG (rdtscp: the nine
# methods of a first `make run`), -cpu host with ACCEL=kvm, --cpu wins,
# --smp N (default 1, bad values refused), --help exits 0.  A stand-in
# qemu-system-x86_64 on PATH records its arguments and exits as QEMU does
# after a run of status 0 (isa-debug-exit: 1); no guest is booted.
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
mkdir "$T/bin"
cat > "$T/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" > "$ARGS_OUT"
# the serial log is the chardev's logfile=...
log=$(printf '%s\n' "$@" | sed -n 's/^stdio,id=com1,signal=off,logfile=//p')
echo "baremark: run ended, status 0" >> "$log"
exit 1
EOF
chmod +x "$T/bin/qemu-system-x86_64"
: > "$T/OVMF_CODE.fd"
: > "$T/OVMF_VARS.fd"
: > "$T/disk.img"
run() { # run NAME [ENV=...] -- ARGS...: run-qemu with the stand-in; args in $T/NAME
    n=$1
    shift
    env PATH="$T/bin:$PATH" ARGS_OUT="$T/$n" OVMF_CODE="$T/OVMF_CODE.fd" OVMF_VARS="$T/OVMF_VARS.fd" \
        "$@" > "$T/$n.out" 2>&1
}
arg_after() { # arg_after FILE FLAG: the argument that follows FLAG
    awk -v f="$2" 'p { print; exit } $0 == f { p = 1 }' "$1"
}

run tcg bash tools/run-qemu "$T/disk.img"
check "default (TCG): run-qemu exits 0 for a run of status 0" $?
check "default (TCG): -cpu max" $([ "$(arg_after "$T/tcg" -cpu)" = max ]; echo $?) "$(arg_after "$T/tcg" -cpu)"
check "default: -smp 1" $([ "$(arg_after "$T/tcg" -smp)" = 1 ]; echo $?) "$(arg_after "$T/tcg" -smp)"
check "default: -accel tcg" $([ "$(arg_after "$T/tcg" -accel)" = tcg ]; echo $?)

run kvm env ACCEL=kvm bash tools/run-qemu "$T/disk.img"
check "ACCEL=kvm: -cpu host and -accel kvm" \
    $([ "$(arg_after "$T/kvm" -cpu)" = host ] && [ "$(arg_after "$T/kvm" -accel)" = kvm ]; echo $?)

run named env ACCEL=kvm bash tools/run-qemu --cpu qemu64 "$T/disk.img"
check "--cpu MODEL wins over the default" $([ "$(arg_after "$T/named" -cpu)" = qemu64 ] &&
    [ "$(grep -c '^-cpu$' "$T/named")" = 1 ]; echo $?)

run smp bash tools/run-qemu --smp 2 "$T/disk.img"
check "--smp 2: -smp 2" $([ "$(arg_after "$T/smp" -smp)" = 2 ]; echo $?) "$(arg_after "$T/smp" -smp)"
for bad in 0 two ""; do
    run smpbad bash tools/run-qemu --smp "$bad" "$T/disk.img"; rc=$?
    check "--smp '$bad' refused (exit 1), QEMU not started" $([ $rc = 1 ] && [ ! -e "$T/smpbad" ]; echo $?) "rc $rc"
done

run help bash tools/run-qemu --help
rc=$?
check "--help: exit 0 with the usage on stdout" $([ $rc = 0 ] && grep -q 'usage: tools/run-qemu' "$T/help.out" &&
    grep -q -- '--smp N' "$T/help.out"; echo $?) "rc $rc"
