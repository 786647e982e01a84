/*
 * boot/progress.c - the console's progress lines (docs/console.md): one
 * line as each section starts and ends, numbered among the sections that
 * run, and out_progress's lines inside a long one, with the section's time
 * so far and an estimate of the time left:
 *
 *   [6/7] bytemark ...
 *   [6/7] bytemark: numsort done (1/10), 12 s so far, about 2 min left
 *   [6/7] bytemark: done in 2 min 5 s
 *
 * Times are the TSC's at the calibrated rate (0 before the clock section
 * has calibrated: no time is printed then).  The estimate is the time per
 * step so far times the steps left: steps of unequal length make it wrong
 * by their difference, so it says "about".
 */
#include <stdio.h>

#include "platform.h"
#include "progress.h"

static const char *progress_label;
static unsigned progress_index, progress_total;
static uint64_t progress_t0, progress_last;

/* "42 s", "3 min 5 s", "1 h 2 min". */
static void progress_time(char *out, size_t cap, uint64_t s)
{
    if (s < 60)
        snprintf(out, cap, "%llu s", (unsigned long long)s);
    else if (s < 3600)
        snprintf(out, cap, "%llu min %llu s", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
    else
        snprintf(out, cap, "%llu h %llu min", (unsigned long long)(s / 3600),
                 (unsigned long long)(s % 3600 / 60));
}

/* Seconds since the section started; -1 when the rate is not known yet. */
static int64_t progress_seconds(uint64_t now)
{
    uint64_t hz = plat_tick_hz();
    return hz ? (int64_t)((now - progress_t0) / hz) : -1;
}

void progress_section_begin(const char *label, unsigned index, unsigned total)
{
    progress_label = label;
    progress_index = index;
    progress_total = total;
    progress_t0 = progress_last = plat_ticks();
    out_show("[%u/%u] %s ...\n", index, total, label);
}

void progress_section_end(int status)
{
    char t[32];
    int64_t s = progress_seconds(plat_ticks());
    if (!progress_label)
        return;
    if (s >= 0) {
        progress_time(t, sizeof t, (uint64_t)s);
        out_show("[%u/%u] %s: done in %s%s\n", progress_index, progress_total, progress_label, t,
                 status ? ", with warnings" : "");
    } else
        out_show("[%u/%u] %s: done%s\n", progress_index, progress_total, progress_label,
                 status ? ", with warnings" : "");
    progress_label = NULL;
}

void out_progress(unsigned done, unsigned total, const char *what)
{
    char so_far[32], left[48] = "";
    uint64_t now = plat_ticks(), hz = plat_tick_hz();
    int64_t s;
    if (!progress_label || !hz || done > total)
        return;
    if (now - progress_last < PROGRESS_EVERY_S * hz)
        return;                         /* never more than one line in PROGRESS_EVERY_S */
    progress_last = now;
    s = progress_seconds(now);
    progress_time(so_far, sizeof so_far, (uint64_t)s);
    if (done && done < total) {
        /* the time per step so far times the steps left, to 10 s (a minute
         * past 5 minutes): a rounder figure than the estimate can claim */
        uint64_t rest = (uint64_t)s * (total - done) / done, unit = rest >= 300 ? 60 : 10;
        char r[32];
        rest = (rest + unit / 2) / unit * unit;
        progress_time(r, sizeof r, rest ? rest : unit);
        snprintf(left, sizeof left, ", about %s left", r);
    }
    out_show("[%u/%u] %s: %s done (%u/%u), %s so far%s\n", progress_index, progress_total, progress_label,
             what, done, total, so_far, left);
}
