/*
 * bench/bytemark/fourier.c - BYTEmark's Fourier coefficients (BYTEMARK.md
 * 4.5): the first N coefficients of f(x) = (x+1)^x on [0,2] (period 2) by
 * trapezoid integration, exercising pow, sin and cos.  Unit: coefficients
 * per second (2N-1 per iteration).  Adjustment grows N (100, +50, no cap).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define FOURIER_START   100         /* coefficients */
#define FOURIER_STEP    50
#define FOURIER_STEPS   200         /* trapezoid steps on [0, 2] */
#define FOURIER_OMEGA   3.1415926535897932  /* 2*pi / period 2, the reference's literal */

enum { FOURIER_A0, FOURIER_COS, FOURIER_SIN };

struct fourier {
    double *a, *b;
    uint64_t n;
};

/* thefunction: (x+1)^x, times cos or sin of omega_n x. */
static inline double fourier_f(double x, double omegan, int select)
{
    switch (select) {
    case FOURIER_A0: return pow(x + 1.0, x);
    case FOURIER_COS: return pow(x + 1.0, x) * cos(omegan * x);
    default: return pow(x + 1.0, x) * sin(omegan * x);
    }
}

/* TrapezoidIntegrate.  Quirk kept: after the end point's half weight the
 * loop `--nsteps; while (--nsteps)` visits only x = dx .. 198dx, so the
 * interior point 199dx is missing (200 evaluations per integral), and x
 * advances by repeated addition of dx, not by i*dx. */
static inline double fourier_integrate(double x0, double x1, int nsteps, double omegan, int select)
{
    double x = x0, dx = (x1 - x0) / (double)nsteps;
    double r = fourier_f(x0, omegan, select) / 2.0;
    if (nsteps != 1) {
        --nsteps;
        while (--nsteps) {
            x += dx;
            r += fourier_f(x, omegan, select);
        }
    }
    return (r + fourier_f(x1, omegan, select) / 2.0) * dx;
}

/* DoFPUTransIteration without its stopwatch: A[0] = integral / 2, then A[i]
 * and B[i] for i = 1..n-1 (B[0] is never computed). */
static void fourier_coefficients(double *a, double *b, uint64_t n)
{
    a[0] = fourier_integrate(0.0, 2.0, FOURIER_STEPS, 0.0, FOURIER_A0) / 2.0;
    for (uint64_t i = 1; i < n; i++) {
        a[i] = fourier_integrate(0.0, 2.0, FOURIER_STEPS, FOURIER_OMEGA * (double)i, FOURIER_COS);
        b[i] = fourier_integrate(0.0, 2.0, FOURIER_STEPS, FOURIER_OMEGA * (double)i, FOURIER_SIN);
    }
}

static void fourier_init(struct bm_state *s)
{
    /* FOURSIZE (bdoc: FOURASIZE) fixes N and disables adjustment. */
    s->workload = s->cfg && s->cfg->four_size ? s->cfg->four_size : FOURIER_START;
    s->workload_fixed = s->cfg && s->cfg->four_size != 0;
}

static void fourier_teardown(struct bm_state *s)
{
    struct fourier *f = s->priv;
    if (!f)
        return;
    bm_free(f->a);
    bm_free(f->b);
    plat_free(f);
    s->priv = NULL;
}

static int fourier_setup(struct bm_state *s)
{
    fourier_teardown(s);
    struct fourier *f = plat_alloc(sizeof *f);
    if (!f)
        return BM_ENOMEM;
    memset(f, 0, sizeof *f);
    s->priv = f;
    f->n = s->workload ? s->workload : 1;
    if (f->n > (uint64_t)-1 / sizeof(double))
        return BM_ENOMEM;
    f->a = bm_alloc(f->n * sizeof(double), s->align);
    f->b = bm_alloc(f->n * sizeof(double), s->align);
    return f->a && f->b ? BM_OK : BM_ENOMEM;
}

static uint64_t fourier_iterate(struct bm_state *s, double *units)
{
    struct fourier *f = s->priv;
    struct bm_timer t;
    double *a = f->a, *b = f->b;
    uint64_t n = f->n;
    bm_timer_start(&t);
    fourier_coefficients(a, b, n);
    uint64_t ticks = bm_timer_stop(&t);
    *units = 2.0 * (double)n - 1.0;
    return ticks;
}

static int fourier_grow(struct bm_state *s)
{
    s->workload += FOURIER_STEP;             /* no cap in the reference */
    return BM_OK;
}

static void fourier_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu coefficients", (unsigned long long)s->workload);
}

/* ---- checks ----------------------------------------------------------------- */

/* bdoc.txt's A[0..99] and B[1..99] as printed by the reference's DEBUG
 * build (%.3g). */
static const double fourier_doc_a[100] = {
    2.84, 1.05, 0.274, 0.0824, 0.0102, -0.024, -0.0426, -0.0536, -0.0605, -0.065,
    -0.0679, -0.0698, -0.0709, -0.0715, -0.0717, -0.0715, -0.0711, -0.0704, -0.0696, -0.0685,
    -0.0674, -0.0661, -0.0647, -0.0632, -0.0615, -0.0598, -0.058, -0.0561, -0.0542, -0.0521,
    -0.0501, -0.0479, -0.0457, -0.0434, -0.0411, -0.0387, -0.0363, -0.0338, -0.0313, -0.0288,
    -0.0262, -0.0236, -0.0209, -0.0183, -0.0156, -0.0129, -0.0102, -0.00744, -0.0047, -0.00196,
    0.000794, 0.00355, 0.0063, 0.00905, 0.0118, 0.0145, 0.0172, 0.0199, 0.0226, 0.0253,
    0.0279, 0.0305, 0.0331, 0.0357, 0.0382, 0.0407, 0.0431, 0.0455, 0.0479, 0.0502,
    0.0525, 0.0547, 0.0569, 0.059, 0.061, 0.063, 0.0649, 0.0668, 0.0686, 0.0703,
    0.072, 0.0736, 0.0751, 0.0765, 0.0779, 0.0792, 0.0804, 0.0816, 0.0826, 0.0836,
    0.0845, 0.0853, 0.0861, 0.0867, 0.0873, 0.0877, 0.0881, 0.0884, 0.0887, 0.0888
};
static const double fourier_doc_b[100] = {
    0.0 /* B[0] undefined */, -1.88, -1.16, -0.806, -0.61, -0.487, -0.402, -0.34, -0.293, -0.255,
    -0.224, -0.199, -0.177, -0.158, -0.141, -0.126, -0.113, -0.101, -0.0901, -0.0802,
    -0.071, -0.0625, -0.0546, -0.0473, -0.0404, -0.034, -0.0279, -0.0222, -0.0168, -0.0117,
    -0.00693, -0.00238, 0.00193, 0.00601, 0.00988, 0.0135, 0.017, 0.0203, 0.0234, 0.0263,
    0.0291, 0.0317, 0.0341, 0.0364, 0.0385, 0.0405, 0.0424, 0.0441, 0.0457, 0.0471,
    0.0484, 0.0496, 0.0507, 0.0516, 0.0525, 0.0532, 0.0538, 0.0543, 0.0546, 0.0549,
    0.055, 0.0551, 0.055, 0.0549, 0.0546, 0.0543, 0.0538, 0.0533, 0.0527, 0.052,
    0.0512, 0.0503, 0.0493, 0.0483, 0.0472, 0.046, 0.0447, 0.0434, 0.042, 0.0405,
    0.039, 0.0374, 0.0358, 0.0341, 0.0323, 0.0305, 0.0287, 0.0268, 0.0249, 0.023,
    0.021, 0.019, 0.0169, 0.0149, 0.0128, 0.0107, 0.00857, 0.00644, 0.0043, 0.00215
};

/* Does v print as the document's value with 3 significant digits? */
static int fourier_matches_doc(double v, double doc)
{
    char got[32], want[32];
    snprintf(got, sizeof got, "%.3g", v);
    snprintf(want, sizeof want, "%.3g", doc);
    return strcmp(got, want) == 0;
}

static void fourier_verify(struct bm_verify *v)
{
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.align = 8;                             /* cfg NULL: N = 100 */
    fourier_init(&s);
    if (fourier_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate the coefficient arrays", "out of memory");
        fourier_teardown(&s);
        return;
    }
    struct fourier *f = s.priv;
    double units = 0;
    fourier_iterate(&s, &units);
    int bad_a = -1, bad_b = -1, nbad = 0;
    for (int i = 0; i < 100; i++) {
        if (!fourier_matches_doc(f->a[i], fourier_doc_a[i])) {
            nbad++;
            if (bad_a < 0)
                bad_a = i;
        }
        if (i > 0 && !fourier_matches_doc(f->b[i], fourier_doc_b[i])) {
            nbad++;
            if (bad_b < 0)
                bad_b = i;
        }
    }
    bm_check(v, bad_a < 0, "A[0..99] print as bdoc.txt's values (%.3g)",
             "A[%d] = %.6g, document %.3g", bad_a, bad_a >= 0 ? f->a[bad_a] : 0.0,
             bad_a >= 0 ? fourier_doc_a[bad_a] : 0.0);
    bm_check(v, bad_b < 0, "B[1..99] print as bdoc.txt's values (%.3g)",
             "B[%d] = %.6g, document %.3g", bad_b, bad_b >= 0 ? f->b[bad_b] : 0.0,
             bad_b >= 0 ? fourier_doc_b[bad_b] : 0.0);
    bm_check(v, nbad == 0 && units == 199.0, "199 coefficients per iteration, all as the document",
             "%d differ, units %g", nbad, units);

    /* The off-by-one: integrating g = 1 would give 2 with all 201 points;
     * the reference's rule gives 2 - dx = 1.99 (it skips x = 199 dx).  Here
     * with pow: the A0 integral must equal the sum that skips 1.99. */
    double dx = 2.0 / FOURIER_STEPS, x = 0.0, sum = pow(1.0, 0.0) / 2.0;
    for (int i = 1; i <= 198; i++) {
        x += dx;
        sum += pow(x + 1.0, x);
    }
    sum = (sum + pow(3.0, 2.0) / 2.0) * dx;
    bm_check(v, f->a[0] * 2.0 == sum, "quirk: the trapezoid rule skips the point 199 dx",
             "A0*2 = %.17g, model %.17g", f->a[0] * 2.0, sum);
    fourier_teardown(&s);
}

const struct bm_kernel bm_fourier = {
    .id = BM_FOURIER,
    .name = "FOURIER",
    .key = "fourier",
    .unit = "coefficients/s",
    .base_p90 = 879.278,    /* BYTEMARK.md section 3 baselines */
    .base_k6 = 1565.5,
    .init = fourier_init,
    .setup = fourier_setup,
    .iterate = fourier_iterate,
    .grow = fourier_grow,
    .teardown = fourier_teardown,
    .verify = fourier_verify,
    .describe = fourier_describe,
};
