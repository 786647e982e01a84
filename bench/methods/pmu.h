/*
 * bench/methods/pmu.h - the CPU's performance counters: core cycles, reference
 * cycles and instructions retired, read around a timing.
 *
 * Portable logic over an MSR-access interface (struct pmu_msr_ops) and a
 * CPUID function, so the same code programs a simulated MSR space in the
 * host tests (tests/unit/test_pmu.c) and the real registers in the image
 * (port/platform.h's plat_rdmsr/plat_wrmsr: they never crash).  The counters are read
 * inside the timed bracket with rdpmc (bench/methods/pmu.asm); the image runs in
 * ring 0, where rdpmc needs no CR4.PCE.
 *
 * ---- what is programmed (sources) ----------------------------------------------
 *
 * Intel, architectural performance monitoring (SDM vol. 3B, "Architectural
 * Performance Monitoring"; CPUID leaf 0AH):
 *   EAX[7:0] version, [15:8] general counters, [23:16] their width,
 *   [31:24] length of the EBX vector; EBX bit i set = architectural event i
 *   NOT available (0 core cycles, 1 instructions retired, 2 reference
 *   cycles); EDX[4:0] fixed counters, [12:5] their width (version > 1);
 *   ECX (version >= 5) a bitmap of further supported fixed counters.
 *   Fixed counter 0 counts INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.THREAD,
 *   2 CPU_CLK_UNHALTED.REF_TSC.  General counters take the architectural
 *   events 3CH/00H (core cycles), C0H/00H (instructions), 3CH/01H
 *   (reference cycles).  Version 1 has no global control register.
 *   Only fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC) is defined to count at
 *   the TSC's rate.  The general-counter event 3CH/01H counts "at a fixed
 *   frequency" that the SDM leaves to the part: the TSC on some, the core
 *   crystal or the bus clock on others (CPU_CLK_THREAD_UNHALTED.REF_XCLK,
 *   e.g. 24 or 100 MHz).  Reference cycles taken from it are reported with
 *   that label, never as a TSC-rate clock (pmu_ref_clock).
 * AMD (APM vol. 2, "Performance Monitoring Counters"; CPUID 8000_0001h ECX
 *   bit 23 PerfCtrExtCore: six counters at C001_0200h + 2i (control) and
 *   C001_0201h + 2i (count), otherwise the four legacy ones at C001_0000h
 *   and C001_0004h; CPUID 8000_0022h EAX bit 0 PerfMonV2 with EBX[3:0]
 *   counters and the global control C000_0301h).  Events 76h (cycles not
 *   in halt) and C0h (retired instructions); counters are 48 bits wide.
 *   AMD has no architectural reference-cycle event: the TSC is the
 *   reference there and ref_cycles is reported absent.
 *
 * ---- the sequence (tested against a simulated MSR space) ------------------------
 *
 * pmu_start: save the global control (and the fixed-counter control),
 * disable everything (global control 0, then each used control 0), zero
 * the used counters, clear their overflow bits, write the controls, and
 * enable through the global control last.  pmu_stop: global control 0,
 * the controls back to their saved values, the global control back last.
 * A CPU or hypervisor that accepts the registers without counting (QEMU's
 * TCG reads unknown MSRs as 0) is caught by pmu_probe's functional check:
 * the counters must advance over a known piece of work.
 */
#ifndef BAREMARK_PMU_H
#define BAREMARK_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "targets.h"

struct json_writer;
struct pmu_info;

/* ---- MSRs (Intel SDM vol. 4; AMD APM vol. 2) ---------------------------------- */
#define PMU_IA32_PMC0              0x0C1u
#define PMU_IA32_PERFEVTSEL0       0x186u
#define PMU_IA32_FIXED_CTR0        0x309u
#define PMU_IA32_FIXED_CTR_CTRL    0x38Du
#define PMU_IA32_PERF_GLOBAL_STATUS 0x38Eu
#define PMU_IA32_PERF_GLOBAL_CTRL  0x38Fu
#define PMU_IA32_PERF_GLOBAL_OVF_CTRL 0x390u
#define PMU_AMD_PERFEVTSEL_LEGACY  0xC0010000u
#define PMU_AMD_PERFCTR_LEGACY     0xC0010004u
#define PMU_AMD_PERFEVTSEL_EXT     0xC0010200u   /* + 2i */
#define PMU_AMD_PERFCTR_EXT        0xC0010201u   /* + 2i */
#define PMU_AMD_GLOBAL_STATUS      0xC0000300u
#define PMU_AMD_GLOBAL_CTL         0xC0000301u
#define PMU_AMD_GLOBAL_STATUS_CLR  0xC0000302u

/* Event-select bits (Intel PERFEVTSELx and AMD PerfEvtSeln agree here). */
#define PMU_EVTSEL_USR   (1ull << 16)
#define PMU_EVTSEL_OS    (1ull << 17)
#define PMU_EVTSEL_EN    (1ull << 22)
/* IA32_FIXED_CTR_CTRL: 4 bits per counter, 3 = count in every ring. */
#define PMU_FIXED_CTRL_ALL_RINGS 0x3ull
/* rdpmc's ECX for Intel fixed counter i */
#define PMU_RDPMC_FIXED  (1u << 30)

/* ---- the events ------------------------------------------------------------------ */
enum pmu_event { PMU_CYCLES, PMU_INSTRUCTIONS, PMU_REF_CYCLES, PMU_EVENTS };

/* "cycles", "instructions", "ref_cycles" (JSON names) */
const char *pmu_event_name(int e);

/* The clock the reference-cycle counter runs at: "tsc" (fixed counter 2,
 * REF_TSC), "part_reference" (event 3CH/01H: a fixed clock of the part's
 * choosing, not known to be the TSC's), NULL when not counted. */
const char *pmu_ref_clock(const struct pmu_info *p);
/* The same as words for a text line ("" when not counted). */
const char *pmu_ref_clock_text(const struct pmu_info *p);

/* ---- access ------------------------------------------------------------------------ */
struct pmu_msr_ops {
    int (*read)(void *ctx, uint32_t msr, uint64_t *value);  /* 0, or -1: refused (#GP) */
    int (*write)(void *ctx, uint32_t msr, uint64_t value);  /* 0, or -1: refused */
    void *ctx;
};

/* The CPU's identity record (kernel/cpu.h): its CPUID leaves. */
struct cpu_info;

/* ---- what the CPU has, and the plan for the three events ---------------------------- */
struct pmu_counter {
    int present;                 /* this event is counted */
    int fixed;                   /* Intel fixed counter (else a general one) */
    unsigned index;              /* counter number */
    uint32_t ctl_msr, ctr_msr;   /* event select (0 for a fixed counter), count */
    uint64_t evtsel;             /* what the event select is given */
    unsigned width;              /* bits */
    uint32_t rdpmc_ecx;          /* rdpmc's selector */
    int tsc_rate;                /* counts at the TSC's rate (Intel fixed counter 2) */
};

enum pmu_kind { PMU_KIND_NONE, PMU_KIND_INTEL, PMU_KIND_AMD };

struct pmu_info {
    int kind;                    /* enum pmu_kind */
    int version;                 /* Intel: CPUID.0AH:EAX[7:0]; AMD: 2 with PerfMonV2, else 1 */
    unsigned gp_count, gp_width, fixed_count, fixed_width;
    uint32_t ebx_unavailable;    /* Intel: CPUID.0AH:EBX (bit set = event absent) */
    unsigned ebx_length;         /* Intel: CPUID.0AH:EAX[31:24] */
    uint32_t fixed_bitmap;       /* Intel v5: CPUID.0AH:ECX */
    int amd_ext_core, amd_perfmon_v2;
    int has_global;              /* a global control register is used */
    uint32_t global_ctrl_msr, global_status_msr, global_ovf_msr;
    uint64_t global_bits;        /* our counters' bits in the global registers */
    struct pmu_counter ctr[PMU_EVENTS];
    int usable;                  /* detected, programmed and seen counting */
    char why[200];               /* why not usable; what was found otherwise */
};

/* Read the CPUID leaves from the record and plan the counters (no MSR is touched).
 * Returns 1 when a PMU with at least core cycles and instructions exists. */
int pmu_detect(const struct cpu_info *id, struct pmu_info *p);

/* Mask of a counter `width` bits wide. */
uint64_t pmu_mask(unsigned width);
/* end - start of a counter `width` bits wide (one wrap allowed). */
uint64_t pmu_delta(uint64_t start, uint64_t end, unsigned width);

/* ---- programming ---------------------------------------------------------------------- */
struct pmu_saved {
    uint64_t global_ctrl, fixed_ctrl;
    uint64_t evtsel[PMU_EVENTS];
    int valid;
};

/* The sequence described above.  0, or -1 when a register was refused
 * (p->why says which; everything written so far is undone). */
int pmu_start(struct pmu_info *p, const struct pmu_msr_ops *ops, struct pmu_saved *s);
int pmu_stop(const struct pmu_info *p, const struct pmu_msr_ops *ops, const struct pmu_saved *s);

/* The counts through the MSRs (not rdpmc): v[e] for each present event. */
int pmu_read_msrs(const struct pmu_info *p, const struct pmu_msr_ops *ops, uint64_t v[PMU_EVENTS]);

/* Overflow bits of our counters in the global status (0 without one),
 * as a PMU_EVENTS bit mask; clears them. */
unsigned pmu_overflow_take(const struct pmu_info *p, const struct pmu_msr_ops *ops);

/* Detection, programming and the functional check: `work(arg)` runs with
 * the counters on; they must advance (cycles and instructions at least
 * `min_instructions`).  Leaves the PMU stopped.  Sets p->usable and
 * p->why; returns p->usable. */
int pmu_probe(const struct cpu_info *id, const struct pmu_msr_ops *ops, void (*work)(void *),
              void *arg, uint64_t min_instructions, struct pmu_info *p);

/* ---- reading around a timing -------------------------------------------------------------- */

/* One bracketed timing: raw counter values at start and stop,
 * [0] the TSC, [1 + e] event e (bench/methods/pmu.asm fills it). */
struct pmu_raw { uint64_t start[1 + PMU_EVENTS], stop[1 + PMU_EVENTS]; };

/* rdpmc selectors for the bracket (absent events read selector 0 and are
 * ignored). */
struct pmu_sel { uint32_t ecx[PMU_EVENTS]; };

/* A method's PMU bracket: its start sequence reads the TSC and then the
 * three counters, calls routine(iterations, data), its stop sequence the
 * same; bench/methods/pmu.asm, one per method (bench/methods/methods.h order). */
typedef void (*pmu_bracket_fn)(bm_routine routine, uint64_t iterations, void *data,
                               const struct pmu_sel *sel, struct pmu_raw *raw);
/* The bracket for method m (enum methods_id), NULL when out of range. */
pmu_bracket_fn pmu_bracket(int method);

/* Deltas of one timing: d[0] ticks, d[1 + e] event e (width-masked). */
void pmu_raw_deltas(const struct pmu_info *p, const struct pmu_raw *r, uint64_t d[1 + PMU_EVENTS]);

/* Minima over a series of timings, per counter, and sums for the ratio. */
struct pmu_series {
    uint64_t min[1 + PMU_EVENTS];
    uint64_t sum[1 + PMU_EVENTS];
    uint32_t n;
};
void pmu_series_init(struct pmu_series *s);
void pmu_series_add(struct pmu_series *s, const uint64_t d[1 + PMU_EVENTS]);

/* A measurement's counts per iteration with the three estimators of
 * bench/methods/methods.h (minus_placeholder, apple, n_vs_2n), from the series
 * P(N), T(N), T(2), T(N+2), T(2N). */
struct pmu_estimates {
    double per_iter[1 + PMU_EVENTS][3];   /* [0] ticks, [1+e] events; [k] estimator k */
    double cycles_per_tick;      /* sum of core cycles / sum of ticks over T(N) */
    double ref_per_tick;         /* the same for reference cycles (NaN when absent); a
                                  * TSC-rate ratio only where pmu_ref_clock says "tsc" */
    unsigned overflows;          /* overflow bits seen (PMU_EVENTS mask) */
    int status;                  /* 0, or -1 with why */
    char why[160];
};
enum { PMU_EST_MINUS_PLACEHOLDER, PMU_EST_APPLE, PMU_EST_N_VS_2N, PMU_ESTIMATORS };

void pmu_estimate(const struct pmu_info *p, const struct pmu_series *pn, const struct pmu_series *tn,
                  const struct pmu_series *t2, const struct pmu_series *tn2,
                  const struct pmu_series *t2n, uint64_t iterations, struct pmu_estimates *e);

/* ---- the image's PMU ------------------------------------------------------------------------ */

/* The real MSRs come from the port (plat_rdmsr/plat_wrmsr); where it has
 * none (the host, where the PMU is the operating system's) no counters. */

/* The PMU state of this run: probed once (pmu_session_probe), started
 * around each measurement (pmu_measure). */
const struct pmu_info *pmu_session(void);
/* Probe the platform's PMU (no-op after the first call).  Returns usable. */
int pmu_session_probe(const struct cpu_info *id);
/* One line: "pmu: Intel architectural PMU v5: ..." or "pmu: none usable (...):
 * ticks only". */
void pmu_print(const struct pmu_info *p);
/* The PMU as object member `key` of w (docs/results-schema.md). */
void pmu_json(struct json_writer *w, const char *key, const struct pmu_info *p);

/* Measure routine with method m's PMU bracket: `samples` timings of each of
 * P(N) (placeholder), T(N), T(2), T(N+2), T(2N), interrupts masked for each,
 * counters started before and stopped after.  0, or -1 (e->why). */
int pmu_measure(int method, bm_routine routine, void *data, bm_routine placeholder,
                uint32_t samples, uint64_t iterations, struct pmu_estimates *e);
/* Object member `key`: per event the three estimators, and the ratios. */
void pmu_estimates_json(struct json_writer *w, const char *key, const struct pmu_info *p,
                        const struct pmu_estimates *e);

#endif
