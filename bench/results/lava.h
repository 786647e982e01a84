/*
 * bench/results/lava.h - result lines for a LAVA lab (Linaro Automated Validation
 * Architecture).  Portable: the image and the hosted program.
 *
 * LAVA's `monitors` test action watches a serial console that has no shell:
 * it waits for a start string, turns every line matching a regular
 * expression into a test case (named groups test_case_id, result,
 * measurement, units) and stops at an end string.  With the setting LAVA=T
 * baremark prints, on the serial port only (the screen and the text log on
 * the stick stay as they are), one line per figure a lab tracks:
 *
 *   BAREMARK-LAVA start
 *   BAREMARK-LAVA case=clock_hpet_khz result=pass measurement=2596142.125 units=kHz
 *   BAREMARK-LAVA case=clock_pit_khz result=skip
 *   BAREMARK-LAVA case=bytemark_numsort result=fail
 *   ...
 *   BAREMARK-LAVA case=run_status result=pass measurement=0 units=status
 *   BAREMARK-LAVA end status=0
 *
 * The pattern to paste into a job (the job files in tools/lava/ carry it):
 *
 *   start: 'BAREMARK-LAVA start'
 *   end: 'BAREMARK-LAVA end status=\d'
 *   pattern: 'BAREMARK-LAVA case=(?P<test_case_id>\w+) result=(?P<result>pass|fail|skip)( measurement=(?P<measurement>[-+0-9.eE]+) units=(?P<units>\S+))?[\r\n]'
 *
 * The pattern ends at the line end, so a line still arriving never matches
 * with its measurement cut short.  LAVA ignores how QEMU exits and what the
 * console prints after the end string, so the run's status travels as the
 * last case, run_status (pass for status 0, fail for 2 or 3, the status as
 * its measurement), and on the end line.  A run that hangs or resets never
 * prints the end line: the job times out or loses its connection, and LAVA
 * marks it incomplete.
 *
 * Test-case ids are stable: lower case, digits and '_' only (LAVA turns any
 * other run of characters into one '_'; lava_case does the same and drops
 * such a '_' at either end, so the id on serial is the id LAVA stores).  The ids of the built-in sections:
 *
 *   clock_REF_khz, clock_REF_ppm   each reference (hpet, pm_timer, pit,
 *                                  cpuid_15, cpuid_16); skip when absent
 *   clock_tsc_khz                  the frequency the run uses
 *   clock_agreement                largest disagreement of measured
 *                                  references, ppm; fail when they disagree,
 *                                  skip with fewer than two
 *   method_NAME_overhead_ticks, method_NAME_overhead_ns
 *                                  each timing method's median overhead
 *                                  (NAME cleaned: sdm_recommended); skip
 *                                  when the CPU lacks the method
 *   meas_TARGET_METHOD_ticks, meas_TARGET_METHOD_ns
 *                                  each measurement's net time per iteration
 *                                  (median of the net samples): ticks/iter,
 *                                  ns/iter
 *   compare_NAME                   each comparison: pass when the verdict
 *                                  is the control's expectation; the
 *                                  relative difference of medians in %
 *   bytemark_KEY                   each BYTEmark kernel's mean score (its
 *                                  unit, e.g. arrays/s); skip when switched
 *                                  off, fail when it failed or (full
 *                                  profile) is not 95% certain
 *   bytemark_KEY_old_index, bytemark_KEY_new_index
 *                                  its indexes (Pentium 90 = 1, K6-233 = 1)
 *   bytemark_original_integer, ..._original_fp, bytemark_linux_memory,
 *   ..._linux_integer, ..._linux_fp    the five overall indexes
 *   cores_..., memory_...          bench/cores/figures_cores.c, figures_memory.c
 *   run_status                     the run's status (0, 2, 3)
 *
 * No section prints these lines.  They are made from the figure tables
 * (bench/results/figures.h): when a section ends, the image walks the section's
 * table over the member it has just written to the results document
 * (figures_lava_print, bench/results/figures_lava.c) and prints one case per place
 * of each row with a LAVA id: the id from the row's template, the value
 * and unit from the row, the result by the row's rules (none, skip, only,
 * lost, pass: figures.h), then lava_flush puts them on serial as one
 * block after the section's text, never inside its table.  A new section
 * gets its lines by declaring rows; tools/baremark-fleet reads the same
 * ids from LAVA's results and from the JSON through the same tables, and
 * tests/unit/test_figures.c checks a full run's lines (id, result, value,
 * unit) against the generator run on that run's JSON.
 *
 * lava_case() is the printer underneath (the generator's and run_status's).
 */
#ifndef BAREMARK_LAVA_H
#define BAREMARK_LAVA_H

#include <stddef.h>

/* The prefix of every line (no other line baremark prints starts so). */
#define LAVA_PREFIX "BAREMARK-LAVA"
/* Longest id kept (longer ones are cut). */
#define LAVA_ID_MAX 96

enum lava_result { LAVA_PASS, LAVA_FAIL, LAVA_SKIP };

/* Switch the lines on (LAVA=T) or off (the default); lava_start prints the
 * start line when on. */
void lava_enable(int on);
int lava_enabled(void);
void lava_start(void);

/* One test case.  id is cleaned as LAVA cleans it; value NAN (or unit NULL)
 * prints no measurement.  Nothing is printed while the lines are off or
 * after lava_end. */
void lava_case(const char *id, enum lava_result result, double value, const char *unit);

/* The run_status case and the end line; later cases are not printed. */
void lava_end(int status);

/* The cases so far, as one block: a section's cases wait until it has
 * ended (boot/main.c calls this after each section), so a line for a lab
 * never splits a table a person reads on the same console. */
void lava_flush(void);

/* LAVA's cleaning of a test-case id: lower case, every run of characters
 * other than letters, digits and '_' becomes one '_' (none at either end:
 * "foo vs foo (random order)" -> "foo_vs_foo_random_order").  Writes at
 * most cap bytes including the terminator; returns the length. */
size_t lava_id(char *out, size_t cap, const char *raw);

/* "pass", "fail", "skip". */
const char *lava_result_name(enum lava_result r);

#endif
