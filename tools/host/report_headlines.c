/*
 * tools/host/report_headlines.c - one line per section of the report: the
 * line its fold shows closed and the first screen's table repeats (see
 * report_glance.h; ADAPTER until bench/summary.h's lines are read).
 *
 * Each line answers the question a person opens that section with, with
 * units: which TSC rate and how sure, how quiet, what the cores and the
 * memory do, how the kernels score.  Text is plain; the page escapes it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report_glance.h"
#include "report_util.h"

/* A new line for section, formatted; later hl_cat calls append to it. */
static struct rg_headline *hl_new(struct rg_summary *s, const char *section)
{
    if (s->nlines >= RG_MAX_HEADLINES)
        return NULL;
    struct rg_headline *h = &s->lines[s->nlines++];
    h->section = section;
    h->text[0] = 0;
    return h;
}

static void hl_cat(struct rg_headline *h, const char *fmt, ...)
{
    if (!h)
        return;
    size_t len = strlen(h->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->text + len, sizeof h->text - len, fmt, ap);
    va_end(ap);
}

/* A number by fmt, "-" when the file gave none (or not a finite one). */
static const char *hl_n(char *b, size_t n, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(b, n, fmt, v);
    else
        snprintf(b, n, "-");
    return b;
}
#define HN(fmt, v) hl_n((char[32]){ 0 }, 32, fmt, v)

/* A size in bytes as KiB, MiB or GiB. */
static const char *hl_bytes(char *b, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(b, n, "-");
    else if (v >= 1 << 30)
        snprintf(b, n, "%g GiB", v / (1 << 30));
    else if (v >= 1 << 20)
        snprintf(b, n, "%g MiB", v / (1 << 20));
    else
        snprintf(b, n, "%g KiB", v / 1024);
    return b;
}

/* A time in ns, switched to us or ms when large. */
static const char *hl_ns(char *b, size_t n, double ns)
{
    if (!isfinite(ns))
        snprintf(b, n, "-");
    else if (fabs(ns) >= 1e6)
        snprintf(b, n, "%.3g ms", ns / 1e6);
    else if (fabs(ns) >= 1e3)
        snprintf(b, n, "%.3g us", ns / 1e3);
    else
        snprintf(b, n, "%.3g ns", ns);
    return b;
}

static void hl_machine(json_t *root, struct rg_summary *s)
{
    json_t *sys = json_object_get(root, "system"), *host = json_object_get(root, "host");
    json_t *m = json_is_object(sys) ? sys : host;
    if (!json_is_object(m))
        return;
    struct rg_headline *h = hl_new(s, "machine");
    double cpus = rj_num(m, "logical_cpus", NAN);
    hl_cat(h, "%s (%s", rj_str(m, "cpu_brand", "?"), rj_str(m, "cpu_vendor", "?"));
    if (isfinite(rj_num(m, "family", NAN)))
        hl_cat(h, " family %s", HN("%.0f", rj_num(m, "family", 0)));
    hl_cat(h, "), %s logical CPU%s", HN("%.0f", cpus), cpus == 1 ? "" : "s");
    if (m == host) {
        hl_cat(h, ", under %s (the hosted program)", rj_str(host, "os", "Linux"));
        return;
    }
    if (isfinite(rj_num(m, "memory_mib", NAN)))
        hl_cat(h, ", %s MiB", HN("%.0f", rj_num(m, "memory_mib", 0)));
    hl_cat(h, ", firmware %s", rj_str(m, "firmware_vendor", "?"));
    if (rj_str(m, "hypervisor", "")[0])
        hl_cat(h, ", under hypervisor %s", rj_str(m, "hypervisor", ""));
    else
        hl_cat(h, ", bare metal");
}

static void hl_clock(json_t *root, struct rg_summary *s)
{
    json_t *clock = json_object_get(root, "clock"), *refs, *el, *agree;
    const char *src;
    double khz, ppm = NAN;
    size_t i, others = 0;
    if (!json_is_object(clock))
        return;
    struct rg_headline *h = hl_new(s, "clock");
    khz = rj_num(clock, "chosen_khz", NAN);
    src = rj_str(clock, "source", "?");
    refs = rj_clock_refs(clock);
    json_array_foreach(refs, i, el) {
        if (!strcmp(rj_str(el, "name", ""), src))
            ppm = rj_num(el, "ppm", NAN);
        else
            others++;
    }
    hl_cat(h, "TSC %s MHz from the %s", HN("%.3f", khz / 1000), src);
    if (isfinite(ppm))
        hl_cat(h, " (+-%s ppm)", HN("%.3g", ppm));
    agree = json_object_get(clock, "agreement");
    if (others && json_is_object(agree))
        hl_cat(h, "; %zu other reference%s %s %s ppm", others, others == 1 ? "" : "s",
               rj_bool(agree, "agree", 0) ? "agree within" : "DISAGREE: they differ by up to",
               HN("%.3g", rj_num(agree, "max_measured_ppm", NAN)));
    if (rj_bool(clock, "contested", 0))
        hl_cat(h, "; contested");
}

static void hl_quiet(json_t *root, struct rg_summary *s)
{
    json_t *q = json_object_get(json_object_get(root, "clock"), "quiet");
    char b[32];
    if (!json_is_object(q))
        q = json_object_get(root, "quiet");     /* the hosted program's document */
    if (!json_is_object(q))
        return;
    struct rg_headline *h = hl_new(s, "quiet");
    double hz = rj_num(q, "tick_hz", NAN);
    hl_cat(h, "largest gap %s; %s gaps over 1 us in %s ms, interrupts %s",
           hl_ns(b, sizeof b, rj_num(q, "max_gap_ticks", NAN) * 1e9 / hz), HN("%.0f", rj_num(q, "gaps_over_1us", NAN)),
           HN("%.0f", rj_num(q, "ms", NAN)), rj_bool(q, "masked", 0) ? "masked" : "on");
    if (rj_str(json_object_get(root, "system"), "hypervisor", "")[0])
        hl_cat(h, " (under a hypervisor the gaps are the host's)");
}

/* The AP whose TSC offset is largest, and the slowest core-to-core median. */
static void hl_cores(json_t *root, struct rg_summary *s)
{
    json_t *cores = json_object_get(root, "cores"), *el, *row, *v;
    size_t i, k, j;
    double worst = 0, unc = NAN, cpu = NAN, lat = NAN;
    char b1[32], b2[32];
    if (!json_is_object(cores))
        return;
    struct rg_headline *h = hl_new(s, "cores");
    hl_cat(h, "%s CPU%s", HN("%.0f", rj_num(cores, "count", NAN)), rj_num(cores, "count", 0) == 1 ? "" : "s");
    json_array_foreach(json_object_get(json_object_get(cores, "tsc"), "cpus"), i, el) {
        double off = rj_num(el, "offset_ns", NAN);
        if (isfinite(off) && (isnan(cpu) || fabs(off) > fabs(worst))) {
            worst = off;
            unc = rj_num(el, "offset_uncertainty_ns", NAN);
            cpu = rj_num(el, "cpu", NAN);
        }
    }
    if (!isnan(cpu))
        hl_cat(h, "; largest TSC offset %s +- %s (CPU %s)", hl_ns(b1, sizeof b1, worst), hl_ns(b2, sizeof b2, unc),
               HN("%.0f", cpu));
    json_array_foreach(json_object_get(json_object_get(cores, "latency"), "median_ns"), k, row)
        json_array_foreach(row, j, v)
            if (json_is_number(v) && isfinite(json_number_value(v)) && (isnan(lat) || json_number_value(v) > lat))
                lat = json_number_value(v);
    if (!isnan(lat))
        hl_cat(h, "; slowest core-to-core round trip %s (median)", hl_ns(b1, sizeof b1, lat));
    if (json_array_size(json_object_get(cores, "warnings")))
        hl_cat(h, "; %zu warning%s", json_array_size(json_object_get(cores, "warnings")),
               json_array_size(json_object_get(cores, "warnings")) == 1 ? "" : "s");
}

static void hl_plugins(json_t *root, struct rg_summary *s)
{
    json_t *p = json_object_get(root, "plugins");
    if (!json_is_object(p))
        return;
    struct rg_headline *h = hl_new(s, "plugins");
    if (!json_array_size(json_object_get(p, "files")))
        hl_cat(h, "no plug-in found in %s", rj_str(p, "folder", "the plug-in folder"));
    else
        hl_cat(h, "%s loaded, %s rejected, %s routine(s) ready to time", HN("%.0f", rj_num(p, "loaded", NAN)),
               HN("%.0f", rj_num(p, "rejected", NAN)), HN("%.0f", rj_num(p, "routines_ready", NAN)));
}

static void hl_methods(json_t *root, struct rg_summary *s)
{
    json_t *m = json_object_get(root, "methods"), *el;
    size_t i, ok = 0, n;
    double lo = NAN, hi = NAN;
    const char *lo_name = "?";
    if (!m)
        return;
    struct rg_headline *h = hl_new(s, "methods");
    json_array_foreach(rj_methods_list(m), i, el) {
        double med = rj_num(json_object_get(el, "overhead"), "median", NAN);
        if (!isfinite(med))
            continue;
        if (isnan(lo) || med < lo) {
            lo = med;
            lo_name = rj_name(el, "?");
        }
        if (isnan(hi) || med > hi)
            hi = med;
    }
    n = json_array_size(json_object_get(m, "measurements"));
    json_array_foreach(json_object_get(m, "measurements"), i, el)
        ok += !strcmp(rj_str(el, "status", ""), "ok");
    hl_cat(h, "%zu methods, %zu targets, %zu of %zu measurements told apart from the placeholder",
           json_array_size(rj_methods_list(m)), s->ntargets, ok, n);
    if (!isnan(lo))
        hl_cat(h, "; overhead %s ticks (%s) to %s ticks (median)", HN("%.4g", lo), lo_name, HN("%.4g", hi));
}

static void hl_comparisons(json_t *root, struct rg_summary *s)
{
    json_t *c = json_object_get(root, "comparisons"), *el;
    size_t i, n = 0, diff = 0, controls = 0, bad = 0;
    if (!c)
        return;
    struct rg_headline *h = hl_new(s, "comparisons");
    json_array_foreach(rj_comparisons_list(c), i, el) {
        const char *v = rj_str(el, "verdict", "");
        n++;
        diff += !strcmp(v, "faster") || !strcmp(v, "slower");
        if (strcmp(rj_str(el, "expect", "none"), "none")) {
            controls++;
            bad += !rj_bool(el, "as_expected", 1);
        }
    }
    hl_cat(h, "%zu A/B comparison%s, %zu with a difference at 95%%", n, n == 1 ? "" : "s", diff);
    if (controls)
        hl_cat(h, "; %zu of %zu controls as expected", controls - bad, controls);
}

static void hl_bytemark(json_t *root, struct rg_summary *s)
{
    json_t *bm = json_object_get(root, "bytemark"), *idx, *el;
    size_t i, n = 0, certain = 0;
    if (!json_is_object(bm))
        return;
    struct rg_headline *h = hl_new(s, "bytemark");
    idx = json_object_get(bm, "indexes");
    json_array_foreach(rj_bytemark_tests(bm), i, el) {
        n++;
        certain += rj_bool(el, "certain", 0);
    }
    hl_cat(h, "integer index %s, floating-point %s (original BYTEmark); %zu of %zu kernels 95%% certain",
           HN("%.4g", rj_num(idx, "original_integer", NAN)), HN("%.4g", rj_num(idx, "original_fp", NAN)), certain, n);
    if (strcmp(rj_str(bm, "profile", ""), "full"))
        hl_cat(h, " (%s profile: indicative only)", rj_str(bm, "profile", "?"));
}

/* Load latency at the smallest size that fits each level, and the largest size. */
static void hl_memory(json_t *root, struct rg_summary *s)
{
    json_t *mem = json_object_get(root, "memory"), *el, *last = NULL, *bw;
    const char *prev = "";
    char b1[32], b2[32];
    size_t i;
    if (!json_is_object(mem))
        return;
    struct rg_headline *h = hl_new(s, "memory");
    hl_cat(h, "load latency");
    json_array_foreach(json_object_get(mem, "latency"), i, el) {
        const char *fits = rj_str(el, "fits", "");
        if (fits[0] && strcmp(fits, prev))
            hl_cat(h, "%s %s %s", *prev ? "," : "", fits, hl_ns(b1, sizeof b1, rj_num(el, "ns_median", NAN)));
        if (fits[0])
            prev = fits;
        last = el;
    }
    if (last)
        hl_cat(h, "%s %s at %s", *prev ? "," : "", hl_ns(b1, sizeof b1, rj_num(last, "ns_median", NAN)),
               hl_bytes(b2, sizeof b2, rj_num(last, "size_bytes", NAN)));
    bw = json_object_get(json_array_get(json_object_get(mem, "bandwidth"), 0), "read");
    if (json_is_object(bw))
        hl_cat(h, "; read %s GB/s", HN("%.3g", rj_num(bw, "best_bytes_per_s", NAN) / 1e9));
}

void rg_headlines(json_t *root, struct rg_summary *s)
{
    hl_machine(root, s);
    hl_clock(root, s);
    hl_quiet(root, s);
    hl_cores(root, s);
    hl_plugins(root, s);
    hl_methods(root, s);
    hl_comparisons(root, s);
    hl_bytemark(root, s);
    hl_memory(root, s);
}
