/*
 * bench/bytemark/lu.c - BYTEmark's LU decomposition (BYTEMARK.md 4.10):
 * solve 101x101 linear systems A x = b by Crout's method with implicit
 * (row-scaled) partial pivoting and back substitution, after Numerical
 * Recipes.  The system is built from the generator so that its solution is
 * known: x[i] = b0[i] / diag[i].  Unit: systems solved per second.
 * Adjustment grows the number of systems per timed iteration (1, +1, an
 * error beyond MAXLUARRAYS).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_c.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define LU_ROWS       101           /* LUARRAYROWS */
#define LU_COLS       101           /* LUARRAYCOLS */
#define LU_SCRAMBLES  (8 * LU_ROWS) /* row additions/subtractions */
#define LU_TINY       1.0e-20       /* replaces a zero pivot */
#define LU_MAX_ARRAYS 10000         /* MAXLUARRAYS (bdoc says 1000) */

typedef double lu_row[LU_COLS];

struct lu {
    lu_row *a;              /* the seed system A (build_problem) */
    double *b;              /* its right-hand side */
    double *vv;             /* LUtempvv: the row scale factors */
    lu_row *abase;          /* numarrays work copies of A, back to back */
    double *bbase;          /* and of b */
    uint64_t numarrays;     /* systems solved per iteration */
    uint64_t allocated;     /* systems allocated (numarrays, +1 while adjusting) */
    struct bm_rand rand;
};

/* ---- the problem ---------------------------------------------------------------- */

/* build_problem.  Reseeds, then per row draws b[i] and the diagonal a[i][i]
 * (interleaved; the rest of A is zero), then scrambles 8n times: pick rows
 * k and k1; if they differ, row k += row k1 (k < k1) or row k -= row k1
 * (k > k1), b likewise.  Quirk kept: the document says A starts as the
 * identity and rows are also multiplied by constants; the reference starts
 * from a random diagonal and its multiply step is commented out.  Every
 * value stays an integer, so the system is exact in doubles. */
static void lu_build(struct lu *lu, uint64_t *adds, uint64_t *subs)
{
    lu_row *a = lu->a;
    double *b = lu->b;
    bm_rand_reset(&lu->rand);
    for (int i = 0; i < LU_ROWS; i++) {
        b[i] = (double)(bm_abs_randwc(&lu->rand, 100) + 1);
        for (int j = 0; j < LU_COLS; j++)
            a[i][j] = i == j ? (double)(bm_abs_randwc(&lu->rand, 1000) + 1) : 0.0;
    }
    for (int i = 0; i < LU_SCRAMBLES; i++) {
        int32_t k = bm_abs_randwc(&lu->rand, LU_ROWS);
        int32_t k1 = bm_abs_randwc(&lu->rand, LU_ROWS);
        if (k == k1)
            continue;
        double rcon = k < k1 ? 1.0 : -1.0;
        *(k < k1 ? adds : subs) += 1;
        for (int j = 0; j < LU_COLS; j++)
            a[k][j] += a[k1][j] * rcon;
        b[k] += b[k1] * rcon;
    }
}

/* ---- the solver (timed) -------------------------------------------------------------- */

/* ludcmp: in-place Crout decomposition with implicit pivoting.  The pivot
 * is the row with the largest scaled |sum|, ">=" so the last of equal
 * candidates wins; rows and their scale factors are swapped; a zero pivot
 * becomes 1e-20; the sub-column is multiplied by 1/pivot (not divided).
 * Returns 0 for a singular matrix (a zero row), else 1; `swaps` counts row
 * interchanges when not NULL (NULL in the timed solve). */
static inline int lu_decompose(lu_row *a, double *vv, int *indx, int *d, uint64_t *swaps)
{
    int imax = 0;
    *d = 1;
    for (int i = 0; i < LU_ROWS; i++) {
        double big = 0.0;
        for (int j = 0; j < LU_COLS; j++)
            if (fabs(a[i][j]) > big)
                big = fabs(a[i][j]);
        if (big == 0.0)
            return 0;
        vv[i] = 1.0 / big;
    }
    for (int j = 0; j < LU_COLS; j++) {
        for (int i = 0; i < j; i++) {
            double sum = a[i][j];
            for (int k = 0; k < i; k++)
                sum -= a[i][k] * a[k][j];
            a[i][j] = sum;
        }
        double big = 0.0;
        for (int i = j; i < LU_ROWS; i++) {
            double sum = a[i][j];
            for (int k = 0; k < j; k++)
                sum -= a[i][k] * a[k][j];
            a[i][j] = sum;
            double dum = vv[i] * fabs(sum);
            if (dum >= big) {
                big = dum;
                imax = i;
            }
        }
        if (j != imax) {
            for (int k = 0; k < LU_COLS; k++) {
                double t = a[imax][k];
                a[imax][k] = a[j][k];
                a[j][k] = t;
            }
            *d = -*d;
            double t = vv[imax];
            vv[imax] = vv[j];
            vv[j] = t;
            if (swaps)
                (*swaps)++;
        }
        indx[j] = imax;
        if (a[j][j] == 0.0)
            a[j][j] = LU_TINY;
        if (j != LU_ROWS - 1) {
            double dum = 1.0 / a[j][j];
            for (int i = j + 1; i < LU_ROWS; i++)
                a[i][j] = a[i][j] * dum;
        }
    }
    return 1;
}

/* lubksb: forward substitution with the row permutation, skipping the
 * leading zeros of b (ii), then back substitution; b becomes x. */
static inline void lu_backsub(lu_row *a, const int *indx, double *b)
{
    int ii = -1;
    for (int i = 0; i < LU_ROWS; i++) {
        int ip = indx[i];
        double sum = b[ip];
        b[ip] = b[i];
        if (ii != -1) {
            for (int j = ii; j < i; j++)
                sum = sum - a[i][j] * b[j];
        } else if (sum != 0.0) {
            ii = i;
        }
        b[i] = sum;
    }
    for (int i = LU_ROWS - 1; i >= 0; i--) {
        double sum = b[i];
        for (int j = i + 1; j < LU_COLS; j++)
            sum -= a[i][j] * b[j];
        b[i] = sum / a[i][i];
    }
}

/* lusolve: a singular matrix is left unsolved (never with this data). */
static inline int lu_solve(lu_row *a, double *vv, double *b, uint64_t *swaps)
{
    int indx[LU_ROWS], d;
    if (!lu_decompose(a, vv, indx, &d, swaps))
        return 0;
    lu_backsub(a, indx, b);
    return 1;
}

/* ---- the kernel ------------------------------------------------------------------------- */

static void lu_init(struct bm_state *s)
{
    /* LUNUMARRAYS fixes the count and disables adjustment. */
    s->workload = s->cfg && s->cfg->lu_arrays ? s->cfg->lu_arrays : 1;
    s->workload_fixed = s->cfg && s->cfg->lu_arrays != 0;
}

static void lu_teardown(struct bm_state *s)
{
    struct lu *lu = s->priv;
    if (!lu)
        return;
    bm_free(lu->a);
    bm_free(lu->b);
    bm_free(lu->vv);
    bm_free(lu->abase);
    bm_free(lu->bbase);
    plat_free(lu);
    s->priv = NULL;
}

/* DoLU's untimed start, once per run: allocate, build the problem.  Quirk
 * kept: while adjusting, the reference allocates i+1 systems to probe i
 * (and the run that follows the adjustment uses that allocation); later
 * runs allocate exactly numarrays. */
static int lu_setup(struct bm_state *s)
{
    lu_teardown(s);
    struct lu *lu = plat_alloc(sizeof *lu);
    if (!lu)
        return BM_ENOMEM;
    memset(lu, 0, sizeof *lu);
    s->priv = lu;
    lu->numarrays = s->workload ? s->workload : 1;
    uint64_t alloc = lu->numarrays + (!s->adjusted && !s->workload_fixed ? 1 : 0);
    lu->allocated = alloc;
    if (alloc > (uint64_t)-1 / sizeof(lu_row) / LU_ROWS)
        return BM_ENOMEM;
    lu->a = bm_alloc(sizeof(lu_row) * LU_ROWS, s->align);
    lu->b = bm_alloc(sizeof(double) * LU_ROWS, s->align);
    lu->vv = bm_alloc(sizeof(double) * LU_ROWS, s->align);
    if (!lu->a || !lu->b || !lu->vv)
        return BM_ENOMEM;
    uint64_t adds = 0, subs = 0;
    lu_build(lu, &adds, &subs);
    lu->abase = bm_alloc(sizeof(lu_row) * LU_ROWS * alloc, s->align);
    lu->bbase = bm_alloc(sizeof(double) * LU_ROWS * alloc, s->align);
    return lu->abase && lu->bbase ? BM_OK : BM_ENOMEM;
}

static uint64_t lu_iterate(struct bm_state *s, double *units)
{
    struct lu *lu = s->priv;
    struct bm_timer t;
    uint64_t n = lu->numarrays;
    /* DoLUIteration: copy the seed system into every work copy (untimed),
     * then solve them all. */
    for (uint64_t k = 0; k < n; k++) {
        memcpy(lu->abase + k * LU_ROWS, lu->a, sizeof(lu_row) * LU_ROWS);
        memcpy(lu->bbase + k * LU_ROWS, lu->b, sizeof(double) * LU_ROWS);
    }
    lu_row *abase = lu->abase;
    double *bbase = lu->bbase, *vv = lu->vv;
    bm_timer_start(&t);
    for (uint64_t k = 0; k < n; k++)
        lu_solve(abase + k * LU_ROWS, vv, bbase + k * LU_ROWS, NULL);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)n;
    return ticks;
}

static int lu_grow(struct bm_state *s)
{
    /* for (i = 1; i <= MAXLUARRAYS; i++): 10000 systems is the last count
     * tried; beyond it the reference exits ("Array limit reached"). */
    if (s->workload >= LU_MAX_ARRAYS)
        return BM_ECAP;
    s->workload++;
    return BM_OK;
}

static void lu_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu system%s of %dx%d", (unsigned long long)s->workload,
             s->workload == 1 ? "" : "s", LU_ROWS, LU_COLS);
}

/* ---- checks ------------------------------------------------------------------------------ */

/* The BYTEmark document's data (Mayer's list in bdoc.txt): right-hand side,
 * diagonal and their quotient as the DEBUG build prints it (%.2f).  BYTE's
 * own list there ("46 20 23 22 85 86 ...") is wrong for this code. */
static const struct { int b, diag; double x; } lu_doc[LU_ROWS] = {
    {46, 520, 0.09}, {23, 922, 0.02}, {85, 186, 0.46}, {97, 495, 0.20}, {8, 89, 0.09},
    {75, 267, 0.28}, {6, 786, 0.01}, {81, 571, 0.14}, {88, 175, 0.50}, {76, 600, 0.13},
    {6, 738, 0.01}, {84, 321, 0.26}, {31, 897, 0.03}, {53, 541, 0.10}, {2, 859, 0.00},
    {86, 92, 0.93}, {51, 121, 0.42}, {29, 248, 0.12}, {51, 789, 0.06}, {84, 6, 14.00},
    {21, 180, 0.12}, {33, 48, 0.69}, {2, 899, 0.00}, {12, 820, 0.01}, {69, 372, 0.19},
    {59, 809, 0.07}, {74, 18, 4.11}, {40, 788, 0.05}, {39, 56, 0.70}, {86, 91, 0.95},
    {33, 878, 0.04}, {82, 165, 0.50}, {42, 561, 0.07}, {8, 274, 0.03}, {84, 694, 0.12},
    {32, 352, 0.09}, {25, 969, 0.03}, {59, 816, 0.07}, {33, 112, 0.29}, {5, 125, 0.04},
    {89, 740, 0.12}, {7, 223, 0.03}, {54, 994, 0.05}, {33, 80, 0.41}, {55, 676, 0.08},
    {6, 524, 0.01}, {36, 544, 0.07}, {21, 160, 0.13}, {58, 596, 0.10}, {15, 717, 0.02},
    {84, 311, 0.27}, {98, 530, 0.18}, {46, 713, 0.06}, {41, 233, 0.18}, {73, 640, 0.11},
    {40, 343, 0.12}, {72, 586, 0.12}, {100, 965, 0.10}, {59, 764, 0.08}, {37, 866, 0.04},
    {27, 682, 0.04}, {3, 652, 0.00}, {41, 352, 0.12}, {87, 786, 0.11}, {45, 79, 0.57},
    {83, 761, 0.11}, {41, 817, 0.05}, {46, 209, 0.22}, {78, 930, 0.08}, {85, 210, 0.40},
    {80, 756, 0.11}, {18, 931, 0.02}, {30, 669, 0.04}, {47, 127, 0.37}, {85, 891, 0.10},
    {66, 364, 0.18}, {83, 955, 0.09}, {58, 637, 0.09}, {58, 778, 0.07}, {82, 288, 0.28},
    {42, 540, 0.08}, {76, 290, 0.26}, {59, 36, 1.64}, {29, 463, 0.06}, {63, 476, 0.13},
    {6, 340, 0.02}, {73, 341, 0.21}, {59, 737, 0.08}, {81, 492, 0.16}, {98, 443, 0.22},
    {58, 32, 1.81}, {53, 562, 0.09}, {54, 263, 0.21}, {46, 367, 0.13}, {58, 390, 0.15},
    {96, 845, 0.11}, {30, 746, 0.04}, {2, 687, 0.00}, {28, 849, 0.03}, {84, 180, 0.47},
    {85, 382, 0.22}
};

/* Does v print as the document's value with 2 decimals? */
static int lu_matches_doc(double v, double doc)
{
    char got[32], want[32];
    snprintf(got, sizeof got, "%.2f", v);
    snprintf(want, sizeof want, "%.2f", doc);
    return strcmp(got, want) == 0;
}

/* The problem before scrambling: the document's b and diagonal. */
static void lu_verify_problem(struct bm_verify *v, struct lu *lu)
{
    struct bm_rand r;
    bm_rand_reset(&r);
    int bad = -1;
    for (int i = 0; i < LU_ROWS && bad < 0; i++) {
        int b = bm_abs_randwc(&r, 100) + 1, d = bm_abs_randwc(&r, 1000) + 1;
        if (b != lu_doc[i].b || d != lu_doc[i].diag || !lu_matches_doc((double)b / d, lu_doc[i].x))
            bad = i;
    }
    bm_check(v, bad < 0, "problem: the 101 right-hand sides and diagonals of the document",
             "row %d differs", bad);

    /* The scrambled system: digests from tests/vectors/bytemark/model_c.py
     * (an independent Python model of the generator and build_problem). */
    uint64_t adds = 0, subs = 0;
    lu_build(lu, &adds, &subs);
    char ma[33], mb[33];
    bm_md5_hex(lu->a, sizeof(lu_row) * LU_ROWS, ma);
    bm_md5_hex(lu->b, sizeof(double) * LU_ROWS, mb);
    bm_check(v, !strcmp(ma, "26a6f0ad02d560b301fef4a9aaeaf447") &&
                 !strcmp(mb, "fb4d6bedf9c3cde4c3b74146424771f1"),
             "problem: scrambled matrix and right-hand side digests (model_c.py)",
             "matrix %s, rhs %s", ma, mb);
    bm_check(v, adds == 393 && subs == 405,
             "problem: 808 scrambles: 393 row additions, 405 subtractions, 10 skipped (k == k1)",
             "%llu additions, %llu subtractions", (unsigned long long)adds,
             (unsigned long long)subs);
}

static void lu_verify(struct bm_verify *v)
{
    struct bm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.lu_arrays = 2;
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    lu_init(&s);
    if (lu_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate two systems", "out of memory");
        lu_teardown(&s);
        return;
    }
    struct lu *lu = s.priv;
    bm_check(v, ((uintptr_t)lu->abase & 15) == 8 && ((uintptr_t)lu->a & 15) == 8,
             "arrays start at 8 mod 16 (ALIGN=8)", "abase %p, a %p", (void *)lu->abase,
             (void *)lu->a);
    lu_verify_problem(v, lu);

    /* An instrumented solve of a copy: the reference's row interchanges. */
    lu_row *a = bm_alloc(sizeof(lu_row) * LU_ROWS, 8);
    double x[LU_ROWS];
    uint64_t swaps = 0;
    int solved = 0;
    if (a) {
        memcpy(a, lu->a, sizeof(lu_row) * LU_ROWS);
        memcpy(x, lu->b, sizeof x);
        solved = lu_solve(a, lu->vv, x, &swaps);
    }
    bm_check(v, solved && swaps == 96, "solve: 96 row interchanges (BYTEMARK.md section 7)",
             "solved %d, %llu interchanges", solved, (unsigned long long)swaps);

    /* The real kernel path: two systems, one timed iteration. */
    double units = 0;
    lu_iterate(&s, &units);
    int bad = -1;
    double err = 0;
    for (int i = 0; i < LU_ROWS; i++) {
        double exact = (double)lu_doc[i].b / lu_doc[i].diag;
        double e = fabs(lu->bbase[i] - exact);
        err = e > err ? e : err;
        if (bad < 0 && !lu_matches_doc(lu->bbase[i], lu_doc[i].x))
            bad = i;
    }
    bm_check(v, bad < 0, "solution: x[i] prints as the document's b/diag (%.2f)",
             "x[%d] = %.6f, document %.2f", bad, bad >= 0 ? lu->bbase[bad] : 0.0,
             bad >= 0 ? lu_doc[bad].x : 0.0);
    bm_check(v, err < 1e-9, "solution: within 1e-9 of b0/diag", "max error %.3g", err);
    static const char *const x5[5] = { "0.0884615385", "0.0249457701", "0.4569892473",
                                       "0.1959595960", "0.0898876404" };
    int bad5 = -1;
    for (int i = 0; i < 5 && bad5 < 0; i++) {
        char got[32];
        snprintf(got, sizeof got, "%.10f", lu->bbase[i]);
        if (strcmp(got, x5[i]))
            bad5 = i;
    }
    bm_check(v, bad5 < 0, "solution: x[0..4] = 46/520 23/922 85/186 97/495 8/89 (BYTEMARK.md)",
             "x[%d] = %.10f", bad5, bad5 >= 0 ? lu->bbase[bad5] : 0.0);
    char mx[33];
    bm_md5_hex(lu->bbase, sizeof x, mx);
    bm_check(v, !strcmp(mx, "0463bc6eaa658ccfd20a037b848c2721"),
             "solution: digest of x as the Python model's Crout solve (model_c.py)", "%s", mx);
    bm_check(v, units == 2.0 && memcmp(lu->bbase, lu->bbase + LU_ROWS, sizeof x) == 0 &&
                 a && memcmp(x, lu->bbase, sizeof x) == 0,
             "timed solve: both systems give the instrumented solve's x, bit for bit",
             "units %g", units);
    bm_free(a);
    lu_teardown(&s);
}

/* ---- for the unit test (bytemark_c.h) -------------------------------------------------- */

int bm_lu_probe(struct bm_lu_probe *out)
{
    memset(out, 0, sizeof *out);
    struct bm_rand r;
    bm_rand_reset(&r);
    for (int i = 0; i < LU_ROWS; i++) {
        out->b0[i] = bm_abs_randwc(&r, 100) + 1;
        out->diag[i] = bm_abs_randwc(&r, 1000) + 1;
    }
    struct lu lu;
    memset(&lu, 0, sizeof lu);
    lu.a = bm_alloc(sizeof(lu_row) * LU_ROWS, 8);
    lu.b = bm_alloc(sizeof(double) * LU_ROWS, 8);
    lu.vv = bm_alloc(sizeof(double) * LU_ROWS, 8);
    int rc = -1;
    if (lu.a && lu.b && lu.vv) {
        lu_build(&lu, &out->adds, &out->subs);
        bm_md5_hex(lu.a, sizeof(lu_row) * LU_ROWS, out->matrix_md5);
        bm_md5_hex(lu.b, sizeof(double) * LU_ROWS, out->rhs_md5);
        memcpy(out->x, lu.b, sizeof out->x);
        if (lu_solve(lu.a, lu.vv, out->x, &out->swaps)) {
            bm_md5_hex(out->x, sizeof out->x, out->x_md5);
            rc = 0;
        }
    }
    bm_free(lu.a);
    bm_free(lu.b);
    bm_free(lu.vv);
    return rc;
}

uint64_t bm_lu_allocated(const struct bm_state *s)
{
    const struct lu *lu = s->priv;
    return lu ? lu->allocated : 0;
}

const struct bm_kernel bm_lu = {
    .id = BM_LU,
    .name = "LU DECOMPOSITION",
    .key = "lu",
    .unit = "systems/s",
    .base_p90 = 19.3031,    /* BYTEMARK.md section 3 baselines */
    .base_k6 = 26.732,
    .init = lu_init,
    .setup = lu_setup,
    .iterate = lu_iterate,
    .grow = lu_grow,
    .teardown = lu_teardown,
    .verify = lu_verify,
    .describe = lu_describe,
};
