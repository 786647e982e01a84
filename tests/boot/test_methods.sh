#!/bin/bash
# Boot test: the timing methods, the engine and Karsh's A/B in the image.
#
# 1. QEMU -icount shift=0, -cpu max (has rdtscp): every instruction advances
#    the TSC by exactly one tick, so figures are exact.  Measured here (and
#    derived from bench/methods/methods.asm): the difference of two counter reads is
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
# 1b. plain TCG: the A/A null check (issue 14.1) and N grown for add10
#    (issue 14.2), see below.
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
expect_line '^  lfence\+rdtsc +ok +0/0 +12\.300 +12\.000 +12\.000 +12\.300 +0\.000( +[0-9.]+)? +10 +[0-9.]+$' "icount: add10 x 10 with lfence+rdtsc nets 12.3 / 12 / 12, N used 10"
expect_line '^methods: A/A check: the placeholder against itself \(one routine at one address\), lfence\+rdtsc, 100 measurements of 20 pairs x 10, order drawn per pair: signed-rank p < 0\.05 in 0 ' "icount: the A/A check ran"
expect_line '^methods: placement check: no effect of code placement seen' "icount: two copies of ret at different addresses take the same instructions: no placement effect"
expect_line '^profile of strlen with every supported method \(9 good\): best \(min T - min P\)/N [0-9.]+ ticks/iteration with rdtscp; fastest \(mean T - mean P\)/N [0-9.]+ with rdtscp \(ties: smaller placeholder minimum, then table order\)$' "icount: the profile's best by one estimator, ties to the smallest placeholder (rdtscp, rdtsc), then the earlier (rdtscp)"
expect_line '^compare foo vs foo \(order check' "icount: Foo vs Foo (ABAB, the order check) ran"
expect_line '^compare foo vs foo \(random order\) \(A/A: one routine at one address' "icount: the A/A, Foo vs Foo with the order drawn per trial, ran"
expect_line '^  paired \(A - B in each trial\): mean \+0\.00 \+- 0\.00, median \+0\.00 ticks; Wilcoxon signed-rank p 1 \(exact\)$' "icount: the A/A's paired test: every trial's A - B is 0, p exactly 1"
expect_line '^  A - B: means 0\.00 \(\+0\.000%\), modes 0\.00 \(\+0\.000%\), medians 0\.00' "icount: Foo vs Foo differs by exactly 0"
expect_line '^  verdict: A is faster than B \(95%: Mann-Whitney p [=<] [0-9.e+-]+ decides, noise 1%\), as expected$' "icount: add10 vs add100: A faster"
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
    # issue 23.10: each series' fence is its median plus one allowance (0 spread: 1.5 counter steps);
    # the untruncated passes kept (nothing retaken: equal to the kept ones)
    need(x["calibration_fence"] == x["placeholder_min"] + x["fence_above_median"] and
         x["benchmark_fence"] == x["routine_min"] + x["fence_above_median"] and x["fence_above_median"] == 1.5,
         x["name"] + " fences at each median + 1.5")
    # issue 23.8: the order of each pair drawn; the paired test on constant timings
    pd = x["paired"]
    need(x["order"] == "random" and 0 < x["routine_first"] < 20 and pd["pairs"] == 20 and pd["exact"]
         and pd["mean_diff"] == x["routine_min"] - x["placeholder_min"], x["name"] + " paired %s" % pd)
    need(x["samples_untruncated"] == x["samples"] and x["placeholder_samples_untruncated"] == x["placeholder_samples"],
         x["name"] + " untruncated passes kept")
    # issue 14.2: N used reported; every net time here spans 100+ steps of 1 tick at N = 10, except
    # empty, whose time does not grow with N: N stays as asked everywhere
    # no clock section in this run: no measured step, and no two probe timings differ: 1 assumed
    need(x["iterations"] == N and x["iterations_requested"] == N and x["counter_step_ticks"] == 1
         and x["counter_step_source"] == "assumed" and not x["counter_step_measured"],
         x["name"] + " N used %s, asked %s, step %s" %
         (x["iterations"], x["iterations_requested"], x["counter_step_ticks"]))
    need(("does not grow" in x["iterations_why"]) == (t == "empty"), x["name"] + " why " + x["iterations_why"])
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
# issue 14.5: every method ties on strlen; the tie goes to the smallest placeholder (8 ticks: rdtscp
# and rdtsc, a bare counter read each), then to the earlier in the table (rdtscp, CodeTune's 4)
ep = m["extended_profile"]
sl = [x for x in m["measurements"] if x["target"] == "strlen"]
need(ep["best_method"] == "rdtscp" and ep["fastest_mean_method"] == "rdtscp", "profile picks %s/%s" %
     (ep["best_method"], ep["fastest_mean_method"]))
need(ep["best_ticks"] == sl[0]["per_iteration"]["minus_placeholder"] == ep["fastest_mean_ticks"], "profile best %s" % ep)
need(sorted(x["method"] for x in sl if x["placeholder_min"] == min(y["placeholder_min"] for y in sl)) == ["rdtsc", "rdtscp"]
     and min(x["placeholder_min"] for x in sl) == 8, "rdtscp and rdtsc have the smallest placeholder")
# the A/A null check: constant timings tie, every p is 1, never told apart
for key in ("null_check", "placement_check"):
    nc = m[key]
    need(nc["measured"] == nc["measurements"] == nc["exact"] == 100 and nc["paired_p"] == [1] * 100
         and nc["mann_whitney_p"] == [1] * 100 and nc["effect_ticks"] == [0] * 100 and nc["told_apart"] == 0
         and nc["p_below_0_05"] == 0 and nc["false_positives_within_bound"] and not nc["spread_even"]
         and nc["same_address"] == (key == "null_check") and nc.get("placement_seen", False) is False,
         "%s %s" % (key, {k: v for k, v in nc.items() if not isinstance(v, list)}))
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
    # validate checks the new members (issue 14.1, 14.2, 14.5, the null check): each plant is named
    for plant in "fence|calibration_fence 1 is not the first pass's median" \
                 "kept|lies above the fence" \
                 "raw|only a timing above the fence is retaken" \
                 "iters|neither iterations_requested" \
                 "best|best_method cpuid+rdtsc" \
                 "null|p_below_0_05" ; do
        what=${plant%%|*} msg=${plant#*|}
        /usr/bin/python3 - "$json" "$TEST_TMP/methods-plant-$what.json" "$what" <<'PY2'
import json, sys
d = json.load(open(sys.argv[1]))
m, what = d["methods"], sys.argv[3]
x = [e for e in m["measurements"] if e["name"] == "add10/lfence+rdtsc"][0]
if what == "fence":
    x["calibration_fence"] = 1
elif what == "kept":
    x["samples"][3] = int(x["benchmark_fence"]) + 5
    x["samples_untruncated"][3] = int(x["benchmark_fence"]) + 5
elif what == "raw":
    x["samples_untruncated"][2] -= 1
elif what == "iters":
    x["iterations"] = 30
elif what == "best":
    m["extended_profile"]["best_method"] = "cpuid+rdtsc"
elif what == "null":
    m["null_check"]["p_below_0_05"] = 7
json.dump(d, open(sys.argv[2], "w"))
PY2
        if "$B" validate "$TEST_TMP/methods-plant-$what.json" > "$TEST_TMP/methods-plant-$what.out" 2>&1; then
            fail "validate: planted $what is an error" "accepted"
        elif grep -qF "$msg" "$TEST_TMP/methods-plant-$what.out"; then
            pass "validate: planted $what is an error, named ($msg)"
        else
            fail "validate: planted $what named" "$(tr '\n' '|' < "$TEST_TMP/methods-plant-$what.out")"
        fi
    done
    "$B" report "$json" -o "$TEST_TMP/methods-icount.html" > /dev/null 2>&1
    grep -q '<table id="methods-null-check">' "$TEST_TMP/methods-icount.html" &&
        grep -q '<p id="methods-profile">Extended profile of strlen: best [0-9.]* ticks/iteration with rdtscp ((min T - min P) / N)' "$TEST_TMP/methods-icount.html" &&
        pass "icount: the report shows the profile's estimator and the A/A null check" ||
        fail "icount: report profile and null check" "$TEST_TMP/methods-icount.html"
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

# ---- 1b. TCG (real noise, a coarse counter): identical code is not told apart --------------
# Issue 23.8: the A/A check measures the placeholder against itself -- one routine at one address --
# as two targets, the order of each pair drawn by a coin, 100 times, each with Wilcoxon's signed-rank
# test (exact sign-flip distribution) on the 100 pairs.  The labels are bookkeeping only, so each
# p is uniform or (ties on TCG's 21-tick grid) conservative, and the 100 measurements are independent
# given the coins: p < 0.05 in at most Bin(100, 0.05)'s 99.9% quantile, 13 (scipy), is asserted here,
# whatever TCG does.  (Before, empty against the placeholder -- two copies at different addresses,
# placeholder always first, Mann-Whitney -- gave 1 to 34 of 100 from boot to boot: placement and
# order, not chance.)  The placement check (empty against the placeholder, the same way) is printed,
# not asserted: a placement effect is a property of the machine.  Issue 14.2: add10 (12 instructions
# at N = 1) grows N until its net time spans 100 counter steps, and is told apart with every method.
img=$(fresh_image methods-aa)
BOOT_TIMEOUT=400 boot methods-aa "$img" --cpu max --options "sections=methods profile=quick"
expect_rc 0 "TCG A/A: run-qemu exit 0"
expect_line '^methods: A/A null check: identical code is not told apart more often than chance allows' \
    "TCG A/A: the image finds identical code not told apart more often than chance allows"
expect_line '^methods: placement check: (no effect of code placement seen|code placement alone moves timings here)' \
    "TCG A/A: the placement check states its finding, labelled as such"
json=$TEST_TMP/methods-aa.json
if esp_json "$img" "$json"; then
    "$B" validate "$json" > "$TEST_TMP/methods-aa.validate" 2>&1 &&
        pass "TCG A/A: baremark validate accepts the section (fences, N, profile, null check consistent)" ||
        fail "TCG A/A: validate" "$(tr '\n' '|' < "$TEST_TMP/methods-aa.validate")"
    if /usr/bin/python3 - "$json" > "$TEST_TMP/methods-aa.py" 2>&1 <<'PY2'
import json, sys
from scipy.stats import binom
m = json.load(open(sys.argv[1]))["methods"]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
for key in ("null_check", "placement_check"):
    nc = m[key]
    ps = nc["paired_p"]
    n = len(ps)
    b05, b5 = sum(p < 0.05 for p in ps), sum(p < 0.5 for p in ps)
    bound, lo, hi = binom.ppf(0.999, n, 0.05), binom.ppf(0.0005, n, 0.5), binom.ppf(0.9995, n, 0.5)
    print("# %s: %d measurements, signed-rank p < 0.05 in %d (bound %d), p < 0.5 in %d (band %d..%d), effect %+.3f "
          "+- %.3f ticks, Mann-Whitney p < 0.05 in %d" % (key, n, b05, bound, b5, lo, hi, nc["effect_mean"],
                                                          nc["effect_half95"], nc["mann_whitney_below_0_05"]))
    print("# %s deciles of p: %s" % (key, [sum(1 for p in ps if k / 10 <= p < (k + 1) / 10 or (k == 9 and p == 1))
                                          for k in range(10)]))
    need(n == 100, "%s measured %d of 100" % (key, n))
    if key == "null_check":
        need(b05 <= bound, "A/A: signed-rank p < 0.05 in %d of %d, above the 99.9%% binomial bound %d" % (b05, n, bound))
for x in m["measurements"]:
    if x["status"] == "unsupported":
        continue
    need(len(x["samples_untruncated"]) == len(x["samples"]) == 100, x["name"] + ": untruncated samples kept")
    need(max(x["samples"]) <= x["benchmark_fence"] and max(x["placeholder_samples"]) <= x["calibration_fence"],
         x["name"] + ": a kept sample above its fence")
    if x["target"] == "add10":
        need(x["status"] == "ok", "%s: %s (%s)" % (x["name"], x["status"], x.get("why")))
        need(x["iterations"] > x["iterations_requested"] == 1 and x["iterations_why"].startswith("grown"),
             "%s: N %d asked %d (%s)" % (x["name"], x["iterations"], x["iterations_requested"], x["iterations_why"]))
        print("# %s: N %d, %s, Mann-Whitney p %.3g" % (x["name"], x["iterations"], x["iterations_why"], x["mann_whitney_p"]))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY2
    then pass "TCG A/A: 100 A/A measurements, signed-rank p < 0.05 within the binomial bound; kept samples within their fences; add10 grows N and is told apart"
    else fail "TCG A/A: figures" "$(grep -v '^#' "$TEST_TMP/methods-aa.py" | head -5 | tr '\n' '|')"; fi
    grep '^#' "$TEST_TMP/methods-aa.py"
    # the report shows, per measurement, how many untruncated first-pass timings lay above the fence
    "$B" report "$json" -o "$TEST_TMP/methods-aa.html" > /dev/null 2>&1
    want=$(/usr/bin/python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["methods"]
for x in m["measurements"]:
    if "benchmark_fence" in x:
        ft, fp = x["benchmark_fence"], x["calibration_fence"]
        print("%d / %d of %d" % (sum(v > ft for v in x["samples_untruncated"]),
                                 sum(v > fp for v in x["placeholder_samples_untruncated"]), len(x["samples_untruncated"])))' "$json")
    got=$(grep -o '<td class="n">[0-9]* / [0-9]* of [0-9]*</td>' "$TEST_TMP/methods-aa.html" | sed 's/<[^>]*>//g')
    [ -n "$want" ] && [ "$want" = "$got" ] &&
        pass "TCG A/A: the report counts the untruncated timings above each measurement's fence" ||
        fail "TCG A/A: report's untruncated counts" "want $(echo $want | head -c 80), got $(echo $got | head -c 80)"
else
    fail "TCG A/A: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
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
expect_line '^  verdict: A is faster than B \(95%: Mann-Whitney p [=<] [0-9.e+-]+ decides, noise 1%\), as expected$' "target fault: add10 vs add100 still compared"
expect_line '^baremark: run ended, status 2' "target fault: the run ended"
