#!/bin/sh
# tests/unit/test_run_qemu_args.sh - what tools/run-qemu asks QEMU for
# (issue 15 point 8): -cpu max by default under TCG (rdtscp: the nine
# methods of a first `make run`), -cpu host with ACCEL=kvm, --cpu wins,
# --smp N (default 1, bad values refused), --machine q35|pc, --firmware
# 4m|2m (Debian's two OVMF builds), --help exits 0.  A stand-in
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
# the size of the variables copy run-qemu made (pflash unit 1)
vars=$(printf '%s\n' "$@" | sed -n 's/^if=pflash,format=raw,unit=1,file=//p')
wc -c < "$vars" > "$ARGS_OUT.varsize"
# the serial log is the chardev's logfile=...
log=$(printf '%s\n' "$@" | sed -n 's/^stdio,id=com1,signal=off,logfile=//p')
echo "baremark: run ended, status 0" >> "$log"
exit 1
EOF
chmod +x "$T/bin/qemu-system-x86_64"
: > "$T/OVMF_CODE.fd"
: > "$T/OVMF_VARS.fd"
# a disk as far as run-qemu looks: the boot signature and a GPT header
python3 -c "import sys; b = bytearray(1024); b[510:512] = b'\x55\xaa'; b[512:520] = b'EFI PART'; open(sys.argv[1], 'wb').write(b)" "$T/disk.img"
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

# --machine (q35 by default, pc: i440FX) keeps the HPET setting beside it
check "default: -machine q35,hpet=on" $([ "$(arg_after "$T/tcg" -machine)" = q35,hpet=on ]; echo $?) \
    "$(arg_after "$T/tcg" -machine)"
run pc bash tools/run-qemu --machine pc --no-hpet "$T/disk.img"
check "--machine pc --no-hpet: -machine pc,hpet=off" $([ "$(arg_after "$T/pc" -machine)" = pc,hpet=off ] &&
    [ "$(grep -c '^-machine$' "$T/pc")" = 1 ]; echo $?) "$(arg_after "$T/pc" -machine)"
for bad in isapc microvm ""; do
    run machbad bash tools/run-qemu --machine "$bad" "$T/disk.img"; rc=$?
    check "--machine '$bad' refused (exit 1) with one line, QEMU not started" \
        $([ $rc = 1 ] && [ ! -e "$T/machbad" ] && [ "$(wc -l < "$T/machbad.out")" = 1 ] &&
          grep -q -- '--machine needs q35 or pc' "$T/machbad.out"; echo $?) "rc $rc: $(head -2 "$T/machbad.out")"
done

# --firmware: Debian's 2 MiB and 4 MiB OVMF builds by name (the files of the
# ovmf package, a dependency), winning over OVMF_CODE/OVMF_VARS
pflash() { # pflash FILE UNIT: the file= of that pflash drive
    sed -n "s/^if=pflash,format=raw,unit=$2,[^ ]*file=//p" "$1"
}
run fw2 bash tools/run-qemu --firmware 2m "$T/disk.img"
check "--firmware 2m: the code flash is /usr/share/OVMF/OVMF_CODE.fd" \
    $([ "$(pflash "$T/fw2" 0)" = /usr/share/OVMF/OVMF_CODE.fd ]; echo $?) "$(pflash "$T/fw2" 0) $(cat "$T/fw2.out")"
check "--firmware 2m: the variables are a copy of OVMF_VARS.fd (128 KiB, not the 4M build's 528 KiB)" \
    $([ "$(cat "$T/fw2.varsize")" = "$(wc -c < /usr/share/OVMF/OVMF_VARS.fd)" ] &&
      [ "$(cat "$T/fw2.varsize")" = 131072 ]; echo $?) "$(cat "$T/fw2.varsize")"
run fw4 bash tools/run-qemu --firmware 4m "$T/disk.img"
check "--firmware 4m: the code flash is /usr/share/OVMF/OVMF_CODE_4M.fd" \
    $([ "$(pflash "$T/fw4" 0)" = /usr/share/OVMF/OVMF_CODE_4M.fd ] &&
      [ "$(cat "$T/fw4.varsize")" = "$(wc -c < /usr/share/OVMF/OVMF_VARS_4M.fd)" ]; echo $?) "$(pflash "$T/fw4" 0)"
check "no --firmware: OVMF_CODE from the environment" \
    $([ "$(pflash "$T/tcg" 0)" = "$T/OVMF_CODE.fd" ]; echo $?) "$(pflash "$T/tcg" 0)"
run fwbad bash tools/run-qemu --firmware 8m "$T/disk.img"; rc=$?
check "--firmware 8m refused (exit 1), QEMU not started" $([ $rc = 1 ] && [ ! -e "$T/fwbad" ] &&
    grep -q -- '--firmware needs 4m or 2m' "$T/fwbad.out"; echo $?) "rc $rc"

run help bash tools/run-qemu --help
rc=$?
check "--help: exit 0 with the usage on stdout" $([ $rc = 0 ] && grep -q 'usage: tools/run-qemu' "$T/help.out" &&
    grep -q -- '--smp N' "$T/help.out" && grep -q -- '--machine q35|pc' "$T/help.out" &&
    grep -q -- '--firmware 4m|2m' "$T/help.out"; echo $?) "rc $rc"

# Not something a firmware boots: refused at once (exit 1, QEMU never
# started), not a wait at the firmware's shell until the timeout.
printf '{"schema": 1, "name": "20261127-000000"}' > "$T/run.json"
run json bash tools/run-qemu "$T/run.json"; rc=$?
check "a results file as IMAGE: refused at once (exit 1), QEMU not started, the file named" $([ $rc = 1 ] && [ ! -e "$T/json" ] &&
    grep -q "run.json is not a disk image with an EFI System Partition" "$T/json.out"; echo $?) "rc $rc: $(cat "$T/json.out")"
run cdnot bash tools/run-qemu --cdrom "$T/disk.img"; rc=$?
check "--cdrom with a disk image, not an ISO: refused at once (exit 1)" $([ $rc = 1 ] && [ ! -e "$T/cdnot" ] &&
    grep -q "is not an ISO 9660 image" "$T/cdnot.out"; echo $?) "rc $rc"

# --lean: no i8042; no chipset SATA on q35 unless a CD-ROM or a sata
# results disk is on it; nothing left out without --lean.
python3 -c "import sys; b = bytearray(40960); b[32769:32774] = b'CD001'; open(sys.argv[1], 'wb').write(b)" "$T/cd.iso"
run lean bash tools/run-qemu --lean "$T/disk.img"
check "--lean (q35): -machine q35,hpet=on,i8042=off,sata=off" $([ "$(arg_after "$T/lean" -machine)" = q35,hpet=on,i8042=off,sata=off ]; echo $?) \
    "$(arg_after "$T/lean" -machine)"
run leancd bash tools/run-qemu --lean --cdrom "$T/cd.iso"
check "--lean --cdrom: the SATA controller stays (the CD-ROM is on it)" $([ "$(arg_after "$T/leancd" -machine)" = q35,hpet=on,i8042=off ]; echo $?) \
    "$(arg_after "$T/leancd" -machine)"
run leansata bash tools/run-qemu --lean --results-disk "$T/disk.img,bus=sata" "$T/disk.img"
check "--lean with a sata results disk: the SATA controller stays" $([ "$(arg_after "$T/leansata" -machine)" = q35,hpet=on,i8042=off ]; echo $?) \
    "$(arg_after "$T/leansata" -machine)"
run leanpc bash tools/run-qemu --lean --machine pc "$T/disk.img"
check "--lean --machine pc: -machine pc,hpet=on,i8042=off" $([ "$(arg_after "$T/leanpc" -machine)" = pc,hpet=on,i8042=off ]; echo $?) \
    "$(arg_after "$T/leanpc" -machine)"
