/*
 * bench/targets/targets.c - the table of built-in targets and the strlen driver.
 */
#include <stdint.h>
#include <string.h>

#include "targets.h"

/* The driver reads strlen through a volatile pointer: the compiler can
 * neither hoist the call out of the loop nor replace it with a constant. */
static size_t (*volatile target_strlen_fn)(const char *) = strlen;
static volatile size_t target_sink;

void bm_target_strlen(uint64_t iterations, void *data)
{
    const char *s = data;
    size_t sum = 0;
    for (uint64_t i = 0; i < iterations; i++)
        sum += target_strlen_fn(s);
    target_sink = sum;
}

static struct target_foo_args target_foo_data = { 1, 1 };
static struct target_foo_args target_foobar_data = { 1, 1 };
static char target_text[] = TARGET_STRLEN_TEXT;

static const struct target target_list[] = {
    { "empty", bm_target_empty, NULL, "ret: nothing (nets 0 against the placeholder)",
      TARGET_EMPTY_FIXED, 0 },
    { "add1", bm_target_add1, NULL, "loop of 1 add", TARGET_ADD_FIXED, TARGET_ADD_PER_ITER(1) },
    { "add10", bm_target_add10, NULL, "loop of 10 dependent adds", TARGET_ADD_FIXED,
      TARGET_ADD_PER_ITER(10) },
    { "add100", bm_target_add100, NULL, "loop of 100 dependent adds", TARGET_ADD_FIXED,
      TARGET_ADD_PER_ITER(100) },
    { "add1000", bm_target_add1000, NULL, "loop of 1000 dependent adds", TARGET_ADD_FIXED,
      TARGET_ADD_PER_ITER(1000) },
    { "foo", bm_target_foo, &target_foo_data, "Karsh's Foo: *x *= *y five times",
      TARGET_FOO_FIXED, TARGET_FOO_PER_ITER },
    { "foobar", bm_target_foobar, &target_foobar_data,
      "Karsh's FooBar: an identical copy of Foo", TARGET_FOO_FIXED, TARGET_FOO_PER_ITER },
    { "strlen", bm_target_strlen, target_text,
      "C library strlen of \"" TARGET_STRLEN_TEXT "\" (CodeTune's example)", -1, -1 },
};

const struct target *targets_table(unsigned *n)
{
    *n = sizeof target_list / sizeof target_list[0];
    return target_list;
}

const struct target *targets_find(const char *name)
{
    for (unsigned i = 0; i < sizeof target_list / sizeof target_list[0]; i++)
        if (!strcmp(target_list[i].name, name))
            return &target_list[i];
    return NULL;
}
