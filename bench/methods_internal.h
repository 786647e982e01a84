/*
 * bench/methods_internal.h - what the methods files share (methods.c: the
 * table and CPU support; methods_engine.c: the measurement engine;
 * methods_overhead.c: overhead, resolution and Paoloni's checks;
 * methods_section.c: the section's text and JSON); not for other code.
 */
#ifndef BAREMARK_METHODS_INTERNAL_H
#define BAREMARK_METHODS_INTERNAL_H

#include <stdint.h>

#include "methods.h"
#include "platform.h"

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
