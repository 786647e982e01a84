#!/bin/bash
# Boot test: the memory section and the PMU's absence under QEMU's TCG.
#
# 1. QEMU -icount shift=0 (TCG: no PMU), sections methods and memory, quick
#    profile, no clock section (ticks only).  PMU: one line saying why there
#    are no counters (TCG reads the registers as 0: they accept the
#    programming but do not count), the methods measurements carry no
#    counter figures, status 0 (unchanged).  Memory: every figure is an
#    instruction count, derived from bench/memory.asm and the lfence+rdtsc
#    bracket (bench/methods.asm: a bracketed routine of F + k*P instructions
#    takes F + k*P + 8 ticks):
#      latency   F 5,  P 18 per 16 loads: ticks = 13 + 18 * loads/16
#      read      F 3,  per pass 6 + 7*lines:            ticks = 11 + passes*(6 + 7*lines)
#      write     F 4,  the same per pass:               ticks = 12 + passes*(6 + 7*lines)
#      copy      F 3,  per pass 7 + 12*(lines/2):       ticks = 11 + passes*(7 + 12*lines/2)
#    Sizes 4 KiB x4 to 16 MiB (the free memory allows it), each walk one
#    cycle through every line, min = median, the JSON validates and the
#    report draws both plots.
# 2. A small machine: the sweep is bounded by half the free memory (said on
#    serial and in the JSON), the run completes with status 0.  64 MiB: with
#    48 MiB this QEMU's OVMF cannot load any image ("Out of Resources" from
#    BdsDxe before baremark starts; an image without the memory section does
#    the same), so 64 MiB (about 16 MiB free at the section) is the small
#    machine here.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

esp_json() {   # esp_json IMAGE OUT: the run's JSON results file
    local f
    f=$(esp_ls "$1" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
    [ -n "$f" ] && esp_cat "$1" "baremark/$f" > "$2"
}

# ---- 1. icount: no PMU, exact memory figures ---------------------------------------------
img=$(fresh_image memory-icount)
BOOT_TIMEOUT=420 boot memory-icount "$img" --icount \
    --options "sections=methods,memory profile=quick methoditerations=10 methodsamples=20"
expect_rc 0 "icount: run-qemu exit 0 (status unchanged without a PMU)"
expect_line '^pmu: no usable performance counters \(the counters accept the registers but do not count \(0 cycles, 0 instructions over at least 10000 instructions of work\)\): cycles and instructions are not measured, figures are in ticks only$' \
    "icount: TCG: one line, the PMU does not count, ticks only"
expect_no_line '^ +(cycles|instructions) +per iter' "icount: no counter rows under the measurements"
expect_no_line '^warning:' "icount: no warnings"
expect_line '^memory: quick profile: 7 sizes from 4 KiB to 16 MiB \(every 4x\); 16 MiB allocated with firmware AllocatePages; free memory ' \
    "icount: memory: 7 sizes to 16 MiB from the firmware's page allocator, the amount said"
expect_line '^memory: caches \(cpuid ' "icount: memory: the caches from CPUID"
expect_line '^ +16 MiB +262144 +1\.125 +1\.125 ' "icount: memory: 16 MiB row, 262144 loads at 1.125 ticks each"
expect_line '^memory: firmware timer stopped in each of its 28 measuring phases' "icount: memory: 28 measuring phases, timer stopped"
json=$TEST_TMP/memory-icount.json
if esp_json "$img" "$json"; then
    "$B" validate "$json" > "$TEST_TMP/memory-icount.validate" 2>&1 &&
        pass "icount: baremark validate accepts the methods and memory sections" ||
        fail "icount: validate" "$(tr '\n' '|' < "$TEST_TMP/memory-icount.validate")"
    if /usr/bin/python3 - "$json" > "$TEST_TMP/memory-icount.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
def need(c, what):
    if not c: bad.append(what)
need(d["status"] == 0, "status %s" % d["status"])
p = d["methods"]["pmu"]
need(p["usable"] is False and "do not count" in p["why"], "methods.pmu %s" % p)
need(all("pmu" not in x for x in d["methods"]["measurements"]), "no measurement has pmu figures")
need(any(x["status"] == "ok" for x in d["methods"]["measurements"]), "the measurements ran (ticks)")
m = d["memory"]
sizes = [4096 << (2 * i) for i in range(7)]
need([r["size_bytes"] for r in m["latency"]] == sizes, "latency sizes")
need([r["size_bytes"] for r in m["bandwidth"]] == sizes, "bandwidth sizes")
need(m["allocated_bytes"] == 16 << 20 and m["top_bytes"] == 16 << 20 and m["limited_by"] == "", "allocation")
need(m["allocator"] == "firmware AllocatePages" and m["free_bytes"] >= 32 << 20, "allocator, free")
need(m["samples"] == 5 and m["bw_samples"] == 3 and m["min_loads"] == 32768 and m["bw_min_bytes"] == 1 << 20, "plan")
for r in m["latency"]:
    lines = r["size_bytes"] // 64
    loads = max(lines, 32768)
    t = 13 + 18 * loads // 16
    need(r["lines"] == lines and r["cycle_lines"] == lines, "%d: one cycle through every line" % r["size_bytes"])
    need(r["loads"] == loads, "%d: loads %d" % (r["size_bytes"], r["loads"]))
    need(r["ticks_min"] == t and r["ticks_median"] == t, "%d: ticks %d/%d want %d" % (r["size_bytes"], r["ticks_min"], r["ticks_median"], t))
    need(r["ns_min"] is None and r["ns_median"] is None, "no clock: ns null")
for r in m["bandwidth"]:
    s = r["size_bytes"]; L = s // 64
    for op, chunk, want in (("read", s, lambda n: 11 + n * (6 + 7 * L)), ("write", s, lambda n: 12 + n * (6 + 7 * L)),
                            ("copy", s // 2, lambda n: 11 + n * (7 + 12 * (L // 2)))):
        n = -(-(1 << 20) // chunk)
        o = r[op]
        need(o["bytes"] == n * chunk, "%d %s bytes" % (s, op))
        need(o["ticks_min"] == want(n) and o["ticks_median"] == want(n),
             "%d %s ticks %d/%d want %d" % (s, op, o["ticks_min"], o["ticks_median"], want(n)))
        need(o["best_bytes_per_s"] is None, "no clock: bytes/s null")
need(m["knees"] == [], "no knee under -icount (every load one instruction)")
need(m["quiet_phases"]["phases"] == 28 and m["quiet_phases"]["timer_stopped_phases"] == 28, "phases")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "icount: PMU absent in the JSON; memory sizes, cycles, loads and every timing the exact instruction count"
    else fail "icount: exact figures" "$(head -8 "$TEST_TMP/memory-icount.py" | tr '\n' '|')"; fi
    "$B" report "$json" -o "$TEST_TMP/memory-icount.html" > /dev/null 2>&1
    lat=$(grep -o '<svg id="memory-latency".*' "$TEST_TMP/memory-icount.html" | grep -o 'data-points="[0-9]*"' | head -1)
    bw=$(grep -o '<svg id="memory-bandwidth".*' "$TEST_TMP/memory-icount.html" | grep -o 'data-points="[0-9]*"' | head -1)
    [ "$lat" = 'data-points="14"' ] && [ "$bw" = 'data-points="21"' ] &&
        grep -q 'ticks per load' "$TEST_TMP/memory-icount.html" &&
        pass "icount: the report's log-scale plots: latency (ticks per load without a clock, 14 points), bandwidth (21)" ||
        fail "icount: report plots" "latency $lat, bandwidth $bw"
else
    fail "icount: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi

# ---- 2. a small machine: bounded by free memory, still completes ---------------------------
img=$(fresh_image memory-small)
boot memory-small "$img" --memory 64 --options "sections=memory profile=quick"
expect_rc 0 "64 MiB: run-qemu exit 0"
expect_line '^memory: quick profile: [1-6] sizes from 4 KiB to [0-9]+ (KiB|MiB) \(every 4x, bounded by free memory\); [0-9]+ (KiB|MiB) allocated with firmware AllocatePages; free memory [0-9]+ KiB$' \
    "64 MiB: fewer sizes, bounded by free memory, the amount allocated said"
expect_line '^memory: the profile asks for up to 16 MiB; free memory allows [0-9]+ (KiB|MiB)$' "64 MiB: says what the profile wanted"
expect_line '^baremark: run ended, status 0 ' "64 MiB: status 0"
json=$TEST_TMP/memory-small.json
if esp_json "$img" "$json"; then
    "$B" validate "$json" > "$TEST_TMP/memory-small.validate" 2>&1 &&
        pass "64 MiB: the results validate" || fail "64 MiB: validate" "$(tr '\n' '|' < "$TEST_TMP/memory-small.validate")"
    if /usr/bin/python3 - "$json" > "$TEST_TMP/memory-small.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
bad = []
def need(c, what):
    if not c: bad.append(what)
free = m["free_bytes"]
top = 1
while top * 2 <= free // 2: top *= 2
need(d["status"] == 0, "status")
need(m["limited_by"] == "free memory" and m["want_top_bytes"] == 16 << 20, "bounded %r" % m["limited_by"])
need(m["top_bytes"] == top and m["allocated_bytes"] == top and top < 16 << 20, "top %d want %d (free %d)" % (m["top_bytes"], top, free))
sizes = [r["size_bytes"] for r in m["latency"]]
need(sizes == [4096 << (2 * i) for i in range(len(sizes))] and sizes[-1] <= top < 4 * sizes[-1], "sizes %s" % sizes)
for r in m["latency"]:
    need(r["cycle_lines"] == r["lines"] == r["size_bytes"] // 64, "cycle %d" % r["size_bytes"])
    need(0 < r["ticks_min"] <= r["ticks_median"], "ticks %d" % r["size_bytes"])
for r in m["bandwidth"]:
    need(all(0 < r[k]["ticks_min"] <= r[k]["ticks_median"] for k in ("read", "write", "copy")), "bw %d" % r["size_bytes"])
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "64 MiB: top = the largest power of two within half the free memory, sizes up to it, each one cycle"
    else fail "64 MiB: figures" "$(head -5 "$TEST_TMP/memory-small.py" | tr '\n' '|')"; fi
else
    fail "64 MiB: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi
