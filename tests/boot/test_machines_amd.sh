#!/bin/bash
# Boot test: the wider machine matrix, AMD side (issue 26.3), in one boot:
# QEMU's EPYC-Rome CPU model under TCG, 16 logical CPUs, the i440FX + PIIX4
# chipset (-machine pc) and the 2 MiB OVMF build (Debian's OVMF_CODE.fd and
# OVMF_VARS.fd).  What the run says is checked against what that model and
# chipset present (tests/boot/machines.py lists the facts): leaves 0x15 and
# 0x16 absent, LFENCE not known to serialise (DE_CFG reads clear under a
# hypervisor; no CPUID 0x80000021), so the cores section fences its TSC
# reads with MFENCE; AMD's legacy counters found not counting; the caches
# from 0x80000005/6 (TCG cannot present topoext, so no 0x8000001D); the PM
# timer at PIIX4's port 0xb008; all 16 CPUs answering, each part of the
# cores section with one row or cell per CPU, and the time it took.
# Single-threaded TCG (ACCEL=tcg,thread=single): the 16 virtual CPUs take
# turns on one host thread, which on CI's two cores is several times faster
# than 16 host threads spinning against each other (README, "The machine
# matrix"); the all-at-once scores then do not overlap, and the run says so.
. "$(dirname "$0")/lib.sh"
img=$(fresh_image machines-amd)
export ACCEL=tcg,thread=single

BOOT_TIMEOUT=600 boot machines-amd "$img" --cpu EPYC-Rome --machine pc --firmware 2m --smp 16 \
    --options "sections=clock,cores,methods,memory profile=quick quietms=50 smptests=numsort methodsamples=20"
expect_rc 0 "amd: run-qemu exit 0 (EPYC-Rome, -machine pc, 2 MiB OVMF, 16 CPUs)"
expect_line '^baremark: run ended, status 0 ' "amd: final line with status 0"
json=$(last_json "$img" machines-amd)
/usr/bin/python3 "$(dirname "$0")/machines.py" "$json" "$BOOT_LOG" amd
expect_valid "$json" "amd: the results file validates"
