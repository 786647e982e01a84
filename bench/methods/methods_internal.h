/*
 * bench/methods/methods_internal.h - what the methods files share (methods.c: the
 * table and CPU support; methods_engine.c: the measurement engine;
 * methods_overhead.c: overhead, resolution and Paoloni's checks;
 * methods_section.c: the section's text and JSON; methods_aa.c: the A/A
 * and placement checks); not for other code.
 */
#ifndef BAREMARK_METHODS_INTERNAL_H
#define BAREMARK_METHODS_INTERNAL_H

#include <stdint.h>

#include "methods.h"
#include "platform.h"

struct json_writer;
struct quiet_phase_totals;

/* The method of the A/A and placement checks (bench/methods/methods_aa.c). */
#define METHODS_AA_METHOD METHOD_LFENCE_RDTSC

/* The A/A check and the placement check (bench/methods/methods_aa.c): measured,
 * printed, and written as "null_check" and "placement_check" into w (NULL:
 * text only).  Returns 1 when measurements failed. */
int methods_part_aa(const struct methods_plan *p, const struct methods_cpu *c, uint64_t step,
                    struct quiet_phase_totals *qt, struct json_writer *w);

/* One timing with interrupts masked. */
static inline uint64_t methods_time(methods_bracket_fn b, bm_routine f, uint64_t n, void *data)
{
    unsigned long irq = plat_irq_off();
    uint64_t t = b(f, n, data);
    plat_irq_restore(irq);
    return t;
}

static inline uint64_t methods_time_null(methods_null_fn f)
{
    unsigned long irq = plat_irq_off();
    uint64_t t = f();
    plat_irq_restore(irq);
    return t;
}

#endif
