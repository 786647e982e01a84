/*
 * bench/cores/cores_section.c - the cores section (see bench/cores/cores.h): the BSP drives,
 * the APs' workers (port/platform.h) run bench/cores/cores_work.h and BYTEmark
 * tests (bench/cores/cores_score.c), posted and collected by bench/cores/cores_drive.c;
 * the TSC part is bench/cores/cores_tsc.c;
 * bench/cores_report*.c and bench/cores/cores_json.c print and write what was
 * measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acpi.h"
#include "bytemark/bytemark.h"
#include "cores.h"
#include "cores_internal.h"
#include "cores_math.h"
#include "section.h"
#include "cores_work.h"
#include "cpu.h"
#include "platform.h"
#include "quiet.h"
#include "trap.h"

/* ---- 1. the list ---------------------------------------------------------------------- */

static void cores_probe_all(struct cores *c)
{
    quiet_phase_begin();
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        struct cores_fail f = { 0, "" };
        c->cpu[n].id.vm_hidden = c->vm_hidden;
        if (cores_alive(c, n))
            cores_one(c, n, cores_probe, &c->cpu[n].id, &f, c->timeout_ticks);
        cores_topo_decode(&c->cpu[n].id, &c->cpu[n].topo);
    }
    quiet_phase_end_add(&c->qt);
}

/* One fence choice for every selected CPU that answered (cores_math.h). */
static void cores_choose_read(struct cores *c)
{
    struct cores_cpuid *ids = plat_alloc(c->nsel * sizeof *ids);
    if (!ids)
        return;                          /* the safest default stays: mfence; rdtsc; mfence */
    for (uint32_t k = 0; k < c->nsel; k++)
        ids[k] = c->cpu[c->order[k]].id;
    c->read = cores_read_choose(ids, c->nsel, c->read_why, sizeof c->read_why);
    c->read_chosen = 1;
    cores_work_set_read(c->read);
    plat_free(ids);
}

/* SMT: selected CPUs sharing a (package, core), by CPUID's topology where
 * every selected CPU read one, else by the firmware's location. */
static void cores_group_smt(struct cores *c)
{
    uint32_t *pk = plat_alloc(c->nsel * 4 * sizeof *pk);
    uint8_t *ok = plat_alloc(c->nsel);
    int cpuid = 1;
    if (!pk || !ok) {
        plat_free(pk);
        plat_free(ok);
        return;
    }
    uint32_t *co = pk + c->nsel, *g = co + c->nsel, *th = g + c->nsel;
    for (uint32_t k = 0; k < c->nsel; k++)
        cpuid &= c->cpu[c->order[k]].topo.valid;
    for (uint32_t k = 0; k < c->nsel; k++) {
        const struct cores_cpu *p = &c->cpu[c->order[k]];
        const struct plat_cpu *m = &c->mi.cpu[c->order[k]];
        pk[k] = cpuid ? p->topo.package : m->package;
        co[k] = cpuid ? p->topo.core : m->core;
        ok[k] = cpuid || c->mi.present;
    }
    cores_smt_groups(pk, co, ok, c->nsel, g, th);
    for (uint32_t k = 0; k < c->nsel; k++) {
        c->cpu[c->order[k]].core_of = c->order[g[k]];
        c->cpu[c->order[k]].threads_in_core = th[k];
    }
    plat_free(pk);
    plat_free(ok);
}

/* ---- 3. cache-line round trips --------------------------------------------------------- */

static void cores_latency(struct cores *c)
{
    uint32_t s = CORES_BOUNCE_SAMPLES;
    uint64_t *ticks = plat_alloc(s * sizeof *ticks);
    size_t cells = (size_t)c->nsel * c->nsel;
    c->lat_min = plat_alloc(cells * sizeof *c->lat_min);
    c->lat_med = plat_alloc(cells * sizeof *c->lat_med);
    int kept = 0;
    if (!ticks || !c->lat_min || !c->lat_med) {
        c->lat_fail.failed = 1;
        snprintf(c->lat_fail.why, sizeof c->lat_fail.why, "no memory for the matrix");
        plat_free(ticks);
        return;
    }
    memset(c->lat_min, 0, cells * sizeof *c->lat_min);
    memset(c->lat_med, 0, cells * sizeof *c->lat_med);
    quiet_phase_begin();
    for (uint32_t i = 0; i < c->nsel; i++)
        for (uint32_t j = i + 1; j < c->nsel; j++) {
            uint32_t a = c->order[i], b = c->order[j];
            if (!cores_alive(c, a) || !cores_alive(c, b))
                continue;
            struct cores_shared m;
            if (kept || cores_shared_get(&m, sizeof(struct cores_bounce_shared)))
                continue;                 /* the cell stays 0: not measured */
            struct cores_bounce_shared *sh = m.p;
            sh->start.parties = 2;
            sh->start.deadline_ticks = c->timeout_ticks;
            sh->samples = s;
            sh->trips = CORES_BOUNCE_TRIPS;
            sh->sample_ticks = ticks;
            struct cores_bounce_side sa = { sh, 1 }, sb = { sh, 0 };
            struct cores_fail fa = { 0, "" }, fb = { 0, "" };
            struct cores_task t[2] = { { a, cores_bounce, &sa, &fa, 0 }, { b, cores_bounce, &sb, &fb, 0 } };
            int bad = cores_group(c, t, 2, c->timeout_ticks) || sa.timed_out || sb.timed_out;
            /* a lost initiator may still write its samples: ticks is kept, no more pairs */
            kept = cores_lost(a);
            cores_shared_put(c, &m, a, b);
            if (bad)
                continue;
            double med = cores_median_u64(ticks, s);   /* sorts: ticks[0] is the minimum */
            uint64_t mn = (ticks[0] + CORES_BOUNCE_TRIPS / 2) / CORES_BOUNCE_TRIPS;
            uint64_t md = (uint64_t)(med / CORES_BOUNCE_TRIPS + 0.5);
            c->lat_min[i * c->nsel + j] = c->lat_min[j * c->nsel + i] = mn ? mn : 1;
            c->lat_med[i * c->nsel + j] = c->lat_med[j * c->nsel + i] = md ? md : 1;
        }
    quiet_phase_end_add(&c->qt);
    if (kept)
        c->kept_bytes += s * sizeof *ticks;
    else
        plat_free(ticks);
    c->lat_measured = 1;
}

/* ---- 4. BYTEmark on each CPU, then on all at once --------------------------------------- */

static void cores_job_init(struct cores *c, struct bytemark_core_job *j, enum bm_test_id id)
{
    memset(j, 0, sizeof *j);
    j->cfg = c->cfg;
    j->id = id;
    j->profile = c->profile;             /* the run's, settled once (run_env) */
    j->hz = c->hz;
}

/* How much the all-core run of test id overlapped, over the CPUs that
 * finished (each CPU's TSC moved to the BSP's by its measured offset), and
 * how many distinct cores they were. */
static void cores_all_overlap(struct cores *c, int id)
{
    uint64_t st[PLAT_MAX_CPUS], en[PLAT_MAX_CPUS];
    uint32_t m = 0, cores = 0;
    for (uint32_t k = 0; k < c->nsel && m < PLAT_MAX_CPUS; k++) {
        const struct cores_cpu *p = &c->cpu[c->order[k]];
        const struct cores_score *s = &p->all[id];
        if (!s->ran || s->fail.failed || s->job.status != BM_OK)
            continue;
        /* on the BSP's time base: minus the AP's measured offset, where there is one */
        int64_t off = p->tsc.measured && p->tsc.skew_consistent ? (int64_t)p->tsc.skew_ticks : 0;
        st[m] = s->t_start - (uint64_t)off;
        en[m] = s->t_end - (uint64_t)off;
        m++;
        int first = 1;
        for (uint32_t j = 0; j < k && first; j++) {
            const struct cores_cpu *q = &c->cpu[c->order[j]];
            first = !(q->core_of == p->core_of && q->all[id].ran && !q->all[id].fail.failed
                      && q->all[id].job.status == BM_OK);
        }
        cores += first;
    }
    cores_overlap_of(st, en, m, &c->overlap[id]);
    c->all_cores[id] = cores;
}

static const char *cores_test_key(int id)
{
    const struct bm_kernel *k = bytemark_kernel((enum bm_test_id)id);
    return k ? k->key : "test";
}

static void cores_scores(struct cores *c)
{
    struct cores_score_arg *args = plat_alloc(c->nsel * sizeof *args);
    struct cores_task *tasks = plat_alloc(c->nsel * sizeof *tasks);
    if (!args || !tasks || plat_arena_reserve(&c->mi, c->sel, CORES_ARENA_BYTES)) {
        out_warn("cores: no memory for the per-core BYTEmark runs; skipped");
        c->warnings++;
        plat_free(args);
        plat_free(tasks);
        return;
    }
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        c->cpu[n].inject = n == c->mi.bsp ? NULL : c->cpu[n].inject;
    }
    /* progress: each test on each CPU in turn, then on all at once */
    unsigned ntests = 0, ti = 0;
    char what[48];
    for (int id = 0; id < BM_NTESTS; id++)
        ntests += c->tests >> id & 1;
    unsigned steps = ntests * (c->nsel + 1);
    /* each CPU in turn */
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            struct cores_score *s = &c->cpu[n].score[id];
            if (!cores_alive(c, n))
                continue;
            cores_job_init(c, &s->job, (enum bm_test_id)id);
            args[k].job = &s->job;
            args[k].inject = c->cpu[n].inject;
            args[k].start = NULL;
            args[k].t_start = &s->t_start;
            args[k].t_end = &s->t_end;
            c->cpu[n].inject = NULL;         /* one fault per CPU */
            s->ran = 1;
            quiet_phase_begin();
            cores_one(c, n, cores_score_fn, &args[k], &s->fail, c->timeout_ticks);
            quiet_phase_end_add(&c->qt);
            snprintf(what, sizeof what, "%s on CPU %u", cores_test_key(id), (unsigned)n);
            out_progress(ti * c->nsel + k + 1, steps, what);
        }
        ti++;
    }
    /* all at once */
    static struct cores_sync start;
    for (int id = 0; id < BM_NTESTS; id++) {
        if (!(c->tests & (1u << id)))
            continue;
        uint32_t m = 0;
        memset((void *)&start, 0, sizeof start);
        start.deadline_ticks = c->timeout_ticks;
        for (uint32_t k = 0; k < c->nsel; k++) {
            uint32_t n = c->order[k];
            struct cores_score *s = &c->cpu[n].all[id];
            if (!cores_alive(c, n))
                continue;
            cores_job_init(c, &s->job, (enum bm_test_id)id);
            s->ran = 1;
            args[m].job = &s->job;
            args[m].inject = NULL;
            args[m].start = &start;
            args[m].t_start = &s->t_start;
            args[m].t_end = &s->t_end;
            tasks[m] = (struct cores_task){ n, cores_score_fn, &args[m], &s->fail, 0 };
            m++;
        }
        start.parties = m;
        quiet_phase_begin();
        cores_group(c, tasks, m, c->timeout_ticks);
        quiet_phase_end_add(&c->qt);
        cores_all_overlap(c, id);
        snprintf(what, sizeof what, "%s on all CPUs at once", cores_test_key(id));
        out_progress(ntests * c->nsel + ti - ntests + 1, steps, what);
        ti++;
    }
    /* a lost CPU may still run its test: its arena, and the arguments it
     * was given, are kept (plat_arena_release keeps a lost CPU's arena) */
    plat_arena_release();
    int lost = 0;
    for (uint32_t k = 0; k < c->nsel; k++)
        lost += cores_lost(c->order[k]);
    if (lost) {
        c->kept_bytes += c->nsel * (sizeof *args + sizeof *tasks) + (uint64_t)lost * CORES_ARENA_BYTES;
    } else {
        plat_free(args);
        plat_free(tasks);
    }
}

/* Sum over the CPUs that ran test id at once; ratio to the mean of their
 * own per-core scores.  Returns the number of CPUs that counted. */
/* ---- the section ----------------------------------------------------------------------- */

static int cores_select(struct cores *c)
{
    const char *why = "";
    const char *list = c->cfg->cores_list;
    uint32_t n = c->mi.count;
    c->sel = plat_alloc(n);
    c->order = plat_alloc(n * sizeof *c->order);
    c->cpu = plat_alloc(n * sizeof *c->cpu);
    if (!c->sel || !c->order || !c->cpu)
        return -1;
    memset(c->cpu, 0, n * sizeof *c->cpu);
    if (cores_list_parse(list, c->sel, n, &why)) {
        out_warn("cores: CORES=%s: %s; all CPUs are used", list, why);
        c->warnings++;
        memset(c->sel, 1, n);
    } else if (strcmp(list, "all") && cores_list_max(list) >= n) {
        out_warn("cores: CORES=%s names CPU %u, but there are %u (0..%u): the others are used", list,
                 cores_list_max(list), n, n - 1);
        c->warnings++;
    }
    c->nsel = 0;
    c->sel[c->mi.bsp] = 1;        /* the reference and the driver: always in */
    for (uint32_t i = 0; i < n; i++) {
        if (c->sel[i] && !(c->mi.cpu[i].flags & PLAT_CPU_ENABLED) && i != c->mi.bsp)
            c->sel[i] = 0;
        c->cpu[i].selected = c->sel[i];
        if (c->sel[i])
            c->order[c->nsel++] = i;
    }
    return 0;
}

/* INJECTIN=cores:cpuN with INJECTFAULT=divide|opcode|page|hang: into AP
 * N's first BYTEmark test, so only when the scores run (otherwise the run's
 * end says the fault went nowhere). */
static void cores_injections(struct cores *c)
{
    if (!(c->parts & BM_SMP_SCORES))
        return;
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        char key[32];
        snprintf(key, sizeof key, "cores:cpu%u", n);
        if (n == c->mi.bsp)
            continue;          /* not taken: the run's end warns it went nowhere */
        const char *kind = plat_fault_take(key);
        if (!kind)
            continue;
        c->cpu[n].inject = kind;
        out_printf("fault injection: %s %s on CPU %u's first BYTEmark test (INJECTFAULT setting)\n",
                   kind, strcmp(kind, "hang") ? "fault" : "(stops answering)", n);
    }
}

/* The ticks since *t, and *t moved to now: one part's time. */
static uint64_t cores_lap(uint64_t *t)
{
    uint64_t now = cpu_rdtsc(), d = now - *t;
    *t = now;
    return d ? d : 1;             /* a part that ran is never 0 (0: did not run) */
}

static void cores_finish(struct cores *c, uint64_t t_begin)
{
    c->took_total = cores_lap(&t_begin);
    if (c->nsel > 1)              /* one CPU: its one line says all (the JSON keeps the time) */
        cores_print_took(c);
    cores_json(c);
}

static void cores_single(struct cores *c, const char *why, uint64_t t_begin)
{
    out_printf("cores: one logical CPU in use (%s): the run goes on on the bootstrap processor alone\n",
               why);
    cores_finish(c, t_begin);
}

static void cores_start_workers(struct cores *c)
{
    uint32_t want = 0;
    for (uint32_t k = 0; k < c->nsel; k++)
        want += c->order[k] != c->mi.bsp;
    uint32_t ready = plat_workers_start(&c->mi, c->sel, CORES_STACK_BYTES, c->hz * CORES_ANSWER_S);
    for (uint32_t k = 0; k < c->nsel; k++) {
        uint32_t n = c->order[k];
        enum plat_worker_state s = plat_worker_state(n);
        if (n == c->mi.bsp || s == PLAT_W_READY)
            continue;
        c->cpu[n].fail.failed = 1;
        if (s == PLAT_W_REFUSED)
            snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why,
                     "StartupThisAP refused the work (EFI status 0x%llx)",
                     (unsigned long long)plat_worker_status(n));
        else if (s == PLAT_W_BLOCKED)
            snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why,
                     "not used: the firmware's StartupThisAP blocks until the work returns (the first "
                     "AP gave up after %u s so the run could go on)", CORES_ANSWER_S);
        else
            snprintf(c->cpu[n].fail.why, sizeof c->cpu[n].fail.why,
                     "did not start its work within %u s: left alone", CORES_ANSWER_S);
        out_warn("cores: CPU %u %s", n, c->cpu[n].fail.why);
        c->warnings++;
    }
    out_printf("cores: %u of %u application processors answered and wait with interrupts masked\n",
               ready, want);
}

int cores_run(const struct section_ctx *ctx)
{
    static struct cores c;
    const struct bm_config *cfg = ctx->cfg;
    uint64_t t_begin = cpu_rdtsc(), t;
    const struct acpi_info *ai = ctx->acpi;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.profile = (enum bm_profile)ctx->env->profile;
    c.vm_hidden = ctx->env->vm_hidden;
    c.ai = ai;
    c.have_madt = ai != NULL;
    c.madt_cpus = ai ? ai->madt_cpus : 0;
    c.hz = plat_tick_hz();
    c.parts = cfg->smp_parts & BM_SMP_ALL;
    c.tests = cfg->smp_tests ? cfg->smp_tests : CORES_DEFAULT_TESTS;
    c.timeout_ticks = c.hz * (cfg->smp_timeout ? cfg->smp_timeout : CORES_DEFAULT_TIMEOUT_S);
    quiet_phase_totals_init(&c.qt);
    out_printf("\n");
    if (!c.hz) {
        out_warn("cores: the TSC frequency is unknown (the clock section did not run): section skipped");
        return SECTION_WARNINGS;
    }
    if (plat_cpus_init(&c.mi)) {
        cores_single(&c, c.mi.why, t_begin);
        return SECTION_OK;
    }
    if (cores_select(&c)) {
        out_warn("cores: no memory for the list of CPUs; section skipped");
        return SECTION_WARNINGS;
    }
    if (c.mi.count == 1) {
        cores_probe_all(&c);
        c.parts = 0;
        cores_single(&c, "the firmware's MP Services list one", t_begin);
        return SECTION_OK;
    }
    out_printf("cores: %u logical CPUs (%u enabled) through the firmware's MP Services; bootstrap "
               "processor CPU %u; ACPI MADT lists %u; selected (CORES=%s): %u\n", c.mi.count,
               c.mi.enabled, c.mi.bsp, ai ? ai->madt_cpus : 0, cfg->cores_list, c.nsel);
    if (c.mi.why[0])
        out_printf("cores: note: %s\n", c.mi.why);
    if (c.nsel <= 1) {
        cores_probe_all(&c);
        cores_print_list(&c);
        c.parts = 0;
        cores_single(&c, "CORES selects only the bootstrap processor", t_begin);
        return c.warnings ? SECTION_WARNINGS : SECTION_OK;
    }
    cores_injections(&c);
    t = cpu_rdtsc();
    cores_start_workers(&c);
    cores_probe_all(&c);
    cores_choose_read(&c);
    cores_group_smt(&c);
    c.took[CORES_PART_START] = cores_lap(&t);
    cores_print_list(&c);
    cores_print_read(&c);
    if (c.parts & BM_SMP_TSC) {
        cores_lap(&t);
        cores_tsc_all(&c);
        c.took[CORES_PART_TSC] = cores_lap(&t);
        cores_print_tsc(&c);
        cores_warn_tsc(&c);
    }
    if (c.parts & BM_SMP_LATENCY) {
        cores_lap(&t);
        cores_latency(&c);
        c.took[CORES_PART_LATENCY] = cores_lap(&t);
        if (c.lat_measured)
            cores_print_latency(&c);
    }
    if (c.parts & BM_SMP_SCORES) {
        cores_lap(&t);
        cores_scores(&c);
        c.took[CORES_PART_SCORES] = cores_lap(&t);
        cores_print_scores(&c);
    }
    if (c.parts & BM_SMP_TSC) {
        cores_lap(&t);
        cores_rate_finish(&c);
        c.took[CORES_PART_RATE] = cores_lap(&t);
        cores_print_rate(&c);
    }
    if (c.kept_bytes)
        out_printf("cores: %llu bytes a lost CPU may still write to are kept, not freed\n",
                   (unsigned long long)c.kept_bytes);
    plat_workers_stop(c.hz * CORES_ANSWER_S);
    quiet_phase_totals_print("cores", &c.qt);
    cores_finish(&c, t_begin);
    return c.warnings ? SECTION_WARNINGS : SECTION_OK;
}
