#!/bin/sh
# tests/unit/test_baremark_stick.sh - tools/baremark-stick on a copy of a
# baremark image (no mounting): add-plugin creates \baremark\plugins\ and
# copies the plug-ins (mdir shows them, the bytes read back identical),
# list-plugins names them with size and SHA-256, a second add replaces,
# remove-plugin deletes; refusals copy nothing: a file that is not a UEFI
# image, a UEFI application, a truncated plug-in, a name not ending in .efi,
# a missing file, an image with no ESP; usage errors exit 2.
cd "$(dirname "$0")/../.." || exit 1
T=${TMPDIR:-/tmp}/test_baremark_stick.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { if [ "$2" = 0 ]; then printf "PASS: %s\n" "$1"; else printf "FAIL: %s (%s)\n" "$1" "${3:-}"; fi; }
export MTOOLS_SKIP_CHECK=1
S=tools/baremark-stick
if ! make -s build/baremark.img plugins-examples > "$T/build.log" 2>&1; then
    echo "FAIL: could not build the image and the example plug-ins ($(tail -3 "$T/build.log" | tr '\n' ' '))"
    exit 1
fi
IMG=$T/stick.img
cp build/baremark.img "$IMG"
D="$IMG@@1M"
listing() { mdir -b -i "$D" ::/baremark/plugins 2>/dev/null | sed 's|.*/||' | sort | tr '\n' ' '; }

"$S" list-plugins "$IMG" > "$T/out" 2>&1; rc=$?
check "list-plugins on a fresh image: none, exit 0" \
    $([ $rc = 0 ] && grep -qF 'no plug-ins on' "$T/out" && grep -qF '(no \baremark\plugins folder)' "$T/out"; echo $?) "rc $rc: $(cat "$T/out")"

"$S" add-plugin "$IMG" build/plugins/chain.efi build/plugins/copy.efi > "$T/out" 2>&1; rc=$?
check "add-plugin of two plug-ins: exit 0, says added with the path" \
    $([ $rc = 0 ] && [ "$(grep -cF 'added \baremark\plugins\' "$T/out")" = 2 ]; echo $?) "rc $rc: $(cat "$T/out")"
check "mdir shows \\baremark\\plugins\\ with both" $([ "$(listing)" = "chain.efi copy.efi " ]; echo $?) "$(listing)"
mcopy -n -i "$D" ::/baremark/plugins/chain.efi "$T/back.efi" 2>/dev/null
check "the copy reads back identical" $(cmp -s "$T/back.efi" build/plugins/chain.efi; echo $?)

"$S" list-plugins "$IMG" > "$T/out" 2>&1; rc=$?
sum=$(sha256sum < build/plugins/copy.efi | cut -d' ' -f1)
size=$(stat -c %s build/plugins/copy.efi)
check "list-plugins: each with its size and SHA-256" \
    $([ $rc = 0 ] && grep -Eq "^copy\.efi +$size +$sum\$" "$T/out" && grep -qF '2 plug-in(s) in \baremark\plugins' "$T/out"; echo $?) \
    "rc $rc: $(cat "$T/out")"

"$S" add-plugin "$IMG" build/plugins/chain.efi > "$T/out" 2>&1; rc=$?
check "adding the same name again replaces it" \
    $([ $rc = 0 ] && grep -qF 'replaced \baremark\plugins\chain.efi' "$T/out" && [ "$(listing)" = "chain.efi copy.efi " ]; echo $?) \
    "rc $rc: $(cat "$T/out")"

before=$(md5sum < "$IMG")
refused() { # WHAT PATTERN FILE...
    what=$1 pat=$2
    shift 2
    "$S" add-plugin "$IMG" "$@" > "$T/out" 2>&1; rc=$?
    check "$what: refused (exit 1), nothing copied" \
        $([ $rc = 1 ] && grep -qF "$pat" "$T/out" && grep -qF 'nothing copied' "$T/out" &&
          [ "$(md5sum < "$IMG")" = "$before" ]; echo $?) "rc $rc: $(cat "$T/out")"
}
printf 'hello\n' > "$T/text.efi"
refused "a text file" "text.efi: too short to be a UEFI image" "$T/text.efi"
head -c 4096 /dev/urandom | tr -d 'M' > "$T/random.efi"
refused "random bytes" "random.efi: not a UEFI image (no MZ header)" "$T/random.efi"
cp build/baremark.efi "$T/app.efi"
refused "a UEFI application" "app.efi: a UEFI application, not a baremark plug-in" "$T/app.efi"
head -c 3000 build/plugins/copy.efi > "$T/cut.efi"
refused "a truncated plug-in" "cut.efi: truncated (3000 bytes; its sections need" "$T/cut.efi"
cp build/plugins/copy.efi "$T/copy.bin"
refused "a name not ending in .efi" "copy.bin: its name must end in .efi" "$T/copy.bin"
refused "a missing file" "nothere.efi: no such file" "$T/nothere.efi"
cp build/plugins/branch.efi "$T/branch.efi"
refused "one bad file among good ones" "text.efi: too short" "$T/branch.efi" "$T/text.efi"
check "  ... and the good one was not copied either" $([ "$(listing)" = "chain.efi copy.efi " ]; echo $?) "$(listing)"

head -c 1048576 /dev/zero > "$T/blank.img"
"$S" add-plugin "$T/blank.img" build/plugins/chain.efi > "$T/out" 2>&1; rc=$?
check "an image with no ESP: exit 1, says so" \
    $([ $rc = 1 ] && grep -q 'no FAT EFI System Partition found' "$T/out"; echo $?) "rc $rc: $(cat "$T/out")"
"$S" add-plugin "$T/none.img" build/plugins/chain.efi > "$T/out" 2>&1; rc=$?
check "a missing image: exit 1" $([ $rc = 1 ] && grep -q 'no such image or device' "$T/out"; echo $?) "rc $rc"

"$S" remove-plugin "$IMG" chain > "$T/out" 2>&1; rc=$?
check "remove-plugin NAME (without .efi) removes it" \
    $([ $rc = 0 ] && grep -qF 'removed \baremark\plugins\chain.efi' "$T/out" && [ "$(listing)" = "copy.efi " ]; echo $?) \
    "rc $rc: $(cat "$T/out") / $(listing)"
"$S" remove-plugin "$IMG" chain.efi > "$T/out" 2>&1; rc=$?
check "removing a plug-in that is not there: exit 1, named" \
    $([ $rc = 1 ] && grep -q 'no plug-in chain.efi on' "$T/out"; echo $?) "rc $rc: $(cat "$T/out")"

"$S" > "$T/out" 2>&1; rc=$?
check "no arguments: one line naming the commands and --help, exit 2" \
    $([ $rc = 2 ] && [ "$(wc -l < "$T/out")" = 1 ] && grep -q '^baremark-stick: .*add-plugin.*(baremark-stick --help)$' "$T/out"; echo $?) "rc $rc"
"$S" add-plugin "$IMG" > "$T/out" 2>&1; rc=$?
check "add-plugin without a file: usage, exit 2" $([ $rc = 2 ]; echo $?) "rc $rc"
"$S" frobnicate "$IMG" > "$T/out" 2>&1; rc=$?
check "an unknown command: exit 2" $([ $rc = 2 ] && grep -q "unknown command 'frobnicate'" "$T/out"; echo $?) "rc $rc"
