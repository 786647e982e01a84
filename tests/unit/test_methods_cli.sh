#!/bin/sh
# tests/unit/test_methods_cli.sh - `baremark methods` under Linux: the text,
# the JSON of the methods and comparisons sections (checked with python and
# with `baremark validate`), the HTML report, and input errors.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
T=${TMPDIR:-/tmp}/test_methods_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
check() { if [ "$2" = 0 ]; then echo "PASS: $1"; else echo "FAIL: $1 (${3:-})"; fi; }

"$B" methods --quick --samples 20 --json "$T/m.json" > "$T/out" 2>&1
rc=$?
# 0, or 1 when a control came out wrong under Linux noise (printed as a warning)
check "methods --quick --json: completes (exit $rc)" $([ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q '^warning:' "$T/out"; }; echo $?) "$(tail -3 "$T/out" | tr '\n' '|')"
check "text: says interrupts cannot be masked under Linux" $(grep -q '^methods: interrupts cannot be masked here (linux)' "$T/out"; echo $?)
check "text: under Linux the TSC rate is the OS clock's, never the clock section's; nothing claims masked interrupts" \
    $(grep -q "^methods: TSC at [0-9.]* MHz (measured against the operating system's clock)" "$T/out" &&
      ! grep -q '(clock section)' "$T/out" && ! grep -Eq 'interrupts masked|masked \(cli\)' "$T/out"; echo $?) \
    "$(grep -E 'TSC at|masked' "$T/out" | head -3 | tr '\n' '|')"
check "text: each method's exact sequence" $(grep -q '^method 3 lfence+rdtsc+lfence: start and stop: lfence; rdtsc; lfence' "$T/out" &&
    grep -q '^method 9 sdm-recommended: start and stop: mfence; lfence; rdtsc; lfence' "$T/out"; echo $?)
check "text: a row per target and method, the profile, Paoloni, four comparisons" $(
    [ "$(grep -c '^target ' "$T/out")" = 6 ] && grep -q '^profile of strlen' "$T/out" &&
    grep -q '^Paoloni: ' "$T/out" && [ "$(grep -c '^compare ' "$T/out")" = 4 ] &&
    grep -q '^comparisons: resolution implied by the null experiments' "$T/out"; echo $?) \
    "targets $(grep -c '^target ' "$T/out"), compares $(grep -c '^compare ' "$T/out"), profile $(grep -c '^profile of strlen' "$T/out"), Paoloni $(grep -c '^Paoloni: ' "$T/out"), resolution $(grep -c '^comparisons: resolution implied' "$T/out")"

/usr/bin/python3 - "$T/m.json" > "$T/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
def need(c, what):
    if not c:
        bad.append(what)
need(d["platform"] == "linux" and d["status"] in (0, 2) and d["ended"] is True, "top level")
need(d["build"]["target"] == "x86_64-linux" and d["host"]["cpu_brand"] and d["host"]["logical_cpus"] >= 1
     and len(d["name"]) == 15, "build, host and name of a hosted document")
m = d["methods"]
need(m["interrupts_masked"] is False and m["samples"] == 20, "methods header")
need(d.get("profile") == "quick" and "profile" not in m, "the profile recorded once, at the top level")
names = [x["name"] for x in m["methods"]]
need(names == ["cpuid+rdtsc", "lfence+rdtsc", "lfence+rdtsc+lfence", "rdtscp", "lfence+rdtscp", "cpuid+rdtscp",
               "rdtscp+lfence", "rdtsc", "sdm-recommended"], "nine methods in order: %s" % names)
for x in m["methods"]:
    need(x["start"] == x["stop"] and x["start"], "sequence of " + x["name"])
    if x["supported"]:
        s = x["overhead"]["samples"]
        need(len(s) == 20 and min(s) == x["overhead"]["min"] and all(v >= 0 for v in s), "overhead of " + x["name"])
need(len(m["measurements"]) == 54, "54 measurements")
for x in m["measurements"]:
    if x["status"] in ("ok", "too_short"):
        need(len(x["samples"]) == 20 and min(x["samples"]) == x["routine_min"], "samples of " + x["name"])
        pi, n = x["per_iteration"], x["iterations"]
        need(pi["n_vs_2n"] == (x["min_t2n"] - x["routine_min"]) / n, "n_vs_2n of " + x["name"])
need(m["extended_profile"]["routine"] == "strlen", "extended profile")
need(len(m["paoloni"]) == 9, "paoloni per method")
c = d["comparisons"]
need([x["name"] for x in c["comparisons"]] == ["foo vs foo", "foo vs foobar", "foo vs foo (random order)",
                                               "add10 vs add100"], "four comparisons")
for x in c["comparisons"]:
    need(len(x["a"]["samples"]) == len(x["b"]["samples"]) == x["accuracy"] == 200, "samples of " + x["name"])
    need(x["verdict"] in ("faster", "slower", "no difference"), "verdict of " + x["name"])
ab = c["comparisons"][3]
# A preemption under Linux can turn a mean against the medians (the verdict
# then says "no difference"); the ranks are what the host can promise.
need(ab["a"]["median"] < ab["b"]["median"] and ab["mann_whitney_p"] < 1e-6 and ab["verdict"] != "slower",
     "add10 vs add100: A's median below B's, Mann-Whitney p < 1e-6, verdict not 'slower'")
print("\n".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
PY
check "JSON: methods, measurements, profile, Paoloni and comparisons as documented" $? "$(tr '\n' '|' < "$T/py")"

"$B" validate "$T/m.json" > "$T/v" 2>&1
check "validate: the hosted methods document is valid" $? "$(tr '\n' '|' < "$T/v")"
# the first measurement with estimators (under Linux noise a measurement may
# end in an overhead-limit status, which has none)
k=$(jq '[.methods.measurements[] | .per_iteration.apple != null] | index(true)' "$T/m.json")
jq --argjson k "$k" '.methods.measurements[$k].per_iteration.apple += 1 | .comparisons.comparisons[0].a.mean += 1' \
    "$T/m.json" > "$T/bad.json"
"$B" validate "$T/bad.json" > "$T/v" 2>&1; rc=$?
check "validate: a wrong estimator (measurement $k) and a wrong mean are named" $([ $rc -eq 1 ] &&
    grep -q "measurements\[$k\].*per_iteration.apple" "$T/v" && grep -q 'comparisons\[0\].*a.mean' "$T/v"; echo $?) "$(cat "$T/v")"

"$B" report "$T/m.json" -o "$T/m.html" > /dev/null 2>&1
check "report: renders the document" $?
check "report: lists the exact sequences and the comparisons" $(grep -q 'mfence; lfence; rdtsc; lfence' "$T/m.html" &&
    grep -q 'xor eax, eax; cpuid; rdtscp' "$T/m.html" && grep -q 'add10 vs add100' "$T/m.html"; echo $?)
rows=$(grep -o '<table id="method-measurements">.*' "$T/m.html" | sed 's|</table>.*||' | grep -o '<tr><td>' | wc -l)
check "report: the measurements table has a row per target and method (54)" $([ "$rows" = 54 ]; echo $?) "$rows rows"

"$B" methods --no-methods --precision 10 --accuracy 50 --json "$T/c.json" > /dev/null 2>&1
check "--precision/--accuracy: Karsh's parameters reach the comparisons (50 trials of 10 calls)" $(jq -e '
    (.methods == null) and .comparisons.precision == 10 and .comparisons.accuracy == 50
    and ([.comparisons.comparisons[] | (.a.samples | length), (.b.samples | length)] | unique) == [50]' \
    "$T/c.json" >/dev/null; echo $?)
"$B" methods --samples 5 > "$T/e" 2>&1; rc=$?
check "input error: --samples 5 is refused with exit 2" $([ $rc -eq 2 ] && grep -q 'samples wants 10' "$T/e"; echo $?)
"$B" methods --bogus > "$T/e" 2>&1; rc=$?
check "input error: an unknown option is named, exit 2" $([ $rc -eq 2 ] && grep -q '^baremark methods: unknown option --bogus' "$T/e"; echo $?)
