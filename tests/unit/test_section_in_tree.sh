#!/bin/sh
# tests/unit/test_section_in_tree.sh - a new section really is one folder
# plus one row (docs/adding-a-section.md).  On a copy of the tree (its
# files as they are now, tracked or new, and its build/ for speed), the
# doc's two steps and nothing else: the folder bench/example/ with the
# example section's file (tests/fixtures/section/example.c) and its row
# in bench/sections.def, on by default.  Then, in the copy: the image and
# the hosted program build; the layers hold; the unit checks of the
# figure tables and their readers pass (test_figures, test_figure_consumers,
# test_json_figures, test_summary); the image holds the section's LAVA id;
# and the hosted program knows the section's figures (show's summary row,
# validate) in a run that has the member.  Prints PASS:/FAIL:.
cd "$(dirname "$0")/../.." || exit 1
TOP=$(pwd)
T=${TMPDIR:-/tmp}/test_section_in_tree.$$
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/tree"
check() { # check NAME EXIT-STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+: $3}"; fi
}

# The doc still says what this test does.
doc=docs/adding-a-section.md
check "$doc: the recipe is one folder (bench/NAME/) plus one row (bench/sections.def)" \
    $(grep -q '^# Adding a section: one folder plus one row' $doc &&
      grep -q '^## 1. The folder: `bench/NAME/`' $doc &&
      grep -q '^## 2. The row: `bench/sections.def`' $doc; echo $?)

# The copy: every file of the tree as it is (git's list: tracked and new,
# ignored left out), timestamps kept, and build/ beside it so make
# rebuilds only what the two steps change.
git ls-files -z -co --exclude-standard | tar -C "$TOP" --null -T - -cf - | tar -C "$T/tree" -xpf -
[ -d build ] && cp -a build "$T/tree/build"
VERSION=$(git describe --always --dirty --tags 2>/dev/null || echo unknown)

# Step 1: the folder.  Step 2: the row (flags 0: on by default).
mkdir "$T/tree/bench/example"
cp tests/fixtures/section/example.c "$T/tree/bench/example/example.c"
echo 'SECTION("example",  NULL,          example_run,          0,                      figures_example, NULL, NULL)' \
    >> "$T/tree/bench/sections.def"
# Nothing else differs from the tree.
changed=$(cd "$T/tree" && git -C "$TOP" ls-files -co --exclude-standard | while read -r f; do
    cmp -s "$TOP/$f" "$f" || echo "$f"; done)
check "the copy differs from the tree in bench/sections.def alone (and the new folder)" \
    $([ "$changed" = "bench/sections.def" ]; echo $?) "$changed"

cd "$T/tree" || exit 1
# test_layers reads git's list of files: the copy's own index
git init -q . && git add -A
units="build/tests/test_figures build/tests/test_figure_consumers build/tests/test_json_figures build/tests/test_summary"
make -j2 VERSION="$VERSION" all host $units > "$T/make.log" 2>&1
rc=$?
check "make all host builds with the new section (no Makefile edit)" $rc "$(grep -m3 -i 'error' "$T/make.log")"
[ $rc -eq 0 ] || exit 0
check "the image holds the section's LAVA id (example_min_ticks)" \
    $(grep -aq example_min_ticks build/baremark.efi; echo $?)

MAKEFLAGS="VERSION=$VERSION" sh tests/unit/test_layers.sh > "$T/layers.log" 2>&1
check "test_layers: every rule holds with the new folder" \
    $(! grep -q '^FAIL' "$T/layers.log" && grep -q '^PASS' "$T/layers.log"; echo $?) "$(grep -m2 '^FAIL' "$T/layers.log")"

for u in $units; do
    "./$u" > "$T/unit.log" 2>&1
    rc=$?
    check "$(basename "$u"): passes in the copy with the new section" \
        $([ $rc -eq 0 ] && ! grep -q '^FAIL' "$T/unit.log"; echo $?) "$(grep -m2 '^FAIL' "$T/unit.log")"
done

# A run that has the member: the hosted program finds the figures by the row.
jq '.example = {"min_ticks": 21, "reads": 16} | .settings.sections += ["example"]' \
    tests/fixtures/run-full.json > "$T/run.json"
build/host/baremark show "$T/run.json" > "$T/show.txt" 2>&1
check "baremark show: the summary has the section's row from its headline row (example  back-to-back reads 21 ticks)" \
    $(grep -Eq '^example +back-to-back reads 21 ticks' "$T/show.txt"; echo $?) "$(grep -m1 example "$T/show.txt")"
build/host/baremark validate "$T/run.json" > "$T/validate.txt" 2>&1
check "baremark validate: the run with the member validates" $? "$(tail -2 "$T/validate.txt" | tr '\n' '|')"
jq '.example.min_ticks = -3' "$T/run.json" > "$T/bad.json"
build/host/baremark validate "$T/bad.json" > "$T/validate_bad.txt" 2>&1
check "baremark validate: a negative min_ticks (a FIG_LOWER row) is a problem, named" \
    $(grep -q 'example.min_ticks' "$T/validate_bad.txt"; echo $?) "$(tail -2 "$T/validate_bad.txt" | tr '\n' '|')"
exit 0
