#!/bin/sh
# tests/unit/test_config_cli.sh - `baremark config`: diagnostics with file
# and line, exit status 0 clean / 1 problems / 2 unreadable or usage, the
# printed settings, load options applied after the file.  PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=build/host/baremark
T=${TMPDIR:-/tmp}/test_config_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { # check NAME CONDITION-EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1"; fi
}
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi

$B config tools/baremark.cfg > "$T/out"; rc=$?
check "default baremark.cfg: exit 0" $([ $rc -eq 0 ]; echo $?)
check "default baremark.cfg: 0 problems" $(grep -qx '0 problems' "$T/out"; echo $?)
check "default baremark.cfg: comparable" $(grep -q '^# workload comparable' "$T/out"; echo $?)

printf 'ALLSTATS=T\r\nNUMARRAYSIZE=-1\r\nCUSTOMRUN=T\r\nDOLU=T\r\nFOO=1\r\n' > "$T/bad.cfg"
$B config "$T/bad.cfg" > "$T/out"; rc=$?
check "bad file: exit 1" $([ $rc -eq 1 ]; echo $?)
check "bad file: line 2 negative" $(grep -q 'bad.cfg line 2: NUMARRAYSIZE: negative' "$T/out"; echo $?)
check "bad file: line 5 unknown" $(grep -q "bad.cfg line 5: unknown setting 'FOO'" "$T/out"; echo $?)
check "bad file: 2 problems" $(grep -qx '2 problems' "$T/out"; echo $?)
check "bad file: good lines applied" \
    $(grep -qx 'DOLU=T' "$T/out" && grep -qx 'DONUMSORT=F' "$T/out" && grep -qx 'ALLSTATS=T' "$T/out"; echo $?)

# the printed settings are themselves a clean command file with the same settings
settings() { sed -n '/^# baremark settings/,$p' "$1"; }
settings "$T/out" > "$T/again.cfg"
$B config "$T/again.cfg" > "$T/out2"; rc=$?
settings "$T/out2" > "$T/again2.cfg"
check "printed settings read back cleanly and identically" \
    $([ $rc -eq 0 ] && [ -s "$T/again.cfg" ] && cmp -s "$T/again.cfg" "$T/again2.cfg"; echo $?)

printf 'NUMARRAYSIZE=1000\n' > "$T/nc.cfg"
$B config "$T/nc.cfg" > "$T/out"
check "not comparable says why" $(grep -q 'NOT comparable .*NUMARRAYSIZE=1000' "$T/out"; echo $?)

$B config --options "BOOTX64.EFI -c $T/bad.cfg numarraysize=8111 profile=full" > "$T/out"; rc=$?
check "options: -c names the file, applied after it" \
    $([ $rc -eq 1 ] && grep -qx 'PROFILE=full' "$T/out" && grep -q 'bad.cfg line 2' "$T/out"; echo $?)
$B config --options "X.EFI bogus" "$T/nc.cfg" > "$T/out"; rc=$?
check "options: a bad word is reported by its index" \
    $([ $rc -eq 1 ] && grep -q "options: word 2: unknown option 'bogus'" "$T/out"; echo $?)

$B config --json "$T/nc.cfg" > "$T/out"; rc=$?
check "--json: one config object" $([ $rc -eq 0 ] && grep -q '^{"config":{"profile":"auto"' "$T/out"; echo $?)
if command -v jq >/dev/null 2>&1; then
    check "--json: valid JSON (jq)" $(jq -e '.config.bytemark.numarraysize == 1000' "$T/out" >/dev/null; echo $?)
fi

$B config "$T/missing.cfg" > /dev/null 2>&1; rc=$?
check "unreadable file: exit 2" $([ $rc -eq 2 ]; echo $?)
$B config > /dev/null 2>&1; rc=$?
check "no file: usage, exit 2" $([ $rc -eq 2 ]; echo $?)
