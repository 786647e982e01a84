/*
 * bench/bytemark/emfloat.h - what the FP EMULATION kernel's files share:
 * the emulated number (emfloat.c: the package and the kernel) and the
 * checks against double precision (emfloat_check.c).
 */
#ifndef BAREMARK_EMFLOAT_H
#define BAREMARK_EMFLOAT_H

#include <stddef.h>
#include <stdint.h>

#include "bytemark.h"

/* BYTEMARK.md section 11. */
#define EMF_ARRAY_SIZE  3000
#define EMF_LOOP_MAX    500000      /* CPUEMFLOATLOOPMAX */
#define EMF_PREC        4           /* INTERNAL_FPF_PRECISION: 16-bit words */
#define EMF_BITS        (EMF_PREC * 16)
#define EMF_MAX_EXP     32767
#define EMF_MIN_EXP     (-32767)
#define EMF_OPERAND     50000       /* operands randwc(50000), divisors +1 */

enum { EMF_ZERO, EMF_SUBNORMAL, EMF_NORMAL, EMF_INFINITY, EMF_NAN, EMF_TYPES };

/* Operand-type pairs of the reference's switch (x->type * 5 + y->type). */
#define EMF_PAIR(x, y) ((x) * EMF_TYPES + (y))

/* The reference's InternalFPF: value = 0.mantissa * 2^exp, mantissa[0] most
 * significant; 12 bytes as in the reference. */
struct emf_num {
    uint8_t type, sign;
    int16_t exp;
    uint16_t mant[EMF_PREC];
};

struct emfloat {
    struct emf_num *a, *b, *c;
    uint64_t size, loops;
    struct bm_rand rand;
};

/* The reference's interleaved op table (bdoc's "4 equal groups" is wrong):
 * per 16 elements 4 add, 4 subtract, 5 multiply, 3 divide. */
static const uint8_t emf_jtable[16] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3 };

/* ---- checks (emfloat_check.c) ---- */

/* The number as a double (NAN for NaN, +-INFINITY, +-0). */
double emf_to_double(const struct emf_num *x);
/* Element i as the reference's DEBUG line: "2: (-1.1160E 0) + (...) = ...". */
void emf_sample_line(const struct emfloat *e, unsigned i, char *buf, size_t n);
/* bdoc.txt's eight sample lines, by element. */
struct emf_sample { unsigned index; const char *line; };
extern const struct emf_sample emf_samples[8];
/* How many results differ from double precision; the first in *first_bad. */
unsigned emf_count_wrong(const struct emfloat *e, unsigned *first_bad);

#endif
