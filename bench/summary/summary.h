/*
 * bench/summary/summary.h - the run's summary: what a person boots the machine to
 * learn, in the order they ask it (did it work, what machine, can the clock
 * be trusted, was it quiet, how long does each target take, which of two is
 * faster, how does the machine score, what do the cores and the memory do,
 * where are the files).
 *
 * It is built once, FROM THE RESULTS DOCUMENT (docs/results-schema.md), never
 * from the serial text, by portable code: the image builds it from the JSON
 * it has just written and prints it at the end of serial and screen; the
 * host builds it from a file (`baremark show RUN.json`,
 * `tools/baremark-results show RUN.json`) and the HTML report renders the
 * same struct.  So every output says the same thing with the same numbers.
 *
 * Two layers:
 *   - the structured fields below (numbers with their units in the names,
 *     NAN when the run has no such figure, "" for a missing text), for a
 *     renderer that lays them out itself (the report's first screen, its
 *     dot plots);
 *   - the rows (label + text, at most SUMMARY_ROWS_MAX of them, every
 *     number with its unit), for a renderer that shows text: the serial
 *     block prints them between summary_open_line and summary_close_line.
 *
 * A missing section leaves its fields NAN/0/"" and adds no row; an
 * interrupted run (its JSON says "status": "interrupted", or "ended":
 * false) says where it stopped.
 */
#ifndef BAREMARK_SUMMARY_H
#define BAREMARK_SUMMARY_H

#include <stddef.h>

#define SUMMARY_NAME_MAX     48     /* a target's, method's or section's name */
#define SUMMARY_TEXT_MAX     192    /* one row's text, one reason, one headline */
#define SUMMARY_ROWS_MAX     40     /* the text block's rows (without its two marker lines) */
#define SUMMARY_TARGETS_MAX  32
#define SUMMARY_METHODS_MAX  12     /* estimates per target: one per timing method */
#define SUMMARY_AB_MAX       16
#define SUMMARY_LEVELS_MAX   8
#define SUMMARY_SECTIONS_MAX 16
#define SUMMARY_REASONS_MAX  3      /* the first warnings, word for word */

/* The run's verdict (the first row and the report's badge). */
enum summary_verdict {
    SUMMARY_COMPLETED,              /* status 0 */
    SUMMARY_WARNINGS,               /* status 2: completed, something was not done */
    SUMMARY_FAILED,                 /* status 3: could not run */
    SUMMARY_INTERRUPTED,            /* the run never ended (power cut, reset, hang) */
};

/* One timing method's estimate of one target (docs/statistics.md, "A
 * routine's time per iteration"): the net time per iteration, the median
 * of (timing - placeholder median) / N over the raw samples, and its 95%
 * interval from order statistics, widened to at least estimate -+ r, r the
 * resolution floor (the counter's step over N: a difference smaller than
 * one step of the counter is not seen), its lower end never below 0.  An
 * estimate the run marked too short, or below r, is unresolved: said as
 * "below 1 step, < X ns" (summary_estimate_text), never as a time, and not
 * counted among the methods that agree. */
struct summary_estimate {
    char method[SUMMARY_NAME_MAX];  /* "lfence+rdtscp" */
    double ticks, ticks_lo, ticks_hi;  /* TSC ticks per iteration; the interval widened (NAN without raw samples) */
    double ns, ns_lo, ns_hi;           /* the same in ns; NAN without a clock */
    double floor_ticks, floor_ns;      /* r: counter_step_ticks / iterations (NAN unknown) */
    double below_ns;                   /* unresolved: X = max(hi, r) in ns; NAN when resolved */
    unsigned samples;
    int resolved;                   /* 1: told from the placeholder and at least r; 0: unresolved
                                     * (below 1 step); -1: no estimate at all */
    int at_floor;                   /* the interval's width is the floor's, not the samples' */
    int chosen;                     /* the one the summary reports for its target */
    int agrees;                     /* resolved, and its interval overlaps the chosen one's */
};

/* An estimate for a person, the one way every output writes it (the
 * summary's rows, the report's first screen and its dot plots), in ns:
 *   resolved:   time "12.19", interval "[12.18, 12.21]";
 *   unresolved: time "below 1 step, < 9.63 ns", interval "" (the time
 *               says all there is);
 *   no estimate: time "n/a", interval "".
 * The interval is "n/a" when the run kept no raw samples. */
#define SUMMARY_EST_TEXT_MAX 48
void summary_estimate_text(const struct summary_estimate *e, char time[SUMMARY_EST_TEXT_MAX],
                           char interval[SUMMARY_EST_TEXT_MAX]);

/* One measured target (a built-in routine or PLUGIN:ROUTINE). */
struct summary_target {
    char name[SUMMARY_NAME_MAX];
    unsigned n_est;
    struct summary_estimate est[SUMMARY_METHODS_MAX];
    unsigned chosen;                /* index into est of the reported estimate */
    unsigned agree;                 /* "k of m": resolved estimates whose interval meets the chosen one's */
    unsigned resolved;              /* ... m, the resolved estimates */
    char why[SUMMARY_NAME_MAX];     /* why that method: "the run's method", "best of the profile" */
};

/* One comparison of the comparisons section. */
struct summary_ab {
    char name[SUMMARY_NAME_MAX];    /* "foo vs foobar" */
    char a[SUMMARY_NAME_MAX], b[SUMMARY_NAME_MAX];
    int control;                    /* an A/A control: one routine, the order drawn per trial */
    char check[24];                 /* what the pair is: "a/a control", "order check",
                                     * "placement check", "a/b" */
    int abab;                       /* timed in ABAB order (A first in every trial) */
    char status[16];                /* the comparison's "status": "ok", or why it was not measured */
    int detected;                   /* a difference at 95% */
    int as_expected;                /* 1, 0, or -1 when the run does not say */
    /* The pair's figures (stats_ab, docs/statistics.md "An A/B comparison"):
     * the slower's time over the faster's (B's over A's when neither is
     * faster: side 0), its 95% interval, and the p that decides, Mann-
     * Whitney's; from the comparison's "ratio" member, else stats_ab on the
     * stored samples.  NAN where there is none. */
    double ratio, ratio_lo, ratio_hi, p;
    /* Not a difference although p < 0.05: the medians closer than the
     * run's noise threshold (the verdict's size rule); rel_median is
     * (median A - median B) / median B, noise the threshold, NAN unknown. */
    int within_noise;
    double rel_median, noise;
    int side;                       /* the faster: 1 A, 2 B, 0 neither (enum stats_ab_side) */
    char faster[SUMMARY_NAME_MAX], slower[SUMMARY_NAME_MAX];
    char note[48];                  /* " (A/A control, as expected)", " (order check: NOT as expected)"... */
    char text[SUMMARY_TEXT_MAX];    /* "foo is 1.9x [1.8, 2.0] faster than foobar, p < 1e-60" */
};

/* "within the 1% noise (medians 0.58% apart)": an A/B pair's finding when
 * ab->within_noise; the summary's row and the report's pairs table. */
void summary_ab_within(const struct summary_ab *ab, char *buf, size_t cap);

/* One cache level (or main memory) as the memory section sized it. */
struct summary_level {
    char name[SUMMARY_NAME_MAX];    /* "L1d", "L2", "L3", "past L3" */
    double bytes;                   /* working set the latency is from */
    double ns;                      /* latency per load, ns */
};

/* A section present in the results: its one-line headline (from its figure
 * table, bench/results/figures.h), for the report's folded <details> and the rows. */
struct summary_section {
    char name[SUMMARY_NAME_MAX];    /* its results member: "clock", "memory" */
    char headline[SUMMARY_TEXT_MAX];
};

struct summary_row {
    char label[12];                 /* "verdict", "machine", "clock", ... ("" continues the row above) */
    char text[SUMMARY_TEXT_MAX];
};

struct summary {
    /* the run */
    char run[SUMMARY_NAME_MAX];     /* its name, "20261124-223436" */
    enum summary_verdict verdict;
    int status;                     /* 0, 2, 3; -1 when interrupted */
    unsigned warnings;              /* entries of "errors" */
    unsigned n_reasons;
    char reasons[SUMMARY_REASONS_MAX][SUMMARY_TEXT_MAX];
    char interrupted_in[SUMMARY_NAME_MAX];  /* the last section reached, "" when not interrupted or unknown */
    char profile[SUMMARY_NAME_MAX];         /* "quick", "full", "" */
    char platform[SUMMARY_NAME_MAX];        /* "uefi", "linux" */
    double duration_ms;             /* "duration_ms": entry to end (interrupted: to the last write); NAN unknown */

    /* the machine */
    char cpu[SUMMARY_TEXT_MAX];     /* brand string */
    char firmware[SUMMARY_NAME_MAX];
    char hypervisor[SUMMARY_NAME_MAX];  /* "" on bare metal */
    char hypervisor_hidden[SUMMARY_NAME_MAX];   /* CPUID says none, SMBIOS names this VM ("" none) */
    unsigned cpus;                  /* logical CPUs, 0 unknown */
    double memory_mib;              /* NAN unknown */
    /* the boot state (system.secure_boot, boot/secureboot.c) */
    int secure_boot;                /* 1 on, 0 off, -1 the results do not say */
    int shim;                       /* started through shim */
    int image_signed;               /* the running image's file carries a signature */
    char image_sha256[72];          /* its SHA-256 as on the ESP, "" unknown */

    /* the clock */
    double tsc_mhz, tsc_ppm;        /* the rate the run used and its uncertainty */
    char tsc_source[SUMMARY_NAME_MAX];  /* "hpet", "pm_timer", ... */
    unsigned references;            /* measured references */
    double agreement_ppm;           /* largest disagreement between them */
    double step_ticks, step_ns;     /* the counter's measured step (NAN: not measured / no rate) */

    /* quiet */
    double quiet_ms;                /* how long the check ran */
    double gap_max_us;              /* largest gap between back-to-back TSC reads */
    double gaps_over_1us;
    double nmis;                    /* NAN: not counted */
    double smis;                    /* NAN: no counter (n/a) */

    /* how long each target takes */
    unsigned n_targets;
    struct summary_target targets[SUMMARY_TARGETS_MAX];

    /* which is faster */
    unsigned n_ab;
    struct summary_ab ab[SUMMARY_AB_MAX];

    /* BYTEmark */
    double index_integer, index_fp; /* original (Pentium 90 = 1) indexes; NAN none */
    char bytemark_profile[SUMMARY_NAME_MAX];
    int bytemark_certain;           /* every kernel 95% certain */
    int bytemark_ran;               /* the document has a bytemark section: its row, n/a indexes too */

    /* cores and memory headlines */
    unsigned cores_cpus;
    double cores_offset_ns;         /* largest |TSC offset| against the BSP */
    double cores_c2c_ns;            /* worst core-to-core round trip */
    unsigned n_levels;
    struct summary_level levels[SUMMARY_LEVELS_MAX];
    double read_gbps;               /* best read bandwidth, GB/s */

    /* files */
    char log_file[SUMMARY_NAME_MAX], json_file[SUMMARY_NAME_MAX];
    int saved;                      /* 1 saved, 0 not, -1 unknown */

    /* each section's headline, in the document's order */
    unsigned n_sections;
    struct summary_section sections[SUMMARY_SECTIONS_MAX];

    /* the text, row by row */
    unsigned n_rows;
    struct summary_row rows[SUMMARY_ROWS_MAX];
};

/* A section's part of the summary (summary_part.h says what it may use):
 * its row's SUMMARY column in bench/sections.def.  Each part declares
 * itself with it ("summary_part_fn clock_summary;"), so its definition is
 * checked against the type summary_build calls it by. */
struct jval;
typedef void summary_part_fn(struct summary *s, struct jval member, struct jval doc);

/* Build the summary of a results document (the JSON text, len bytes).  The
 * struct is large (about 70 KB): allocate it.  Returns 0, or -1 when the
 * text is not a results document (then s says only that, in its rows). */
int summary_build(struct summary *s, const char *json, size_t len);

/* The text block: summary_open_line, one line per row ("label     text"),
 * summary_close_line; put is called once per line (no "\n"). */
void summary_print(const struct summary *s, void (*put)(void *ctx, const char *line), void *ctx);

/* The marker lines around the block, so a person or a lab can cut it out:
 * "==================== baremark summary: RUN ====================" and a
 * rule of the same length.  Both at most 100 characters. */
void summary_open_line(const struct summary *s, char *out, size_t cap);
void summary_close_line(const struct summary *s, char *out, size_t cap);

/* "completed", "completed with warnings", "failed", "interrupted". */
const char *summary_verdict_name(enum summary_verdict v);

#endif
