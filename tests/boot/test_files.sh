#!/bin/bash
# Boot test: result files on the ESP are never overwritten.
#  1. a second boot adds a new pair and leaves the first byte for byte;
#  2. runs whose names equal this run's (the firmware clock is pinned with
#     -rtc base=...) are kept byte for byte and this run takes a -N suffix.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image files)
snap() { # DIR: copy every file under \baremark out of the image
    rm -rf "$1"; mkdir -p "$1"
    mcopy -n -i "$img@@1M" '::/baremark/*' "$1/" 2>/dev/null || true
}

boot files1 "$img" --options "sections=none"
expect_rc 0 "files: first boot completes and saves"
snap "$TEST_TMP/files.a"
n1=$(ls "$TEST_TMP/files.a" | wc -l)
[ "$n1" = 2 ] && pass "files: first boot wrote 2 files" || fail "files: first boot wrote 2 files" "$(ls "$TEST_TMP/files.a")"

sleep 1   # the names come from the firmware clock's seconds
boot files2 "$img" --options "sections=none"
expect_rc 0 "files: second boot completes and saves"
snap "$TEST_TMP/files.b"
n2=$(ls "$TEST_TMP/files.b" | wc -l)
[ "$n2" = 4 ] && pass "files: second boot added 2 files" || fail "files: second boot added 2 files" "$(ls "$TEST_TMP/files.b")"
same=1
for f in "$TEST_TMP/files.a"/*; do
    cmp -s "$f" "$TEST_TMP/files.b/$(basename "$f")" || same=0
done
[ $same = 1 ] && pass "files: the first boot's files are byte for byte identical after the second" ||
    fail "files: the first boot's files unchanged" "a file of the first run changed"

# Pin the firmware clock and plant files under every name the run could take
# in its first minute: it must pick a free -N name and touch none of them.
img2=$(fresh_image files-clash)
mkdir -p "$TEST_TMP/plant"
for s in $(seq 0 59); do
    name=$(printf '20300101-0000%02d' "$s")
    echo "earlier run $name log" > "$TEST_TMP/plant/$name.log"
    echo "{\"earlier\": \"$name\"}" > "$TEST_TMP/plant/$name.json"
done
echo "earlier -2 log" > "$TEST_TMP/plant/20300101-000005-2.log"
mcopy -i "$img2@@1M" "$TEST_TMP/plant/"* ::/baremark/
img=$img2 snap "$TEST_TMP/files.c0"
boot files3 "$img2" --options "sections=none" --qemu-arg -rtc --qemu-arg "base=2030-01-01T00:00:00,clock=vm"
expect_rc 0 "files: a run whose name is taken completes and saves"
img=$img2 snap "$TEST_TMP/files.c1"
changed=0
for f in "$TEST_TMP/files.c0"/*; do
    cmp -s "$f" "$TEST_TMP/files.c1/$(basename "$f")" || changed=1
done
[ $changed = 0 ] && pass "files: all 121 planted earlier files are byte for byte unchanged" ||
    fail "files: planted files unchanged" "one changed"
new=$(comm -13 <(ls "$TEST_TMP/files.c0") <(ls "$TEST_TMP/files.c1"))
if echo "$new" | grep -Eq '^20300101-0000[0-5][0-9]-[0-9]+\.json$' && [ "$(echo "$new" | wc -l)" = 2 ]; then
    pass "files: the run took a free suffixed name ($(echo $new))"
else
    fail "files: the run took a free suffixed name" "new files: $(echo $new)"
fi
