/*
 * bench/clock/clock_math.c - the arithmetic of TSC calibration (see clock_math.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "clock_math.h"
#include "stats.h"

#define CLOCKM_MAX_WINDOWS 64

uint64_t clockm_counter_delta(uint64_t prev, uint64_t cur, unsigned bits, int down)
{
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    return (down ? prev - cur : cur - prev) & mask;
}

int clockm_window_eval(struct clockm_window *w)
{
    /* Edge times as the middles of their intervals, kept in half ticks so
     * the sums stay exact integers. */
    double mid0 = ((double)w->tsc0_lo + (double)w->tsc0_hi) / 2;
    double mid1 = ((double)w->tsc1_lo + (double)w->tsc1_hi) / 2;
    double elapsed = mid1 - mid0;
    double half0 = (double)(w->tsc0_hi - w->tsc0_lo) / 2;
    double half1 = (double)(w->tsc1_hi - w->tsc1_lo) / 2;

    w->khz = w->ppm = w->ms = NAN;
    if (w->ref_ticks == 0 || !(w->ref_hz > 0) || w->tsc0_hi < w->tsc0_lo ||
        w->tsc1_hi < w->tsc1_lo || !(elapsed > 0))
        return -1;
    /* elapsed TSC ticks over elapsed reference time */
    w->khz = elapsed * w->ref_hz / (double)w->ref_ticks / 1000.0;
    /* Each edge is off by at most half its interval: the worst case of the
     * two together, relative to the window. */
    w->ppm = (half0 + half1) / elapsed * 1e6;
    w->ms = (double)w->ref_ticks / w->ref_hz * 1000.0;
    return 0;
}

double clockm_median(const double *x, size_t n, double *scratch)
{
    for (size_t i = 0; i < n; i++) {       /* insertion sort: n is small */
        size_t j = i;
        for (; j > 0 && scratch[j - 1] > x[i]; j--)
            scratch[j] = scratch[j - 1];
        scratch[j] = x[i];
    }
    if (n == 0)
        return NAN;
    return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

/* Indices of the valid windows ordered by frequency; returns their count. */
static size_t clockm_sorted_valid(const struct clockm_window *w, size_t n, size_t *idx)
{
    size_t m = 0;
    for (size_t i = 0; i < n && m < CLOCKM_MAX_WINDOWS; i++) {
        if (isnan(w[i].khz))
            continue;
        size_t j = m++;
        for (; j > 0 && w[idx[j - 1]].khz > w[i].khz; j--)
            idx[j] = idx[j - 1];
        idx[j] = i;
    }
    return m;
}

int clockm_pick_window(struct clockm_window *w, size_t n)
{
    size_t idx[CLOCKM_MAX_WINDOWS];
    size_t m = clockm_sorted_valid(w, n, idx);
    double med, med_ppm;
    int best = -1;

    for (size_t i = 0; i < n; i++)
        w[i].rejected = isnan(w[i].khz);
    if (m == 0)
        return -1;
    if (m % 2) {
        med = w[idx[m / 2]].khz;
        med_ppm = w[idx[m / 2]].ppm;
    } else {
        const struct clockm_window *a = &w[idx[m / 2 - 1]], *b = &w[idx[m / 2]];
        med = (a->khz + b->khz) / 2;
        med_ppm = fmax(a->ppm, b->ppm) + fabs(clockm_ppm(b->khz, med));
    }
    for (size_t i = 0; i < n; i++) {
        if (w[i].rejected)
            continue;
        double off = fabs(clockm_ppm(w[i].khz, med));
        if (off > CLOCKM_REJECT_SIGMAS * (w[i].ppm + med_ppm)) {
            w[i].rejected = 1;
            continue;
        }
        if (best < 0 || w[i].ppm <= w[best].ppm)
            best = (int)i;
    }
    return best;
}

double clockm_ppm(double a, double b)
{
    return (a - b) / b * 1e6;
}

/* Does measured reference i win the vote among the measured ones? */
static int clockm_vote(const struct clockm_ref *r, size_t n, size_t i, double agree_ppm)
{
    int agree = 0, disagree = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == i || !r[j].valid || !r[j].measured)
            continue;
        if (fabs(clockm_ppm(r[i].khz, r[j].khz)) <= agree_ppm)
            agree++;
        else
            disagree++;
    }
    return agree >= disagree;
}

int clockm_choose(const struct clockm_ref *r, size_t n, double agree_ppm, int *contested)
{
    int first_measured = -1, first_stated = -1;

    *contested = 0;
    for (size_t i = 0; i < n; i++) {
        if (!r[i].valid)
            continue;
        if (!r[i].measured) {
            if (first_stated < 0)
                first_stated = (int)i;
            continue;
        }
        if (first_measured < 0)
            first_measured = (int)i;
        if (clockm_vote(r, n, i, agree_ppm))
            return (int)i;
    }
    if (first_measured >= 0) {
        *contested = 1;
        return first_measured;
    }
    return first_stated;
}

double clockm_round_ppm(double ppm)
{
    if (!isfinite(ppm))
        return ppm;
    if (fabs(ppm) < 1000)
        return round(ppm * 1000) / 1000;
    return round(ppm * 10) / 10;
}

void clockm_legacy_rates(int hypervisor_present, const char *hypervisor_vendor, const char *vm_hidden,
                         struct clockm_rates *out)
{
    const char *v = hypervisor_vendor ? hypervisor_vendor : "";
    if (!hypervisor_present && vm_hidden && !strcmp(vm_hidden, "QEMU")) {
        out->pit_hz = CLOCKM_PIT_QEMU_HZ;
        out->pm_hz = CLOCKM_PM_QEMU_HZ;
        out->basis = "emulated";
        out->why = "a hypervisor CPUID hides, named QEMU by the firmware's SMBIOS: QEMU's emulated rates "
                   "(PIT 1193182 Hz, PM timer 3579545 Hz)";
    } else if (!hypervisor_present && vm_hidden) {
        out->pit_hz = CLOCKM_PIT_CRYSTAL_HZ;
        out->pm_hz = CLOCKM_PM_CRYSTAL_HZ;
        out->basis = "crystal";
        out->why = "a hypervisor CPUID hides (the firmware's SMBIOS names a virtual machine): its emulated rates "
                   "are not known, the crystal's assumed";
    } else if (!hypervisor_present) {
        out->pit_hz = CLOCKM_PIT_CRYSTAL_HZ;
        out->pm_hz = CLOCKM_PM_CRYSTAL_HZ;
        out->basis = "crystal";
        out->why = "no hypervisor: the 14.31818 MHz crystal's rates (PIT 105/88 MHz, PM timer 315/88 MHz)";
    } else if (!strcmp(v, "TCGTCGTCGTCG") || !strcmp(v, "KVMKVMKVM")) {
        out->pit_hz = CLOCKM_PIT_QEMU_HZ;
        out->pm_hz = CLOCKM_PM_QEMU_HZ;
        out->basis = "emulated";
        out->why = !strcmp(v, "KVMKVMKVM")
            ? "hypervisor KVM: QEMU's and KVM's emulated rates (PIT 1193182 Hz, PM timer 3579545 Hz)"
            : "hypervisor QEMU (TCG): QEMU's emulated rates (PIT 1193182 Hz, PM timer 3579545 Hz)";
    } else {
        out->pit_hz = CLOCKM_PIT_CRYSTAL_HZ;
        out->pm_hz = CLOCKM_PM_CRYSTAL_HZ;
        out->basis = "crystal";
        out->why = "an unknown hypervisor: its emulated rates are not known, the crystal's assumed "
                   "(QEMU's rounded rates would differ by +0.152/-0.127 ppm)";
    }
}

/* ---- the counter's effective step ---------------------------------------------------- */

double clockm_step_fit(const uint64_t *inc, size_t n, double q)
{
    double c = 0, s = 0;
    size_t i = 0;
    if (!n || !(q > 0))
        return NAN;
    while (i < n) {     /* equal values share one angle */
        size_t j = i;
        while (j < n && inc[j] == inc[i])
            j++;
        double a = 6.283185307179586 * fmod((double)inc[i], q) / q;
        c += (double)(j - i) * cos(a);
        s += (double)(j - i) * sin(a);
        i = j;
    }
    return sqrt(c * c + s * s) / (double)n;
}

/* The scan's stride at q: a change of q by q^2 / (8 d_max) turns the
 * largest increment's angle by pi / 4, so no peak of R whose top is
 * above the threshold is stepped over. */
static double clockm_step_stride(double q, double dmax)
{
    return q * q / (8 * dmax);
}

int clockm_step_estimate(uint64_t *inc, size_t n, struct clockm_step *out)
{
    size_t lo = 0, m;
    memset(out, 0, sizeof *out);
    out->fit = NAN;
    stats_sort_u64(inc, n);
    while (lo < n && inc[lo] == 0)
        lo++;
    out->zeros = (uint32_t)lo;
    m = n - lo;
    if (m) {    /* the disturbed: far above the median of the positive increments */
        double med = (double)inc[lo + (m - 1) / 2] / 2 + (double)inc[lo + m / 2] / 2;
        while (m && (double)inc[lo + m - 1] > CLOCKM_STEP_DISTURBED * med)
            m--;
        out->dropped = (uint32_t)(n - lo - m);
    }
    inc += lo;
    out->reads = (uint32_t)m;
    if (m < CLOCKM_STEP_MIN_READS) {
        snprintf(out->why, sizeof out->why, "%zu usable reads, under %d", m, CLOCKM_STEP_MIN_READS);
        return -1;
    }
    out->min_ticks = inc[0];
    out->max_ticks = inc[m - 1];
    double dmin = (double)inc[0], dmax = (double)inc[m - 1], top = dmin + CLOCKM_STEP_JITTER;
    if (dmax - dmin < CLOCKM_STEP_SPAN * top) {
        snprintf(out->why, sizeof out->why, "the reads span %.0f ticks, under %d x %.0f: a step that large "
                 "could not be told", dmax - dmin, CLOCKM_STEP_SPAN, top);
        return -1;
    }
    /* Down from the top to the first q that fits, then the peak of R near it
     * (the scan meets a peak on its upper flank; its top is at most about
     * 4 strides below). */
    double q = top, r = 0;
    while (q >= 2) {
        r = clockm_step_fit(inc, m, q);
        if (r >= CLOCKM_STEP_FIT)
            break;
        q -= clockm_step_stride(q, dmax);
    }
    if (q < 2) {
        out->q = 1;
        out->ticks = 1;
        out->fit = clockm_step_fit(inc, m, 1);
        return 0;
    }
    double stride = clockm_step_stride(q, dmax), best = q, best_r = r;
    for (int k = -80; k <= 10; k++) {
        double c = q + stride * k / 10.0;
        double rc = c >= 1 && c <= top ? clockm_step_fit(inc, m, c) : 0;
        if (rc > best_r) {
            best_r = rc;
            best = c;
        }
    }
    out->q = best;
    out->fit = best_r;
    out->ticks = best < 1.5 ? 1 : (uint64_t)llround(best);
    return 0;
}
