/*
 * stats/binomial.c - quantiles of the binomial distribution, for every n a
 * 32-bit count can hold.
 *
 * The pmf is never formed as (1 - p)^n (which underflows to 0 once
 * n log(1/(1-p)) passes 745, n = 1075 for p = 0.5) nor from lgamma (whose
 * error grows with n).  Instead each term is taken relative to the term at
 * the mode, r_k = pmf(k) / pmf(mode), by the ratio recurrence
 * pmf(k+1) / pmf(k) = (n - k) p / ((k + 1)(1 - p)), walking out from the
 * mode until a term falls below BINOM_NEGLIGIBLE.  The sum of the walked
 * terms is the normaliser (the pmf sums to 1), so no absolute pmf value is
 * needed; a tail is summed from its small end (the numerically kind
 * order), the lower tail for q <= 1/2 and the upper one otherwise.
 */
#include <math.h>

#include "stats.h"

/* Terms below this, relative to the mode's (which is 1), are left out:
 * they change no sum a double can hold, and no quantile for q between
 * 1e-290 and 1 - 1e-16; it stays above the smallest normal double. */
#define BINOM_NEGLIGIBLE 1e-300

/* pmf(k + 1) / pmf(k). */
static double binom_up(double n, double k, double odds)
{
    return (n - k) / (k + 1) * odds;
}

/* The walked range [lo, hi] around the mode, and the sum of its terms. */
struct binom_range {
    uint32_t lo, hi, mode;
    double sum, r_lo, r_hi;     /* sum of r_lo..r_hi; the two end terms */
};

static void binom_range(uint32_t n, double p, struct binom_range *b)
{
    double odds = p / (1 - p), nn = (double)n, r;
    double mode = floor((nn + 1) * p);
    b->mode = mode > nn ? n : (uint32_t)mode;
    b->sum = b->r_lo = b->r_hi = 1;
    b->lo = b->hi = b->mode;
    while (b->lo > 0 && (r = b->r_lo / binom_up(nn, (double)b->lo - 1, odds)) >= BINOM_NEGLIGIBLE) {
        b->sum += r;
        b->r_lo = r;
        b->lo--;
    }
    while (b->hi < n && (r = b->r_hi * binom_up(nn, (double)b->hi, odds)) >= BINOM_NEGLIGIBLE) {
        b->sum += r;
        b->r_hi = r;
        b->hi++;
    }
}

uint32_t stats_binom_quantile(uint32_t n, double p, double q)
{
    struct binom_range b;
    if (!(p > 0) || n == 0 || !(q > 0))
        return 0;
    if (!(p < 1) || !(q < 1))
        return n;
    double odds = p / (1 - p), nn = (double)n;
    binom_range(n, p, &b);
    if (q <= 0.5) {     /* smallest k with sum_{j<=k} r_j >= q S, from the left end */
        double want = q * b.sum, r = b.r_lo, c = r;
        uint32_t k = b.lo;
        while (c < want && k < b.hi) {
            r *= binom_up(nn, (double)k, odds);
            k++;
            c += r;
        }
        return k;
    }
    /* P(X <= k) >= q  <=>  P(X > k) <= 1 - q: the upper tail from the right end */
    double want = (1 - q) * b.sum, r = b.r_hi, tail = 0;
    uint32_t k = b.hi;
    while (k > b.lo && tail + r <= want) {
        tail += r;
        r /= binom_up(nn, (double)k - 1, odds);
        k--;
    }
    return k;
}
