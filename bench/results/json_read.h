/*
 * bench/results/json_read.h - a small reader of JSON text that is already in
 * memory: no allocation, no copies, every step bounded by the text's
 * length.  Portable: the image reads the results document it just wrote
 * (the run's summary, its LAVA lines) and the host reads files from a
 * stick with the same code (bench/summary/summary.c, bench/results/figures.c).
 *
 * A value is a span of the text (struct jval).  A span with p == NULL is
 * "none": what a lookup returns for a missing member, an index past the
 * end, or text that is not JSON.  Every function accepts "none" and gives
 * "none" (or the default) back, so chains need no checks in between:
 *
 *   struct jval doc = jval_doc(text, len);
 *   double khz = jval_num(jval_path(doc, "clock.chosen_khz"), NAN);
 *   struct jval m;
 *   for (size_t it = 0; jval_next(jval_get(jval_get(doc, "methods"), "measurements"), &it, NULL, &m);)
 *       ...
 *
 * Text that is not JSON (a truncated file, a stray byte) makes the value
 * that holds it "none" where it is reached; values before it stay
 * readable.  Nesting deeper than JVAL_MAX_DEPTH is not JSON here.
 */
#ifndef BAREMARK_JSON_READ_H
#define BAREMARK_JSON_READ_H

#include <stddef.h>

/* Deeper nesting is refused (the results document uses about 6). */
#define JVAL_MAX_DEPTH 64

enum jval_type { JVAL_NONE, JVAL_NULL, JVAL_FALSE, JVAL_TRUE, JVAL_NUMBER, JVAL_STRING, JVAL_ARRAY, JVAL_OBJECT };

struct jval {
    const char *p;      /* first character of the value; NULL: none */
    size_t n;           /* its length */
};

/* The document's top value (leading and trailing white space allowed;
 * "none" when it is not one whole JSON value). */
struct jval jval_doc(const char *text, size_t len);
/* The length of the JSON value at the start of s (after no white space),
 * 0 when there is none. */
size_t jval_span(const char *s, size_t len);

enum jval_type jval_type(struct jval v);
int jval_is_none(struct jval v);

/* An object's member (the first one of that name); an array's element. */
struct jval jval_get(struct jval obj, const char *key);
struct jval jval_at(struct jval arr, size_t index);
/* Number of elements (array) or members (object); 0 otherwise. */
size_t jval_count(struct jval v);
/* Iterate an object's members or an array's elements: *it starts at 0;
 * returns 1 with *val (and *key, the member's name as a JSON string, for
 * an object; none for an array) set, 0 at the end.  key may be NULL. */
int jval_next(struct jval container, size_t *it, struct jval *key, struct jval *val);

/* A path: member names joined by '.', array indexes as [N]:
 * "clock.references[0].khz".  Names holding '.' or '[' cannot be named. */
struct jval jval_path(struct jval root, const char *path);

/* A number's value, or dflt when v is not a number. */
double jval_num(struct jval v, double dflt);
/* true/false as 1/0, dflt otherwise. */
int jval_bool(struct jval v, int dflt);
/* A string's text, unescaped (\uXXXX as UTF-8, a NUL as "\0" is dropped),
 * cut to cap - 1 bytes; returns 1 for a string, else 0 with out = "". */
int jval_str(struct jval v, char *out, size_t cap);
/* Whether a string value (a member's name from jval_next) is exactly s. */
int jval_str_eq(struct jval v, const char *s);

#endif
