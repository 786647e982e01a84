#!/bin/sh
# tests/fuzz/run.sh - fuzz the command-file and load-option parsers, then the
# results reader (bench/json_read.c with the figure tables and the summary),
# (bench/config_parse.c and config_values.c, with the table and writer) with libFuzzer for a bounded time: `make fuzz`.
#
#   FUZZ_SECONDS=60   how long to fuzz (default 60)
#   FUZZ_MAX_LEN=4096 largest input tried
#
# One process on one core.  Seeds: tests/fuzz/corpus (read only); inputs that
# reach new code are kept in build/fuzz/corpus, so later runs start from
# there.  A crash, sanitizer report, hang or broken invariant (see
# fuzz_config.c) is saved under build/fuzz/artifacts/ and fails the run;
# replay one with build/fuzz/fuzz_config FILE.  Prints the execution count.
set -u
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN=${FUZZ_SECONDS:-60}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
OUT=build/fuzz
BIN=$OUT/fuzz_config
LOG=$OUT/fuzz.log
CC_FUZZ=${CC_FUZZ:-clang}

mkdir -p "$OUT/corpus" "$OUT/artifacts" build
# buildinfo.h is not needed by these sources; -Ibuild only for symmetry.
if ! $CC_FUZZ -g -O1 -std=gnu11 -DBAREMARK_HOST \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -I. -Ibench -Istats -Ibuild \
        tests/fuzz/fuzz_config.c bench/config_parse.c bench/config_values.c bench/config_params.c bench/config_write.c bench/sections.c bench/figures_[a-z]*.c bench/json.c bench/cores_math.c tools/host/platform_host.c \
        -lm -o "$BIN"; then
    echo "FAIL: fuzz: cannot build $BIN with $CC_FUZZ -fsanitize=fuzzer" \
         "(Debian packages clang and libclang-rt-dev: make deps)"
    exit 1
fi

echo "fuzz: config parsers for ${SECONDS_TO_RUN} s (log: $LOG)"
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -dict=tests/fuzz/config.dict \
    -artifact_prefix="$OUT/artifacts/" "$OUT/corpus" tests/fuzz/corpus > "$LOG" 2>&1
rc=$?

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -1)
[ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$LOG" | tail -1)
[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$LOG" | tail -1)
kept=$(ls "$OUT/corpus" | wc -l)
crashes=$(ls "$OUT/artifacts" 2>/dev/null | wc -l)
echo "fuzz: ${execs:-?} executions in ${SECONDS_TO_RUN} s; ${kept} inputs in $OUT/corpus"
if [ "$rc" -ne 0 ] || grep -q 'ERROR: \(libFuzzer\|AddressSanitizer\|UndefinedBehaviorSanitizer\)\|runtime error:' "$LOG"; then
    grep -m3 'ERROR:\|runtime error:\|SUMMARY:' "$LOG"
    echo "FAIL: fuzz: crash or invariant failure (exit $rc); input saved in $OUT/artifacts/" \
         "($crashes file(s)); replay with $BIN FILE"
    failed=1        # the next target still runs
else
    echo "PASS: fuzz: no crash in ${execs:-?} executions"
fi

# ---- the results reader: bench/json_read.c, the figure tables' walk and the
# run's summary on any text (fuzz_json_read.c); seeds tests/fuzz/corpus_json.
JBIN=$OUT/fuzz_json_read
JLOG=$OUT/fuzz_json.log
mkdir -p "$OUT/corpus_json"
if ! $CC_FUZZ -g -O1 -std=gnu11 -DBAREMARK_HOST \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -I. -Ibench -Istats -Ibuild \
        tests/fuzz/fuzz_json_read.c bench/json_read.c bench/summary.c bench/summary_text.c bench/figures.c \
        bench/figures_[a-z]*.c bench/sections.c bench/lava.c stats/*.c tools/host/platform_host.c \
        -lm -o "$JBIN"; then
    echo "FAIL: fuzz: cannot build $JBIN with $CC_FUZZ -fsanitize=fuzzer"
    exit 1
fi
echo "fuzz: results reader for ${SECONDS_TO_RUN} s (log: $JLOG)"
"$JBIN" -max_total_time="$SECONDS_TO_RUN" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/json-" "$OUT/corpus_json" tests/fuzz/corpus_json > "$JLOG" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$JLOG" | tail -1)
if [ "$rc" -ne 0 ] || grep -q 'ERROR: \(libFuzzer\|AddressSanitizer\|UndefinedBehaviorSanitizer\)\|runtime error:' "$JLOG"; then
    grep -m3 'ERROR:\|runtime error:\|SUMMARY:' "$JLOG"
    echo "FAIL: fuzz: results reader: crash or invariant failure (exit $rc); input in $OUT/artifacts/json-*;" \
         "replay with $JBIN FILE"
    failed=1
else
    echo "PASS: fuzz: results reader: no crash in ${execs:-?} executions"
fi
exit ${failed:-0}
