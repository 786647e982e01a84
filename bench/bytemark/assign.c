/*
 * bench/bytemark/assign.c - BYTEmark's assignment algorithm (BYTEMARK.md
 * 4.6): solve a 101x101 task-assignment problem (one task per row, minimum
 * total cost) by the Hungarian-style method of Gordon, Pressman and Cohn,
 * in place on a matrix of 64-bit costs (C `long` on LP64).  Unit: problems
 * solved per second.  Adjustment grows the number of matrices per timed
 * iteration (1, +1, no cap).
 */
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_b.h"
#include "bytemark_internal.h"
#include "platform.h"

/* BYTEMARK.md section 11. */
#define ASSIGN_ROWS      101        /* ASSIGNROWS */
#define ASSIGN_COLS      101        /* ASSIGNCOLS */
#define ASSIGN_COST_DRAW 5000000    /* costs = abs_randwc(5000000); the
                                       generator's |draw| <= 999562, so the
                                       costs are really 0..999562 */
/* MAXPOSLONG of the reference (0x7FFFFFFF even where long has 64 bits): the
 * start value of every minimum search.  Costs never come near it. */
#define ASSIGN_MAXPOSLONG 0x7FFFFFFFll

/* Status of a zero in the tableau (the reference's assignedtableau). */
#define ASSIGN_FREE       0
#define ASSIGN_ASSIGNED   1
#define ASSIGN_ELIMINATED 2

typedef int64_t assign_row[ASSIGN_COLS];
typedef int16_t assign_srow[ASSIGN_COLS];   /* the reference's short table */

struct assign {
    assign_row *arrays;     /* numarrays matrices, back to back */
    uint64_t numarrays;
    struct bm_rand rand;
};

/* Calls of the two phases in the instrumented (verification) solve. */
struct assign_counts { uint64_t firsts, seconds; };

/* ---- the method (timed) ------------------------------------------------------- */

/* calc_minimum_costs: subtract each row's minimum from the row, then each
 * column's minimum from the column (skipped when it is already 0). */
static inline void assign_reduce(assign_row *t)
{
    for (int i = 0; i < ASSIGN_ROWS; i++) {
        int64_t m = ASSIGN_MAXPOSLONG;
        for (int j = 0; j < ASSIGN_COLS; j++)
            if (t[i][j] < m)
                m = t[i][j];
        for (int j = 0; j < ASSIGN_COLS; j++)
            t[i][j] -= m;
    }
    for (int j = 0; j < ASSIGN_COLS; j++) {
        int64_t m = ASSIGN_MAXPOSLONG;
        for (int i = 0; i < ASSIGN_ROWS; i++)
            if (t[i][j] < m)
                m = t[i][j];
        if (m != 0)
            for (int i = 0; i < ASSIGN_ROWS; i++)
                t[i][j] -= m;
    }
}

/* first_assignments: clear the status table; sweep rows then columns,
 * assigning every line with exactly one free zero, until a sweep assigns
 * nothing; if that is not a full assignment, give each row its first free
 * zero.  Returns the number of assignments counted.
 * Quirks kept: eliminating "the other zeros" of a column or row marks them
 * 2 whatever their status, so an earlier assignment there could be
 * overwritten and still counted (it never happens with the default data:
 * model_b.py counts them); the counters are 16-bit as the
 * reference's ushorts (never near overflow with 101 rows). */
static inline int assign_first(const assign_row *t, assign_srow *st)
{
    uint16_t total = 0, made;
    int sel = 0;
    memset(st, 0, sizeof(assign_srow) * ASSIGN_ROWS);
    do {
        made = 0;
        for (int i = 0; i < ASSIGN_ROWS; i++) {
            uint16_t zeros = 0;
            for (int j = 0; j < ASSIGN_COLS; j++)
                if (t[i][j] == 0 && st[i][j] == ASSIGN_FREE) {
                    zeros++;
                    sel = j;
                }
            if (zeros == 1) {
                made++;
                total++;
                st[i][sel] = ASSIGN_ASSIGNED;
                for (int k = 0; k < ASSIGN_ROWS; k++)
                    if (k != i && t[k][sel] == 0)
                        st[k][sel] = ASSIGN_ELIMINATED;
            }
        }
        for (int j = 0; j < ASSIGN_COLS; j++) {
            uint16_t zeros = 0;
            for (int i = 0; i < ASSIGN_ROWS; i++)
                if (t[i][j] == 0 && st[i][j] == ASSIGN_FREE) {
                    zeros++;
                    sel = i;
                }
            if (zeros == 1) {
                made++;
                total++;
                st[sel][j] = ASSIGN_ASSIGNED;
                for (int k = 0; k < ASSIGN_COLS; k++)
                    if (k != j && t[sel][k] == 0)
                        st[sel][k] = ASSIGN_ELIMINATED;
            }
        }
    } while (made != 0);
    if (total == ASSIGN_ROWS)
        return total;
    for (int i = 0; i < ASSIGN_ROWS; i++) {
        sel = -1;
        for (int j = 0; j < ASSIGN_COLS; j++)
            if (t[i][j] == 0 && st[i][j] == ASSIGN_FREE) {
                sel = j;
                break;
            }
        if (sel == -1)
            continue;
        st[i][sel] = ASSIGN_ASSIGNED;
        total++;
        for (int k = 0; k < ASSIGN_COLS; k++)
            if (k != sel && t[i][k] == 0)
                st[i][k] = ASSIGN_ELIMINATED;
        for (int k = 0; k < ASSIGN_ROWS; k++)
            if (k != i && t[k][sel] == 0)
                st[k][sel] = ASSIGN_ELIMINATED;
    }
    return total;
}

/* second_assignments: cover the zeros with lines and create new zeros.
 * Mark the rows without an assignment; repeat { mark the columns with a
 * zero in a marked row; mark the rows with an assignment in a marked
 * column } until no row is added; then subtract the smallest uncovered
 * value (marked row, unmarked column) there and add it where an unmarked
 * row crosses a marked column. */
static inline void assign_second(assign_row *t, const assign_srow *st)
{
    int16_t rows[ASSIGN_ROWS], cols[ASSIGN_COLS];
    memset(cols, 0, sizeof cols);
    for (int i = 0; i < ASSIGN_ROWS; i++) {
        rows[i] = 1;
        for (int j = 0; j < ASSIGN_COLS; j++)
            if (st[i][j] == ASSIGN_ASSIGNED) {
                rows[i] = 0;
                break;
            }
    }
    uint16_t added;
    do {
        added = 0;
        for (int i = 0; i < ASSIGN_ROWS; i++)
            if (rows[i] == 1)
                for (int j = 0; j < ASSIGN_COLS; j++)
                    if (t[i][j] == 0)
                        cols[j] = 1;
        for (int j = 0; j < ASSIGN_COLS; j++)
            if (cols[j] == 1)
                for (int i = 0; i < ASSIGN_ROWS; i++)
                    if (st[i][j] == ASSIGN_ASSIGNED && rows[i] != 1) {
                        rows[i] = 1;
                        added++;
                    }
    } while (added != 0);
    int64_t smallest = ASSIGN_MAXPOSLONG;
    for (int i = 0; i < ASSIGN_ROWS; i++)
        if (rows[i] != 0)
            for (int j = 0; j < ASSIGN_COLS; j++)
                if (cols[j] != 1 && t[i][j] < smallest)
                    smallest = t[i][j];
    for (int i = 0; i < ASSIGN_ROWS; i++)
        if (rows[i] != 0)
            for (int j = 0; j < ASSIGN_COLS; j++)
                if (cols[j] != 1)
                    t[i][j] -= smallest;
    for (int i = 0; i < ASSIGN_ROWS; i++)
        if (rows[i] == 0)
            for (int j = 0; j < ASSIGN_COLS; j++)
                if (cols[j] == 1)
                    t[i][j] += smallest;
}

/* Assignment(): reduce, then alternate the two phases until the first
 * finds a full assignment.  `st` is the status table (the reference keeps
 * it on the stack of this function); `c` is NULL in the timed solve. */
static inline void assign_solve(assign_row *t, assign_srow *st, struct assign_counts *c)
{
    assign_reduce(t);
    for (;;) {
        if (c)
            c->firsts++;
        if (assign_first(t, st) == ASSIGN_ROWS)
            break;
        if (c)
            c->seconds++;
        assign_second(t, st);
    }
}

/* ---- data ------------------------------------------------------------------------ */

/* LoadAssign: reseed and draw the costs row by row.  (The reference's inner
 * loop bound is ASSIGNROWS, not ASSIGNCOLS: the same for a square matrix.) */
static void assign_load_one(struct bm_rand *r, assign_row *t)
{
    bm_rand_reset(r);
    for (int i = 0; i < ASSIGN_ROWS; i++)
        for (int j = 0; j < ASSIGN_COLS; j++)
            t[i][j] = bm_abs_randwc(r, ASSIGN_COST_DRAW);
}

/* LoadAssignArrayWithRand: matrix 0 from the generator, copied into the
 * others. */
static void assign_load(struct assign *as)
{
    assign_load_one(&as->rand, as->arrays);
    for (uint64_t k = 1; k < as->numarrays; k++)
        memcpy(as->arrays + k * ASSIGN_ROWS, as->arrays, sizeof(assign_row) * ASSIGN_ROWS);
}

/* ---- the kernel ---------------------------------------------------------------- */

static void assign_init(struct bm_state *s)
{
    /* Quirk kept: ASSIGNARRAYS is ineffective in the reference (it does not
     * set the adjust flag, so adjustment starts from 1 array regardless). */
    s->workload = 1;
    s->workload_fixed = 0;
}

static void assign_teardown(struct bm_state *s)
{
    struct assign *as = s->priv;
    if (!as)
        return;
    bm_free(as->arrays);
    bm_priv_free(s);
}

/* DoAssign's allocation (untimed): numarrays matrices, every run. */
static int assign_setup(struct bm_state *s)
{
    assign_teardown(s);
    struct assign *as = bm_priv_new(s, sizeof *as);
    if (!as)
        return BM_ENOMEM;
    as->numarrays = s->workload ? s->workload : 1;
    if (as->numarrays > (uint64_t)-1 / (sizeof(assign_row) * ASSIGN_ROWS))
        return BM_ENOMEM;
    as->arrays = bm_alloc(sizeof(assign_row) * ASSIGN_ROWS * as->numarrays, s->align);
    return as->arrays ? BM_OK : BM_ENOMEM;
}

static uint64_t assign_iterate(struct bm_state *s, double *units)
{
    struct assign *as = s->priv;
    struct bm_timer t;
    assign_srow st[ASSIGN_ROWS];
    assign_load(as);                        /* untimed, every iteration */
    assign_row *a = as->arrays;
    uint64_t n = as->numarrays;
    bm_timer_start(&t);
    for (uint64_t k = 0; k < n; k++)
        assign_solve(a + k * ASSIGN_ROWS, st, NULL);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)n;                     /* iterations * numarrays / s */
    return ticks;
}

static int assign_grow(struct bm_state *s)
{
    s->workload++;                          /* no cap in the reference */
    return BM_OK;
}

static void assign_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu array%s of %dx%d", (unsigned long long)s->workload,
             s->workload == 1 ? "" : "s", ASSIGN_ROWS, ASSIGN_COLS);
}

/* ---- checks --------------------------------------------------------------------- */

/* The BYTEmark document's DEBUG output, Mayer's corrected list: the column
 * assigned to each row, "R000: 056 R001: 066 ... R100: 100". */
static const uint8_t assign_doc_columns[ASSIGN_ROWS] = {
    56, 66, 52, 65, 43, 23, 16, 77, 95, 4, 64, 76, 78, 91, 13, 29, 44, 14, 41, 42,
    20, 71, 24, 17, 55, 40, 70, 25, 31, 19, 73, 2, 47, 9, 35, 45, 5, 63, 81, 39,
    87, 8, 53, 93, 49, 92, 61, 46, 26, 34, 88, 0, 28, 18, 72, 21, 37, 82, 6, 58,
    96, 68, 69, 54, 57, 86, 97, 84, 99, 51, 98, 3, 74, 62, 80, 33, 11, 94, 12, 50,
    10, 38, 89, 59, 22, 79, 15, 7, 75, 83, 60, 48, 32, 67, 1, 30, 27, 85, 90, 36,
    100
};

/* From tests/vectors/bytemark/model_b.py (independent Python model). */
#define ASSIGN_COST_MD5  "6e9cd6c0191de9fb80709957f18d9156"  /* int64 LE, row-major */
#define ASSIGN_FINAL_MD5 "4d84b8dd60c99fab8b7d10daf29494d3"  /* the tableau at the end */
#define ASSIGN_OPTIMUM   1773239    /* scipy's linear_sum_assignment optimum */

/* The column of each row's single assignment, -1 when the row has none or
 * more than one. */
static void assign_columns(const assign_srow *st, int *cols)
{
    for (int i = 0; i < ASSIGN_ROWS; i++) {
        cols[i] = -1;
        int n = 0;
        for (int j = 0; j < ASSIGN_COLS; j++)
            if (st[i][j] == ASSIGN_ASSIGNED) {
                cols[i] = j;
                n++;
            }
        if (n != 1)
            cols[i] = -1;
    }
}

static void assign_verify_data(struct bm_verify *v, const assign_row *t)
{
    static const int64_t first[6] = { 515045, 392519, 200022, 924921, 902984, 94185 };
    int64_t sum = 0;
    for (int i = 0; i < ASSIGN_ROWS; i++)
        for (int j = 0; j < ASSIGN_COLS; j++)
            sum += t[i][j];
    char md5[33];
    bm_md5_hex(t, sizeof(assign_row) * ASSIGN_ROWS, md5);
    bm_check(v, memcmp(t[0], first, sizeof first) == 0 && t[100][100] == 51900,
             "costs: cost[0][0..5] = 515045 392519 200022 924921 902984 94185, "
             "cost[100][100] = 51900 (BYTEMARK.md)", "cost[0][0] %lld, cost[100][100] %lld",
             (long long)t[0][0], (long long)t[100][100]);
    bm_check(v, sum == 5078987983ll, "costs: sum of the 10201 costs 5078987983 (BYTEMARK.md)",
             "sum %lld", (long long)sum);
    bm_check(v, strcmp(md5, ASSIGN_COST_MD5) == 0,
             "costs: digest of the matrix as model_b.py's", "md5 %s", md5);
}

static void assign_verify(struct bm_verify *v)
{
    struct bm_config cfg;
    struct bm_state s;
    bm_state_for_check(&s, &cfg);
    assign_init(&s);
    s.workload = 2;                 /* the real kernel path with two matrices */
    assign_srow *st = bm_alloc(sizeof(assign_srow) * ASSIGN_ROWS, 8);
    assign_row *copy = bm_alloc(sizeof(assign_row) * ASSIGN_ROWS, 8);
    if (!st || !copy || assign_setup(&s) != BM_OK) {
        bm_check(v, 0, "allocate two matrices", "out of memory");
        bm_free(st);
        bm_free(copy);
        assign_teardown(&s);
        return;
    }
    struct assign *as = s.priv;
    bm_check(v, ((uintptr_t)as->arrays & 15) == 8, "matrices start at 8 mod 16 (ALIGN=8)",
             "address %p", (void *)as->arrays);
    assign_load(as);
    assign_verify_data(v, as->arrays);

    /* Instrumented solve of a copy: the reference's phase counts and the
     * document's column choices. */
    memcpy(copy, as->arrays, sizeof(assign_row) * ASSIGN_ROWS);
    struct assign_counts c = { 0, 0 };
    assign_solve(copy, st, &c);
    bm_check(v, c.firsts == 99 && c.seconds == 98,
             "solve: first_assignments 99 times, second_assignments 98 (BYTEMARK.md section 7)",
             "%llu and %llu", (unsigned long long)c.firsts, (unsigned long long)c.seconds);
    int cols[ASSIGN_ROWS], bad = -1;
    assign_columns(st, cols);
    for (int i = 0; i < ASSIGN_ROWS && bad < 0; i++)
        if (cols[i] != assign_doc_columns[i])
            bad = i;
    bm_check(v, bad < 0, "solve: column choices R000..R100 as the BYTEmark document",
             "R%03d: %d, document %03d", bad, bad >= 0 ? cols[bad] : 0,
             bad >= 0 ? assign_doc_columns[bad] : 0);
    int used[ASSIGN_COLS] = { 0 }, perm = 1;
    int64_t total = 0;
    for (int i = 0; i < ASSIGN_ROWS; i++) {
        perm = perm && cols[i] >= 0 && !used[cols[i]]++;
        total += perm ? as->arrays[i][cols[i]] : 0;
    }
    bm_check(v, perm && total == ASSIGN_OPTIMUM,
             "solve: one task per row and column, total cost 1773239 = the optimum (model_b.py)",
             "permutation %d, total %lld", perm, (long long)total);

    /* The timed path: both matrices end as the instrumented solve's. */
    double units = 0;
    assign_iterate(&s, &units);
    char m0[33], m1[33];
    bm_md5_hex(as->arrays, sizeof(assign_row) * ASSIGN_ROWS, m0);
    bm_md5_hex(as->arrays + ASSIGN_ROWS, sizeof(assign_row) * ASSIGN_ROWS, m1);
    bm_check(v, units == 2.0 && !strcmp(m0, ASSIGN_FINAL_MD5) && !strcmp(m1, ASSIGN_FINAL_MD5) &&
                 memcmp(copy, as->arrays, sizeof(assign_row) * ASSIGN_ROWS) == 0,
             "timed solve: both matrices end as the instrumented solve's (digest as model_b.py)",
             "units %g, md5 %s %s", units, m0, m1);
    bm_free(st);
    bm_free(copy);
    assign_teardown(&s);
}

/* ---- for the unit test (bytemark_b.h) --------------------------------------------- */

static void assign_md5_i16(const assign_srow *st, char out[33])
{
    /* int16 little-endian, as the model digests it. */
    uint8_t le[sizeof(assign_srow) * ASSIGN_ROWS];
    for (int i = 0; i < ASSIGN_ROWS; i++)
        for (int j = 0; j < ASSIGN_COLS; j++) {
            uint16_t u = (uint16_t)st[i][j];
            le[2 * (i * ASSIGN_COLS + j)] = (uint8_t)u;
            le[2 * (i * ASSIGN_COLS + j) + 1] = (uint8_t)(u >> 8);
        }
    bm_md5_hex(le, sizeof le, out);
}

int bm_assign_probe(struct bm_assign_probe *out)
{
    memset(out, 0, sizeof *out);
    assign_row *t = bm_alloc(sizeof(assign_row) * ASSIGN_ROWS, 8);
    assign_row *orig = bm_alloc(sizeof(assign_row) * ASSIGN_ROWS, 8);
    assign_srow *st = bm_alloc(sizeof(assign_srow) * ASSIGN_ROWS, 8);
    int rc = -1;
    if (t && orig && st) {
        struct bm_rand r;
        assign_load_one(&r, orig);
        memcpy(out->cost0, orig[0], sizeof out->cost0);
        out->cost_last = orig[100][100];
        out->min = out->max = orig[0][0];
        for (int i = 0; i < ASSIGN_ROWS; i++)
            for (int j = 0; j < ASSIGN_COLS; j++) {
                int64_t x = orig[i][j];
                out->sum += x;
                out->min = x < out->min ? x : out->min;
                out->max = x > out->max ? x : out->max;
            }
        bm_md5_hex(orig, sizeof(assign_row) * ASSIGN_ROWS, out->cost_md5);
        memcpy(t, orig, sizeof(assign_row) * ASSIGN_ROWS);
        assign_reduce(t);
        bm_md5_hex(t, sizeof(assign_row) * ASSIGN_ROWS, out->reduced_md5);
        for (int i = 0; i < ASSIGN_ROWS; i++)
            for (int j = 0; j < ASSIGN_COLS; j++)
                out->zeros += t[i][j] == 0;
        memcpy(t, orig, sizeof(assign_row) * ASSIGN_ROWS);
        struct assign_counts c = { 0, 0 };
        assign_solve(t, st, &c);
        out->firsts = c.firsts;
        out->seconds = c.seconds;
        assign_columns(st, out->columns);
        for (int i = 0; i < ASSIGN_ROWS; i++)
            out->total_cost += out->columns[i] >= 0 ? orig[i][out->columns[i]] : 0;
        bm_md5_hex(t, sizeof(assign_row) * ASSIGN_ROWS, out->final_md5);
        assign_md5_i16(st, out->status_md5);
        rc = 0;
    }
    bm_free(t);
    bm_free(orig);
    bm_free(st);
    return rc;
}

const struct bm_kernel bm_assign = {
    .id = BM_ASSIGN,
    .name = "ASSIGNMENT",
    .key = "assign",
    .unit = "arrays/s",
    .base_p90 = 0.2628,     /* BYTEMARK.md section 3 baselines */
    .base_k6 = 1.0132,
    .init = assign_init,
    .setup = assign_setup,
    .iterate = assign_iterate,
    .grow = assign_grow,
    .teardown = assign_teardown,
    .verify = assign_verify,
    .describe = assign_describe,
};
