#!/bin/sh
# tests/unit/test_memory_cli.sh - `baremark memory` (the memory section under
# Linux), `validate` on its document (and on broken copies of it), and the
# report's memory part.  Exact: the sizes, lines, cycle lengths, loads and
# bytes per timing follow from the plan; the timings are only checked for
# shape (a loaded host may be slow).  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=build/host/baremark
T=${TMPDIR:-/tmp}/test_memory_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { # check NAME CONDITION-EXIT-STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1 (${3:-})"; fi
}
[ -x $B ] || make -s host >/dev/null 2>&1
if [ ! -x $B ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi

$B memory --bogus > /dev/null 2>&1
check "memory: an unknown option is a usage error (2)" $([ $? = 2 ]; echo $?)
$B memory --max-mib 0 > /dev/null 2>&1
check "memory: --max-mib 0 is refused (2)" $([ $? = 2 ]; echo $?)

# --max-mib 1: as if 2 MiB were free, so the quick sweep stops at 1 MiB.
nice $B memory --quick --max-mib 1 --json "$T/m.json" > "$T/m.out" 2>&1; rc=$?
check "memory --quick --max-mib 1: exit 0" $rc "$(tail -5 "$T/m.out")"
check "memory under Linux: says interrupts and the scheduler stay on, never that they are masked" \
    $(grep -q 'lfence+rdtsc, interrupts and the scheduler on (Linux)' "$T/m.out" &&
      ! grep -q 'interrupts masked' "$T/m.out"; echo $?) "$(grep -i 'masked\|scheduler' "$T/m.out" | tr '\n' '|')"
check "memory: the latency table has a row per size, 4 KiB to 1 MiB" \
    $([ "$(grep -Ec '^ +((4|16|64|256) KiB|1 MiB) +[0-9]+ ' "$T/m.out")" = 5 ]; echo $?) "$(cat "$T/m.out")"
check "memory: the bandwidth table has a row per size and width (sse2 at least)" \
    $([ "$(grep -Ec '^ +((4|16|64|256) KiB|1 MiB) +sse2 ' "$T/m.out")" = 5 ]; echo $?) "$(cat "$T/m.out")"
check "memory: says the sweep is bounded by free memory, and short of the last-level cache" \
    $(grep -Eq 'the profile asks for up to [0-9.]+ [MG]iB; free memory allows 1 MiB' "$T/m.out" &&
      grep -q 'the sweep stops at 1 MiB, short of 4 x the last-level cache' "$T/m.out"; echo $?)
check "memory: the pages behind the buffer from /proc/self/smaps, the madvise asked" \
    $(grep -Eq '^memory: pages behind the 1 MiB buffer \(/proc/self/smaps\): .*madvise\(MADV_HUGEPAGE\) ' "$T/m.out"; echo $?)
$B validate "$T/m.json" > "$T/v" 2>&1
check "memory --json: the document validates" $? "$(cat "$T/v")"
/usr/bin/python3 - "$T/m.json" > "$T/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
bad = []
sizes = [4096, 16384, 65536, 262144, 1048576]
if [r["size_bytes"] for r in m["latency"]] != sizes: bad.append("latency sizes")
if [r["size_bytes"] for r in m["bandwidth"]] != sizes: bad.append("bandwidth sizes")
if m["top_bytes"] != 1 << 20 or m["want_top_bytes"] < 64 << 20 or m["limited_by"] != "free memory":
    bad.append("top %s want %s by %r" % (m["top_bytes"], m["want_top_bytes"], m["limited_by"]))
if m["allocated_bytes"] != 1 << 20 or m["allocator"] != "mmap": bad.append("allocation")
if m["past_llc"] != "no": bad.append("past_llc %r" % m["past_llc"])
for r in m["latency"]:
    lines = r["size_bytes"] // 64
    loads = max(lines, m["min_loads"]); loads = (loads + 15) // 16 * 16
    if r["lines"] != lines or r["cycle_lines"] != lines: bad.append("cycle %s" % r)
    if r["loads"] != loads: bad.append("loads %s" % r)
    if not (0 < r["ticks_min"] <= r["ticks_median"]) or not (0 < r["ns_min"] <= r["ns_median"]): bad.append("times %s" % r)
widths = [w["width"] for w in m["vector"]["widths"] if w["measured"]]
if widths[:1] != ["sse2"]: bad.append("widths %s" % widths)
for r in m["bandwidth"]:
    s = r["size_bytes"]
    if [w["width"] for w in r["widths"]] != widths: bad.append("row widths %s" % r["widths"])
    for w in r["widths"]:
        for op, chunk in (("read", s), ("write", s), ("write_nt", s), ("copy", s // 2), ("triad", 3 * (s // 3 // 256 * 256))):
            want = -(-m["bw_min_bytes"] // chunk) * chunk
            if w[op]["bytes"] != want: bad.append("%s %s bytes %s want %s" % (w["width"], op, w[op]["bytes"], want))
            if not (w[op]["best_bytes_per_s"] >= w[op]["median_bytes_per_s"] > 0): bad.append("%s rate" % op)
    for op in ("read", "write", "write_nt", "copy", "triad"):
        peak = [w for w in r["widths"] if w["width"] == r[op]["width"]]
        if not peak or peak[0][op] != dict((k, v) for k, v in r[op].items() if k != "width"): bad.append("peak %s" % op)
        if any(w[op]["ticks_min"] / w[op]["bytes"] < r[op]["ticks_min"] / r[op]["bytes"] for w in r["widths"]):
            bad.append("peak %s is not the fastest width" % op)
tlb = m["tlb"]["rows"]
if [t["lines"] for t in tlb] != [16, 64]: bad.append("tlb rows %s" % [t["lines"] for t in tlb])
for t in tlb:
    if t["spread"]["pages_4k"] != t["lines"] or t["packed"]["pages_4k"] != -(-t["lines"] * 64 // 4096): bad.append("tlb pages %s" % t)
    if t["spread"]["cycle_lines"] != t["lines"] or t["packed"]["cycle_lines"] != t["lines"]: bad.append("tlb cycle %s" % t)
pg = m["pages"]
if pg["source"] != "/proc/self/smaps" or pg["bytes_4k"] + pg["bytes_2m"] + pg["bytes_1g"] + pg["bytes_unmapped"] != 1 << 20:
    bad.append("pages %s" % pg)
want_phases = len(sizes) + 2 * len(tlb) + 5 * len(widths) * len(sizes)
if m["quiet_phases"]["phases"] != want_phases: bad.append("phases %s want %s" % (m["quiet_phases"]["phases"], want_phases))
print("\n".join(bad) if bad else "ok")
PY
check "memory --json: sizes, lines, one cycle each, loads, bytes per timing per width, peaks, TLB rows, pages, phases exact; times ordered" \
    $(grep -qx ok "$T/py"; echo $?) "$(cat "$T/py")"

jq '.memory.latency[1].cycle_lines = 3' "$T/m.json" > "$T/bad1.json"
$B validate "$T/bad1.json" > "$T/v1" 2>&1
check "validate: a broken cycle is named" \
    $([ $? = 1 ] && grep -q 'memory.latency\[1\]: the walk is not one cycle' "$T/v1"; echo $?) "$(cat "$T/v1")"
jq '.memory.latency[2].size_bytes = 8192' "$T/m.json" > "$T/bad2.json"
$B validate "$T/bad2.json" > "$T/v2" 2>&1
check "validate: sizes that do not increase are named" \
    $([ $? = 1 ] && grep -q 'memory.latency\[2\]: sizes do not increase' "$T/v2"; echo $?) "$(cat "$T/v2")"
jq '.memory.bandwidth[0].copy.median_bytes_per_s = 1e15' "$T/m.json" > "$T/bad3.json"
$B validate "$T/bad3.json" > "$T/v3" 2>&1
check "validate: a median above the best bandwidth is named" \
    $([ $? = 1 ] && grep -q 'memory.bandwidth\[0\]: best below median' "$T/v3"; echo $?) "$(cat "$T/v3")"
jq 'del(.memory.caches)' "$T/m.json" > "$T/bad4.json"
$B validate "$T/bad4.json" > "$T/v4" 2>&1
check "validate: the caches member is required" $([ $? = 1 ] && grep -q 'memory.caches' "$T/v4"; echo $?) "$(cat "$T/v4")"
jq '.memory.tlb.rows[1].spread.pages_4k = 4' "$T/m.json" > "$T/bad5.json"
$B validate "$T/bad5.json" > "$T/v5" 2>&1
check "validate: a spread chase that does not touch a page per line is named" \
    $([ $? = 1 ] && grep -q 'memory.tlb.rows\[1\]: the spread chase does not touch one page per line' "$T/v5"; echo $?) "$(cat "$T/v5")"

$B report "$T/m.json" -o "$T/m.html" > "$T/r" 2>&1
check "report: writes the page" $? "$(cat "$T/r")"
check "report: a log-scale latency plot with a point per size and statistic (10)" \
    $(grep -q '<svg id="memory-latency" class="memplot"[^>]*data-xscale="log2" data-yscale="log10"' "$T/m.html" &&
      grep -o '<svg id="memory-latency".*</svg>' "$T/m.html" | grep -q 'data-points="10"'; echo $?)
check "report: a bandwidth plot with read, write, write_nt, copy, triad per size (25 points)" \
    $(grep -o '<svg id="memory-bandwidth".*' "$T/m.html" | grep -q 'data-points="25"'; echo $?)
check "report: the vector widths, the pages and the TLB table" \
    $(grep -q 'id="memory-vectors">Vector widths: sse2 (16 bytes) measured' "$T/m.html" &&
      grep -q 'id="memory-pages">Pages behind the buffer (/proc/self/smaps)' "$T/m.html" &&
      [ "$(grep -o '<table id="memory-tlb">.*' "$T/m.html" | sed 's|</table>.*||' | grep -o '<tr><td' | wc -l)" = 2 ]; echo $?)
check "report: the table has a row per size" \
    $([ "$(grep -o '<table id="memory-table">.*' "$T/m.html" | sed 's|</table>.*||' | grep -o '<tr><td' | wc -l)" = 5 ]; echo $?)
