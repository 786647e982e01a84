/*
 * bench/targets/targets.h - the built-in routines the methods time (bench/targets/targets.asm
 * and the strlen driver in bench/targets/targets.c), with their exact instruction
 * counts where the code fixes them.
 *
 * A target has the driver signature of Apple's MeasureNetTimeInCPUCycles
 * (seed 001): it does its work `iterations` times on `data`.
 */
#ifndef BAREMARK_TARGETS_H
#define BAREMARK_TARGETS_H

#include <stdint.h>

typedef void (*bm_routine)(uint64_t iterations, void *data);

/* bench/targets/targets.asm */
void bm_target_placeholder(uint64_t iterations, void *data);
void bm_target_empty(uint64_t iterations, void *data);
void bm_target_add1(uint64_t iterations, void *data);
void bm_target_add10(uint64_t iterations, void *data);
void bm_target_add100(uint64_t iterations, void *data);
void bm_target_add1000(uint64_t iterations, void *data);
void bm_target_foo(uint64_t iterations, void *data);
void bm_target_foobar(uint64_t iterations, void *data);

/* Instructions executed by one call, from the code (bench/targets/targets.asm):
 * fixed + iterations * per_iteration.  -1: not fixed by our code (strlen
 * is the C library's). */
#define TARGET_EMPTY_FIXED      1   /* ret */
#define TARGET_ADD_FIXED        4   /* mov, test, jz, ret */
#define TARGET_ADD_PER_ITER(k)  ((k) + 2)   /* k adds, dec, jnz */
#define TARGET_FOO_FIXED        3   /* test, jz, ret */
#define TARGET_FOO_PER_ITER     28  /* mov ecx; 5 x (mov, imul, mov, dec, jnz); dec, jnz */

/* The calls per timing the comparisons start from (Karsh's GatherTimes:
 * Precision 100; compare.h's COMPARE_PRECISION): the plug-ins' probe calls
 * a routine at least this many times before it is timed. */
#define TARGET_CALLS_START      100

/* Karsh's Foo/FooBar arguments: x *= y, with x = y = 1 as in GatherTimes. */
struct target_foo_args { int64_t x, y; };

/* CodeTune's example: strlen of this string (30 characters). */
#define TARGET_STRLEN_TEXT "Hello, this is a simple string"

/* strlen(data) `iterations` times through a pointer the compiler cannot
 * see through (bench/targets/targets.c). */
void bm_target_strlen(uint64_t iterations, void *data);

struct target {
    const char *name;        /* "add10"; fault point "target:add10" */
    bm_routine fn;
    void *data;              /* what to pass (static storage) */
    const char *what;        /* one line for people */
    int64_t fixed, per_iteration; /* instructions (see above); -1 unknown */
};

/* The built-in targets, in report order; count in *n. */
const struct target *targets_table(unsigned *n);
/* A target by name, or NULL. */
const struct target *targets_find(const char *name);

#endif
