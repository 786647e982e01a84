#!/bin/bash
# Boot test: the HTML report of a REAL boot's results, rendered by headless
# Chromium (installed by tools/install-deps.sh --test; this test installs
# nothing).  Checks the rendered DOM against the JSON: the sections are there
# ("not run" for a missing one), every histogram SVG has one bar per bin
# and its bars count exactly the samples the JSON holds, every strip has a
# dot per sample, the clock table has a row per reference with its ppm, the
# BYTEmark table a row per kernel; in a 1280 x 800 window the verdict and
# every target's estimate are on the first screen and no numeric cell wraps
# (tests/browser/report_layout.py).  The first screen is kept as
# build/report.png (and build/report-fixture.png for the fuller fixture,
# tests/fixtures/run-guess.json, which exercises every view).  The quick
# fixture, which the README's pictures show, must carry every member the
# boot's JSON has (tests/check/fixture_covers.py; settings aside).
. "$(dirname "$0")/lib.sh"
B=${BAREMARK_HOST:-$BUILD/host/baremark}
[ -n "${BAREMARK_HOST:-}" ] || make -s -C "$TOP" host >/dev/null 2>&1
[ -x "$B" ] || { fail "browser: build/host/baremark builds" "make host failed"; exit 0; }
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { fail "browser: chromium is installed" "run: sh tools/install-deps.sh --test"; exit 0; }

chrome() { # chrome ARGS... : headless, no network, a throw-away profile
    local prof
    prof=$(mktemp -d)
    timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" "$@" 2>>"$TEST_TMP/browser.chromium.err"
    local rc=$?
    rm -rf "$prof"
    return $rc
}

# check_report JSON HTML WHAT PNG: render, compare the DOM with the JSON.
check_report() {
    local json=$1 html=$2 what=$3 png=$4 dom="$TEST_TMP/browser.$3.dom.html"
    if chrome --dump-dom "file://$html" > "$dom" && [ -s "$dom" ]; then
        pass "browser $what: Chromium rendered the report ($(wc -c < "$dom") bytes of DOM)"
    else
        fail "browser $what: Chromium rendered the report" "see $TEST_TMP/browser.chromium.err"
        return
    fi
    /usr/bin/python3 - "$json" "$dom" "$what" <<'PY'
import json, sys
from html.parser import HTMLParser

run = json.load(open(sys.argv[1]))
what = sys.argv[3]

class Dom(HTMLParser):
    """Collects the SVGs (with their bars and dot paths), h2 ids, tables."""
    def __init__(self):
        super().__init__()
        self.svgs, self.h2, self.tables, self.text = [], [], {}, []
        self.svg = self.table = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg" and ("hist" in cls or "strip" in cls or "runs" in cls):
            self.svg = {"class": cls, "attrs": a, "bars_a": [], "bars_b": [], "dots": [], "circles": 0}
            self.svgs.append(self.svg)
        elif tag == "circle" and self.svg is not None and "run" in cls:
            self.svg["circles"] += 1
        elif tag == "rect" and self.svg is not None and "bar" in cls:
            self.svg["bars_b" if "bar-b" in cls else "bars_a"].append(int(a["data-count"]))
        elif tag == "path" and self.svg is not None and "dots" in cls:
            self.svg["dots"].append((cls, int(a["data-n"]), a.get("d", "").count("M")))
        elif tag == "h2":
            self.h2.append(a.get("id"))
        elif tag == "table" and a.get("id"):
            self.table = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag == "td" and self.table is not None and self.table:
            self.table[-1].append("")
    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
        elif tag == "table":
            self.table = None
    def handle_data(self, data):
        self.text.append(data)
        if self.table is not None and self.table and self.table[-1]:
            self.table[-1][-1] += data

d = Dom()
d.feed(open(sys.argv[2]).read())
text = " ".join(d.text)
ok = True
def check(cond, msg, detail=""):
    global ok
    print(("PASS: " if cond else "FAIL: ") + f"browser {what}: {msg}" + ("" if cond else f" ({detail})"))
    ok &= bool(cond)

for sec in ("machine", "clock", "methods", "comparisons", "bytemark"):
    check(sec in d.h2, f"section '{sec}' is on the page")
# every section the page shows (bar the machine and the quiet-machine summary,
# which are made from other members) says "not run" when the file lacks it
missing = [s for s in d.h2 if s and s not in ("machine", "quiet") and s not in run]
check(text.count("not run (the section is not in this results file)") == len(missing),
      f"sections missing from the JSON say 'not run' ({', '.join(missing) or 'none'})")
check(run["system"]["cpu_brand"] in text, "the CPU brand from the JSON is shown")
check(run["build"]["compiler"] in text, "the compiler from the JSON is shown")

def samples(o):
    for k in ("samples", "raw"):
        if isinstance(o.get(k), list):
            return [x for x in o[k] if isinstance(x, (int, float))]
    ov = o.get("overhead")
    return samples(ov) if isinstance(ov, dict) else []

# The samples the JSON holds, in page order: methods' lists, then A/B pairs.
expect_hist = []
m = run.get("methods")
if m is not None:
    lists = [m] if isinstance(m, list) else [v for v in m.values()
             if isinstance(v, list) and v and isinstance(v[0], dict)]
    for lst in lists:
        expect_hist += [(len(samples(e)), 0) for e in lst if samples(e)]
    nc = m.get("null_check") if isinstance(m, dict) else None
    if isinstance(nc, dict) and nc.get("paired_p"):     # the A/A check's signed-rank p-values, last
        expect_hist.append((len(nc["paired_p"]), 0))
pairs = []
c = run.get("comparisons")
if c is not None:
    lst = c if isinstance(c, list) else next((v for k, v in c.items() if isinstance(v, list)), [])
    for e in lst:
        na, nb = len(samples(e.get("a") or e.get("A") or {})), len(samples(e.get("b") or e.get("B") or {}))
        pairs.append((na, nb))
        expect_hist.append((na, nb))

hists = [s for s in d.svgs if "hist" in s["class"]]
strips = [s for s in d.svgs if "strip" in s["class"]]
check(len(hists) == len(expect_hist), f"{len(hists)} histograms on the page, one per sampled method and A/B pair",
      f"JSON wants {len(expect_hist)}")
for i, (h, (na, nb)) in enumerate(zip(hists, expect_hist)):
    bins = int(h["attrs"]["data-bins"])
    good = len(h["bars_a"]) == bins and (nb == 0 or len(h["bars_b"]) == bins)
    check(good, f"histogram {i + 1}: {bins} bins drawn as {len(h['bars_a'])}+{len(h['bars_b'])} bars",
          f"bars {len(h['bars_a'])}/{len(h['bars_b'])}")
    check(sum(h["bars_a"]) == na and sum(h["bars_b"]) == nb,
          f"histogram {i + 1}: bars count every sample of the JSON ({na}+{nb})",
          f"bars sum {sum(h['bars_a'])}+{sum(h['bars_b'])}")
check(len(strips) == len(pairs), f"{len(strips)} raw-sample strips, one per A/B comparison", f"want {len(pairs)}")
for i, (s, (na, nb)) in enumerate(zip(strips, pairs)):
    dots = sorted((n, m) for _, n, m in s["dots"])
    check([n for n, _ in dots] == sorted([na, nb]) and all(n == m for n, m in dots),
          f"strip {i + 1}: one dot per sample ({na} A, {nb} B)", str(dots))

clock = run.get("clock")
if isinstance(clock, dict):
    refs = clock.get("references") or clock.get("refs") or []
    rows = [r for r in d.tables.get("clock-refs", []) if r]
    check(len(rows) == len(refs), f"clock table: {len(rows)} rows, one per reference", f"JSON has {len(refs)}")
    for r, ref in zip(rows, refs):
        ppm = ref.get("ppm")
        check(ppm is None or abs(float(r[2]) - ppm) <= 1e-6 * max(1, abs(ppm)),
              f"clock table: {r[0]} shows its ppm ({ppm})", str(r))
    q = clock.get("quiet")
    if isinstance(q, dict):
        rows = {r[0]: r for r in d.tables.get("quiet-check", []) if r}
        got = rows.get("largest gap", [None, None])[1]
        check(got is not None and int(got) == q["max_gap_ticks"],
              f"quiet table: the largest gap ({q['max_gap_ticks']} ticks)", str(rows))
phased = [(k, run[k]["quiet_phases"]) for k in ("methods", "comparisons", "bytemark")
          if isinstance(run.get(k), dict) and isinstance(run[k].get("quiet_phases"), dict)]
if phased:
    rows = {r[0]: r for r in d.tables.get("quiet-phases", []) if r}
    for k, qp in phased:
        r = rows.get(k)
        check(r is not None and int(r[1]) == qp["phases"] and int(r[2]) == qp["timer_stopped_phases"],
              f"measuring phases table: {k} {qp['timer_stopped_phases']} of {qp['phases']} with the timer stopped",
              str(r))
bm = run.get("bytemark")
if isinstance(bm, dict):
    tests = bm.get("tests") or bm.get("kernels") or []
    rows = [r for r in d.tables.get("bytemark-tests", []) if r]
    check(len(rows) == len(tests), f"BYTEmark table: {len(rows)} rows, one per kernel", f"JSON has {len(tests)}")
    runs = [s for s in d.svgs if "runs" in s["class"]]
    scored = [t for t in tests if t.get("scores")]
    check(len(runs) == len(scored), f"BYTEmark: {len(runs)} run plots, one per kernel with scores", f"want {len(scored)}")
    for s, t in zip(runs, scored):
        check(s["circles"] == len(t["scores"]), f"BYTEmark {t.get('name')}: one dot per run ({len(t['scores'])})",
              f"{s['circles']} dots")
sys.exit(0 if ok else 1)
PY
    # The first screen and the no-wrap rule, from the rendered layout
    # (1280 x 800; the screenshot is that first screen).
    REPORT_LAYOUT_LOG="$TEST_TMP/browser.chromium.err" /usr/bin/python3 "$TOP/tests/browser/report_layout.py" \
        --what "browser $what" --json "$json" --screenshot "$png" "$html"
}

img=$(fresh_image browser)
# The quick fixture's own configuration (tests/check/regen-fixtures.sh), so
# that the members a run writes only on some machines (a method's "why"
# when the CPU lacks rdtscp, the latencies of a second CPU) compare alike.
boot browser "$img" --cpu max --smp 2 --memory 512 --options "profile=quick lava=t"
[ "$BOOT_RC" = 0 ] || [ "$BOOT_RC" = 2 ] && pass "browser: quick run completed (run-qemu exit $BOOT_RC)" ||
    fail "browser: quick run completed" "run-qemu exit $BOOT_RC"
out=$TEST_TMP/browser.files
rm -rf "$out"
"$TOP/tools/baremark-results" "$img" "$out" >/dev/null 2>&1
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log .*/\1/p' "$BOOT_LOG" | tail -1)
json=$out/$name.json
if [ -n "$name" ] && [ -f "$json" ]; then
    if "$B" report "$json" -o "$TEST_TMP/browser.report.html" >/dev/null; then
        pass "browser: report written from the boot's $name.json"
        grep -Eq '<script|https?://[^"]*\.(js|css)|<link ' "$TEST_TMP/browser.report.html" &&
            fail "browser: the report is self-contained" "script or external resource found" ||
            pass "browser: the report is self-contained (no script, no external resource)"
        check_report "$json" "$TEST_TMP/browser.report.html" boot "$BUILD/report.png"
        # The README's pictures are rendered from the quick fixture
        # (tests/unit/test_report_layout.sh keeps them its pixels): the
        # fixture must carry every member this image writes, or the
        # pictures show a page the current image no longer makes.
        if why=$(/usr/bin/python3 "$TOP/tests/check/fixture_covers.py" "$TOP/tests/fixtures/run-quick.json" "$json"); then
            pass "browser: tests/fixtures/run-quick.json (the README's pictures) carries every member this image writes"
        else
            fail "browser: tests/fixtures/run-quick.json carries every member this image writes" \
                "$why; run: bash tests/check/regen-fixtures.sh quick && make pictures"
        fi
    else
        fail "browser: report written from the boot's JSON" "$B report $json failed"
    fi
else
    fail "browser: the boot saved its JSON" "name '$name'"
fi
# The fixture has every section, so every view is checked even while a
# section is not yet built into the image.
"$B" report "$TOP/tests/fixtures/run-guess.json" -o "$TEST_TMP/browser.fixture.html" >/dev/null &&
    check_report "$TOP/tests/fixtures/run-guess.json" "$TEST_TMP/browser.fixture.html" fixture "$BUILD/report-fixture.png"
