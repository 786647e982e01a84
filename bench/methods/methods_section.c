/*
 * bench/methods/methods_section.c - the `methods` section: every method's support,
 * overhead and resolution, the measurement matrix (methods x targets), the
 * profile line, Paoloni's checks; its serial text and its "methods" results
 * member (docs/results-schema.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "figures_methods.h"
#include "json.h"
#include "methods_internal.h"
#include "platform.h"
#include "plugins.h"
#include "pmu.h"
#include "quiet.h"
#include "section.h"
#include "stats.h"
#include "targets.h"

/* ---- the section: JSON helpers ------------------------------------------------------------- */

static void methods_json_u64s(struct json_writer *w, const char *key, const uint64_t *x, size_t n)
{
    json_arr_begin(w, key);
    for (size_t i = 0; i < n; i++)
        json_u64(w, NULL, x[i]);
    json_arr_end(w);
}

/* A summary as object `key`, its median through row median_id. */
static void methods_json_summary(struct json_writer *w, const char *key, unsigned median_id,
                                 const struct stats_summary *s)
{
    json_obj_begin(w, key);
    json_u64(w, "n", s->n);
    json_double(w, "min", s->min);
    json_fig_double(w, &figures_methods, median_id, s->median);
    json_double(w, "mean", s->mean);
    json_double(w, "sd", s->sd_sample);
    json_double(w, "sd_pop", s->sd_pop);
    json_double(w, "var", s->var_sample);
    json_double(w, "var_pop", s->var_pop);
    json_double(w, "max", s->max);
    json_double(w, "q1", s->q1);
    json_double(w, "q3", s->q3);
    json_double(w, "mode", s->mode.value);
    json_u64(w, "mode_count", s->mode.count);
    json_bool(w, "mode_pure", s->mode.pure);
    json_double(w, "trimmed_mean", s->trimmed_mean);
    json_obj_end(w);
}

/* Ticks in ns under key, or through row id of t (json_fig_or_double);
 * null without a tick rate. */
static void methods_json_ns_at(struct json_writer *w, const struct figure_table *t, unsigned id,
                               const char *key, double ticks, uint64_t hz)
{
    if (hz)
        json_fig_or_double(w, t, id, key, methods_ns(ticks, hz));
    else
        json_fig_or_null(w, t, id, key);
}

static void methods_json_ns(struct json_writer *w, const char *key, double ticks, uint64_t hz)
{
    methods_json_ns_at(w, NULL, 0, key, ticks, hz);
}

static void methods_json_fig_ns(struct json_writer *w, unsigned id, double ticks, uint64_t hz)
{
    methods_json_ns_at(w, &figures_methods, id, NULL, ticks, hz);
}

/* ---- the section: text and JSON per part ------------------------------------------------------ */

static void methods_flags(const struct methods_cpu *c, const struct methods_info *m, char *buf, size_t n)
{
    buf[0] = 0;
    if (m->uses_cpuid && c->hypervisor)
        snprintf(buf + strlen(buf), n - strlen(buf), " [cpuid exits to the hypervisor]");
    if (m->uses_lfence && c->lfence_serializing == 0)
        snprintf(buf + strlen(buf), n - strlen(buf), " [lfence not dispatch-serializing here]");
    else if (m->uses_lfence && c->lfence_serializing < 0)
        snprintf(buf + strlen(buf), n - strlen(buf), " [lfence serializing: unknown]");
}

static void methods_json_flags(struct json_writer *w, const struct methods_cpu *c, const struct methods_info *m)
{
    json_arr_begin(w, "flags");
    if (m->uses_cpuid && c->hypervisor)
        json_str(w, NULL, "cpuid_exits_to_hypervisor");
    if (m->uses_lfence && c->lfence_serializing == 0)
        json_str(w, NULL, "lfence_not_serializing");
    else if (m->uses_lfence && c->lfence_serializing < 0)
        json_str(w, NULL, "lfence_serializing_unknown");
    json_arr_end(w);
}

static void methods_print_header(const struct methods_plan *p, const struct methods_cpu *c, uint64_t hz)
{
    if (hz)
        out_printf("methods: TSC at %.3f MHz (%s); ns = ticks x 1e9 / Hz\n", (double)hz / 1e6,
                   p->interrupts_maskable ? "clock section" : "measured against the operating system's clock");
    else
        out_printf("methods: the clock is not calibrated: figures are in TSC ticks only\n");
    if (p->interrupts_maskable)
        out_printf("methods: interrupts masked (cli) for every timing\n");
    else
        out_printf("methods: interrupts cannot be masked here (%s): a timing may include an interrupt "
                   "or a context switch\n", plat_name());
    if (c->hypervisor_hidden)
        out_printf("methods: CPU %s family %02Xh; hypervisor hidden from CPUID (SMBIOS names %s): cpuid exits to "
                   "it, methods with cpuid time it too\n", c->vendor, c->family, c->hypervisor_hidden);
    else
        out_printf("methods: CPU %s family %02Xh; hypervisor %s%s\n", c->vendor, c->family,
                   c->hypervisor ? (c->hypervisor_vendor[0] ? c->hypervisor_vendor : "(unnamed)") : "none",
                   c->hypervisor ? " (CPUID.1:ECX bit 31): cpuid exits to it, methods with cpuid time it too" : "");
    out_printf("methods: rdtscp %s (CPUID 0x80000001 EDX bit 27)%s\n", c->rdtscp ? "yes" : "no",
               c->rdtscp ? "" : ": the four rdtscp methods are skipped, not executed");
    out_printf("methods: lfence %s\n", c->lfence_why);
    out_printf("methods: profile %s: %u back-to-back timings per method; %u samples x %llu iterations "
               "per measurement\n", p->quick ? "quick" : "full", (unsigned)p->overhead_samples,
               (unsigned)p->samples, (unsigned long long)p->iterations);
}

static void methods_json_header(struct json_writer *w, const struct methods_plan *p,
                                const struct methods_cpu *c, uint64_t hz)
{
    json_str(w, "platform", plat_name());
    json_fig_u64(w, &figures_methods, FIG_METHODS_TICK_HZ, hz);
    json_bool(w, "clock_calibrated", hz != 0);
    json_bool(w, "interrupts_masked", p->interrupts_maskable);
    json_fig_u64(w, &figures_methods, FIG_METHODS_OVERHEAD_SAMPLES, p->overhead_samples);
    json_fig_u64(w, &figures_methods, FIG_METHODS_SAMPLES, p->samples);
    json_fig_u64(w, &figures_methods, FIG_METHODS_ITERATIONS, p->iterations);
    json_obj_begin(w, "cpu");
    json_str(w, "vendor", c->vendor);
    json_u64(w, "family", c->family);
    json_bool(w, "hypervisor", c->hypervisor);
    json_str(w, "hypervisor_vendor", c->hypervisor_vendor);
    json_bool(w, "rdtscp", c->rdtscp);
    json_bool(w, "invariant_tsc", c->invariant_tsc);
    json_str(w, "lfence_serializing", c->lfence_serializing < 0 ? "unknown" : c->lfence_serializing ? "yes" : "no");
    json_str(w, "lfence_why", c->lfence_why);
    if (c->is_amd) {
        json_str(w, "amd_cpuid_80000021_eax_bit2", c->amd_cpuid_lfence < 0 ? "absent"
                 : c->amd_cpuid_lfence ? "set" : "clear");
        json_str(w, "amd_msr_c0011029_bit1", c->amd_msr_lfence < 0 ? "unread" : c->amd_msr_lfence ? "set" : "clear");
    }
    json_obj_end(w);
}

/* The section's measuring phases: each measurement runs with the firmware
 * timer stopped (bench/system/quiet.h) and the phase ends before its line is
 * printed. */
static struct quiet_phase_totals methods_qt;
/* Each method's counter step as its back-to-back timings showed it (0: not
 * seen), handed to the engine for its fence and for growing N. */
static uint64_t methods_steps[METHODS_COUNT];

/* The step a measurement with method m is given: none when the clock
 * section measured the counter's step (the engine takes plat_tick_step);
 * else the smallest gap of the method's back-to-back timings, the
 * fallback (on a coarse counter with a tick of jitter it is 1). */
static uint64_t methods_step_for(int m)
{
    return plat_tick_step() ? 0 : methods_steps[m];
}

/* ---- the section ----------------------------------------------------------------------------- */

/* One method: its sequence, support, overhead and resolution. */
static int methods_part_method(const struct methods_plan *p, const struct methods_cpu *c, int m,
                               uint64_t hz, struct json_writer *w)
{
    const struct methods_info *mi = &methods_table[m];
    struct methods_overhead o;
    char flags[160];
    int bad = 0;

    methods_flags(c, mi, flags, sizeof flags);
    out_printf("method %d %s: start and stop: %s%s\n", mi->codetune ? mi->codetune : 9, mi->name,
               mi->sequence, flags);
    if (!mi->codetune)
        out_printf("  (%s)\n", mi->origin);
    quiet_phase_begin();
    methods_overhead_measure(m, c, p->overhead_samples, &o);
    quiet_phase_end_add(&methods_qt);
    methods_steps[m] = o.status == METHODS_OK ? o.step : 0;
    if (o.status == METHODS_UNSUPPORTED)
        out_printf("  unsupported (%s): skipped, not executed\n", o.why);
    else if (o.status != METHODS_OK) {
        out_warn("fault in method:%s (overhead): %s; the method's overhead is not known", mi->key, o.why);
        bad = 1;
    } else {
        out_printf("  overhead ticks: min %llu, median %.1f, mean %.2f, sd %.2f, mode %.1f%s, max %llu; "
                   "step %llu\n", (unsigned long long)o.sum.min_u64, o.sum.median, o.sum.mean, o.sum.sd_sample,
                   o.sum.mode.value, o.sum.mode.pure ? " (pure)" : "", (unsigned long long)o.sum.max_u64,
                   (unsigned long long)o.step);
        if (hz)
            out_printf("  overhead ns: min %.2f, median %.2f, sd %.2f\n", methods_ns(o.sum.min, hz),
                       methods_ns(o.sum.median, hz), methods_ns(o.sum.sd_sample, hz));
    }
    if (w) {
        json_obj_begin(w, NULL);
        json_str(w, "name", mi->name);
        json_str(w, "key", mi->key);
        json_u64(w, "codetune", mi->codetune);
        json_str(w, "start", mi->sequence);
        json_str(w, "stop", mi->sequence);
        json_str(w, "origin", mi->origin);
        json_bool(w, "supported", methods_supported(c, m));
        json_str(w, "status", methods_status_name(o.status));
        json_i64(w, "status_code", o.status);
        if (o.why[0])
            json_str(w, "why", o.why);
        methods_json_flags(w, c, mi);
        if (o.status == METHODS_OK) {
            json_obj_begin(w, "overhead");
            json_u64(w, "n", o.sum.n);
            json_u64(w, "min", o.sum.min_u64);
            json_fig_double(w, &figures_methods, FIG_METHODS_OVERHEAD_MEDIAN, o.sum.median);
            json_double(w, "mean", o.sum.mean);
            json_double(w, "sd", o.sum.sd_sample);
            json_double(w, "mode", o.sum.mode.value);
            json_bool(w, "mode_pure", o.sum.mode.pure);
            json_u64(w, "max", o.sum.max_u64);
            methods_json_u64s(w, "samples", o.samples, o.n);
            json_obj_end(w);
            json_u64(w, "step_ticks", o.step);
            json_obj_begin(w, "overhead_ns");
            methods_json_ns(w, "min", o.sum.min, hz);
            methods_json_fig_ns(w, FIG_METHODS_OVERHEAD_NS_MEDIAN, o.sum.median, hz);
            methods_json_ns(w, "sd", o.sum.sd_sample, hz);
            json_obj_end(w);
        }
        json_obj_end(w);
    }
    methods_overhead_free(&o);
    return bad;
}

/* Targets measured with every method, in this order. */
static const char *const methods_matrix[] = { "empty", "add10", "add100", "add1000", "foo", "strlen" };
/* The routine of the extended profile (CodeTune's example). */
#define METHODS_PROFILE_TARGET "strlen"

/* The counters are read for a measurement that ran (not skipped, not
 * faulted, not short of memory or input). */
static int methods_pmu_wanted(const struct methods_result *r)
{
    return r->status != METHODS_UNSUPPORTED && r->status != METHODS_FAULT && r->status != METHODS_NOMEM
           && r->status != METHODS_BAD_INPUT;
}

/* Under the row: per counted event the three estimators per iteration,
 * then the effective clock (core cycles per TSC tick over T(N)). */
static void methods_print_pmu(const struct pmu_estimates *e)
{
    const struct pmu_info *p = pmu_session();
    if (e->status) {
        out_printf("  %-20s pmu: %s\n", "", e->why);
        return;
    }
    for (int ev = 0; ev < PMU_EVENTS; ev++)
        if (p->ctr[ev].present)
            out_printf("  %-20s %-13s %9s %11.3f %11.3f %11.3f\n", "", pmu_event_name(ev), "per iter",
                       e->per_iter[1 + ev][PMU_EST_MINUS_PLACEHOLDER], e->per_iter[1 + ev][PMU_EST_APPLE],
                       e->per_iter[1 + ev][PMU_EST_N_VS_2N]);
    if (p->ctr[PMU_REF_CYCLES].present && p->ctr[PMU_REF_CYCLES].tsc_rate)
        out_printf("  %-20s cycles/tick %.4f (effective clock), ref cycles/tick %.4f%s\n", "", e->cycles_per_tick,
                   e->ref_per_tick, e->overflows ? "; a counter overflowed" : "");
    else if (p->ctr[PMU_REF_CYCLES].present)   /* 3CH/01H: its clock need not be the TSC's (bench/methods/pmu.h) */
        out_printf("  %-20s cycles/tick %.4f (effective clock), ref cycles/tick %.4f (event 3CH/01H: the "
                   "part's reference clock, not known to be the TSC's rate: not a clock ratio)%s\n", "",
                   e->cycles_per_tick, e->ref_per_tick, e->overflows ? "; a counter overflowed" : "");
    else
        out_printf("  %-20s cycles/tick %.4f (effective clock)%s\n", "", e->cycles_per_tick,
                   e->overflows ? "; a counter overflowed" : "");
}

static void methods_print_row(const struct methods_info *mi, const struct methods_result *r, uint64_t hz)
{
    if (r->status == METHODS_UNSUPPORTED) {
        out_printf("  %-20s unsupported: skipped\n", mi->name);
        return;
    }
    if (r->status == METHODS_FAULT || r->status == METHODS_NOMEM || r->status == METHODS_BAD_INPUT) {
        out_printf("  %-20s %s: %s\n", mi->name, methods_status_name(r->status), r->why);
        return;
    }
    out_printf("  %-20s %-13s %4llu/%-4llu %11.3f %11.3f %11.3f %10.3f %8.3f", mi->name,
               methods_status_name(r->status), (unsigned long long)r->cal_overheads,
               (unsigned long long)r->bench_overheads, r->minus_placeholder, r->apple, r->n_vs_2n,
               r->net_sum.median, r->net_sum.sd_sample);
    if (hz)
        out_printf(" %10.3f", methods_ns(r->n_vs_2n, hz));
    out_printf(" %8llu %8.1f\n", (unsigned long long)r->iterations, r->fence_above);
}

static void methods_json_result(struct json_writer *w, const struct target *t, const struct methods_info *mi,
                                const struct methods_result *r, uint64_t hz, const struct pmu_estimates *pe)
{
    char name[96];
    snprintf(name, sizeof name, "%s/%s", t->name, mi->name);
    json_obj_begin(w, NULL);
    json_str(w, "name", name);
    json_str(w, "target", t->name);
    json_str(w, "method", mi->name);
    json_str(w, "status", methods_status_name(r->status));
    json_i64(w, "status_code", r->status);
    if (r->why[0])
        json_str(w, "why", r->why);
    json_u64(w, "samples_requested", r->samples);
    json_u64(w, "iterations", r->iterations);
    json_u64(w, "iterations_requested", r->iterations_requested);
    if (r->iterations_why[0])
        json_str(w, "iterations_why", r->iterations_why);
    if (t->per_iteration >= 0) {
        json_i64(w, "instructions_fixed", t->fixed);
        json_i64(w, "instructions_per_iteration", t->per_iteration);
    }
    if (r->bench && r->status != METHODS_FAULT && r->status != METHODS_CAL_OVERHEAD
        && r->status != METHODS_BENCH_OVERHEAD) {
        json_u64(w, "calibration_retakes", r->cal_overheads);
        json_u64(w, "benchmark_retakes", r->bench_overheads);
        json_double(w, "fence_above_median", r->fence_above);
        json_double(w, "calibration_fence", r->cal_fence);
        json_double(w, "benchmark_fence", r->bench_fence);
        json_str(w, "order", r->order_random ? "random" : "placeholder_first");
        json_u64(w, "routine_first", r->routine_first);
        methods_json_paired(w, "paired", &r->paired);
        json_u64(w, "counter_step_ticks", r->step);
        json_bool(w, "counter_step_measured", r->step_source == METHODS_STEP_CLOCK);
        json_str(w, "counter_step_source", methods_step_source_name(r->step_source));
        json_u64(w, "placeholder_min", r->min_p);
        json_double(w, "placeholder_median", r->p_sum.median);
        json_u64(w, "routine_min", r->min_t);
        json_double(w, "routine_median", r->t_sum.median);
        json_u64(w, "min_t2", r->min_t2);
        json_u64(w, "min_tn2", r->min_tn2);
        json_u64(w, "min_t2n", r->min_t2n);
        json_double(w, "mann_whitney_p", r->mw_p);
        json_double(w, "mann_whitney_u", r->mw_u);
        json_obj_begin(w, "per_iteration");
        json_double(w, "minus_placeholder", r->minus_placeholder);
        json_double(w, "apple", r->apple);
        json_double(w, "n_vs_2n", r->n_vs_2n);
        json_double(w, "mean_minus_mean", r->mean_net);
        json_obj_end(w);
        json_obj_begin(w, "per_iteration_ns");
        methods_json_ns(w, "minus_placeholder", r->minus_placeholder, hz);
        methods_json_ns(w, "apple", r->apple, hz);
        methods_json_ns(w, "n_vs_2n", r->n_vs_2n, hz);
        json_obj_end(w);
        methods_json_summary(w, "net", FIG_METHODS_NET_MEDIAN, &r->net_sum);
        methods_json_u64s(w, "samples", r->bench, r->samples);
        methods_json_u64s(w, "placeholder_samples", r->placeholder, r->samples);
        methods_json_u64s(w, "samples_untruncated", r->bench_raw, r->samples);
        methods_json_u64s(w, "placeholder_samples_untruncated", r->placeholder_raw, r->samples);
    }
    if (pe)
        pmu_estimates_json(w, "pmu", pmu_session(), pe);
    json_obj_end(w);
}

/* One target with every method; keeps the profile's best figures. */
static int methods_part_target(const struct methods_plan *p, const struct methods_cpu *c, const struct target *t,
                               uint64_t hz, struct json_writer *w, struct methods_best *best)
{
    struct methods_opts opt = { 0, NULL, t->name, c, 0, 0, NULL };
    int bad = 0, plugin = plugins_of_target(t) != NULL;
    if (t->per_iteration >= 0)
        out_printf("target %s: %s; %lld + %lld/iteration instructions; %u samples x %llu iterations\n",
                   t->name, t->what, (long long)t->fixed, (long long)t->per_iteration, (unsigned)p->samples,
                   (unsigned long long)p->iterations);
    else
        out_printf("target %s: %s; %u samples x %llu iterations\n", t->name, t->what, (unsigned)p->samples,
                   (unsigned long long)p->iterations);
    out_printf("  %-20s %-13s %9s %11s %11s %11s %10s %8s%s %8s %8s\n", "method", "status", "retakes",
               "-placeholdr", "(N+2)-(2)", "2N-N", "net median", "net sd", hz ? "  2N-N (ns)" : "", "N used",
               "fence+");
    plugins_timing_begin(t);
    for (int m = 0; m < METHODS_COUNT; m++) {
        struct methods_result r;
        opt.step = methods_step_for(m);
        struct pmu_estimates pe;
        int counted = 0;
        quiet_phase_begin();
        methods_measure_ex(m, t->fn, t->data, p->samples, p->iterations, &opt, &r);
        if (pmu_session()->usable && methods_pmu_wanted(&r)) {
            /* the N the measurement settled on (it may grow N) */
            pmu_measure(m, t->fn, t->data, opt.placeholder, p->samples, r.iterations ? r.iterations : p->iterations, &pe);
            counted = 1;
        }
        quiet_phase_end_add(&methods_qt);
        methods_print_row(&methods_table[m], &r, hz);
        if (counted)
            methods_print_pmu(&pe);
        if (plugin && r.status == METHODS_FAULT) {
            /* a plug-in routine that faults: one line naming its file, no more calls */
            plugins_note_fault(t, r.why);
            bad = 1;
            m = METHODS_COUNT;
        } else if (r.status == METHODS_FAULT || r.status == METHODS_NOMEM || r.status == METHODS_CAL_OVERHEAD
            || r.status == METHODS_BENCH_OVERHEAD) {
            out_warn("%s/%s: %s (%s); this measurement is missing", t->name, methods_table[m].name,
                     methods_status_name(r.status), r.why);
            bad = 1;
        }
        if (best)
            methods_best_add(best, &r);
        if (w)
            methods_json_result(w, t, &methods_table[r.method], &r, hz, counted ? &pe : NULL);
        methods_result_free(&r);
    }
    plugins_timing_end(t);
    return bad;
}

/* CodeTune's extended profile of `routine`: the best figures over every
 * method; its JSON object is member `key` (NULL: an array element). */
static void methods_part_profile(const char *routine, const char *key, const struct methods_best *b, uint64_t hz,
                                 struct json_writer *w)
{
    if (!b->measured) {
        out_printf("profile of %s: no method gave a good measurement\n", routine);
    } else {
        out_printf("profile of %s with every supported method (%u good): best (min T - min P)/N %.3f "
                   "ticks/iteration with %s; fastest (mean T - mean P)/N %.3f with %s (ties: smaller "
                   "placeholder minimum, then table order)\n", routine, b->measured, b->best,
                   methods_table[b->best_method].name, b->mean, methods_table[b->mean_method].name);
        if (hz)
            out_printf("profile of %s: best %.3f ns, fastest mean %.3f ns per iteration\n",
                       routine, methods_ns(b->best, hz), methods_ns(b->mean, hz));
    }
    if (!w)
        return;
    json_obj_begin(w, key);
    json_str(w, "routine", routine);
    json_u64(w, "methods_measured", b->measured);
    json_str(w, "best_estimator", "(min T - min P) / N");
    json_str(w, "fastest_mean_estimator", "(mean T - mean P) / N");
    json_str(w, "tie_break", "smaller placeholder minimum, then the earlier method in the table");
    if (b->measured) {
        json_double(w, "best_ticks", b->best);
        methods_json_fig_ns(w, key ? FIG_METHODS_PROFILE_BEST_NS : FIG_METHODS_PROFILES_BEST_NS, b->best, hz);
        json_str(w, "best_method", methods_table[b->best_method].name);
        json_double(w, "fastest_mean_ticks", b->mean);
        methods_json_ns(w, "fastest_mean_ns", b->mean, hz);
        json_str(w, "fastest_mean_method", methods_table[b->mean_method].name);
    }
    json_obj_end(w);
}

/* The plug-in routines ready to be timed (bench/plugins/plugins.h), each like a
 * built-in target, each with its own extended profile. */
struct methods_plugin_best {
    const struct target *t;
    struct methods_best b;
};

static int methods_part_plugins(const struct methods_plan *p, const struct methods_cpu *c, uint64_t hz,
                                struct json_writer *w, struct methods_plugin_best **out, unsigned *n)
{
    unsigned count = plugins_ready_count();
    int bad = 0;
    *n = 0;
    *out = NULL;
    if (!count)
        return 0;
    struct methods_plugin_best *pb = plat_alloc(count * sizeof *pb);
    if (!pb) {
        out_warn("plug-in routines: no memory to time them; skipped");
        return 1;
    }
    /* the list first: a routine that faults leaves the ready list */
    for (unsigned i = 0; i < count; i++) {
        pb[i].t = plugins_ready_target(i);
        methods_best_init(&pb[i].b);
    }
    out_printf("plug-in routines: %u, each timed like a built-in target (PLUGIN:ROUTINE)\n", count);
    for (unsigned i = 0; i < count; i++)
        bad |= methods_part_target(p, c, pb[i].t, hz, w, &pb[i].b);
    *out = pb;
    *n = count;
    return bad;
}

static int methods_part_paoloni(const struct methods_plan *p, const struct methods_cpu *c, int m,
                                struct json_writer *w)
{
    const struct methods_info *mi = &methods_table[m];
    struct methods_paoloni pa;
    int bad = 0;
    quiet_phase_begin();
    methods_paoloni(m, c, p->paoloni_ensembles, p->paoloni_ensemble_size, p->paoloni_sizes, &pa);
    quiet_phase_end_add(&methods_qt);
    if (pa.status == METHODS_UNSUPPORTED) {
        out_printf("  %-20s unsupported: skipped\n", mi->name);
    } else if (pa.status != METHODS_OK) {
        out_warn("fault in method:%s (Paoloni check): %s", mi->key, pa.why);
        bad = 1;
    } else {
        out_printf("  %-20s %10.3f %8u %9u %10.4f %10.3f %8.6f %10.3f\n", mi->name, pa.fixed_var,
                   (unsigned)pa.fixed_distinct, (unsigned)pa.spurious, pa.slope, pa.intercept, pa.r2,
                   pa.resid_var);
    }
    if (w) {
        json_obj_begin(w, NULL);
        json_str(w, "name", mi->name);
        json_str(w, "status", methods_status_name(pa.status));
        if (pa.why[0])
            json_str(w, "why", pa.why);
        json_u64(w, "ensembles", pa.ensembles);
        json_u64(w, "ensemble_size", pa.ensemble_size);
        json_u64(w, "sizes", pa.sizes);
        if (pa.status == METHODS_OK) {
            json_double(w, "minima_variance", pa.fixed_var);
            json_u64(w, "distinct_minima", pa.fixed_distinct);
            methods_json_u64s(w, "samples", pa.fixed_minima, pa.ensembles);
            json_u64(w, "spurious_minima", pa.spurious);
            json_double(w, "slope_ticks_per_iteration", pa.slope);
            json_double(w, "intercept_ticks", pa.intercept);
            json_double(w, "r2", pa.r2);
            json_double(w, "residual_variance", pa.resid_var);
            methods_json_u64s(w, "growing_minima", pa.grow_minima, pa.sizes);
        }
        json_obj_end(w);
    }
    methods_paoloni_free(&pa);
    return bad;
}

/* ---- the section ---------------------------------------------------------------------------- */

void methods_print_elapsed(const char *section, uint64_t ticks, uint64_t hz)
{
    if (hz)
        out_printf("%s: done in %llu ticks (%.3f s)\n", section, (unsigned long long)ticks, (double)ticks / (double)hz);
    else
        out_printf("%s: done in %llu ticks\n", section, (unsigned long long)ticks);
}

void methods_plan_from_config(const struct bm_config *cfg, const struct run_env *env, struct methods_plan *p)
{
    memset(p, 0, sizeof *p);
    p->cpu = env->cpu;
    p->vm_hidden = env->vm_hidden;
    p->quick = env->profile == BM_PROFILE_QUICK;         /* settled once (run_env_decide) */
    p->overhead_samples = cfg->methods_samples;
    p->samples = p->quick && cfg->methods_samples > METHODS_QUICK_SAMPLES ? METHODS_QUICK_SAMPLES
                                                                           : cfg->methods_samples;
    p->iterations = cfg->methods_iterations;
    p->paoloni_ensembles = p->quick ? METHODS_QUICK_PAOLONI_ENS : METHODS_FULL_PAOLONI_ENS;
    p->paoloni_ensemble_size = p->quick ? METHODS_QUICK_PAOLONI_ENS_SIZE : METHODS_FULL_PAOLONI_ENS_SIZE;
    p->paoloni_sizes = p->quick ? METHODS_QUICK_PAOLONI_SIZES : METHODS_FULL_PAOLONI_SIZES;
    p->interrupts_maskable = (env->caps & PLAT_CAP_IRQ_MASK) != 0;
}

int methods_section(const struct methods_plan *p, struct json_writer *w)
{
    struct methods_cpu c;
    struct methods_best best;
    struct methods_plugin_best *plugin_bests = NULL;
    unsigned nplugins = 0;
    uint64_t hz = plat_tick_hz(), t0 = plat_ticks();
    int bad = 0;

    quiet_phase_totals_init(&methods_qt);
    methods_best_init(&best);
    memset(methods_steps, 0, sizeof methods_steps);
    methods_cpu_probe(&c, p->cpu, p->vm_hidden);
    methods_print_header(p, &c, hz);
    pmu_session_probe(p->cpu);
    pmu_print(pmu_session());
    if (w) {
        methods_json_header(w, p, &c, hz);
        pmu_json(w, "pmu", pmu_session());
    }

    if (w)
        json_arr_begin(w, "methods");
    /* the console's progress (out_progress): each method's overhead, each
     * target, the plug-ins, the A/A control, each method's Paoloni fit */
    const unsigned ntargets = sizeof methods_matrix / sizeof methods_matrix[0];
    const unsigned steps = 2 * METHODS_COUNT + ntargets + 2;
    unsigned done = 0;
    char what[64];
    for (int m = 0; m < METHODS_COUNT; m++) {
        bad |= methods_part_method(p, &c, m, hz, w);
        snprintf(what, sizeof what, "%s's overhead", methods_table[m].name);
        out_progress(++done, steps, what);
    }
    if (w)
        json_arr_end(w);

    out_printf("net time per iteration in ticks: minus the placeholder, Apple's (N+2)-(2), N vs 2N; "
               "net samples = (timing - placeholder median) / N\n");
    if (w)
        json_arr_begin(w, "measurements");
    for (size_t i = 0; i < sizeof methods_matrix / sizeof methods_matrix[0]; i++) {
        const struct target *t = targets_find(methods_matrix[i]);
        if (t)
            bad |= methods_part_target(p, &c, t, hz, w,
                                       !strcmp(t->name, METHODS_PROFILE_TARGET) ? &best : NULL);
        out_progress(++done, steps, methods_matrix[i]);
    }
    bad |= methods_part_plugins(p, &c, hz, w, &plugin_bests, &nplugins);
    out_progress(++done, steps, "the plug-ins' routines");
    if (w)
        json_arr_end(w);
    methods_part_profile(METHODS_PROFILE_TARGET, "extended_profile", &best, hz, w);
    if (nplugins && w)
        json_arr_begin(w, "extended_profiles");
    for (unsigned i = 0; i < nplugins; i++)
        methods_part_profile(plugin_bests[i].t->name, NULL, &plugin_bests[i].b, hz, w);
    if (nplugins && w)
        json_arr_end(w);
    plat_free(plugin_bests);
    bad |= methods_part_aa(p, &c, methods_step_for(METHODS_AA_METHOD), &methods_qt, w);
    out_progress(++done, steps, "the A/A control");

    out_printf("Paoloni: %u ensembles of %u back-to-back timings (minimum of each); add1 with 1..%u "
               "iterations (minimum of %u each)\n", (unsigned)p->paoloni_ensembles,
               (unsigned)p->paoloni_ensemble_size, (unsigned)p->paoloni_sizes, (unsigned)p->paoloni_ensemble_size);
    out_printf("  %-20s %10s %8s %9s %10s %10s %8s %10s\n", "method", "var(min)", "distinct", "spurious",
               "slope", "intercept", "R^2", "resid var");
    if (w)
        json_arr_begin(w, "paoloni");
    for (int m = 0; m < METHODS_COUNT; m++) {
        bad |= methods_part_paoloni(p, &c, m, w);
        snprintf(what, sizeof what, "%s's Paoloni fit", methods_table[m].name);
        out_progress(++done, steps, what);
    }
    if (w)
        json_arr_end(w);
    quiet_phase_totals_print("methods", &methods_qt);
    quiet_phase_totals_json(w, "quiet_phases", &methods_qt);
    methods_print_elapsed("methods", plat_ticks() - t0, hz);
    return bad ? 2 : 0;
}

int methods_run(const struct section_ctx *ctx)
{
    struct methods_plan p;
    methods_plan_from_config(ctx->cfg, ctx->env, &p);
    struct json_writer *w = results_section_begin("methods", 0);
    int rc = methods_section(&p, w);
    results_section_end();
    return rc;
}
