/*
 * tests/unit/test_cores_math.c - bench/cores/cores_math.c: topology from CPUID
 * leaves 0xB/0x1F (the SDM's worked layouts: 2 threads x 8 cores; 0x1F with
 * module and die levels; no SMT level), core types, offset intervals from
 * simulated round trips with a known offset, their merge and emptiness,
 * medians, and the CORES list with its errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cores_math.h"
#include "check.h"

static struct cores_cpuid leaf(uint32_t leafno, uint32_t id, int n, const uint32_t *type,
                               const uint32_t *shift)
{
    struct cores_cpuid c;
    memset(&c, 0, sizeof c);
    c.leaf1_ebx = (id & 0xFF) << 24;
    c.topo_leaf = leafno;
    c.x2apic_id = id;
    c.levels = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        c.level_type[i] = type[i];
        c.level_shift[i] = shift[i];
    }
    c.read = 1;
    return c;
}

static void topology(void)
{
    struct cores_topo t;
    /* 0xB: SMT shift 1, core shift 4 (2 threads, up to 8 cores a package). */
    static const uint32_t ty[] = { CORES_LEVEL_SMT, CORES_LEVEL_CORE }, sh[] = { 1, 4 };
    struct cores_cpuid c = leaf(0xB, 0x2B, 2, ty, sh);   /* 101011b: pkg 2, core 5, thread 1 */
    cores_topo_decode(&c, &t);
    CHECK(t.valid, "0xB: decoded");
    CHECK_EQ_U64(t.package, 2, "0xB: package = id >> 4");
    CHECK_EQ_U64(t.core, 5, "0xB: core = (id >> 1) & 7");
    CHECK_EQ_U64(t.thread, 1, "0xB: thread = id & 1");
    CHECK_EQ_U64(t.smt_bits, 1, "0xB: SMT bits");
    CHECK_EQ_U64(t.core_bits, 3, "0xB: core bits");

    /* 0x1F with module and die levels: the core index spans module and die bits. */
    static const uint32_t ty2[] = { CORES_LEVEL_SMT, CORES_LEVEL_CORE, CORES_LEVEL_MODULE,
                                    CORES_LEVEL_DIE }, sh2[] = { 1, 3, 4, 6 };
    c = leaf(0x1F, 0xD5, 4, ty2, sh2);   /* 11010101b: pkg 3, bits 5..1 = 01010, thread 1 */
    cores_topo_decode(&c, &t);
    CHECK_EQ_U64(t.package, 3, "0x1F: package = id >> last shift (6)");
    CHECK_EQ_U64(t.core, 0xA, "0x1F: core = bits 5..1");
    CHECK_EQ_U64(t.thread, 1, "0x1F: thread");

    /* No SMT level (QEMU's -smp 4 with one thread a core reports shift 0). */
    static const uint32_t ty3[] = { CORES_LEVEL_SMT, CORES_LEVEL_CORE }, sh3[] = { 0, 2 };
    c = leaf(0xB, 3, 2, ty3, sh3);
    cores_topo_decode(&c, &t);
    CHECK(t.valid && t.package == 0 && t.core == 3 && t.thread == 0, "shift 0: CPU 3 is core 3");

    /* Without a topology leaf: not valid, the initial APIC ID still known. */
    memset(&c, 0, sizeof c);
    c.leaf1_ebx = 7u << 24;
    cores_topo_decode(&c, &t);
    CHECK(!t.valid && t.apic_id == 7, "no leaf: initial APIC ID only");

    /* Hybrid: the core type counts only with CPUID.7:EDX[15]. */
    c.leaf1a_eax = 0x40000001;
    cores_topo_decode(&c, &t);
    CHECK_EQ_U64(t.core_type, 0, "0x1A ignored without the hybrid flag");
    c.hybrid = 1;
    cores_topo_decode(&c, &t);
    CHECK_EQ_U64(t.core_type, 0x40, "hybrid: P-core");
    char buf[8];
    CHECK_STR(cores_type_name(0x40, buf, sizeof buf), "p-core", "name 0x40");
    CHECK_STR(cores_type_name(0x20, buf, sizeof buf), "e-core", "name 0x20");
    CHECK_STR(cores_type_name(0x33, buf, sizeof buf), "0x33", "name of an unknown type");
    CHECK_STR(cores_type_name(0, buf, sizeof buf), "none", "name of no type");
}

/* Simulated round trips: the responder's clock = the initiator's + off;
 * one-way delays d1 (there) and d2 (back) in ticks. */
static void trip(struct cores_offset_bounds *b, uint64_t t0, int64_t off, uint64_t d1, uint64_t d2)
{
    uint64_t t1 = (uint64_t)((int64_t)(t0 + d1) + off), t2 = t0 + d1 + d2;
    cores_bounds_add(b, t0, t1, t2);
}

static void offsets(void)
{
    struct cores_offset_bounds a, r, m;
    double mid, half;
    cores_bounds_init(&a);
    CHECK(cores_bounds_estimate(&a, &mid, &half) != 0, "no samples: no estimate");
    /* offset +100, delays 30/50 then 40/20: bounds (t1-t2, t1-t0) = (50, 130) and (80, 140) */
    trip(&a, 1000, 100, 30, 50);
    trip(&a, 5000, 100, 40, 20);
    CHECK_EQ_I64(a.lo, 80, "lo = max(t1 - t2)");
    CHECK_EQ_I64(a.hi, 130, "hi = min(t1 - t0)");
    CHECK_EQ_U64(a.min_rtt, 60, "smallest round trip");
    CHECK(cores_bounds_estimate(&a, &mid, &half) == 0 && mid == 105 && half == 25,
          "midpoint 105, half-width 25");
    /* the other way: the BSP answers, its clock = responder - 100 */
    cores_bounds_init(&r);
    trip(&r, 9000, -100, 10, 25);       /* bounds on (bsp - ap): (-125, -90) */
    cores_bounds_merge(&a, &r, &m);
    CHECK_EQ_I64(m.lo, 90, "merge: lo from the reverse direction (-(-90))");
    CHECK_EQ_I64(m.hi, 125, "merge: hi from the reverse direction (-(-125))");
    CHECK_EQ_U64(m.samples, 3, "merge: samples add");
    CHECK(cores_bounds_estimate(&m, &mid, &half) == 0 && mid >= 90 && mid <= 125,
          "merged estimate inside the true interval");
    /* the true offset is inside every interval */
    CHECK(m.lo <= 100 && 100 <= m.hi, "true offset 100 within [lo, hi]");
    /* a drifting pair: two samples that cannot share one offset */
    cores_bounds_init(&a);
    trip(&a, 1000, 0, 5, 5);
    trip(&a, 2000, 50, 5, 5);
    CHECK(cores_bounds_estimate(&a, &mid, &half) != 0, "inconsistent samples: empty interval");
    /* equal clocks give an interval around 0 */
    cores_bounds_init(&a);
    for (int i = 0; i < 100; i++)
        trip(&a, 100000 + (uint64_t)i * 1000, 0, 20 + (uint64_t)(i % 7), 25 + (uint64_t)(i % 5));
    CHECK(a.lo <= 0 && a.hi >= 0, "equal clocks: 0 within the interval");
    CHECK_EQ_I64(a.lo, -25, "equal clocks: lo = -(smallest return delay)");
    CHECK_EQ_I64(a.hi, 20, "equal clocks: hi = smallest forward delay");
}

static void medians(void)
{
    uint64_t v[] = { 9, 1, 5, 3, 7 };
    CHECK_NEAR(cores_median_u64(v, 5), 5, 0, "median of 5");
    CHECK(v[0] == 1 && v[4] == 9, "sorted in place");
    uint64_t w[] = { 4, 2, 8, 6 };
    CHECK_NEAR(cores_median_u64(w, 4), 5, 0, "median of 4 = mean of the middle two");
    uint64_t big[2000];
    for (int i = 0; i < 2000; i++)
        big[i] = (uint64_t)((i * 7919) % 2000);
    CHECK_NEAR(cores_median_u64(big, 2000), 999.5, 0, "median of a permutation of 0..1999");
    int sorted = 1;
    for (int i = 1; i < 2000; i++)
        sorted &= big[i - 1] <= big[i];
    CHECK(sorted, "2000 values sorted");
}

static void lists(void)
{
    uint8_t sel[8];
    const char *why = NULL;
    CHECK(cores_list_parse("all", sel, 8, &why) == 0 && sel[0] && sel[7], "all");
    CHECK(cores_list_parse("0,2-5", sel, 8, &why) == 0, "0,2-5 parses");
    CHECK(sel[0] && !sel[1] && sel[2] && sel[5] && !sel[6], "0,2-5 selects 0, 2..5");
    CHECK(cores_list_parse("1,9", sel, 8, &why) == 0 && sel[1] && !sel[7], "9 past the end ignored");
    CHECK_EQ_U64(cores_list_max("1,9"), 9, "largest number named");
    CHECK_EQ_U64(cores_list_max("all"), 0, "all names no number");
    CHECK(cores_list_parse("", sel, 8, &why) != 0, "empty list rejected");
    CHECK(cores_list_parse("5-2", sel, 8, &why) != 0, "backward range rejected");
    CHECK(cores_list_parse("1;2", sel, 8, &why) != 0 && why, "bad separator rejected with a reason");
    CHECK(cores_list_parse("x", sel, 8, &why) != 0, "a word rejected");
    CHECK(cores_list_parse("1,", sel, 8, &why) != 0, "trailing comma rejected");
    CHECK(!sel[1], "a rejected list selects nothing");
}

int main(void)
{
    topology();
    offsets();
    medians();
    lists();
    return check_done();
}
