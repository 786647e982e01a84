#!/bin/sh
# Unit test: `baremark history` on synthetic runs made from a real quick
# run (tests/fixtures/run-quick.json): two machines (folders box-07 and
# box-08), 30 runs each, numeric sort's score with 1% noise; on box-07 the
# score drops 10% from run 15 on, where the build, the firmware build
# (system.firmware_id) and the microcode change.
#
# Checked: add stores each run once (a second add of the same files adds
# nothing), a truncated and a hostile file are named and skipped and change
# nothing stored, the schema is migrated to its version, two adds at once
# store the union, an add killed half-way leaves no half run; show finds
# the step on box-07 alone, at run 15, a regression, with the build, the
# firmware's identity and the microcode named as what differed; check exits 1 naming it since a run
# before the step and 0 since a run after it or above its size; CSV and
# Bencher Metric Format exports hold the stored figures; the HTML page
# draws the series with its change point and has no script.  Then the same
# commands against a real PostgreSQL started here on 127.0.0.1 (a private
# cluster, stopped after) give the same answer.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
B=$BUILD/host/baremark
W=$BUILD/tests/history
rm -rf "$W"
mkdir -p "$W"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

python3 - "$TOP/tests/fixtures/run-quick.json" "$W/runs" <<'PY'
import copy, json, os, random, sys
base = json.load(open(sys.argv[1]))
rng = random.Random(7)
for box, step in (("box-07", 0.90), ("box-08", 1.0)):
    os.makedirs(os.path.join(sys.argv[2], box))
    for i in range(30):
        d = copy.deepcopy(base)
        d["name"] = "202611%02d-0300%02d" % (1 + i // 10, i)
        d["system"]["started"] = "2026-11-%02dT03:00:%02d" % (1 + i // 10, i)
        after = i >= 15
        d["build"]["version"] = "bbbb222" if after else "aaaa111"
        d["system"]["microcode"] = "0x2" if after else "0x1"
        if box == "box-07":     # the firmware build changes with them (system.firmware_id)
            d["system"]["firmware_id"] = ("b" if after else "a") * 64
        f = (step if after else 1.0) * (1 + 0.01 * rng.gauss(0, 1))
        for t in d["bytemark"]["tests"]:
            if t["key"] == "numsort":   # every figure that follows the score, so it validates
                for k in ("mean", "sd", "half", "old_index", "new_index"):
                    t[k] *= f
                t["scores"] = [s * f for s in t["scores"]]
        json.dump(d, open(os.path.join(sys.argv[2], box, d["name"] + ".json"), "w"))
PY
printf '{"schema": 1, "system": {"cpu_brand": "cut he' > "$W/truncated.json"
printf '{"schema": 1, "system": {"cpu_brand": "\\u001b]0;pwned\\u0007"}, "bytemark": {"tests": [{"key": "numsort", "status": "ok", "mean": "NaN", "scores": [1e999]}]}, "name": "<script>x</script>"}' > "$W/hostile.json"

DB=$W/h.db
if "$B" history add --db "$DB" --quiet "$W/runs" > "$W/add1.txt" 2>&1 &&
    grep -q '^history: 60 runs added, 0 already stored, 0 skipped (sqlite ' "$W/add1.txt"; then
    pass "add: 60 runs from two machines' folders"
else
    fail "add: 60 runs from two machines' folders" "$(tail -2 "$W/add1.txt")"
fi
"$B" history export --db "$DB" --csv -o "$W/before.csv"
"$B" history add --db "$DB" --quiet "$W/runs" > "$W/add2.txt" 2>&1
if grep -q '^history: 0 runs added, 60 already stored, 0 skipped' "$W/add2.txt"; then
    pass "add again: each run stored once (keyed by its content hash)"
else
    fail "add again: each run stored once" "$(tail -1 "$W/add2.txt")"
fi
"$B" history add --db "$DB" "$W/truncated.json" "$W/hostile.json" "$W/nothere.json" > "$W/add3.txt" 2> "$W/add3.err"
rc=$?
"$B" history export --db "$DB" --csv -o "$W/after.csv"
if [ $rc -eq 2 ] && grep -q 'truncated.json: not JSON' "$W/add3.err" && grep -q 'hostile.json:.*skipped' "$W/add3.err" && grep -q 'nothere.json: no such file' "$W/add3.err" &&
    cmp -s "$W/before.csv" "$W/after.csv" && [ "$(wc -l < "$W/before.csv")" -gt 100 ]; then
    pass "bad input: each bad file named and skipped (exit 2), nothing stored changed"
else
    fail "bad input: each bad file named and skipped, nothing stored changed" "rc $rc; $(cat "$W/add3.err" | tr '\n' '|')"
fi
v=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select max(version) from history_schema').fetchone()[0], c.execute('pragma integrity_check').fetchone()[0])" "$DB")
if [ "$v" = "6 ok" ]; then pass "the store is at schema version 6 (run_files, figure labels, counter steps, firmware identity) and intact"; else fail "schema version 6, intact" "$v"; fi
v=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(sorted(set(r[0] for r in c.execute('select r.firmware_id from runs r join machines m on m.id = r.machine_id where m.name = \'box-07\''))))" "$DB")
if [ "$v" = "['$(printf 'a%.0s' $(seq 64))', '$(printf 'b%.0s' $(seq 64))']" ]; then
    pass "each run's system.firmware_id is stored with it (migration 6)"
else
    fail "each run's system.firmware_id is stored with it" "$v"
fi
# the counter's step (migration 5): each run's from its JSON (the clock
# section's counter_step.ticks, else the largest measurement's), each
# per-iteration tick figure's resolution that step over its iterations;
# expected from the fixture read here, not from what add printed
v=$(python3 - "$DB" "$TOP/tests/fixtures/run-quick.json" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
d = json.load(open(sys.argv[2]))
want = (d.get("clock", {}).get("counter_step") or {}).get("ticks") or \
    max((m.get("counter_step_ticks") or 0 for m in d.get("methods", {}).get("measurements", [])), default=None)
got = {r[0] for r in c.execute("select counter_step_ticks from runs where source is null or source != 'lava'")}
bad = [] if got == {float(want)} else ["runs' steps %s, the fixture's %s" % (sorted(got, key=str), want)]
n = 0
for m in d["methods"]["measurements"]:
    if m.get("status") != "ok" or not m.get("counter_step_ticks"):
        continue
    fig = "meas_%s_%s_ticks" % (m["target"].replace(":", "_"), m["method"].replace("+", "_"))
    rows = c.execute("select p.step from points p join figures f on f.id = p.figure_id where f.name = ?", (fig,)).fetchall()
    for (s,) in rows:
        n += 1
        if s is None or abs(s - m["counter_step_ticks"] / m["iterations"]) > 1e-9 * s:
            bad.append("%s: step %s, want %s / %s" % (fig, s, m["counter_step_ticks"], m["iterations"]))
print("ok %d" % n if not bad and n else "; ".join(bad[:3]) or "no figure checked")
PY
)
case $v in
    "ok "*) pass "add: each run's counter step and each tick figure's resolution stored (${v#ok } points)" ;;
    *) fail "add: counter step stored" "$v" ;;
esac

# A series without a change says how small a step it could have shown:
# box-08's numsort score (30 runs of 1% noise, no step), recomputed from
# the definition (scipy): at its middle, (t(1-a'/2, n-2) + t(0.8, n-2)) *
# s * sqrt(1/15 + 1/15) over the level, a' = 0.001 / (n - 5) (the
# family-wise p over the splits with 3 a side), s the median |successive
# difference| / (0.6745 sqrt 2), not below the runs' mean half-width
"$B" history show --db "$DB" -v > "$W/quiet.txt" 2>&1
v=$(/usr/bin/python3 - "$W/before.csv" "$W/quiet.txt" <<'PY'
import csv, math, re, sys
import numpy as np
from scipy import stats
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["machine"] == "box-08" and r["figure"] == "bytemark_numsort"]
rows.sort(key=lambda r: r["started"])
x = np.array([float(r["value"]) for r in rows])
hw = np.array([(float(r["hi"]) - float(r["lo"])) / 2 for r in rows if r["lo"] and r["hi"]])
n = len(x)
a = n // 2
s = np.median(np.abs(np.diff(x))) / (stats.norm.ppf(0.75) * math.sqrt(2))
fw = 0.001 / (n - 5)
step = (stats.t.ppf(1 - fw / 2, n - 2) + stats.t.ppf(0.8, n - 2)) * s * math.sqrt(1 / a + 1 / (n - a))
if len(hw):
    step = max(step, hw.mean())
want = 100 * step / abs(x.mean())
got = None
for l in open(sys.argv[2]):
    m = re.match(r"  no change  numsort, arrays/s \[quick\] on box-08: (\d+) runs; the smallest step it could have shown ([0-9.e+-]+)%", l)
    if m:
        got = (int(m.group(1)), float(m.group(2)))
tail = [l for l in open(sys.argv[2]) if "series without a change" in l]
ok = got and got[0] == n and abs(got[1] - want) <= 0.0051 * want and tail
print("ok %.3g%%" % want if ok else "printed %s, by definition %.4g%% (n %d); closing line %s" % (got, want, n, tail))
PY
)
case $v in
    "ok "*) pass "show -v: a series without a change states the smallest step it could have shown (${v#ok }, by definition)" ;;
    *) fail "show -v: the smallest step of a quiet series" "$v" ;;
esac

# Two adds at once into a new store: the union, once each.
D2=$W/two.db
"$B" history add --db "$D2" --quiet "$W/runs/box-07" > "$W/c1.txt" 2>&1 &
"$B" history add --db "$D2" --quiet "$W/runs" > "$W/c2.txt" 2>&1 &
wait
n=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from runs').fetchone()[0], c.execute('select count(*) from points').fetchone()[0], c.execute('pragma integrity_check').fetchone()[0])" "$D2")
want=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from runs').fetchone()[0], c.execute('select count(*) from points').fetchone()[0], 'ok')" "$DB")
if [ "$n" = "$want" ]; then
    pass "two adds at once: every run once, every point, the store intact ($n)"
else
    fail "two adds at once" "got $n, want $want; $(cat "$W/c1.txt" "$W/c2.txt" | grep -v '^history: [0-9]' | head -2)"
fi

# An add killed half-way: every run stored is whole (as many points as
# the same run added alone).  The kill comes once the store holds its
# first run (polled, not after a fixed sleep: on a busy machine the add
# may not have begun, on an idle one it may be done).
D3=$W/cut.db
"$B" history add --db "$D3" --quiet "$W/runs" > /dev/null 2>&1 &
pid=$!
python3 - "$D3" "$pid" <<'PY'
import os, signal, sqlite3, sys, time
end = time.time() + 30
while time.time() < end:
    try:
        db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=0.05)
        n = db.execute("select count(*) from runs").fetchone()[0]
        db.close()
        if n >= 1:
            break
    except sqlite3.Error:
        pass
    time.sleep(0.005)
os.kill(int(sys.argv[2]), signal.SIGKILL)
PY
wait $pid 2>/dev/null
bad=$(python3 - "$D3" "$DB" <<'PY'
import sqlite3, sys
cut, ref = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
q = "select r.hash, count(p.figure_id) from runs r left join points p on p.run_id = r.id group by r.hash"
want = dict(ref.execute(q).fetchall())
got = dict(cut.execute(q).fetchall())
print(len(got), sum(1 for h, n in got.items() if want.get(h) != n), cut.execute("pragma integrity_check").fetchone()[0])
PY
)
set -- $bad
if [ "${2:-x}" = 0 ] && [ "${3:-}" = ok ]; then
    pass "an add killed half-way: $1 runs kept, each whole, the store intact"
else
    fail "an add killed half-way leaves no half run" "$bad"
fi

# The answer.
"$B" history show --db "$DB" > "$W/show.txt" 2>&1
if grep -q '^machine box-07$' "$W/show.txt" && ! grep -q '^machine box-08$' "$W/show.txt" &&
    grep -Eq '^  regression  numsort -[0-9.]+% \[quick\]: all 3 series \(arrays/s; new, index; old, index\), p [0-9.e-]+ \((strong|weak)\)$' "$W/show.txt" &&
    grep -q 'first run after: 20261102-030015 (2026-11-02T03:00:15), last before: 20261102-030014' "$W/show.txt" &&
    grep -q 'differs: build aaaa111 -> bbbb222; firmware image aaaaaaaaaaaa -> bbbbbbbbbbbb; microcode 0x1 -> 0x2' "$W/show.txt"; then
    pass "show: numeric sort's 10% drop on box-07 alone, at run 15, with the build, firmware image and microcode that changed"
else
    fail "show: the planted regression" "$(head -8 "$W/show.txt" | tr '\n' '|')"
fi
rel=$(sed -n 's/^  regression  numsort \(-[0-9.]*\)% .*/\1/p' "$W/show.txt" | head -1)
if awk -v r="$rel" 'BEGIN { exit !(r <= -8 && r >= -12) }'; then
    pass "show: the step's size is about the planted 10% ($rel%)"
else
    fail "show: the step's size is about the planted 10%" "$rel"
fi
"$B" history check --db "$DB" --since 20261101-030005 > "$W/check1.txt"; r1=$?
"$B" history check --db "$DB" --since 20261102-030016 > "$W/check2.txt"; r2=$?
"$B" history check --db "$DB" --since 20261101-030005 --threshold 20 > "$W/check3.txt"; r3=$?
"$B" history check --db "$DB" --since aaaa111 --machine box-07 > "$W/check4.txt"; r4=$?
if [ $r1 = 1 ] && grep -q '^REGRESSION on box-07$' "$W/check1.txt" && [ $r2 = 0 ] && [ $r3 = 0 ] && [ $r4 = 1 ]; then
    pass "check: exit 1 naming it since a run before the step or a build; 0 since after it, or above 20%"
else
    fail "check: exit status by --since and --threshold" "$r1 $r2 $r3 $r4"
fi
# A gate that checked nothing must not pass: a store that is not there is
# not made, an unknown --since or --machine is named, and too few runs on a
# side of --since is "cannot decide" (status 3), never "no regression".
"$B" history check --db "$W/typo.db" --since 20261101-030005 > "$W/typo.txt" 2>&1; t1=$?
"$B" history check --db "$DB" --since v1.4 > "$W/since.txt" 2>&1; t2=$?
"$B" history show --db "$DB" --machine box-99 > "$W/mach.txt" 2>&1; t3=$?
"$B" history check --db "$DB" --since 20261103-030028 > "$W/few.txt" 2>&1; t4=$?
if [ $t1 = 2 ] && [ ! -e "$W/typo.db" ] && grep -q 'typo.db: no history store there' "$W/typo.txt" &&
    [ $t2 = 2 ] && grep -q -- '--since v1.4 names no stored run' "$W/since.txt" &&
    [ $t3 = 2 ] && grep -q -- '--machine box-99: no such machine .*(machines: box-07, box-08)' "$W/mach.txt" &&
    [ $t4 = 3 ] && grep -q 'cannot decide since 20261103-030028: box-0[78] has 28 runs before it and 2 since' "$W/few.txt" &&
    ! grep -q 'no regression' "$W/few.txt" "$W/since.txt" "$W/typo.txt"; then
    pass "check/show: a missing store (not made), an unknown --since or --machine: status 2, named; too few runs: status 3, cannot decide"
else
    fail "check/show refuse what names nothing, and say when they cannot decide" "$t1 $t2 $t3 $t4; $(cat "$W/typo.txt" "$W/since.txt" "$W/mach.txt" "$W/few.txt" | tr '\n' '|')"
fi
if "$B" history --help | grep -q -- '--threshold PCT' && "$B" history check --help | grep -q -- '--alpha P'; then
    pass "history --help (and a verb's --help) prints every option"
else
    fail "history --help prints every option" "$("$B" history --help | head -3 | tr '\n' '|')"
fi
"$B" history export --db "$DB" --bmf --run 20261103-030029 > "$W/bmf.json"
if python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
v=d['bytemark_numsort']['arrays/s']; assert v['lower_value'] <= v['value'] <= v['upper_value']
assert len(d) > 50" "$W/bmf.json"; then
    pass "export --bmf: Bencher Metric Format of a run (value with its interval)"
else
    fail "export --bmf" "$(head -c 200 "$W/bmf.json")"
fi
if [ "$(grep -c ',"bytemark_numsort",' "$W/after.csv")" = 60 ]; then
    pass "export --csv: numeric sort in each of the 60 runs"
else
    fail "export --csv" "$(grep -c ',"bytemark_numsort",' "$W/after.csv")"
fi
"$B" history html --db "$DB" -o "$W/history.html"
if grep -q '<svg' "$W/history.html" && grep -q 'class=cp' "$W/history.html" &&
    grep -q 'bytemark_numsort' "$W/history.html" && ! grep -qi '<script' "$W/history.html" &&
    ! grep -q '\\x0a' "$W/history.html" && grep -q '^machine box-07$' "$W/history.html"; then
    pass "html: the series drawn with its change point, no script, the text's lines as lines (no \\x0a)"
else
    fail "html: the series drawn with its change point" "$(wc -c < "$W/history.html") bytes"
fi

# A LAVA server's jobs as tools/lava/fetch-results writes them: each job a
# run of its device; only baremark's cases with a number are figures.
mkdir -p "$W/lava/bm-1"
for j in 1 2; do
    { printf '# lava-job: %s\n# lava-server: http://127.0.0.1:8000/\n# device: bm-1\n' $j
      printf '# device-type: baremark-qemu\n# started: 2026-11-25T10:0%s:00Z\n# health: Complete\n' $j
      printf -- "- definition: 'lava'\n  case: 'file-download'\n  result: 'pass'\n  measurement: '1.5'\n  unit: 'seconds'\n"
      printf -- "- definition: 'baremark'\n  case: 'bytemark_numsort'\n  result: 'pass'\n  measurement: '45%s.5'\n  unit: 'arrays/s'\n" $j
      printf -- "- definition: 'baremark'\n  case: 'clock_cpuid_15_khz'\n  result: 'skip'\n  measurement: 'None'\n  unit: ''\n"
    } > "$W/lava/bm-1/job-$j.yaml"
done
"$B" history add --db "$W/lava.db" "$W/lava" > "$W/lava.txt" 2>&1
n=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select count(*) from runs\").fetchone()[0], c.execute(\"select group_concat(f.name) from figures f\").fetchone()[0], c.execute(\"select sum(value) from points\").fetchone()[0])" "$W/lava.db")
if [ "$n" = "2 bytemark_numsort 904.0" ] && grep -q 'LAVA job 1 on bm-1, 1 figures' "$W/lava.txt"; then
    pass "add: a LAVA server's jobs (fetch-results' files), only baremark's numeric cases as figures"
else
    fail "add: a LAVA server's jobs" "$n; $(tail -2 "$W/lava.txt" | tr '\n' '|')"
fi

# PostgreSQL: a private cluster on 127.0.0.1, the same answer.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)
if [ -z "$PGBIN" ] || ! id postgres >/dev/null 2>&1; then
    fail "PostgreSQL is installed" "tools/install-deps.sh --test"
    exit 0
fi
PGD=$(mktemp -d /tmp/baremark-pg.XXXXXX)
chown postgres "$PGD"
# A free port: two test runs at once (two worktrees) must not meet.
PORT=$((20000 + $$ % 20000))
while ss -Hltn 2>/dev/null | grep -q ":$PORT "; do PORT=$((PORT + 1)); done
as_pg() { runuser -u postgres -- "$@"; }
if as_pg "$PGBIN/initdb" -D "$PGD/data" -A trust -U postgres > "$W/pg-init.log" 2>&1 &&
    as_pg "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -o "-c listen_addresses=127.0.0.1 -p $PORT -k $PGD" start > "$W/pg-start.log" 2>&1 &&
    as_pg "$PGBIN/createdb" -h 127.0.0.1 -p $PORT history > "$W/pg-db.log" 2>&1; then
    PG="postgresql://postgres@127.0.0.1:$PORT/history"
    "$B" history add --db "$PG" --quiet "$W/runs" > "$W/pg-add.txt" 2>&1
    "$B" history add --db "$PG" --quiet "$W/runs" "$W/truncated.json" > "$W/pg-add2.txt" 2>&1
    "$B" history show --db "$PG" > "$W/pg-show.txt" 2>&1
    "$B" history check --db "$PG" --since 20261101-030005 > /dev/null 2>&1; prc=$?
    "$B" history check --db "$PG" --since 20261103-030028 > "$W/pg-few.txt" 2>&1; pfew=$?
    if grep -q '^history: 60 runs added, 0 already stored, 0 skipped (postgresql ' "$W/pg-add.txt" &&
        grep -q '^history: 0 runs added, 60 already stored, 1 skipped' "$W/pg-add2.txt" &&
        cmp -s "$W/show.txt" "$W/pg-show.txt" && [ $prc = 1 ] && [ $pfew = 3 ] && cmp -s "$W/few.txt" "$W/pg-few.txt"; then
        pass "PostgreSQL: the same adds, the same show, the same check (and cannot-decide) as SQLite"
    else
        fail "PostgreSQL: the same answer as SQLite" "$(cat "$W/pg-add.txt" "$W/pg-add2.txt" | tail -2 | tr '\n' '|'); $(diff "$W/show.txt" "$W/pg-show.txt" | head -3 | tr '\n' '|')"
    fi
else
    fail "a private PostgreSQL cluster starts on 127.0.0.1:$PORT" "$(tail -2 "$W"/pg-*.log | tr '\n' '|')"
fi
as_pg "$PGBIN/pg_ctl" -D "$PGD/data" -m fast -w stop > /dev/null 2>&1
rm -rf "$PGD"
