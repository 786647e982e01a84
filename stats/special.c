/*
 * stats/special.c - the special functions behind the p-values: the
 * regularized incomplete beta function (continued fraction evaluated with
 * the modified Lentz method) and the two-sided tails of t and the normal.
 */
#include <math.h>

#include "stats.h"

/* Continued-fraction tolerances: relative step below which the fraction
 * has converged, the floor that keeps Lentz's method away from 0, and an
 * iteration bound generous enough for df around 10^7. */
#define BETA_CF_EPS   1e-15
#define BETA_CF_TINY  1e-300
#define BETA_CF_MAX   200000

/* Continued fraction for I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    if (fabs(d) < BETA_CF_TINY)
        d = BETA_CF_TINY;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= BETA_CF_MAX; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
        d = 1.0 + num * d;
        c = 1.0 + num / c;
        d = 1.0 / (fabs(d) < BETA_CF_TINY ? BETA_CF_TINY : d);
        c = fabs(c) < BETA_CF_TINY ? BETA_CF_TINY : c;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
        d = 1.0 + num * d;
        c = 1.0 + num / c;
        d = 1.0 / (fabs(d) < BETA_CF_TINY ? BETA_CF_TINY : d);
        c = fabs(c) < BETA_CF_TINY ? BETA_CF_TINY : c;
        double step = d * c;
        h *= step;
        if (fabs(step - 1.0) < BETA_CF_EPS)
            break;
    }
    return h;
}

/* I_x(a, b) given x and y = 1 - x separately, so callers that know 1 - x
 * more precisely than the subtraction would give can pass it. */
static double betainc_xy(double a, double b, double x, double y)
{
    if (!(a > 0 && b > 0) || !(x >= 0 && x <= 1))
        return NAN;
    if (x == 0)
        return 0.0;
    if (y == 0)
        return 1.0;
    double lfront = a * log(x) + b * log(y) + lgamma(a + b) - lgamma(a) - lgamma(b);
    if (x < (a + 1.0) / (a + b + 2.0))
        return exp(lfront) * beta_cf(a, b, x) / a;
    return 1.0 - exp(lfront) * beta_cf(b, a, y) / b;
}

double stats_betainc(double a, double b, double x)
{
    return betainc_xy(a, b, x, 1.0 - x);
}

double stats_t_p_two_sided(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(t))
        return 0.0;
    double t2 = t * t;
    return betainc_xy(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2));
}

double stats_normal_p_two_sided(double z)
{
    if (isnan(z))
        return NAN;
    return erfc(fabs(z) / sqrt(2.0));
}
