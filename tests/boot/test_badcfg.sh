#!/bin/bash
# Boot test: a malformed command file.  Every bad line is reported with its
# line number and ignored, the good lines around it still take effect, and
# the run completes with status 2 (warnings) and its files saved.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image badcfg)
cfg=$TEST_TMP/badcfg.cfg
{
    printf '\357\273\277# a byte-order mark starts this file; CRLF line ends follow\r\n'  # 1
    printf 'PROFILE=quick\r\n'                                   # 2 good, CRLF
    printf 'MINSECONDS=99999\r\n'                                # 3 out of range
    printf 'QUIETMS=-5\n'                                        # 4 negative
    printf 'FROBNICATE=1\n'                                      # 5 unknown key
    printf 'NUMARRAYSIZE=%0300d\n' 7                             # 6 overlong line
    printf '\001\377\376garbage\033[2J\000\n'                    # 7 binary garbage
    printf 'ALLSTATS=T\n'                                        # 8 good
    printf 'SECTIONS=none\n'                                     # 9 good
    head -c 64 /dev/urandom | tr -d '\n\r' | tr '\000-\037' 'x' | sed 's/^/\x01/'; printf '\n'  # 10 garbage
    printf 'METHODSAMPLES=12\n'                                  # 11 good, last line without LF
} > "$cfg"
truncate -s -1 "$cfg"
mcopy -o -i "$img@@1M" "$cfg" ::/baremark.cfg
sum_cfg=$(esp_cat "$img" baremark.cfg | sha256sum)

# No options: the command file alone decides what runs.
boot badcfg "$img" --options ""
expect_rc 2 "run-qemu exit 2 (completed with warnings)"
expect_line '^warning: \\baremark\.cfg line 3: .*(range|MINSECONDS)' "line 3: number out of range reported"
expect_line '^warning: \\baremark\.cfg line 4: ' "line 4: negative value reported"
expect_line '^warning: \\baremark\.cfg line 5: .*FROBNICATE' "line 5: unknown key reported by name"
expect_line '^warning: \\baremark\.cfg line 6: .*(long|255)' "line 6: overlong line reported"
expect_line '^warning: \\baremark\.cfg line 7: ' "line 7: binary garbage reported"
expect_line '^warning: \\baremark\.cfg line 10: ' "line 10: random bytes reported"
for n in 1 2 8 9 11; do
    expect_no_line "^warning: .*line $n: " "line $n: good line not reported"
done
n=$(grep -c '^warning: \\baremark.cfg line' "$BOOT_LOG")
[ "$n" = 6 ] && pass "exactly the 6 bad lines reported" || fail "exactly the 6 bad lines reported" "$n"
expect_line '^PROFILE=quick' "line 2 (CRLF after a BOM file start) took effect"
expect_line '^ALLSTATS=T' "line 8 after the garbage took effect"
expect_line '^METHODSAMPLES=12' "line 11 without a final LF took effect"
expect_line '^QUIETMS=200' "line 4's setting kept its default"
expect_line '^clock: skipped \(settings\)' "SECTIONS=none from the file took effect"
expect_line '^baremark: run ended, status 2 \(completed with warnings\)$' "final line with status 2"
json=$(esp_ls "$img" baremark | grep 'json$' | tail -1)
if [ -n "$json" ] && esp_cat "$img" "baremark/$json" |
    jq -e '.status == 2 and .ended and (.errors | length) == 6 and .settings.profile == "quick"
           and .settings.bytemark.allstats == true and .settings.methods_samples == 12' >/dev/null; then
    pass "the JSON has the 6 errors and the good settings"
else
    fail "the JSON has the 6 errors and the good settings" "$json"
fi
[ "$(esp_cat "$img" baremark.cfg | sha256sum)" = "$sum_cfg" ] && pass "the command file is untouched" ||
    fail "the command file is untouched" "changed"
