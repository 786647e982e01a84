#!/bin/bash
# Boot test: the timing methods, the engine and Karsh's A/B in the image.
#
# 1. QEMU -icount shift=0, -cpu max (has rdtscp): every instruction advances
#    the TSC by exactly one tick, so figures are exact.  Measured here (and
#    derived from bench/methods.asm): the difference of two counter reads is
#    the number of instructions from the first read up to, not including, the
#    second.  So a method's back-to-back overhead is
#        after + 3 + before + 1
#    (after: the start sequence's instructions after its read; 3: shl, or,
#    mov r15; before: the stop sequence's instructions before its read), a
#    bracketed routine of F + N*P instructions takes
#        after + 6 + F + N*P + before + 1         (6: shl, or, mov, mov, mov, call)
#    and the placeholder (ret: F = 1, P = 0) takes after + before + 8.  Hence
#    for every method: T(N) - P(N) = F - 1 + N*P; Apple's and the N vs 2N
#    estimates are exactly P; Paoloni's add1 minima are 11 + after + before +
#    3k (slope 3, R^2 1, no spurious minimum); Foo (3 + 28 per call) against
#    Foo over 100 calls nets 2802 ticks for both sides, a difference of 0.
# 2. QEMU's old default CPU (--cpu qemu64, no rdtscp): the four rdtscp methods are skipped
#    with status unsupported and never executed (a fault injected into them
#    never fires).
# 3. -cpu max with a fault injected into method:rdtscp: that method's work
#    fails with status fault, everything else is measured, status 2.
# 4. A fault injected into target:foo: Foo's measurements and comparisons
#    fail, the rest runs.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

esp_json() {   # esp_json IMAGE OUT: the run's JSON results file
    local f
    f=$(esp_ls "$1" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
    [ -n "$f" ] && esp_cat "$1" "baremark/$f" > "$2"
}

# ---- 1. exact figures under -icount ---------------------------------------------
img=$(fresh_image methods-icount)
BOOT_TIMEOUT=300 boot methods-icount "$img" --icount --cpu max \
    --options "sections=methods,compare profile=quick methoditerations=10 methodsamples=20"
expect_rc 0 "icount: run-qemu exit 0"
expect_line '^methods: rdtscp yes \(CPUID 0x80000001 EDX bit 27\)$' "icount: -cpu max has rdtscp"
expect_line '^methods: interrupts masked \(cli\) for every timing$' "icount: interrupts masked per timing"
expect_line '^method 4 rdtscp: start and stop: rdtscp$' "icount: serial lists rdtscp's sequence"
expect_line '^method 9 sdm-recommended: start and stop: mfence; lfence; rdtsc; lfence' "icount: serial lists the vendor's sequence"
expect_line '^  overhead ticks: min 7, median 7\.0, mean 7\.00, sd 0\.00, mode 7\.0 \(pure\), max 7; step 0$' \
    "icount: sdm-recommended overhead exactly 7 ticks (1 + 3 + 2 + 1)"
expect_line '^  lfence\+rdtsc +ok +0/0 +12\.300 +12\.000 +12\.000' "icount: add10 x 10 with lfence+rdtsc nets 12.3 / 12 / 12"
expect_line '^compare foo vs foo \(A/A' "icount: Foo vs Foo ran"
expect_line '^  A - B: means 0\.00 \(\+0\.000%\), modes 0\.00 \(\+0\.000%\), medians 0\.00' "icount: Foo vs Foo differs by exactly 0"
expect_line '^  verdict: A is faster than B \(95%, noise 1%\), as expected$' "icount: add10 vs add100: A faster"
expect_no_line '^warning:' "icount: no warnings"
json=$TEST_TMP/methods-icount.json
if esp_json "$img" "$json"; then
    pass "icount: results JSON on the ESP"
    "$B" validate "$json" > "$TEST_TMP/methods-icount.validate" 2>&1 &&
        pass "icount: baremark validate accepts the methods and comparisons sections" ||
        fail "icount: validate" "$(tr '\n' '|' < "$TEST_TMP/methods-icount.validate")"
    if /usr/bin/python3 - "$json" > "$TEST_TMP/methods-icount.py" 2>&1 <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
m, c = d["methods"], d["comparisons"]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
def split(seq):
    """instructions of a sequence before and after its counter read"""
    parts = [p.strip() for p in seq.split(";")]
    k = [i for i, p in enumerate(parts) if p in ("rdtsc", "rdtscp")][0]
    return k, len(parts) - 1 - k
N = m["iterations"]
need(N == 10 and m["samples"] == 20, "plan")
shape = {}
for x in m["methods"]:
    before, after = split(x["start"])
    shape[x["name"]] = (before, after)
    need(x["supported"] and x["status"] == "ok", x["name"] + " supported")
    oh = x["overhead"]["samples"]
    want = after + 3 + before + 1
    need(oh == [want] * len(oh), "%s overhead %s != %d" % (x["name"], sorted(set(oh)), want))
    need(x["step_ticks"] == 0 and x["overhead"]["sd"] == 0, x["name"] + " constant")
need(len(shape) == 9, "nine methods")
known = {"empty": (1, 0), "add10": (4, 12), "add100": (4, 102), "add1000": (4, 1002), "foo": (3, 28)}
strlen = set()
for x in m["measurements"]:
    before, after = shape[x["method"]]
    t = x["target"]
    need(x["placeholder_min"] == after + before + 8 and x["placeholder_samples"] == [x["placeholder_min"]] * 20,
         x["name"] + " placeholder")
    pi = x["per_iteration"]
    if t in known:
        F, P = known[t]
        need(x["instructions_fixed"] == F and x["instructions_per_iteration"] == P, x["name"] + " counts")
        need(x["routine_min"] - x["placeholder_min"] == F - 1 + N * P, x["name"] + " T(N)-P(N)")
        need(pi["apple"] == P and pi["n_vs_2n"] == P, "%s per iteration %s != %d" % (x["name"], pi, P))
        need(abs(pi["minus_placeholder"] - (F - 1 + N * P) / N) < 1e-12, x["name"] + " minus placeholder")
        need(x["status"] == ("too_short" if t == "empty" else "ok"), x["name"] + " status " + x["status"])
        need(x["samples"] == [x["routine_min"]] * 20, x["name"] + " samples constant")
    else:
        strlen.add((pi["minus_placeholder"], pi["apple"], pi["n_vs_2n"]))
need(len(strlen) == 1, "strlen: the same net time with every method: %s" % strlen)
for x in m["paoloni"]:
    before, after = shape[x["name"]]
    b = 11 + after + before
    need(x["minima_variance"] == 0 and x["distinct_minima"] == 1 and x["spurious_minima"] == 0, x["name"] + " Paoloni fixed")
    need(x["growing_minima"] == [b + 3 * k for k in range(1, x["sizes"] + 1)], x["name"] + " Paoloni minima")
    need(x["slope_ticks_per_iteration"] == 3 and abs(x["intercept_ticks"] - b) < 1e-9 and x["r2"] == 1,
         x["name"] + " Paoloni fit %s %s %s" % (x["slope_ticks_per_iteration"], x["intercept_ticks"], x["r2"]))
ex = {e["name"]: e for e in c["comparisons"]}
for name in ("foo vs foo", "foo vs foobar", "foo vs foo (random order)"):
    e = ex[name]
    need(e["a"]["samples"] == [2802] * 200 and e["b"]["samples"] == [2802] * 200, name + " samples")
    need(e["diff_mean"] == 0 and e["diff_mode"] == 0 and e["verdict"] == "no difference", name + " difference 0")
e = ex["add10 vs add100"]
need(e["a"]["samples"] == [1203] * 200 and e["b"]["samples"] == [10203] * 200, "add10 vs add100 samples")
need(e["diff_mean"] == -9000 and e["verdict"] == "faster" and e["as_expected"], "add10 vs add100 verdict")
need(e["overhead"]["median"] == 11, "compare overhead (sdm placeholder) 11 ticks")
need(c["resolution"]["rel_mean"] == 0 and c["resolution"]["rel_mode"] == 0, "null experiments: resolution 0")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "icount: every overhead, placeholder, estimator, Paoloni fit and A/B difference is the exact instruction count"
    else fail "icount: exact figures" "$(head -5 "$TEST_TMP/methods-icount.py" | tr '\n' '|')"; fi
    "$B" report "$json" -o "$TEST_TMP/methods-icount.html" > /dev/null 2>&1
    missing=""
    for seq in "xor eax, eax; cpuid; rdtsc" "lfence; rdtsc" "lfence; rdtsc; lfence" "rdtscp" "lfence; rdtscp" \
               "xor eax, eax; cpuid; rdtscp" "rdtscp; lfence" "mfence; lfence; rdtsc; lfence"; do
        grep -qF "<td>$seq</td>" "$TEST_TMP/methods-icount.html" || missing="$missing [$seq]"
    done
    [ -z "$missing" ] && pass "icount: the HTML report lists each method's exact instruction sequence" ||
        fail "icount: report sequences" "missing$missing"
else
    fail "icount: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi

# ---- 2. no rdtscp: skipped, never executed -------------------------------------------
img=$(fresh_image methods-nordtscp)
boot methods-nordtscp "$img" --cpu qemu64 --options "sections=methods profile=quick methodsamples=10 injectfault=opcode injectin=method:rdtscp"
expect_rc 2 "no rdtscp: run-qemu exit 2 (the injected fault had no test to go into)"
expect_line '^methods: rdtscp no \(CPUID 0x80000001 EDX bit 27\): the four rdtscp methods are skipped, not executed$' \
    "no rdtscp: said once, with the CPUID bit"
for mth in rdtscp lfence+rdtscp cpuid+rdtscp rdtscp+lfence; do
    n=$(grep -cE "^  $(printf '%s' "$mth" | sed 's/+/\\+/g') +unsupported: skipped$" "$BOOT_LOG")
    [ "$n" = 7 ] && pass "no rdtscp: $mth skipped in the 6 targets and Paoloni" || fail "no rdtscp: $mth skipped" "$n rows"
done
expect_line '^warning: INJECTIN=method:rdtscp named no test that ran' "no rdtscp: a fault injected into method:rdtscp never fired (never executed)"
expect_no_line 'fault in method:rdtscp' "no rdtscp: no fault in the rdtscp method"
json=$TEST_TMP/methods-nordtscp.json
if esp_json "$img" "$json" && /usr/bin/python3 - "$json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["methods"]
rd = {"rdtscp", "lfence+rdtscp", "cpuid+rdtscp", "rdtscp+lfence"}
ok = m["cpu"]["rdtscp"] is False
for x in m["methods"]:
    ok &= (x["status"] == "unsupported" and x["status_code"] == -8 and not x["supported"] and "overhead" not in x) \
        if x["name"] in rd else (x["status"] == "ok" and len(x["overhead"]["samples"]) == 10)
for x in m["measurements"]:
    if x["method"] in rd:
        ok &= x["status"] == "unsupported" and "samples" not in x and "CPUID 0x80000001" in x["why"]
    else:
        ok &= x["status"] in ("ok", "too_short")
sys.exit(0 if ok else 1)
PY
then pass "no rdtscp: JSON says unsupported (-8), no timings, for the rdtscp methods only"
else fail "no rdtscp: JSON statuses" "$json"; fi

# ---- 3. a fault injected into method:rdtscp ----------------------------------------------
img=$(fresh_image methods-fault)
boot methods-fault "$img" --cpu max --options "sections=methods profile=quick methodsamples=10 injectfault=opcode injectin=method:rdtscp"
expect_rc 2 "fault: run-qemu exit 2 (completed with warnings)"
expect_line '^fault injection: opcode fault in method:rdtscp' "fault: injected into method:rdtscp"
expect_line '^warning: fault in method:rdtscp \(overhead\): #UD' "fault: the overhead of rdtscp failed with #UD"
expect_line '^warning: add10/rdtscp: fault \(#UD' "fault: add10/rdtscp failed, said why"
expect_line '^  rdtscp\+lfence +ok ' "fault: the other rdtscp methods still measured"
expect_line '^baremark: run ended, status 2' "fault: the run ended"
json=$TEST_TMP/methods-fault.json
if esp_json "$img" "$json" && /usr/bin/python3 - "$json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["methods"]
ok = all((x["status"] == "fault") == (x["method"] == "rdtscp") for x in m["measurements"] if x["target"] != "empty")
ok &= [x["status"] for x in m["methods"]].count("fault") == 1
sys.exit(0 if ok else 1)
PY
then pass "fault: JSON marks exactly the rdtscp work as fault"
else fail "fault: JSON statuses" "$json"; fi

# ---- 4. a fault injected into target:foo ------------------------------------------------
img=$(fresh_image methods-target)
boot methods-target "$img" --cpu qemu64 --options "sections=methods,compare profile=quick methodsamples=10 injectfault=divide injectin=target:foo"
expect_rc 2 "target fault: run-qemu exit 2"
expect_line '^fault injection: divide fault in target:foo' "target fault: injected into target:foo"
expect_line '^warning: foo/lfence\+rdtsc: fault \(#DE' "target fault: foo/lfence+rdtsc failed with #DE"
expect_line '^warning: compare foo vs foo: fault' "target fault: the Foo comparisons failed"
expect_line '^  verdict: A is faster than B \(95%, noise 1%\), as expected$' "target fault: add10 vs add100 still compared"
expect_line '^baremark: run ended, status 2' "target fault: the run ended"
