/*
 * bench/cores_math.h - the portable arithmetic of the cores section: CPU
 * topology from CPUID, offset intervals from round trips, the CORES list.
 * Pure: no I/O, no globals; unit-tested on the host.
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

/* What one CPU reads about itself (kernel/cores_work.c fills it). */
struct cores_cpuid {
    uint32_t leaf1_eax, leaf1_ebx;      /* signature; initial APIC ID in EBX[31:24] */
    uint32_t topo_leaf;                 /* 0x1F, 0xB, or 0 when neither */
    uint32_t x2apic_id;                 /* EDX of the topology leaf */
    uint32_t levels;                    /* entries in level[] */
    uint32_t level_type[CORES_LEVELS_MAX], level_shift[CORES_LEVELS_MAX];
    int hybrid;                         /* CPUID.(7,0):EDX bit 15 */
    uint32_t leaf1a_eax;                /* CPUID 0x1A EAX (0 when absent) */
    int read;                           /* filled by a CPU */
};

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

/* ---- order statistics ---------------------------------------------------------- */
/* Sorts v (n > 0) and returns the median (mean of the middle two for even n). */
double cores_median_u64(uint64_t *v, size_t n);

/* ---- the CORES setting ----------------------------------------------------------
 * "all", or a comma list of processor numbers and ranges: "0,2-5".  Sets
 * sel[i] = 1 for each number below n (sel has n entries; NULL: only check).  Returns 0, or -1
 * with *why set (a bad word; numbers at or past n are reported by the
 * caller, see cores_list_max). */
int cores_list_parse(const char *s, uint8_t *sel, uint32_t n, const char **why);
/* The largest number in a well-formed list (0 for "all"). */
uint32_t cores_list_max(const char *s);

#endif
