#!/bin/sh
# tests/unit/test_report_browser_hostile.sh - the HTML report in a real
# browser (headless Chromium, installed by tools/install-deps.sh --test):
#  - issue 15.1: a document with script planted in every string member (and
#    in member names) is rendered and none of it runs: Chromium's DOM after
#    load (--dump-dom) has no <script> or <img> element and no mark the
#    planted code would have set;
#  - issue 15.7: the pages fit a 1400 px window (no table or plot wider:
#    the page's scroll width, measured in a copy of the page).
# No boot.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
G=tests/fixtures/run-guess.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || { fail "build/host/baremark builds" "make host failed"; exit 0; }
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { fail "chromium is installed" "run: sh tools/install-deps.sh --test"; exit 0; }

chrome() { # chrome ARGS... : headless, no network, a throw-away profile
    local prof rc
    prof=$(mktemp -d)
    timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" "$@" 2>>"$T/chromium.err"
    rc=$?
    rm -rf "$prof"
    return $rc
}

# ---- 15.1: script in every string member ----------------------------------------------
/usr/bin/python3 - "$G" "$T/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# Each payload sets a mark on the page if it ever runs.
P = ('<script>document.documentElement.setAttribute("data-pwned","script")</script>'
     '<img src=x onerror="document.documentElement.setAttribute(\'data-pwned\',\'img\')">'
     '"><svg onload="document.documentElement.setAttribute(\'data-pwned\',\'svg\')">'
     "' onmouseover='x")
n = 0
def walk(o):
    global n
    items = list(o.items()) if isinstance(o, dict) else list(enumerate(o))
    for k, v in items:
        if isinstance(v, str):
            o[k] = P + v
            n += 1
        elif isinstance(v, (dict, list)):
            walk(v)
walk(d)
d["methods"]["methods"][0]["unit"] = P
d["comparisons"]["comparisons"][0]["unit"] = P
d[P] = {P: P, "list": [{P: P}]}
json.dump(d, open(sys.argv[2], "w"))
open(sys.argv[2] + ".n", "w").write(str(n))
PY
"$B" report "$T/evil.json" -o "$T/evil.html" > /dev/null 2>&1
if chrome --dump-dom "file://$T/evil.html" > "$T/evil.dom" && [ -s "$T/evil.dom" ]; then
    pass "Chromium rendered the report with script in all $(cat "$T/evil.json.n") string members ($(wc -c < "$T/evil.dom") bytes of DOM)"
else
    fail "Chromium rendered the report" "$(tail -3 "$T/chromium.err")"
fi
/usr/bin/python3 - "$T/evil.dom" <<'PY'
import sys
from html.parser import HTMLParser
class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.handlers, self.pwned, self.text = {}, [], None, []
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for k, v in attrs:
            if k == "data-pwned":
                self.pwned = v
            if k.startswith("on"):
                self.handlers.append((tag, k))
    def handle_data(self, d):
        self.text.append(d)
d = Dom()
d.feed(open(sys.argv[1]).read())
def check(ok, what, detail=""):
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok else " (%s)" % detail))
check(d.pwned is None, "none of the planted code ran (no data-pwned mark in the DOM)", d.pwned)
check(d.tags.get("script", 0) == 0 and d.tags.get("img", 0) == 0,
      "no <script> or <img> element in the DOM", {t: d.tags.get(t) for t in ("script", "img")})
check(not d.handlers, "no event-handler attribute in the DOM", d.handlers[:3])
text = "".join(d.text)
check(text.count('<script>document.documentElement.setAttribute("data-pwned","script")</script>') > 50,
      "the planted text is shown as text", text.count("<script>"))
PY

# ---- 15.7: the pages fit 1400 px ----------------------------------------------------------
# measure HTML: a copy of the page with a script that opens every fold and
# writes the page's scroll width and the widest table or plot into the DOM.
measure() {
    sed 's|</body>|<script>document.querySelectorAll("details").forEach(function (d) { d.open = true; });var w = 0, who = "";document.querySelectorAll("table, svg, p, h3, div").forEach(function (e) {var r = e.getBoundingClientRect().right; if (r > w) { w = r; who = e.tagName + "#" + (e.id \|\| e.className.baseVal \|\| e.className); }});document.documentElement.setAttribute("data-scroll", document.documentElement.scrollWidth);document.documentElement.setAttribute("data-widest", Math.round(w) + " " + who);</script></body>|' \
        "$1" > "$T/measure.html"
    chrome --window-size=1400,1000 --dump-dom "file://$T/measure.html" > "$T/measure.dom"
    sed -n 's/.*data-scroll="\([0-9]*\)".*data-widest="\([^"]*\)".*/\1 \2/p' "$T/measure.dom" | head -1
}
"$B" report "$G" -o "$T/g.html" > /dev/null 2>&1
for page in g evil; do
    res=$(measure "$T/$page.html")
    sw=${res%% *}
    widest=${res#* }
    if [ -n "$sw" ] && [ "$sw" -le 1400 ]; then
        pass "$page: the page fits 1400 px (scroll width $sw, widest element ends at ${widest%% *})"
    else
        fail "$page: the page fits 1400 px" "scroll width ${sw:-?}, widest $widest"
    fi
done
