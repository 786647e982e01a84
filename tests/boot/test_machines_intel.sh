#!/bin/bash
# Boot test: the wider machine matrix, Intel side (issue 26.3), in one boot:
# QEMU's Snowridge CPU model (Intel) under TCG, 64 logical CPUs, q35 (ICH9),
# the 4 MiB OVMF build, 8 GiB of memory with MEMORYHIGH=T.  Checked against
# what the model and chipset present (tests/boot/machines.py): leaves 0x15
# and 0x16 present but zero under TCG, so neither is a clock reference;
# LFENCE serialising (Intel: architectural), so the cores section fences
# with LFENCE; no architectural PMU (leaf 0xA version 0); SMIs counted in
# MSR 0x34; the caches from leaf 4; the PM timer at ICH9's port 0x608; the
# memory section's buffer above 4 GiB and the run saying where; all 64 CPUs
# answering, a TSC row for each, and how long the section took.
# 64 CPUs cost: SMP=tsc (the CPU list, every CPU probed, the warp check,
# offsets and rates: work that grows with the CPUs, one pair at a time);
# the latency matrix grows with their square (2016 pairs) and the per-CPU
# scores run a BYTEmark test 64 times, which the 16-CPU AMD boot covers.
# Single-threaded TCG (ACCEL=tcg,thread=single), as in test_machines_amd.sh.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image machines-intel)
export ACCEL=tcg,thread=single

BOOT_TIMEOUT=600 boot machines-intel "$img" --cpu Snowridge --machine q35 --firmware 4m --smp 64 --memory 8192 \
    --options "sections=clock,cores,methods,memory profile=quick quietms=50 smp=tsc methodsamples=20 memoryhigh=t"
expect_rc 0 "intel: run-qemu exit 0 (Snowridge, q35, 4 MiB OVMF, 64 CPUs, 8 GiB)"
expect_line '^baremark: run ended, status 0 ' "intel: final line with status 0"
json=$(last_json "$img" machines-intel)
/usr/bin/python3 "$(dirname "$0")/machines.py" "$json" "$BOOT_LOG" intel
expect_valid "$json" "intel: the results file validates"
