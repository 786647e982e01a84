/*
 * bench/methods/methods.c - the timing methods' table and what the CPU supports.
 * The measurement engine is methods_engine.c (CodeTune's calibrate /
 * benchmark / interpret, seed 004; Apple's net time, seed 001), each
 * method's overhead, resolution and Paoloni's checks methods_overhead.c,
 * the `methods` section methods_section.c.  See methods.h for the
 * good-sample criteria and the estimators.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "methods.h"
#include "platform.h"
#include "targets.h"

#define METHOD_DECL(k) \
    uint64_t bm_method_##k(bm_routine, uint64_t, void *); \
    uint64_t bm_null_##k(void);
METHOD_DECL(cpuid_rdtsc)
METHOD_DECL(lfence_rdtsc)
METHOD_DECL(lfence_rdtsc_lfence)
METHOD_DECL(rdtscp)
METHOD_DECL(lfence_rdtscp)
METHOD_DECL(cpuid_rdtscp)
METHOD_DECL(rdtscp_lfence)
METHOD_DECL(rdtsc)
METHOD_DECL(sdm)

#define CODETUNE "CodeTune method "
/* The sequences as text; bench/methods/methods.asm's SEQ_ macros are the code and
 * tests/unit/test_methods.c checks that the bytes match this text. */
const struct methods_info methods_table[METHODS_COUNT] = {
    { "cpuid+rdtsc", "cpuid_rdtsc", 1, "xor eax, eax; cpuid; rdtsc", CODETUNE "1",
      0, 1, 0, bm_method_cpuid_rdtsc, bm_null_cpuid_rdtsc },
    { "lfence+rdtsc", "lfence_rdtsc", 2, "lfence; rdtsc", CODETUNE "2",
      0, 0, 1, bm_method_lfence_rdtsc, bm_null_lfence_rdtsc },
    { "lfence+rdtsc+lfence", "lfence_rdtsc_lfence", 3, "lfence; rdtsc; lfence", CODETUNE "3",
      0, 0, 1, bm_method_lfence_rdtsc_lfence, bm_null_lfence_rdtsc_lfence },
    { "rdtscp", "rdtscp", 4, "rdtscp", CODETUNE "4",
      1, 0, 0, bm_method_rdtscp, bm_null_rdtscp },
    { "lfence+rdtscp", "lfence_rdtscp", 5, "lfence; rdtscp", CODETUNE "5",
      1, 0, 1, bm_method_lfence_rdtscp, bm_null_lfence_rdtscp },
    { "cpuid+rdtscp", "cpuid_rdtscp", 6, "xor eax, eax; cpuid; rdtscp", CODETUNE "6",
      1, 1, 0, bm_method_cpuid_rdtscp, bm_null_cpuid_rdtscp },
    { "rdtscp+lfence", "rdtscp_lfence", 7, "rdtscp; lfence", CODETUNE "7",
      1, 0, 1, bm_method_rdtscp_lfence, bm_null_rdtscp_lfence },
    { "rdtsc", "rdtsc", 8, "rdtsc", CODETUNE "8",
      0, 0, 0, bm_method_rdtsc, bm_null_rdtsc },
    { "sdm-recommended", "sdm", 0, "mfence; lfence; rdtsc; lfence",
      "the CPU vendor's recommendation: Intel SDM vol. 2, RDTSC (MFENCE;LFENCE before, LFENCE after)",
      0, 0, 1, bm_method_sdm, bm_null_sdm },
};

/* Ordered so a status code indexes nothing by accident: looked up by value. */
static const struct { int code; const char *name; } methods_status_names[] = {
    { METHODS_OK, "ok" }, { METHODS_BAD_INPUT, "bad_input" },
    { METHODS_CAL_OVERHEAD, "calibration_overhead" }, { METHODS_BENCH_OVERHEAD, "benchmark_overhead" },
    { METHODS_TOO_SHORT, "too_short" }, { METHODS_INCONCLUSIVE, "inconclusive" },
    { METHODS_UNSUPPORTED, "unsupported" }, { METHODS_FAULT, "fault" }, { METHODS_NOMEM, "no_memory" },
};

/* ---- small helpers ----------------------------------------------------------------- */

const char *methods_step_source_name(int source)
{
    static const char *const names[] = { "assumed", "smallest_gap", "measured", "given" };
    return source >= 0 && source <= METHODS_STEP_CALLER ? names[source] : "?";
}

const char *methods_status_name(int status)
{
    for (size_t i = 0; i < sizeof methods_status_names / sizeof methods_status_names[0]; i++)
        if (methods_status_names[i].code == status)
            return methods_status_names[i].name;
    return "?";
}

double methods_ns(double ticks, uint64_t hz)
{
    return hz ? ticks * 1e9 / (double)hz : NAN;
}

void methods_sequence_split(const struct methods_info *m, int *before, int *after)
{
    const char *s = m->sequence, *read = strstr(s, "rdtsc");
    int b = 0, a = 0;
    for (const char *p = s; p < read; p++)
        b += *p == ';';
    for (const char *p = read; *p; p++)
        a += *p == ';';
    *before = b;
    *after = a;
}

/* ---- CPU support -------------------------------------------------------------------- */

static void methods_lfence_probe(struct methods_cpu *c, const struct methods_cpu_source *src, uint32_t max_ext)
{
    uint32_t r[4];
    c->amd_cpuid_lfence = -1;
    c->amd_msr_lfence = -1;
    if (c->is_intel) {
        c->lfence_serializing = 1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "dispatch-serializing (Intel: architectural)");
        return;
    }
    if (!c->is_amd) {
        c->lfence_serializing = -1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "not known for vendor %s", c->vendor);
        return;
    }
    if (c->family == 0x0F || c->family == 0x11) {
        c->lfence_serializing = 1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "dispatch-serializing (AMD family %02Xh: always, as AMD "
                 "documents; no MSR 0xC0011029 on this family)", c->family);
        return;
    }
    if (max_ext >= METHODS_AMD_EXT21_LEAF) {
        cpu_leaf(src->id, METHODS_AMD_EXT21_LEAF, 0, r);
        c->amd_cpuid_lfence = (r[0] & METHODS_AMD_EXT21_LFENCE) != 0;
    }
    if (c->amd_cpuid_lfence == 1) {
        c->lfence_serializing = 1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "dispatch-serializing (AMD family %02Xh: CPUID 0x80000021 "
                 "EAX bit 2 set, always serializing)", c->family);
        return;
    }
    uint64_t v;
    if (src->read_msr && src->read_msr(METHODS_AMD_DE_CFG_MSR, &v) == 0)
        c->amd_msr_lfence = (v & METHODS_AMD_DE_CFG_LFENCE) != 0;
    const char *ext = c->amd_cpuid_lfence < 0 ? "CPUID 0x80000021 absent" : "CPUID 0x80000021 EAX bit 2 clear";
    if (c->amd_msr_lfence >= 0 && c->hypervisor) {
        c->lfence_serializing = -1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "not known (AMD family %02Xh under a hypervisor: MSR "
                 "0xC0011029 bit 1 reads %s, but the hypervisor may emulate the MSR; %s)", c->family,
                 c->amd_msr_lfence ? "set" : "clear", ext);
    } else if (c->amd_msr_lfence >= 0) {
        c->lfence_serializing = c->amd_msr_lfence;
        snprintf(c->lfence_why, sizeof c->lfence_why, "%s (AMD family %02Xh: MSR 0xC0011029 bit 1 %s; %s)",
                 c->amd_msr_lfence ? "dispatch-serializing" : "not dispatch-serializing", c->family,
                 c->amd_msr_lfence ? "set" : "clear", ext);
    } else {
        c->lfence_serializing = -1;
        snprintf(c->lfence_why, sizeof c->lfence_why, "not known (AMD family %02Xh: MSR 0xC0011029 %s; %s)",
                 c->family, src->read_msr ? "not readable: #GP" : "not readable here", ext);
    }
}

void methods_cpu_probe_from(struct methods_cpu *c, const struct methods_cpu_source *src)
{
    const struct cpu_info *id = src->id;
    memset(c, 0, sizeof *c);
    memcpy(c->vendor, id->vendor, sizeof c->vendor);
    c->is_intel = id->is_intel;
    c->is_amd = id->is_amd;
    c->family = id->family;     /* the display family (the model is not folded in) */
    c->hypervisor = id->hypervisor_present || src->vm_hidden;
    if (id->hypervisor_present)
        memcpy(c->hypervisor_vendor, id->hypervisor, sizeof c->hypervisor_vendor);
    else
        c->hypervisor_hidden = src->vm_hidden;
    c->rdtscp = id->has_rdtscp;
    c->invariant_tsc = id->has_invariant_tsc;
    methods_lfence_probe(c, src, id->max_ext_leaf);
}

/* The port's MSR read as the probe's reader: 0, or -1 when refused. */
static int methods_rdmsr(uint32_t msr, uint64_t *value) { return plat_rdmsr(msr, value) ? -1 : 0; }

void methods_cpu_probe(struct methods_cpu *c, const struct cpu_info *id, const char *vm_hidden)
{
    struct methods_cpu_source src = { id, (plat_caps() & PLAT_CAP_MSR) ? methods_rdmsr : NULL, vm_hidden };
    methods_cpu_probe_from(c, &src);
}

int methods_supported(const struct methods_cpu *c, int m)
{
    if (m < 0 || m >= METHODS_COUNT)
        return 0;
    return !methods_table[m].uses_rdtscp || c->rdtscp;
}

const char *methods_unsupported_why(const struct methods_cpu *c, int m)
{
    if (m < 0 || m >= METHODS_COUNT)
        return "no such method";
    if (methods_supported(c, m))
        return "";
    return "no rdtscp: CPUID 0x80000001 EDX bit 27 clear";
}
