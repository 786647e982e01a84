#!/bin/sh
# tests/unit/test_plugin_host.sh - plug-ins in the hosted program (the .so
# path): build/host/baremark methods --plugin loads the example plug-ins'
# shared objects into the image's registry and lists them in the JSON (file,
# size, SHA-256 checked against sha256sum, routines, instruction counts);
# every bad plug-in is refused or taken out with its line while the rest goes
# on with status 2 (wrong version, sizes, no routines, duplicate and bad
# names, not a shared object, a failing setup, #UD/#GP/#PF/#DE as signals, a
# routine that never returns ended by --timeout).  No timed thresholds:
# only what the code fixes.
cd "$(dirname "$0")/../.." || exit 1
T=${TMPDIR:-/tmp}/test_plugin_host.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { if [ "$2" = 0 ]; then printf 'PASS: %s\n' "$1"; else printf 'FAIL: %s (%s)\n' "$1" "${3:-}"; fi; }
B=build/host/baremark
P=build/plugins
if ! make -s host plugins-examples > "$T/build.log" 2>&1; then
    echo "FAIL: could not build the host program and the plug-ins ($(tail -3 "$T/build.log" | tr '\n' ' '))"
    exit 1
fi
Q="--quick --samples 10 --iterations 1 --no-compare"

# ---- loading and listing -------------------------------------------------------------
"$B" methods $Q --no-methods --plugin $P/copy.so --plugin $P/chain.so --json "$T/good.json" > "$T/out" 2>&1; rc=$?
check "two good plug-ins: exit 0" $([ $rc = 0 ]; echo $?) "rc $rc: $(tail -3 "$T/out")"
check "the document is valid JSON with status 0" $(jq -e '.status == 0 and .ended == true' "$T/good.json" >/dev/null; echo $?)
check "plugins: both files loaded, none rejected, 5 routines ready" \
    $(jq -e '.plugins.loaded == 2 and .plugins.rejected == 0 and .plugins.routines_ready == 5' "$T/good.json" >/dev/null; echo $?) \
    "$(jq -c '.plugins | {loaded, rejected, routines_ready}' "$T/good.json")"
sum=$(sha256sum < $P/copy.so | cut -d' ' -f1)
check "copy.so: its size and SHA-256 as the file's" \
    $(jq -e --arg s "$sum" --argjson n "$(stat -c %s $P/copy.so)" \
        '.plugins.files[] | select(.file == "copy.so") | .sha256 == $s and .size == $n' "$T/good.json" >/dev/null; echo $?)
check "routines are named PLUGIN:ROUTINE" \
    $([ "$(jq -r '[.plugins.files[].routines[].target] | join(" ")' "$T/good.json")" = \
        "copy:rep_movsb copy:sse2 copy:loop8 chain:add100 chain:add1000" ]; echo $?) \
    "$(jq -r '[.plugins.files[].routines[].target] | join(" ")' "$T/good.json")"
check "chain's exact instruction counts travel with its routines (5 + 102/1002 per iteration)" \
    $(jq -e '[.plugins.files[] | select(.name == "chain") | .routines[] | [.instructions_fixed, .instructions_per_iteration]]
              == [[5, 102], [5, 1002]]' "$T/good.json" >/dev/null; echo $?)
# The declared counts against the code: one call with one iteration executes
# every instruction of the routine once (no nops: the padding after ret).
for k in 100 1000; do
    n=$(objdump -d --no-show-raw-insn --disassemble=chain_add$k $P/chain.so | grep -E '^ +[0-9a-f]+:' |
        awk '$2 != "nop" && $2 !~ /^(data16|cs)$/' | wc -l)
    adds=$(objdump -d --no-show-raw-insn --disassemble=chain_add$k $P/chain.so | grep -Ec '^ +[0-9a-f]+:\s+add ')
    check "chain_add$k's code has $k adds and 5 + $((k + 2)) instructions, as its table says" \
        $([ "$adds" = $k ] && [ "$n" = $((5 + k + 2)) ]; echo $?) "$adds adds, $n instructions"
done
check "copy's setup allocated its buffers through host->alloc (2 KiB and the pointers)" \
    $(jq -e '[.plugins.files[] | select(.name == "copy") | .routines[] | .setup and .memory_bytes >= 2048] | all' \
        "$T/good.json" >/dev/null; echo $?)
check "the text lists each file with its SHA-256" $(grep -q "^plugin copy.so: [0-9]* bytes, SHA-256 $sum" "$T/out"; echo $?)

"$B" methods $Q --no-methods --plugin $P/copy.so --plugin $P/branch.so --routines copy:sse2,branch \
    --json "$T/sel.json" > "$T/out" 2>&1; rc=$?
check "--routines selects: copy:sse2 and both of branch ready, the other two not selected" \
    $([ $rc = 0 ] && [ "$(jq -r '[.plugins.files[].routines[] | .target + "=" + .status] | join(" ")' "$T/sel.json")" = \
        "copy:rep_movsb=not_selected copy:sse2=ready copy:loop8=not_selected branch:branchy=ready branch:branchless=ready" ]; echo $?) \
    "rc $rc: $(jq -r '[.plugins.files[].routines[] | .target + "=" + .status] | join(" ")' "$T/sel.json")"
"$B" methods $Q --no-methods --plugin $P/copy.so --routines copy:nothing --json "$T/sel2.json" > "$T/out" 2>&1; rc=$?
check "--routines naming nothing: a warning, status 2" \
    $([ $rc = 1 ] && grep -q 'PLUGINROUTINES: "copy:nothing" names no routine' "$T/out" && jq -e '.status == 2' "$T/sel2.json" >/dev/null; echo $?) "rc $rc"

# ---- bad plug-ins: each refused with its line; the good one still loaded ----------------
printf 'not a shared object\n' > "$T/text.so"
"$B" methods $Q --no-methods --plugin $P/bad/version.so --plugin $P/bad/sizes.so --plugin $P/bad/empty.so \
    --plugin $P/bad/dupnames.so --plugin $P/bad/badname.so --plugin "$T/text.so" --plugin $P/chain.so \
    --plugin "$T/missing.so" --json "$T/bad.json" > "$T/out" 2>&1; rc=$?
check "bad plug-ins: the run completes with status 2 (exit 1)" \
    $([ $rc = 1 ] && jq -e '.status == 2 and .ended == true' "$T/bad.json" >/dev/null; echo $?) "rc $rc"
line() { # WHAT REGEX
    check "$1" $([ "$(grep -Ec "$2" "$T/out")" = 1 ]; echo $?) "$(grep -E '^warning' "$T/out" | tr '\n' '|')"
}
line "wrong interface version: one line naming the file" \
    '^warning: plugin version\.so: interface version 2, this baremark reads version 1: .*; skipped$'
line "wrong struct sizes: one line" '^warning: plugin sizes\.so: struct sizes 48 and 64, .*; skipped$'
line "zero routines: one line" '^warning: plugin empty\.so: no routines \(count 0\).*; skipped$'
line "duplicate routine names: one line naming the name" \
    '^warning: plugin dupnames\.so: two routines are named "twice".*; skipped$'
line "a bad routine name: one line" '^warning: plugin badname\.so: the name of routine 1 has a character .*; skipped$'
line "not a shared object: one line" '^warning: plugin text\.so: not a loadable shared object .*; skipped$'
line "a missing file: one line" '^warning: plugin missing\.so: cannot read .*; skipped$'
check "bad.json: 1 loaded, 7 rejected, each with its why; chain's 2 routines ready" \
    $(jq -e '.plugins.loaded == 1 and .plugins.rejected == 7 and .plugins.routines_ready == 2
             and ([.plugins.files[] | select(.status == "rejected") | .why | length > 0] | all)' "$T/bad.json" >/dev/null; echo $?) \
    "$(jq -c '.plugins | {loaded, rejected, routines_ready}' "$T/bad.json")"

# ---- faults and a routine that never returns ------------------------------------------------
"$B" methods $Q --no-methods --plugin $P/bad/faults.so --plugin $P/bad/setupfail.so --plugin $P/bad/hang.so \
    --timeout 1 --json "$T/faults.json" > "$T/out" 2>&1; rc=$?
check "faulting routines: the program survives, status 2 (exit 1)" \
    $([ $rc = 1 ] && jq -e '.status == 2 and .ended == true' "$T/faults.json" >/dev/null; echo $?) "rc $rc: $(tail -2 "$T/out")"
line "#UD: faults:ud taken out as SIGILL" '^warning: plugin faults\.so: routine faults:ud .*ILL: invalid instruction \(#UD on bare metal\).*; not timed$'
line "#GP: faults:gp taken out as SIGSEGV" '^warning: plugin faults\.so: routine faults:gp .*SEGV: invalid memory reference.*; not timed$'
line "#PF: faults:pf taken out as SIGSEGV at the address it read" \
    '^warning: plugin faults\.so: routine faults:pf .*SEGV: invalid memory reference .* at address 0xffff800000000000; not timed$'
line "#DE: faults:de taken out as SIGFPE" '^warning: plugin faults\.so: routine faults:de .*FPE: arithmetic exception \(#DE on bare metal\).*; not timed$'
line "a failing setup: setupfail:nomem taken out" '^warning: plugin setupfail\.so: routine setupfail:nomem setup returned 1; not timed$'
line "a routine that never returns: ended by the watchdog after 1 s" \
    '^warning: plugin hang\.so: routine hang:forever .*did not return within 1 s.*; not timed$'
check "faults.json: each bad routine's status and why; the ok routines ready" \
    $([ "$(jq -r '[.plugins.files[].routines[] | .target + "=" + .status] | join(" ")' "$T/faults.json")" = \
        "faults:ok=ready faults:ud=fault faults:gp=fault faults:pf=fault faults:de=fault setupfail:ok=ready setupfail:nomem=setup_failed hang:ok=ready hang:forever=fault" ]; echo $?) \
    "$(jq -r '[.plugins.files[].routines[] | .target + "=" + .status] | join(" ")' "$T/faults.json")"

# ---- usage ------------------------------------------------------------------------------------
"$B" methods --routines copy:sse2 > "$T/out" 2>&1; rc=$?
check "--routines without --plugin: usage error, exit 2" $([ $rc = 2 ]; echo $?) "rc $rc"
"$B" methods --plugin > "$T/out" 2>&1; rc=$?
check "--plugin without a file: usage, exit 2" $([ $rc = 2 ]; echo $?) "rc $rc"

# ---- measured like built-in targets -------------------------------------------------------
"$B" methods --quick --samples 20 --iterations 4 --no-compare --plugin $P/chain.so --plugin $P/branch.so \
    --routines chain,branch:branchless --json "$T/m.json" > "$T/mout" 2>&1; rc=$?
check "methods --plugin: exit 0 or 1 (1: a host measurement came out unusable), the document complete" \
    $([ $rc -le 1 ] && jq -e '.ended == true' "$T/m.json" >/dev/null; echo $?) "rc $rc: $(tail -3 "$T/mout")"
check "the document validates against the schema" $("$B" validate "$T/m.json" > "$T/v" 2>&1; echo $?) "$(cat "$T/v")"
nm=$(jq '[.methods.methods[].name] | length' "$T/m.json")
for t in chain:add100 chain:add1000 branch:branchless; do
    check "$t: measured with every method ($nm), named PLUGIN:ROUTINE/METHOD" \
        $(jq -e --arg t "$t" --argjson n "$nm" '[.methods.measurements[] | select(.target == $t)] as $m
              | ($m | length) == $n and ([$m[] | .name == ($t + "/" + .method)] | all)' "$T/m.json" >/dev/null; echo $?) \
        "$(jq -c --arg t "$t" '[.methods.measurements[] | select(.target == $t) | .method]' "$T/m.json")"
    check "$t: every measurement with good samples carries the three estimators and the net summary" \
        $(jq -e --arg t "$t" '[.methods.measurements[] | select(.target == $t and .samples)
              | (.per_iteration | (.minus_placeholder|type) == "number" and (.apple|type) == "number"
                 and (.n_vs_2n|type) == "number") and (.net.median|type) == "number"] | (length > 0 and all)' \
              "$T/m.json" >/dev/null; echo $?)
done
check "branch:branchy was not selected: neither set up nor measured" \
    $(jq -e '([.methods.measurements[] | select(.target == "branch:branchy")] | length) == 0 and
              ([.plugins.files[].routines[] | select(.target == "branch:branchy") | .status] == ["not_selected"])' \
        "$T/m.json" >/dev/null; echo $?)
check "chain's measurements carry its instruction counts (5 and 102 / 1002)" \
    $(jq -e '[.methods.measurements[] | select(.target | startswith("chain:"))
              | [.target, .instructions_fixed, .instructions_per_iteration]] | unique
              == [["chain:add100", 5, 102], ["chain:add1000", 5, 1002]]' "$T/m.json" >/dev/null; echo $?)
check "each routine has its extended profile" \
    $(jq -e '[.methods.extended_profiles[].routine] | sort == ["branch:branchless", "chain:add100", "chain:add1000"]' \
        "$T/m.json" >/dev/null; echo $?) "$(jq -c '[.methods.extended_profiles[]?.routine]' "$T/m.json")"
check "the text names each routine's measurements" \
    $(grep -q '^target chain:add1000: 1000 dependent adds per iteration (NASM); 5 + 1002/iteration instructions' "$T/mout"; echo $?)

# ---- compare --plugin: Karsh's A/B and the A/A control ------------------------------------
"$B" compare --plugin $P/copy.so rep_movsb copy:sse2 --quick --accuracy 50 --json "$T/c.json" > "$T/cout" 2>&1; rc=$?
check "compare --plugin: the document complete, validated" \
    $([ $rc -le 1 ] && jq -e '.ended == true' "$T/c.json" >/dev/null && "$B" validate "$T/c.json" >/dev/null 2>&1; echo $?) \
    "rc $rc: $(tail -3 "$T/cout")"
check "the A/B: copy:rep_movsb vs copy:sse2 with its statistics and a verdict" \
    $(jq -e '[.comparisons.comparisons[] | select(.name == "copy:rep_movsb vs copy:sse2")] | length == 1 and
              (.[0] | .status == "ok" and .accuracy == 50 and (.a.samples | length) == 50 and (.b.samples | length) == 50
               and (.z|type) == "number" and (.welch_p|type) == "number" and (.mann_whitney_p|type) == "number"
               and (.verdict | IN("faster", "slower", "no difference")))' "$T/c.json" >/dev/null; echo $?) \
    "$(jq -c '[.comparisons.comparisons[] | {name, status, verdict}]' "$T/c.json")"
check "the A/A control of A: one routine, order drawn per trial (as the methods A/A), the paired test; expects no difference, as_expected exactly when the verdict says so" \
    $(jq -e '[.comparisons.comparisons[] | select(.name == "copy:rep_movsb vs copy:rep_movsb")] | length == 1 and
              (.[0] | .expect == "no difference" and .as_expected == (.verdict == "no difference") and .order == "random"
               and .paired.test == "wilcoxon_signed_rank" and .paired.pairs == 50 and .paired.exact
               and (.paired.p >= 0 and .paired.p <= 1) and (.paired.mean_diff|type) == "number")' "$T/c.json" >/dev/null; echo $?)
aa=$(jq -r '.comparisons.comparisons[] | select(.name == "copy:rep_movsb vs copy:rep_movsb") | .as_expected' "$T/c.json")
check "a control that came out wrong is a warning and status 2; a right one leaves status as the rest" \
    $(if [ "$aa" = false ]; then grep -q 'compare copy:rep_movsb vs copy:rep_movsb: the verdict is' "$T/cout" &&
        jq -e '.status == 2' "$T/c.json" >/dev/null; else ! grep -q 'compare copy:rep_movsb vs copy:rep_movsb: the verdict is' "$T/cout"; fi; echo $?)
check "only A and B were set up (loop8 not selected)" \
    $(jq -e '[.plugins.files[].routines[] | .status] == ["ready", "ready", "not_selected"]' "$T/c.json" >/dev/null; echo $?)
"$B" compare --plugin $P/copy.so --plugin $P/chain.so nothing sse2 > "$T/cout" 2>&1; rc=$?
check "compare --plugin with an unknown routine: exit 2, named" \
    $([ $rc = 2 ] && grep -q 'no routine named nothing in the plug-ins loaded' "$T/cout"; echo $?) "rc $rc: $(tail -2 "$T/cout")"
"$B" compare --plugin $P/bad/faults.so ok ud --quick --accuracy 10 --json "$T/cf.json" > "$T/cout" 2>&1; rc=$?
check "compare with a faulting routine: it is named, nothing compared with it, status 2" \
    $([ $rc = 1 ] && grep -q 'routine faults:ud .*ILL' "$T/cout" && jq -e '.status == 2' "$T/cf.json" >/dev/null; echo $?) \
    "rc $rc: $(grep -i warn "$T/cout" | head -3)"

# ---- diff on two hosted plug-in runs ----------------------------------------------
"$B" diff "$T/m.json" "$T/m.json" > "$T/cr0.txt"
check "diff of a plug-in run with itself: a routine row per routine, ratio 1, no difference" \
    $([ "$(grep -Ec '^routine +(chain:add100|chain:add1000|branch:branchless) +ns/iteration .* 1\.0000 .* no difference$' "$T/cr0.txt")" = 3 ]; echo $?) \
    "$(grep '^routine' "$T/cr0.txt")"

# ---- diff: plug-in routines side by side ----------------------------------------
# A: the fixture run with its add10 measurement renamed chain:add10 (a plug-in
# routine); B: the same with every timing 3 ticks more and a 20% slower clock.
# Expected figures computed independently with scipy from the net samples.
G=tests/fixtures/run-guess.json
jq '(.methods.measurements[] | select(.target == "add10")) |= (.target = "chain:add10" | .name = "chain:add10/" + .method)' \
    $G > "$T/ra.json"
jq '(.methods.measurements[] | select(.target == "chain:add10" and .samples)) |= (.samples |= map(. + 3))
    | .clock.chosen_khz *= 0.8 | .name = "B"' "$T/ra.json" > "$T/rb.json"
"$B" diff --json "$T/ra.json" "$T/rb.json" > "$T/cr.json"; rc=$?
check "diff with a plug-in routine: exit 0" $([ $rc = 0 ]; echo $?) "rc $rc"
/usr/bin/python3 - "$T/ra.json" "$T/rb.json" "$T/cr.json" > "$T/py" 2>&1 <<'PY'
import json, sys, statistics
from scipy import stats
a, b, got = (json.load(open(p)) for p in sys.argv[1:4])
def net(run):
    m = [m for m in run["methods"]["measurements"] if m["target"] == "chain:add10"][0]
    k = run["clock"]["chosen_khz"]
    return [(s - m["placeholder_median"]) / m["iterations"] * 1e6 / k for s in m["samples"]], m["method"]
(na, meth), (nb, _) = net(a), net(b)
it = [i for i in got["items"] if i["name"] == "chain:add10"]
bad = []
if len(it) != 1:
    bad.append(f"{len(it)} items for chain:add10")
else:
    it = it[0]
    w = stats.ttest_ind(na, nb, equal_var=False).pvalue
    u = stats.mannwhitneyu(na, nb, method="asymptotic", use_continuity=True).pvalue
    ma, mb = statistics.median(na), statistics.median(nb)
    close = lambda x, y: abs(x - y) <= 1e-6 * max(abs(x), abs(y), 1e-300)
    if it["kind"] != "routine": bad.append("kind " + it["kind"])
    if it["method"] != meth: bad.append("method " + it["method"])
    if it["unit"] != "ns/iteration": bad.append("unit " + it["unit"])
    if not close(it["a"], ma) or not close(it["b"], mb): bad.append(f"medians {it['a']} {it['b']} want {ma} {mb}")
    if not close(it["ratio"], ma / mb): bad.append(f"ratio {it['ratio']} want {ma / mb}")
    if not close(it["welch_p"], w) or not close(it["mann_whitney_p"], u):
        bad.append(f"p {it['welch_p']} {it['mann_whitney_p']} want {w} {u}")
    want = "no difference" if not (w < 0.05 and u < 0.05 and abs(ma - mb) > 0.01 * mb) else ("A faster" if ma < mb else "A slower")
    if it["verdict"] != want: bad.append(f"verdict {it['verdict']} want {want}")
print("; ".join(bad) or "ok")
PY
check "diff: the routine's net ns per iteration, ratio, p-values and verdict match scipy" \
    $(grep -qx ok "$T/py"; echo $?) "$(cat "$T/py")"
"$B" diff "$T/ra.json" "$T/rb.json" > "$T/cr.txt"
check "diff text: a routine line for chain:add10 (with its method in brackets)" \
    $(grep -Eq '^routine +chain:add10 \[lfence\+rdtsc\] +ns/iteration ' "$T/cr.txt"; echo $?) "$(grep chain "$T/cr.txt")"
check "diff text: the comparisons present in both runs with each run's verdict, ratio, interval and deciding p" \
    $(grep -Eq '^Foo vs Foo +no difference: [AB]/[AB] [0-9.e+-]+x \[[0-9.e+-]+, [0-9.e+-]+\], p [=<] [0-9.e+-]+ +no difference: [AB]/[AB] [0-9.e+-]+x \[[0-9.e+-]+, [0-9.e+-]+\], p [=<] [0-9.e+-]+ +same verdict$' "$T/cr.txt"; echo $?) \
    "$(grep -A3 'A/B comparisons' "$T/cr.txt")"
"$B" diff --method rdtscp "$T/ra.json" "$T/rb.json" > "$T/cr2.txt"
check "diff --method: a method without samples in both says so" \
    $(grep -Eq '^routine +chain:add10 .* method not good in both$' "$T/cr2.txt"; echo $?) "$(grep chain "$T/cr2.txt")"
