/*
 * bench/memory/memory_bw.c - bandwidth at each vector width the CPU and the
 * platform allow (see memory.h): which widths, the kernels, the table, the
 * peaks, the JSON.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "figures_memory.h"
#include "json.h"
#include "memory.h"
#include "memory_internal.h"
#include "methods.h"
#include "platform.h"

/* CPUID bits (Intel SDM vol. 2A, CPUID; AMD APM vol. 3, appendix E agree):
 * leaf 1 EDX[26] SSE2, ECX[26] XSAVE, ECX[27] OSXSAVE (a copy of
 * CR4.OSXSAVE), ECX[28] AVX; leaf 7.0 EBX[16] AVX512F; leaf 0DH.0 EAX the
 * XCR0 bits the CPU supports (low half). */
#define MEMORY_CPUID1_EDX_SSE2     (1u << 26)
#define MEMORY_CPUID1_ECX_XSAVE    (1u << 26)
#define MEMORY_CPUID1_ECX_AVX      (1u << 28)
#define MEMORY_CPUID7_EBX_AVX512F  (1u << 16)
#define MEMORY_LEAF_XSTATE         0x0Du

/* bench/memory/memory.asm */
#define MEMORY_KERNELS(w) \
    void bm_mem_read_##w(uint64_t, void *); void bm_mem_write_##w(uint64_t, void *); \
    void bm_mem_write_nt_##w(uint64_t, void *); void bm_mem_copy_##w(uint64_t, void *); \
    void bm_mem_triad_##w(uint64_t, void *);
MEMORY_KERNELS(sse2) MEMORY_KERNELS(avx) MEMORY_KERNELS(avx512)

static const bm_routine memory_kernels[MEMORY_VECS][MEMORY_BW_OPS] = {
    { bm_mem_read_sse2, bm_mem_write_sse2, bm_mem_write_nt_sse2, bm_mem_copy_sse2, bm_mem_triad_sse2 },
    { bm_mem_read_avx, bm_mem_write_avx, bm_mem_write_nt_avx, bm_mem_copy_avx, bm_mem_triad_avx },
    { bm_mem_read_avx512, bm_mem_write_avx512, bm_mem_write_nt_avx512, bm_mem_copy_avx512, bm_mem_triad_avx512 },
};
/* The kernels' unrolled block (bench/memory/memory.asm BLOCK): every length is a
 * multiple of it. */
#define MEMORY_BW_BLOCK 256u
/* struct memory_bw_arg of bench/memory/memory.asm */
struct memory_bw_arg { uint8_t *base; uint64_t bytes; uint8_t *dst; uint8_t *src2; };

static const char *const memory_vec_names[MEMORY_VECS] = { "sse2", "avx", "avx512" };
static const char *const memory_op_names[MEMORY_BW_OPS] = { "read", "write", "write_nt", "copy", "triad" };

const char *memory_vec_name(int w) { return w >= 0 && w < MEMORY_VECS ? memory_vec_names[w] : "?"; }
unsigned memory_vec_bytes(int w) { return 16u << w; }
const char *memory_bw_op_name(int op) { return op >= 0 && op < MEMORY_BW_OPS ? memory_op_names[op] : "?"; }

/* ---- which widths ------------------------------------------------------------------ */

uint64_t memory_xcr0_want(const struct cpu_info *id)
{
    uint32_t r[4];
    uint32_t max = id->max_leaf;
    cpu_leaf(id, 1, 0, r);
    if (!(r[2] & MEMORY_CPUID1_ECX_XSAVE) || max < MEMORY_LEAF_XSTATE)
        return 0;
    cpu_leaf(id, MEMORY_LEAF_XSTATE, 0, r);
    uint64_t sup = r[0], want = MEMORY_XCR0_X87;
    if (sup & MEMORY_XCR0_SSE)
        want |= MEMORY_XCR0_SSE;
    /* XSETBV refuses AVX without SSE, and AVX-512's three without AVX or
     * one without the others (SDM vol. 1, 13.3). */
    if ((want & MEMORY_XCR0_SSE) && (sup & MEMORY_XCR0_AVX))
        want |= MEMORY_XCR0_AVX;
    if ((want & MEMORY_XCR0_AVX) && (sup & MEMORY_XCR0_AVX512) == MEMORY_XCR0_AVX512)
        want |= MEMORY_XCR0_AVX512;
    return want;
}

static int memory_vec_state(int osxsave, uint64_t xcr0, uint64_t need, const char *what, char *why, size_t n)
{
    if (!osxsave)
        snprintf(why, n, "CR4.OSXSAVE is off: the %s registers are not enabled", what);
    else if ((xcr0 & need) != need)
        snprintf(why, n, "XCR0 %#llx does not enable the %s state (bits %#llx)", (unsigned long long)xcr0, what,
                 (unsigned long long)need);
    else
        return 1;
    return 0;
}

void memory_vec_plan(const struct cpu_info *id, int osxsave, uint64_t xcr0,
                     struct memory_vec *v)
{
    uint32_t r[4], max, ebx7 = 0;
    memset(v, 0, sizeof *v);
    max = id->max_leaf;
    cpu_leaf(id, 1, 0, r);
    uint32_t ecx1 = r[2], edx1 = r[3];
    if (max >= 7) {
        cpu_leaf(id, 7, 0, r);
        ebx7 = r[1];
    }
    if (edx1 & MEMORY_CPUID1_EDX_SSE2)
        v->usable |= 1u << MEMORY_VEC_SSE2;
    else
        snprintf(v->why[MEMORY_VEC_SSE2], sizeof v->why[0], "the CPU lacks SSE2 (CPUID.1:EDX bit 26)");
    if (!(ecx1 & MEMORY_CPUID1_ECX_AVX))
        snprintf(v->why[MEMORY_VEC_AVX], sizeof v->why[0], "the CPU lacks AVX (CPUID.1:ECX bit 28)");
    else if (memory_vec_state(osxsave, xcr0, MEMORY_XCR0_SSE | MEMORY_XCR0_AVX, "AVX", v->why[MEMORY_VEC_AVX],
                              sizeof v->why[0]))
        v->usable |= 1u << MEMORY_VEC_AVX;
    if (!(ebx7 & MEMORY_CPUID7_EBX_AVX512F))
        snprintf(v->why[MEMORY_VEC_AVX512], sizeof v->why[0], "the CPU lacks AVX-512F (CPUID.7.0:EBX bit 16)");
    else if (memory_vec_state(osxsave, xcr0, MEMORY_XCR0_SSE | MEMORY_XCR0_AVX | MEMORY_XCR0_AVX512, "AVX-512",
                              v->why[MEMORY_VEC_AVX512], sizeof v->why[0]))
        v->usable |= 1u << MEMORY_VEC_AVX512;
}

/* ---- measuring ------------------------------------------------------------------------ */

static uint64_t memory_round_block(uint64_t b)
{
    return b / MEMORY_BW_BLOCK * MEMORY_BW_BLOCK;
}

/* The kernel's arguments over a set of `size` bytes at buf, and the bytes
 * one pass moves (copy: bytes copied; triad: STREAM's 3 x the array). */
static uint64_t memory_bw_args(int op, uint8_t *buf, uint64_t size, struct memory_bw_arg *a)
{
    uint64_t third = memory_round_block(size / 3), half = memory_round_block(size / 2);
    switch (op) {
    case MEMORY_BW_COPY:
        *a = (struct memory_bw_arg){ buf, half, buf + half, NULL };
        return half;
    case MEMORY_BW_TRIAD:   /* b = first third, c = second, a = third */
        *a = (struct memory_bw_arg){ buf, third, buf + 2 * third, buf + third };
        return 3 * third;
    default:
        *a = (struct memory_bw_arg){ buf, memory_round_block(size), NULL, NULL };
        return a->bytes;
    }
}

/* b and c of the triad hold normal doubles (the buffer may hold chase
 * pointers, which read as denormals). */
static void memory_triad_fill(const struct memory_bw_arg *a)
{
    double *b = (double *)a->base, *c = (double *)a->src2;
    for (uint64_t i = 0; i < a->bytes / sizeof(double); i++) {
        b[i] = 1.0;
        c[i] = 2.0;
    }
}

static void memory_bw_one(bm_routine fn, int op, void *buf, uint64_t size, const struct memory_plan *p,
                          struct memory_bw_fig *f)
{
    uint64_t t[MEMORY_MAX_SAMPLES], hz = plat_tick_hz();
    uint32_t n = p->bw_samples < MEMORY_MAX_SAMPLES ? p->bw_samples : MEMORY_MAX_SAMPLES;
    struct memory_bw_arg a;
    uint64_t per_pass = memory_bw_args(op, buf, size, &a);

    if (!per_pass || !n)
        return;
    if (op == MEMORY_BW_TRIAD)
        memory_triad_fill(&a);
    uint64_t passes = (p->bw_bytes + per_pass - 1) / per_pass;
    f->bytes = passes * per_pass;
    quiet_phase_begin();
    fn(1, &a);                                               /* warm-up */
    for (uint32_t i = 0; i < n; i++)
        t[i] = memory_time(fn, passes, &a);
    quiet_phase_end_add(&memory_qt);
    memory_min_median(t, n, &f->ticks_min, &f->ticks_median);
    f->best = hz && f->ticks_min ? (double)f->bytes * (double)hz / (double)f->ticks_min : NAN;
    f->median = hz && f->ticks_median ? (double)f->bytes * (double)hz / (double)f->ticks_median : NAN;
}

/* Ticks per byte: the lower, the faster (a clock is not needed). */
static double memory_bw_cost(const struct memory_bw_fig *f)
{
    return f->bytes ? (double)f->ticks_min / (double)f->bytes : INFINITY;
}

void memory_measure_bw(void *buf, uint64_t size, const struct memory_plan *p, const struct memory_vec *v,
                       struct memory_bw *out)
{
    memset(out, 0, sizeof *out);
    out->size = size;
    for (int op = 0; op < MEMORY_BW_OPS; op++)
        out->peak[op] = -1;
    for (int w = 0; w < MEMORY_VECS; w++) {
        if (!(v->usable >> w & 1))
            continue;
        out->ran |= 1u << w;
        for (int op = 0; op < MEMORY_BW_OPS; op++) {
            memory_bw_one(memory_kernels[w][op], op, buf, size, p, &out->f[w][op]);
            if (out->peak[op] < 0 || memory_bw_cost(&out->f[w][op]) < memory_bw_cost(&out->f[out->peak[op]][op]))
                out->peak[op] = w;
        }
    }
}

/* ---- the table ------------------------------------------------------------------------------- */

void memory_bw_print_head(const struct memory_plan *p, const struct memory_vec *v, const struct memory_xstate *x)
{
    char line[512];
    size_t k = 0;
    for (int w = 0; w < MEMORY_VECS && k < sizeof line; w++)
        k += (size_t)snprintf(line + k, sizeof line - k, "%s%s %u-byte %s", w ? "; " : "", memory_vec_name(w),
                              memory_vec_bytes(w), v->usable >> w & 1 ? "measured" : "skipped");
    out_printf("memory: bandwidth widths: %s\n", line);
    for (int w = 0; w < MEMORY_VECS; w++)
        if (!(v->usable >> w & 1))
            out_printf("memory: %s skipped: %s\n", memory_vec_name(w), v->why[w]);
    if (!strcmp(x->enabled_by, "baremark"))
        out_printf("memory: AVX state: found CR4.OSXSAVE %s, XCR0 %#llx; baremark set CR4.OSXSAVE and XCR0 %#llx "
                   "for the kernels and restores them after\n", x->osxsave_before ? "on" : "off",
                   (unsigned long long)x->xcr0_before, (unsigned long long)x->xcr0);
    else
        out_printf("memory: AVX state: %s (CR4.OSXSAVE %s, XCR0 %#llx)\n",
                   !strcmp(x->enabled_by, "none") ? "no XSAVE state in use" : x->enabled_by,
                   x->osxsave ? "on" : "off", (unsigned long long)x->xcr0);
    out_printf("memory: bandwidth = read; write of a changing non-zero pattern; write_nt (non-temporal stores); "
               "copy of half to half (bytes copied); STREAM triad a = b + 3c over thirds (bytes: 3 x the array); "
               "best of %u timings, * = the peak width\n", p->bw_samples);
    if (plat_tick_hz())
        out_printf("  %9s %-7s %9s %9s %9s %9s %9s   (GB/s)\n", "size", "width", "read", "write", "write_nt",
                   "copy", "triad");
    else
        out_printf("  %9s %-7s %9s %9s %9s %9s %9s   (bytes per tick: the clock is not calibrated)\n", "size",
                   "width", "read", "write", "write_nt", "copy", "triad");
}

static double memory_bw_figure(const struct memory_bw_fig *f)
{
    if (plat_tick_hz())
        return f->best / 1e9;
    return f->ticks_min ? (double)f->bytes / (double)f->ticks_min : NAN;
}

void memory_bw_print_rows(const struct memory_bw *b)
{
    char sz[24];
    memory_size_text(b->size, sz, sizeof sz);
    for (int w = 0; w < MEMORY_VECS; w++) {
        if (!(b->ran >> w & 1))
            continue;
        char line[256];
        size_t k = (size_t)snprintf(line, sizeof line, "  %9s %-7s", sz, memory_vec_name(w));
        for (int op = 0; op < MEMORY_BW_OPS && k < sizeof line; op++)
            k += (size_t)snprintf(line + k, sizeof line - k, " %8.3f%c", memory_bw_figure(&b->f[w][op]),
                                  b->peak[op] == w && b->ran != (1u << w) ? '*' : ' ');
        out_printf("%s\n", line);
    }
}

/* The peak of each kernel over sizes and widths. */
static void memory_bw_peak(const struct memory_bw *b, unsigned n, int op, unsigned *at, int *w)
{
    *w = -1;
    for (unsigned i = 0; i < n; i++) {
        int k = b[i].peak[op];
        if (k >= 0 && (*w < 0 || memory_bw_cost(&b[i].f[k][op]) < memory_bw_cost(&b[*at].f[*w][op])))
            *at = i, *w = k;
    }
}

void memory_bw_print_peaks(const struct memory_bw *b, unsigned n)
{
    for (int op = 0; op < MEMORY_BW_OPS; op++) {
        unsigned at = 0;
        int w;
        char sz[24];
        memory_bw_peak(b, n, op, &at, &w);
        if (w < 0)
            continue;
        memory_size_text(b[at].size, sz, sizeof sz);
        out_printf("memory: peak %s %.3f %s at %s with %s (%u-byte)\n", memory_bw_op_name(op),
                   memory_bw_figure(&b[at].f[w][op]), plat_tick_hz() ? "GB/s" : "bytes/tick", sz,
                   memory_vec_name(w), memory_vec_bytes(w));
    }
}

/* ---- JSON ------------------------------------------------------------------------------------- */

/* Each kernel's peak, bandwidth[*].OP.best_bytes_per_s, in the figure
 * table (bench/memory/figures_memory.h), by MEMORY_BW_* */
static const unsigned memory_bw_best_row[MEMORY_BW_OPS] = {
    [MEMORY_BW_READ] = FIG_MEMORY_READ_BEST, [MEMORY_BW_WRITE] = FIG_MEMORY_WRITE_BEST,
    [MEMORY_BW_WRITE_NT] = FIG_MEMORY_WRITE_NT_BEST, [MEMORY_BW_COPY] = FIG_MEMORY_COPY_BEST,
    [MEMORY_BW_TRIAD] = FIG_MEMORY_TRIAD_BEST,
};

/* One kernel's figures, member `op`: at a row's peak (width >= 0, the
 * width it was had with) its best is the table's figure; every width's
 * own (width -1) are details of "bandwidth[*].*". */
static void memory_bw_json_fig(struct json_writer *w, int op, const struct memory_bw_fig *f, int width)
{
    json_obj_begin(w, memory_bw_op_name(op));
    if (width >= 0)
        json_str(w, "width", memory_vec_name(width));
    json_u64(w, "bytes", f->bytes);
    json_u64(w, "ticks_min", f->ticks_min);
    json_u64(w, "ticks_median", f->ticks_median);
    json_fig_or_double(w, width >= 0 ? &figures_memory : NULL, memory_bw_best_row[op], "best_bytes_per_s", f->best);
    json_double(w, "median_bytes_per_s", f->median);
    json_obj_end(w);
}

/* One row: each kernel's peak at the top (with its width), then every
 * width measured. */
void memory_bw_json_row(struct json_writer *w, const struct memory_bw *b)
{
    json_obj_begin(w, NULL);
    json_u64(w, "size_bytes", b->size);
    for (int op = 0; op < MEMORY_BW_OPS; op++)
        if (b->peak[op] >= 0)
            memory_bw_json_fig(w, op, &b->f[b->peak[op]][op], b->peak[op]);
    json_arr_begin(w, "widths");
    for (int k = 0; k < MEMORY_VECS; k++) {
        if (!(b->ran >> k & 1))
            continue;
        json_obj_begin(w, NULL);
        json_str(w, "width", memory_vec_name(k));
        json_u64(w, "vector_bytes", memory_vec_bytes(k));
        for (int op = 0; op < MEMORY_BW_OPS; op++)
            memory_bw_json_fig(w, op, &b->f[k][op], -1);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

/* The widths and the AVX state (member "vector"), and the peaks. */
void memory_bw_json_head(struct json_writer *w, const struct memory_vec *v, const struct memory_xstate *x,
                         const struct memory_bw *b, unsigned n)
{
    json_obj_begin(w, "vector");
    json_bool(w, "xsave", x->xsave);
    json_bool(w, "osxsave_before", x->osxsave_before);
    json_u64(w, "xcr0_before", x->xcr0_before);
    json_bool(w, "osxsave", x->osxsave);
    json_u64(w, "xcr0", x->xcr0);
    json_str(w, "enabled_by", x->enabled_by);
    json_bool(w, "restored", x->restored);
    json_arr_begin(w, "widths");
    for (int k = 0; k < MEMORY_VECS; k++) {
        json_obj_begin(w, NULL);
        json_str(w, "width", memory_vec_name(k));
        json_u64(w, "vector_bytes", memory_vec_bytes(k));
        json_bool(w, "measured", v->usable >> k & 1);
        if (!(v->usable >> k & 1))
            json_str(w, "why", v->why[k]);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
    json_obj_begin(w, "bandwidth_peaks");
    for (int op = 0; op < MEMORY_BW_OPS; op++) {
        unsigned at = 0;
        int k;
        memory_bw_peak(b, n, op, &at, &k);
        if (k < 0)
            continue;
        json_obj_begin(w, memory_bw_op_name(op));
        json_str(w, "width", memory_vec_name(k));
        json_u64(w, "size_bytes", b[at].size);
        json_double(w, "best_bytes_per_s", b[at].f[k][op].best);
        json_u64(w, "bytes", b[at].f[k][op].bytes);
        json_u64(w, "ticks_min", b[at].f[k][op].ticks_min);
        json_obj_end(w);
    }
    json_obj_end(w);
}
