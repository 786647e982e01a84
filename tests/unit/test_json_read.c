/*
 * tests/unit/test_json_read.c - the JSON reader (bench/results/json_read.h):
 * members, elements, paths, iteration, numbers to the last bit, strings
 * with every escape, and text that is not JSON giving "none" without
 * reading past its end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_read.h"

static struct jval doc(const char *s) { return jval_doc(s, strlen(s)); }

static void test_members(void)
{
    const char *t = " {\"a\": 1, \"b\": {\"c\": [10, 20.5, {\"d\": \"x\"}]}, \"e\": true, \"f\": null} \n";
    struct jval d = doc(t);
    CHECK(jval_type(d) == JVAL_OBJECT, "a document is an object");
    CHECK_NEAR(jval_num(jval_get(d, "a"), NAN), 1, 0, "member a");
    CHECK_NEAR(jval_num(jval_path(d, "b.c[1]"), NAN), 20.5, 0, "path b.c[1]");
    char s[8];
    CHECK(jval_str(jval_path(d, "b.c[2].d"), s, sizeof s) && !strcmp(s, "x"), "path b.c[2].d is \"x\"");
    CHECK(jval_is_none(jval_path(d, "b.c[3]")), "an index past the end is none");
    CHECK(jval_is_none(jval_path(d, "b.z")), "a missing member is none");
    CHECK(jval_is_none(jval_path(d, "a.b")), "a member of a number is none");
    CHECK(jval_bool(jval_get(d, "e"), -1) == 1, "true");
    CHECK(jval_type(jval_get(d, "f")) == JVAL_NULL, "null");
    CHECK(isnan(jval_num(jval_get(d, "f"), NAN)), "null is no number");
    CHECK_EQ_U64(jval_count(d), 4, "four members");
    CHECK_EQ_U64(jval_count(jval_path(d, "b.c")), 3, "three elements");
    size_t it = 0, n = 0;
    struct jval k, v;
    const char *names[] = { "a", "b", "e", "f" };
    int order = 1;
    while (jval_next(d, &it, &k, &v))
        order &= n < 4 && jval_str_eq(k, names[n++]);
    CHECK(order && n == 4, "members come in the document's order");
    CHECK(jval_is_none(jval_path((struct jval){ 0 }, "a.b")) && jval_num((struct jval){ 0 }, 7) == 7, "none in, none out");
}

static void test_numbers(void)
{
    struct jval d = doc("[0, -0.5, 1e3, 2.5E-2, 4275044352, 0.1, 2596142.3, 1.7976931348623157e308]");
    double want[] = { 0, -0.5, 1000, 0.025, 4275044352.0, 0.1, 2596142.3, 1.7976931348623157e308 };
    int same = 1;
    for (size_t i = 0; i < 8; i++)
        same &= jval_num(jval_at(d, i), NAN) == want[i];
    CHECK(same, "numbers read to the last bit (as strtod)");
    const char *bad[] = { "01", "1.", ".5", "-", "1e", "+1", "0x10", "1.5.5", "NaN", "Infinity" };
    int refused = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused &= jval_is_none(doc(bad[i]));
    CHECK(refused, "numbers JSON does not allow are refused");
}

static void test_strings(void)
{
    char s[64];
    struct jval d = doc("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\\ud800x\"");
    CHECK(jval_str(d, s, sizeof s), "a string with every escape");
    CHECK_STR(s, "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbdx", "escapes decoded as UTF-8");
    CHECK(jval_str(doc("\"abcdefghij\""), s, 5) && !strcmp(s, "abcd"), "cut to the buffer");
    CHECK(jval_str(doc("\"a\\u0000b\""), s, sizeof s) && !strcmp(s, "ab"), "an escaped NUL is dropped");
    CHECK(jval_str_eq(doc("\"na\\u006de\""), "name"), "names compare after unescaping");
    CHECK(!jval_str_eq(doc("\"names\""), "name"), "a longer name differs");
    CHECK(jval_is_none(doc("\"a\nb\"")), "a raw newline in a string is refused");
    CHECK(jval_is_none(doc("\"\\x\"")), "an unknown escape is refused");
    CHECK(jval_is_none(doc("\"\\u12\"")), "a short \\u escape is refused");
    CHECK(!jval_str(doc("5"), s, sizeof s) && s[0] == 0, "a number is no string");
}

static void test_broken(void)
{
    const char *bad[] = { "", "{", "[1,]", "{\"a\"}", "{\"a\":}", "{a:1}", "[1 2]", "{\"a\":1,}", "tru", "nul",
                          "[1]]", "{} x", "\"open" };
    int refused = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused &= jval_is_none(doc(bad[i]));
    CHECK(refused, "text that is not one JSON value is none");
    char deep[2 * JVAL_MAX_DEPTH + 8];
    memset(deep, '[', JVAL_MAX_DEPTH + 2);
    memset(deep + JVAL_MAX_DEPTH + 2, ']', JVAL_MAX_DEPTH + 2);
    deep[2 * JVAL_MAX_DEPTH + 4] = 0;
    CHECK(jval_is_none(doc(deep)), "nesting deeper than JVAL_MAX_DEPTH is refused");
    /* A container that did not come from jval_doc: broken inside, read up to there. */
    const char *t = "{\"a\": 1, \"b\": [1, 2, }";
    struct jval c = { t, strlen(t) };
    CHECK_NEAR(jval_num(jval_get(c, "a"), NAN), 1, 0, "a member before the break is read");
    CHECK(jval_is_none(jval_get(c, "b")), "the broken member is none");
    /* A text that ends in the middle: nothing is read past len. */
    char *cut = malloc(6);
    memcpy(cut, "[1,2,", 5);
    struct jval cc = { cut, 5 };
    CHECK_EQ_U64(jval_count(cc), 2, "a truncated array gives its whole elements");
    free(cut);
}

int main(void)
{
    test_members();
    test_numbers();
    test_strings();
    test_broken();
    return check_done();
}
