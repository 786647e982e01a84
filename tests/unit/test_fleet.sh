#!/bin/sh
# tools/baremark-fleet (build/host/baremark fleet): a dozen synthetic runs
# made from tests/fixtures/run-guess.json, one machine each, every figure
# moved by a small seeded noise and board-07 planted slow (BYTEmark scores
# x 0.7, method overheads x 1.25).  Checks, against numpy/scipy: the fleet
# median and MAD of a figure, the one machine beyond 5% and which way,
# Mann-Whitney's p of its raw samples against the other eleven machines',
# the CSV and HTML forms, --threshold, machines named after files, LAVA's
# recorded results (lava-run's log and a server's CSV) read with the JSON,
# figures named as a reader knows them (the LAVA id with --ids and in the
# CSV), and bad files named and skipped (status 2) while the rest is still
# read.
set -u
cd "$(dirname "$0")/../.."
TOP=$(pwd)
BIN=$TOP/build/host/baremark
T=$TOP/build/tests/fleet
rm -rf "$T"
mkdir -p "$T/runs"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
check() { if eval "$2"; then pass "$1"; else fail "$1" "$2"; fi; }
[ -x "$BIN" ] || { fail "host program built" "no $BIN"; exit 1; }

/usr/bin/python3 - "$TOP/tests/fixtures/run-guess.json" "$T/runs" <<'PY' || { fail "synthetic runs written" "python"; exit 1; }
import json, random, statistics, sys, os
src, out = sys.argv[1], sys.argv[2]
base = json.load(open(src))
for i in range(1, 13):
    rng = random.Random(1000 + i)
    d = json.loads(json.dumps(base))
    slow = i == 7
    def jig(x, f=1.0):
        return x * f * (1 + rng.uniform(-0.01, 0.01))
    for m in d["methods"]["methods"]:
        ov = m.get("overhead")
        if not ov or not ov.get("samples"):
            continue
        ov["samples"] = [round(jig(s, 1.25 if slow else 1.0)) for s in ov["samples"]]
        ov["median"] = statistics.median(ov["samples"])
        m["overhead_ns"]["median"] = ov["median"] * 1e6 / d["clock"]["chosen_khz"]
    for t in d["bytemark"]["tests"]:
        if t["status"] != "ok":
            continue
        t["scores"] = [jig(s, 0.7 if slow else 1.0) for s in t["scores"]]
        t["mean"] = statistics.fmean(t["scores"])
        t["old_index"] = t["mean"] / t["base_p90"]
        t["new_index"] = t["mean"] / t["base_k6"]
    d["clock"]["chosen_khz"] = jig(d["clock"]["chosen_khz"])
    os.makedirs(f"{out}/board-{i:02d}")
    json.dump(d, open(f"{out}/board-{i:02d}/{d['name']}.json", "w"))
PY
pass "12 synthetic runs written, board-07 planted slow"

# The figures' names by their definition (tools/host/history/history_label.c): a
# row's LAVA id template (bench/*/figures_*.h) with each {placeholder} the
# run's value, the section's word ahead and the unit's word at the end
# dropped when other pieces are left, the pieces joined by ", ", the row's
# unit (its template filled) last.  The values come from the fixture (jq).
FX=$TOP/tests/fixtures/run-guess.json
row() {   # the row as this test reads it, or the names below mean nothing
    tr -s ' ' < "$TOP/bench/$2" | grep -qF "$1" || { fail "figure row still as this test reads it" "$1 in bench/$2"; exit 1; }
}
row '"tests[*].mean", "bytemark_{key}", "{unit}"' bytemark/figures_bytemark.h
row '"tests[*].new_index", "bytemark_{key}_new_index", "index"' bytemark/figures_bytemark.h
row '"methods[*].overhead.median", "method_{name}_overhead_ticks", "ticks"' methods/figures_methods.h
row '"measurements[*].net.median", "meas_{target}_{method}_ticks", "ticks/iter"' methods/figures_methods.h
row '"chosen_khz", "clock_tsc_khz", "kHz"' clock/figures_clock.h
NUMSORT="$(jq -r '.bytemark.tests[] | select(.key == "numsort") | .key' "$FX"), $(jq -r '.bytemark.tests[] | select(.key == "numsort") | .unit' "$FX")"
FOURIER_NEW="$(jq -r '.bytemark.tests[] | select(.key == "fourier") | .key' "$FX"), new, index"
RDTSC_OV="$(jq -r '.methods.methods[] | select(.name == "rdtsc") | .name' "$FX"), overhead, ticks"
MEAS="$(jq -r '.methods.measurements[1].target' "$FX"), $(jq -r '.methods.measurements[1].method' "$FX"), ticks/iter"
MEAS_ID="meas_$(jq -r '.methods.measurements[1] | "\(.target)_\(.method)"' "$FX" | tr -c 'a-z0-9_\n' _)_ticks"
TSC="clock tsc khz, kHz"   # no placeholder: one piece, nothing dropped
# One figure's table in a text output: from its "NAME: " line to its
# "beyond" (or "not 0") line.
table() { awk -v h="$1: " 'index($0, h) == 1 { on = 1 } on { print } on && /^  (beyond|not 0)/ { exit }' "$2"; }

"$BIN" fleet "$T/runs" > "$T/fleet.txt" 2> "$T/fleet.err"
check "fleet over a folder: exit 0, nothing on stderr" "[ $? -eq 0 ] && [ ! -s '$T/fleet.err' ]"
check "12 machines read, named after their folders" \
    "grep -q '^baremark fleet: 12 machines, 12 runs from 12 files; threshold 5% of the fleet median' '$T/fleet.txt' && grep -q '^  board-07 ' '$T/fleet.txt'"

# One figure's table: numbers against numpy/scipy.
/usr/bin/python3 - "$T/runs" "$T/fleet.txt" "$NUMSORT" > "$T/oracle.txt" <<'PY'
import json, glob, sys, re
import numpy as np
from scipy.stats import mannwhitneyu
runs, text, label = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
def block(fig):
    m = re.search(r"^%s: .*?(?=^\S|\Z)" % re.escape(fig), text, re.S | re.M)
    return m.group(0) if m else ""
vals, samples = {}, {}
for f in sorted(glob.glob(runs + "/*/*.json")):
    name = f.split("/")[-2]
    d = json.load(open(f))
    t = [t for t in d["bytemark"]["tests"] if t["key"] == "numsort"][0]
    vals[name], samples[name] = t["mean"], t["scores"]
v = np.array(list(vals.values()))
med = np.median(v)
mad = np.median(np.abs(v - med))
b = block(label)
head = re.search(r"fleet median (\S+), spread \(MAD\) (\S+)", b)
ok = head and abs(float(head.group(1)) - med) <= 1e-9 * med and abs(float(head.group(2)) - mad) <= 1e-9 * med
print("median_mad", "ok" if ok else "bad %s %s %s" % (head and head.groups(), med, mad))
beyond = [n for n in vals if abs(vals[n] - med) / med > 0.05]
print("beyond", ",".join(beyond))
line = re.search(r"beyond 5% of the fleet median: (.*)", b).group(1)
print("line", line)
rest = [s for n in samples if n != "board-07" for s in samples[n]]
p = mannwhitneyu(samples["board-07"], rest, alternative="two-sided", method="asymptotic", use_continuity=True).pvalue
m = re.search(r"Mann-Whitney p (\S+) on (\d+) against (\d+) samples", line)
print("mw", "ok" if m and abs(float(m.group(1)) - p) <= 1e-2 * p and int(m.group(2)) == 6 and int(m.group(3)) == 66
      else "bad %s want %.6g" % (m and m.groups(), p))
PY
check "bytemark_numsort: fleet median and MAD are numpy's" "grep -qx 'median_mad ok' '$T/oracle.txt'"
check "bytemark_numsort: only board-07 is beyond 5% (by numpy)" "grep -qx 'beyond board-07' '$T/oracle.txt'"
check "bytemark_numsort: the tool lists board-07 as slower, and no other" \
    "grep -Eq '^line board-07 \(-[0-9.]+%, slower, Mann-Whitney' '$T/oracle.txt' && ! grep -q '; ' '$T/oracle.txt'"
check "bytemark_numsort: Mann-Whitney p on 6 against 66 raw scores is scipy's" "grep -qx 'mw ok' '$T/oracle.txt'"
check "method_rdtsc_overhead_ticks ($RDTSC_OV): board-07 beyond and slower (overheads x 1.25)" \
    "table '$RDTSC_OV' '$T/fleet.txt' | grep -q 'beyond 5% of the fleet median: board-07 (+2[0-9.]*%, slower, Mann-Whitney p'"
check "clock_tsc_khz ($TSC): no machine beyond (1% noise)" \
    "table '$TSC' '$T/fleet.txt' | grep -q 'beyond 5% of the fleet median: none'"
check "rates: index figures named and sensed (board-07 slower)" \
    "table '$FOURIER_NEW' '$T/fleet.txt' | grep -q 'board-07 (-[0-9.]*%, slower)'"
nfig=$(grep -c '^  MACHINE ' "$T/fleet.txt")
check "one table per figure ($nfig figures)" "[ $nfig -ge 30 ]"
check "names: a measurement's table is headed '$MEAS', its id nowhere" \
    "grep -q '^$MEAS: 12 machines, fleet median' '$T/fleet.txt' && ! grep -q '$MEAS_ID' '$T/fleet.txt'"
check "names: no table headed by a LAVA id" "! grep -Eq '^[a-z0-9]+_[a-z0-9_]+ \(' '$T/fleet.txt'"
"$BIN" fleet --ids "$T/runs" > "$T/fleet-ids.txt"
check "--ids: the LAVA id beside each name ('$MEAS ($MEAS_ID)', '$NUMSORT (bytemark_numsort)')" \
    "grep -qF '$MEAS ($MEAS_ID): 12 machines' '$T/fleet-ids.txt' && grep -qF '$NUMSORT (bytemark_numsort): 12 machines' '$T/fleet-ids.txt' && [ \$(grep -c ': 12 machines, fleet median' '$T/fleet-ids.txt') -eq $nfig ]"

# CSV: one row per figure and machine, same numbers.
"$BIN" fleet --csv "$T/runs" > "$T/fleet.csv"
/usr/bin/python3 - "$T/fleet.csv" "$nfig" "$NUMSORT" "$MEAS" "$MEAS_ID" > "$T/csv.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
figs = {r["figure"] for r in rows}
print("figs", len(figs) == int(sys.argv[2]))
print("rows", all(sum(1 for r in rows if r["figure"] == f) == 12 for f in figs))
nb = [r for r in rows if r["figure"] == "bytemark_numsort"]
print("beyond", [r["machine"] for r in nb if r["beyond"] == "yes"] == ["board-07"] and
      [r["direction"] for r in nb if r["machine"] == "board-07"] == ["slower"] and
      float([r for r in nb if r["machine"] == "board-07"][0]["mann_whitney_p"]) < 0.05)
print("label", {r["label"] for r in nb} == {sys.argv[3]} and
      {r["label"] for r in rows if r["figure"] == sys.argv[5]} == {sys.argv[4]} and
      list(rows[0])[:12] == "figure,unit,machine,runs,value,fleet_median,fleet_mad,deviation_pct,beyond,direction,samples,mann_whitney_p".split(","))
PY
check "CSV: the same figures as the text" "grep -qx 'figs True' '$T/csv.txt'"
check "CSV: 12 rows (machines) per figure" "grep -qx 'rows True' '$T/csv.txt'"
check "CSV: bytemark_numsort beyond only on board-07, slower, Mann-Whitney p < 0.05" "grep -qx 'beyond True' '$T/csv.txt'"
check "CSV: the id columns as before, the name in a last column (label: '$NUMSORT', '$MEAS')" "grep -qx 'label True' '$T/csv.txt'"

# HTML: the report's look, a section per figure, the planted machine marked.
"$BIN" fleet --html -o "$T/fleet.html" "$T/runs"
check "HTML: one section per figure" "[ \$(grep -o '<section class=\"figure\"' '$T/fleet.html' | wc -l) -eq $nfig ]"
check "HTML: bytemark_numsort section says one beyond, its row is board-07's" \
    "grep -o '<section class=\"figure\" id=\"bytemark_numsort\" data-beyond=\"1\">.*</section>' '$T/fleet.html' | sed 's|</section>.*||' | grep -q '<tr class=\"beyond\"><td>board-07</td>'"
check "HTML: bytemark_numsort's section headed '$NUMSORT', its anchor the id" \
    "grep -qF '<section class=\"figure\" id=\"bytemark_numsort\" data-beyond=\"1\"><h3>$NUMSORT</h3>' '$T/fleet.html' && grep -qF '<a href=\"#bytemark_numsort\">$NUMSORT</a>' '$T/fleet.html'"
"$BIN" fleet --html --ids -o "$T/fleet-ids.html" "$T/runs"
check "HTML --ids: '$NUMSORT (bytemark_numsort)'" "grep -qF '<h3>$NUMSORT (bytemark_numsort)</h3>' '$T/fleet-ids.html'"
check "HTML: self-contained (inline style and SVG, no script, no link)" \
    "grep -q '<style>' '$T/fleet.html' && grep -q '<svg class=\"fleet\"' '$T/fleet.html' && ! sed 's|http://www.w3.org/2000/svg||g' '$T/fleet.html' | grep -Eq '<script|<link|https?://'"

# --threshold: 50% leaves board-07's 30% inside.
"$BIN" fleet --threshold 50 "$T/runs" > "$T/fleet50.txt"
check "--threshold 50: bytemark_numsort has no machine beyond" \
    "table '$NUMSORT' '$T/fleet50.txt' | grep -q 'beyond 50% of the fleet median: none'"

# Files by name: a run's date-time name is no machine's; its folder is.
"$BIN" fleet "$T/runs/board-01/"*.json "$T/runs/board-07/"*.json > "$T/two.txt" 2>&1
check "files by name (YYYYMMDD-HHMMSS.json): machines named after their folders" \
    "grep -q '^baremark fleet: 2 machines, 2 runs from 2 files' '$T/two.txt' && grep -q '^  board-07 ' '$T/two.txt'"
cp "$T/runs/board-01/"*.json "$T/rack3-node2.json"
"$BIN" fleet "$T/rack3-node2.json" > "$T/one.txt" 2>&1
check "a file by name: the machine is the file's name" \
    "grep -q '^baremark fleet: 1 machine, 1 run from 1 file' '$T/one.txt' && grep -q '^  rack3-node2 ' '$T/one.txt'"

# LAVA's recorded results next to the JSON: lava-run's log, a server's CSV
# and YAML.
mkdir -p "$T/mixed/board-13" "$T/mixed/board-14"
cp -r "$T/runs/"* "$T/mixed/"
n=$(jq '[.bytemark.tests[] | select(.key == "numsort") | .mean][0]' "$T/runs/board-01/"*.json)
printf 'baremark v1 - bare-metal timing and BYTEmark\nclock: chosen 2596142.3 kHz\n' > "$T/mixed/board-01/20261122-180241.log"
cat > "$T/mixed/board-13/job-1.log" <<LOG
{"dt": "2026-11-24T04:49:05.656211", "lvl": "results", "msg": {"case": "validate", "definition": "lava", "result": "pass"}}
{"dt": "2026-11-24T04:49:07.082872", "lvl": "results", "msg": {"case": "file-download", "definition": "lava", "extra": {"label": "baremark", "size": ! "67108864"}, "result": "pass"}}
{"dt": "2026-11-24T04:49:18.1", "lvl": "target", "msg": "BAREMARK-LAVA case=bytemark_numsort result=pass measurement=1 units=arrays/s"}
{"dt": "2026-11-24T04:49:18.2", "lvl": "results", "msg": {"case": "bytemark_numsort", "definition": "baremark", "extra": {"test_case_id": "bytemark_numsort"}, "level": "3.1", "measurement": "$n", "result": "pass", "units": "arrays/s"}}
{"dt": "2026-11-24T04:49:18.3", "lvl": "results", "msg": {"case": "bytemark_fourier", "definition": "baremark", "level": "3.1", "measurement": null, "result": "fail", "units": null}}
{"dt": "2026-11-24T04:49:18.4", "lvl": "results", "msg": {"case": "run_status", "definition": "baremark", "level": "3.1", "measurement": "2", "result": "fail", "units": "status"}}
LOG
printf 'job,suite,result,measurement,unit,duration,timeout,logged,level,metadata,url,name,id\n' > "$T/mixed/board-14/results.csv"
printf '7,1_baremark,pass,%s,arrays/s,,,2026-11-24,3.1,"{""case"": ""x""}",/results/7/1_baremark/bytemark_numsort,bytemark_numsort,70\n' "$n" >> "$T/mixed/board-14/results.csv"
printf '7,lava,pass,,,,,2026-11-24,,,/results/7/lava/job,job,71\n' >> "$T/mixed/board-14/results.csv"
# A server's results as YAML: yaml.safe_dump of the export's dictionaries
# (lava_results_app's export fields), nested metadata and all.
mkdir -p "$T/mixed/board-15"
/usr/bin/python3 - "$n" > "$T/mixed/board-15/results.yaml" <<'PY'
import sys, yaml
rows = [{"job": "8", "suite": "lava", "result": "pass", "measurement": None, "unit": "", "name": "job",
         "metadata": {"case": "job", "result": "pass"}},
        {"job": "8", "suite": "1_baremark", "result": "pass", "measurement": sys.argv[1], "unit": "arrays/s",
         "name": "bytemark_numsort", "level": "3.1", "url": "/results/8/1_baremark/bytemark_numsort",
         "metadata": {"case": "bytemark_numsort", "definition": "baremark", "measurement": "1", "units": "x",
                      "result": "fail", "extra": {"test_case_id": "bytemark_numsort"}}},
        {"job": "8", "suite": "1_baremark", "result": "skip", "measurement": None, "unit": "",
         "name": "clock_pit_khz", "metadata": {"case": "clock_pit_khz", "result": "skip"}}]
print(yaml.safe_dump(rows, default_flow_style=False), end="")
PY
"$BIN" fleet --csv "$T/mixed" > "$T/mixed.csv" 2> "$T/mixed.err"
check "mixed folder: JSON, lava-run's .log, server CSV and YAML all read, a run's text .log left alone (exit 0)" "[ $? -eq 0 ] && [ ! -s '$T/mixed.err' ]"
check "LAVA results: bytemark_numsort from all three, as recorded (not the nested metadata's)" \
    "[ \$(awk -F, -v n=$n '\$1 == \"bytemark_numsort\" && \$2 == \"arrays/s\" && \$3 ~ /^board-1[345]\$/ && \$4 == 1 && (\$5 - n) ^ 2 < 1e-18 * n * n' '$T/mixed.csv' | wc -l) -eq 3 ]"
check "LAVA results: a skipped case without a measurement is no figure (server YAML)" \
    "! grep -q '^clock_pit_khz,.*board-15' '$T/mixed.csv'"
check "LAVA results: a failed case has no figure, LAVA's own suite is not read" \
    "! grep -q '^bytemark_fourier,.*board-13' '$T/mixed.csv' && ! grep -Eq '^(job|validate|file_download|file-download),' '$T/mixed.csv'"
check "LAVA results: run_status kept whatever its result (board-13: 2)" \
    "grep -q '^run_status,status,board-13,1,2,' '$T/mixed.csv'"
"$BIN" fleet "$T/mixed/board-13" > "$T/lava-only.txt" 2>&1
check "LAVA results alone: a figure keeps its id and unit as its name (all LAVA gives)" \
    "grep -q '^bytemark_numsort (arrays/s): 1 machine, fleet median' '$T/lava-only.txt'"

# Bad input: named, skipped, the rest still read, status 2.
mkdir -p "$T/bad/board-99"
cp -r "$T/runs/"* "$T/bad/"
head -c 300 "$T/runs/board-01/"*.json > "$T/bad/board-99/cut.json"
echo "hello" > "$T/bad/notes.csv"
echo '{"a": 1}' > "$T/bad/other.json"
"$BIN" fleet "$T/bad" > "$T/bad.txt" 2> "$T/bad.err"
rc=$?
check "bad files: status 2" "[ $rc -eq 2 ]"
check "bad files: a cut JSON file is named with where it broke" "grep -q 'board-99/cut.json:[0-9]*:[0-9]*: not valid JSON' '$T/bad.err'"
check "bad files: a JSON file that is not a run is named" "grep -q 'other.json: not a baremark results file' '$T/bad.err'"
check "bad files: a CSV that is not LAVA's is named" "grep -q 'notes.csv: .*skipped' '$T/bad.err'"
check "bad files: the 12 good runs are still read" "grep -q '^baremark fleet: 12 machines, 12 runs from 12 files' '$T/bad.txt'"
"$BIN" fleet "$T/nothing-here" > /dev/null 2> "$T/none.err"
check "no runs at all: status 2 and says so" "[ $? -eq 2 ] && grep -q 'no runs were read' '$T/none.err'"
"$BIN" fleet --threshold x "$T/runs" > /dev/null 2>&1
check "a bad --threshold is refused (status 2)" "[ $? -eq 2 ]"

# Two folders named on the command line, each holding date-named runs
# directly (a stick's \baremark\ copied out): each folder names its machine,
# wherever the command runs from (not the current directory's name).
mkdir -p "$T/here/m1" "$T/here/m2"
# each under its own run name, as the stick has it
cp "$TOP/tests/fixtures/run-quick.json" "$T/here/m1/$(jq -r .name "$TOP/tests/fixtures/run-quick.json").json"
cp "$TOP/tests/fixtures/run-full.json" "$T/here/m2/$(jq -r .name "$TOP/tests/fixtures/run-full.json").json"
(cd "$T/here/m1" && "$BIN" fleet ../m1 ../m2) > "$T/here.txt" 2>&1
check "fleet m1 m2: each folder of date-named runs is its machine, not the directory the command ran in" \
    "grep -q '^  m1  *1 run ' '$T/here.txt' && grep -q '^  m2  *1 run ' '$T/here.txt' && [ \"\$(grep -c '^  m[12]  *1 run ' '$T/here.txt')\" = 2 ]"
