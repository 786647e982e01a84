/*
 * bench/methods/methods.h - the timing methods and the measurement engine.
 *
 * Nine ways of reading the TSC around a routine (bench/methods/methods.asm): the
 * eight of CodeTune (seed 004, its method numbers 1..8) and the sequence
 * Intel's SDM recommends in its RDTSC reference.  The engine follows
 * CodeTune's three stages (calibrate an empty placeholder, benchmark,
 * interpret) with its status codes, and computes the net time per iteration
 * three ways side by side, among them Apple's (seed 001).
 *
 * ---- good samples (the documented criteria) -----------------------------------
 *
 * Iterations (CodeTune's calibration intent: the timing must span many
 * counter steps).  Unless the caller fixes N (methods_opts.fixed_iterations),
 * N starts at the count asked for and doubles while the routine's net time
 * d(N) = min T(N) - min P(N) over METHODS_PROBE_TIMINGS interleaved timings
 * spans fewer than METHODS_SPAN_STEPS counter steps, up to
 * METHODS_MAX_ITERATIONS.  When METHODS_GROWTH_STALL doublings in a row
 * (a 64-fold N) did not add one step to d, the routine's time does not grow
 * with N (an empty routine): N goes back to the count asked for.  The N used
 * is reported beside the N asked for, with the reason.  With
 * METHODS_SPAN_STEPS = 100 one counter step is at most 1% of the net time
 * the N chosen gives.  The counter step is the caller's (methods_opts.step)
 * or else the one the clock section measured (plat_tick_step: the grid
 * back-to-back reads fall on, bench/clock/clock_math.h); only when neither is
 * known (a hosted run without the measurement, the unit tests) the smallest
 * difference between two distinct timings within a series of the probe,
 * which on a coarse counter with a tick of jitter is 1 and far too small
 * (QEMU TCG: timings 171, 172, 196 on a grid of about 24); 1 tick when no
 * series shows two values.  The measurement says which (step_source).
 *
 * Good samples: `samples` pairs of timings, one of the empty placeholder
 * and one of the routine, with the same method and N, interrupts masked
 * for each; the order within each pair is drawn by a coin (xorshift64 from
 * methods_opts.order_seed) unless the caller fixes it (placeholder first),
 * so a cost of going first (a cache refilled, a predictor retrained) falls
 * on both alike.  The fences (one rule for both series, each at its own
 * scale; issue 23.10): the allowance A = Q3 + 1.5 max(IQR, step) of both
 * first passes' residuals about their own medians, pooled (type-7
 * quartiles, stats/; the IQR is not taken below one counter step, since a
 * spread finer than the counter's grid cannot be seen: on a coarse grid Q3
 * lands on one step or the next by chance, and a zero-width fence would
 * cut a whole step), and each series' fence is its first pass's median +
 * A.  (One fence from the timings pooled put Q1 in the placeholder and Q3
 * in a routine slower than the spread: the placeholder then kept the
 * disturbed timings the routine lost, and (mean T - mean P) / N came out
 * low; tests/unit/test_methods.c shows it.)  A timing above its fence was
 * disturbed (an interrupt that cli cannot stop, an SMI, a cache or TLB
 * miss) and is an "overhead" in CodeTune's words; it is retaken until it
 * lies at or below the fence.  Two identical routines are cut by the same
 * rule and stay exchangeable.  More than
 * `overhead_limit` retakes (CodeTune's OVERHEAD_LIMIT, 300000) of the
 * placeholder end the measurement with METHODS_CAL_OVERHEAD, of the routine
 * with METHODS_BENCH_OVERHEAD.  The untruncated first passes are kept
 * beside the good samples, and Wilcoxon's signed-rank test of their pairs
 * (routine - placeholder, stats/paired.c; no pair dropped, since the fences
 * depend on the series and would tilt the signs) gives the paired p and
 * the signed effect.
 * Interpretation: the routine can be told from the placeholder when
 * Mann-Whitney's two-sided p (stats/) is below 0.05 AND its U says the
 * routine's timings lie above the placeholder's (U > n^2 / 2: a routine
 * timing beats a placeholder timing more often than not, ties half); two
 * medians tying on the counter's grid do not hide a real difference.
 * Otherwise METHODS_TOO_SHORT (CodeTune: "the code is too short to tell
 * from the calibration").  With a single good sample no spread can be
 * given: METHODS_INCONCLUSIVE.  The net sample i is (timing_i - median of
 * the placeholder) / N; nothing is dropped after the fence.
 *
 * ---- net time per iteration, three estimators (ticks) --------------------------
 *
 *   minus_placeholder  (min T(N) - min P(N)) / N      CodeTune's calibration
 *   apple              (min T(N+2) - min T(2)) / N    MeasureNetTimeInCPUCycles
 *   n_vs_2n            (min T(2N) - min T(N)) / N     nanoBench's difference
 * T(k): the routine timed with k iterations; P: the placeholder; minima over
 * `samples` timings each.  The first keeps the routine's fixed cost (its
 * entry and return) in the figure; the two differences cancel it.
 */
#ifndef BAREMARK_METHODS_H
#define BAREMARK_METHODS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "targets.h"

struct json_writer;
struct bm_config;
struct section_ctx;

/* ---- the methods ------------------------------------------------------------- */

enum methods_id {
    METHOD_CPUID_RDTSC, METHOD_LFENCE_RDTSC, METHOD_LFENCE_RDTSC_LFENCE, METHOD_RDTSCP,
    METHOD_LFENCE_RDTSCP, METHOD_CPUID_RDTSCP, METHOD_RDTSCP_LFENCE, METHOD_RDTSC,
    METHOD_SDM, METHODS_COUNT
};

typedef uint64_t (*methods_bracket_fn)(bm_routine routine, uint64_t iterations, void *data);
typedef uint64_t (*methods_null_fn)(void);

struct methods_info {
    const char *name;        /* "lfence+rdtsc"; JSON and reports */
    const char *key;         /* "lfence_rdtsc"; fault point "method:lfence_rdtsc" */
    int codetune;            /* CodeTune's number 1..8; 0 for the SDM's sequence */
    const char *sequence;    /* the exact start (= stop) sequence, "lfence; rdtsc" */
    const char *origin;      /* where it comes from */
    int uses_rdtscp, uses_cpuid, uses_lfence;
    methods_bracket_fn bracket;   /* start, call routine, stop: ticks */
    methods_null_fn null;         /* start then stop: ticks */
};

/* The nine methods, indexed by enum methods_id. */
extern const struct methods_info methods_table[METHODS_COUNT];

/* Instructions the bracketing code executes between the two counter
 * reads besides the routine (bench/methods/methods.asm): after the start read
 * shl/or/mov r15/mov rdi/mov rsi/call, plus the sequence's own instructions
 * after its read (start) and before its read (stop). */
#define METHODS_GLUE_INSNS 6

/* Instructions of `sequence` before and after its counter read. */
void methods_sequence_split(const struct methods_info *m, int *before, int *after);

/* ---- what the CPU supports ----------------------------------------------------- */

struct methods_cpu {
    char vendor[13];
    int is_intel, is_amd;
    unsigned family;             /* display family: CPUID.1 EAX base, plus the
                                    extended family when the base is 0Fh */
    int hypervisor;              /* CPUID.1:ECX bit 31, or a hypervisor that hides it (below) */
    char hypervisor_vendor[13];  /* CPUID 0x40000000, "" when none */
    const char *hypervisor_hidden;   /* CPUID's bit clear but SMBIOS names this VM (run_env.vm_hidden), else NULL */
    int rdtscp;                  /* CPUID 0x80000001 EDX bit 27 */
    int invariant_tsc;           /* CPUID 0x80000007 EDX bit 8 */
    /* LFENCE dispatch-serializing: 1 yes, 0 no, -1 not known.  Intel: yes
     * (architectural).  AMD (and Hygon), in this order: families 0Fh and
     * 11h yes (AMD documents LFENCE as always dispatch-serializing there;
     * they have no MSR C001_1029, which is not read); CPUID 0x80000021 EAX
     * bit 2 set ("always serializing") yes; MSR 0xC0011029 bit 1 read
     * through plat_rdmsr: under a hypervisor not known whatever it
     * reads (the hypervisor may emulate the MSR), else its bit; no MSR
     * access (plat_caps: PLAT_CAP_MSR) or #GP: not known.  lfence_why says which rule decided. */
    int lfence_serializing;
    int amd_cpuid_lfence;        /* -1 leaf absent, else the bit */
    int amd_msr_lfence;          /* -1 not read (no hook, or #GP), else the bit */
    char lfence_why[160];
};

/* CPUID leaves of the AMD LFENCE check (AMD APM vol. 3, CPUID 8000_0021h;
 * the MSR is DE_CFG, bit 1 "LFENCE serializing"). */
#define METHODS_AMD_EXT21_LEAF   0x80000021u
#define METHODS_AMD_EXT21_LFENCE (1u << 2)
#define METHODS_AMD_DE_CFG_MSR   0xC0011029u
#define METHODS_AMD_DE_CFG_LFENCE (1ull << 1)

/* CPUID from portable code (bench/methods/methods.asm): out = eax, ebx, ecx,
 * edx.  Only for what changes while the run goes on (the hosted port's
 * OSXSAVE); the CPU's identity is the record of kernel/cpu.h. */
void bm_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);

/* What the methods need of the CPU, from its identity record (the run
 * environment's, bench/section.h) and the port's MSRs where it has them. */
struct cpu_info;
void methods_cpu_probe(struct methods_cpu *c, const struct cpu_info *id, const char *vm_hidden);
/* The same from a given record and MSR reader (tests simulate CPUs; the
 * cores section gives each CPU's own record); read_msr NULL: MSRs cannot
 * be read here. */
struct methods_cpu_source {
    const struct cpu_info *id;
    int (*read_msr)(uint32_t msr, uint64_t *value);
    const char *vm_hidden;      /* the run environment's hidden hypervisor (bench/section.h), or NULL */
};
void methods_cpu_probe_from(struct methods_cpu *c, const struct methods_cpu_source *src);
/* 1 when the CPU can execute method m (never run an unsupported one). */
int methods_supported(const struct methods_cpu *c, int m);
/* Why not, for an unsupported method ("" when supported). */
const char *methods_unsupported_why(const struct methods_cpu *c, int m);

/* ---- the engine --------------------------------------------------------------- */

/* CodeTune's status codes (seed 004: CT_ERROR_INPUT_VALUE 0, ..., 
 * CT_ANALYSIS_SUCESS 8) with our names; -11 and -12 are baremark's. */
enum methods_status {
    METHODS_OK = 8,              /* analysis completed */
    METHODS_BAD_INPUT = 0,       /* samples or iterations out of range, no routine, bad method */
    METHODS_CAL_OVERHEAD = -1,   /* overhead limit reached while calibrating */
    METHODS_BENCH_OVERHEAD = -2, /* overhead limit reached while benchmarking */
    METHODS_TOO_SHORT = -3,      /* cannot be told from the placeholder */
    METHODS_INCONCLUSIVE = -4,   /* one good sample only: no spread */
    METHODS_UNSUPPORTED = -8,    /* the CPU lacks the method's instruction */
    METHODS_FAULT = -11,         /* a CPU exception inside the measurement */
    METHODS_NOMEM = -12          /* no memory for the samples */
};

/* Input limits (CodeTune's MAX_SAMPLES and MAX_ITERATIONS are 100000; ours
 * are the command file's METHODSAMPLES/METHODITERATIONS ranges' tops). */
#define METHODS_MAX_SAMPLES    1000000u
#define METHODS_MAX_ITERATIONS 1000000u
/* CodeTune's OVERHEAD_LIMIT: retakes allowed per stage. */
#define METHODS_OVERHEAD_LIMIT 300000u
/* Tukey's inner fence factor for the good-sample fence. */
#define METHODS_FENCE_IQR      1.5
/* Growing N: the net time must span this many counter steps (a step then
 * resolves 1% of it); timings of each per probe; doublings without one
 * step of growth before N is given back. */
#define METHODS_SPAN_STEPS     100
#define METHODS_PROBE_TIMINGS  16
#define METHODS_GROWTH_STALL   6

/* Where a measurement's counter step came from: the caller's, the clock
 * section's measurement, the smallest gap within the timings (the
 * fallback), or 1 tick assumed (no two timings differed). */
enum methods_step_source { METHODS_STEP_ASSUMED, METHODS_STEP_SEEN, METHODS_STEP_CLOCK, METHODS_STEP_CALLER };
/* "assumed", "smallest_gap", "measured" (the clock's), "given" (the caller's). */
const char *methods_step_source_name(int source);

/* "ok", "bad_input", "calibration_overhead", "benchmark_overhead",
 * "too_short", "inconclusive", "unsupported", "fault", "no_memory". */
const char *methods_status_name(int status);

struct methods_opts {
    uint64_t overhead_limit;     /* 0: METHODS_OVERHEAD_LIMIT */
    bm_routine placeholder;      /* NULL: bm_target_placeholder */
    const char *target_key;      /* fault point "target:KEY" (NULL: none) */
    const struct methods_cpu *cpu; /* NULL: from the run's identity record (cpu_identity) */
    uint64_t step;               /* the counter's step in ticks (0: not known) */
    int fixed_iterations;        /* 1: use N as given, do not grow it */
    methods_bracket_fn bracket;  /* NULL: the method's (tests simulate a counter) */
    int fixed_order;             /* 1: placeholder then routine in every pair (the old
                                    turns); 0: the order drawn per pair */
    uint64_t order_seed;         /* seed of the order coins (0: METHODS_ORDER_SEED) */
};

/* Seed of the engine's order coins (xorshift64), fixed so a run repeats. */
#define METHODS_ORDER_SEED 0x636f646574756e65ull   /* "codetune" */

struct methods_result {
    int method, status;
    uint32_t samples;
    uint64_t iterations;                      /* N used */
    uint64_t iterations_requested;            /* N asked for */
    char iterations_why[128];                 /* how N was chosen */
    uint64_t step;                            /* counter step used, ticks */
    int step_known;                           /* from the caller, the clock or the timings (else 1 assumed) */
    int step_source;                          /* METHODS_STEP_*: where the step came from */
    uint64_t cal_overheads, bench_overheads;  /* retakes */
    double fence_above;                       /* the fences' allowance above each median, ticks */
    double cal_fence, bench_fence;            /* the placeholder's and the routine's fence */
    uint64_t *placeholder, *bench;            /* good timings in the order kept */
    uint64_t *placeholder_raw, *bench_raw;    /* the first passes, untruncated */
    double *net;                              /* per-iteration net samples */
    uint64_t min_p, min_t, min_t2, min_tn2, min_t2n;
    double minus_placeholder, apple, n_vs_2n; /* ticks per iteration */
    double mw_p;                              /* routine vs placeholder */
    double mw_u;                              /* U of the routine (pairs above, ties half) */
    double mean_net;                          /* (mean T - mean P) / N */
    int order_random;                         /* the order of each pair was drawn */
    uint32_t routine_first;                   /* pairs in which the routine went first */
    struct stats_paired paired;               /* signed-rank test of routine - placeholder on the
                                                 first passes' pairs, untruncated */
    struct stats_summary p_sum, t_sum, net_sum;
    char why[160];                            /* fault text, or the reason */
};

/* measure(method, routine, data, samples, iterations): warm-up, calibration,
 * benchmark, the extra series for the estimators, interpretation.  Fills
 * *out (free it with methods_result_free) and returns its status.  Runs
 * inside plat_protected with fault points "method:KEY" and, when given,
 * "target:KEY"; interrupts masked for each timing. */
int methods_measure(int method, bm_routine routine, void *data, uint32_t samples,
                    uint64_t iterations, struct methods_result *out);
int methods_measure_ex(int method, bm_routine routine, void *data, uint32_t samples,
                       uint64_t iterations, const struct methods_opts *opt,
                       struct methods_result *out);
void methods_result_free(struct methods_result *r);

/* ---- the extended profile's best method ---------------------------------------- */

/* CodeTune's extended profile measures one routine with every method and
 * reports the best.  One estimator per figure, the same for every method:
 *   best          smallest (min T - min P) / N  (minus_placeholder)
 *   fastest mean  smallest (mean T - mean P) / N
 * Ties (equal figures, as under QEMU -icount) go to the method with the
 * smaller placeholder minimum (the lighter start and stop around the same
 * routine), then to the earlier method in the table (CodeTune's order). */
struct methods_best {
    int best_method, mean_method;    /* -1 until a good measurement */
    double best, mean;               /* ticks per iteration */
    uint64_t best_min_p, mean_min_p; /* their placeholder minima (the tie rule) */
    unsigned measured;               /* good measurements seen */
};

void methods_best_init(struct methods_best *b);
/* Consider one measurement (methods in table order; only METHODS_OK counts). */
void methods_best_add(struct methods_best *b, const struct methods_result *r);

/* ---- overhead and resolution of one method -------------------------------------- */

struct methods_overhead {
    int method, status;          /* METHODS_OK, _UNSUPPORTED, _FAULT, _NOMEM */
    uint32_t n;
    uint64_t *samples;           /* back-to-back timings, in order */
    struct stats_summary sum;
    uint64_t step;               /* smallest difference between two distinct
                                    values: the counter's step as this method
                                    sees it; 0 when every timing was equal */
    char why[160];
};

int methods_overhead_measure(int method, const struct methods_cpu *cpu, uint32_t n,
                             struct methods_overhead *out);
void methods_overhead_free(struct methods_overhead *o);

/* ---- Paoloni's checks (Intel white paper "How to Benchmark Code Execution
 * Times on Intel IA-32 and IA-64", 2010) ------------------------------------------ */

struct methods_paoloni {
    int method, status;
    /* fixed code: the method's back-to-back timing, `ensembles` ensembles of
     * `ensemble_size`; the minimum of each; ideally all equal */
    uint32_t ensembles, ensemble_size;
    uint64_t *fixed_minima;
    double fixed_var;            /* population variance of the minima */
    uint32_t fixed_distinct;     /* distinct minima */
    /* growing code: bm_target_add1 with 1..sizes iterations, the minimum of
     * an ensemble per size */
    uint32_t sizes;
    uint64_t *grow_minima;       /* [sizes], index 0 = 1 iteration */
    uint32_t spurious;           /* minima lower than the previous size's */
    double slope, intercept, r2, resid_var; /* least squares of min on size */
    char why[160];
};

int methods_paoloni(int method, const struct methods_cpu *cpu, uint32_t ensembles,
                    uint32_t ensemble_size, uint32_t sizes, struct methods_paoloni *out);
void methods_paoloni_free(struct methods_paoloni *p);

/* Least squares y = a + b x over n points; r2 NaN when y is constant or
 * n < 2; resid_var: population variance of the residuals. */
void methods_regress(const double *x, const double *y, size_t n, double *slope,
                     double *intercept, double *r2, double *resid_var);

/* ---- the section ----------------------------------------------------------------- */

struct methods_plan {
    const struct cpu_info *cpu;  /* the CPU's identity (the run environment's) */
    const char *vm_hidden;       /* the run environment's hidden hypervisor, or NULL */
    int quick;                   /* quick profile: fewer samples */
    uint32_t overhead_samples;   /* back-to-back timings per method */
    uint32_t samples;            /* per measurement */
    uint64_t iterations;         /* N of every measurement */
    uint32_t paoloni_ensembles, paoloni_ensemble_size, paoloni_sizes;
    int interrupts_maskable;     /* 0 on the host */
};

/* Profiles (quick: a few seconds of TCG guest time for methods+compare). */
#define METHODS_QUICK_SAMPLES          100
#define METHODS_QUICK_PAOLONI_ENS      16
#define METHODS_QUICK_PAOLONI_ENS_SIZE 32
#define METHODS_QUICK_PAOLONI_SIZES    32
#define METHODS_FULL_PAOLONI_ENS       1000  /* Paoloni: 1000 ensembles */
#define METHODS_FULL_PAOLONI_ENS_SIZE  1000
#define METHODS_FULL_PAOLONI_SIZES     200

/* The plan a configuration asks for in the run's environment (its CPU,
 * its settled profile and the platform's capabilities: bench/section.h). */
struct run_env;
void methods_plan_from_config(const struct bm_config *cfg, const struct run_env *env, struct methods_plan *p);
/* Print the section's text and write its members into the open object w
 * (NULL: text only).  Returns 0, or 2 when a measurement failed. */
int methods_section(const struct methods_plan *p, struct json_writer *w);
/* The section (bench/section.h), into the run's results document. */
int methods_run(const struct section_ctx *ctx);

/* "SECTION: done in T ticks (S s)": how long a section took. */
void methods_print_elapsed(const char *section, uint64_t ticks, uint64_t hz);

/* A paired test's figures (stats/paired.c) as the JSON object `key`
 * (bench/methods/methods_aa.c): pairs, nonzero, positive, mean_diff and its 95%
 * half-interval, median_diff, w_plus, z, p, exact. */
void methods_json_paired(struct json_writer *w, const char *key, const struct stats_paired *s);

/* Convert ticks to ns with the calibrated clock (NaN when hz is 0). */
double methods_ns(double ticks, uint64_t hz);

#endif
