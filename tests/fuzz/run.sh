#!/bin/sh
# tests/fuzz/run.sh - fuzz the parsers of untrusted input with libFuzzer for
# a bounded time: `make fuzz`.  Three targets, one after the other (a crash
# in one does not hide the next):
#   config     the command-file and load-option parsers (bench/config/config_parse.c
#              and config_values.c, with the table and writer):
#              tests/fuzz/fuzz_config.c
#   json_read  the results reader (bench/results/json_read.c, the figure tables' walk
#              and the run's summary) on any text: tests/fuzz/fuzz_json_read.c
#   pe_image   the checks of a plug-in file from a stick (bench/plugins/pe_image.c):
#              tests/fuzz/fuzz_pe_image.c
#
#   FUZZ_SECONDS=60   how long to fuzz each target (default 60)
#   FUZZ_MAX_LEN=4096 largest command file tried (a PE file: FUZZ_PE_MAX_LEN,
#                     default 65536, larger than every example plug-in)
#   FUZZ_TARGETS="config json_read pe_image"   which ones
#
# One process on one core.  Seeds: tests/fuzz/corpus, corpus_json and pe_corpus
# (read only; the PE seeds are real plug-ins and files cut or broken at each
# field, tests/fuzz/make_pe_corpus.py); inputs that reach new code are kept
# in build/fuzz/TARGET/corpus, so later runs start from there.  A crash,
# sanitizer report, hang or broken invariant (see each fuzz_*.c) is saved
# under build/fuzz/TARGET/artifacts/ and fails the run; replay one with
# build/fuzz/fuzz_TARGET FILE.  Prints the execution counts.
set -u
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN=${FUZZ_SECONDS:-60}
OUT=build/fuzz
CC_FUZZ=${CC_FUZZ:-clang}
FLAGS="-g -O1 -std=gnu11 -DBAREMARK_HOST -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"

# bench/'s and tools/host/'s rooms as include folders, as the Makefile's INCLUDES and HOST_ROOMS
ROOMS=$(for d in bench/*/ tools/host/*/; do printf ' -I%s' "${d%/}"; done)

# The host program's library (the Makefile's libbaremark.a: bench/, stats/,
# tools/host/ but its main, kernel/cpu.c), compiled once with the fuzzer's
# instrumentation into an archive: a target's harness links the members its
# parser reaches, so a new call between rooms needs no list here.
ARCHIVE=$OUT/libportable.a
archive() {
    [ -f "$ARCHIVE" ] && return 0
    mkdir -p "$OUT/obj"
    host=$(find tools/host -name "*.c" ! -name main.c | sort)
    # shellcheck disable=SC2086
    if ! printf '%s\n' stats/*.c bench/*.c bench/*/*.c $host kernel/cpu.c |
        xargs -P2 -I{} sh -c 'o="$1/obj/$(echo "$2" | tr / _).o"; '"$CC_FUZZ $FLAGS"' -I. -Iport -Ibench '"$ROOMS"' -Istats -Ikernel -Iboot -Ibuild -I/usr/include/postgresql -c "$2" -o "$o"' _ "$OUT" {}; then
        echo "FAIL: fuzz: cannot compile the portable code with $CC_FUZZ -fsanitize=fuzzer" \
             "(Debian packages clang and libclang-rt-dev: make deps)"
        return 1
    fi
    ar rcs "$ARCHIVE" "$OUT"/obj/*.o
}

# build TARGET HARNESS: build/fuzz/fuzz_TARGET
build() {
    t=$1 harness=$2
    mkdir -p "$OUT/$t/corpus" "$OUT/$t/artifacts" build
    archive || return 1
    # shellcheck disable=SC2086
    if ! $CC_FUZZ $FLAGS -I. -Iport -Ibench $ROOMS -Istats -Ibuild "$harness" "$ARCHIVE" -lm -ljansson -ldl -lsqlite3 -lpq -lmicrohttpd -lcrypto -o "$OUT/fuzz_$t"; then
        echo "FAIL: fuzz: cannot build $OUT/fuzz_$t with $CC_FUZZ -fsanitize=fuzzer" \
             "(Debian packages clang and libclang-rt-dev: make deps)"
        return 1
    fi
}

# fuzz TARGET SEEDS MAX_LEN [libFuzzer options...]
fuzz() {
    t=$1 seeds=$2 max=$3
    shift 3
    bin=$OUT/fuzz_$t log=$OUT/$t/fuzz.log
    echo "fuzz: $t for ${SECONDS_TO_RUN} s (log: $log)"
    "$bin" -max_total_time="$SECONDS_TO_RUN" -max_len="$max" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$OUT/$t/artifacts/" "$@" "$OUT/$t/corpus" "$seeds" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -1)
    kept=$(ls "$OUT/$t/corpus" | wc -l)
    crashes=$(ls "$OUT/$t/artifacts" 2>/dev/null | wc -l)
    echo "fuzz: $t: ${execs:-?} executions in ${SECONDS_TO_RUN} s; ${kept} inputs in $OUT/$t/corpus"
    if [ "$rc" -ne 0 ] || grep -q 'ERROR: \(libFuzzer\|AddressSanitizer\|UndefinedBehaviorSanitizer\)\|runtime error:' "$log"; then
        grep -m3 'ERROR:\|runtime error:\|SUMMARY:' "$log"
        echo "FAIL: fuzz: $t: crash or invariant failure (exit $rc); input saved in $OUT/$t/artifacts/" \
             "($crashes file(s)); replay with $bin FILE"
        return 1
    fi
    echo "PASS: fuzz: $t: no crash in ${execs:-?} executions"
}

status=0
rm -rf "$OUT/obj" "$ARCHIVE"
for t in ${FUZZ_TARGETS:-config json_read pe_image}; do
    case $t in
    config)
        build config tests/fuzz/fuzz_config.c &&
            fuzz config tests/fuzz/corpus "${FUZZ_MAX_LEN:-4096}" -dict=tests/fuzz/config.dict || status=1 ;;
    json_read)
        build json_read tests/fuzz/fuzz_json_read.c &&
            fuzz json_read tests/fuzz/corpus_json 16384 || status=1 ;;
    pe_image)
        build pe_image tests/fuzz/fuzz_pe_image.c &&
            fuzz pe_image tests/fuzz/pe_corpus "${FUZZ_PE_MAX_LEN:-65536}" || status=1 ;;
    *) echo "FAIL: fuzz: no target '$t' (config, json_read, pe_image)"; status=1 ;;
    esac
done
exit $status
