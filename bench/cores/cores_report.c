/*
 * bench/cores/cores_report.c - the cores section's text on serial and screen (see
 * cores.h), from what bench/cores/cores_section.c measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytemark/bytemark.h"
#include "cores.h"
#include "platform.h"

const char *cores_state_name(enum plat_worker_state s)
{
    static const char *const names[] = { "none", "refused", "no_answer", "ready", "lost",
                                         "halted", "stopped", "blocked" };
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

void cores_print_latency(struct cores *c)
{
    uint32_t missing = 0;
    out_printf("cores: core-to-core latency: ROUND TRIP between CPUs (ping there, pong back; each flag "
               "alone in a 128-byte block), min/median ns, one way = half of it in brackets (%u samples "
               "of %u round trips per pair)\n     ", CORES_BOUNCE_SAMPLES, CORES_BOUNCE_TRIPS);
    for (uint32_t j = 0; j < c->nsel; j++)
        out_printf(" %19u", c->order[j]);
    out_printf("\n");
    for (uint32_t i = 0; i < c->nsel; i++) {
        out_printf("  %3u", c->order[i]);
        for (uint32_t j = 0; j < c->nsel; j++) {
            uint64_t mn = c->lat_min[i * c->nsel + j], md = c->lat_med[i * c->nsel + j];
            if (i == j) {
                out_printf(" %19s", "-");
            } else if (!mn) {
                out_printf(" %19s", "n/a");
                missing++;
            } else {
                char cell[48];
                snprintf(cell, sizeof cell, "%.0f/%.0f (%.0f/%.0f)", cores_ns(c, (double)mn),
                         cores_ns(c, (double)md), cores_ns(c, (double)mn) / 2, cores_ns(c, (double)md) / 2);
                out_printf(" %19s", cell);
            }
        }
        out_printf("\n");
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
    const char *prof = config_profile_name(c->profile);
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
        const struct cores_overlap *o = &c->overlap[id];
        out_printf("cores: %s on %u CPU%s at once (%u core%s%s): sum %.5g %s, %.2f times one core; all "
                   "ran at the same time for %.0f%% of the %.1f ms from first start to last end (%.2f "
                   "running on average)\n", bytemark_kernel((enum bm_test_id)id)->name, m, m == 1 ? "" : "s",
                   c->all_cores[id], c->all_cores[id] == 1 ? "" : "s",
                   c->all_cores[id] < m ? ": SMT siblings share cores, a sum over threads is not one over cores"
                                        : "",
                   sum, bytemark_kernel((enum bm_test_id)id)->unit, ratio, 100 * o->all_fraction,
                   cores_ns(c, (double)o->span) / 1e6, o->mean_running);
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

static const char *const cores_part_names[CORES_PARTS] = {
    [CORES_PART_START] = "start", [CORES_PART_TSC] = "tsc", [CORES_PART_LATENCY] = "latency",
    [CORES_PART_SCORES] = "scores", [CORES_PART_RATE] = "rate",
};

const char *cores_part_name(enum cores_part p)
{
    return p < CORES_PARTS ? cores_part_names[p] : "?";
}

/* How the section scales: its time for this many CPUs, part by part (a
 * lab sizing SMP for a 128-thread machine reads it off a smaller one). */
void cores_print_took(const struct cores *c)
{
    char parts[160] = "";
    size_t at = 0;
    for (int p = 0; p < CORES_PARTS; p++) {
        if (!c->took[p])
            continue;
        int n = snprintf(parts + at, sizeof parts - at, "%s%s %.1f s", at ? ", " : "", cores_part_name(p),
                         cores_ns(c, (double)c->took[p]) / 1e9);
        if (n < 0 || (size_t)n >= sizeof parts - at)
            break;
        at += (size_t)n;
    }
    out_printf("cores: took %.1f s for %u CPU%s (%s)\n", cores_ns(c, (double)c->took_total) / 1e9, c->nsel,
               c->nsel == 1 ? "" : "s", at ? parts : "the list only");
}
