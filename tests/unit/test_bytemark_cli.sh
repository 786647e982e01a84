#!/bin/sh
# tests/unit/test_bytemark_cli.sh - the `verify` and `bytemark` commands of
# the hosted program: exit statuses, the command file (-c), the report and
# its JSON.  Every timed run is kept to one iteration (MINSECONDS=0).
# Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=build/host/baremark
T=${TMPDIR:-/tmp}/test_bytemark_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { # check NAME CONDITION-EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1"; fi
}
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi

# verify: every kernel check passes, exit 0, a JSON section with the counts.
$B verify --json "$T/v.json" > "$T/v.out" 2>&1; rc=$?
check "verify: exit 0" $rc
check "verify: no FAIL line" $(! grep -q '^FAIL:' "$T/v.out"; echo $?)
check "verify: at least 41 checks of the first five kernels pass" \
    $([ "$(grep -c '^PASS: \(numsort\|strsort\|bitfield\|emfloat\|fourier\):' "$T/v.out")" -ge 41 ]; echo $?)
check "verify: the eight emulated-FP sample lines" \
    $([ "$(grep -c '^PASS: emfloat: [0-9]*: (' "$T/v.out")" -eq 8 ]; echo $?)
check "verify: JSON has a verify section with 0 failed" $(grep -q '"verify":{"passed":[0-9]*,"failed":0' "$T/v.json"; echo $?)

# bytemark -c FILE: BYTEmark's names, a bad line reported with its number.
printf 'PROFILE=quick\r\nCUSTOMRUN=T\nDONUMSORT=T\nDOSTRINGSORT=T\nDOBITFIELD=T\nDOEMF=T\nDOFOUR=T\nMINSECONDS=0\nNOSUCHNAME=1\nALLSTATS=T\n' > "$T/c.cfg"
$B bytemark -c "$T/c.cfg" --json "$T/c.json" > "$T/c.out" 2> "$T/c.err"; rc=$?
check "bytemark -c: exit 0" $rc
check "bytemark -c: the bad line is reported with its number" $(grep -q 'c.cfg:9:' "$T/c.err"; echo $?)
check "bytemark -c: says which profile ran" $(grep -q '^Profile: quick' "$T/c.out"; echo $?)
check "bytemark -c: BYTEmark's table header" \
    $(grep -q '^TEST                : Iterations/sec.  : Old Index   : New Index' "$T/c.out"; echo $?)
for t in 'NUMERIC SORT' 'STRING SORT' 'BITFIELD' 'FP EMULATION' 'FOURIER'; do
    check "bytemark -c: a line for $t" $(grep -Eq "^$t +: +[0-9.e+]+  : +[0-9.]+  : +[0-9.]+\$" "$T/c.out"; echo $?)
done
check "bytemark -c: ALLSTATS lines (runs, sd, half-interval, size)" \
    $([ "$(grep -c '^  [0-9]* runs of 0 s: mean .*95% half-interval.*size: ' "$T/c.out")" -eq 5 ]; echo $?)
check "bytemark -c: CUSTOMRUN prints no indexes" $(! grep -q 'INTEGER INDEX' "$T/c.out"; echo $?)
check "bytemark -c: compiler and flags in the report" $(grep -q '^Compiler: .*flags: .*-O3' "$T/c.out"; echo $?)
check "bytemark -c: JSON keeps the runs and the profile (once, at the top level)" \
    $(grep -q '^{"schema":1,"platform":"linux","profile":"quick",' "$T/c.json" &&
      [ "$(grep -o '"profile":' "$T/c.json" | wc -l)" = 1 ] && grep -q '"scores":\[[0-9]' "$T/c.json"; echo $?)
check "bytemark -c: JSON validates" $($B validate "$T/c.json" > "$T/val.out" 2>&1; echo $?)

# A parameter that changes the workload flags the results "not comparable".
printf 'PROFILE=quick\nCUSTOMRUN=T\nDONUMSORT=T\nNUMARRAYSIZE=1000\nMINSECONDS=0\n' > "$T/n.cfg"
$B bytemark -c "$T/n.cfg" --json "$T/n.json" > "$T/n.out" 2>&1; rc=$?
check "not comparable: exit 0" $rc
check "not comparable: said in the text" $(grep -q 'NOT COMPARABLE.*NUMARRAYSIZE=1000' "$T/n.out"; echo $?)
check "not comparable: said in the JSON" $(grep -q '"not_comparable":true' "$T/n.json"; echo $?)

# Indexes without CUSTOMRUN; input errors.
printf 'PROFILE=quick\nDOASSIGN=F\nDOIDEA=F\nDOHUFF=F\nDONNET=F\nDOLU=F\nMINSECONDS=0\n' > "$T/i.cfg"
$B bytemark -c "$T/i.cfg" --json "$T/i.json" > "$T/i.out" 2>&1
check "indexes: printed without CUSTOMRUN; an index with a test of it not run is n/a, not a product of fewer factors" \
    $(grep -q '^INTEGER INDEX       : n/a' "$T/i.out" && grep -q '^MEMORY INDEX        : n/a' "$T/i.out" &&
      grep -q '^FLOATING-POINT INDEX: n/a' "$T/i.out" && grep -q '5 of the 10 tests did not run' "$T/i.out"; echo $?)
check "indexes: null in the JSON when a test of the index did not run" \
    $(/usr/bin/python3 -c "import json,sys; i=json.load(open(sys.argv[1]))['bytemark']['indexes']; sys.exit(any(i[k] is not None for k in ('original_integer','original_fp','linux_memory','linux_integer','linux_fp')))" "$T/i.json"; echo $?)
$B bytemark -c "$T/missing.cfg" > /dev/null 2>&1; rc=$?
check "missing command file: exit 2" $([ $rc -eq 2 ]; echo $?)
$B bytemark --bogus > /dev/null 2>&1; rc=$?
check "unknown option: exit 2" $([ $rc -eq 2 ]; echo $?)
