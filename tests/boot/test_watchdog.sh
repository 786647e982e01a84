#!/bin/bash
# Boot test: a run that outlasts the firmware's 5-minute watchdog is not
# reset.  Under -icount shift=0,sleep=off the guest's idle time costs almost
# nothing, so the run idles (interrupts enabled, firmware timer ticking, CPU
# halted between ticks) for 310 guest seconds after the sections.  The
# control arms the watchdog again for 5 s and idles 20 s: that run must be
# reset before its end, which shows this test would see a reset.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image watchdog)

boot long "$img" --icount-nosleep --options "sections=none idleseconds=310"
expect_rc 0 "310 s run: run-qemu exit 0"
expect_line '^watchdog: disabled$' "310 s run: the image disabled the watchdog"
ticks=$(sed -n 's/^idle: done after \([0-9]*\) TSC ticks$/\1/p' "$BOOT_LOG")
# icount shift=0: the TSC counts 10^9 a guest second.  The firmware's timer
# events run on its 10 ms tick and its own count of ticks, so the event may
# come up to one tick early (309.996 s seen).
if [ -n "$ticks" ] && [ "$ticks" -ge 309980000000 ] && [ "$ticks" -lt 311000000000 ]; then
    pass "310 s run: idled $ticks TSC ticks (310 s at 1 GHz) and went on"
else
    fail "310 s run: idled 310 s" "ticks '${ticks}'"
fi
expect_line '^baremark: run ended, status 0 ' "310 s run: ended normally, not reset"

boot reset "$img" --icount-nosleep --options "sections=none idleseconds=20 watchdogseconds=5"
expect_rc 3 "control, watchdog armed for 5 s: run-qemu sees no end (exit 3)"
expect_line '^watchdog: armed again for 5 s' "control: watchdog armed again"
expect_line '^idle: 20 s' "control: idle started"
expect_no_line '^idle: done' "control: the firmware reset the machine during the idle"
expect_no_line '^baremark: run ended' "control: no final line"
