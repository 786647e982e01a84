/*
 * bench/cores_report.c - the cores section's text on serial and screen and
 * its LAVA cases (see cores.h), from what kernel/cores.c measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "cores.h"
#include "lava.h"
#include "out.h"

const char *cores_state_name(enum plat_worker_state s)
{
    static const char *const names[] = { "none", "refused", "no_answer", "ready", "lost",
                                         "halted", "stopped" };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *cores_worker_text(const struct cores *c, uint32_t n)
{
    if (n == c->mi.bsp)
        return "bsp";
    if (!c->cpu[n].selected)
        return "not selected";
    if (!(c->mi.cpu[n].flags & PLAT_CPU_ENABLED))
        return "disabled";
    return cores_state_name(plat_worker_state(n));
}

void cores_print_list(const struct cores *c)
{
    out_printf("  CPU   APIC ID  firmware pkg/core/thread  CPUID 0x%X pkg/core/thread  type    state\n",
               c->cpu[c->mi.bsp].id.topo_leaf ? c->cpu[c->mi.bsp].id.topo_leaf : 0xB);
    for (uint32_t n = 0; n < c->mi.count; n++) {
        const struct plat_cpu *m = &c->mi.cpu[n];
        const struct cores_cpu *p = &c->cpu[n];
        char t[8], cp[40];
        if (p->id.read && p->topo.valid)
            snprintf(cp, sizeof cp, "%u/%u/%u", p->topo.package, p->topo.core, p->topo.thread);
        else
            snprintf(cp, sizeof cp, "%s", p->id.read ? "no topology leaf" : "-");
        out_printf("  %3u  %8llu  %12u/%u/%u  %24s  %-6s  %s\n", n, (unsigned long long)m->apic_id,
                   m->package, m->core, m->thread, cp,
                   p->id.read ? cores_type_name(p->topo.core_type, t, sizeof t) : "-",
                   cores_worker_text(c, n));
    }
}

double cores_ns(const struct cores *c, double ticks) { return ticks * 1e9 / (double)c->hz; }

void cores_print_tsc(struct cores *c)
{
    uint32_t b = c->mi.bsp;
    out_printf("cores: TSC of every CPU against CPU %u: warp check (%u lock turns each), offset from "
               "%u round trips each way, rate against the %s (median of %u windows of %u ms)\n", b,
               CORES_WARP_LOOPS, CORES_PING_SAMPLES, c->ref_name, CORES_RATE_WINDOWS, CORES_RATE_WINDOW_MS);
    out_printf("  CPU  warp: largest step back  offset ticks (+-)      offset ns (+-)     "
               "rate MHz       vs CPU %u ppm (+-)\n", b);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        char rate[64] = "-", warp[40] = "-", off[48] = "-", offns[48] = "-";
        if (!t->rate.failed && t->rate.hz > 0 && n == b)
            snprintf(rate, sizeof rate, "%12.6f  (reference)", t->rate.hz / 1e6);
        else if (!t->rate.failed && t->rate.hz > 0)
            snprintf(rate, sizeof rate, "%12.6f  %+9.2f (%.2f)", t->rate.hz / 1e6, t->rate_ppm,
                     t->rate_unc_ppm);
        if (n == b) {
            snprintf(warp, sizeof warp, "(reference)");
        } else if (t->measured) {
            snprintf(warp, sizeof warp, "%llu ticks (%llu of %llu)",
                     (unsigned long long)t->warp_max_back, (unsigned long long)t->warp_backs,
                     (unsigned long long)t->warp_loops);
            snprintf(off, sizeof off, "%+.1f (%.1f)%s", t->skew_ticks, t->skew_unc_ticks,
                     t->skew_consistent ? "" : " EMPTY");
            snprintf(offns, sizeof offns, "%+.1f (%.1f)", cores_ns(c, t->skew_ticks),
                     cores_ns(c, t->skew_unc_ticks));
        }
        out_printf("  %3u  %-24s  %-21s  %-17s  %s\n", n, warp, off, offns, rate);
        if (t->fail.failed)
            out_printf("       CPU %u: %s\n", n, t->fail.why);
    }
}

/* LAVA cases of CPU n's TSC (bench/lava.h): offset and rate against the
 * BSP, fail when a warning was given for them. */
static void cores_lava_tsc(const struct cores *c, uint32_t n, int offset_bad, int rate_bad)
{
    const struct cores_tsc *t = &c->cpu[n].tsc;
    if (n == c->mi.bsp)
        return;
    if (t->fail.failed) {
        lava_casef(LAVA_FAIL, NAN, NULL, "cores_cpu%u_tsc_offset_ns", n);
        lava_casef(LAVA_FAIL, NAN, NULL, "cores_cpu%u_tsc_rate_ppm", n);
        return;
    }
    if (t->measured)
        lava_casef(offset_bad ? LAVA_FAIL : LAVA_PASS, cores_ns(c, t->skew_ticks), "ns",
                   "cores_cpu%u_tsc_offset_ns", n);
    else
        lava_casef(LAVA_SKIP, NAN, NULL, "cores_cpu%u_tsc_offset_ns", n);
    if (!t->rate.failed && t->rate.hz > 0)
        lava_casef(rate_bad ? LAVA_FAIL : LAVA_PASS, t->rate_ppm, "ppm", "cores_cpu%u_tsc_rate_ppm", n);
    else
        lava_casef(LAVA_SKIP, NAN, NULL, "cores_cpu%u_tsc_rate_ppm", n);
}

void cores_warn_tsc(struct cores *c)
{
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_tsc *t = &c->cpu[n].tsc;
        int before = c->warnings, offset_bad = 0;
        if (t->fail.failed) {
            out_warn("cores: CPU %u: TSC check not done: %s", n, t->fail.why);
            c->warnings++;
            cores_lava_tsc(c, n, 1, 1);
            continue;
        }
        if (n != c->mi.bsp && t->measured) {
            if (t->warp_max_back) {
                out_warn("cores: CPU %u: the TSC stepped back by up to %llu ticks against CPU %u "
                         "(%llu times): the TSCs are not synchronised", n,
                         (unsigned long long)t->warp_max_back, c->mi.bsp,
                         (unsigned long long)t->warp_backs);
                c->warnings++;
            }
            if (!t->skew_consistent) {
                out_warn("cores: CPU %u: the round trips allow no constant TSC offset (the TSCs "
                         "drift apart or reads were reordered)", n);
                c->warnings++;
            } else if (cores_ns(c, fabs(t->skew_ticks) - t->skew_unc_ticks) > CORES_SKEW_BOUND_NS) {
                out_warn("cores: CPU %u: TSC offset %+.0f ns (+- %.0f) against CPU %u, beyond "
                         "+-%.0f ns", n, cores_ns(c, t->skew_ticks), cores_ns(c, t->skew_unc_ticks),
                         c->mi.bsp, CORES_SKEW_BOUND_NS);
                c->warnings++;
            }
        }
        offset_bad = c->warnings != before;
        if (n != c->mi.bsp && !t->rate.failed && t->rate.hz > 0
            && fabs(t->rate_ppm) - t->rate_unc_ppm > CORES_RATE_BOUND_PPM) {
            out_warn("cores: CPU %u: TSC rate %.6f MHz is %+.1f ppm (+- %.1f) from CPU %u's, beyond "
                     "%.0f ppm", n, t->rate.hz / 1e6, t->rate_ppm, t->rate_unc_ppm, c->mi.bsp,
                     CORES_RATE_BOUND_PPM);
            c->warnings++;
        }
        cores_lava_tsc(c, n, offset_bad, c->warnings != before + offset_bad);
    }
}

void cores_print_latency(struct cores *c)
{
    uint32_t missing = 0;
    out_printf("cores: cache-line round trip between CPUs, min/median ns (%u samples of %u round "
               "trips per pair)\n     ", CORES_BOUNCE_SAMPLES, CORES_BOUNCE_TRIPS);
    for (uint32_t j = 0; j < c->nsel; j++)
        out_printf(" %11u", c->order[j]);
    out_printf("\n");
    for (uint32_t i = 0; i < c->nsel; i++) {
        out_printf("  %3u", c->order[i]);
        for (uint32_t j = 0; j < c->nsel; j++) {
            uint64_t mn = c->lat_min[i * c->nsel + j], md = c->lat_med[i * c->nsel + j];
            if (i == j) {
                out_printf(" %11s", "-");
            } else if (!mn) {
                out_printf(" %11s", "n/a");
                missing++;
            } else {
                char cell[32];
                snprintf(cell, sizeof cell, "%.0f/%.0f", cores_ns(c, (double)mn), cores_ns(c, (double)md));
                out_printf(" %11s", cell);
            }
        }
        out_printf("\n");
    }
    /* LAVA cases after the table (their lines must not split its rows) */
    for (uint32_t i = 0; i < c->nsel; i++)
        for (uint32_t j = i + 1; j < c->nsel; j++) {
            uint64_t md = c->lat_med[i * c->nsel + j];
            lava_casef(md ? LAVA_PASS : LAVA_FAIL, md ? cores_ns(c, (double)md) : NAN, "ns",
                       "cores_latency_cpu%u_cpu%u_ns", c->order[i], c->order[j]);
        }
    if (missing) {
        out_warn("cores: %u cells of the latency matrix were not measured (a CPU did not answer)",
                 missing / 2);
        c->warnings++;
    }
}

const char *cores_bm_status(const struct cores_score *s)
{
    if (!s->ran)
        return "not_run";
    if (s->fail.failed)
        return "failed_fault";
    switch (s->job.status) {
    case BM_OK: return "ok";
    case BM_ENOMEM: return "skipped_nomem";
    case BM_ECAP: return "failed_cap";
    default: return "failed";
    }
}


uint32_t cores_all_sum(const struct cores *c, int id, double *sum, double *ratio)
{
    double one = 0;
    uint32_t m = 0, m1 = 0;
    *sum = 0;
    for (uint32_t k = 0; k < c->nsel; k++) {
        const struct cores_cpu *p = &c->cpu[c->order[k]];
        if (!p->all[id].ran || p->all[id].fail.failed || p->all[id].job.status != BM_OK)
            continue;
        *sum += p->all[id].job.mean;
        m++;
        if (p->score[id].ran && !p->score[id].fail.failed && p->score[id].job.status == BM_OK) {
            one += p->score[id].job.mean;
            m1++;
        }
    }
    *ratio = m1 && one > 0 ? *sum / (one / m1) : 0;
    return m;
}

void cores_print_scores(struct cores *c)
{
    const char *prof = c->cfg->profile == BM_PROFILE_FULL ? "full" : "quick";
    out_printf("cores: BYTEmark on each CPU in turn (%s profile), mean and 95%% half-interval\n  CPU", prof);
    for (int id = 0; id < BM_NTESTS; id++)
        if (c->tests & (1u << id))
            out_printf("  %-26s", bytemark_kernel((enum bm_test_id)id)->name);
    out_printf("\n");
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        out_printf("  %3u", n);
        for (int id = 0; id < BM_NTESTS; id++) {
            if (!(c->tests & (1u << id)))
                continue;
            const struct cores_score *s = &c->cpu[n].score[id];
            char cell[40];
            if (s->ran && !s->fail.failed && s->job.status == BM_OK)
                snprintf(cell, sizeof cell, "%.5g +-%.1f%%", s->job.mean, 100 * s->job.rel_half);
            else
                snprintf(cell, sizeof cell, "%s", cores_bm_status(s));
            out_printf("  %-26s", cell);
        }
        out_printf("\n");
    }
    /* LAVA cases after the table (their lines must not split its rows) */
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        for (int id = 0; id < BM_NTESTS; id++) {
            const struct cores_score *s = &c->cpu[n].score[id];
            const struct bm_kernel *ki = bytemark_kernel((enum bm_test_id)id);
            if (!(c->tests & (1u << id)))
                continue;
            if (s->ran && !s->fail.failed && s->job.status == BM_OK)
                lava_casef(LAVA_PASS, s->job.mean, ki->unit, "cores_cpu%u_%s", n, ki->key);
            else
                lava_casef(s->ran ? LAVA_FAIL : LAVA_SKIP, NAN, NULL, "cores_cpu%u_%s", n, ki->key);
        }
    }
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        for (int id = 0; id < BM_NTESTS; id++) {
            const struct cores_score *s = &c->cpu[n].score[id];
            if (!s->ran || (!s->fail.failed && s->job.status == BM_OK))
                continue;
            out_warn("cores: CPU %u: %s %s%s%s", n, bytemark_kernel((enum bm_test_id)id)->name,
                     s->fail.failed ? "stopped: " : "did not complete: ",
                     s->fail.failed ? s->fail.why : cores_bm_status(s), "");
            c->warnings++;
        }
    }
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        double sum, ratio;
        uint32_t m = cores_all_sum(c, id, &sum, &ratio);
        out_printf("cores: %s on %u CPU%s at once: sum %.5g %s, %.2f times one core\n",
                   bytemark_kernel((enum bm_test_id)id)->name, m, m == 1 ? "" : "s", sum,
                   bytemark_kernel((enum bm_test_id)id)->unit, ratio);
        lava_casef(m ? LAVA_PASS : LAVA_FAIL, m ? sum : NAN, bytemark_kernel((enum bm_test_id)id)->unit,
                   "cores_all_%s_sum", bytemark_kernel((enum bm_test_id)id)->key);
        lava_casef(m ? LAVA_PASS : LAVA_FAIL, m ? ratio : NAN, "ratio", "cores_all_%s_ratio",
                   bytemark_kernel((enum bm_test_id)id)->key);
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            const struct cores_score *s = &c->cpu[n].all[id];
            if (s->ran && (s->fail.failed || s->job.status != BM_OK)) {
                out_warn("cores: CPU %u: %s with all CPUs: %s", n,
                         bytemark_kernel((enum bm_test_id)id)->name,
                         s->fail.failed ? s->fail.why : cores_bm_status(s));
                c->warnings++;
            }
        }
    }
}
