/*
 * bench/methods_internal.h - what the methods files share (methods.c: the
 * table and CPU support; methods_engine.c: the measurement engine;
 * methods_overhead.c: overhead, resolution and Paoloni's checks;
 * methods_section.c: the section's text and JSON; methods_null.c: its A/A
 * null check); not for other code.
 */
#ifndef BAREMARK_METHODS_INTERNAL_H
#define BAREMARK_METHODS_INTERNAL_H

#include <stdint.h>

#include "methods.h"
#include "platform.h"

struct json_writer;
struct quiet_phase_totals;

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

/* The A/A null check (bench/methods_null.c): `empty` against the placeholder
 * many times with the planned N; its text and (w not NULL) its JSON member
 * "null_check".  steps: each method's counter step (0: not seen); the
 * measurements' quiet phases are added to qt.  Returns 1 when some
 * measurements failed. */
int methods_part_null(const struct methods_plan *p, const struct methods_cpu *c, const uint64_t *steps,
                      struct quiet_phase_totals *qt, struct json_writer *w);

#endif
