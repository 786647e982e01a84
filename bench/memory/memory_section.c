/*
 * bench/memory/memory_section.c - the memory section: latency and bandwidth by
 * working-set size (see memory.h).  It plans the sweep, takes the buffer,
 * and drives the parts in order: the caches (memory_caches.c), latency
 * (memory.c), the pages and the TLB (memory_tlb.c), bandwidth
 * (memory_bw.c); then the LAVA cases and the JSON.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cpu.h"
#include "figures_memory.h"
#include "json.h"
#include "memory.h"
#include "memory_internal.h"
#include "methods.h"
#include "platform.h"
#include "quiet.h"
#include "section.h"

/* ---- the plan ------------------------------------------------------------------------ */

unsigned memory_sizes(int quick, uint64_t top, uint64_t *sizes, unsigned max)
{
    unsigned n = 0;
    for (uint64_t s = MEMORY_MIN_SIZE; s <= top && n < max; s *= quick ? 4 : 2) {
        sizes[n++] = s;
        if (!quick && s + s / 2 <= top && n < max)
            sizes[n++] = s + s / 2;
    }
    return n;
}

static uint64_t memory_pow2_down(uint64_t x)
{
    uint64_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return x ? p : 0;
}

static uint64_t memory_pow2_up(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p *= 2;
    return p;
}

uint64_t memory_top(int quick, uint64_t largest_cache, uint64_t free_bytes, const char **limited_by,
                    uint64_t *want)
{
    uint64_t top = memory_pow2_up(4 * largest_cache), floor = quick ? MEMORY_QUICK_MIN_TOP : MEMORY_FULL_MIN_TOP;
    if (top < floor)
        top = floor;
    *want = top;
    *limited_by = "";
    if (free_bytes && top > free_bytes / 2) {
        top = memory_pow2_down(free_bytes / 2);
        *limited_by = "free memory";
    }
    return top < MEMORY_MIN_SIZE ? 0 : top;
}

void memory_plan_make(const struct cpu_info *cpu, int quick, uint64_t free_bytes, struct memory_plan *p)
{
    memset(p, 0, sizeof *p);
    p->cpu = cpu;
    p->quick = quick;
    p->samples = quick ? MEMORY_QUICK_SAMPLES : MEMORY_FULL_SAMPLES;
    p->bw_samples = quick ? MEMORY_QUICK_BW_SAMPLES : MEMORY_FULL_BW_SAMPLES;
    p->min_loads = quick ? MEMORY_QUICK_LOADS : MEMORY_FULL_LOADS;
    p->bw_bytes = quick ? MEMORY_QUICK_BW_BYTES : MEMORY_FULL_BW_BYTES;
    p->free_bytes = free_bytes;
    memory_caches_read(cpu, &p->caches);
    p->top = memory_top(quick, memory_caches_largest(&p->caches), free_bytes, &p->limited_by, &p->want_top);
    p->nsizes = memory_sizes(quick, p->top, p->sizes, MEMORY_MAX_SIZES);
}

static void memory_print_row(const struct memory_latency *l, const struct memory_caches *c)
{
    char sz[24], fits[8];
    memory_size_text(l->size, sz, sizeof sz);
    memory_fits_name(c, l->size, fits, sizeof fits);
    if (plat_tick_hz())
        out_printf("  %9s %9llu %8.3f %8.3f   %s\n", sz, (unsigned long long)l->loads, l->ns_min, l->ns_median, fits);
    else
        out_printf("  %9s %9llu %8.3f %8.3f   %s\n", sz, (unsigned long long)l->loads,
                   (double)l->ticks_min / l->loads, (double)l->ticks_median / l->loads, fits);
}

static void memory_json_row(struct json_writer *w, const struct memory_latency *l, const struct memory_caches *c)
{
    char fits[8];
    memory_fits_name(c, l->size, fits, sizeof fits);
    json_obj_begin(w, NULL);
    json_u64(w, "size_bytes", l->size);
    json_u64(w, "lines", l->lines);
    memory_chase_json(w, l, 1);
    json_str(w, "fits", fits);
    json_obj_end(w);
}

#define MEMORY_4GIB (1ull << 32)    /* where 32-bit addressing ends */

static void memory_json_head(struct json_writer *w, const struct memory_plan *p, const void *buf,
                             uint64_t allocated)
{
    json_str(w, "allocator", plat_pages_name());
    json_bool(w, "memory_high", p->high);
    if (buf) {
        json_fig_u64(w, &figures_memory, FIG_MEMORY_BUFFER_ADDRESS, (uint64_t)(uintptr_t)buf);
        json_bool(w, "above_4gib", (uint64_t)(uintptr_t)buf >= MEMORY_4GIB);
    }
    if (p->free_bytes)
        json_fig_u64(w, &figures_memory, FIG_MEMORY_FREE_BYTES, p->free_bytes);
    else
        json_fig_null(w, &figures_memory, FIG_MEMORY_FREE_BYTES);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_ALLOCATED_BYTES, allocated);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_WANT_TOP_BYTES, p->want_top);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_TOP_BYTES, p->top);
    json_str(w, "limited_by", p->limited_by);
    json_str(w, "method", methods_table[MEMORY_METHOD].name);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_LINE_BYTES, MEMORY_LINE);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_SAMPLES, p->samples);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_BW_SAMPLES, p->bw_samples);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_MIN_LOADS, p->min_loads);
    json_fig_u64(w, &figures_memory, FIG_MEMORY_BW_MIN_BYTES, p->bw_bytes);
    memory_json_caches(w, &p->caches);
}

/* The buffer: the planned top, or the largest power of two that can be
 * had below it; with MEMORYHIGH first at or above 4 GiB, and where nothing
 * is free there, one line says so and the firmware's choice is taken. */
static void *memory_alloc_by(struct memory_plan *p, uint64_t *got, void *(*alloc)(uint64_t));
static void *memory_alloc(struct memory_plan *p, uint64_t *got)
{
    *got = 0;
    if (!p->top)
        return NULL;
    if (p->high) {
        void *b = memory_alloc_by(p, got, plat_pages_alloc_high);
        if (b)
            return b;
        out_printf("memory: MEMORYHIGH: no free memory at or above 4 GiB (%s): the buffer is where %s puts it\n",
                   (plat_caps() & PLAT_CAP_PHYS) ? "the machine has none, or the firmware uses it"
                                                 : "mmap has no physical placement",
                   plat_pages_name());
    }
    return memory_alloc_by(p, got, plat_pages_alloc);
}

static void *memory_alloc_by(struct memory_plan *p, uint64_t *got, void *(*alloc)(uint64_t))
{
    for (uint64_t s = p->top; s >= MEMORY_MIN_SIZE; s /= 2) {
        void *b = alloc(s);
        if (b) {
            if (s < p->top) {
                p->top = s;
                p->limited_by = "allocation failed";
                p->nsizes = memory_sizes(p->quick, s, p->sizes, MEMORY_MAX_SIZES);
            }
            *got = s;
            return b;
        }
    }
    return NULL;
}

/* Where the buffer lies: in the image a physical address (UEFI maps memory
 * one to one), so a lab can see the sweep ran above 4 GiB; on the host the
 * address mmap gave. */
static void memory_print_where(const struct memory_plan *p, const void *buf, uint64_t bytes)
{
    uint64_t a = (uint64_t)(uintptr_t)buf;
    out_printf("memory: buffer at %#llx-%#llx (%s), %s 4 GiB%s\n", (unsigned long long)a,
               (unsigned long long)(a + bytes - 1), plat_pages_name(),
               a >= MEMORY_4GIB ? "above" : a + bytes > MEMORY_4GIB ? "across" : "below",
               p->high ? "; MEMORYHIGH asked for above" : "");
}

/* Whether the sweep reaches past the last-level cache (4 x its size):
 * 1 yes, 0 no, -1 unknown (no cache stated).  One line either way. */
static int memory_llc_reach(const struct memory_plan *p)
{
    uint64_t llc = memory_caches_largest(&p->caches);
    char t[24], l[24], want[24];
    memory_size_text(p->top, t, sizeof t);
    if (!llc) {
        out_printf("memory: the CPU states no cache sizes: whether %s is past the last-level cache is unknown\n", t);
        return -1;
    }
    memory_size_text(llc, l, sizeof l);
    memory_size_text(4 * llc, want, sizeof want);
    if (p->top >= 4 * llc) {
        out_printf("memory: the sweep reaches %s, %.0f x the last-level cache (%s): the largest sizes measure "
                   "memory\n", t, (double)p->top / (double)llc, l);
        return 1;
    }
    out_printf("memory: the sweep stops at %s, short of 4 x the last-level cache (%s, so %s)%s%s: the largest "
               "sizes still partly hit the cache\n", t, l, want, p->limited_by[0] ? ": bounded by " : "",
               p->limited_by);
    return 0;
}

/* Under QEMU's TCG every load costs the same: say so once, so nobody
 * reads a cache structure into its figures.  CPUID 0x40000000 names the
 * hypervisor where CPUID.1:ECX bit 31 says there is one. */
static void memory_hypervisor_note(const struct cpu_info *cpu, const char *vm_hidden)
{
    const char *v = cpu->hypervisor;
    if (!cpu->hypervisor_present && vm_hidden)
        out_printf("memory: under a hypervisor CPUID hides (SMBIOS: %s): figures include its second-level address "
                   "translation, or, under QEMU's TCG, show instruction counts, not the memory hierarchy\n",
                   vm_hidden);
    if (!cpu->hypervisor_present)
        return;
    if (!strcmp(v, "TCGTCGTCGTCG"))
        out_printf("memory: under QEMU's TCG: it has no cache or TLB cost model, so latency and bandwidth show "
                   "instruction counts, not the memory hierarchy\n");
    else
        out_printf("memory: under a hypervisor (%s): figures include its second-level address translation\n", v);
}

/* Latency at every size, one row each as it is measured. */
/* The console's progress (out_progress): each latency size, the TLB
 * sweep, each bandwidth size. */
static void memory_progress(const struct memory_plan *p, unsigned done, const char *part, uint64_t size)
{
    char what[48], sz[16];
    if (size) {
        memory_size_text(size, sz, sizeof sz);
        snprintf(what, sizeof what, "%s at %s", part, sz);
    } else
        snprintf(what, sizeof what, "%s", part);
    out_progress(done, 2 * p->nsizes + 1, what);
}

static int memory_latency_sweep(void *buf, struct memory_plan *p, struct memory_latency *lat)
{
    int bad = 0;
    out_printf("memory: latency = dependent loads around a random cycle of %u-byte lines (%u timings, median "
               "and min); %s, %s\n", MEMORY_LINE, p->samples, methods_table[MEMORY_METHOD].name,
               (plat_caps() & PLAT_CAP_IRQ_MASK) ? "interrupts masked for each timing"
                                            : "interrupts and the scheduler on (Linux): a timing may include them");
    if (plat_tick_hz())
        out_printf("  %9s %9s %8s %8s   %s\n", "size", "loads", "ns min", "ns med", "fits in");
    else
        out_printf("  %9s %9s %8s %8s   %s   (the clock is not calibrated: ticks)\n", "size", "loads", "tk min",
                   "tk med", "fits in");
    for (unsigned i = 0; i < p->nsizes; i++) {
        memory_measure_latency(buf, p->sizes[i], p, &lat[i]);
        memory_print_row(&lat[i], &p->caches);
        memory_progress(p, i + 1, "latency", p->sizes[i]);
        if (lat[i].cycle != lat[i].lines) {
            out_warn("memory: the chain of %llu lines is a cycle of %llu: the permutation is broken",
                     (unsigned long long)lat[i].lines, (unsigned long long)lat[i].cycle);
            bad = 1;
        }
    }
    return bad;
}

/* Bandwidth at every size and usable width, the AVX state enabled around
 * it and put back after (checked). */
static void memory_bw_sweep(void *buf, struct memory_plan *p, struct memory_bw *bw, struct memory_vec *v,
                            struct memory_xstate *x)
{
    memory_xstate_enable(memory_xcr0_want(p->cpu), x);
    memory_vec_plan(p->cpu, x->osxsave, x->xcr0, v);
    memory_bw_print_head(p, v, x);
    for (unsigned i = 0; i < p->nsizes; i++) {
        memory_measure_bw(buf, p->sizes[i], p, v, &bw[i]);
        memory_bw_print_rows(&bw[i]);
        memory_progress(p, p->nsizes + 1 + i + 1, "bandwidth", p->sizes[i]);
    }
    memory_xstate_restore(x);
    memory_bw_print_peaks(bw, p->nsizes);
    if (!strcmp(x->enabled_by, "baremark")) {
        if (x->restored)
            out_printf("memory: AVX state restored: CR4.OSXSAVE %s, XCR0 %#llx as found\n",
                       x->osxsave_before ? "on" : "off", (unsigned long long)x->xcr0_before);
        else
            out_warn("memory: the AVX state did not read back as found (CR4.OSXSAVE %s, XCR0 %#llx): later "
                     "sections run with it changed", x->osxsave_before ? "on" : "off",
                     (unsigned long long)x->xcr0_before);
    }
}

int memory_section(struct memory_plan *p, struct json_writer *w)
{
    static struct memory_latency lat[MEMORY_MAX_SIZES];
    static struct memory_bw bw[MEMORY_MAX_SIZES];
    static struct memory_tlb_row tlb[MEMORY_TLB_MAX_ROWS];
    struct memory_page_census pages;
    struct memory_vec v;
    struct memory_xstate x;
    uint64_t hz = plat_tick_hz(), t0 = plat_ticks(), allocated, want = p->top;
    char a[24], b[24], f[24];

    quiet_phase_totals_init(&memory_qt);
    memory_print_caches(&p->caches);
    void *buf = memory_alloc(p, &allocated);
    memory_size_text(p->free_bytes, f, sizeof f);
    if (!buf) {
        memory_size_text(want, a, sizeof a);
        out_warn("memory: could not allocate even %u bytes (free memory %s; %s asked): memory section skipped",
                 MEMORY_MIN_SIZE, p->free_bytes ? f : "unknown", a);
        if (w) {
            memory_json_head(w, p, NULL, 0);
            json_str(w, "skipped", "no memory");
        }
        return 2;
    }
    memory_size_text(p->top, a, sizeof a);
    memory_size_text(p->want_top, b, sizeof b);
    out_printf("memory: %s profile: %u sizes from 4 KiB to %s (%s%s%s); %s allocated with %s; free memory %s\n",
               p->quick ? "quick" : "full", p->nsizes, a, p->quick ? "every 4x" : "two per octave",
               p->limited_by[0] ? ", bounded by " : "", p->limited_by, a,
               plat_pages_name(), p->free_bytes ? f : "unknown");
    if (p->limited_by[0])
        out_printf("memory: the profile asks for up to %s; %s allows %s\n", b, p->limited_by, a);
    memory_print_where(p, buf, allocated);
    int past_llc = memory_llc_reach(p);
    memory_hypervisor_note(p->cpu, p->vm_hidden);
    int bad = memory_latency_sweep(buf, p, lat);
    memory_knees(lat, p->nsizes, &p->caches, NULL, 1);
    memory_page_census(buf, allocated, &pages);          /* after the sweep touched every page */
    memory_pages_print(&pages, allocated);
    unsigned ntlb = memory_tlb_sweep(buf, allocated, p, &pages, tlb);
    memory_progress(p, p->nsizes + 1, "TLB sweep", 0);
    memory_bw_sweep(buf, p, bw, &v, &x);
    plat_pages_free(buf, allocated);
    if (w) {
        memory_json_head(w, p, buf, allocated);
        json_str(w, "past_llc", past_llc < 0 ? "unknown" : past_llc ? "yes" : "no");
        json_arr_begin(w, "latency");
        for (unsigned i = 0; i < p->nsizes; i++)
            memory_json_row(w, &lat[i], &p->caches);
        json_arr_end(w);
        memory_pages_json(w, &pages);
        memory_tlb_json(w, tlb, ntlb);
        memory_bw_json_head(w, &v, &x, bw, p->nsizes);
        json_arr_begin(w, "bandwidth");
        for (unsigned i = 0; i < p->nsizes; i++)
            memory_bw_json_row(w, &bw[i]);
        json_arr_end(w);
    }
    if (w)
        memory_knees(lat, p->nsizes, &p->caches, w, 0);
    quiet_phase_totals_print("memory", &memory_qt);
    if (w)
        quiet_phase_totals_json(w, "quiet_phases", &memory_qt);
    methods_print_elapsed("memory", plat_ticks() - t0, hz);
    return bad ? 2 : 0;
}

/* ---- the section in the image's run ------------------------------------------------------------ */

int memory_run(const struct section_ctx *ctx)
{
    struct memory_plan p;
    memory_plan_make(ctx->env->cpu, ctx->env->profile == BM_PROFILE_QUICK, plat_free_bytes(), &p);
    p.high = ctx->cfg->memory_high;
    p.vm_hidden = ctx->env->vm_hidden;
    struct json_writer *w = results_section_begin("memory", 0);
    int rc = memory_section(&p, w);
    results_section_end();
    return rc;
}
