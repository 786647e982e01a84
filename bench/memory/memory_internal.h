/*
 * bench/memory/memory_internal.h - what the memory section's files share; not for
 * other sections.  The parts (memory_caches.c, memory_bw.c, memory_tlb.c)
 * use bench/memory/memory.c's helpers declared here; memory_section.c drives the
 * parts through their functions declared below.
 */
#ifndef BAREMARK_MEMORY_INTERNAL_H
#define BAREMARK_MEMORY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "quiet.h"
#include "targets.h"

#define MEMORY_MAX_SAMPLES 64
/* The method every memory timing uses (bench/methods/methods.h). */
#define MEMORY_METHOD METHOD_LFENCE_RDTSC

struct memory_plan;

/* ---- bench/memory/memory.c ---- */
/* The section's measuring phases (one per size and kernel). */
extern struct quiet_phase_totals memory_qt;

/* One timing of f(iterations, data), interrupts masked, with the
 * section's method. */
uint64_t memory_time(bm_routine f, uint64_t iterations, void *data);
/* Minimum and median of x (sorted in place). */
void memory_min_median(uint64_t *x, uint32_t n, uint64_t *min, uint64_t *median);
/* "4 KiB", "1.5 MiB", "2 GiB" */
void memory_size_text(uint64_t b, char *buf, size_t n);

/* Time the chase around the cycle from start (`lines` long): fills all
 * of out but size. */
struct memory_latency;
void memory_chase(void *start, uint64_t lines, const struct memory_plan *p, struct memory_latency *out);
/* A chase's figures as members of the open object w: cycle_lines, loads,
 * ticks_min, ticks_median, ns_min, ns_median (the latency rows and both
 * TLB chases).  latency_row: a latency row's chase, whose ns_median is
 * the table's FIG_MEMORY_LATENCY_NS_MEDIAN (bench/memory/figures_memory.h); a TLB
 * chase's figures are all details of "tlb.*". */
struct json_writer;
void memory_chase_json(struct json_writer *w, const struct memory_latency *l, int latency_row);

/* bench/memory/memory_caches.c: the caches line, the "fits in" name, member
 * "caches", and the knees (printed when print, member "knees" when w). */
struct memory_caches;
struct memory_latency;
void memory_print_caches(const struct memory_caches *c);
void memory_fits_name(const struct memory_caches *c, uint64_t size, char *buf, size_t n);
void memory_json_caches(struct json_writer *w, const struct memory_caches *c);
void memory_knees(const struct memory_latency *l, unsigned n, const struct memory_caches *c,
                  struct json_writer *w, int print);

/* bench/memory/memory_bw.c: the bandwidth table, its peaks, LAVA cases, JSON. */
struct memory_vec;
struct memory_xstate;
struct memory_bw;
void memory_bw_print_head(const struct memory_plan *p, const struct memory_vec *v, const struct memory_xstate *x);
void memory_bw_print_rows(const struct memory_bw *b);
void memory_bw_print_peaks(const struct memory_bw *b, unsigned n);
void memory_bw_json_row(struct json_writer *w, const struct memory_bw *b);
void memory_bw_json_head(struct json_writer *w, const struct memory_vec *v, const struct memory_xstate *x,
                         const struct memory_bw *b, unsigned n);

/* bench/memory/memory_tlb.c: the page census line and member "pages"; the TLB
 * chase (rows printed as measured; returns their number) and member "tlb". */
struct memory_page_census;
struct memory_tlb_row;
void memory_pages_print(const struct memory_page_census *c, uint64_t bytes);
void memory_pages_json(struct json_writer *w, const struct memory_page_census *c);
unsigned memory_tlb_sweep(void *buf, uint64_t bytes, const struct memory_plan *p,
                          const struct memory_page_census *c, struct memory_tlb_row *rows);
void memory_tlb_json(struct json_writer *w, const struct memory_tlb_row *rows, unsigned n);

#endif
