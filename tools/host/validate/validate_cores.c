/*
 * tools/host/validate/validate_cores.c - the cores section: the CPU list, the TSC
 * of every CPU against the bootstrap processor, the latency matrix, the
 * per-core and all-core BYTEmark scores; the figures that are stated twice
 * (ticks and ns, intervals and their midpoints, sums and their parts,
 * round trips and one-way halves, SMT groups and their counts) must agree,
 * and the TSC read's fences must be the ones every CPU's answers allow.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures_cores.h"
#include "report_util.h"
#include "validate.h"

/* (z 0.975 + z 0.80) / z 0.975: detectable difference over the 95% half-width */
#define CORES_DETECT_OVER_HALF ((1.959964 + 0.841621) / 1.959964)

/* Ticks and ns agree at tick_hz (1e-6, or half a tick of rounding). */
static int cores_ns_ok(double ticks, double ns, double hz)
{
    double want = ticks * 1e9 / hz;
    return rv_close(want, ns) || fabs(want - ns) <= 0.5e9 / hz;
}

static int cores_has(json_t *arr, double v)
{
    json_t *x;
    size_t i;
    json_array_foreach(arr, i, x)
        if (json_is_number(x) && json_number_value(x) == v)
            return 1;
    return 0;
}

/* The list: numbers 0..count-1 in order, one BSP, selected ones marked. */
static void cores_check_list(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *cpus = json_object_get(sec, "cpus"), *cpu, *sel = json_object_get(sec, "selected");
    size_t i, n = json_array_size(cpus);
    unsigned bsps = 0;
    char at[160];
    if (doc_bool(sec, "mp_services", 0) && n && n != (size_t)rv_fig_num(sec, &figures_cores, FIG_CORES_COUNT, -1))
        rv_say(file, where, "cpus does not list count CPUs", problems, quiet);
    json_array_foreach(cpus, i, cpu) {
        snprintf(at, sizeof at, "%s.cpus[%zu]", where, i);
        if (doc_num(cpu, "number", -1) != (double)i)
            rv_say(file, at, "number is not its place in the list", problems, quiet);
        if (doc_bool(cpu, "bsp", 0)) {      /* not a row: a CPU's flag, cpus[*].* */
            bsps++;
            if (rv_fig_num(sec, &figures_cores, FIG_CORES_BSP, -1) != (double)i)
                rv_say(file, at, "marked bsp but bsp names another CPU", problems, quiet);
        }
        if (doc_bool(cpu, "selected", 0) != cores_has(sel, (double)i))
            rv_say(file, at, "selected disagrees with the selected list", problems, quiet);
        if (json_object_get(cpu, "core_of")) {
            size_t g = (size_t)doc_num(cpu, "core_of", -1), same = 0, k;
            json_t *o;
            json_array_foreach(cpus, k, o)
                same += json_object_get(o, "core_of") && (size_t)doc_num(o, "core_of", -1) == g;
            if (g > i || doc_num(json_array_get(cpus, g), "core_of", -1) != (double)g)
                rv_say(file, at, "core_of does not name the first CPU of its core", problems, quiet);
            else if (doc_num(cpu, "threads_in_core", 0) != (double)same)
                rv_say(file, at, "threads_in_core does not count the CPUs with its core_of", problems, quiet);
        }
        json_t *id = json_object_get(cpu, "cpuid");
        if (json_is_object(id) && !strcmp(doc_str(id, "tsc_adjust_msr", ""), "read") != !!json_object_get(id, "tsc_adjust"))
            rv_say(file, at, "tsc_adjust is given exactly when tsc_adjust_msr is read", problems, quiet);
        if (json_is_object(id) && json_object_get(id, "x2apic_id")
            && (doc_num(id, "package", -1) < 0 || doc_num(id, "core", -1) < 0 || doc_num(id, "thread", -1) < 0))
            rv_say(file, at, "a CPUID topology without package, core and thread", problems, quiet);
    }
    if (n && bsps != 1)
        rv_say(file, where, "not exactly one CPU is the bsp", problems, quiet);
}

static void cores_check_tsc(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *tsc = json_object_get(sec, "tsc"), *t;
    double hz = rv_fig_num(sec, &figures_cores, FIG_CORES_TICK_HZ, 0), worst = 0;
    size_t i;
    char at[160];
    if (!json_is_object(tsc) || hz <= 0)
        return;
    json_array_foreach(json_object_get(tsc, "cpus"), i, t) {
        snprintf(at, sizeof at, "%s.tsc.cpus[%zu]", where, i);
        if (!cores_has(json_object_get(sec, "selected"), doc_num(t, "cpu", -1)))
            rv_say(file, at, "a CPU that is not selected", problems, quiet);
        if (json_object_get(t, "offset_lo_ticks")) {
            double lo = doc_num(t, "offset_lo_ticks", 0), hi = doc_num(t, "offset_hi_ticks", 0);
            double mid = doc_num(t, "offset_ticks", NAN), half = doc_num(t, "offset_uncertainty_ticks", NAN);
            if ((lo <= hi) != doc_bool(t, "offset_consistent", -1))
                rv_say(file, at, "offset_consistent disagrees with the interval", problems, quiet);
            if (fabs(mid - (lo + hi) / 2) > 0.5 || fabs(half - (hi - lo) / 2) > 0.5)
                rv_say(file, at, "offset and its uncertainty are not the interval's midpoint and half-width",
                       problems, quiet);
            if (!cores_ns_ok(mid, doc_fig_num(t, &figures_cores, FIG_CORES_TSC_OFFSET_NS), hz)
                || !cores_ns_ok(half, doc_num(t, "offset_uncertainty_ns", NAN), hz))
                rv_say(file, at, "offset ns do not follow from ticks at tick_hz", problems, quiet);
            if (doc_num(t, "warp_backs", 0) > doc_num(t, "warp_turns", 0)
                || (doc_num(t, "warp_backs", 0) == 0) != (doc_num(t, "warp_max_back_ticks", 0) == 0))
                rv_say(file, at, "warp counts disagree", problems, quiet);
            if (json_object_get(t, "warp_handoffs")
                && (doc_num(t, "warp_handoffs", 0) > doc_num(t, "warp_turns", 0)
                    || doc_num(t, "warp_backs", 0) > doc_num(t, "warp_handoffs", 0)))
                rv_say(file, at, "warp: backs <= handoffs <= turns does not hold", problems, quiet);
        }
        if (json_object_get(t, "rate_detectable_ppm")) {
            double half = doc_num(t, "rate_uncertainty_ppm", NAN), det = doc_num(t, "rate_detectable_ppm", NAN);
            if (!rv_close(det, half * CORES_DETECT_OVER_HALF))
                rv_say(file, at, "rate_detectable_ppm is not (1.96 + 0.84) / 1.96 times the 95% half-width",
                       problems, quiet);
            worst = det > worst ? det : worst;
        }
        if (json_object_get(t, "rate_hz") && doc_num(t, "rate_ref_ticks", 0) > 0) {
            double ref_hz = doc_num(t, "rate_hz", 0) * doc_num(t, "rate_ref_ticks", 0) / doc_num(t, "rate_tsc_ticks", 1);
            if (!(ref_hz > 1e6 && ref_hz < 1e9))
                rv_say(file, at, "rate_hz, rate_tsc_ticks and rate_ref_ticks imply no plausible reference "
                       "frequency", problems, quiet);
        }
    }
    json_t *dw = json_object_get(tsc, "rate_detectable_ppm");
    if (json_is_number(dw) && !rv_close(json_number_value(dw), worst))
        rv_say(file, where, "tsc.rate_detectable_ppm is not the largest CPU's", problems, quiet);
}

/* The fences: RDTSCP only when every probed CPU has it, LFENCE only when
 * every probed CPU says it is dispatch-serialising. */
static void cores_check_read(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *r = json_object_get(sec, "tsc_read"), *cpu;
    size_t i;
    if (!json_is_object(r))
        return;
    const char *seq = doc_str(r, "sequence", "");
    int uses_rdtscp = !strncmp(seq, "rdtscp", 6), uses_lfence = strstr(seq, "lfence") != NULL;
    json_array_foreach(json_object_get(sec, "cpus"), i, cpu) {
        json_t *id = json_object_get(cpu, "cpuid");
        if (!doc_bool(cpu, "selected", 0) || !json_is_object(id) || !json_object_get(id, "rdtscp"))
            continue;
        if (uses_rdtscp && !doc_bool(id, "rdtscp", 0))
            rv_say(file, where, "tsc_read uses rdtscp, which a selected CPU lacks", problems, quiet);
        if (uses_lfence && strcmp(doc_str(id, "lfence_serializing", ""), "yes"))
            rv_say(file, where, "tsc_read fences with lfence, which is not dispatch-serialising on a selected CPU",
                   problems, quiet);
    }
}

/* A square matrix over latency.cpus: null diagonal, symmetric, ns = ticks. */
static void cores_check_matrix(json_t *lat, const char *key, const char *ns_key, double hz,
                               const char *where, const char *file, int *problems, int quiet)
{
    json_t *m = json_object_get(lat, key), *mns = json_object_get(lat, ns_key);
    size_t n = json_array_size(json_object_get(lat, "cpus"));
    char at[160];
    snprintf(at, sizeof at, "%s.latency.%s", where, key);
    if (!m)
        return;
    if (json_array_size(m) != n || json_array_size(mns) != n) {
        rv_say(file, at, "not one row per CPU in latency.cpus", problems, quiet);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_array_get(m, i), *rowns = json_array_get(mns, i);
        if (json_array_size(row) != n || json_array_size(rowns) != n) {
            rv_say(file, at, "a row is not as long as latency.cpus", problems, quiet);
            return;
        }
        for (size_t j = 0; j < n; j++) {
            json_t *v = json_array_get(row, j), *w = json_array_get(json_array_get(m, j), i);
            json_t *vns = json_array_get(rowns, j);
            if (i == j ? !json_is_null(v) : !(json_is_null(v) || json_is_number(v))) {
                rv_say(file, at, "the diagonal must be null, the rest numbers or null", problems, quiet);
                return;
            }
            if (json_is_number(v) != json_is_number(w)
                || (json_is_number(v) && json_number_value(v) != json_number_value(w))) {
                rv_say(file, at, "not symmetric", problems, quiet);
                return;
            }
            if (json_is_number(v) && (!json_is_number(vns)
                                      || !cores_ns_ok(json_number_value(v), json_number_value(vns), hz))) {
                rv_say(file, at, "ns figures do not follow from ticks at tick_hz", problems, quiet);
                return;
            }
        }
    }
}

/* A one-way matrix is half the round trip, cell by cell. */
static void cores_check_half(json_t *lat, const char *rt_key, const char *ow_key, const char *where,
                             const char *file, int *problems, int quiet)
{
    json_t *rt = json_object_get(lat, rt_key), *ow = json_object_get(lat, ow_key);
    if (!ow)
        return;
    for (size_t i = 0; i < json_array_size(rt); i++)
        for (size_t j = 0; j < json_array_size(rt); j++) {
            json_t *a = json_array_get(json_array_get(rt, i), j), *b = json_array_get(json_array_get(ow, i), j);
            if (json_is_number(a) != json_is_number(b)
                || (json_is_number(a) && !rv_close(json_number_value(a) / 2, json_number_value(b)))) {
                rv_say(file, where, "latency: a one-way figure is not half its round trip", problems, quiet);
                return;
            }
        }
}

static void cores_check_latency(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *lat = json_object_get(sec, "latency");
    double hz = rv_fig_num(sec, &figures_cores, FIG_CORES_TICK_HZ, 0);
    if (!json_is_object(lat) || hz <= 0)
        return;
    cores_check_matrix(lat, "min_ticks", "min_ns", hz, where, file, problems, quiet);
    cores_check_matrix(lat, "median_ticks", "median_ns", hz, where, file, problems, quiet);
    cores_check_half(lat, "min_ns", "one_way_min_ns", where, file, problems, quiet);
    cores_check_half(lat, "median_ns", "one_way_median_ns", where, file, problems, quiet);
    json_t *mn = json_object_get(lat, "min_ticks"), *md = json_object_get(lat, "median_ticks");
    size_t n = json_array_size(mn);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            json_t *a = json_array_get(json_array_get(mn, i), j), *b = json_array_get(json_array_get(md, i), j);
            if (json_is_number(a) && json_is_number(b) && json_number_value(a) > json_number_value(b)) {
                rv_say(file, where, "latency: a minimum above its median", problems, quiet);
                return;
            }
        }
}

/* A test that ran: runs scores, their mean. */
static void cores_check_test(json_t *t, const char *at, const char *file, int *problems, int quiet)
{
    const char *st = doc_str(t, "status", "");     /* not a row: a test's status, scores.* */
    if (strcmp(st, "ok")) {
        if (strcmp(st, "not_run") && !doc_str(t, "why", NULL) && !strcmp(st, "failed_fault"))
            rv_say(file, at, "a failed test has no why", problems, quiet);
        return;
    }
    json_t *s = json_object_get(t, "scores");
    double sum = 0, x;
    size_t i, n = json_array_size(s);
    json_t *v;
    if (n != (size_t)doc_num(t, "runs", -1)) {
        rv_say(file, at, "runs does not count the scores", problems, quiet);
        return;
    }
    json_array_foreach(s, i, v)
        sum += json_number_value(v);
    x = n ? sum / (double)n : 0;
    if (!rv_close(x, doc_fig_num(t, &figures_cores, FIG_CORES_PER_CORE_MEAN)))
        rv_say(file, at, "mean is not the mean of the scores", problems, quiet);
}

/* cores: distinct core_of among the CPUs that finished; smt_siblings when
 * fewer cores than CPUs; the overlap's parts within its span. */
static void cores_check_smt(json_t *a, const char *at, const char *file, int *problems, int quiet)
{
    json_t *p, *q, *o = json_object_get(a, "overlap");
    size_t k, j;
    unsigned cores = 0;
    if (!json_object_get(a, "cores"))
        return;
    json_array_foreach(json_object_get(a, "per_cpu"), k, p) {
        int first = strcmp(doc_str(p, "status", ""), "ok") == 0;   /* not a row: a CPU's status, scores.* */
        json_array_foreach(json_object_get(a, "per_cpu"), j, q) {
            if (j >= k || !first)
                break;
            if (!strcmp(doc_str(q, "status", ""), "ok") && doc_num(q, "core_of", -1) == doc_num(p, "core_of", -2)) /* not a row: as above */
                first = 0;
        }
        cores += first;
    }
    if (doc_num(a, "cores", -1) != cores)
        rv_say(file, at, "cores does not count the distinct cores of the CPUs that finished", problems, quiet);
    if (doc_bool(a, "smt_siblings", -1) != (cores < doc_num(a, "cpus", 0)))
        rv_say(file, at, "smt_siblings disagrees with cores and cpus", problems, quiet);
    if (json_is_object(o) && (doc_num(o, "all_at_once_ms", 0) > doc_num(o, "span_ms", 0) * (1 + 1e-9)
                              || doc_num(o, "all_at_once_fraction", 0) > 1 + 1e-9
                              || doc_num(o, "mean_running", 0) > doc_num(a, "cpus", 0) * (1 + 1e-9) + 1e-9))
        rv_say(file, at, "overlap: a part larger than its whole", problems, quiet);
}

static void cores_check_scores(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    json_t *sc = json_object_get(sec, "scores"), *p, *t, *a;
    size_t i, k;
    char at[200];
    if (!json_is_object(sc))
        return;
    json_array_foreach(json_object_get(sc, "per_core"), i, p) {
        if (!cores_has(json_object_get(sec, "selected"), doc_num(p, "cpu", -1)))
            rv_say(file, where, "scores.per_core names a CPU that is not selected", problems, quiet);
        json_array_foreach(json_object_get(p, "tests"), k, t) {
            snprintf(at, sizeof at, "%s.scores.per_core[%zu].tests[%zu]", where, i, k);
            cores_check_test(t, at, file, problems, quiet);
        }
    }
    json_array_foreach(json_object_get(sc, "all_cores"), i, a) {
        double sum = 0;
        unsigned ok = 0;
        json_array_foreach(json_object_get(a, "per_cpu"), k, p)
            if (!strcmp(doc_str(p, "status", ""), "ok")) {     /* not a row: a CPU's status, scores.* */
                sum += doc_num(p, "mean", 0);   /* not a row: a CPU's mean in all_cores[*].per_cpu, scores.* */
                ok++;
            }
        snprintf(at, sizeof at, "%s.scores.all_cores[%zu]", where, i);
        if (doc_num(a, "cpus", -1) != ok)
            rv_say(file, at, "cpus does not count the CPUs that finished", problems, quiet);
        cores_check_smt(a, at, file, problems, quiet);
        if (!rv_close(sum, doc_fig_num(a, &figures_cores, FIG_CORES_ALL_CORES_SUM))
            && !(sum == 0 && rv_fig_num(a, &figures_cores, FIG_CORES_ALL_CORES_SUM, -1) == 0))
            rv_say(file, at, "sum is not the sum of the CPUs' means", problems, quiet);
    }
}

/* took_s: the parts are timed inside the section, so they add up to at most
 * its total (1 ms of rounding allowed), and a part that did not run has no time. */
static void cores_check_took(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    static const char *const parts[][2] = { { "tsc", "tsc_measured" }, { "latency", "latency_measured" },
                                            { "scores", "scores_measured" }, { "rate", "tsc_measured" } };
    json_t *t = json_object_get(sec, "took_s");
    if (!json_is_object(t))
        return;
    double sum = doc_num(t, "start", 0);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *v = json_object_get(t, parts[i][0]);
        if (v && !doc_bool(sec, parts[i][1], 0))
            rv_say(file, where, "took_s times a part that did not run", problems, quiet);
        sum += json_is_number(v) ? json_number_value(v) : 0;
    }
    if (sum > doc_num(t, "total", 0) + 1e-3)
        rv_say(file, where, "took_s: the parts add up to more than the total", problems, quiet);
}

static void cores_check(json_t *sec, const char *where, const char *file, int *problems, int quiet)
{
    cores_check_took(sec, where, file, problems, quiet);
    cores_check_list(sec, where, file, problems, quiet);
    cores_check_tsc(sec, where, file, problems, quiet);
    cores_check_read(sec, where, file, problems, quiet);
    cores_check_latency(sec, where, file, problems, quiet);
    cores_check_scores(sec, where, file, problems, quiet);
    if (doc_bool(sec, "tsc_measured", 0) != (json_object_get(sec, "tsc") != NULL)
        || doc_bool(sec, "latency_measured", 0) != (json_object_get(sec, "latency") != NULL)
        || doc_bool(sec, "scores_measured", 0) != (json_object_get(sec, "scores") != NULL))
        rv_say(file, where, "a part marked measured is missing, or one not marked is present", problems, quiet);
}

const struct rv_section rv_section_cores = { "cores", 0, cores_check };
