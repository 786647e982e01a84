#!/bin/bash
# Boot test: the console (docs/console.md).  By default serial shows only
# lines for people: the banner, one line as each section starts and ends
# (numbered among the sections that run, with its time), progress inside a
# long section with an estimate of the time left, warnings, the summary and
# the end lines; no BAREMARK-LAVA line unless lava=t.  The .log on the stick
# still holds the full text, every console line included in the same order.
# With verbose=t the console is the log, byte for byte.
. "$(dirname "$0")/lib.sh"

# ---- 1. the default console: clock and BYTEmark (the quick profile) ------------------
img=$(fresh_image console)
BOOT_CONSOLE=default boot console "$img" --options "profile=quick sections=clock,bytemark quietms=50"
expect_rc 0 "default: run-qemu exit 0"
expect_line '^baremark [^ ]+ - bare-metal timing and BYTEmark$' "default: the banner"
expect_line '^console: progress, warnings and the summary \(verbose=t for every line; the \.log has them\)$' \
    "default: says how to see every line"
expect_line '^\[1/2\] clock \.\.\.$' "default: clock's start line, 1 of 2"
expect_line '^\[1/2\] clock: done in [0-9]+ s$' "default: clock's end line with its time"
expect_line '^\[2/2\] bytemark \.\.\.$' "default: bytemark's start line, 2 of 2"
expect_line '^\[2/2\] bytemark: done in [0-9]+ (min [0-9]+ )?s$' "default: bytemark's end line with its time"
expect_line '^=+ baremark summary: ' "default: the summary"
expect_line '^baremark: run ended, status 0 \(completed and saved\)$' "default: the final line"
expect_no_line '^BAREMARK-LAVA' "default: no LAVA line (lava=t asks for them)"

# Every line from the banner to the final line is a line for people: the
# banner's, a progress line, a warning, the summary block or an end line.
text=$TEST_TMP/console.text
awk '/^baremark [^ ]+ - bare-metal timing/{p=1} p' "$BOOT_LOG" > "$text"
other=$(awk '/^=+ baremark summary: /{s=1} s{if (/^=+$/) s=0; next} 1' "$text" |
    grep -Ev '^(baremark [^ ]+ - bare-metal timing and BYTEmark|console: |results: |profile: |\[[0-9]+/[0-9]+\] |warning: |saved: |baremark: run ended)' |
    grep -v '^$')
[ -z "$other" ] && pass "default: every console line is a line for people ($(wc -l < "$text") lines)" ||
    fail "default: every console line is a line for people" "$(printf '%s' "$other" | head -3 | tr '\n' '|')"

# A progress line comes at most every 10 s, so a section of 20 s or more
# has at least one (a faster machine may run quick BYTEmark in less, with
# none); each line's estimate is the time per test so far times the tests
# left (rounded to 10 s, at least 10 s).
if /usr/bin/python3 - "$text" > "$TEST_TMP/console.progress" 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1]).read().splitlines(True)
lines = [l for l in text if re.match(r"\[2/2\] bytemark: \w+ done \(", l)]
took = [re.match(r"\[2/2\] bytemark: done in (?:(\d+) min )?(\d+) s$", l.strip()) for l in text]
took = [int(m.group(1) or 0) * 60 + int(m.group(2)) for m in took if m]
section = took[0] if took else 0
bad = []
def secs(t):
    m = re.fullmatch(r"(?:(\d+) min )?(\d+) s", t)
    return int(m.group(1) or 0) * 60 + int(m.group(2))
for l in lines:
    m = re.fullmatch(r"\[2/2\] bytemark: \w+ done \((\d+)/10\), (.+?) so far(?:, about (.+) left)?\n", l)
    if not m:
        bad.append("format: " + l.strip())
        continue
    done, so_far, left = int(m.group(1)), secs(m.group(2)), m.group(3)
    if done < 10:
        want = so_far * (10 - done) // done
        want = max(10, (want + 5) // 10 * 10) if want < 300 else (want + 30) // 60 * 60
        if left is None or secs(left) != want:
            bad.append("estimate %s, want %d s: %s" % (left, want, l.strip()))
    elif left is not None:
        bad.append("time left after the last test: " + l.strip())
print(len(lines), "progress lines in a section of", section, "s;", "; ".join(bad) or "ok")
sys.exit(1 if bad or (not lines and section >= 20) else 0)
PY
then
    pass "default: bytemark's progress lines, the time left = time per test so far x tests left ($(head -c 40 "$TEST_TMP/console.progress"))"
else
    fail "default: bytemark's progress lines" "$(head -c 300 "$TEST_TMP/console.progress")"
fi

# The log on the stick: the full text (the settings, BYTEmark's table), and
# every console line in it, in the same order.
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$BOOT_LOG")
esp_cat "$img" "baremark/$name.log" | tr -d '\r' > "$TEST_TMP/console.esp.log" 2>/dev/null
if grep -q '^settings in effect:$' "$TEST_TMP/console.esp.log" && grep -q '^STRING SORT' "$TEST_TMP/console.esp.log" &&
   grep -q '^clock: calibration took ' "$TEST_TMP/console.esp.log"; then
    pass "default: the .log holds the full text (settings in effect, clock, BYTEmark's table)"
else
    fail "default: the .log holds the full text" "run '$name': $(wc -l < "$TEST_TMP/console.esp.log") lines"
fi
if /usr/bin/python3 - "$text" "$TEST_TMP/console.esp.log" <<'PY'
import sys
shown = [l for l in open(sys.argv[1]).read().split("\n") if l and not l.startswith("baremark: run ended")]
log = open(sys.argv[2]).read().split("\n")
i = 0
for l in log:
    if i < len(shown) and l == shown[i]:
        i += 1
sys.exit(0 if i == len(shown) else 1)
PY
then
    pass "default: every console line is in the .log, in the same order"
else
    fail "default: console lines in the .log" "see $TEST_TMP/console.esp.log"
fi

# ---- 2. verbose=t: the console is the log ---------------------------------------------
img2=$(fresh_image console-verbose)
BOOT_CONSOLE=default boot console-verbose "$img2" --options "sections=clock quietms=50 verbose=t"
expect_rc 0 "verbose=t: run-qemu exit 0"
expect_line '^settings in effect:$' "verbose=t: the settings in effect on the console"
expect_line '^VERBOSE=T$' "verbose=t: VERBOSE=T in the settings in effect"
expect_no_line '^console: ' "verbose=t: no note about the short console"
expect_no_line '^BAREMARK-LAVA' "verbose=t: still no LAVA line"
name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$BOOT_LOG")
esp_cat "$img2" "baremark/$name.log" > "$TEST_TMP/console-verbose.esp.log" 2>/dev/null
{ printf '\n'; awk '/^baremark [^ ]+ - bare-metal timing/{p=1} /^baremark: run ended/{p=0} p' "$BOOT_LOG"; } \
    > "$TEST_TMP/console-verbose.serial-log"
if [ -n "$name" ] && [ -s "$TEST_TMP/console-verbose.esp.log" ] &&
   cmp -s "$TEST_TMP/console-verbose.esp.log" "$TEST_TMP/console-verbose.serial-log"; then
    pass "verbose=t: the log on the stick is byte for byte the serial text ($(wc -c < "$TEST_TMP/console-verbose.esp.log") bytes)"
else
    fail "verbose=t: log = serial" "run '$name': $(cmp "$TEST_TMP/console-verbose.esp.log" "$TEST_TMP/console-verbose.serial-log" 2>&1 | head -1)"
fi
