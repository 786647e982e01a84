/*
 * bench/bytemark/emfloat.c - BYTEmark's emulated floating point (BYTEMARK.md
 * 4.4): a software floating-point package on four 16-bit mantissa words,
 * bit-serial add/subtract/multiply/divide over arrays of 3000 operands.
 * Unit: loops per second (one loop = 3000 emulated operations).
 * Adjustment doubles the loop count (1, 2, 4, ...) below the cap 500000.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "emfloat.h"
#include "platform.h"

/* ---- the package (the reference's emfloat.c, function by function) -------- */

static void emf_set_zero(struct emf_num *d, uint8_t sign)
{
    d->type = EMF_ZERO;
    d->sign = sign;
    d->exp = EMF_MIN_EXP;
    memset(d->mant, 0, sizeof d->mant);
}

static void emf_set_infinity(struct emf_num *d, uint8_t sign)
{
    d->type = EMF_INFINITY;
    d->sign = sign;
    d->exp = EMF_MIN_EXP;
    memset(d->mant, 0, sizeof d->mant);
}

static void emf_set_nan(struct emf_num *d)
{
    d->type = EMF_NAN;
    d->exp = EMF_MAX_EXP;
    d->sign = 1;
    memset(d->mant, 0, sizeof d->mant);
    d->mant[0] = 0x4000;
}

static int emf_mant_zero(const uint16_t *m)
{
    return (m[0] | m[1] | m[2] | m[3]) == 0;
}

static inline void emf_add16(uint16_t *carry, uint16_t *a, uint16_t b, uint16_t c)
{
    uint32_t acc = (uint32_t)b + c + *carry;
    *carry = (acc & 0x10000) ? 1 : 0;
    *a = (uint16_t)acc;
}

static inline void emf_sub16(uint16_t *borrow, uint16_t *a, uint16_t b, uint16_t c)
{
    uint32_t acc = (uint32_t)b - c - *borrow;
    *borrow = (acc & 0x10000) ? 1 : 0;
    *a = (uint16_t)acc;
}

/* Shift left one bit, least significant word first; the carry in becomes
 * bit 0, the bit out (kept as 0x8000, i.e. "nonzero") the carry out. */
static inline void emf_shl1(uint16_t *carry, uint16_t *m)
{
    for (int i = EMF_PREC - 1; i >= 0; i--) {
        uint16_t acc = m[i], out = acc & 0x8000;
        acc = (uint16_t)(acc << 1);
        if (*carry)
            acc |= 1;
        *carry = out;
        m[i] = acc;
    }
}

static inline void emf_shr1(uint16_t *carry, uint16_t *m)
{
    for (int i = 0; i < EMF_PREC; i++) {
        uint16_t acc = m[i], out = acc & 1;
        acc >>= 1;
        if (*carry)
            acc |= 0x8000;
        *carry = out;
        m[i] = acc;
    }
}

/* Shift right `amount` bits one at a time, ORing each bit out into the
 * least significant bit (sticky). */
static void emf_sticky_shr(struct emf_num *p, int amount)
{
    if (p->type == EMF_ZERO)
        return;
    if (amount >= EMF_BITS) {
        memset(p->mant, 0, sizeof p->mant);
        p->mant[EMF_PREC - 1] = 1;
        return;
    }
    for (int i = 0; i < amount; i++) {
        uint16_t carry = 0;
        emf_shr1(&carry, p->mant);
        if (carry)
            p->mant[EMF_PREC - 1] |= 1;
    }
}

static void emf_normalize(struct emf_num *p)
{
    while ((p->mant[0] & 0x8000) == 0) {
        uint16_t carry = 0;
        emf_shl1(&carry, p->mant);
        p->exp--;
    }
}

/* Bring an exponent below min_exp up to it, shifting the mantissa right
 * (sticky).  Never reached with the default data (every result's exponent is
 * far above -32767). */
static void emf_denormalize(struct emf_num *p, int min_exp)
{
    int diff = p->exp - min_exp;
    if (diff >= 0)
        return;
    if (diff < -EMF_BITS) {
        emf_set_zero(p, p->sign);
    } else {
        p->exp = (int16_t)(p->exp - diff);
        emf_sticky_shr(p, -diff);
    }
}

/* RoundInternalFPF: denormalise to the minimum exponent, then chop the low 3
 * bits of the last word (no round-to-nearest; the overflow test is dead code
 * in the reference too). */
static void emf_round(struct emf_num *p)
{
    if (p->type != EMF_NORMAL && p->type != EMF_SUBNORMAL)
        return;
    emf_denormalize(p, EMF_MIN_EXP);
    if (p->type != EMF_ZERO)
        p->mant[EMF_PREC - 1] &= 0xfff8;
}

/* choose_nan: the NaN with the larger mantissa.  Quirk kept: the reference's
 * first memmove has its arguments reversed and overwrites x with z.  The tie
 * branch (equal mantissas) is this file's own reading; no NaN ever reaches
 * it in the workload. */
static void emf_choose_nan(struct emf_num *x, const struct emf_num *y, struct emf_num *z,
                           int intel)
{
    for (int i = 0; i < EMF_PREC; i++) {
        if (x->mant[i] > y->mant[i]) {
            memmove(x, z, sizeof *x);
            return;
        }
        if (x->mant[i] < y->mant[i]) {
            memmove(z, y, sizeof *z);
            return;
        }
    }
    if (!intel && x->sign != y->sign)
        memmove(z, x->sign ? y : x, sizeof *z);  /* equal: the positive one */
    else
        memmove(z, x, sizeof *z);
}

/* AddSubInternalFPF: z = x + y (op 0) or x - y (op 1).  Quirk kept: the
 * special-operand branches copy with memmove arguments reversed, so they
 * overwrite the INPUT with the output slot; the default data never reaches
 * them (all operands NORMAL). */
static void emf_addsub(uint8_t op, struct emf_num *x, struct emf_num *y, struct emf_num *z)
{
    struct emf_num lx, ly;
    switch (EMF_PAIR(x->type, y->type)) {
    case EMF_PAIR(EMF_ZERO, EMF_ZERO):
        memmove(x, z, sizeof *x);
        if (x->sign ^ y->sign ^ op)
            z->sign = 0;
        break;
    case EMF_PAIR(EMF_NAN, EMF_ZERO): case EMF_PAIR(EMF_NAN, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_NAN, EMF_NORMAL): case EMF_PAIR(EMF_NAN, EMF_INFINITY):
    case EMF_PAIR(EMF_SUBNORMAL, EMF_ZERO): case EMF_PAIR(EMF_NORMAL, EMF_ZERO):
    case EMF_PAIR(EMF_INFINITY, EMF_ZERO): case EMF_PAIR(EMF_INFINITY, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_INFINITY, EMF_NORMAL):
        memmove(x, z, sizeof *x);
        break;
    case EMF_PAIR(EMF_ZERO, EMF_NAN): case EMF_PAIR(EMF_SUBNORMAL, EMF_NAN):
    case EMF_PAIR(EMF_NORMAL, EMF_NAN): case EMF_PAIR(EMF_INFINITY, EMF_NAN):
        memmove(y, z, sizeof *y);
        break;
    case EMF_PAIR(EMF_ZERO, EMF_SUBNORMAL): case EMF_PAIR(EMF_ZERO, EMF_NORMAL):
    case EMF_PAIR(EMF_ZERO, EMF_INFINITY): case EMF_PAIR(EMF_SUBNORMAL, EMF_INFINITY):
    case EMF_PAIR(EMF_NORMAL, EMF_INFINITY):
        memmove(y, z, sizeof *y);
        z->sign ^= op;
        break;
    case EMF_PAIR(EMF_SUBNORMAL, EMF_SUBNORMAL): case EMF_PAIR(EMF_SUBNORMAL, EMF_NORMAL):
    case EMF_PAIR(EMF_NORMAL, EMF_SUBNORMAL): case EMF_PAIR(EMF_NORMAL, EMF_NORMAL): {
        lx = *x;
        ly = *y;
        int diff = lx.exp - ly.exp;
        if (diff == 0) {
            z->type = (lx.type == EMF_SUBNORMAL || ly.type == EMF_SUBNORMAL)
                      ? EMF_SUBNORMAL : EMF_NORMAL;
            z->exp = lx.exp;
        } else if (diff > 0) {
            emf_sticky_shr(&ly, diff);
            z->type = lx.type;
            z->exp = lx.exp;
        } else {
            emf_sticky_shr(&lx, -diff);
            z->type = ly.type;
            z->exp = ly.exp;
        }
        if (lx.sign ^ ly.sign ^ op) {
            /* Signs differ: subtract; a borrow out means |y| > |x|, so
             * negate the result (two's complement) and flip the sign. */
            uint16_t borrow = 0;
            for (int i = EMF_PREC - 1; i >= 0; i--)
                emf_sub16(&borrow, &z->mant[i], lx.mant[i], ly.mant[i]);
            if (borrow) {
                z->sign = ly.sign ^ op;
                borrow = 0;
                for (int i = EMF_PREC - 1; i >= 0; i--)
                    emf_sub16(&borrow, &z->mant[i], 0, z->mant[i]);
            } else {
                z->sign = lx.sign;
            }
            if (emf_mant_zero(z->mant)) {
                z->type = EMF_ZERO;
                z->sign = 0;
            } else if (lx.type == EMF_NORMAL || ly.type == EMF_NORMAL) {
                emf_normalize(z);
            }
        } else {
            uint16_t carry = 0;
            for (int i = EMF_PREC - 1; i >= 0; i--)
                emf_add16(&carry, &z->mant[i], lx.mant[i], ly.mant[i]);
            if (carry) {
                z->exp++;
                carry = 0;
                emf_shr1(&carry, z->mant);
                z->mant[0] |= 0x8000;
                z->type = EMF_NORMAL;
            } else if (z->mant[0] & 0x8000) {
                z->type = EMF_NORMAL;
            }
            z->sign = lx.sign;
        }
        break;
    }
    case EMF_PAIR(EMF_INFINITY, EMF_INFINITY):
        emf_set_nan(z);
        break;
    case EMF_PAIR(EMF_NAN, EMF_NAN):
        emf_choose_nan(x, y, z, 1);
        break;
    }
    emf_round(z);
}

/* MultiplyInternalFPF: 64 shift-and-add steps, the product's low bits
 * shifted into a 64-bit "extra" word. */
static void emf_mul(struct emf_num *x, struct emf_num *y, struct emf_num *z)
{
    struct emf_num ly;
    uint16_t extra[EMF_PREC], carry;
    switch (EMF_PAIR(x->type, y->type)) {
    case EMF_PAIR(EMF_INFINITY, EMF_SUBNORMAL): case EMF_PAIR(EMF_INFINITY, EMF_NORMAL):
    case EMF_PAIR(EMF_INFINITY, EMF_INFINITY): case EMF_PAIR(EMF_ZERO, EMF_ZERO):
    case EMF_PAIR(EMF_ZERO, EMF_SUBNORMAL): case EMF_PAIR(EMF_ZERO, EMF_NORMAL):
        memmove(x, z, sizeof *x);           /* reversed, as the reference */
        z->sign ^= y->sign;
        break;
    case EMF_PAIR(EMF_SUBNORMAL, EMF_INFINITY): case EMF_PAIR(EMF_NORMAL, EMF_INFINITY):
    case EMF_PAIR(EMF_SUBNORMAL, EMF_ZERO): case EMF_PAIR(EMF_NORMAL, EMF_ZERO):
        memmove(y, z, sizeof *y);           /* reversed, as the reference */
        z->sign ^= x->sign;
        break;
    case EMF_PAIR(EMF_ZERO, EMF_INFINITY): case EMF_PAIR(EMF_INFINITY, EMF_ZERO):
        emf_set_nan(z);
        break;
    case EMF_PAIR(EMF_NAN, EMF_ZERO): case EMF_PAIR(EMF_NAN, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_NAN, EMF_NORMAL): case EMF_PAIR(EMF_NAN, EMF_INFINITY):
        memmove(x, z, sizeof *x);
        break;
    case EMF_PAIR(EMF_ZERO, EMF_NAN): case EMF_PAIR(EMF_SUBNORMAL, EMF_NAN):
    case EMF_PAIR(EMF_NORMAL, EMF_NAN): case EMF_PAIR(EMF_INFINITY, EMF_NAN):
        memmove(y, z, sizeof *y);
        break;
    case EMF_PAIR(EMF_SUBNORMAL, EMF_SUBNORMAL): case EMF_PAIR(EMF_SUBNORMAL, EMF_NORMAL):
    case EMF_PAIR(EMF_NORMAL, EMF_SUBNORMAL): case EMF_PAIR(EMF_NORMAL, EMF_NORMAL):
        ly = *y;
        /* The reference sets infinity for "unnormal zero" operands and then
         * overwrites it below; kept for the same work. */
        if (emf_mant_zero(x->mant) || emf_mant_zero(y->mant))
            emf_set_infinity(z, 0);
        z->type = (x->type == EMF_SUBNORMAL || y->type == EMF_SUBNORMAL)
                  ? EMF_SUBNORMAL : EMF_NORMAL;
        z->sign = x->sign ^ y->sign;
        z->exp = (int16_t)(x->exp + y->exp);
        memset(z->mant, 0, sizeof z->mant);
        memset(extra, 0, sizeof extra);
        for (int i = 0; i < EMF_BITS; i++) {
            carry = 0;
            emf_shr1(&carry, ly.mant);
            if (carry) {
                carry = 0;
                for (int j = EMF_PREC - 1; j >= 0; j--)
                    emf_add16(&carry, &z->mant[j], z->mant[j], x->mant[j]);
            } else {
                carry = 0;
            }
            emf_shr1(&carry, z->mant);
            emf_shr1(&carry, extra);
        }
        while ((z->mant[0] & 0x8000) == 0) {
            carry = 0;
            emf_shl1(&carry, extra);
            emf_shl1(&carry, z->mant);
            z->exp--;
        }
        /* Quirk kept: the sticky bit is set when the extra bits are ALL
         * ZERO (the reference's inverted test). */
        if (emf_mant_zero(extra))
            z->mant[EMF_PREC - 1] |= 1;
        break;
    case EMF_PAIR(EMF_NAN, EMF_NAN):
        emf_choose_nan(x, y, z, 0);
        break;
    }
    emf_round(z);
}

/* DivideInternalFPF: restoring division, the dividend shifted into a 64-bit
 * remainder until the quotient's top bit is set; exp = ex - ey + 128. */
static void emf_div(struct emf_num *x, struct emf_num *y, struct emf_num *z)
{
    struct emf_num lx;
    uint16_t extra[EMF_PREC], carry;
    switch (EMF_PAIR(x->type, y->type)) {
    case EMF_PAIR(EMF_ZERO, EMF_ZERO): case EMF_PAIR(EMF_INFINITY, EMF_INFINITY):
        emf_set_nan(z);
        break;
    case EMF_PAIR(EMF_ZERO, EMF_SUBNORMAL): case EMF_PAIR(EMF_ZERO, EMF_NORMAL):
        if (emf_mant_zero(y->mant)) {
            emf_set_nan(z);
            break;
        }
        __attribute__((fallthrough));      /* as the reference */
    case EMF_PAIR(EMF_ZERO, EMF_INFINITY): case EMF_PAIR(EMF_SUBNORMAL, EMF_INFINITY):
    case EMF_PAIR(EMF_NORMAL, EMF_INFINITY):
        emf_set_zero(z, x->sign ^ y->sign);
        break;
    case EMF_PAIR(EMF_SUBNORMAL, EMF_ZERO): case EMF_PAIR(EMF_NORMAL, EMF_ZERO):
        if (emf_mant_zero(x->mant)) {
            emf_set_nan(z);
            break;
        }
        __attribute__((fallthrough));      /* as the reference */
    case EMF_PAIR(EMF_INFINITY, EMF_ZERO): case EMF_PAIR(EMF_INFINITY, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_INFINITY, EMF_NORMAL):
        emf_set_infinity(z, 0);
        z->sign = x->sign ^ y->sign;
        break;
    case EMF_PAIR(EMF_NAN, EMF_ZERO): case EMF_PAIR(EMF_NAN, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_NAN, EMF_NORMAL): case EMF_PAIR(EMF_NAN, EMF_INFINITY):
        memmove(x, z, sizeof *x);           /* reversed, as the reference */
        break;
    case EMF_PAIR(EMF_ZERO, EMF_NAN): case EMF_PAIR(EMF_SUBNORMAL, EMF_NAN):
    case EMF_PAIR(EMF_NORMAL, EMF_NAN): case EMF_PAIR(EMF_INFINITY, EMF_NAN):
        memmove(y, z, sizeof *y);           /* reversed, as the reference */
        break;
    case EMF_PAIR(EMF_SUBNORMAL, EMF_SUBNORMAL): case EMF_PAIR(EMF_NORMAL, EMF_SUBNORMAL):
    case EMF_PAIR(EMF_SUBNORMAL, EMF_NORMAL): case EMF_PAIR(EMF_NORMAL, EMF_NORMAL):
        lx = *x;
        if (emf_mant_zero(lx.mant)) {
            if (emf_mant_zero(y->mant))
                emf_set_nan(z);
            else
                emf_set_zero(z, 0);
            break;
        }
        if (emf_mant_zero(y->mant)) {
            emf_set_infinity(z, 0);
            break;
        }
        z->type = x->type;
        z->sign = x->sign ^ y->sign;
        z->exp = (int16_t)(x->exp - y->exp + EMF_BITS * 2);
        memset(z->mant, 0, sizeof z->mant);
        memset(extra, 0, sizeof extra);
        while ((z->mant[0] & 0x8000) == 0) {
            carry = 0;
            emf_shl1(&carry, lx.mant);
            emf_shl1(&carry, extra);
            /* A bit out of the remainder means it exceeds the divisor;
             * otherwise compare word by word and skip the subtraction when
             * the divisor is larger. */
            int subtract = 1;
            if (carry == 0) {
                for (int j = 0; j < EMF_PREC; j++) {
                    if (y->mant[j] > extra[j]) {
                        subtract = 0;
                        break;
                    }
                    if (y->mant[j] < extra[j])
                        break;
                }
            }
            carry = 0;
            if (subtract) {
                for (int j = EMF_PREC - 1; j >= 0; j--)
                    emf_sub16(&carry, &extra[j], extra[j], y->mant[j]);
                carry = 1;                  /* 1 shifted into the quotient */
            }
            emf_shl1(&carry, z->mant);
            z->exp--;
        }
        break;
    case EMF_PAIR(EMF_NAN, EMF_NAN):
        emf_choose_nan(x, y, z, 0);
        break;
    }
    emf_round(z);
}

/* Int32ToInternalFPF: exponent 32, the high 16 bits into mantissa[0], the
 * low 16 into mantissa[1], then normalise.  A zero gets exp 0 (not the
 * minimum exponent) and is not rounded. */
static void emf_from_int32(int32_t v, struct emf_num *d)
{
    uint32_t mag = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    d->sign = v < 0;
    d->type = EMF_NORMAL;
    memset(d->mant, 0, sizeof d->mant);
    if (mag == 0) {
        d->type = EMF_ZERO;
        d->exp = 0;
        return;
    }
    d->exp = 32;
    d->mant[0] = (uint16_t)(mag >> 16);
    d->mant[1] = (uint16_t)mag;
    emf_normalize(d);
}

/* ---- the kernel ------------------------------------------------------------- */


/* SetupCPUEmFloatArrays: a[i] = r1/r2, b[i] = r1/r3 with r1 = randwc(50000)
 * (signed, not abs) and r2, r3 = randwc(50000) + 1, in the emulator's own
 * conversion and divide. */
static void emf_load(struct emfloat *e)
{
    struct emf_num f1, f2;
    bm_rand_reset(&e->rand);
    for (uint64_t i = 0; i < e->size; i++) {
        emf_from_int32(bm_randwc(&e->rand, EMF_OPERAND), &f1);
        emf_from_int32(bm_randwc(&e->rand, EMF_OPERAND) + 1, &f2);
        emf_div(&f1, &f2, &e->a[i]);
        emf_from_int32(bm_randwc(&e->rand, EMF_OPERAND) + 1, &f2);
        emf_div(&f1, &f2, &e->b[i]);
    }
}

/* One pass over the arrays: c[i] = a[i] op b[i]. */
static void emf_pass(struct emf_num *a, struct emf_num *b, struct emf_num *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        switch (emf_jtable[i % 16]) {
        case 0: emf_addsub(0, a + i, b + i, c + i); break;
        case 1: emf_addsub(1, a + i, b + i, c + i); break;
        case 2: emf_mul(a + i, b + i, c + i); break;
        default: emf_div(a + i, b + i, c + i); break;
        }
    }
}

static void emfloat_init(struct bm_state *s)
{
    /* Quirk kept: EMFLOOPS is ineffective in the reference (it does not set
     * the adjust flag, so adjustment overwrites it): always start at 1. */
    s->workload = 1;
    s->workload_fixed = 0;
}

static void emfloat_teardown(struct bm_state *s)
{
    struct emfloat *e = s->priv;
    if (!e)
        return;
    bm_free(e->a);
    bm_free(e->b);
    bm_free(e->c);
    plat_free(e);
    s->priv = NULL;
}

static int emfloat_setup(struct bm_state *s)
{
    emfloat_teardown(s);
    struct emfloat *e = plat_alloc(sizeof *e);
    if (!e)
        return BM_ENOMEM;
    memset(e, 0, sizeof *e);
    s->priv = e;
    e->size = s->cfg && s->cfg->emf_array_size ? s->cfg->emf_array_size : EMF_ARRAY_SIZE;
    e->loops = s->workload;
    if (e->size > (uint64_t)-1 / sizeof(struct emf_num))
        return BM_ENOMEM;
    size_t bytes = e->size * sizeof(struct emf_num);
    e->a = bm_alloc(bytes, s->align);
    e->b = bm_alloc(bytes, s->align);
    e->c = bm_alloc(bytes, s->align);
    if (!e->a || !e->b || !e->c)
        return BM_ENOMEM;
    emf_load(e);          /* once per run (DoEmFloat call), untimed */
    return BM_OK;
}

static uint64_t emfloat_iterate(struct bm_state *s, double *units)
{
    struct emfloat *e = s->priv;
    struct bm_timer t;
    struct emf_num *a = e->a, *b = e->b, *c = e->c;
    uint64_t n = e->size, loops = s->workload;
    e->loops = loops;
    bm_timer_start(&t);
    for (uint64_t l = 0; l < loops; l++)
        emf_pass(a, b, c, n);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)loops;   /* score = iterations * loops / seconds */
    return ticks;
}

static int emfloat_grow(struct bm_state *s)
{
    /* for (loops = 1; loops < CPUEMFLOATLOOPMAX; loops += loops): the last
     * count tried is 262144; beyond it the reference exits with an error. */
    if (s->workload * 2 >= EMF_LOOP_MAX)
        return BM_ECAP;
    s->workload *= 2;
    return BM_OK;
}

static void emfloat_describe(const struct bm_state *s, char *buf, size_t n)
{
    uint64_t size = s->cfg && s->cfg->emf_array_size ? s->cfg->emf_array_size : EMF_ARRAY_SIZE;
    snprintf(buf, n, "%llu loops of %llu operations", (unsigned long long)s->workload,
             (unsigned long long)size);
}

static void emfloat_verify(struct bm_verify *v)
{
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.align = 8;                 /* cfg NULL: the defaults (3000 elements) */
    emfloat_init(&s);
    if (emfloat_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate the arrays", "out of memory");
        emfloat_teardown(&s);
        return;
    }
    struct emfloat *e = s.priv;
    unsigned normals = 0;
    for (unsigned i = 0; i < e->size; i++)
        normals += e->a[i].type == EMF_NORMAL && e->b[i].type == EMF_NORMAL;
    double a2 = emf_to_double(&e->a[2]), b2 = emf_to_double(&e->b[2]);
    bm_check(v, fabs(a2 - (-45196.0 / 40495.0)) < 1e-15 && fabs(b2 - (-45196.0 / 10008.0)) < 1e-15,
             "operands: element 2 is -45196/40495 and -45196/10008 (BYTEMARK.md)",
             "got %.17g and %.17g", a2, b2);
    bm_check(v, normals == 3000, "operands: all 6000 are NORMAL (no zero operand or divisor)",
             "%u elements with both NORMAL", normals);

    struct emf_num a_before = e->a[2986], b_before = e->b[2998];
    double units = 0;
    emfloat_iterate(&s, &units);
    for (unsigned k = 0; k < 8; k++) {
        char line[128];
        emf_sample_line(e, emf_samples[k].index, line, sizeof line);
        bm_check(v, strcmp(line, emf_samples[k].line) == 0, emf_samples[k].line, "got \"%s\"", line);
    }
    unsigned first_bad = 0, wrong = emf_count_wrong(e, &first_bad);
    bm_check(v, wrong == 0, "all 3000 results agree with double precision (1e-14 relative)",
             "%u differ, first at %u", wrong, first_bad);
    bm_check(v, memcmp(&a_before, &e->a[2986], sizeof a_before) == 0 &&
                 memcmp(&b_before, &e->b[2998], sizeof b_before) == 0 && units == 1.0,
             "a loop is non-destructive for the default data", "units %g", units);

    /* The special-case paths: the reversed-memmove quirk overwrites the
     * input, leaving z untouched (reference behaviour, never hit above). */
    struct emf_num zero, x = e->a[2], z = e->c[0], x_before = e->a[2];
    emf_set_zero(&zero, 0);
    emf_addsub(0, &x, &zero, &z);
    bm_check(v, memcmp(&x, &e->c[0], sizeof x) == 0 && memcmp(&x, &x_before, sizeof x) != 0,
             "quirk: NORMAL + ZERO copies the output slot over the input", "%s", "not so");
    emfloat_teardown(&s);
}

const struct bm_kernel bm_emfloat = {
    .id = BM_EMFLOAT,
    .name = "FP EMULATION",
    .key = "emfloat",
    .unit = "loops/s",
    .base_p90 = 2.084,      /* BYTEMARK.md section 3 baselines */
    .base_k6 = 9.0314,
    .init = emfloat_init,
    .setup = emfloat_setup,
    .iterate = emfloat_iterate,
    .grow = emfloat_grow,
    .teardown = emfloat_teardown,
    .verify = emfloat_verify,
    .describe = emfloat_describe,
};
