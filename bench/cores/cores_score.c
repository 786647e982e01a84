/*
 * bench/cores/cores_score.c - one BYTEmark test on a CPU for the cores section
 * (bench/cores/cores_section.c posts it; bench/cores/cores_drive.c runs the BSP's
 * share with interrupts enabled, as the test allocates through the
 * firmware).  With a rendezvous the CPUs start together.
 */
#include <stdint.h>

#include "bytemark/bytemark.h"
#include "cores_internal.h"
#include "cores_work.h"
#include "cpu.h"

long cores_score_fn(void *arg)
{
    struct cores_score_arg *a = arg;
    if (a->inject)
        cores_inject((void *)a->inject);
    if (a->start) {
        /* a partner that never comes only delays the start */
        uint64_t deadline = cpu_rdtsc() + a->start->deadline_ticks;
        __atomic_fetch_add(&a->start->arrived, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&a->start->arrived, __ATOMIC_ACQUIRE) < a->start->parties
               && cpu_rdtsc() < deadline)
            __asm__ volatile("pause");
    }
    *a->t_start = cpu_rdtsc();
    int r = bytemark_core_test(a->job) == BM_OK ? 0 : 1;
    *a->t_end = cpu_rdtsc();
    return r;
}
