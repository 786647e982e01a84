#!/bin/sh
# tests/unit/test_hostile_files.sh - results files from somewhere else, read
# by the host tools (issue 15 points 1-3, issue 14 point 6): script planted
# in every string member never reaches the page as markup; validate names
# vendor and unit strings the image cannot write; control characters never
# reach the terminal raw and long names are cut with a note; the report
# refuses what is not a results document and warns, on the page, of what
# validate finds; missing or null required figures are errors.  Built on
# tests/fixtures/run-guess.json (an image's document).  Prints PASS:/FAIL:.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
G=tests/fixtures/run-guess.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
# plant FILE PYTHON: a copy of the fixture changed by PYTHON (d is the document)
plant() {
    /usr/bin/python3 - "$G" "$T/$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# ---- 1. every string member carries script: none of it is markup -------------
PAYLOAD='<script>document.title="PWNED"</script><img src=x onerror="document.title=1">'"'"'"&'
plant evil.json "
P = '''$PAYLOAD'''
n = 0
def walk(o):
    global n
    if isinstance(o, dict):
        for k in list(o):
            if isinstance(o[k], str):
                o[k] = P + o[k]; n += 1
            else:
                walk(o[k])
    elif isinstance(o, list):
        for i, v in enumerate(o):
            if isinstance(v, str):
                o[i] = P + v; n += 1
            else:
                walk(v)
walk(d)
d['methods']['methods'][0]['unit'] = P       # the report reads a unit from any list element
d['evil<script>alert(1)</script>'] = {'k<b>': P, 'list': [{'x<i>': P}]}
open(sys.argv[2] + '.count', 'w').write(str(n))
"
$B report "$T/evil.json" -o "$T/evil.html" > /dev/null 2> "$T/evil.err"
check "report: renders a document with script in all $(cat "$T/evil.json.count") string members" $?
check "report: no <script or <img element on the page" \
    $(! grep -Eqi '<script|<img' "$T/evil.html"; echo $?) "$(grep -Eoi '.{30}<(script|img).{30}' "$T/evil.html" | head -2)"
check "report: the planted text is shown escaped (the vendor in the summary line)" \
    $(grep -q 'id="summary">[^<]*&lt;script&gt;document.title=&quot;PWNED&quot;' "$T/evil.html"; echo $?)
check "report: quotes escaped too (no attribute can be closed from a file)" \
    $(! grep -q "onerror=\"document" "$T/evil.html" && grep -q '&#39;&quot;&amp;' "$T/evil.html"; echo $?)

# validate: the vendor and unit strings are checked against what the image writes
plant vendor.json "d['system']['cpu_vendor'] = '<script>x</script>'; d['bytemark']['tests'][0]['unit'] = 'x</td><script>'"
$B validate "$T/vendor.json" > "$T/v" 2>&1; rc=$?
check "validate: a vendor that is not a CPUID string and a unit no kernel writes are invalid" \
    $([ $rc = 1 ] && grep -q 'system.cpu_vendor: .*not a CPUID vendor string' "$T/v" &&
      grep -q 'tests\[0\].unit: .*is not one of: arrays/s' "$T/v"; echo $?) "$(tr '\n' '|' < "$T/v")"
plant vendor2.json "d['methods']['cpu']['vendor'] = 'GenuineIntelX'"
$B validate "$T/vendor2.json" > "$T/v" 2>&1; rc=$?
check "validate: methods.cpu.vendor longer than CPUID's 12 characters is invalid" \
    $([ $rc = 1 ] && grep -q 'methods.cpu.vendor' "$T/v"; echo $?)
$B validate $G > "$T/v" 2>&1
check "validate: the fixture's real vendor strings pass" $? "$(cat "$T/v")"

# ---- 2. terminal output: no raw control characters, long names cut ------------
plant ctl.json "
d['methods']['measurements'][0]['name'] = 'a\x1b[2J\x1b]0;title\x07b' + 'N' * 300
d['methods']['measurements'][0]['routine_min'] = 1
d['system']['acpi']['fadt'] = 'ok\x1b[31m'
"
$B validate "$T/ctl.json" > "$T/v" 2>&1
check "validate: no ESC or BEL byte in its output" $(! grep -q "$(printf '\033')\|$(printf '\007')" "$T/v"; echo $?)
check "validate: control characters shown as \\x1b and \\x07" \
    $(grep -q 'a\\x1b\[2J\\x1b\]0;title\\x07b' "$T/v"; echo $?) "$(head -c 300 "$T/v")"
check "validate: a very long name is cut with a note" \
    $(grep -q '\.\.\. ([0-9]* more characters)' "$T/v" && [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/v")" -lt 1200 ]; echo $?)
printf 'x\033[2J.json' > "$T/name"
cp $G "$T/$(cat "$T/name")"
$B validate "$T/$(cat "$T/name")" > "$T/v" 2>&1
check "validate: a file name with ESC is shown escaped" \
    $(! grep -q "$(printf '\033')" "$T/v" && grep -q 'x\\x1b\[2J.json: valid' "$T/v"; echo $?) "$(cat -v "$T/v")"
# diff: names (in both runs) and the machine from a file
plant ctl2.json "
for t in d['bytemark']['tests']: t['name'] = t['name'] + '\x1b[31m' + 'K' * 200
d['system']['cpu_brand'] = 'CPU\x1b]0;x\x07'
d['name'] = 'run\x1b[2J'
"
cp "$T/ctl2.json" "$T/ctl3.json"
$B diff "$T/ctl2.json" "$T/ctl3.json" > "$T/c" 2>&1
check "diff: no ESC or BEL byte in its text" $(! grep -q "$(printf '\033')\|$(printf '\007')" "$T/c"; echo $?) "$(cat -v "$T/c" | head -3)"
check "diff: long names cut to the column with a note" \
    $(grep -q '\\x1b\[31mKKK.*~' "$T/c" && grep -q '^(~: a name or unit cut' "$T/c"; echo $?) "$(head -8 "$T/c")"

# ---- 3. the report refuses what is not a results document, warns of problems --
printf '{"name": "left-pad", "version": "1.3.0", "dependencies": {}}\n' > "$T/package.json"
$B report "$T/package.json" -o "$T/p.html" > /dev/null 2> "$T/e"; rc=$?
check "report: a package.json is refused (exit 2, no page)" \
    $([ $rc = 2 ] && [ ! -e "$T/p.html" ] && grep -q 'not a baremark results document' "$T/e"; echo $?) "rc $rc: $(cat "$T/e")"
$B report "$T/vendor.json" -o "$T/w.html" > /dev/null 2> "$T/e"
check "report: a file validate rejects gets a warning on the page naming each problem" \
    $(grep -q 'id="invalid".*does not pass baremark validate ([0-9]* problems).*system.cpu_vendor.*tests\[0\].unit' "$T/w.html" &&
      grep -q "has [0-9]* problems" "$T/e"; echo $?)
$B report $G -o "$T/g.html" > /dev/null 2>&1
check "report: a valid file has no warning" $(! grep -q 'id="invalid"' "$T/g.html"; echo $?)

# ---- issue 14.6: missing or null required figures are errors ------------------
one_bad() { # one_bad NAME PYTHON PATTERN
    plant "$1.json" "$2"
    $B validate "$T/$1.json" > "$T/v" 2>&1; rc=$?
    check "validate: $1 is invalid and named" $([ $rc = 1 ] && grep -Eq "$3" "$T/v"; echo $?) "rc $rc: $(tr '\n' '|' < "$T/v")"
}
M="d['methods']['measurements'][0]"
C="d['comparisons']['comparisons'][0]"
one_bad n_vs_2n_12345 "$M['per_iteration']['n_vs_2n'] = 12345" 'measurements\[0\].*n_vs_2n'
one_bad min_t2n_removed "del $M['min_t2n']" 'measurements\[0\].*min_t2n is missing'
one_bad n_vs_2n_and_min_t2n "$M['per_iteration']['n_vs_2n'] = 12345; del $M['min_t2n']" 'min_t2n is missing'
one_bad n_vs_2n_null "$M['per_iteration']['n_vs_2n'] = None" 'per_iteration: n_vs_2n is null'
one_bad a_mean_null "$C['a']['mean'] = None" 'comparisons\[0\].*\.a: mean is null'
one_bad diff_mean_null "$C['diff_mean'] = None" 'comparisons\[0\].*: diff_mean is null'
one_bad all_four "$M['per_iteration']['n_vs_2n'] = 12345; del $M['min_t2n']; $C['a']['mean'] = None; $C['diff_mean'] = None" \
    'min_t2n is missing'
n=$(grep -c 'INVALID\|is missing\|is null' "$T/v")
check "validate: the issue's file (all four at once) names each of them" $([ "$n" -ge 4 ]; echo $?) "$(tr '\n' '|' < "$T/v")"
