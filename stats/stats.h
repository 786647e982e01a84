/*
 * stats/stats.h - the statistics of accurate timing.  Pure, freestanding C:
 * no I/O, no globals, no allocation.  Callers pass scratch space and output
 * buffers.  Built into the EFI image and into the host program.
 *
 * Sources: Karsh, "Accurate timing" (TStats: means, modes by iterative
 * binning, histograms, Z), CodeTune's summary (population and sample
 * variance/sd, min, max), BYTEmark 2.2.3's confidence rule (Student-t 95%,
 * 5..30 runs, half-interval within 5% of the mean), plus medians, MAD,
 * Welch's t and Mann-Whitney U as today's benchmark tools add.
 *
 * Conventions
 * - Empty or undefined results are NaN (e.g. the sample variance of n = 1).
 * - Percentiles use the common linear interpolation rule (Hyndman & Fan
 *   type 7, numpy's default "linear", R's default): for p in [0, 100] and n
 *   sorted values x[0..n-1], h = (n - 1) * p / 100, k = floor(h),
 *   q = x[k] + (h - k) * (x[k+1] - x[k])  (q = x[n-1] when k = n - 1).
 *   The median is the 50th percentile under this rule (the usual median).
 * - uint64 samples: min, max and median are kept exactly as uint64 as well
 *   as double; the mean and other moments are computed on offsets from the
 *   minimum (exact integers) so values near 2^63 keep full relative
 *   precision (mean_above_min carries the digits a double at 2^63 cannot).
 * - "Time" convention for comparisons: smaller is faster.
 */
#ifndef BAREMARK_STATS_H
#define BAREMARK_STATS_H

#include <stddef.h>
#include <stdint.h>

/* ---- constants (with their sources) ---------------------------------- */

/* Karsh's mode: bins per pass and a pass limit (his TSFilterMode is called
 * repeatedly until the mode bin holds equal values).  Bins 0: as many bins
 * as samples, as his GatherTimes sets up (TSInit(nil, Accuracy, Accuracy)). */
#define STATS_MODE_BINS_DEFAULT   0
#define STATS_MODE_PASSES_DEFAULT 16

/* Trimmed mean keeps the 20%..80% part (scipy.stats.trim_mean(x, 0.2):
 * floor(0.2 n) values cut from each end). */
#define STATS_TRIM_FRACTION 0.2

/* Tukey's fences: mild beyond 1.5 IQR, extreme beyond 3 IQR. */
#define STATS_TUKEY_INNER 1.5
#define STATS_TUKEY_OUTER 3.0
/* Iglewicz & Hoaglin modified Z: 0.6745 (x - median) / MAD, outlier > 3.5. */
#define STATS_MODZ_K         0.6745
#define STATS_MODZ_THRESHOLD 3.5

/* BYTEmark 2.2.3 (nbench1.c): at least 5, at most 30 runs; done when the
 * 95% half-interval of the mean is within 5% of the mean. */
#define STATS_BYTEMARK_MIN_RUNS 5
#define STATS_BYTEMARK_MAX_RUNS 30
#define STATS_BYTEMARK_REL_HALF 0.05

/* Significance level of every verdict: two-sided 95%. */
#define STATS_ALPHA 0.05

/* ASCII renderings are limited to a serial console's width. */
#define STATS_RENDER_MAX_COLS 80

/* ---- types ------------------------------------------------------------ */

/* The mode found Karsh's way, ending on the most frequent exact value:
 * bin [min, max] into nbins bins (the top bin holds max; nbins 0 = as many
 * bins as samples, Karsh's choice), keep the data of the fullest bin (the
 * lowest such bin on a tie), repeat on the kept data until its values are
 * all equal (pure) or the pass limit is hit.  Then the exact count: when
 * some value occurs at least twice, the mode is the most frequent value of
 * the whole sample (the lowest of equally frequent values), pure, whatever
 * the bins kept (a bin spanning neighbouring values can keep the wrong
 * ones).  When every value is distinct the binned estimate stands: the
 * mean of what the last pass kept. */
struct stats_mode {
    double value;       /* mean of the values kept by the last pass */
    double value_above_lo; /* value - lo without cancellation (near 2^63) */
    double sd;          /* their population sd: 0 exactly when pure */
    double lo, hi;      /* smallest and largest value kept */
    uint64_t lo_u64, hi_u64; /* the same, exact (uint64 input only, else 0) */
    size_t count;       /* how many samples the mode holds */
    int passes;         /* binning passes made before the exact count (0
                           when n <= 1 or all equal) */
    int pure;           /* 1 when all kept values are equal */
};

/* Outliers are classified, never dropped.  Tukey's fences from Q1, Q3
 * (type-7 percentiles); modified Z from the median and the MAD.  When the
 * MAD is 0 the modified Z is undefined: modz_valid is 0 and the modz
 * counts are 0. */
struct stats_outliers {
    double q1, q3, iqr;
    double inner_lo, inner_hi;   /* Q1 - 1.5 IQR, Q3 + 1.5 IQR */
    double outer_lo, outer_hi;   /* Q1 - 3 IQR,   Q3 + 3 IQR */
    size_t mild_low, mild_high;  /* beyond the inner but not the outer fence */
    size_t extreme_low, extreme_high; /* beyond the outer fence */
    int modz_valid;              /* MAD > 0 */
    size_t modz_low, modz_high;  /* |modified Z| > 3.5, below/above median */
};

/* Classification of one value against struct stats_outliers (bit flags). */
#define STATS_OUT_NONE     0
#define STATS_OUT_MILD     1   /* beyond a 1.5 IQR fence */
#define STATS_OUT_EXTREME  2   /* beyond a 3 IQR fence (MILD is set too) */
#define STATS_OUT_MODZ     4   /* |modified Z| > 3.5 */

/* Options of a summary; a zeroed struct (or NULL) means the defaults. */
struct stats_options {
    unsigned mode_bins;     /* 0: as many bins as samples (Karsh's) */
    unsigned mode_passes;   /* 0: STATS_MODE_PASSES_DEFAULT */
};

/* The whole summary of one sample. */
struct stats_summary {
    size_t n;
    int is_u64;              /* 1 when computed from uint64 samples */
    uint64_t min_u64, max_u64;   /* exact (uint64 input only, else 0) */
    uint64_t median_u64;     /* floor of the exact median (uint64 input) */
    int median_half;         /* 1 when the exact median is median_u64 + 0.5 */
    double min, max, range;
    double mean;             /* numerically stable (Welford on offsets) */
    double mean_above_min;   /* mean - min without cancellation */
    double var_pop, var_sample;  /* divide by n, by n - 1 */
    double sd_pop, sd_sample;
    double cv;               /* sd_sample / mean (NaN when mean is 0) */
    double median;
    double p1, p5, q1, q3, p95, p99; /* type-7 percentiles */
    double iqr;              /* q3 - q1 */
    double mad;              /* median of |x - median|, unscaled */
    double trimmed_mean;     /* 20-80%: mean after cutting floor(0.2 n) each end */
    struct stats_mode mode;
    struct stats_outliers outliers;
};

/* The BYTEmark stopping rule's answer for the runs so far. */
enum stats_bytemark_state {
    STATS_BM_MORE = 0,       /* run again: fewer than 5 runs or not within 5% */
    STATS_BM_DONE = 1,       /* half-interval within 5% of the mean */
    STATS_BM_UNCERTAIN = 2   /* 30 runs and still not within 5%: report
                                "not 95% statistically certain" */
};

struct stats_bytemark {
    double t;                /* Student-t 95% critical value for n - 1 df */
    double half;             /* t * sd / sqrt(n): 95% half-interval of the mean */
    double rel_half;         /* half / mean */
    enum stats_bytemark_state state;
};

/* Verdict of a two-sample comparison (A against B, times: smaller is
 * faster).  One p decides, Mann-Whitney's on the raw samples (mw_p): a
 * difference is called when it is below STATS_ALPHA, the medians differ by
 * more than the noise threshold, and the medians and the ranks (U of A
 * against na nb / 2) point the same way.  Welch's p, raw and within the
 * pooled outer fences, and Karsh's Z are reported for reference only: they
 * do not decide (docs/statistics.md, "An A/B comparison"). */
enum stats_verdict {
    STATS_NO_DIFFERENCE = 0,
    STATS_FASTER = 1,        /* A is faster (smaller) than B */
    STATS_SLOWER = 2         /* A is slower (larger) than B */
};

/* Two-sample comparison of A against B.  Differences are A - B, relative
 * differences (A - B) / B (Karsh's "rel diff"). */
struct stats_compare {
    size_t na, nb;
    double diff_mean, rel_mean;
    double diff_median, rel_median;
    double diff_mode, rel_mode;
    /* Karsh: Z = |mean_a - mean_b| / sqrt(sa^2/na + sb^2/nb), sample sds;
     * p = two-sided normal tail probability erfc(Z / sqrt 2). */
    double karsh_z, karsh_p;
    /* Welch's t (unequal variances), Welch-Satterthwaite df, two-sided p
     * (as scipy.stats.ttest_ind(a, b, equal_var=False)). */
    double welch_t, welch_df, welch_p;
    /* Mann-Whitney U of A (number of pairs with a > b, ties counting 1/2),
     * normal approximation with tie correction and continuity correction,
     * two-sided p (as scipy.stats.mannwhitneyu(a, b, method='asymptotic',
     * use_continuity=True)). */
    double mw_u, mw_z, mw_p;
    /* For reference (it does not decide), robust to a few wild values (a
     * preemption, an emulator exit, an SMI): Welch's t on the values of A and B that lie
     * within the pooled outer Tukey fences [Q1 - 3 IQR, Q3 + 3 IQR], the
     * quartiles taken over A and B together (type 7, as everywhere here), so
     * both samples are cut by the same rule.  out_a, out_b: values outside. */
    double fence_lo, fence_hi;
    size_t out_a, out_b;
    double fenced_diff_mean, fenced_welch_p;
    double noise;            /* the noise threshold used (relative) */
    enum stats_verdict verdict;
};

/* ---- sorting and order statistics (stats/order.c) --------------------- */

/* Sort in place, ascending (heapsort: O(n log n), no recursion, no memory). */
void stats_sort_u64(uint64_t *x, size_t n);
/* Sort doubles in place, ascending.  NaNs are not allowed. */
void stats_sort_double(double *x, size_t n);

/* Type-7 percentile p in [0, 100] of sorted data (see Conventions); NaN
 * for n = 0 or p outside [0, 100]. */
double stats_percentile_sorted_u64(const uint64_t *sorted, size_t n, double p);
double stats_percentile_sorted_double(const double *sorted, size_t n, double p);

/* Median absolute deviation of sorted data around its median, unscaled
 * (multiply by 1.4826 to estimate sd for normal data).  O(n), no memory. */
double stats_mad_sorted_u64(const uint64_t *sorted, size_t n);
double stats_mad_sorted_double(const double *sorted, size_t n);

/* ---- summary (stats/summary.c) ---------------------------------------- */

/* Full summary of x[0..n-1].  scratch must hold n values; on return it
 * holds x sorted ascending (pass it to stats_compare_*; scratch == x is
 * allowed when the caller does not need the collection order).  opt may be
 * NULL.  Returns 0, or -1 when scratch is NULL while n > 0 (or, for
 * doubles, when a value is not finite); out is then filled with n and NaNs. */
int stats_summary_u64(const uint64_t *x, size_t n, uint64_t *scratch,
                      const struct stats_options *opt, struct stats_summary *out);
int stats_summary_double(const double *x, size_t n, double *scratch,
                         const struct stats_options *opt, struct stats_summary *out);

/* ---- mode (stats/mode.c) ---------------------------------------------- */

/* Karsh's iterative mode of sorted data with nbins bins per pass and at
 * most max_passes passes (0 selects the defaults: as many bins as samples,
 * 16 passes), ending on the most frequent exact value (struct stats_mode). */
void stats_mode_sorted_u64(const uint64_t *sorted, size_t n, unsigned nbins,
                           unsigned max_passes, struct stats_mode *out);
void stats_mode_sorted_double(const double *sorted, size_t n, unsigned nbins,
                              unsigned max_passes, struct stats_mode *out);

/* ---- outliers (stats/outliers.c) -------------------------------------- */

/* Fences and counts for sorted data with the given median and MAD. */
void stats_outliers_sorted_u64(const uint64_t *sorted, size_t n, double median,
                               double mad, struct stats_outliers *out);
void stats_outliers_sorted_double(const double *sorted, size_t n, double median,
                                  double mad, struct stats_outliers *out);

/* Classify one value: STATS_OUT_* flags. median/mad as for the summary. */
int stats_outlier_class(double x, const struct stats_outliers *o,
                        double median, double mad);

/* ---- histogram (stats/histogram.c) ------------------------------------ */

/* Bin index of x in nbins equal bins over [lo, hi]: floor((x - lo) * nbins
 * / (hi - lo)), the top bin holding hi (Karsh's LongArrayBin); all in bin 0
 * when hi == lo.  The uint64 form is exact while (hi - lo) * nbins fits in
 * 64 bits.  x must lie in [lo, hi]. */
size_t stats_bin_index_u64(uint64_t x, uint64_t lo, uint64_t hi, size_t nbins);
size_t stats_bin_index_double(double x, double lo, double hi, size_t nbins);

/* Count x[0..n-1] into counts[0..nbins-1] over [lo, hi] (counts are zeroed
 * first).  Values outside [lo, hi] are not counted; returns how many were
 * left out.  Use the same lo/hi for two samples to draw them on one scale. */
size_t stats_histogram_u64(const uint64_t *x, size_t n, uint64_t lo, uint64_t hi,
                           size_t *counts, size_t nbins);
size_t stats_histogram_double(const double *x, size_t n, double lo, double hi,
                              size_t *counts, size_t nbins);

/* Lower edge of bin k (k = nbins gives hi): lo + k * (hi - lo) / nbins. */
double stats_bin_edge(double lo, double hi, size_t nbins, size_t k);

/* ASCII histogram (Karsh's figure 2) into buf[0..cap-1], NUL-terminated,
 * one line per bin: "  lower-edge .. upper-edge  count |####".  Lines are at
 * most `cols` columns (clamped to 8..STATS_RENDER_MAX_COLS) including the
 * newline; bars are scaled to the fullest bin.  Returns the length the
 * whole text needs (like snprintf: >= cap means it was truncated). */
size_t stats_render_histogram(char *buf, size_t cap, const size_t *counts,
                              size_t nbins, double lo, double hi, unsigned cols);

/* ASCII strip of raw samples in collection order (Karsh's figure 3): a
 * chart of `rows` lines, time upward, samples left to right, each column
 * covering ceil(n / plot width) consecutive samples and marking every row
 * one of them falls in; each line is labelled with the lower edge of
 * its value band.  Width limited to `cols` (<= 80).  Returns as
 * stats_render_histogram. */
size_t stats_render_strip_u64(char *buf, size_t cap, const uint64_t *x, size_t n,
                              unsigned rows, unsigned cols);
size_t stats_render_strip_double(char *buf, size_t cap, const double *x, size_t n,
                                 unsigned rows, unsigned cols);

/* ---- Student t and BYTEmark's rule (stats/student_t.c) ---------------- */

/* Two-sided 95% critical value of Student's t for df degrees of freedom
 * (t such that P(|T| > t) = 0.05), for every df >= 1 (1.959964 as df grows);
 * NaN for df = 0.  Agrees with BYTEmark's table (df 1..29) to 3 decimals. */
double stats_t95(unsigned long df);

/* BYTEmark's rule for n runs so far with the given mean and sample sd:
 * half = t95(n - 1) * sd / sqrt(n); state DONE when n >= 5 and
 * half / mean <= 0.05, UNCERTAIN when n >= 30 and not, MORE otherwise
 * (n < 5 is always MORE; half and rel_half are NaN for n < 2). */
void stats_bytemark_rule(size_t n, double mean, double sd_sample,
                         struct stats_bytemark *out);

/* ---- special functions (stats/special.c) ------------------------------ */

/* Regularized incomplete beta I_x(a, b) for a, b > 0, x in [0, 1]. */
double stats_betainc(double a, double b, double x);

/* Two-sided p-value of Student's t with (possibly fractional) df > 0:
 * P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2). */
double stats_t_p_two_sided(double t, double df);

/* Two-sided normal tail probability P(|Z| >= |z|) = erfc(|z| / sqrt 2). */
double stats_normal_p_two_sided(double z);

/* ---- binomial quantiles (stats/binomial.c) ----------------------------- */

/* The q-quantile of Bin(n, p): the smallest k with P(X <= k) >= q (as
 * scipy.stats.binom.ppf).  Exact to the last count for every n of 32 bits:
 * the pmf is summed relative to its mode's term (no (1 - p)^n underflow,
 * no lgamma).  p <= 0 or q <= 0 gives 0; p >= 1 or q >= 1 gives n. */
uint32_t stats_binom_quantile(uint32_t n, double p, double q);

/* ---- paired samples (stats/paired.c) ----------------------------------- */

/* Wilcoxon's signed-rank test of pairs (a_i, b_i) through d_i = a_i - b_i,
 * and the signed effect.  Zeros carry no sign and are dropped before
 * ranking (Wilcoxon's rule, scipy's zero_method='wilcox'); ties among |d|
 * take midranks.  w_plus is the rank sum of the positive d; z its
 * tie-corrected normal score (no continuity correction), positive when a
 * tends to exceed b.  p is two-sided: exact (exact = 1) from the sign-flip
 * distribution of w_plus over all 2^m sign patterns of the m nonzero d
 * given their ranks (valid with ties and a coarse counter grid: the
 * permutation test on the ranks) when m <= STATS_SIGNED_RANK_EXACT_MAX and
 * the caller gives room; else erfc(|z| / sqrt 2) (as scipy.stats.wilcoxon(
 * d, method='approx', correction=False)). */
#define STATS_SIGNED_RANK_EXACT_MAX 200
/* Doubles of work the exact distribution needs for m nonzero differences. */
#define STATS_SIGNED_RANK_WORK(m) ((size_t)(m) * ((size_t)(m) + 1) + 1)

struct stats_paired {
    size_t n;                /* pairs */
    size_t nonzero, positive;/* d != 0; d > 0 */
    double mean_diff;        /* mean of d (the signed effect, a - b) */
    double sd_diff;          /* sample sd of d */
    double mean_half95;      /* t95(n - 1) sd / sqrt(n): 95% half-interval of mean_diff */
    double median_diff;      /* median of d (type 7) */
    double w_plus, z, p;
    int exact;               /* 1: p from the exact sign-flip distribution */
};

/* d[0..n-1] (finite); scratch holds n doubles (d sorted on return); work
 * (NULL: the normal approximation only) holds work_len doubles.  Returns
 * 0, or -1 when scratch is missing or a d is not finite (out then NaNs). */
int stats_signed_rank(const double *d, size_t n, double *scratch, double *work, size_t work_len,
                      struct stats_paired *out);

/* ---- two samples (stats/compare.c) ------------------------------------ */

/* Karsh's Z and its two-sided probability from means and sample sds. */
void stats_karsh_z(double mean_a, double sd_a, size_t na, double mean_b,
                   double sd_b, size_t nb, double *z, double *p);

/* Welch's t-test from means and sample variances; NaNs when na < 2 or
 * nb < 2 or both variances are 0 with equal means; t = +-infinity, p = 0
 * (df NaN) when both variances are 0 and the means differ (as scipy). */
void stats_welch(double mean_a, double var_a, size_t na, double mean_b,
                 double var_b, size_t nb, double *t, double *df, double *p);

/* Mann-Whitney U of A from two sorted samples (merged in O(na + nb), no
 * memory), tie-corrected normal approximation; use_continuity adds
 * scipy's 0.5 continuity correction.  NaNs for an empty sample; z = 0 and
 * p = 1 when every value is tied. */
void stats_mann_whitney_sorted_u64(const uint64_t *a, size_t na, const uint64_t *b,
                                   size_t nb, int use_continuity,
                                   double *u, double *z, double *p);
void stats_mann_whitney_sorted_double(const double *a, size_t na, const double *b,
                                      size_t nb, int use_continuity,
                                      double *u, double *z, double *p);

/* Full comparison of A against B from their summaries and their sorted
 * data (the scratch arrays the summaries left sorted).  noise is the
 * smallest relative difference of medians worth calling a difference
 * (e.g. 0.01 for 1%; negative means 0).  Verdict: FASTER or SLOWER only
 * when Mann-Whitney's p < 0.05 AND |rel_median| > noise AND the medians
 * and the ranks point the same way; otherwise NO_DIFFERENCE. */
void stats_compare_sorted_u64(const uint64_t *sorted_a, const struct stats_summary *sa,
                              const uint64_t *sorted_b, const struct stats_summary *sb,
                              double noise, struct stats_compare *out);
void stats_compare_sorted_double(const double *sorted_a, const struct stats_summary *sa,
                                 const double *sorted_b, const struct stats_summary *sb,
                                 double noise, struct stats_compare *out);

/* Short name of a verdict: "faster", "slower", "no difference". */
const char *stats_verdict_name(enum stats_verdict v);

/* ---- an A/B pair's ratio (stats/ab.c; docs/statistics.md "An A/B
 * comparison") ---------------------------------------------------------- */

/* Which side of a pair is faster: the side Mann-Whitney points to.  A when
 * more of the m n pairs (a_i, b_j) have b_j > a_i than a_i > b_j (U of A
 * below m n / 2), B when fewer, none when as many. */
enum stats_ab_side { STATS_AB_NONE = 0, STATS_AB_A = 1, STATS_AB_B = 2 };

/* Hodges-Lehmann on more pairs than this: no ratio (the p and the side
 * still come out); 2^22 pairs is 32 MiB of work. */
#define STATS_AB_PAIRS_MAX (1u << 22)

/* Doubles of work stats_ab needs for samples of na and nb values. */
#define STATS_AB_WORK(na, nb) \
    ((na) + (nb) + ((double)(na) * (double)(nb) <= STATS_AB_PAIRS_MAX ? (na) * (nb) : 0))

struct stats_ab {
    enum stats_ab_side faster;
    /* The slower's time over the faster's (B over A when neither is):
     * exp of the median of the m n values log(slow_i) - log(fast_j)
     * (Hodges-Lehmann on the logs), and its distribution-free 95%
     * interval (Bauer 1972): with c = floor(mn/2 - 1.959964 sqrt(mn (m + n
     * + 1) / 12)), at least 0, lo = exp(d[c]), hi = exp(d[mn - 1 - c]) of
     * the sorted values.  NAN when a sample is 0 or below (no logarithm)
     * or the pairs exceed STATS_AB_PAIRS_MAX. */
    double estimate, lo, hi;
    /* Mann-Whitney two-sided p: normal approximation, tie and continuity
     * corrected (scipy.stats.mannwhitneyu(a, b, use_continuity=True,
     * method='asymptotic')); u is U of A (pairs with a_i > b_j, ties 1/2). */
    double p, u;
};

/* The ratio, its interval, its p and the faster side of samples a and b,
 * taken as they are (nothing subtracted).  work holds STATS_AB_WORK(na, nb)
 * doubles.  Returns 0, or -1 (out all NAN, faster NONE) when a sample is
 * empty, a value is not finite or work is NULL. */
int stats_ab(const double *a, size_t na, const double *b, size_t nb, double *work, struct stats_ab *out);

/* "a", "b", "none". */
const char *stats_ab_side_name(enum stats_ab_side s);

/* ---- change points in a series (stats/changepoint.c) ------------------ */

struct stats_cp_params {
    double alpha;           /* a split is a change when Welch's p < alpha (e.g. 0.001) */
    double alpha_strong;    /* ... and a strong one below this (e.g. 1e-5) */
    size_t min_size;        /* at least this many points on each side (0: 1) */
    double alpha_split;     /* 0, or a weaker p (above alpha) for the splitting pass: every
                             * split it keeps is then re-tested between its neighbours at
                             * alpha, weakest first (Hunter's split and merge): a step that
                             * comes back, whose first split mixes both levels, is found */
    int family;             /* 1: a split's p is Welch's times the number of splits its segment
                             * allows (Bonferroni), so alpha bounds the chance that a flat
                             * segment shows a change at any split, not at one given split */
    unsigned perm;          /* 0, or with family: a segment of at most STATS_CP_PERM_MAX points
                             * whose points scatter more than STATS_CP_SCATTER times what their
                             * intervals (hw) say, or have none, must also pass a permutation
                             * test of its largest split (this many random orderings, a fixed
                             * seed) at p < alpha_perm, which holds whatever the noise's
                             * distribution (not normal: Welch's df is about 2 with 3 runs a side) */
    double alpha_perm;      /* e.g. 0.01 */
    double *work;           /* with perm: STATS_CP_PERM_MAX doubles of the caller's */
};

#define STATS_CP_SCATTER    2           /* runs scattering more than this many times their intervals' sd */
#define STATS_CP_PERM_MAX   60          /* longer segments: Welch's test alone (its t is then near normal) */
#define STATS_CP_PERM_SEED  0x9e3779b97f4a7c15ull

/* The permutation p of the largest size-weighted difference of means
 * over the splits of x[0..n) with at least min points a side (the
 * statistic the split is chosen by): (1 + the orderings among perm random
 * ones, Fisher-Yates from xorshift64 seeded with seed, whose largest is at
 * least the series') / (perm + 1).  work: n doubles.  1 when no split. */
double stats_cp_perm_p(const double *x, size_t n, size_t min, unsigned perm, uint64_t seed, double *work);

struct stats_change {
    size_t at;              /* index of the first point after the change */
    size_t from, to;        /* the segments compared: [from, at) and [at, to) */
    double before, after;   /* their means */
    double before_lo, before_hi, after_lo, after_hi;   /* 95% intervals of the means */
    double before_hw, after_hw;     /* the runs' own mean interval half-widths (NAN: none) */
    double p;               /* Welch's two-sided p between the two segments */
    double perm_p;          /* the permutation p its segment passed (NAN: not tested, long segment or perm 0) */
    int strong;             /* p < alpha_strong */
};

/* Change points of x[0..n) by E-Divisive means with a t-test (Hunter):
 * split at the largest size-weighted difference of means, keep the split
 * when Welch's p < alpha and the step exceeds the runs' own uncertainty
 * (hw[i]: run i's interval half-width, NULL for none), recurse, then
 * re-test each change between its neighbours.  Writes at most cap changes
 * in order; scratch holds 3 (n + 1) size_t.  Returns how many. */
size_t stats_changepoints(const double *x, const double *hw, size_t n, const struct stats_cp_params *par,
                          struct stats_change *out, size_t cap, size_t *scratch);

#endif
