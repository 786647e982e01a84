#!/bin/sh
# tests/unit/test_fuzz_pe_replay.sh - the PE checks' fuzz target
# (tests/fuzz/fuzz_pe_image.c: bench/plugins/pe_image.c under AddressSanitizer and
# UBSan, with its invariants) run once over every file of its seed corpus
# tests/fuzz/pe_corpus (real plug-ins and files cut or broken at each field
# the checks read; tests/fuzz/make_pe_corpus.py): the short, deterministic
# part of `make fuzz` that belongs in `make test`.  Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
C=tests/fuzz/pe_corpus
BIN=build/fuzz/replay_pe_image
mkdir -p build/fuzz
if ! ${CC_FUZZ:-clang} -g -O1 -std=gnu11 -DBAREMARK_HOST -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=all -I. -Iport -Ibench -Ibench/plugins -Ibench/digest tests/fuzz/fuzz_pe_image.c bench/plugins/pe_image.c bench/digest/sha256.c -o "$BIN" 2> "$BIN.err"; then
    echo "FAIL: build the PE fuzz target with clang -fsanitize=fuzzer ($(head -2 "$BIN.err" | tr '\n' ' '))"
    exit 1
fi
n=$(ls "$C" | wc -l)
"$BIN" "$C"/* > "$BIN.log" 2>&1; rc=$?
ran=$(grep -c '^Running: ' "$BIN.log")
if [ $rc -eq 0 ] && [ "$ran" -eq "$n" ] && [ "$n" -ge 30 ] && ! grep -q 'ERROR:\|runtime error:' "$BIN.log"; then
    echo "PASS: fuzz replay: $n seed files (real plug-ins, cut and broken ones) through pe_check_plugin, pe_signature_bytes and pe_authenticode_sha256, every invariant kept"
else
    echo "FAIL: fuzz replay: exit $rc, $ran of $n files run ($(grep -m2 'ERROR:\|runtime error:\|Running:' "$BIN.log" | tail -1))"
fi
