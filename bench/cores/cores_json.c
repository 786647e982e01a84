/*
 * bench/cores/cores_json.c - the "cores" member of the results (see cores.h and
 * docs/results-schema.md), from what bench/cores/cores_section.c measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "cores.h"
#include "figures_cores.h"
#include "json.h"
#include "platform.h"

/* ---- JSON ------------------------------------------------------------------------------- */

static void cores_json_fail(struct json_writer *w, const char *key, const struct cores_fail *f)
{
    if (f->failed)
        json_str(w, key, f->why);
}

static void cores_json_score(struct json_writer *w, const struct cores_score *s, enum bm_test_id id)
{
    const struct bm_kernel *k = bytemark_kernel(id);
    json_obj_begin(w, NULL);
    json_str(w, "key", k->key);
    json_str(w, "status", cores_bm_status(s));
    cores_json_fail(w, "why", &s->fail);
    if (s->ran && !s->fail.failed) {
        json_str(w, "unit", k->unit);
        json_double(w, "min_seconds", s->job.min_seconds);
        json_u64(w, "workload", s->job.workload);
        json_arr_begin(w, "scores");
        for (size_t i = 0; i < s->job.runs; i++)
            json_double(w, NULL, s->job.scores[i]);
        json_arr_end(w);
    }
    if (s->ran && !s->fail.failed && s->job.status == BM_OK) {
        json_u64(w, "runs", s->job.runs);
        json_fig_double(w, &figures_cores, FIG_CORES_PER_CORE_MEAN, s->job.mean);
        json_double(w, "sd", s->job.sd);
        json_double(w, "half", s->job.half);
        json_double(w, "rel_half", s->job.rel_half);
        json_bool(w, "certain", s->job.certain);
    }
    json_obj_end(w);
}

static void cores_json_cpu(struct json_writer *w, const struct cores *c, uint32_t n)
{
    const struct plat_cpu *m = &c->mi.cpu[n];
    const struct cores_cpu *p = &c->cpu[n];
    char t[8];
    json_obj_begin(w, NULL);
    json_u64(w, "number", n);
    json_u64(w, "apic_id", m->apic_id);
    json_bool(w, "bsp", n == c->mi.bsp);
    json_bool(w, "enabled", (m->flags & PLAT_CPU_ENABLED) != 0);
    json_bool(w, "healthy", (m->flags & PLAT_CPU_HEALTHY) != 0);
    json_bool(w, "selected", p->selected);
    json_str(w, "state", cores_worker_text(c, n));
    cores_json_fail(w, "why", &p->fail);
    if (p->selected && p->threads_in_core) {
        json_u64(w, "core_of", p->core_of);
        json_u64(w, "threads_in_core", p->threads_in_core);
    }
    json_obj_begin(w, "firmware");
    json_u64(w, "package", m->package);
    json_u64(w, "core", m->core);
    json_u64(w, "thread", m->thread);
    if (m->has_location2) {
        json_u64(w, "module", m->module);
        json_u64(w, "tile", m->tile);
        json_u64(w, "die", m->die);
    }
    json_obj_end(w);
    if (p->id.read) {
        json_obj_begin(w, "cpuid");
        json_u64(w, "leaf", p->id.topo_leaf);
        json_u64(w, "initial_apic_id", p->id.leaf1_ebx >> 24);
        json_u64(w, "signature", p->id.leaf1_eax);
        if (p->topo.valid) {
            json_u64(w, "x2apic_id", p->topo.apic_id);
            json_u64(w, "smt_bits", p->topo.smt_bits);
            json_u64(w, "core_bits", p->topo.core_bits);
            json_u64(w, "package", p->topo.package);
            json_u64(w, "core", p->topo.core);
            json_u64(w, "thread", p->topo.thread);
        }
        json_bool(w, "hybrid", p->id.hybrid);
        json_str(w, "core_type", cores_type_name(p->topo.core_type, t, sizeof t));
        json_str(w, "tsc_adjust_msr", p->id.tsc_adjust_read > 0 ? "read" : p->id.tsc_adjust_read == 0
                                      ? "unreadable" : "absent");
        if (p->id.tsc_adjust_read > 0)
            json_i64(w, "tsc_adjust", p->id.tsc_adjust);
        json_bool(w, "rdtscp", p->id.rdtscp);
        json_str(w, "lfence_serializing", p->id.lfence_serializing < 0 ? "unknown"
                                          : p->id.lfence_serializing ? "yes" : "no");
        json_obj_end(w);
    } else {
        json_null(w, "cpuid");
    }
    json_obj_end(w);
}

static void cores_json_tsc(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "tsc");
    json_str(w, "reference", c->ref_name);
    json_u64(w, "reference_cpu", c->mi.bsp);
    json_u64(w, "warp_loops", CORES_WARP_LOOPS);
    json_u64(w, "warp_min_handoffs", CORES_WARP_HANDOFFS);
    json_u64(w, "round_trips_each_way", CORES_PING_SAMPLES);
    json_u64(w, "rate_sessions", (uint64_t)c->rate_sessions);
    json_u64(w, "rate_points_per_session", CORES_RATE_POINTS);
    json_double(w, "rate_step_ms", CORES_RATE_STEP_MS);
    if (isnan(c->rate_detectable_ppm))
        json_null(w, "rate_detectable_ppm");
    else
        json_double(w, "rate_detectable_ppm", c->rate_detectable_ppm);
    json_double(w, "skew_bound_ns", CORES_SKEW_BOUND_NS);
    json_double(w, "rate_bound_ppm", CORES_RATE_BOUND_PPM);
    json_arr_begin(w, "cpus");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        const struct cores_tsc *t = &c->cpu[n].tsc;
        json_obj_begin(w, NULL);
        json_u64(w, "cpu", n);
        cores_json_fail(w, "why", &t->fail);
        if (t->measured && n != c->mi.bsp) {
            json_u64(w, "warp_max_back_ticks", t->warp.max_back);
            json_u64(w, "warp_backs", t->warp.backs);
            json_u64(w, "warp_turns", t->warp.turns);
            json_u64(w, "warp_handoffs", t->warp.handoffs);
            json_u64(w, "offset_samples", t->bounds.samples);
            json_i64(w, "offset_lo_ticks", t->bounds.lo);
            json_i64(w, "offset_hi_ticks", t->bounds.hi);
            json_u64(w, "min_round_trip_ticks", t->bounds.min_rtt);
            json_bool(w, "offset_consistent", t->skew_consistent);
            json_double(w, "offset_ticks", t->skew_ticks);
            json_double(w, "offset_uncertainty_ticks", t->skew_unc_ticks);
            json_fig_double(w, &figures_cores, FIG_CORES_TSC_OFFSET_NS, cores_ns(c, t->skew_ticks));
            json_double(w, "offset_uncertainty_ns", cores_ns(c, t->skew_unc_ticks));
            json_bool(w, "offset_ok", !t->offset_warned);
        }
        if (t->fit.ok) {
            json_double(w, "rate_hz", t->fit.hz);
            json_u64(w, "rate_points", t->fit.used);
            json_u64(w, "rate_points_dropped", t->fit.dropped);
            json_double(w, "rate_span_ms", cores_ns(c, (double)t->fit.span_tsc) / 1e6);
            json_double(w, "rate_se_ppm", t->fit.se_rel * 1e6);
            json_u64(w, "rate_tsc_ticks", t->fit.span_tsc);
            json_u64(w, "rate_ref_ticks", t->fit.span_ref);
            json_u64(w, "rate_edge_ticks", t->fit.median_width);
            if (n != c->mi.bsp && !isnan(t->diff.ppm)) {
                json_fig_double(w, &figures_cores, FIG_CORES_TSC_RATE_PPM, t->diff.ppm);
                json_double(w, "rate_uncertainty_ppm", t->diff.half95_ppm);
                json_double(w, "rate_detectable_ppm", t->diff.detectable_ppm);
                json_bool(w, "rate_ok", !t->rate_warned);
            }
        }
        if (n != c->mi.bsp && t->rate.failed && !(t->fit.ok && !isnan(t->diff.ppm)))
            json_str(w, "rate_why", "not measured: a rate session timed out");
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

/* A matrix, member key; row: the figure table's row for its cells
 * (FIG_CORES_LATENCY_MEDIAN_NS), or -1 for one "latency.*" declares. */
static void cores_json_matrix(struct json_writer *w, const struct cores *c, const char *key,
                              const uint64_t *m, int ns, int row)
{
    const struct figure_table *t = row >= 0 ? &figures_cores : NULL;
    json_arr_begin(w, key);
    for (uint32_t i = 0; i < c->nsel; i++) {
        json_arr_begin(w, NULL);
        for (uint32_t j = 0; j < c->nsel; j++) {
            uint64_t v = m[i * c->nsel + j];
            if (i == j || !v)
                json_fig_or_null(w, t, (unsigned)row, NULL);
            else if (ns)     /* 2: one way, half of it */
                json_fig_or_double(w, t, (unsigned)row, NULL, cores_ns(c, (double)v) / ns);
            else
                json_u64(w, NULL, v);
        }
        json_arr_end(w);
    }
    json_arr_end(w);
}

static void cores_json_latency(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "latency");
    json_u64(w, "samples", CORES_BOUNCE_SAMPLES);
    json_u64(w, "round_trips_per_sample", CORES_BOUNCE_TRIPS);
    cores_json_fail(w, "why", &c->lat_fail);
    json_arr_begin(w, "cpus");
    for (uint32_t k = 0; k < c->nsel; k++)
        json_u64(w, NULL, c->order[k]);
    json_arr_end(w);
    if (c->lat_min && c->lat_med && !c->lat_fail.failed) {
        cores_json_matrix(w, c, "min_ticks", c->lat_min, 0, -1);
        cores_json_matrix(w, c, "median_ticks", c->lat_med, 0, -1);
        cores_json_matrix(w, c, "min_ns", c->lat_min, 1, -1);
        cores_json_matrix(w, c, "median_ns", c->lat_med, 1, FIG_CORES_LATENCY_MEDIAN_NS);
        cores_json_matrix(w, c, "one_way_min_ns", c->lat_min, 2, -1);
        cores_json_matrix(w, c, "one_way_median_ns", c->lat_med, 2, -1);
    }
    json_str(w, "layout", "round trip: the initiator writes ping, the responder answers on pong; "
             "each flag alone in its own 128-byte block; one way = half the round trip");
    json_obj_end(w);
}

static void cores_json_scores(struct json_writer *w, const struct cores *c)
{
    json_obj_begin(w, "scores");
    json_arr_begin(w, "tests");
    for (int id = 0; id < BM_NTESTS; id++)
        if (c->tests & (1u << id))
            json_str(w, NULL, bytemark_kernel((enum bm_test_id)id)->key);
    json_arr_end(w);
    json_arr_begin(w, "per_core");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        json_obj_begin(w, NULL);
        json_u64(w, "cpu", n);
        json_arr_begin(w, "tests");
        for (int id = 0; id < BM_NTESTS; id++)
            if (c->tests & (1u << id))
                cores_json_score(w, &c->cpu[n].score[id], (enum bm_test_id)id);
        json_arr_end(w);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_arr_begin(w, "all_cores");
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        double sum, ratio;
        uint32_t m = cores_all_sum(c, id, &sum, &ratio);
        json_obj_begin(w, NULL);
        json_str(w, "key", bytemark_kernel((enum bm_test_id)id)->key);
        json_u64(w, "cpus", m);
        json_fig_double(w, &figures_cores, FIG_CORES_ALL_CORES_SUM, sum);
        json_fig_double(w, &figures_cores, FIG_CORES_ALL_CORES_RATIO, ratio);
        json_u64(w, "cores", c->all_cores[id]);
        json_bool(w, "smt_siblings", c->all_cores[id] < m);
        json_obj_begin(w, "overlap");
        json_double(w, "span_ms", cores_ns(c, (double)c->overlap[id].span) / 1e6);
        json_double(w, "all_at_once_ms", cores_ns(c, (double)c->overlap[id].all) / 1e6);
        json_double(w, "all_at_once_fraction", c->overlap[id].all_fraction);
        json_double(w, "mean_running", c->overlap[id].mean_running);
        json_obj_end(w);
        json_arr_begin(w, "per_cpu");
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            json_obj_begin(w, NULL);
            json_u64(w, "cpu", n);
            const struct cores_score *s = &c->cpu[n].all[id];
            json_str(w, "status", cores_bm_status(s));
            cores_json_fail(w, "why", &s->fail);
            json_u64(w, "core_of", c->cpu[n].core_of);
            json_u64(w, "threads_in_core", c->cpu[n].threads_in_core);
            if (s->ran && !s->fail.failed && s->job.status == BM_OK) {
                json_u64(w, "runs", s->job.runs);
                json_double(w, "mean", s->job.mean);
                json_double(w, "rel_half", s->job.rel_half);
            }
            json_obj_end(w);
        }
        json_arr_end(w);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

void cores_json(const struct cores *c)
{
    struct json_writer *w = results_section_begin("cores", 0);
    json_bool(w, "mp_services", c->mi.present);
    if (c->mi.why && c->mi.why[0])
        json_str(w, "note", c->mi.why);
    json_fig_u64(w, &figures_cores, FIG_CORES_COUNT, c->mi.present ? c->mi.count : 1);
    json_fig_u64(w, &figures_cores, FIG_CORES_ENABLED, c->mi.present ? c->mi.enabled : 1);
    json_fig_u64(w, &figures_cores, FIG_CORES_BSP, c->mi.bsp);
    if (c->have_madt)
        json_fig_u64(w, &figures_cores, FIG_CORES_MADT_CPUS, c->madt_cpus);
    json_fig_u64(w, &figures_cores, FIG_CORES_TICK_HZ, c->hz);
    json_str(w, "cores_setting", c->cfg->cores_list);
    json_arr_begin(w, "selected");
    for (uint32_t k = 0; k < c->nsel; k++)
        json_fig_u64(w, &figures_cores, FIG_CORES_SELECTED, c->order[k]);
    json_arr_end(w);
    if (c->read_chosen) {
        json_obj_begin(w, "tsc_read");
        json_str(w, "sequence", cores_read_text(c->read));
        json_str(w, "why", c->read_why);
        json_obj_end(w);
    }
    if (c->kept_bytes)
        json_fig_u64(w, &figures_cores, FIG_CORES_KEPT_BYTES, c->kept_bytes);
    json_bool(w, "tsc_measured", (c->parts & BM_SMP_TSC) != 0);
    json_bool(w, "latency_measured", (c->parts & BM_SMP_LATENCY) != 0);
    json_bool(w, "scores_measured", (c->parts & BM_SMP_SCORES) != 0);
    if (c->took_total && c->hz) {
        json_obj_begin(w, "took_s");
        json_double(w, "total", cores_ns(c, (double)c->took_total) / 1e9);
        for (int p = 0; p < CORES_PARTS; p++)
            if (c->took[p])
                json_double(w, cores_part_name(p), cores_ns(c, (double)c->took[p]) / 1e9);
        json_obj_end(w);
    }
    json_arr_begin(w, "cpus");
    if (c->mi.present && c->cpu)
        for (uint32_t n = 0; n < c->mi.count; n++)
            cores_json_cpu(w, c, n);
    json_arr_end(w);
    if (c->parts & BM_SMP_TSC)
        cores_json_tsc(w, c);
    if (c->parts & BM_SMP_LATENCY)
        cores_json_latency(w, c);
    if (c->parts & BM_SMP_SCORES)
        cores_json_scores(w, c);
    json_fig_u64(w, &figures_cores, FIG_CORES_WARNINGS, (uint64_t)c->warnings);
    quiet_phase_totals_json(w, "quiet_phases", &c->qt);
    results_section_end();
}
