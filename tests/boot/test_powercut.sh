#!/bin/bash
# Boot test: the power cord.  QEMU is killed with SIGKILL (the machine loses
# power: nothing more reaches the disk) at three chosen points of three runs
# on one stick, one after another:
#   1. during the clock section (on its "calibrating" line; the calibration
#      that follows lasts 375 ms of guest time),
#   2. during a BYTEmark kernel (on the suite's table header: NUMERIC SORT
#      runs next, the only kernel enabled),
#   3. while the run writes its files at the end (on the "saved:" line: the
#      final JSON, the log's last part and OUTFILE's copy are written next).
# The guest runs under -icount shift=0, so each point is the same place of
# the same instruction stream every time; the host's watcher reacts within
# about 50 ms.  After every cut: every earlier file (two planted runs, and
# the runs cut before) is byte for byte what it was; fsck.fat finds the FAT
# clean; the cut run's log is a prefix of what serial printed, byte for
# byte; its JSON is absent, or valid (baremark validate) and says
# "interrupted" with the stage it was cut in, or, cut after its final write,
# that it ended.
. "$(dirname "$0")/lib.sh"
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
B=$BUILD/host/baremark
T=$TEST_TMP/powercut
rm -rf "$T" && mkdir -p "$T"
img=$(fresh_image powercut)

# Two earlier runs on the stick: a real run's JSON and a log.
cp "$TOP/tests/fixtures/run-quick.json" "$T/20200101-000000.json"
printf '\nbaremark (an earlier run)\nbaremark: run ended, status 0 (completed and saved)\n' > "$T/20200101-000000.log"
cp "$T/20200101-000000.json" "$T/20200102-000000.json"
printf 'another earlier log\n' > "$T/20200102-000000.log"
mcopy -i "$img@@1M" "$T"/2020*.json "$T"/2020*.log ::/baremark/

snap() {   # DIR: every file under \baremark
    rm -rf "$1"; mkdir -p "$1"
    mcopy -n -i "$img@@1M" '::/baremark/*' "$1/" 2>/dev/null || true
}

# cut NAME REGEX OPTIONS: boot and kill QEMU (its process group) as soon as
# a serial line matches REGEX.  Sets BOOT_RC (137 when cut) and BOOT_LOG.
cut() {   # serial polled every 50 ms: the cut lands close to its line
    CUT_POLL=0.05 boot_cut "$1" "$img" "$2" --icount --options "$3"
}

# The text the image writes to its .log: serial from the banner, LAVA lines
# out (they go to serial only), the final line out.
serial_as_log() {
    printf '\n'
    awk '/^baremark [^ ]+ - bare-metal timing/{p=1} /^baremark: run ended/{p=0} p' "$1" | grep -v '^BAREMARK-LAVA'
}

# check WHAT STAGE: the assertions after a cut in section STAGE.
check() {
    local what=$1 stage=$2 before=$T/$1.before after=$T/$1.after name f changed=""
    expect_rc 137 "$what: QEMU was cut (SIGKILL) at the chosen line"
    snap "$after"
    for f in "$before"/*; do
        [ -e "$f" ] || continue
        cmp -s "$f" "$after/$(basename "$f")" || changed="$changed $(basename "$f")"
    done
    [ -z "$changed" ] && pass "$what: the $(ls "$before" | wc -l) earlier files are byte for byte unchanged" ||
        fail "$what: earlier files unchanged" "changed:$changed"
    dd if="$img" of="$T/esp.part" bs=1M skip=1 status=none
    if fsck.fat -n "$T/esp.part" > "$T/$what.fsck" 2>&1; then
        pass "$what: fsck.fat finds the FAT clean"
    else
        fail "$what: fsck.fat clean" "$(grep -v '^fsck.fat\|^[0-9a-f]' "$T/$what.fsck" | head -3 | tr '\n' '|')"
    fi
    name=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$BOOT_LOG")
    if [ -z "$name" ]; then
        fail "$what: the run named its files before the cut" "no results: line"
        return
    fi
    serial_as_log "$BOOT_LOG" > "$T/$what.serial-log"
    if [ -f "$after/$name.log" ] && cmp -s "$after/$name.log" <(head -c "$(wc -c < "$after/$name.log")" "$T/$what.serial-log"); then
        pass "$what: the cut run's log ($(wc -c < "$after/$name.log") bytes) is a prefix of serial, byte for byte"
    elif [ ! -e "$after/$name.log" ]; then
        pass "$what: the cut run left no log"
    else
        fail "$what: the cut run's log is a prefix of serial" "$(cmp "$after/$name.log" "$T/$what.serial-log" 2>&1 | head -1)"
    fi
    f=$after/$name.json
    if [ ! -e "$f" ]; then
        pass "$what: the cut run left no JSON"
    elif "$B" validate "$f" > "$T/$what.validate" 2>&1 &&
         jq -e --arg s "$stage" '(.status == "interrupted" and .stage == $s and .ended == false)
                                 or ($s == "end" and .ended == true and (.status | type) == "number")' "$f" >/dev/null; then
        pass "$what: the cut run's JSON is valid and says $(jq -r 'if .ended then "it ended, status \(.status)" else "\(.status) during \(.stage)" end' "$f")"
    else
        fail "$what: the cut run's JSON is absent or valid, interrupted during $stage" \
            "$(head -2 "$T/$what.validate" | tr '\n' '|') $(jq -c '{status, stage, ended}' "$f" 2>&1 | head -c 200)"
    fi
}

snap "$T/clock.before"
cut powercut-clock '^clock: calibrating the TSC' "sections=clock"
check clock clock

snap "$T/kernel.before"
cut powercut-kernel '^TEST +: Iterations/sec\.' \
    "sections=clock,bytemark profile=quick dostringsort=f dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"
check kernel bytemark

snap "$T/write.before"
cut powercut-write '^saved: yes$' "sections=none outfile=COPY.LOG"
check write end
n=$(ls "$T/write.after" | wc -l)
[ "$n" -ge 8 ] && pass "write: the stick holds the 4 earlier files and the 3 cut runs' files ($n)" ||
    fail "write: every run's files are on the stick" "$(ls "$T/write.after" | tr '\n' ' ')"
