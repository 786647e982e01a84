#!/bin/sh
# tests/unit/test_report_layout.sh - the report's first screen and its
# layout in a real browser (issues 22.2 and 35.3; headless Chromium from
# tools/install-deps.sh --test, driven by tests/browser/report_layout.py over
# the DevTools pipe).  For a real quick run under QEMU
# (tests/fixtures/run-quick.json), the fuller fixtures and the quick run
# made bare metal (its system.hypervisor emptied), in a 1280 x 800 window
# and on a 390 x 844 phone: the verdict badge and every target's estimate
# lie in the first screen, one dot plot per target; the page never scrolls
# sideways; on the phone the summary's column is wider than 300 px and the
# page less than 4 times as tall as at 1280; the badge says "emulated
# timings (QEMU TCG)" for the QEMU runs and nothing of the kind on bare
# metal; every reason given on hover is visible text; with every fold
# open no numeric cell wraps.  A page with script planted in every string
# keeps the same layout rules.  The verdict badge says "interrupted during
# SECTION", "warnings: N" or "failed" for such runs, and whose timings
# these are for each hypervisor signature.  The first screens of the real
# run are kept as build/report-first-screen.png (1280 x 800) and
# build/report-phone.png (390 x 844), and docs/report-*.png (the README's
# pictures) must be the same pixels, or the test says to run `make
# pictures`.  No boot.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
[ -x "$B" ] || { fail "build/host/baremark builds" "make host failed"; exit 0; }
command -v chromium >/dev/null || { fail "chromium is installed" "run: sh tools/install-deps.sh --test"; exit 0; }
export REPORT_LAYOUT_LOG="$T/chromium.log"
layout() { # layout NAME JSON [ARGS...]: the report of JSON, checked in Chromium
    name=$1 json=$2
    shift 2
    "$B" report "$json" -o "$T/$name.html" > /dev/null 2>&1 || { fail "$name: report written" "$B report $json"; return; }
    /usr/bin/python3 tests/browser/report_layout.py --what "$name" "$@" "$T/$name.html" ||
        echo "    (chromium's log: $(tail -2 "$T/chromium.log" | tr '\n' ' '))" >&2
}
mkdir -p build
layout quick tests/fixtures/run-quick.json --json tests/fixtures/run-quick.json --screenshot build/report-first-screen.png \
    --phone-screenshot build/report-phone.png
layout guess tests/fixtures/run-guess.json --json tests/fixtures/run-guess.json
layout full tests/fixtures/run-full.json --json tests/fixtures/run-full.json   # round 3: cores overlap, memory knees

# plant NAME PYTHON: the quick run changed by PYTHON (d), as $T/NAME.json
plant() {
    /usr/bin/python3 - tests/fixtures/run-quick.json "$T/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
# Bare metal: the quick run with no hypervisor signature (every fixture ran under QEMU).
plant bare "d['system']['hypervisor'] = ''"
layout bare "$T/bare.json" --json "$T/bare.json"

# Script in every string, and every name long: the rules still hold.
plant evil "
P = '<script>document.documentElement.setAttribute(\"data-pwned\",\"1\")</script>' + 'W' * 80
def walk(o):
    for k, v in (o.items() if isinstance(o, dict) else enumerate(o)):
        if isinstance(v, str):
            o[k] = P + v
        elif isinstance(v, (dict, list)):
            walk(v)
walk(d)
"
layout evil "$T/evil.json" --folds-only
grep -q '<script' "$T/evil.html" && fail "evil: no <script element on the page" "$(grep -o '.\{20\}<script.\{20\}' "$T/evil.html" | head -1)" ||
    pass "evil: no <script element on the page (every planted string escaped)"

# The badge says how the run ended.
badge() { # badge NAME PYTHON CLASS TEXT
    plant "$1" "$2"
    "$B" report "$T/$1.json" -o "$T/$1.html" > /dev/null 2>&1
    if grep -q "<span class=\"badge b-$3\" id=\"verdict\">$4</span>" "$T/$1.html"; then
        pass "$1: the badge says \"$4\""
    else
        fail "$1: the badge says \"$4\"" "$(grep -o '<span class="badge[^/]*' "$T/$1.html")"
    fi
}
badge interrupted "d['status'] = 'interrupted'; d['stage'] = 'memory'; d['ended'] = False; del d['memory']" \
    interrupted "interrupted during memory"
badge older "d['ended'] = False" interrupted "interrupted during an unknown section"
badge warnings "d['status'] = 2; d['errors'] = ['bytemark: one kernel skipped', 'cores: CPU 1 did not answer']" \
    warnings "warnings: 2"
badge failed "d['status'] = 3" failed "failed"
badge hostile_stage "d['status'] = 'interrupted'; d['stage'] = '<b>x</b>'; d['interrupted_in'] = '<b>x</b>'" interrupted "interrupted during &lt;b&gt;x&lt;/b&gt;"

# Whose timings: the badge around the verdict names the hypervisor from its
# CPUID signature (as each vendor documents it); the verdict keeps its own
# badge and text (#verdict) inside.
timings() { # timings NAME PYTHON CLASS TEXT
    plant "$1" "$2"
    "$B" report "$T/$1.json" -o "$T/$1.html" > /dev/null 2>&1
    got=$(grep -o '<span class="badge vm [^"]*" id="timings"[^>]*><span class="badge [^<]*</span>[^<]*</span>' "$T/$1.html" |
          sed 's/<[^>]*>//g; s/&middot;/·/')
    if grep -q "<span class=\"badge vm b-$3\" id=\"timings\"" "$T/$1.html" && [ "$got" = "$4" ]; then
        pass "$1: the badge says \"$4\" (class b-$3)"
    else
        fail "$1: the badge says \"$4\" (class b-$3)" "$(grep -o '<span class="badge[^/]*/span>[^/]*' "$T/$1.html" | head -1)"
    fi
}
timings tcg "pass" vm "completed · emulated timings (QEMU TCG)"
timings kvm "d['system']['hypervisor'] = 'KVMKVMKVM'" vm "completed · virtualised timings (KVM)"
timings hyperv "d['system']['hypervisor'] = 'Microsoft Hv'" vm "completed · virtualised timings (Hyper-V)"
timings unknown_hv "d['system']['hypervisor'] = 'ABCDEFGHIJKL'" vm "completed · timings under a hypervisor (ABCDEFGHIJKL)"
timings hidden_qemu "d['system']['hypervisor'] = ''; d['system']['hypervisor_hidden'] = 'QEMU'" vm "completed · timings under a hidden hypervisor (QEMU)"
if grep -q 'under a hypervisor hidden from CPUID (SMBIOS names QEMU)' "$T/hidden_qemu.html" && ! grep -q 'bare metal' "$T/hidden_qemu.html"; then
    pass "hidden_qemu: the machine line says a hypervisor hidden from CPUID, named by SMBIOS, and nowhere bare metal"
else
    fail "hidden_qemu: the machine line" "$(grep -o '<p class="summary"[^<]*' "$T/hidden_qemu.html" | head -1)"
fi
timings tcg_failed "d['status'] = 3" failed "failed · emulated timings (QEMU TCG)"
timings tcg_warnings "d['status'] = 2; d['errors'] = ['x']" warnings "warnings: 1 · emulated timings (QEMU TCG)"
plant bare_badge "d['system']['hypervisor'] = ''"
"$B" report "$T/bare_badge.json" -o "$T/bare_badge.html" > /dev/null 2>&1
if grep -q '<span class="badge b-completed" id="verdict">completed</span>' "$T/bare_badge.html" &&
   ! grep -q 'id="timings"\|emulated timings\|virtualised timings' "$T/bare_badge.html"; then
    pass "bare metal: the badge says \"completed\", green, and nothing of timings"
else
    fail "bare metal: the badge says \"completed\"" "$(grep -o '<span class="badge[^/]*' "$T/bare_badge.html" | head -2 | tr '\n' ' ')"
fi

# The README's pictures are the current report's: docs/report-*.png must be
# pixel for pixel what this run rendered from the same fixture (scrollbars
# hidden for the picture, so two renderings of one page are identical).  A
# change to the page without new pictures fails here; `make pictures`
# renders them and copies them to docs/.
for pic in report-first-screen report-phone; do
    if [ ! -s "build/$pic.png" ]; then
        fail "docs/$pic.png is the current report's picture" "build/$pic.png was not rendered"
    elif why=$(/usr/bin/python3 tests/browser/same_picture.py "docs/$pic.png" "build/$pic.png"); then
        pass "docs/$pic.png is the current report's picture of tests/fixtures/run-quick.json"
    else
        fail "docs/$pic.png is the current report's picture" "$why; run: make pictures"
    fi
done
