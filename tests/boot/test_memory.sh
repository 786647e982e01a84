#!/bin/bash
# Boot test: the memory section and the PMU's absence under QEMU's TCG.
#
# 1. QEMU -cpu max -icount shift=0 (TCG: no PMU; AVX and AVX2 but no
#    AVX-512; OVMF leaves CR4.OSXSAVE off), 60 MiB of RAM (about 12 MiB free
#    at the section, well under the 16 MiB at which the image would ask for
#    an 8 MiB buffer that the firmware's map may not hold in one piece; with
#    64 MiB and run-qemu --lean's smaller firmware it did not, and the run
#    said so: "bounded by allocation failed"; the sweep is bounded by free memory, and says it stops
#    short of the last-level cache), sections methods and memory, quick
#    profile, no clock section (ticks only).  PMU: one line saying why there
#    are no counters, the methods measurements carry no counter figures,
#    status 0 (unchanged).  Memory: the image sets CR4.OSXSAVE and XCR0 for
#    the AVX kernels and puts both back (read back and said), AVX-512 is
#    named and skipped, the pages behind the buffer come from the page
#    tables, and every figure is an instruction count, derived from
#    bench/memory/memory.asm and the lfence+rdtsc bracket (bench/methods/methods.asm: a
#    bracketed routine of F + k*P instructions takes F + k*P + 8 ticks):
#      latency and both TLB chases: F 5, P 18 per 16 loads
#      bandwidth (B = 256 / vector bytes, v = 1 with vzeroupper (avx)):
#        read     3 + v + passes * (6 + blocks * (B + 3))
#        write    3 + v + passes * (6 + pattern + blocks * (B + 3)), pattern 2 (sse2) or 3 (avx)
#        write_nt the same + 1 sfence per pass
#        copy     3 + v + passes * (7 + blocks * (2B + 4)) over half the set
#        triad    3 + q + v + passes * (8 + blocks * (k*B + 5)), q 3 (sse2) or 4 (avx),
#                 k 4 (sse2) or 3 (avx), over thirds rounded down to 256 bytes
#    so each avx kernel is the peak.  The JSON validates and the report
#    draws both plots.  TCG has no cache cost model: no knee.
# 2. The default qemu64 CPU (SSE2 only, no XSAVE) with 512 MiB, no icount:
#    the quick profile reaches 64 MiB, 4 x the 16 MiB L3 it states, and says
#    so; AVX and AVX-512 are named and skipped; the TLB chase runs 16 to
#    4096 lines, the spread one a page per line; the JSON validates.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

esp_json() {   # esp_json IMAGE OUT: the run's JSON results file
    local f
    f=$(esp_ls "$1" baremark | grep -E '^[0-9]{8}-[0-9]{6}\.json$' | head -1)
    [ -n "$f" ] && esp_cat "$1" "baremark/$f" > "$2"
}

# ---- 1. -cpu max, icount, 60 MiB: no PMU, the AVX state, exact memory figures -----------------
img=$(fresh_image memory-icount)
BOOT_TIMEOUT=420 boot memory-icount "$img" --icount --cpu max --memory 60 \
    --options "sections=methods,memory profile=quick methoditerations=10 methodsamples=20"
expect_rc 0 "icount: run-qemu exit 0 (status unchanged without a PMU)"
expect_line '^pmu: no usable performance counters \(the counters accept the registers but do not count \(0 cycles, 0 instructions over at least 10000 instructions of work\)\): cycles and instructions are not measured, figures are in ticks only$' \
    "icount: TCG: one line, the PMU does not count, ticks only"
expect_no_line '^ +(cycles|instructions) +per iter' "icount: no counter rows under the measurements"
expect_no_line '^warning:' "icount: no warnings"
expect_line '^memory: quick profile: [1-7] sizes from 4 KiB to [0-9]+ MiB \(every 4x, bounded by free memory\); [0-9]+ MiB allocated with firmware AllocatePages; free memory [0-9]+ KiB$' \
    "icount: memory: sizes bounded by free memory, the amount allocated said"
expect_line '^memory: the profile asks for up to 64 MiB; free memory allows [0-9]+ MiB$' "icount: memory: the quick profile asks for 64 MiB"
expect_line '^memory: the sweep stops at [0-9]+ MiB, short of 4 x the last-level cache \(16 MiB, so 64 MiB\): bounded by free memory' \
    "icount: memory: says the sweep does not reach past the last-level cache"
expect_line "^memory: under QEMU's TCG: it has no cache or TLB cost model" "icount: memory: says TCG has no cache cost model"
expect_line '^memory: caches \(cpuid ' "icount: memory: the caches from CPUID"
expect_line '^memory: pages behind the [0-9]+ MiB buffer \(page tables \(CR3\)\): ' "icount: memory: the page sizes from the page tables"
expect_line '^memory: avx512 skipped: the CPU lacks AVX-512F \(CPUID.7.0:EBX bit 16\)$' "icount: memory: AVX-512 named and skipped"
expect_line '^memory: AVX state: found CR4.OSXSAVE off, XCR0 0; baremark set CR4.OSXSAVE and XCR0 0x7 for the kernels' \
    "icount: memory: the firmware left OSXSAVE off; the image enabled the AVX state"
expect_line '^memory: AVX state restored: CR4.OSXSAVE off, XCR0 0 as found$' "icount: memory: the AVX state put back and read back"
expect_line '^ +[0-9]+ (KiB|MiB) +avx +[0-9.]+\* ' "icount: memory: avx rows, the peak marked"
expect_line '^memory: peak triad [0-9.]+ bytes/tick at [0-9]+ (KiB|MiB) with avx \(32-byte\)$' "icount: memory: the peak width named"
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
top = 1
while top * 2 <= m["free_bytes"] // 2: top *= 2
sizes = [4096 << (2 * i) for i in range(12) if 4096 << (2 * i) <= top]
need(m["top_bytes"] == top == m["allocated_bytes"] and m["limited_by"] == "free memory" and m["want_top_bytes"] == 64 << 20,
     "top %d want %d (free %d)" % (m["top_bytes"], top, m["free_bytes"]))
need(m["past_llc"] == "no", "past_llc %r" % m["past_llc"])
need([r["size_bytes"] for r in m["latency"]] == sizes, "latency sizes")
need([r["size_bytes"] for r in m["bandwidth"]] == sizes, "bandwidth sizes")
need(m["allocator"] == "firmware AllocatePages", "allocator")
need(m["samples"] == 5 and m["bw_samples"] == 3 and m["min_loads"] == 32768 and m["bw_min_bytes"] == 1 << 20, "plan")
def chase(loads): return 13 + 18 * loads // 16
for r in m["latency"]:
    lines = r["size_bytes"] // 64
    loads = max(lines, 32768)
    need(r["lines"] == lines and r["cycle_lines"] == lines, "%d: one cycle through every line" % r["size_bytes"])
    need(r["loads"] == loads, "%d: loads %d" % (r["size_bytes"], r["loads"]))
    need(r["ticks_min"] == chase(loads) == r["ticks_median"], "%d: ticks %d/%d" % (r["size_bytes"], r["ticks_min"], r["ticks_median"]))
    need(r["ns_min"] is None and r["ns_median"] is None, "no clock: ns null")
# the TLB chase: the same instructions packed and spread (TCG: the same ticks)
tl = [l for l in (16, 64, 256, 1024, 4096, 16384) if l * 4160 <= top]
need([t["lines"] for t in m["tlb"]["rows"]] == tl, "tlb rows %s want %s" % ([t["lines"] for t in m["tlb"]["rows"]], tl))
for t in m["tlb"]["rows"]:
    l = t["lines"]
    for k, pages in (("packed", -(-l * 64 // 4096)), ("spread", l)):
        c = t[k]
        need(c["cycle_lines"] == l and c["pages_4k"] == pages, "tlb %d %s: cycle %d pages %d" % (l, k, c["cycle_lines"], c["pages_4k"]))
        need(c["loads"] == 32768 and c["ticks_min"] == chase(32768) == c["ticks_median"], "tlb %d %s ticks" % (l, k))
# the vector widths and the AVX state
v = m["vector"]
need(v["xsave"] and not v["osxsave_before"] and v["xcr0_before"] == 0 and v["osxsave"] and v["xcr0"] == 7
     and v["enabled_by"] == "baremark" and v["restored"], "vector state %s" % v)
need([(w["width"], w["measured"]) for w in v["widths"]] == [("sse2", True), ("avx", True), ("avx512", False)], "widths")
need("lacks AVX-512F" in v["widths"][2]["why"], "avx512 why")
pg = m["pages"]
need(pg["source"] == "page tables (CR3)" and pg["bytes_unmapped"] == 0 and
     pg["bytes_4k"] + pg["bytes_2m"] + pg["bytes_1g"] == top, "pages %s" % pg)
K = {"sse2": dict(B=16, v=0, pat=2, q=3, k=4), "avx": dict(B=8, v=1, pat=3, q=4, k=3)}
for r in m["bandwidth"]:
    s = r["size_bytes"]
    need([w["width"] for w in r["widths"]] == ["sse2", "avx"], "%d widths" % s)
    for w in r["widths"]:
        c = K[w["width"]]; B = c["B"]; third = s // 3 // 256 * 256
        plan = {"read": (s, lambda n, b: 3 + c["v"] + n * (6 + b * (B + 3))),
                "write": (s, lambda n, b: 3 + c["v"] + n * (6 + c["pat"] + b * (B + 3))),
                "write_nt": (s, lambda n, b: 3 + c["v"] + n * (7 + c["pat"] + b * (B + 3))),
                "copy": (s // 2, lambda n, b: 3 + c["v"] + n * (7 + b * (2 * B + 4))),
                "triad": (third, lambda n, b: 3 + c["q"] + c["v"] + n * (8 + b * (c["k"] * B + 5)))}
        for op, (chunk, instr) in plan.items():
            per = 3 * chunk if op == "triad" else chunk
            n = -(-(1 << 20) // per)
            want = instr(n, chunk // 256) + 8
            o = w[op]
            need(o["bytes"] == n * per, "%d %s %s bytes %d want %d" % (s, w["width"], op, o["bytes"], n * per))
            need(o["ticks_min"] == want == o["ticks_median"],
                 "%d %s %s ticks %d/%d want %d" % (s, w["width"], op, o["ticks_min"], o["ticks_median"], want))
            need(o["best_bytes_per_s"] is None, "no clock: bytes/s null")
    for op in ("read", "write", "write_nt", "copy", "triad"):
        need(r[op]["width"] == "avx", "%d %s: the peak is avx" % (s, op))
need(all(m["bandwidth_peaks"][op]["width"] == "avx" for op in ("read", "write", "write_nt", "copy", "triad")), "peaks")
need(m["knees"] == [], "no knee under -icount (every load one instruction)")
ph = len(sizes) + 2 * len(tl) + 5 * 2 * len(sizes)
need(m["quiet_phases"]["phases"] == ph == m["quiet_phases"]["timer_stopped_phases"], "phases %d want %d" % (m["quiet_phases"]["phases"], ph))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "icount: PMU absent in the JSON; the AVX state enabled and restored; memory sizes, cycles, TLB chases, loads and every timing at both widths the exact instruction count"
    else fail "icount: exact figures" "$(head -8 "$TEST_TMP/memory-icount.py" | tr '\n' '|')"; fi
    n=$(grep -cE '^ +[0-9]+ (KiB|MiB) +[0-9]+ +1\.125 +1\.125 ' "$BOOT_LOG")
    "$B" report "$json" -o "$TEST_TMP/memory-icount.html" > /dev/null 2>&1
    lat=$(grep -o '<svg id="memory-latency".*' "$TEST_TMP/memory-icount.html" | grep -o 'data-points="[0-9]*"' | head -1)
    bw=$(grep -o '<svg id="memory-bandwidth".*' "$TEST_TMP/memory-icount.html" | grep -o 'data-points="[0-9]*"' | head -1)
    [ "$lat" = "data-points=\"$((2 * n))\"" ] && [ "$bw" = "data-points=\"$((5 * n))\"" ] &&
        grep -q 'ticks per load' "$TEST_TMP/memory-icount.html" &&
        grep -q 'enabled by baremark (XCR0 7; the state found was restored after)' "$TEST_TMP/memory-icount.html" &&
        pass "icount: the report's log-scale plots: latency (ticks per load, 2 x $n points), bandwidth (5 kernels x $n); the AVX state" ||
        fail "icount: report plots" "latency $lat, bandwidth $bw, $n sizes"
else
    fail "icount: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi

# ---- 2. qemu64, 512 MiB: the quick profile past the LLC; AVX named and skipped ---------------------
img=$(fresh_image memory-qemu64)
boot memory-qemu64 "$img" --options "sections=memory profile=quick"
expect_rc 0 "qemu64: run-qemu exit 0"
expect_line '^memory: quick profile: 8 sizes from 4 KiB to 64 MiB \(every 4x\); 64 MiB allocated with firmware AllocatePages; free memory [0-9]+ KiB$' \
    "qemu64: the quick profile runs 8 sizes to 64 MiB"
expect_line '^memory: the sweep reaches 64 MiB, 4 x the last-level cache \(16 MiB\): the largest sizes measure memory$' \
    "qemu64: says the sweep reaches past the last-level cache"
expect_line '^memory: avx skipped: the CPU lacks AVX \(CPUID.1:ECX bit 28\)$' "qemu64: AVX named and skipped"
expect_line '^memory: avx512 skipped: the CPU lacks AVX-512F' "qemu64: AVX-512 named and skipped"
expect_line '^memory: AVX state: no XSAVE state in use \(CR4.OSXSAVE off, XCR0 0\)$' "qemu64: no XSAVE: the state is left alone"
expect_line '^baremark: run ended, status 0 ' "qemu64: status 0"
json=$TEST_TMP/memory-qemu64.json
if esp_json "$img" "$json"; then
    "$B" validate "$json" > "$TEST_TMP/memory-qemu64.validate" 2>&1 &&
        pass "qemu64: the results validate" || fail "qemu64: validate" "$(tr '\n' '|' < "$TEST_TMP/memory-qemu64.validate")"
    if /usr/bin/python3 - "$json" > "$TEST_TMP/memory-qemu64.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
bad = []
def need(c, what):
    if not c: bad.append(what)
need(d["status"] == 0, "status")
need(m["top_bytes"] == 64 << 20 == m["want_top_bytes"] and m["limited_by"] == "" and m["past_llc"] == "yes", "top")
need([r["size_bytes"] for r in m["latency"]] == [4096 << (2 * i) for i in range(8)], "sizes")
for r in m["latency"]:
    need(r["cycle_lines"] == r["lines"] == r["size_bytes"] // 64, "cycle %d" % r["size_bytes"])
need([t["lines"] for t in m["tlb"]["rows"]] == [16, 64, 256, 1024, 4096], "tlb rows")
for t in m["tlb"]["rows"]:
    need(t["spread"]["pages_4k"] == t["lines"] == t["spread"]["cycle_lines"] == t["packed"]["cycle_lines"], "tlb %d" % t["lines"])
need([w["measured"] for w in m["vector"]["widths"]] == [True, False, False] and m["vector"]["enabled_by"] == "none", "widths")
need(all([w["width"] for w in r["widths"]] == ["sse2"] for r in m["bandwidth"]), "sse2 rows only")
pg = m["pages"]
need(pg["bytes_4k"] + pg["bytes_2m"] + pg["bytes_1g"] == 64 << 20, "pages %s" % pg)
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "qemu64: 8 sizes to 64 MiB past the LLC, one cycle each; TLB rows 16 to 4096 lines, a page per spread line; SSE2 only"
    else fail "qemu64: figures" "$(head -5 "$TEST_TMP/memory-qemu64.py" | tr '\n' '|')"; fi
else
    fail "qemu64: results JSON on the ESP" "$(esp_ls "$img" baremark | tr '\n' ' ')"
fi
