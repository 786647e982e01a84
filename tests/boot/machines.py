#!/usr/bin/python3
"""tests/boot/machines.py JSON LOG CASE - the checks of test_machines_amd.sh and
test_machines_intel.sh: what the run says about the machine against what
QEMU's CPU model and chipset present (QEMU 7.2, Debian 12, under TCG).
Prints PASS:/FAIL: lines.

The facts asserted come from QEMU's own model table (target/i386/cpu.c) and
chipsets, checked against `qemu-system-x86_64 -cpu help` and the warnings
TCG prints for what it cannot emulate:
  EPYC-Rome  AuthenticAMD family 0x17 model 0x31; CPUID level 0xd (no leaf
             0x15/0x16); caches L1d 32 KiB, L2 512 KiB, L3 16 MiB; TCG drops
             topoext (so no leaf 0x8000001D: the run reads 0x80000005/6) and
             perfctr-core (so the legacy four AMD counters), and its MSR
             C001_1029 (DE_CFG) reads 0.
  Snowridge  GenuineIntel family 6 model 0x86; CPUID level 0x1b, so leaves
             0x15 and 0x16 exist, but TCG fills them with zeros; no
             architectural PMU (leaf 0xA version 0); leaf 4 gives QEMU's
             default caches: L1d 32 KiB, L2 4 MiB, L3 16 MiB.
  pc         i440FX + PIIX4: the PM timer at I/O port 0xb008 (OVMF puts the
             PIIX4 PM base at 0xb000, the timer at +8).
  q35        ICH9: the PM timer at 0x608 (PM base 0x600).
"""
import json
import re
import sys

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30

path, log_path, case = sys.argv[1], sys.argv[2], sys.argv[3]


def check(ok, what, detail=""):
    if ok:
        print("PASS: %s: %s" % (case, what))
    else:
        print("FAIL: %s: %s (%s)" % (case, what, str(detail)[:300]))


try:
    d = json.load(open(path))
except Exception as e:  # a missing or broken file is one failure, not a crash
    print("FAIL: %s: the results JSON is readable (%s)" % (case, e))
    sys.exit(0)
log = open(log_path, errors="replace").read().splitlines()
s = d.get("system") or {}
clock = d.get("clock") or {}
mth = d.get("methods") or {}
mcpu = mth.get("cpu") or {}
pmu = mth.get("pmu") or {}
mem = d.get("memory") or {}
c = d.get("cores") or {}


def lines(regex):
    return [l for l in log if re.search(regex, l)]


def once(regex, what):
    n = len(lines(regex))
    check(n == 1, what + " (said once)", "%d lines match /%s/" % (n, regex))


def unavailable(name):
    for u in clock.get("unavailable") or []:
        if u.get("name") == name:
            return u
    return {}


def ref(name):
    for r in clock.get("references") or []:
        if r.get("name") == name:
            return r
    return {}


def caches():
    return {x["name"]: x["size_bytes"] for x in (mem.get("caches") or {}).get("list", [])}


# ---- the chipset: the PM timer port, the SMBIOS product ---------------------
def chipset(machine):
    port, product = {"pc": (0xB008, "i440FX + PIIX"), "q35": (0x608, "Q35 + ICH9")}[machine]
    acpi = s.get("acpi") or {}
    check(acpi.get("pm_timer_port") == port, "%s: the FADT's PM timer port is %#x" % (machine, port),
          acpi.get("pm_timer_port"))
    check(product in (s.get("smbios") or {}).get("product", ""), "%s: SMBIOS names %s" % (machine, product),
          (s.get("smbios") or {}).get("product"))
    pm = ref("pm_timer")
    check(pm.get("kind") == "measured" and pm.get("counter_hz") == 3579545 and pm.get("khz", 0) > 0,
          "%s: the clock calibrated against the PM timer found there" % machine, pm)
    check(clock.get("source") == "hpet" and (s.get("acpi") or {}).get("hpet") == "found",
          "%s: the HPET found and chosen" % machine, clock.get("source"))


# ---- every logical CPU -------------------------------------------------------
def cores(n, parts):
    cpus = c.get("cpus") or []
    check(c.get("mp_services") is True and c.get("count") == n and c.get("enabled") == n
          and c.get("madt_cpus") == n and s.get("logical_cpus") == n,
          "MP Services, the MADT and the system list %d CPUs" % n,
          (c.get("count"), c.get("enabled"), c.get("madt_cpus"), s.get("logical_cpus")))
    states = [x.get("state") for x in cpus]
    check(len(cpus) == n and states == ["bsp"] + ["stopped"] * (n - 1),
          "every one of the %d APs answered, worked and was stopped" % (n - 1),
          [x for x in set(states)])
    check(c.get("selected") == list(range(n)), "all %d selected" % n, len(c.get("selected") or []))
    check(len({x.get("apic_id") for x in cpus}) == n
          and all((x.get("cpuid") or {}).get("x2apic_id", x.get("apic_id")) == x.get("apic_id") for x in cpus),
          "%d distinct APIC IDs, each CPU's own CPUID agreeing" % n)
    once(r"^cores: %d of %d application processors answered" % (n - 1, n - 1), "serial: %d of %d APs answered"
         % (n - 1, n - 1))
    took = c.get("took_s") or {}
    want = ["start"] + parts
    check(sorted(k for k in took if k != "total") == sorted(want) and took.get("total", 0) > 0
          and sum(took[k] for k in want) <= took["total"] + 1e-3,
          "took_s: the total and exactly the parts that ran (%s), adding up" % ", ".join(want), took)
    took_line = lines(r"^cores: took [0-9.]+ s for %d CPUs \(start [0-9.]+ s" % n)
    check(len(took_line) == 1, "serial: how long the section took for %d CPUs" % n, took_line)
    if "tsc" in parts:
        t = {x.get("cpu"): x for x in (c.get("tsc") or {}).get("cpus", [])}
        check(sorted(t) == list(range(n)), "the TSC part has a row for each of the %d CPUs" % n, sorted(t)[:5])
        check(all(t[k].get("offset_ticks") is not None and t[k].get("warp_turns", 0) > 0 for k in t if k != 0),
              "every AP's TSC offset was measured and its warp checked",
              [k for k in t if k != 0 and t[k].get("offset_ticks") is None][:5])
        rated = [k for k in t if k != 0 and t[k].get("rate_ppm") is not None]
        check(len(rated) == n - 1, "every AP's TSC rate was fitted", len(rated))
    if "latency" in parts:
        lat = c.get("latency") or {}
        m = lat.get("median_ns") or []
        check(lat.get("cpus") == list(range(n)) and len(m) == n and all(len(r) == n for r in m)
              and all(m[i][j] and m[i][j] > 0 for i in range(n) for j in range(n) if i != j),
              "a full %dx%d latency matrix" % (n, n), len(m))
    if "scores" in parts:
        sc = c.get("scores") or {}
        per = sc.get("per_core") or []
        check(len(per) == n and all(all(t.get("status") == "ok" for t in p.get("tests", [])) for p in per),
              "a score from each of the %d CPUs" % n, len(per))
        allc = sc.get("all_cores") or []
        check(len(allc) >= 1 and all(a.get("cpus") == n for a in allc),
              "the all-at-once run counted %d CPUs" % n, [(a.get("key"), a.get("cpus")) for a in allc])


def common():
    check(d.get("status") == 0 and not d.get("errors") and d.get("ended") is True,
          "status 0, no errors, the run ended", (d.get("status"), d.get("errors")))
    once(r"^pmu: ", "the PMU: one line")
    check(not lines(r"^warning: "), "no warning lines", lines(r"^warning: ")[:3])


if case == "amd":
    common()
    check(s.get("cpu_vendor") == "AuthenticAMD" and s.get("family") == 0x17 and s.get("model") == 0x31,
          "EPYC-Rome: AuthenticAMD family 17h model 31h", (s.get("cpu_vendor"), s.get("family"), s.get("model")))
    # CPUID 0x15/0x16: the model's level 0xd has neither
    once(r"^cpuid 0x15: not present$", "no leaf 0x15")
    once(r"^cpuid 0x16: not present$", "no leaf 0x16")
    check(unavailable("cpuid_15").get("why") == "absent (CPUID has no leaf 0x15)"
          and unavailable("cpuid_16").get("why") == "absent (CPUID has no leaf 0x16)",
          "clock: cpuid_15 and cpuid_16 absent as leaves", clock.get("unavailable"))
    # LFENCE: family 17h, DE_CFG read clear under a hypervisor, no 0x80000021
    check(mcpu.get("lfence_serializing") == "unknown" and mcpu.get("amd_msr_c0011029_bit1") == "clear"
          and mcpu.get("amd_cpuid_80000021_eax_bit2") == "absent"
          and "0xC0011029" in mcpu.get("lfence_why", ""),
          "LFENCE: not known (MSR C001_1029 bit 1 reads clear under a hypervisor, CPUID 0x80000021 absent)",
          {k: mcpu.get(k) for k in ("lfence_serializing", "lfence_why", "amd_msr_c0011029_bit1")})
    once(r"^methods: lfence not known \(AMD family 17h under a hypervisor", "serial: the LFENCE note")
    check((c.get("tsc_read") or {}).get("sequence") == "rdtscp; mfence"
          and all((x.get("cpuid") or {}).get("lfence_serializing") == "unknown" for x in c.get("cpus", [])),
          "cores: every CPU says LFENCE not known, so the TSC reads fence with MFENCE", c.get("tsc_read"))
    # PMU: AMD's legacy counters (TCG drops PerfCtrExtCore); TCG never counts
    check(pmu.get("kind") == "amd" and pmu.get("usable") is False and pmu.get("general_counters") == 4
          and "do not count" in pmu.get("why", ""),
          "PMU: AMD legacy, 4 counters, found not counting", pmu)
    # caches: TCG drops topoext, so 0x80000005/6 instead of 0x8000001D
    cs = caches()
    check((mem.get("caches") or {}).get("source") == "cpuid 0x80000005/6"
          and cs.get("L1d") == 32 * KIB and cs.get("L2") == 512 * KIB and cs.get("L3") == 16 * MIB,
          "caches from CPUID 0x80000005/6: L1d 32 KiB, L2 512 KiB, L3 16 MiB", (mem.get("caches") or {}).get("source"))
    check(mem.get("memory_high") is False and mem.get("above_4gib") is False,
          "512 MiB: the memory buffer below 4 GiB", (mem.get("buffer_address"), mem.get("above_4gib")))
    chipset("pc")
    cores(16, ["tsc", "latency", "scores", "rate"])
elif case == "intel":
    common()
    check(s.get("cpu_vendor") == "GenuineIntel" and s.get("family") == 6 and s.get("model") == 0x86,
          "Snowridge: GenuineIntel family 6 model 86h", (s.get("cpu_vendor"), s.get("family"), s.get("model")))
    # CPUID 0x15/0x16 exist (level 0x1b) but hold zeros under TCG
    once(r"^cpuid 0x15: eax=0 ebx=0 ecx=0 \(crystal Hz\) \(no TSC/crystal ratio\)$", "leaf 0x15 present, zero")
    once(r"^cpuid 0x16: base 0 MHz, max 0 MHz, bus 0 MHz$", "leaf 0x16 present, zero")
    check(s.get("cpuid_15") == {"eax": 0, "ebx": 0, "ecx": 0}
          and unavailable("cpuid_15").get("why") == "absent (CPUID 0x15 gives no TSC/crystal ratio)"
          and unavailable("cpuid_16").get("why") == "absent (CPUID 0x16 gives no base frequency)",
          "clock: cpuid_15 and cpuid_16 present but stating nothing, so not references", clock.get("unavailable"))
    # LFENCE: architectural on Intel; no AMD probe
    check(mcpu.get("lfence_serializing") == "yes" and "Intel" in mcpu.get("lfence_why", "")
          and "amd_msr_c0011029_bit1" not in mcpu,
          "LFENCE dispatch-serialising (Intel: architectural), no AMD MSR read", mcpu.get("lfence_why"))
    check((c.get("tsc_read") or {}).get("sequence") == "rdtscp; lfence",
          "cores: every CPU says LFENCE serialises, so the TSC reads fence with LFENCE", c.get("tsc_read"))
    # PMU: leaf 0xA version 0
    check(pmu.get("usable") is False and "CPUID 0AH reports version 0" in pmu.get("why", ""),
          "PMU: no architectural PMU (leaf 0xA version 0)", pmu)
    # SMIs: counted through Intel's MSR 0x34
    check(len(lines(r"^methods: unmasked while measuring: .*SMI \([0-9]+ counted in MSR 0x34\)")) == 1,
          "SMIs counted through MSR 0x34 (Intel)")
    cs = caches()
    check((mem.get("caches") or {}).get("source") == "cpuid 4"
          and cs.get("L1d") == 32 * KIB and cs.get("L2") == 4 * MIB and cs.get("L3") == 16 * MIB,
          "caches from CPUID leaf 4: L1d 32 KiB, L2 4 MiB, L3 16 MiB", (mem.get("caches") or {}).get("source"))
    # 8 GiB, MEMORYHIGH=T: the buffer above 4 GiB, said on serial
    a = mem.get("buffer_address") or 0
    check(s.get("memory_mib", 0) > 7 * 1024, "8 GiB: the firmware's map shows over 7 GiB", s.get("memory_mib"))
    check(mem.get("memory_high") is True and mem.get("above_4gib") is True and a >= 4 * GIB
          and a + mem.get("allocated_bytes", 0) <= 10 * GIB,
          "MEMORYHIGH: the memory buffer lies above 4 GiB, inside the machine's memory", hex(a))
    once(r"^memory: buffer at 0x[1-9a-f][0-9a-f]{8,}-0x[0-9a-f]+ \(firmware AllocatePages\), above 4 GiB; MEMORYHIGH",
         "serial: where the buffer lies")
    chipset("q35")
    cores(64, ["tsc", "rate"])
else:
    print("FAIL: machines.py: unknown case %s" % case)
