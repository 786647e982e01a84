/*
 * bench/bytemark/nnet.c - BYTEmark's neural net (BYTEMARK.md 4.9): a
 * back-propagation network of 35 inputs (a 5x7 pixel letter), 8 middle and
 * 8 output neurons learns the ASCII codes of the letters A..J from
 * NNET.DAT.  One unit of work is a complete learning session: random
 * weights, then passes over the 10 patterns until every output is within
 * 0.1 of its target (780 passes for a freshly reseeded session).  Unit:
 * learning sessions per second.  Adjustment grows the number of sessions per
 * timed iteration (1, +1, up to MAXNNETLOOPS without an error).
 *
 * The data file is built in (nnet_data.c, generated from NNET.DAT by
 * tools/gen-nnet-data.sh) and parsed as the reference's fscanf("%d") does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_c.h"
#include "bytemark_internal.h"
#include "nnet_data.h"
#include "platform.h"

/* BYTEMARK.md section 11 (the reference's nbench1.h). */
#define NNET_IN_X      5            /* IN_X_SIZE */
#define NNET_IN_Y      7            /* IN_Y_SIZE */
#define NNET_IN        (NNET_IN_X * NNET_IN_Y)   /* IN_SIZE = 35 */
#define NNET_MID       8            /* MID_SIZE */
#define NNET_OUT       8            /* OUT_SIZE */
#define NNET_MAXPATS   10           /* MAXPATS: NNET.DAT has 26, 10 are used */
#define NNET_BETA      0.09         /* learning rate */
#define NNET_ALPHA     0.09         /* momentum */
#define NNET_STOP      0.1          /* learned when every error is below this */
#define NNET_ABORT     16.0         /* the session gives up at this error */
#define NNET_MAX_LOOPS 500000       /* MAXNNETLOOPS */
#define NNET_DATA_NAME "NNET.DAT"   /* the reference's inpath */

/* The reference's learned flag: F (go on), T (learned), ERR (diverged). */
enum { NNET_GO_ON, NNET_LEARNED, NNET_DIVERGED };

struct nnet {
    /* The patterns, as read_data_file leaves them. */
    int npats;
    double in_pats[NNET_MAXPATS][NNET_IN];
    double out_pats[NNET_MAXPATS][NNET_OUT];
    /* The network (the reference's static globals). */
    double mid_wts[NNET_MID][NNET_IN], out_wts[NNET_OUT][NNET_MID];
    double mid_out[NNET_MID], out_out[NNET_OUT];
    double mid_error[NNET_MID], out_error[NNET_OUT];
    double mid_wt_change[NNET_MID][NNET_IN], out_wt_change[NNET_OUT][NNET_MID];
    double mid_wt_cum_change[NNET_MID][NNET_IN], out_wt_cum_change[NNET_OUT][NNET_MID];
    double tot_out_error[NNET_MAXPATS], avg_out_error[NNET_MAXPATS];
    double worst_error, average_error;
    /* Outcome of the last session, for the checks (not part of the score). */
    int passes, learned;
    uint64_t loops;
    struct bm_rand rand;
};

/* ---- the data file ------------------------------------------------------------ */

/* One fscanf("%d"): skip white space, an optional sign, decimal digits.
 * Returns 0 and advances *pos, or -1 at the end or at anything else. */
static int nnet_scan_int(const char *text, size_t len, size_t *pos, int *out)
{
    size_t p = *pos;
    while (p < len && (text[p] == ' ' || (text[p] >= '\t' && text[p] <= '\r')))
        p++;
    int neg = 0;
    if (p < len && (text[p] == '-' || text[p] == '+'))
        neg = text[p++] == '-';
    if (p >= len || text[p] < '0' || text[p] > '9')
        return -1;
    long v = 0;
    while (p < len && text[p] >= '0' && text[p] <= '9') {
        if (v < 100000000)
            v = v * 10 + (text[p] - '0');
        p++;
    }
    *out = (int)(neg ? -v : v);
    *pos = p;
    return 0;
}

/* read_data_file: the layer sizes (which must be the compiled-in 5 7 8: the
 * reference would overrun its arrays otherwise), the pattern count clamped
 * to MAXPATS (the reference's silent limit: only A..J of the 26 letters
 * learn), then per pattern 7 rows of 5 pixels and 8 target bits.  Inputs
 * are clamped to [0.1, 0.9] (0 -> 0.1, 1 -> 0.9); targets stay 0/1.
 * Returns the number of patterns the file claims, or -1 on malformed data. */
static int nnet_parse(struct nnet *nn, const char *text, size_t len)
{
    size_t pos = 0;
    int x, y, o, npats;
    if (nnet_scan_int(text, len, &pos, &x) || nnet_scan_int(text, len, &pos, &y) ||
        nnet_scan_int(text, len, &pos, &o) || nnet_scan_int(text, len, &pos, &npats))
        return -1;
    if (x != NNET_IN_X || y != NNET_IN_Y || o != NNET_OUT || npats < 1)
        return -1;
    nn->npats = npats > NNET_MAXPATS ? NNET_MAXPATS : npats;
    for (int p = 0; p < nn->npats; p++) {
        for (int i = 0; i < NNET_IN; i++) {
            int v;
            if (nnet_scan_int(text, len, &pos, &v))
                return -1;
            double d = (double)v;
            if (d >= 0.9)
                d = 0.9;
            if (d <= 0.1)
                d = 0.1;
            nn->in_pats[p][i] = d;
        }
        for (int i = 0; i < NNET_OUT; i++) {
            int v;
            if (nnet_scan_int(text, len, &pos, &v))
                return -1;
            nn->out_pats[p][i] = (double)v;
        }
    }
    return npats;
}

/* ---- one learning session ------------------------------------------------------ */

/* randomize_wts.  Quirk kept: the output weights divide by 10000, not
 * 100000 as the middle ones (the comment there says -0.25..0.25), so they
 * lie in [-0.25, 4.75). */
static void nnet_randomize(struct nnet *nn)
{
    for (int n = 0; n < NNET_MID; n++)
        for (int i = 0; i < NNET_IN; i++) {
            double v = (double)bm_abs_randwc(&nn->rand, 100000);
            v = v / 100000.0 - 0.5;
            nn->mid_wts[n][i] = v / 2;
        }
    for (int n = 0; n < NNET_OUT; n++)
        for (int i = 0; i < NNET_MID; i++) {
            double v = (double)bm_abs_randwc(&nn->rand, 100000);
            v = v / 10000.0 - 0.5;
            nn->out_wts[n][i] = v / 2;
        }
}

static void nnet_zero_changes(struct nnet *nn)
{
    memset(nn->mid_wt_change, 0, sizeof nn->mid_wt_change);
    memset(nn->mid_wt_cum_change, 0, sizeof nn->mid_wt_cum_change);
    memset(nn->out_wt_change, 0, sizeof nn->out_wt_change);
    memset(nn->out_wt_cum_change, 0, sizeof nn->out_wt_cum_change);
}

/* move_wt_changes: the changes summed over the previous presentation become
 * the momentum terms, and the sums start again from zero. */
static void nnet_move_changes(struct nnet *nn)
{
    for (int i = 0; i < NNET_MID; i++)
        for (int j = 0; j < NNET_IN; j++) {
            nn->mid_wt_change[i][j] = nn->mid_wt_cum_change[i][j];
            nn->mid_wt_cum_change[i][j] = 0.0;
        }
    for (int i = 0; i < NNET_OUT; i++)
        for (int j = 0; j < NNET_MID; j++) {
            nn->out_wt_change[i][j] = nn->out_wt_cum_change[i][j];
            nn->out_wt_cum_change[i][j] = 0.0;
        }
}

/* do_mid_forward and do_out_forward: weighted sums in index order, then
 * the sigmoid 1/(1+exp(-x)) from libm.  No bias terms. */
static void nnet_forward(struct nnet *nn, int patt)
{
    for (int n = 0; n < NNET_MID; n++) {
        double sum = 0.0;
        for (int i = 0; i < NNET_IN; i++)
            sum += nn->mid_wts[n][i] * nn->in_pats[patt][i];
        nn->mid_out[n] = 1.0 / (1.0 + exp(-sum));
    }
    for (int n = 0; n < NNET_OUT; n++) {
        double sum = 0.0;
        for (int i = 0; i < NNET_MID; i++)
            sum += nn->out_wts[n][i] * nn->mid_out[i];
        nn->out_out[n] = 1.0 / (1.0 + exp(-sum));
    }
}

/* do_out_error: the raw difference target - output (the reference applies
 * no sigmoid derivative at the output layer), the pattern's worst and mean
 * absolute error. */
static void nnet_out_error(struct nnet *nn, int patt)
{
    double worst = 0.0, sum = 0.0;
    for (int n = 0; n < NNET_OUT; n++) {
        double e = nn->out_pats[patt][n] - nn->out_out[n];
        nn->out_error[n] = e;
        double a = e < 0.0 ? -e : e;
        sum += a;
        if (a > worst)
            worst = a;
    }
    nn->avg_out_error[patt] = sum / NNET_OUT;
    nn->tot_out_error[patt] = worst;
}

/* do_mid_error: back-propagate through the output weights as they are
 * before this presentation's update, times the sigmoid's derivative. */
static void nnet_mid_error(struct nnet *nn)
{
    for (int n = 0; n < NNET_MID; n++) {
        double sum = 0.0;
        for (int i = 0; i < NNET_OUT; i++)
            sum += nn->out_wts[i][n] * nn->out_error[i];
        nn->mid_error[n] = nn->mid_out[n] * (1 - nn->mid_out[n]) * sum;
    }
}

/* adjust_out_wts and adjust_mid_wts: the delta rule plus momentum, the
 * change recorded for the next presentation's momentum.  Output layer
 * first, then the middle layer. */
static void nnet_adjust(struct nnet *nn, int patt)
{
    for (int n = 0; n < NNET_OUT; n++)
        for (int w = 0; w < NNET_MID; w++) {
            double delta = NNET_BETA * nn->out_error[n] * nn->mid_out[w];
            delta += NNET_ALPHA * nn->out_wt_change[n][w];
            nn->out_wts[n][w] += delta;
            nn->out_wt_cum_change[n][w] += delta;
        }
    for (int n = 0; n < NNET_MID; n++)
        for (int w = 0; w < NNET_IN; w++) {
            double delta = NNET_BETA * nn->mid_error[n] * nn->in_pats[patt][w];
            delta += NNET_ALPHA * nn->mid_wt_change[n][w];
            nn->mid_wts[n][w] += delta;
            nn->mid_wt_cum_change[n][w] += delta;
        }
}

/* check_out_error (with worst_pass_error): learned when the worst error of
 * the pass is below STOP; diverged when a pattern's error reaches 16.
 * Quirks kept: the mean error is computed and never used, and the STOP test
 * on the pass's worst error sits inside the loop over the patterns. */
static int nnet_check(struct nnet *nn)
{
    double worst = 0.0, sum = 0.0;
    for (int i = 0; i < nn->npats; i++) {
        if (nn->tot_out_error[i] > worst)
            worst = nn->tot_out_error[i];
        sum += nn->avg_out_error[i];
    }
    nn->worst_error = worst;
    nn->average_error = sum / nn->npats;
    int result = NNET_LEARNED, diverged = 0;
    for (int i = 0; i < nn->npats; i++) {
        if (nn->worst_error >= NNET_STOP)
            result = NNET_GO_ON;
        if (nn->tot_out_error[i] >= NNET_ABORT)
            diverged = 1;
    }
    return diverged ? NNET_DIVERGED : result;
}

/* DoNNetIteration without its stopwatch: `loops` complete sessions.  Quirk
 * kept: the generator is not reset between sessions, so with loops > 1
 * sessions 2.. start from other weights and take other numbers of passes. */
static void nnet_sessions(struct nnet *nn, uint64_t loops)
{
    while (loops--) {
        nnet_randomize(nn);
        nnet_zero_changes(nn);
        int learned = NNET_GO_ON, passes = 0;
        while (learned == NNET_GO_ON) {
            for (int patt = 0; patt < nn->npats; patt++) {
                nnet_move_changes(nn);
                nnet_forward(nn, patt);
                nnet_out_error(nn, patt);
                nnet_mid_error(nn);
                nnet_adjust(nn, patt);
            }
            passes++;
            learned = nnet_check(nn);
        }
        nn->passes = passes;
        nn->learned = learned;
    }
}

/* ---- the kernel -------------------------------------------------------------------- */

static void nnet_init(struct bm_state *s)
{
    /* NNETLOOPS fixes the sessions per iteration and disables adjustment. */
    s->workload = s->cfg && s->cfg->nnet_loops ? s->cfg->nnet_loops : 1;
    s->workload_fixed = s->cfg && s->cfg->nnet_loops != 0;
}

static void nnet_teardown(struct bm_state *s)
{
    plat_free(s->priv);
    s->priv = NULL;
}

/* DoNNET's untimed start: read the data (built in here), once per run. */
static int nnet_setup(struct bm_state *s)
{
    nnet_teardown(s);
    struct nnet *nn = plat_alloc(sizeof *nn);
    if (!nn)
        return BM_ENOMEM;
    memset(nn, 0, sizeof *nn);
    s->priv = nn;
    nn->loops = s->workload ? s->workload : 1;
    return nnet_parse(nn, bm_nnet_dat, bm_nnet_dat_size) > 0 ? BM_OK : BM_EFAIL;
}

static uint64_t nnet_iterate(struct bm_state *s, double *units)
{
    struct nnet *nn = s->priv;
    struct bm_timer t;
    /* The reference resets the generator (untimed) before every adjustment
     * trial and every timed DoNNetIteration: with one loop every session is
     * the same 780-pass session. */
    bm_rand_reset(&nn->rand);
    uint64_t loops = nn->loops;
    bm_timer_start(&t);
    nnet_sessions(nn, loops);
    uint64_t ticks = bm_timer_stop(&t);
    *units = (double)loops;
    return ticks;
}

static int nnet_grow(struct bm_state *s)
{
    /* for (loops = 1; loops < MAXNNETLOOPS; loops++): sessions 1..499999 are
     * tried, then the loop ends at 500000 without an error and that count
     * is used.  Here 500000 gets one more (untimed) trial before the suite
     * accepts it unchanged; only a machine where 499999 sessions take under
     * GLOBALMINTICKS would tell the difference. */
    if (s->workload < NNET_MAX_LOOPS)
        s->workload++;
    return BM_OK;
}

static void nnet_describe(const struct bm_state *s, char *buf, size_t n)
{
    snprintf(buf, n, "%llu learning session%s of %d patterns (%s)",
             (unsigned long long)s->workload, s->workload == 1 ? "" : "s", NNET_MAXPATS,
             NNET_DATA_NAME);
}

/* ---- checks ------------------------------------------------------------------------- */

/* The data file: bytes and digest (BYTEMARK.md section 5), the patterns. */
static void nnet_verify_data(struct bm_verify *v, struct nnet *nn)
{
    char md5[33];
    bm_md5_hex(bm_nnet_dat, bm_nnet_dat_size, md5);
    bm_check(v, bm_nnet_dat_size == 3160 && !strcmp(md5, "d0ca3e459c4b2dc7c27847299a730bb5"),
             "built-in NNET.DAT: 3160 bytes, md5 d0ca3e459c4b2dc7c27847299a730bb5",
             "%zu bytes, md5 %s", bm_nnet_dat_size, md5);
    int claimed = nnet_parse(nn, bm_nnet_dat, bm_nnet_dat_size);
    char letters[NNET_MAXPATS + 1];
    int clamped = 1;
    for (int p = 0; p < nn->npats; p++) {
        int code = 0;
        for (int i = 0; i < NNET_OUT; i++)
            code = code * 2 + (nn->out_pats[p][i] != 0.0);
        letters[p] = (char)code;
        for (int i = 0; i < NNET_IN; i++)
            clamped = clamped && (nn->in_pats[p][i] == 0.1 || nn->in_pats[p][i] == 0.9);
    }
    letters[nn->npats > 0 ? nn->npats : 0] = 0;
    bm_check(v, claimed == 26 && nn->npats == NNET_MAXPATS && !strcmp(letters, "ABCDEFGHIJ"),
             "quirk: 26 patterns in the file, the first 10 (A..J) used (MAXPATS)",
             "%d in the file, %d used, letters \"%s\"", claimed, nn->npats, letters);
    bm_check(v, clamped, "inputs clamped to 0.1 and 0.9", "a pixel is neither");
    bm_check(v, nnet_parse(nn, "5 7 9 1", 7) < 0 && nnet_parse(nn, "5 7 8 2 1 0", 11) < 0,
             "a data file with other layer sizes or cut short is refused", "accepted");
    nnet_parse(nn, bm_nnet_dat, bm_nnet_dat_size);
}

/* The first weights after a reset (BYTEMARK.md section 1). */
static void nnet_verify_weights(struct bm_verify *v, struct nnet *nn)
{
    static const char *const mid[4] = { "-0.174775", "0.212595", "-0.24989", "-0.125395" };
    static const char *const out[4] = { "2.37775", "1.52365", "3.1382", "3.6034" };
    bm_rand_reset(&nn->rand);
    nnet_randomize(nn);
    int bad = -1;
    for (int i = 0; i < 4 && bad < 0; i++) {
        char m[32], o[32];
        snprintf(m, sizeof m, "%.6g", nn->mid_wts[0][i]);
        snprintf(o, sizeof o, "%.6g", nn->out_wts[0][i]);
        if (strcmp(m, mid[i]) || strcmp(o, out[i]))
            bad = i;
    }
    bm_check(v, bad < 0, "first weights mid[0][0..3] and out[0][0..3] (BYTEMARK.md)",
             "index %d: mid %.6g out %.6g", bad, bad >= 0 ? nn->mid_wts[0][bad] : 0.0,
             bad >= 0 ? nn->out_wts[0][bad] : 0.0);
    double lo = 1e9, hi = -1e9;
    for (int n = 0; n < NNET_OUT; n++)
        for (int i = 0; i < NNET_MID; i++) {
            lo = nn->out_wts[n][i] < lo ? nn->out_wts[n][i] : lo;
            hi = nn->out_wts[n][i] > hi ? nn->out_wts[n][i] : hi;
        }
    bm_check(v, lo >= -0.25 && hi < 4.75 && hi > 0.25,
             "quirk: output weights /10000, in [-0.25, 4.75) and beyond 0.25",
             "min %g max %g", lo, hi);
}

/* The trained net read back: each pattern's outputs rounded to bits must
 * spell its letter's ASCII code.  (Errors are measured before each
 * presentation's update, so a fresh pass over the final weights may miss
 * STOP by a little: it is not a check.)  Returns the letters recognised. */
static int nnet_recognised(struct nnet *nn, double *worst)
{
    int ok = 0;
    *worst = 0;
    for (int p = 0; p < nn->npats; p++) {
        nnet_forward(nn, p);
        int same = 1;
        for (int n = 0; n < NNET_OUT; n++) {
            double e = fabs(nn->out_pats[p][n] - nn->out_out[n]);
            *worst = e > *worst ? e : *worst;
            same = same && (nn->out_out[n] >= 0.5) == (nn->out_pats[p][n] != 0.0);
        }
        ok += same;
    }
    return ok;
}

static void nnet_verify(struct bm_verify *v)
{
    struct bm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.nnet_loops = 1;
    struct bm_state s;
    memset(&s, 0, sizeof s);
    s.cfg = &cfg;
    s.align = 8;
    nnet_init(&s);
    if (nnet_setup(&s) != BM_OK) {
        bm_check(v, 0, "set up the network and its data", "out of memory or bad data");
        nnet_teardown(&s);
        return;
    }
    struct nnet *nn = s.priv;
    nnet_verify_data(v, nn);
    nnet_verify_weights(v, nn);

    /* The real kernel path: one timed iteration of one session. */
    double units = 0;
    nnet_iterate(&s, &units);
    bm_check(v, units == 1.0 && nn->learned == NNET_LEARNED && nn->passes == 780,
             "learns in 780 passes (the BYTEmark document)", "%d passes, state %d, units %g",
             nn->passes, nn->learned, units);
    double worst = 0;
    int recognised = nnet_recognised(nn, &worst);
    bm_check(v, recognised == NNET_MAXPATS && worst < 0.2,
             "the trained net gives the ASCII codes of A..J (outputs rounded)",
             "%d of 10 letters, worst error %g", recognised, worst);
    bm_check(v, nn->worst_error < NNET_STOP && nn->worst_error > 0.09,
             "the last pass's worst error is just under STOP 0.1", "%.6g", nn->worst_error);
    nnet_iterate(&s, &units);
    bm_check(v, nn->passes == 780, "reseeded before each iteration: the same 780 passes again",
             "%d passes", nn->passes);

    /* Two sessions in one iteration: the second continues the random
     * stream, so it is a different session from the first. */
    s.workload = 2;
    nn->loops = 2;
    double w0 = 0;
    nnet_iterate(&s, &units);
    w0 = nn->mid_wts[0][0];
    int second = nn->passes;
    nnet_iterate(&s, &units);
    bm_check(v, units == 2.0 && nn->learned == NNET_LEARNED && second != 780 &&
                 nn->passes == second && nn->mid_wts[0][0] == w0,
             "quirk: in a 2-loop iteration session 2 continues the stream (not 780 passes), "
             "the same each iteration", "units %g, session 2 %d then %d passes", units, second,
             nn->passes);
    nnet_teardown(&s);
}

/* ---- for the unit test (bytemark_c.h) -------------------------------------------------- */

static void nnet_md5_doubles(const double *a, size_t na, const double *b, size_t nb,
                             char out[33])
{
    double buf[NNET_MAXPATS * (NNET_IN + NNET_OUT)];
    memcpy(buf, a, na * sizeof *a);
    memcpy(buf + na, b, nb * sizeof *b);
    bm_md5_hex(buf, (na + nb) * sizeof *buf, out);
}

static double nnet_sum(const double *a, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

int bm_nnet_probe(int sessions, struct bm_nnet_probe *out)
{
    memset(out, 0, sizeof *out);
    if (sessions < 1 || sessions > BM_NNET_PROBE_SESSIONS)
        return -1;
    struct nnet *nn = plat_alloc(sizeof *nn);
    if (!nn)
        return -1;
    memset(nn, 0, sizeof *nn);
    out->patterns_in_file = nnet_parse(nn, bm_nnet_dat, bm_nnet_dat_size);
    if (out->patterns_in_file < 1) {
        plat_free(nn);
        return -1;
    }
    out->patterns_used = nn->npats;
    for (int p = 0; p < nn->npats; p++) {
        int code = 0;
        for (int i = 0; i < NNET_OUT; i++)
            code = code * 2 + (nn->out_pats[p][i] != 0.0);
        out->letters[p] = (char)code;
    }
    nnet_md5_doubles(&nn->in_pats[0][0], (size_t)nn->npats * NNET_IN, &nn->out_pats[0][0],
                     (size_t)nn->npats * NNET_OUT, out->patterns_md5);
    bm_rand_reset(&nn->rand);
    nnet_randomize(nn);
    nnet_md5_doubles(&nn->mid_wts[0][0], NNET_MID * NNET_IN, &nn->out_wts[0][0],
                     NNET_OUT * NNET_MID, out->weights_md5);
    memcpy(out->mid0, nn->mid_wts[0], sizeof out->mid0);
    memcpy(out->out0, nn->out_wts[0], sizeof out->out0);

    /* One iteration of `sessions` loops: one reset, then the sessions one
     * after the other (as nnet_sessions(nn, sessions) runs them). */
    bm_rand_reset(&nn->rand);
    out->sessions = sessions;
    out->learned = 1;
    for (int k = 0; k < sessions; k++) {
        nnet_sessions(nn, 1);
        out->passes[k] = nn->passes;
        out->learned = out->learned && nn->learned == NNET_LEARNED;
        if (k == 0) {
            out->presentations = (uint64_t)nn->passes * (uint64_t)nn->npats;
            out->weight_sum = nnet_sum(&nn->mid_wts[0][0], NNET_MID * NNET_IN) +
                              nnet_sum(&nn->out_wts[0][0], NNET_OUT * NNET_MID);
        }
    }
    plat_free(nn);
    return 0;
}

const struct bm_kernel bm_nnet = {
    .id = BM_NNET,
    .name = "NEURAL NET",
    .key = "nnet",
    .unit = "sessions/s",
    .base_p90 = 0.6225,     /* BYTEMARK.md section 3 baselines */
    .base_k6 = 1.4799,
    .init = nnet_init,
    .setup = nnet_setup,
    .iterate = nnet_iterate,
    .grow = nnet_grow,
    .teardown = nnet_teardown,
    .verify = nnet_verify,
    .describe = nnet_describe,
};
