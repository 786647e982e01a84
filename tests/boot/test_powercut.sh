#!/bin/bash
# Boot test: the power cord.  QEMU is killed with SIGKILL (the machine loses
# power: nothing more reaches the disk) at seven chosen points of seven runs
# on one stick, one after another:
#   0. while the final NAME.json.new is being written: the stick's writes
#      are slowed to 64 KiB/s (QEMU's block_set_io_throttle through its
#      monitor) while the run idles before its end (IDLESECONDS=4: the
#      last write before is done, the final one not begun), and QEMU is
#      cut as soon as NAME.json.new shows in the stick's directory after
#      "saved: yes" (its entry is on the disk, its text not all of it yet);
#   1. inside the final JSON write, after the old NAME.json was deleted and
#      before NAME.json.new was renamed (the run stops there on
#      INJECTFAULT=hang INJECTIN=files:end-deleted; boot/file_replace.c);
#   2. inside the final JSON write, once NAME.json.new is written and
#      flushed, before the old NAME.json is deleted (files:end-written);
#   2b. the same, once the old NAME.json is overwritten with zeros and
#      flushed, before its delete (files:end-scrubbed: so the clusters the
#      delete frees hold none of its text; boot/esp_files.c esp_file_scrub);
#   3. during the clock section (on its "calibrating" line; the calibration
#      that follows lasts 375 ms of guest time),
#   4. during a BYTEmark kernel (on the suite's table header: NUMERIC SORT
#      runs next, the only kernel enabled),
#   5. while the run writes its files at the end (on the "saved:" line: the
#      final JSON, the log's last part and OUTFILE's copy are written next).
# The guest runs under -icount shift=0, so each point is the same place of
# the same instruction stream every time; the host's watcher reacts within
# about 50 ms (1 and 2 are exact: the run waits there).  After every cut:
# every earlier file (two planted runs, and the runs cut before) is byte for
# byte what it was, but for what the next boot does with a *.new a cut left
# (checked by name); fsck.fat finds no damage (nothing, or only the lost
# clusters of a write the cut stopped: fsck_check); the cut run's log is a
# prefix of what serial printed, byte for byte; its NAME.json is absent, or
# valid (baremark validate) and says "interrupted" with the stage it was cut
# in, or, cut after its final write, that it ended: never a file cut short;
# baremark-results copies and lists exactly the runs' files, naming every
# *.new as left by a cut, never as a run.  Then the next boot: the .new of
# cuts 0 and 2 (beside their NAME.json) are removed; the .new of cut 1 (its
# NAME.json absent, the .new whole) is renamed into place and is the run's
# ended document; the .new of cut 2b (beside a NAME.json of zeros) takes
# its place.
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

# results WHAT: baremark-results on the stick copies and lists the runs'
# files only; a *.new is named as left by a cut, and not counted as a run.
results() {
    local what=$1 out=$T/$1.results dest=$T/$1.copied jsons news
    rm -rf "$dest"
    "$TOP/tools/baremark-results" "$img" "$dest" > "$out" 2>&1
    jsons=$(ls "$T/$what.after" | grep -c '\.json$')
    news=$(ls "$T/$what.after" | grep -cE '^[0-9]{8}-[0-9]{6}(-[0-9]+)?\.(log|json)\.new$')
    if grep -q "^$jsons run(s) copied" "$out" && [ "$(ls "$dest" | grep -c '\.new$')" = 0 ] &&
       [ "$(grep -c 'skipped .*\.new: left by a power cut while the image wrote it' "$out")" = "$news" ]; then
        pass "$what: baremark-results lists the $jsons runs; the $news *.new named as left by a cut, not copied"
    else
        fail "$what: baremark-results takes no *.new for a run" "$(grep -v '^20' "$out" | tr '\n' '|' | head -c 300)"
    fi
}

# cut NAME REGEX OPTIONS: boot and kill QEMU (its process group) as soon as
# a serial line matches REGEX.  Sets BOOT_RC (137 when cut) and BOOT_LOG.
cut() {   # serial polled every 50 ms: the cut lands close to its line
    CUT_POLL=0.05 boot_cut "$1" "$img" "$2" --icount --options "$3"
}

# hmp SOCKET COMMAND: one command to QEMU's human monitor.
hmp() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
time.sleep(0.1)
s.recv(4096)                                   # the monitor's banner
s.sendall((sys.argv[2] + "\n").encode())
time.sleep(0.2)
PY
}

# cut_inside: cut 0 (above).  Sets BOOT_RC (137 when cut) and BOOT_LOG.
cut_inside() {
    local name=powercut-inside raw=$TEST_TMP/powercut-inside.serial sock=$T/monitor.sock pid slow="" saved="" run
    BOOT_LOG=$TEST_TMP/$name.log BOOT_RC=""
    : > "$raw"; rm -f "$sock"
    setsid "$RUN_QEMU" --timeout "$BOOT_TIMEOUT" --serial "$raw" --cpu qemu64 --icount --lean --options "sections=none idleseconds=4 verbose=t" \
        --qemu-arg -monitor --qemu-arg "unix:$sock,server=on,wait=off" "$img" >/dev/null 2>"$TEST_TMP/$name.err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if [ -z "$slow" ] && grep -q '^idle: ' "$raw"; then
            hmp "$sock" "block_set_io_throttle stick 0 0 65536 0 0 0"   # bps, read, write (bytes/s); iops
            grep -q '^idle: done' "$raw" && slow=late || slow=1
        fi
        [ -n "$slow" ] && grep -q '^saved: yes' "$raw" && saved=1
        run=$(sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$raw" | tr -d '\r')
        if [ -n "$saved" ] && [ -n "$run" ] && mdir -b -i "$img@@1M" ::/baremark 2>/dev/null | grep -qF "/$run.json.new"; then
            kill -KILL -- "-$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            BOOT_RC=137
            break
        fi
        sleep 0.05
    done
    if [ -z "$BOOT_RC" ]; then wait "$pid"; BOOT_RC=$?; fi
    slow_at=${slow:-never}      # "late": the idle was over before the monitor took the command
    tr -d '\r' < "$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Za-z0-9]//g' > "$BOOT_LOG"
}

# The text the image writes to its .log: serial from the banner, LAVA lines
# out (they go to serial only), the final line out.
serial_as_log() {
    printf '\n'
    awk '/^baremark [^ ]+ - bare-metal timing/{p=1} /^baremark: run ended/{p=0} p' "$1" | grep -v '^BAREMARK-LAVA'
}

# The cut run's name, from its "results:" line.
cut_run() { sed -n 's/^results: \\baremark\\\([^ ]*\)\.log and .*/\1/p' "$BOOT_LOG"; }

# fsck_check WHAT RUN: fsck.fat on the ESP finds nothing, or nothing but what
# FAT cannot help after a cut inside a write.  OVMF's FAT driver writes its
# FAT (both copies, one after the other) before the directory entries, so a
# cut inside a write can leave: clusters the write had allocated and not
# yet linked to its file (lost: fsck would reclaim them; at most 64 KiB,
# the final files' size) and the free-cluster hint that counted them; the
# two FAT copies differing (the second not yet written, the first intact);
# a file of the cut run (its log, NAME.json.new or OUTFILE's COPY.LOG)
# whose chain has grown past the size its entry still records (an append
# cut before the entry's new size: fsck truncates the chain to that size,
# and that text is the file as it was).  Any other finding (a cross-link, a
# bad entry, a chain shorter than its size, another file's chain) is a
# damaged disk.
fsck_check() {
    local what=$1 run=$2 f=$T/$1.fsck others lost
    if fsck.fat -n "$T/esp.part" > "$f" 2>&1; then
        pass "$what: fsck.fat finds the FAT clean"
        return
    fi
    others=$(grep -vE '^fsck\.fat |^$|^Leaving filesystem unchanged\.$|: [0-9]+ files, [0-9]+/[0-9]+ clusters$|^Reclaimed [0-9]+ unused clusters \([0-9]+ bytes\)\.$|^Free cluster summary wrong \([0-9]+ vs\. really [0-9]+\)$|^  Auto-correcting\.$|^FATs differ but appear to be intact\.$|^  Using first FAT\.$' "$f" |
        awk -v own="^/baremark/(${run:-none}[.](log|json[.]new)|copy[.]log)$" '
            tolower($0) ~ own { held = $0; grown = 0; next }
            held != "" && /^  File size is [0-9]+ bytes, cluster chain length is > [0-9]+ bytes\.$/ { grown = 1; next }
            held != "" && grown && /^  Truncating file to [0-9]+ bytes\.$/ { held = ""; next }
            { if (held != "") print held; held = ""; print }
            END { if (held != "") print held }')
    lost=$(sed -n 's/^Reclaimed [0-9]* unused clusters (\([0-9]*\) bytes)\.$/\1/p' "$f")
    if [ -z "$others" ] && [ "${lost:-0}" -le 65536 ]; then
        pass "$what: fsck.fat finds no damage: only what a write cut short leaves ($(grep -cE '^  (Truncating|Using first)' "$f") chain or FAT-copy finding(s) on the cut run's files, ${lost:-0} bytes of lost clusters)"
    else
        fail "$what: fsck.fat clean, or only a cut write's lost clusters" "$(grep -v '^fsck.fat' "$f" | head -4 | tr '\n' '|')"
    fi
}

# check WHAT STAGE [zeroed]: the assertions after a cut in section STAGE
# ("zeroed": the cut run's JSON is being overwritten with zeros before its
# delete; checked by the caller).
check() {
    local what=$1 stage=$2 zeroed=${3:-} before=$T/$1.before after=$T/$1.after name f changed=""
    expect_rc 137 "$what: QEMU was cut (SIGKILL) at the chosen line"
    snap "$after"
    for f in "$before"/*; do
        [ -e "$f" ] || continue
        case $f in *.new) continue ;; esac    # the next boot's to handle: checked by name
        [ -s "$f" ] && [ -z "$(tr -d '\000' < "$f" | head -c 1)" ] && continue   # zeroed by cut 2b: likewise
        cmp -s "$f" "$after/$(basename "$f")" || changed="$changed $(basename "$f")"
    done
    [ -z "$changed" ] && pass "$what: the $(ls "$before" | wc -l) earlier files are byte for byte unchanged" ||
        fail "$what: earlier files unchanged" "changed:$changed"
    dd if="$img" of="$T/esp.part" bs=1M skip=1 status=none
    name=$(cut_run)
    fsck_check "$what" "$name"
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
    results "$what"
    f=$after/$name.json
    if [ -n "$zeroed" ]; then
        :
    elif [ ! -e "$f" ]; then
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

# 0: while the final NAME.json.new is written.
snap "$T/inside.before"
cut_inside
check inside end
r0=$(cut_run)
[ -e "$T/inside.after/$r0.json.new" ] &&
    jq -e '.ended == false and .status == "interrupted" and .stage == "end"' "$T/inside.after/$r0.json" >/dev/null 2>&1 &&
    pass "inside: cut with $r0.json.new on the disk ($(wc -c < "$T/inside.after/$r0.json.new") of its bytes); $r0.json the previous whole version" ||
    fail "inside: the cut landed while $r0.json.new was written" "writes slowed: ${slow_at:-no}; $(ls "$T/inside.after" | tr '\n' ' ')"

# 1, 2: inside the final JSON write, at its two steps (the run waits there).
snap "$T/deleted.before"
cut powercut-deleted '^fault injection: hang in files:end-deleted' \
    "sections=clock injectfault=hang injectin=files:end-deleted"
check deleted end
r1=$(cut_run)
jq -e '.ended == true and .status == 0 and .duration_ms > 0' "$T/deleted.after/$r1.json.new" >/dev/null 2>&1 &&
    [ ! -e "$T/deleted.after/$r1.json" ] &&
    pass "deleted: $r1.json is absent and $r1.json.new holds the whole ended document" ||
    fail "deleted: the state between delete and rename" "$(ls "$T/deleted.after" | tr '\n' ' ')"
grep -qF "files: removed \\baremark\\$r0.json.new, left by a power cut while it was written; $r0.json is the last complete version" "$BOOT_LOG" &&
    cmp -s "$T/inside.after/$r0.json" "$T/deleted.after/$r0.json" && [ ! -e "$T/deleted.after/$r0.json.new" ] &&
    pass "deleted: the next boot removed cut 0's $r0.json.new, its $r0.json byte for byte as it was" ||
    fail "deleted: cut 0's leftover removed" "$(grep '^files:' "$BOOT_LOG" | tr '\n' '|')"

snap "$T/written.before"
cut powercut-written '^fault injection: hang in files:end-written' \
    "sections=none injectfault=hang injectin=files:end-written"
check written end
r2=$(cut_run)
jq -e '.ended == false and .status == "interrupted" and .stage == "end"' "$T/written.after/$r2.json" >/dev/null 2>&1 &&
    jq -e '.ended == true and .status == 0' "$T/written.after/$r2.json.new" >/dev/null 2>&1 &&
    pass "written: $r2.json is the previous whole version (interrupted during end), $r2.json.new the ended one" ||
    fail "written: the state before the old file is deleted" "$(jq -c '{status, stage, ended}' "$T/written.after/$r2.json" 2>&1 | head -c 200)"
# This boot found cut 1's leftover: NAME.json absent, the .new whole.
grep -qF "files: \\baremark\\$r1.json.new renamed to $r1.json: a power cut came after it was written whole" "$BOOT_LOG" &&
    cmp -s "$T/deleted.after/$r1.json.new" "$T/written.after/$r1.json" && [ ! -e "$T/written.after/$r1.json.new" ] &&
    "$B" validate "$T/written.after/$r1.json" >/dev/null 2>&1 &&
    pass "written: the next boot renamed cut 1's whole $r1.json.new into place, byte for byte, valid" ||
    fail "written: cut 1's leftover renamed into place" "$(grep '^files:' "$BOOT_LOG" | tr '\n' '|')"

# 2b: once the old NAME.json is overwritten with zeros, before its delete.
snap "$T/scrubbed.before"
cut powercut-scrubbed '^fault injection: hang in files:end-scrubbed' \
    "sections=none injectfault=hang injectin=files:end-scrubbed"
check scrubbed end zeroed
r3=$(cut_run)
[ -s "$T/scrubbed.after/$r3.json" ] && ! tr -d '\000' < "$T/scrubbed.after/$r3.json" | grep -q . &&
    jq -e '.ended == true and .status == 0' "$T/scrubbed.after/$r3.json.new" >/dev/null 2>&1 &&
    pass "scrubbed: $r3.json is $(wc -c < "$T/scrubbed.after/$r3.json") zero bytes (its text overwritten before the delete), $r3.json.new the ended one" ||
    fail "scrubbed: the state before the zeroed file is deleted" "$(od -c "$T/scrubbed.after/$r3.json" | head -2 | tr '\n' '|')"
cmp -s "$T/scrubbed.copied/$r3.json" "$T/scrubbed.after/$r3.json.new" && grep -q "^baremark-results: took $r3.json.new for $r3.json: " "$T/scrubbed.results" &&
    pass "scrubbed: baremark-results takes the whole $r3.json.new for the zeroed $r3.json, and says so" ||
    fail "scrubbed: baremark-results takes the .new for the zeroed file" "$(grep -v '^20' "$T/scrubbed.results" | tr '\n' '|' | head -c 300)"
grep -qF "files: removed \\baremark\\$r2.json.new, left by a power cut while it was written; $r2.json is the last complete version" "$BOOT_LOG" &&
    [ ! -e "$T/scrubbed.after/$r2.json.new" ] && cmp -s "$T/written.after/$r2.json" "$T/scrubbed.after/$r2.json" &&
    pass "scrubbed: the next boot removed cut 2's $r2.json.new, its $r2.json byte for byte as it was" ||
    fail "scrubbed: cut 2's leftover removed" "$(grep '^files:' "$BOOT_LOG" | tr '\n' '|')"

snap "$T/clock.before"
cut powercut-clock '^clock: calibrating the TSC' "sections=clock"
check clock clock
grep -qF "files: \\baremark\\$r3.json.new renamed to $r3.json: a power cut came while the old $r3.json was cleared for it, once it was written whole" "$BOOT_LOG" &&
    [ ! -e "$T/clock.after/$r3.json.new" ] && cmp -s "$T/scrubbed.after/$r3.json.new" "$T/clock.after/$r3.json" &&
    "$B" validate "$T/clock.after/$r3.json" >/dev/null 2>&1 &&
    pass "clock: the next boot put cut 2b's whole $r3.json.new in the place of the zeroed $r3.json, byte for byte, valid" ||
    fail "clock: cut 2b's leftover renamed over the zeroed file" "$(grep '^files:' "$BOOT_LOG" | tr '\n' '|')"

snap "$T/kernel.before"
cut powercut-kernel '^TEST +: Iterations/sec\.' \
    "sections=clock,bytemark profile=quick dostringsort=f dobitfield=f doemf=f dofour=f doassign=f doidea=f dohuff=f donnet=f dolu=f"
check kernel bytemark

snap "$T/write.before"
cut powercut-write '^saved: yes$' "sections=none outfile=COPY.LOG"
check write end
n=$(ls "$T/write.after" | wc -l)
[ "$n" -ge 16 ] && pass "write: the stick holds the 4 earlier files and the 7 cut runs' files ($n)" ||
    fail "write: every run's files are on the stick" "$(ls "$T/write.after" | tr '\n' ' ')"
