#!/bin/sh
# tests/check/validate_mutants.sh OLD_BAREMARK NEW_BAREMARK [DIR [KEYS]]: what two
# builds of `baremark validate` print for the fixtures and for the mutated
# files of validate_mutants.py (made in DIR, default build/mutants), and
# the files where they differ (KEYS: validate_mutants.py --keys, every
# mutation of the members so named).  Exit 0 when every output is the same.
set -u
old=$1 new=$2 dir=${3:-build/mutants} keys=${4:-}
cd "$(dirname "$0")/../.."
rm -rf "$dir" && mkdir -p "$dir"
/usr/bin/python3 tests/check/validate_mutants.py --keys "$keys" "$dir" tests/fixtures/run-*.json > /dev/null || exit 2
differ=0 n=0
for f in tests/fixtures/run-*.json tests/fixtures/results/*.json "$dir"/*.json; do
    n=$((n + 1))
    a=$("$old" validate "$f" 2>&1; echo "rc=$?")
    b=$("$new" validate "$f" 2>&1; echo "rc=$?")
    if [ "$a" != "$b" ]; then
        differ=$((differ + 1))
        echo "DIFFERS: $f ($(cat "${f%.json}.what" 2>/dev/null))"
        printf '%s\n' "$a" > "$dir/old.txt"; printf '%s\n' "$b" > "$dir/new.txt"
        diff "$dir/old.txt" "$dir/new.txt" | sed 's/^/    /'
    fi
done
echo "validate_mutants: $n files, $differ differ"
[ "$differ" -eq 0 ]
