/*
 * bench/cores/cores.h - the cores section: every logical CPU, started through the
 * port's workers (port/platform.h: the firmware's MP Services in the image).
 * bench/cores/cores_section.c drives the CPUs and measures (bench/cores/cores_work.h is the
 * work each CPU runs); bench/cores/cores_report.c prints the text and the LAVA
 * cases, bench/cores/cores_json.c writes the "cores" member, from struct cores.
 *
 *  1. the list: processor number, APIC ID, package/core/thread from the
 *     firmware and from CPUID (0x1F or 0xB), the hybrid core type (0x1A);
 *  2. the TSC of every CPU against the bootstrap processor's: a warp check
 *     (largest backward step under a lock), the offset bounded by round
 *     trips (interval and its half-width), and the rate of every CPU's TSC
 *     against the same reference counter (HPET, else the ACPI PM timer);
 *  3. the round trip of a cache line between every pair of CPUs (min and
 *     median): a matrix;
 *  4. BYTEmark tests on each CPU in turn, then on all of them at once
 *     (the sum and its ratio to one core).
 * It runs after the clock section (it needs the calibrated TSC rate).
 * Settings (bench/config/config.h): CORES (which CPUs; the bootstrap processor,
 * the TSC reference and the driver, always takes part), SMP (which parts),
 * SMPTESTS (which BYTEmark tests), SMPTIMEOUT (how long an AP may take to
 * answer or to finish one piece of work before it is reported and left).
 */
#ifndef BAREMARK_CORES_H
#define BAREMARK_CORES_H

#include <stdint.h>

#include "bytemark/bytemark.h"
#include "config.h"
#include "cores_math.h"
#include "platform.h"
#include "quiet.h"

/* Disagreement worth a warning. */
#define CORES_SKEW_BOUND_NS   1000.0   /* the offset interval lies wholly beyond +-1 us */
#define CORES_RATE_BOUND_PPM  100.0    /* a CPU's TSC rate beyond 100 ppm of the BSP's
                                        * (beyond its 95% uncertainty) */

/* Defaults of the measurements (quick enough for a boot under QEMU). */
#define CORES_WARP_LOOPS       2000    /* lock turns per CPU, at least ... */
#define CORES_WARP_HANDOFFS    1000    /* ... and handoffs per pair, ... */
#define CORES_WARP_HANDOFF_MS  200     /* ... if they come within this */
#define CORES_PING_SAMPLES     500     /* round trips each way per CPU */
#define CORES_BOUNCE_SAMPLES   100     /* samples per pair ... */
#define CORES_BOUNCE_TRIPS     8       /* ... of this many round trips each */
#define CORES_STACK_BYTES      (256u * 1024)
#define CORES_ARENA_BYTES      (8u * 1024 * 1024)

/* ---- the TSC rate of one CPU against a shared reference counter (bench/cores/cores_work.h)
 * One cores_rate call is one session: CORES_RATE_POINTS edges of the
 * reference, one every step_ref_ticks, appended to points[] (extended past
 * the counter's wrap from the previous session's last point).  The section
 * runs a session per CPU at the start and one at the end, and fits them
 * (bench/cores/cores_fit.c), so the fit spans the whole section. */
enum cores_ref { CORES_REF_NONE, CORES_REF_HPET, CORES_REF_PMTIMER };
#define CORES_RATE_POINTS   12          /* edges per session */
#define CORES_RATE_SESSIONS 2           /* start and end of the section */
#define CORES_RATE_STEP_MS  4           /* between two edges of a session */
struct cores_rate {
    enum cores_ref ref;
    uintptr_t hpet_base;                /* HPET MMIO base */
    uint16_t pm_port;                   /* PM timer I/O port */
    uint32_t pm_mask;                   /* 0xFFFFFF or 0xFFFFFFFF */
    double ref_hz;
    double ref_per_tsc;                 /* expected reference ticks per TSC tick */
    uint64_t step_ref_ticks;            /* between two edges of a session */
    uint64_t timeout_ticks;
    /* in and out */
    struct cores_rate_point points[CORES_RATE_POINTS * CORES_RATE_SESSIONS];
    uint32_t n;
    int failed;                         /* a session timed out */
};

#define CORES_DEFAULT_TIMEOUT_S 30
#define CORES_ANSWER_S          5     /* an AP must take its worker job within this */
#define CORES_DEFAULT_TESTS     ((1u << BM_NUMSORT) | (1u << BM_FOURIER))

/* The section's parts, timed one by one (struct cores took[]). */
enum cores_part { CORES_PART_START, CORES_PART_TSC, CORES_PART_LATENCY, CORES_PART_SCORES, CORES_PART_RATE,
                  CORES_PARTS };

/* ---- types ------------------------------------------------------------------------ */

/* What went wrong with one CPU's piece of work. */
struct cores_fail {
    int failed;                   /* 0: fine */
    char why[160];
};

struct cores_tsc {
    int measured;
    struct cores_warp_count warp;     /* both sides of the pair added */
    struct cores_offset_bounds bounds;
    double skew_ticks, skew_unc_ticks;
    int skew_consistent;
    struct cores_rate rate;           /* the points of every session */
    struct cores_rate_fit fit;
    struct cores_rate_diff diff;      /* vs the BSP's rate by the same reference */
    struct cores_fail fail;
    int offset_warned, rate_warned;   /* a warning about it was printed (the JSON's offset_ok, rate_ok) */
};

struct cores_score {
    int ran;
    struct bytemark_core_job job;
    struct cores_fail fail;
    uint64_t t_start, t_end;          /* TSC around the test (all at once: after the rendezvous) */
};

struct cores_cpu {
    int selected;
    struct cores_cpuid id;
    struct cores_topo topo;
    struct cores_tsc tsc;
    struct cores_score score[BM_NTESTS];      /* per core */
    struct cores_score all[BM_NTESTS];        /* all cores at once */
    struct cores_fail fail;                   /* the CPU itself (no answer, lost) */
    const char *inject;                       /* INJECTIN=cores:cpuN */
    uint32_t core_of, threads_in_core;        /* SMT: the first selected CPU of its core, and how
                                               * many selected CPUs share the core */
};

struct cores {
    const struct bm_config *cfg;
    enum bm_profile profile;                  /* the run's, settled once (run_env: section.h) */
    const char *vm_hidden;                    /* the run environment's hidden hypervisor, or NULL */
    const struct acpi_info *ai;               /* the reference counters (kernel/acpi.h) */
    int have_madt;                            /* the ACPI tables were read ... */
    uint32_t madt_cpus;                       /* ... and the MADT lists this many CPUs */
    struct plat_cpus mi;
    uint64_t hz, timeout_ticks;
    uint32_t parts, tests, nsel;
    uint8_t *sel;
    struct cores_cpu *cpu;
    uint32_t *order;                          /* selected processor numbers */
    /* latency matrix over order[], nsel x nsel, row-major */
    uint64_t *lat_min, *lat_med;
    struct cores_fail lat_fail;
    int lat_measured;
    enum cores_ref ref;
    const char *ref_name;
    int read_chosen;                          /* the APs were probed and read is set */
    enum cores_read read;                     /* how every TSC read is fenced */
    char read_why[200];
    int rate_sessions;                        /* sessions every CPU's fit had (0..2) */
    double rate_detectable_ppm;               /* the largest AP's (NaN: none) */
    struct cores_overlap overlap[BM_NTESTS];  /* the all-core runs */
    uint32_t all_cores[BM_NTESTS];            /* distinct cores among the CPUs that finished */
    uint64_t kept_bytes;                      /* memory a lost CPU might still write: never freed */
    struct quiet_phase_totals qt;
    /* How long each part took on the BSP's TSC (ticks; 0: did not run), and
     * the whole section from its first line to its JSON: how it scales with
     * the number of CPUs (bench/cores/cores_report.c prints it, the JSON keeps it). */
    uint64_t took[CORES_PARTS], took_total;
    int warnings;
};

/* ---- the text and the LAVA cases (bench/cores/cores_report.c) ---------------------------------- */

double cores_ns(const struct cores *c, double ticks);
/* A worker's state: "none", "ready", "lost"... */
const char *cores_state_name(enum plat_worker_state s);
/* "bsp", "not selected", "disabled" or the worker's state */
const char *cores_worker_text(const struct cores *c, uint32_t n);
/* "ok", "not_run", "failed_fault"... */
const char *cores_bm_status(const struct cores_score *s);
/* Sum over the CPUs that ran test id at once; ratio to the mean of their
 * own per-core scores.  Returns the number of CPUs that counted. */
uint32_t cores_all_sum(const struct cores *c, int id, double *sum, double *ratio);
void cores_print_list(const struct cores *c);
/* bench/cores/cores_report_tsc.c: the fences, warp and offsets (after the TSC
 * part), the rates (fitted at the section's end), their warnings and LAVA
 * cases. */
void cores_print_read(const struct cores *c);
void cores_print_tsc(struct cores *c);
void cores_warn_tsc(struct cores *c);
void cores_print_rate(struct cores *c);
void cores_print_latency(struct cores *c);
void cores_print_scores(struct cores *c);
/* "start", "tsc", "latency", "scores", "rate" (the JSON's took_s members) */
const char *cores_part_name(enum cores_part p);
/* One line: how long the section and each part that ran took, for how many CPUs. */
void cores_print_took(const struct cores *c);

/* ---- the "cores" member of the results (bench/cores/cores_json.c) ------------------------------- */
void cores_json(const struct cores *c);

struct section_ctx;
/* The section (bench/sections.c; bench/cores/cores_section.c). */
int cores_run(const struct section_ctx *ctx);

#endif
