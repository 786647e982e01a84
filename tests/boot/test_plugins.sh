#!/bin/bash
# Boot test: your own routines as plug-ins in the image (bench/plugins/plugins_section.c,
# bench/plugins/plugins.c), built here with tools/baremark-plugin and copied onto an
# image copy with mcopy into ::/baremark/plugins.
#
# 1. QEMU -icount shift=0 (one instruction = one tick; see test_methods.sh for
#    the arithmetic), one boot with the example add chains and every bad
#    plug-in at once.  plugins/examples/chain's routines execute 5 + N (K + 2)
#    instructions (K = 100, 1000), so for every method: T(N) - P(N) = 4 +
#    N (K + 2); Apple's and the N vs 2N estimates are exactly K + 2; and
#    add1000 minus add100 is 900 ticks per iteration with every method and
#    every estimator.  COMPARE=chain:add100,chain:add1000: Karsh's timing of
#    100 calls is 5 + 100 x 102 - 1 = 10204 ticks for A and 100204 for B
#    after the overhead, A is faster; the A/A control of chain:add100
#    differs by exactly 0.  Bad files: not a UEFI image, truncated, wrong
#    version, wrong sizes, no routines, duplicate names, a bad name, a
#    failing setup, routines raising #UD, #GP, #PF and #DE, a fault injected
#    while a routine is timed, a COMPARE naming an unknown routine: each
#    gives its line naming the file (and routine), the rest is measured,
#    status 2.
# 2. A routine that never returns (tests/fixtures/plugins/hang.c), without
#    -icount (the watchdog counts seconds): the probe call with the watchdog
#    armed for 1 s resets the machine (QEMU -no-reboot exits: run-qemu 3, no
#    final line) after the results so far were written, leaving the marker
#    naming it.  The next boot of the same image names the routine and the
#    run it hung in, skips it, measures hang:ok and ends with status 2.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1
PL=$TEST_TMP/plugins-build
mkdir -p "$PL"

esp_json() {   # esp_json IMAGE OUT: the run's JSON results file
    local f
    f=$(esp_ls "$1" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
    [ -n "$f" ] && esp_cat "$1" "baremark/$f" > "$2"
}

# ---- the plug-ins, built as a user would ------------------------------------------------
build_ok=1
"$TOP/tools/baremark-plugin" build "$TOP"/plugins/examples/chain/chain.c "$TOP"/plugins/examples/chain/chain.asm \
    -o "$PL/chain.efi" > "$PL/build.log" 2>&1 || build_ok=0
for f in version sizes empty dupnames badname setupfail faults hang; do
    "$TOP/tools/baremark-plugin" build --no-check "$TOP/tests/fixtures/plugins/$f.c" -o "$PL/$f.efi" \
        >> "$PL/build.log" 2>&1 || build_ok=0
done
printf 'this is not a UEFI image\n' > "$PL/junk.efi"
head -c 3000 "$PL/chain.efi" > "$PL/trunc.efi"
[ $build_ok = 1 ] && pass "tools/baremark-plugin built the example and the bad plug-ins" ||
    fail "building the plug-ins" "$(tail -3 "$PL/build.log" | tr '\n' '|')"

put_plugins() {   # put_plugins IMAGE FILE...
    local img=$1
    shift
    mmd -i "$img@@1M" ::/baremark/plugins 2>/dev/null
    mcopy -o -i "$img@@1M" "$@" ::/baremark/plugins/
}

# ---- 1. good and bad plug-ins at once, exact figures under -icount -----------------------
img=$(fresh_image plugins-icount)
put_plugins "$img" "$PL"/chain.efi "$PL"/version.efi "$PL"/sizes.efi "$PL"/empty.efi "$PL"/dupnames.efi \
    "$PL"/badname.efi "$PL"/setupfail.efi "$PL"/faults.efi "$PL"/junk.efi "$PL"/trunc.efi
BOOT_TIMEOUT=600 boot plugins-icount "$img" --icount --cpu max --options \
    "sections=plugins,methods,compare profile=quick methoditerations=10 methodsamples=20 compare=chain:add100,chain:add1000;chain:nothing,chain:add100 injectfault=opcode injectin=target:faults:ok"
expect_rc 2 "icount: run-qemu exit 2 (completed with warnings: the bad plug-ins)"
expect_line '^plugins: 10 files named \*\.efi in \\baremark\\plugins$' "icount: the ten files are found"
expect_line '^warning: plugin junk\.efi: not a UEFI image: no "MZ" signature at its start; skipped$' "icount: not a UEFI image"
expect_line '^warning: plugin trunc\.efi: truncated: 3000 bytes, its headers and sections need [0-9]+; skipped$' "icount: truncated"
expect_line '^warning: plugin version\.efi: interface version 2, this baremark reads version 1' "icount: wrong interface version"
expect_line '^warning: plugin sizes\.efi: struct sizes 48 and 64, version 1 has 48 and 56' "icount: wrong struct sizes"
expect_line '^warning: plugin empty\.efi: no routines \(count 0\)' "icount: zero routines"
expect_line '^warning: plugin dupnames\.efi: two routines are named "twice"' "icount: duplicate names"
expect_line '^warning: plugin badname\.efi: the name of routine 1 has a character other than' "icount: a bad routine name"
expect_line '^warning: plugin setupfail\.efi: routine setupfail:nomem setup returned 1; not timed$' "icount: a failing setup"
for v in 'ud:#UD invalid opcode' 'gp:#GP general protection' 'pf:#PF page fault' 'de:#DE divide error'; do
    expect_line "^warning: plugin faults\.efi: routine faults:${v%%:*} faulted when called once \(.*\): ${v#*:}" \
        "icount: faults:${v%%:*} raises ${v#*:} and is taken out"
done
expect_line '^warning: plugin faults\.efi: routine faults:ok faulted while timed: #UD' "icount: a fault while timed names file and routine"
expect_line '^plugin chain\.efi: [0-9]+ bytes, SHA-256 [0-9a-f]{64}$' "icount: the file is listed with size and SHA-256"
expect_line '^  chain:add1000 +1000 dependent adds per iteration \(NASM\); 5 \+ 1002/iteration instructions; ready$' \
    "icount: each routine with its description and instruction counts"
expect_line '^warning: COMPARE: "chain:nothing" names no routine' "icount: COMPARE naming an unknown routine"
expect_line '^compare chain:add100 vs chain:add1000 \(' "icount: COMPARE ran the A/B"
expect_line '^compare chain:add100 vs chain:add100 \(' "icount: ... and the A/A control for A"
expect_line '^plugin faults\.efi: loaded at 0x[0-9a-f]+ \([0-9]+ bytes in memory\)$' "icount: where each plug-in was loaded"
expect_line '^plugins: teardown done; 3 of 3 plug-in images unloaded$' "icount: teardown, then UnloadImage of the three loaded plug-ins"
expect_line '^baremark: run ended, status 2' "icount: the run ended"
json=$TEST_TMP/plugins-icount.json
if esp_json "$img" "$json"; then
    pass "icount: results JSON on the ESP"
    "$B" validate "$json" > "$TEST_TMP/plugins-icount.validate" 2>&1 &&
        pass "icount: baremark validate accepts the plugins, methods and comparisons sections" ||
        fail "icount: validate" "$(tr '\n' '|' < "$TEST_TMP/plugins-icount.validate")"
    sums=""
    for f in "$PL"/*.efi; do sums="$sums $(basename "$f")=$(sha256sum < "$f" | cut -c1-64):$(stat -c %s "$f")"; done
    if /usr/bin/python3 - "$json" $sums > "$TEST_TMP/plugins-icount.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
files = {a.split("=")[0]: a.split("=")[1].split(":") for a in sys.argv[2:]}
pl, m, c = d["plugins"], d["methods"], d["comparisons"]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
fl = {f["file"]: f for f in pl["files"]}
need(sorted(fl) == sorted(["chain.efi", "version.efi", "sizes.efi", "empty.efi", "dupnames.efi", "badname.efi",
                           "setupfail.efi", "faults.efi", "junk.efi", "trunc.efi"]), "files %s" % sorted(fl))
for name, f in fl.items():
    want = files.get(name)
    need(want and f["sha256"] == want[0] and f["size"] == int(want[1]), name + " sha256/size as sha256sum and stat")
need(pl["loaded"] == 3 and pl["rejected"] == 7, "loaded 3 rejected 7: %s %s" % (pl["loaded"], pl["rejected"]))
st = {r["target"]: r["status"] for f in pl["files"] if f["status"] == "loaded" for r in f["routines"]}
need(st == {"chain:add100": "ready", "chain:add1000": "ready", "setupfail:ok": "ready", "setupfail:nomem": "setup_failed",
            "faults:ok": "ready", "faults:ud": "fault", "faults:gp": "fault", "faults:pf": "fault", "faults:de": "fault"},
     "routine states %s" % st)
need(pl["routines_ready"] == 4, "4 ready")
shape = {}
for x in m["methods"]:
    parts = [p.strip() for p in x["start"].split(";")]
    k = [i for i, p in enumerate(parts) if p in ("rdtsc", "rdtscp")][0]
    shape[x["name"]] = (k, len(parts) - 1 - k)
N = m["iterations"]
per = {}
for x in m["measurements"]:
    t = x["target"]
    if not t.startswith("chain:"):
        continue
    K = int(t[len("chain:add"):])
    F, P = 5, K + 2
    pi = x["per_iteration"]
    need(x["status"] == "ok", x["name"] + " status " + x["status"])
    need(x["instructions_fixed"] == F and x["instructions_per_iteration"] == P, x["name"] + " counts")
    need(x["routine_min"] - x["placeholder_min"] == F - 1 + N * P, x["name"] + " T(N)-P(N)")
    need(pi["apple"] == P and pi["n_vs_2n"] == P, "%s %s" % (x["name"], pi))
    need(abs(pi["minus_placeholder"] - (F - 1 + N * P) / N) < 1e-9, x["name"] + " minus placeholder")
    per[(t, x["method"])] = pi
methods = [x["name"] for x in m["methods"]]
need(len(per) == 18, "chain: 2 routines x 9 methods measured, got %d" % len(per))
for mt in methods:
    a, b = per.get(("chain:add100", mt)), per.get(("chain:add1000", mt))
    if a and b:
        for est in ("minus_placeholder", "apple", "n_vs_2n"):
            need(abs(b[est] - a[est] - 900) < 1e-9, "add1000 - add100 with %s, %s: %s" % (mt, est, b[est] - a[est]))
ok_meas = [x for x in m["measurements"] if x["target"] == "faults:ok"]
need(len(ok_meas) == 1 and ok_meas[0]["status"] == "fault", "faults:ok: one measurement, fault, then skipped")
need(not [x for x in m["measurements"] if x["target"] in ("faults:ud", "faults:gp", "faults:pf", "faults:de", "setupfail:nomem")],
     "routines taken out are not measured")
need(len([x for x in m["measurements"] if x["target"] == "setupfail:ok"]) == 9, "setupfail:ok measured with 9 methods")
prof = {p["routine"]: p for p in m.get("extended_profiles", [])}
for t, P in (("chain:add100", 102), ("chain:add1000", 1002)):
    p = prof.get(t)
    need(p and p["methods_measured"] == 9 and abs(p["best_ticks"] - (4 + N * P) / N) < 1e-9,
         "extended profile of %s: %s" % (t, p))
ex = {e["name"]: e for e in c["comparisons"]}
e = ex.get("chain:add100 vs chain:add1000")
need(e and e["a"]["samples"] == [10204] * e["accuracy"] and e["b"]["samples"] == [100204] * e["accuracy"]
     and e["diff_mean"] == -90000 and e["verdict"] == "faster", "COMPARE A/B %s" % (e and {k: e[k] for k in ("diff_mean", "verdict")}))
e = ex.get("chain:add100 vs chain:add100")
need(e and e["a"]["samples"] == [10204] * e["accuracy"] and e["diff_mean"] == 0 and e["diff_mode"] == 0
     and e["verdict"] == "no difference" and e["as_expected"] and e["order"] == "random"
     and e["paired"]["p"] == 1 and e["paired"]["mean_diff"] == 0 and e["paired"]["exact"], "A/A control of chain:add100")
need("chain:nothing vs chain:add100" not in ex, "the unknown pair is not run")
need(len(ex) == 6, "4 built-in comparisons + A/B + A/A: %s" % sorted(ex))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "icount: add1000 - add100 = 900 ticks/iteration with every method and estimator, A/A 0, statuses and hashes exact"
    else fail "icount: exact figures" "$(head -8 "$TEST_TMP/plugins-icount.py" | tr '\n' '|')"; fi
    "$B" report "$json" -o "$TEST_TMP/plugins-icount.html" > /dev/null 2>&1
    grep -q 'id="plugins"' "$TEST_TMP/plugins-icount.html" && grep -q 'chain:add1000' "$TEST_TMP/plugins-icount.html" &&
        pass "icount: the HTML report shows the plug-ins" || fail "icount: report" "no plugins part"
else
    fail "icount: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi

# ---- 2. a routine that never returns -------------------------------------------------------
img=$(fresh_image plugins-hang)
put_plugins "$img" "$PL"/hang.efi
# One variable store for both boots, as one machine has (the hang marker
# variable, boot/watchdog.h).
vars=$TEST_TMP/plugins-hang-vars.fd
cp "${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}" "$vars"
boot plugins-hang "$img" --vars "$vars" --options "sections=plugins,methods profile=quick methodsamples=10 pluginprobeseconds=1"
expect_rc 3 "hang: the watchdog reset the machine (run-qemu 3: no final line)"
expect_line '^plugins: probe hang:forever \(hang\.efi\)$' "hang: the probe of hang:forever began"
expect_no_line '^baremark: run ended' "hang: the run did not end by itself"
mark=$(esp_cat "$img" baremark/plugin-probe.txt 2>/dev/null | tr -d '\r')
sum=$(sha256sum < "$PL/hang.efi" | cut -c1-64)
case $mark in
"$sum hang:forever hang.efi "*) pass "hang: the marker on the ESP names the file (SHA-256), the routine and the run" ;;
*) fail "hang: marker" "'$mark'" ;;
esac
first=$(esp_ls "$img" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
if [ -n "$first" ] && esp_cat "$img" "baremark/$first" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d["ended"] is False and d["status"] == "interrupted" and d["stage"] == "plugins"
         and "settings" in d and "system" in d else 1)'; then
    pass "hang: what was measured before the probe is saved (a valid JSON: interrupted during plugins, ended false)"
else
    fail "hang: saved results" "$first"
fi
run1=${first%.json}
boot plugins-hang2 "$img" --vars "$vars" --options "sections=plugins,methods profile=quick methodsamples=10 pluginprobeseconds=1"
expect_rc 2 "hang, next boot: completed with warnings"
expect_line "^warning: plugin hang\\.efi: routine hang:forever did not return when called in run $run1 \\(the watchdog reset the machine\\)" \
    "hang, next boot: names the file, the routine and the run it hung in"
expect_line "^warning: the previous run \\($run1\\) did not end: it stopped in section plugins calling plug-in routine hang:forever, with the watchdog armed for 1 s \\(a hang the watchdog ended, a power cut or a manual reset\\)\$" \
    "hang, next boot: the marker variable names the run, the section and the routine (the section is not left out)"
expect_no_line '^plugins: skipped this once' "hang, next boot: the plugins section runs"
expect_line '^  hang:ok +an empty loop \(measured\); ready$' "hang, next boot: hang:ok is ready"
expect_line '^target hang:ok: ' "hang, next boot: hang:ok is measured"
expect_no_line '^plugins: probe hang:forever' "hang, next boot: hang:forever is not called"
expect_line '^baremark: run ended, status 2' "hang, next boot: the run ended"
hangs=$(esp_cat "$img" baremark/plugin-hangs.txt 2>/dev/null | tr -d '\r')
[ "$hangs" = "$mark" ] && [ -z "$(esp_ls "$img" baremark | grep -x plugin-probe.txt)" ] &&
    pass "hang, next boot: the marker moved to plugin-hangs.txt" || fail "hang: hangs file" "'$hangs'"
