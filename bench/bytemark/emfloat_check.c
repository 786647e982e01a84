/*
 * bench/bytemark/emfloat_check.c - the FP EMULATION kernel's results
 * checked (emfloat.c's verify): each emulated number as a double, the
 * reference's DEBUG lines, every result against double precision.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emfloat.h"

double emf_to_double(const struct emf_num *x)
{
    if (x->type == EMF_ZERO)
        return x->sign ? -0.0 : 0.0;
    if (x->type == EMF_INFINITY)
        return x->sign ? -INFINITY : INFINITY;
    if (x->type == EMF_NAN)
        return NAN;
    uint64_t m = (uint64_t)x->mant[0] << 48 | (uint64_t)x->mant[1] << 32 |
                 (uint64_t)x->mant[2] << 16 | x->mant[3];
    double v = ldexp((double)m, x->exp - EMF_BITS);
    return x->sign ? -v : v;
}

/* The reference's debug print: sign, 5 significant digits TRUNCATED (not
 * rounded), "E", a space and the decimal exponent: "-1.1160E 0". */
static void emf_format(const struct emf_num *x, char *buf, size_t n)
{
    if (x->type != EMF_NORMAL && x->type != EMF_SUBNORMAL) {
        snprintf(buf, n, "%s", x->type == EMF_ZERO ? "+0.0000E 0" :
                 x->type == EMF_INFINITY ? "INF" : "NAN");
        return;
    }
    double v = fabs(emf_to_double(x));
    int e = (int)floor(log10(v));
    double m = v / pow(10.0, e);
    if (m >= 10.0) { m /= 10.0; e++; }
    if (m < 1.0) { m *= 10.0; e--; }
    long d = (long)(m * 10000.0);
    snprintf(buf, n, "%c%ld.%04ldE %d", x->sign ? '-' : '+', d / 10000, d % 10000, e);
}

/* bdoc.txt's eight sample operations (Mayer's DEBUG output of 2.2.3). */
const struct emf_sample emf_samples[8] = {
    { 2, "2: (-1.1160E 0) + (-4.5159E 0) = -5.6320E 0" },
    { 6, "6: (-4.4507E -1) - (-8.2050E -1) = +3.7543E -1" },
    { 10, "10: (+1.2465E 0) * (+7.4667E -1) = +9.3075E -1" },
    { 14, "14: (-1.2781E 0) / (-1.7367E 0) = +7.3596E -1" },
    { 2986, "2986: (-7.0390E 0) * (-2.0752E 0) = +1.4607E 1" },
    { 2990, "2990: (+8.3753E -1) / (+2.3876E 1) = +3.5078E -2" },
    { 2994, "2994: (-1.1393E 0) + (-1.6080E 1) = -1.7219E 1" },
    { 2998, "2998: (+7.2450E 0) - (-8.2654E -1) = +8.0716E 0" },
};

void emf_sample_line(const struct emfloat *e, unsigned i, char *buf, size_t n)
{
    static const char ops[4] = { '+', '-', '*', '/' };
    char sa[32], sb[32], sc[32];
    emf_format(&e->a[i], sa, sizeof sa);
    emf_format(&e->b[i], sb, sizeof sb);
    emf_format(&e->c[i], sc, sizeof sc);
    snprintf(buf, n, "%u: (%s) %c (%s) = %s", i, sa, ops[emf_jtable[i % 16]], sb, sc);
}

/* Every result against the same operation in double precision: the
 * emulator keeps 61 mantissa bits (chopped) and the operands converted to
 * double are within 2^-53 of its own, so a correct result is within 1e-14
 * of |a|+|b| (sums and differences, where cancellation magnifies the
 * operands' rounding) or of |result| (products and quotients). */
unsigned emf_count_wrong(const struct emfloat *e, unsigned *first_bad)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < e->size; i++) {
        double a = emf_to_double(&e->a[i]), b = emf_to_double(&e->b[i]), want;
        switch (emf_jtable[i % 16]) {
        case 0: want = a + b; break;
        case 1: want = a - b; break;
        case 2: want = a * b; break;
        default: want = a / b; break;
        }
        double got = emf_to_double(&e->c[i]);
        double scale = emf_jtable[i % 16] < 2 ? fabs(a) + fabs(b) : fabs(want);
        if (!(fabs(got - want) <= 1e-14 * scale)) {
            if (!bad)
                *first_bad = i;
            bad++;
        }
    }
    return bad;
}
