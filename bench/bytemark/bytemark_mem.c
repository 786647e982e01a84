/*
 * bench/bytemark/bytemark_mem.c - allocation, the stopwatch and the check
 * reporter shared by the kernels.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bytemark.h"
#include "bytemark_internal.h"
#include "platform.h"

/* Room in front of every block for the pointer plat_alloc returned, kept
 * 16 bytes so ALIGN=0 gives a 16-aligned address as malloc's would. */
#define BM_MEM_HEADER 16

void *bm_alloc(size_t bytes, uint32_t align)
{
    size_t extra = BM_MEM_HEADER + 2 * (size_t)align;
    if (bytes > (size_t)-1 - extra)
        return NULL;
    unsigned char *raw = plat_alloc(bytes + extra);
    if (!raw)
        return NULL;
    uintptr_t p = (uintptr_t)(raw + BM_MEM_HEADER);
    if (align) {
        /* AllocateMemory (BYTEMARK.md section 2): move up to a multiple of
         * ALIGN; if that is also a multiple of 2*ALIGN add ALIGN, so with the
         * default 8 every array starts at 8 mod 16 (deliberately not
         * 16-aligned), and ALIGN=1 gives an odd address. */
        p = (p + align - 1) / align * align;
        if (p % (2 * (uintptr_t)align) == 0)
            p += align;
    }
    memcpy((void *)(p - sizeof raw), &raw, sizeof raw); /* may be unaligned */
    return (void *)p;
}

void bm_free(void *p)
{
    if (!p)
        return;
    void *raw;
    memcpy(&raw, (unsigned char *)p - sizeof raw, sizeof raw);
    plat_free(raw);
}

void *bm_priv_new(struct bm_state *s, size_t bytes)
{
    void *p = plat_alloc(bytes);
    if (p)
        memset(p, 0, bytes);
    s->priv = p;
    return p;
}

void bm_priv_free(struct bm_state *s)
{
    if (s->priv)
        plat_free(s->priv);
    s->priv = NULL;
}

void bm_state_for_check(struct bm_state *s, struct bm_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->align = 8;
}

/* The key of the test being timed, for the fault-injection point; set by the
 * suite around each test (bm_timer_fault_key). */
static const char *bm_timer_key;

void bm_timer_fault_key(const char *key) { bm_timer_key = key; }

int bm_grow_loops_capped(struct bm_state *s, uint64_t step, uint64_t max)
{
    if (s->workload < max)
        s->workload = s->workload + step < max ? s->workload + step : max;
    return BM_OK;
}

void bm_timer_start(struct bm_timer *t)
{
    t->irq = plat_irq_off();
    /* An injected fault (INJECTFAULT/INJECTIN) goes off here, inside timed
     * work with interrupts masked: the hardest place for a test to fail. */
    if (bm_timer_key)
        plat_fault_point(bm_timer_key);
    t->t0 = plat_ticks();
}

uint64_t bm_timer_stop(struct bm_timer *t)
{
    uint64_t t1 = plat_ticks();
    plat_irq_restore(t->irq);
    return t1 - t->t0;
}

void bm_check(struct bm_verify *v, int ok, const char *what, const char *detail_fmt, ...)
{
    const char *kernel = v->kernel ? v->kernel : "bytemark";
    if (ok) {
        v->passed++;
        out_printf("PASS: %s: %s\n", kernel, what);
        return;
    }
    char detail[256];
    va_list ap;
    va_start(ap, detail_fmt);
    vsnprintf(detail, sizeof detail, detail_fmt, ap);
    va_end(ap);
    v->failed++;
    out_show("FAIL: %s: %s (%s)\n", kernel, what, detail);
}
