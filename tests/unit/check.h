/*
 * tests/unit/check.h - the smallest test harness that says what failed.
 *
 * Every check prints one line, "PASS: <what>" or "FAIL: <what> (<detail>)";
 * tests/run.sh counts those lines.  main() ends with `return check_done();`
 * which exits nonzero when anything failed.
 */
#ifndef BAREMARK_CHECK_H
#define BAREMARK_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures_, check_passes_;

static inline int check_report_(int ok, const char *what, const char *detail)
{
    if (ok) {
        check_passes_++;
        printf("PASS: %s\n", what);
    } else {
        check_failures_++;
        printf("FAIL: %s (%s)\n", what, detail);
    }
    return ok;
}

/* CHECK(cond, what): a named boolean check. */
#define CHECK(cond, what) check_report_(!!(cond), (what), #cond)

/* CHECK_EQ_U64 / CHECK_EQ_I64: exact integer equality with both values shown. */
#define CHECK_EQ_I64(got, want, what) do { \
        long long g_ = (long long)(got), w_ = (long long)(want); char d_[128]; \
        snprintf(d_, sizeof d_, "got %lld, want %lld", g_, w_); \
        check_report_(g_ == w_, (what), d_); } while (0)
#define CHECK_EQ_U64(got, want, what) do { \
        unsigned long long g_ = (got), w_ = (want); char d_[128]; \
        snprintf(d_, sizeof d_, "got %llu, want %llu", g_, w_); \
        check_report_(g_ == w_, (what), d_); } while (0)

/* CHECK_NEAR: |got - want| <= tol (absolute); NaN never passes unless both are NaN. */
#define CHECK_NEAR(got, want, tol, what) do { \
        double g_ = (got), w_ = (want), t_ = (tol); char d_[160]; \
        snprintf(d_, sizeof d_, "got %.17g, want %.17g, tol %g", g_, w_, t_); \
        check_report_((isnan(g_) && isnan(w_)) || fabs(g_ - w_) <= t_, (what), d_); } while (0)

/* CHECK_STR: string equality. */
#define CHECK_STR(got, want, what) do { \
        const char *g_ = (got), *w_ = (want); char d_[256]; \
        snprintf(d_, sizeof d_, "got \"%.100s\", want \"%.100s\"", g_ ? g_ : "(null)", w_); \
        check_report_(g_ && strcmp(g_, w_) == 0, (what), d_); } while (0)

static inline int check_done(void)
{
    printf("# %d passed, %d failed\n", check_passes_, check_failures_);
    return check_failures_ != 0;
}

#endif
