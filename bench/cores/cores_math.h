/*
 * bench/cores/cores_math.h - the portable arithmetic of the cores section: CPU
 * topology from CPUID, how TSC reads are fenced, the warp check's handoffs,
 * offset intervals from round trips, the TSC rate fit (cores_fit.c), SMT
 * siblings and the overlap of the all-core run, the CORES list.
 * Pure: no I/O, no globals; unit-tested on the host (simulated CPUs,
 * counters and MSR spaces stand in for what QEMU cannot show).
 */
#ifndef BAREMARK_CORES_MATH_H
#define BAREMARK_CORES_MATH_H

#include <stddef.h>
#include <stdint.h>

/* ---- topology (Intel SDM vol. 2A, CPUID leaves 0BH and 1FH) ------------------ */
#define CORES_LEVELS_MAX 8
/* Level types in ECX[15:8] of leaves 0xB / 0x1F. */
#define CORES_LEVEL_SMT    1
#define CORES_LEVEL_CORE   2
#define CORES_LEVEL_MODULE 3
#define CORES_LEVEL_TILE   4
#define CORES_LEVEL_DIE    5
/* CPUID 0x1A EAX[31:24] core types (SDM: "Hybrid Information"). */
#define CORES_TYPE_ATOM 0x20            /* E-core */
#define CORES_TYPE_CORE 0x40            /* P-core */

/* What one CPU reads about itself (bench/cores/cores_work.c fills it). */
struct cores_cpuid {
    const char *vm_hidden;              /* in: the run's hidden hypervisor (run_env), kept */
    uint32_t leaf1_eax, leaf1_ebx;      /* signature; initial APIC ID in EBX[31:24] */
    uint32_t topo_leaf;                 /* 0x1F, 0xB, or 0 when neither */
    uint32_t x2apic_id;                 /* EDX of the topology leaf */
    uint32_t levels;                    /* entries in level[] */
    uint32_t level_type[CORES_LEVELS_MAX], level_shift[CORES_LEVELS_MAX];
    int hybrid;                         /* CPUID.(7,0):EDX bit 15 */
    uint32_t leaf1a_eax;                /* CPUID 0x1A EAX (0 when absent) */
    /* IA32_TSC_ADJUST (Intel SDM vol. 3B, 18.17.3; MSR 0x3B): present when
     * CPUID.(EAX=7,ECX=0):EBX bit 1 is set.  A firmware (or an earlier OS)
     * that wrote it shifted this CPU's TSC by that many ticks. */
    int tsc_adjust_cpuid;               /* the CPUID bit */
    int tsc_adjust_read;                /* 1 read, 0 the bit is set but RDMSR faulted, -1 not asked */
    int64_t tsc_adjust;                 /* the MSR's value when read */
    /* What orders a TSC read on this CPU (bench/methods/methods.h's probe, run on
     * each CPU: a firmware may set AMD's DE_CFG LFENCE bit on some only). */
    int rdtscp;                         /* CPUID 0x80000001 EDX bit 27 */
    int lfence_serializing;             /* 1, 0, -1 not known */
    int read;                           /* filled by a CPU */
};

/* CPUID leaf 7 EBX bit 1 and the MSR (Intel SDM vol. 4, table 2-2). */
#define CORES_CPUID7_EBX_TSC_ADJUST (1u << 1)
#define CORES_MSR_TSC_ADJUST        0x3Bu

struct methods_cpu_source;
/* Fill c from src's CPUID and MSR reads (bench/cores/cores_work.c passes the
 * CPU's own; tests pass simulated ones).  src->read_msr may be NULL. */
void cores_probe_from(struct cores_cpuid *c, const struct methods_cpu_source *src);

/* The decoded position of a CPU. */
struct cores_topo {
    int valid;                          /* a topology leaf was read */
    uint32_t apic_id;                   /* x2APIC ID, or the initial APIC ID */
    uint32_t smt_bits, core_bits;       /* ID bits below the core, below the package */
    uint32_t package, core, thread;     /* core: index inside the package (all
                                         * levels between SMT and package) */
    uint32_t core_type;                 /* 0x1A EAX[31:24], 0 when not hybrid */
};

/* Decode c into *t (SMT bits = the SMT level's shift; package bits = the
 * last level's shift). */
void cores_topo_decode(const struct cores_cpuid *c, struct cores_topo *t);
/* "p-core", "e-core", "none" or "0xNN". buf: at least 8 bytes. */
const char *cores_type_name(uint32_t core_type, char *buf, size_t n);

/* ---- SMT siblings ------------------------------------------------------------------
 * Logical CPUs with the same (package, core) are threads of one core: a
 * sum of scores over them is not a sum over cores.  key_valid[i] == 0 (no
 * topology known): CPU i counts as a core of its own.  Fills group[i] (the
 * index of the first CPU of its core) and threads[i] (CPUs in that core);
 * returns the number of distinct cores. */
uint32_t cores_smt_groups(const uint32_t *package, const uint32_t *core, const uint8_t *key_valid,
                          uint32_t n, uint32_t *group, uint32_t *threads);

/* ---- overlap of work started "at once" --------------------------------------------
 * Each CPU's work ran from start[i] to end[i] (TSC, one time base).  span:
 * first start to last end; all: how long every one of them ran at the same
 * time (0 when they never all did); busy: the sum of the durations, so
 * busy / span is the mean number running (n when they overlapped fully). */
struct cores_overlap { uint64_t span, all, busy; double all_fraction, mean_running; };
void cores_overlap_of(const uint64_t *start, const uint64_t *end, uint32_t n, struct cores_overlap *o);

/* ---- how a TSC read is ordered ----------------------------------------------------
 * A read that times a memory access must wait for every earlier load (the
 * flag it saw) and must be done before later instructions begin.  RDTSCP
 * waits for earlier instructions and loads on Intel (SDM vol. 2B, RDTSCP)
 * and AMD (APM vol. 3, RDTSCP: older instructions retire first), whatever
 * MSR C001_1029 says; RDTSC needs a fence before it.  LFENCE orders
 * execution only where it is dispatch-serialising (Intel; AMD with DE_CFG
 * bit 1 or CPUID 8000_0021h EAX bit 2); elsewhere MFENCE is the fence
 * (Linux's X86_FEATURE_MFENCE_RDTSC on AMD).  One choice for every CPU:
 * LFENCE only when every CPU says it serialises, RDTSCP only when every CPU
 * has it. */
enum cores_read {
    CORES_READ_LFENCE,        /* lfence; rdtsc; lfence */
    CORES_READ_MFENCE,        /* mfence; rdtsc; mfence */
    CORES_READ_RDTSCP_LFENCE, /* rdtscp; lfence */
    CORES_READ_RDTSCP_MFENCE, /* rdtscp; mfence */
};
/* n CPUs' rdtscp (0/1) and lfence_serializing (1, 0, -1); why gets the rule. */
enum cores_read cores_read_choose(const struct cores_cpuid *cpus, uint32_t n, char *why, size_t why_n);
const char *cores_read_text(enum cores_read r);   /* "rdtscp; lfence" */
const char *cores_read_key(enum cores_read r);    /* "rdtscp_lfence" */

/* ---- the warp check's turns -----------------------------------------------------------
 * A turn reads the TSC under the lock after the previous turn's read
 * (prev, by prev_cpu).  Only a turn that follows another CPU's turn is a
 * handoff, and only a handoff compares two CPUs' TSCs: a turn after the
 * same CPU's own says nothing about the other TSC. */
#define CORES_NO_CPU 0xFFFFFFFFu
struct cores_warp_count {
    uint64_t turns, handoffs;
    uint64_t backs, max_back;           /* handoffs whose read was below the other's */
};
void cores_warp_turn(struct cores_warp_count *w, uint32_t self, uint32_t prev_cpu, uint64_t prev,
                     uint64_t now);

/* ---- offsets from round trips -------------------------------------------------
 * A sample (t0, t1, t2): the initiator read t0 before, t2 after the moment the
 * responder read t1, so the responder's TSC minus the initiator's is in
 * [t1 - t2, t1 - t0].  The intersection over every sample (both directions,
 * signs flipped for the other) is the tightest bound; empty when the counters
 * do not keep a constant offset (or the ordering failed). */
struct cores_offset_bounds {
    int64_t lo, hi;                     /* responder - initiator, ticks */
    uint64_t samples;
    uint64_t min_rtt;                   /* smallest t2 - t0 */
};
void cores_bounds_init(struct cores_offset_bounds *b);
void cores_bounds_add(struct cores_offset_bounds *b, uint64_t t0, uint64_t t1, uint64_t t2);
/* b (responder - initiator) and r measured the other way round (initiator
 * and responder swapped) into out (b's sense). */
void cores_bounds_merge(const struct cores_offset_bounds *b, const struct cores_offset_bounds *r,
                        struct cores_offset_bounds *out);
/* Midpoint and half-width; returns 0, or -1 when the interval is empty (then
 * *mid and *half describe the crossed interval). */
int cores_bounds_estimate(const struct cores_offset_bounds *b, double *mid, double *half);

/* ---- the TSC rate, fitted (bench/cores/cores_fit.c) -------------------------------------------
 * Each point is one edge of the reference counter (HPET or PM timer): its
 * count, extended past the counter's wrap, and the TSC read bracketing it
 * (the edge lies between the TSC read before the last read that still saw
 * the old count and the TSC read after the first that saw the new one; the
 * midpoint and the bracket's width are kept).  A CPU's points come in
 * sessions spread over the whole section, so the fit's span is the
 * section's length, not one window's. */
struct cores_rate_point {
    uint64_t ref;                       /* reference count, extended */
    uint64_t tsc;                       /* midpoint of the bracket */
    uint64_t width;                     /* bracket width, ticks */
};

/* Extend a raw reading of a counter of mask + 1 values to 64 bits, given
 * the previous extended value at TSC prev_tsc and the expected reference
 * ticks per TSC tick: the wraps are counted from the TSC's elapsed time
 * (right while the rate estimate is better than a quarter wrap over the
 * gap; the PM timer's 24 bits wrap every 4.7 s). */
uint64_t cores_ref_extend(uint64_t prev_ext, uint64_t prev_tsc, uint32_t raw, uint64_t tsc,
                          uint32_t mask, double ref_per_tsc);

/* A point is dropped when its bracket is wider than this many times the
 * median bracket: a read stretched by an SMI or, under QEMU, by another
 * virtual CPU (Linux's tsc.c drops such windows the same way). */
#define CORES_FIT_WIDTH_FACTOR 4.0

/* Least squares of TSC on reference count.  The slope's standard error is
 * the larger of the residuals' (what disturbed the reads) and the brackets'
 * own (a midpoint is off by up to half its bracket: sd width / sqrt(12)). */
struct cores_rate_fit {
    int ok;                             /* at least 3 points kept and a span */
    uint32_t used, dropped;
    double ticks_per_ref;               /* slope */
    double hz;                          /* slope * ref_hz */
    double se_rel;                      /* standard error of the slope / slope */
    double se_resid_rel, se_bracket_rel;
    uint64_t span_ref, span_tsc;        /* first to last kept point */
    uint64_t median_width;              /* ticks */
};
int cores_rate_fit(const struct cores_rate_point *p, uint32_t n, double ref_hz, struct cores_rate_fit *f);

/* CPU a's rate against CPU b's, both fitted against the same reference
 * (whose own error cancels): the difference in ppm, its standard error,
 * the 95% half-width, and the smallest difference the two fits could have
 * detected (a two-sided 5% test with 80% power: (1.96 + 0.84) standard
 * errors). */
#define CORES_Z95    1.959964
#define CORES_Z80    0.841621
struct cores_rate_diff { double ppm, se_ppm, half95_ppm, detectable_ppm; };
void cores_rate_compare(const struct cores_rate_fit *a, const struct cores_rate_fit *b,
                        struct cores_rate_diff *d);

/* ---- order statistics ---------------------------------------------------------- */
/* Sorts v (n > 0) and returns the median (mean of the middle two for even n). */
double cores_median_u64(uint64_t *v, size_t n);

/* The CORES setting's grammar (cores_list_parse, cores_list_max) is the
 * settings' own: bench/config/config.h. */

#endif
