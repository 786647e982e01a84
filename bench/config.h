/*
 * bench/config.h - the run's settings: BYTEmark's command-file parameters
 * (same names and meanings, see ../shared/reference/BYTEMARK.md section 6)
 * and baremark's own settings, from \baremark.cfg on the ESP (or the file
 * named in the load options) and from the load options themselves.
 *
 * Parsing never fails as a whole: each bad line is reported (line number and
 * reason) through the diagnostics callback and skipped.
 */
#ifndef BAREMARK_CONFIG_H
#define BAREMARK_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define BM_NTESTS 10

/* BYTEmark test order (the reference's fixed order). */
enum bm_test_id {
    BM_NUMSORT, BM_STRSORT, BM_BITFIELD, BM_EMFLOAT, BM_FOURIER,
    BM_ASSIGN, BM_IDEA, BM_HUFFMAN, BM_NNET, BM_LU
};

enum bm_profile { BM_PROFILE_AUTO, BM_PROFILE_QUICK, BM_PROFILE_FULL };

struct bm_config {
    /* ---- BYTEmark's parameters; a value of 0 in a size means "default" --- */
    uint64_t global_min_ticks;     /* GLOBALMINTICKS, in microseconds of TSC time */
    uint32_t min_seconds[BM_NTESTS]; /* MINSECONDS / xxxMINSECONDS */
    int min_seconds_set[BM_NTESTS];  /* set explicitly (beats the profile) */
    int allstats;                  /* ALLSTATS */
    int customrun;                 /* CUSTOMRUN */
    int enabled[BM_NTESTS];        /* DOxxx */
    char outfile[64];              /* OUTFILE (extra copy of the log on the ESP) */
    uint64_t num_arrays;           /* NUMNUMARRAYS (disables adjustment when set) */
    uint64_t num_array_size;       /* NUMARRAYSIZE */
    uint64_t str_arrays;           /* NUMSTRARRAYS (disables adjustment) */
    uint64_t str_array_size;       /* STRARRAYSIZE */
    uint64_t bit_ops;              /* NUMBITOPS (disables adjustment) */
    uint64_t bitfield_size;        /* BITFIELDSIZE (64-bit words) */
    uint64_t emf_array_size;       /* EMFARRAYSIZE */
    uint64_t emf_loops;            /* EMFLOOPS (ineffective in the reference: kept so) */
    uint64_t four_size;            /* FOURSIZE / FOURASIZE (disables adjustment) */
    uint64_t assign_arrays;        /* ASSIGNARRAYS (ineffective in the reference) */
    uint64_t idea_array_size;      /* IDEARRAYSIZE / IDEAARRAYSIZE */
    uint64_t idea_loops;           /* IDEALOOPS (ineffective in the reference) */
    uint64_t huff_array_size;      /* HUFARRAYSIZE / HUFFARRAYSIZE */
    uint64_t huff_loops;           /* HUFFLOOPS (disables adjustment) */
    uint64_t nnet_loops;           /* NNETLOOPS (disables adjustment) */
    uint64_t lu_arrays;            /* LUNUMARRAYS (disables adjustment) */
    uint32_t align;                /* ALIGN (default 8) */
    int not_comparable;            /* a parameter that invalidates comparison was set */
    char not_comparable_why[128];

    /* ---- baremark's own settings (names of their own, BM_ prefix in the file) */
    enum bm_profile profile;       /* PROFILE=quick|full|auto */
    int run_clock, run_methods, run_compare, run_bytemark; /* SECTIONS=... */
    int run_verify;                /* VERIFY=T: run the kernels' checks */
    int qemu_exit;                 /* QEMUEXIT=T: status to isa-debug-exit 0xF4 */
    int shutdown;                  /* SHUTDOWN=T: power off at the end (hardware) */
    uint32_t quiet_ms;             /* QUIETMS: quiet-machine check length */
    int inject_fault;              /* INJECTFAULT=none|divide|opcode|page (test aid) */
    char inject_where[32];         /* INJECTIN: which test the fault goes into */
    uint32_t methods_samples;      /* METHODSAMPLES */
    uint32_t methods_iterations;   /* METHODITERATIONS */
};

/* Diagnostics: called once per problem with the 1-based line number (0 when
 * the problem is not tied to a line) and a one-line message. */
typedef void (*config_diag_fn)(void *ctx, unsigned line, const char *msg);

/* Defaults: BYTEmark's defaults and baremark's (profile auto). */
void config_defaults(struct bm_config *c);

/* Parse a command file held in memory (any bytes: CRLF, a UTF-8 BOM, NULs
 * and overlong lines are handled).  Returns the number of problems found. */
int config_parse(struct bm_config *c, const char *text, size_t len,
                 config_diag_fn diag, void *ctx);

/* Parse load options (UEFI LoadOptions already converted to ASCII), e.g.
 * "BOOTX64.EFI -c TEST.CFG profile=quick qemuexit=t".  Sets *cfg_name to a
 * command file named with -c (or leaves it empty).  Returns problems found. */
int config_parse_options(struct bm_config *c, const char *opts, size_t len,
                         char *cfg_name, size_t cfg_name_size,
                         config_diag_fn diag, void *ctx);

#endif
