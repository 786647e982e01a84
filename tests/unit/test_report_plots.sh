#!/bin/sh
# tests/unit/test_report_plots.sh - the report's plots can be read (issue
# 15 point 7): histograms and strips on a robust range (Tukey's outer
# fences, as the serial histograms), the values beyond counted at the edge
# and still in the bars; a count axis with its numbers; a single value
# drawn as one bar at that value; no nan or inf anywhere in the SVG, even
# for values near the largest double.  Built on tests/fixtures/run-guess.json.
# (The 1400 px page width is checked in a browser by
# tests/unit/test_report_browser_hostile.sh.)  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
G=tests/fixtures/run-guess.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
if [ ! -x "$B" ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}
# report NAME PYTHON: the fixture changed by PYTHON (d), its report in $T/NAME.html
report() {
    /usr/bin/python3 - "$G" "$T/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
    $B report "$T/$1.json" -o "$T/$1.html" > /dev/null 2>&1
}
# svgs FILE CLASS PYTHON-CHECK: run a check over the SVGs of a report
svgs() {
    /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import re, sys
h = open(sys.argv[1]).read()
svgs = [dict(text=s, **{k.replace("-", "_"): v for k, v in re.findall(r'(data-[a-z-]+)="([^"]*)"', s.split(">", 1)[0])})
        for s in re.findall(r'<svg class="%s".*?</svg>' % sys.argv[2], h, re.S)]
def bars(s, side):
    return [int(c) for c in re.findall(r'class="bar bar-%s" data-count="(\d+)"' % side, s["text"])]
ok = eval(sys.argv[3])
sys.exit(0 if ok else 1)
PY
}

# ---- outliers: the range follows the bulk, the far values are counted at the edge
report far "
c = d['comparisons']['comparisons'][0]
c['a']['samples'] = [100 + (i % 10) for i in range(297)] + [1000000, 2000000, 3000000]
c['b']['samples'] = [100 + (i % 7) for i in range(300)]
"
svgs "$T/far.html" hist 'any(s["data_n_a"] == "300" and s.get("data_above") == "3" and s["data_below"] == "0" for s in svgs)'
check "histogram: 3 values far above the outer fence are counted at the edge (data-above 3)" $?
svgs "$T/far.html" hist 'all(sum(bars(s, "a")) == int(s["data_n_a"]) and sum(bars(s, "b")) == int(s["data_n_b"]) for s in svgs)'
check "histogram: the bars still hold every sample (the far ones in the edge bin)" $?
# The expected range, computed here: Tukey's outer fences (type-7 quartiles)
# of A and of B, the widest of them, within the data's min..max.
hi=$(/usr/bin/python3 -c "
a = [100 + (i % 10) for i in range(297)] + [1000000, 2000000, 3000000]
b = [100 + (i % 7) for i in range(300)]
def q(x, p):
    x = sorted(x); h = (len(x) - 1) * p; i = int(h)
    return x[i] + (h - i) * (x[min(i + 1, len(x) - 1)] - x[i])
fh = max(q(x, .75) + 3 * (q(x, .75) - q(x, .25)) for x in (a, b))
print('%g' % min(max(a + b), fh))")
svgs "$T/far.html" hist "[s for s in svgs if s['data_n_a'] == '300' and s['data_above'] == '3'][0]['data_bins'] == str(int($hi) - 100 + 1) and '3 above $hi ' in [s for s in svgs if s['data_above'] == '3'][0]['text']"
check "histogram: the range is the bulk's: 100 to the outer fence $hi, one bin per tick value, \"3 above $hi\"" $?
svgs "$T/far.html" strip "any(s.get('data_above') == '3' and '>$hi<' in s['text'] and '1e+06' not in s['text'] and '3e+06' not in s['text'] for s in svgs)"
check "strip: the same range, the 3 far values at the top edge, counted" $?

# ---- the count axis --------------------------------------------------------------------
svgs "$T/far.html" hist 'all(re.search(r"class=\"lbl count\"[^>]*>0<", s["text"]) and
    re.search(r"class=\"lbl count\"[^>]*>%d<" % max(bars(s, "a") + bars(s, "b")), s["text"]) for s in svgs)'
check "histogram: a count axis with 0 and the largest bar's count" $?

# ---- a single value ----------------------------------------------------------------------
report one "
c = d['comparisons']['comparisons'][0]
c['a']['samples'] = [7] * 40
c['b']['samples'] = [7] * 40
d['methods']['methods'][0]['overhead']['samples'] = [1.5]
"
svgs "$T/one.html" hist 'any(s["data_bins"] == "1" and bars(s, "a") == [40] and bars(s, "b") == [40] and "every sample: 7 " in s["text"] for s in svgs)'
check "a single value (40 x 7): one bar per side, labelled once as the value" $?
svgs "$T/one.html" hist 'any(s["data_bins"] == "1" and bars(s, "a") == [1] and "every sample: 1.5 " in s["text"] for s in svgs)'
check "a single sample (1.5): one bar at its value" $?
svgs "$T/one.html" hist 'all(float(w) < 100 for s in svgs if s["data_bins"] == "1" for w in re.findall(r"width=\"([0-9.]+)\"><title>", s["text"]))'
check "a single value is a narrow bar, not a band across the axis" $?
svgs "$T/one.html" hist '">8<" not in [s for s in svgs if s["data_bins"] == "1" and bars(s, "a") == [40]][0]["text"]'
check "a single value shows no made-up range (7 to 8)" $?

# ---- no nan, no inf --------------------------------------------------------------------
report huge "
c = d['comparisons']['comparisons'][0]
c['a']['samples'] = [1e300, -1e300, 5]
c['b']['samples'] = [1.7e308, -1.7e308]
d['methods']['methods'][0]['overhead']['samples'] = [1.7e308, -1.7e308, 0]
d['bytemark']['tests'][0]['scores'] = [1.7e308, -1.7e308]
"
check "values near the largest double: the report is written" $([ -s "$T/huge.html" ]; echo $?)
check "values near the largest double: no nan or inf in the page" \
    $(! grep -Eqi '[^a-z](nan|inf)[^a-z]' "$T/huge.html"; echo $?) "$(grep -Eoi '.{40}[^a-z](nan|inf)[^a-z].{10}' "$T/huge.html" | head -2)"
check "values near the largest double: every strip dot drawn (one M per sample)" \
    $(svgs "$T/huge.html" strip 'all(p.count("M") == int(n) for s in svgs for n, p in re.findall(r"data-n=\"(\d+)\" d=\"([^\"]*)\"", s["text"]))'; echo $?)
report nulls "
d['system']['logical_cpus'] = None
d['system']['memory_mib'] = 'x'
"
check "missing numbers in the summary line: '-' rather than nan" $(! grep -qi 'nan' "$T/nulls.html"; echo $?)

# ---- targets: the first screen's table and dot plots say D1 as the summary does
# (tests/unit/summary_d1.py: the interval widened to the counter's step, "below 1
# step" for the unresolved, k of m), on the quick run whose "empty" is too short.
$B report tests/fixtures/run-quick.json -o "$T/quick.html" > /dev/null 2>&1
/usr/bin/python3 - tests/fixtures/run-quick.json "$T/quick.html" > "$T/d1.out" 2>&1 <<'PY'
import html, json, re, sys
sys.path.insert(0, "tests/unit")
import summary_d1 as d1
doc = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
ts, method = d1.targets(doc)
bad = []
for name, ests in ts.items():
    plot = re.search(r'<svg class="dotplot"[^>]*data-target="%s".*?</svg>' % re.escape(name), page, re.S)
    if not plot:
        bad.append("no plot for " + name)
        continue
    for e in ests:
        t, ci = d1.text(e)
        want = "%s: %s%s" % (e["method"], t, " ns " + ci if ci else "")
        row = re.search(r'<g class="row([^"]*)" data-method="%s"><title>([^<]*)</title>(.*?)</g>' % re.escape(e["method"]),
                        plot.group(0), re.S)
        got = html.unescape(row.group(2)) if row else None
        if not row or not got.startswith(want):
            bad.append("%s/%s: %r, want %r" % (name, e["method"], got, want))
        elif e["resolved"] != ("below" not in row.group(1)) or e["resolved"] != ("<circle" in row.group(3)):
            bad.append("%s/%s: resolved %s but class %r" % (name, e["method"], e["resolved"], row.group(1)))
    chosen = next((e for e in ests if e["method"] == method), ests[0])
    t, ci = d1.text(chosen)
    tr = re.search(r'<tr data-target="%s">(.*?)</tr>' % re.escape(name), page, re.S)
    cells = [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr.group(1))] if tr else []
    res = [e for e in ests if e["resolved"]]
    k = sum(1 for e in res if e["lo"] <= chosen["hi"] and chosen["lo"] <= e["hi"])
    want = [name, t] + ([ci + ("*" if chosen["floor"] else "")] if ci else []) + \
           ["-" if not ci else d1.g(chosen["ticks"]), chosen["method"], "%d of %d" % (k, len(res))]
    if cells != want:
        bad.append("table %s: %r, want %r" % (name, cells, want))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
check "targets: every dot plot row and the first screen's table say D1's estimate, interval and k of m" $? "$(head -3 "$T/d1.out" | tr '\n' '|')"
grep -q '<g class="row chosen below" data-method="sdm-recommended"><title>sdm-recommended: below 1 step, &lt; ' "$T/quick.html" &&
    grep -o '<svg class="dotplot"[^>]*data-target="empty".*' "$T/quick.html" | sed 's,</svg>.*,,' | grep -q 'class="lt"'
check "targets: a too-short estimate is drawn as a bound (dashed, ending in <), with no dot" $?
