/*
 * bench/results/json_read.c - a small reader of JSON text in memory (see
 * json_read.h).  RFC 8259's grammar, checked as far as the reader walks:
 * a value is measured (jval_span) before anything inside it is used, so a
 * lookup never runs past the end of the text or into a neighbour.
 */
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

static const struct jval jval_none;

static int jval_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static size_t jval_skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && jval_ws(s[i]))
        i++;
    return i;
}

static int jval_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string starting at s[0] == '"': its length with both quotes, 0 if
 * it is not closed or holds a raw control character or a bad escape. */
static size_t jval_span_string(const char *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"')
            return i + 1;
        if (c < 0x20)
            return 0;
        if (c != '\\')
            continue;
        if (++i >= n)
            return 0;
        if (s[i] == 'u') {
            if (i + 4 >= n || !jval_hex(s[i + 1]) || !jval_hex(s[i + 2]) || !jval_hex(s[i + 3]) || !jval_hex(s[i + 4]))
                return 0;
            i += 4;
        } else if (!strchr("\"\\/bfnrt", s[i]) || !s[i]) {
            return 0;
        }
    }
    return 0;
}

static int jval_digit(char c) { return c >= '0' && c <= '9'; }

/* A number as RFC 8259 writes it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? */
static size_t jval_span_number(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && jval_digit(s[i]))
        while (i < n && jval_digit(s[i]))
            i++;
    else
        return 0;
    if (i < n && s[i] == '.') {
        if (++i >= n || !jval_digit(s[i]))
            return 0;
        while (i < n && jval_digit(s[i]))
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= n || !jval_digit(s[i]))
            return 0;
        while (i < n && jval_digit(s[i]))
            i++;
    }
    return i;
}

static size_t jval_span_depth(const char *s, size_t n, int depth);

/* An array or object at s[0]: its length with the brackets, 0 if broken. */
static size_t jval_span_container(const char *s, size_t n, int depth)
{
    char close = s[0] == '{' ? '}' : ']';
    size_t i = jval_skip_ws(s, n, 1);
    if (depth >= JVAL_MAX_DEPTH)
        return 0;
    if (i < n && s[i] == close)
        return i + 1;
    for (;;) {
        size_t k;
        if (close == '}') {
            if (i >= n || s[i] != '"' || !(k = jval_span_string(s + i, n - i)))
                return 0;
            i = jval_skip_ws(s, n, i + k);
            if (i >= n || s[i] != ':')
                return 0;
            i = jval_skip_ws(s, n, i + 1);
        }
        k = jval_span_depth(s + i, n - i, depth + 1);
        if (!k)
            return 0;
        i = jval_skip_ws(s, n, i + k);
        if (i < n && s[i] == close)
            return i + 1;
        if (i >= n || s[i] != ',')
            return 0;
        i = jval_skip_ws(s, n, i + 1);
    }
}

static size_t jval_span_word(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && !memcmp(s, w, k) ? k : 0;
}

static size_t jval_span_depth(const char *s, size_t n, int depth)
{
    if (!s || !n)
        return 0;
    switch (s[0]) {
    case '{':
    case '[':
        return jval_span_container(s, n, depth);
    case '"':
        return jval_span_string(s, n);
    case 't':
        return jval_span_word(s, n, "true");
    case 'f':
        return jval_span_word(s, n, "false");
    case 'n':
        return jval_span_word(s, n, "null");
    default:
        return jval_span_number(s, n);
    }
}

size_t jval_span(const char *s, size_t len) { return jval_span_depth(s, len, 0); }

struct jval jval_doc(const char *text, size_t len)
{
    size_t i, k;
    if (!text)
        return jval_none;
    i = jval_skip_ws(text, len, 0);
    k = jval_span(text + i, len - i);
    if (!k || jval_skip_ws(text, len, i + k) != len)
        return jval_none;
    return (struct jval){ text + i, k };
}

int jval_is_none(struct jval v) { return v.p == NULL; }

enum jval_type jval_type(struct jval v)
{
    if (!v.p || !v.n)
        return JVAL_NONE;
    switch (v.p[0]) {
    case '{': return JVAL_OBJECT;
    case '[': return JVAL_ARRAY;
    case '"': return JVAL_STRING;
    case 't': return JVAL_TRUE;
    case 'f': return JVAL_FALSE;
    case 'n': return JVAL_NULL;
    default: return JVAL_NUMBER;
    }
}

/* Values inside a container were measured with it (jval_doc, or the walk
 * that found the container), so the walk below only steps over them; a
 * container that did not come from here is measured once more. */
int jval_next(struct jval c, size_t *it, struct jval *key, struct jval *val)
{
    enum jval_type t = jval_type(c);
    size_t i, k;
    if (key)
        *key = jval_none;
    *val = jval_none;
    if (t != JVAL_ARRAY && t != JVAL_OBJECT)
        return 0;
    i = *it ? *it : jval_skip_ws(c.p, c.n, 1);
    if (i >= c.n || c.p[i] == ']' || c.p[i] == '}')
        return 0;
    if (t == JVAL_OBJECT) {
        k = c.p[i] == '"' ? jval_span_string(c.p + i, c.n - i) : 0;
        if (!k)
            return 0;
        if (key)
            *key = (struct jval){ c.p + i, k };
        i = jval_skip_ws(c.p, c.n, i + k);
        if (i >= c.n || c.p[i] != ':')
            return 0;
        i = jval_skip_ws(c.p, c.n, i + 1);
    }
    k = jval_span(c.p + i, c.n - i);
    if (!k)
        return 0;
    *val = (struct jval){ c.p + i, k };
    i = jval_skip_ws(c.p, c.n, i + k);
    if (i < c.n && c.p[i] == ',')
        i = jval_skip_ws(c.p, c.n, i + 1);
    *it = i;
    return 1;
}

struct jval jval_get(struct jval obj, const char *key)
{
    struct jval k, v;
    size_t it = 0;
    if (jval_type(obj) != JVAL_OBJECT || !key)
        return jval_none;
    while (jval_next(obj, &it, &k, &v))
        if (jval_str_eq(k, key))
            return v;
    return jval_none;
}

struct jval jval_at(struct jval arr, size_t index)
{
    struct jval v;
    size_t it = 0, i = 0;
    if (jval_type(arr) != JVAL_ARRAY)
        return jval_none;
    while (jval_next(arr, &it, NULL, &v))
        if (i++ == index)
            return v;
    return jval_none;
}

size_t jval_count(struct jval c)
{
    struct jval v;
    size_t it = 0, n = 0;
    while (jval_next(c, &it, NULL, &v))
        n++;
    return n;
}

struct jval jval_path(struct jval v, const char *path)
{
    char name[128];
    while (path && *path && v.p) {
        if (*path == '.') {
            path++;
        } else if (*path == '[') {
            char *end;
            unsigned long i = strtoul(path + 1, &end, 10);
            if (end == path + 1 || *end != ']')
                return jval_none;
            v = jval_at(v, i);
            path = end + 1;
        } else {
            size_t k = strcspn(path, ".[");
            if (k >= sizeof name)
                return jval_none;
            memcpy(name, path, k);
            name[k] = 0;
            v = jval_get(v, name);
            path += k;
        }
    }
    return v;
}

double jval_num(struct jval v, double dflt)
{
    char buf[64];
    if (jval_type(v) != JVAL_NUMBER || v.n >= sizeof buf)
        return dflt;
    memcpy(buf, v.p, v.n);
    buf[v.n] = 0;
    return strtod(buf, NULL);
}

int jval_bool(struct jval v, int dflt)
{
    enum jval_type t = jval_type(v);
    return t == JVAL_TRUE ? 1 : t == JVAL_FALSE ? 0 : dflt;
}

static unsigned jval_hex4(const char *s)
{
    unsigned u = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        u = u * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return u;
}

/* Append code point u as UTF-8 when it fits. */
static size_t jval_put_utf8(char *out, size_t o, size_t cap, unsigned u)
{
    char b[4];
    size_t k;
    if (u < 0x80) {
        b[0] = (char)u;
        k = 1;
    } else if (u < 0x800) {
        b[0] = (char)(0xC0 | u >> 6);
        b[1] = (char)(0x80 | (u & 0x3F));
        k = 2;
    } else if (u < 0x10000) {
        b[0] = (char)(0xE0 | u >> 12);
        b[1] = (char)(0x80 | (u >> 6 & 0x3F));
        b[2] = (char)(0x80 | (u & 0x3F));
        k = 3;
    } else {
        b[0] = (char)(0xF0 | u >> 18);
        b[1] = (char)(0x80 | (u >> 12 & 0x3F));
        b[2] = (char)(0x80 | (u >> 6 & 0x3F));
        b[3] = (char)(0x80 | (u & 0x3F));
        k = 4;
    }
    if (o + k >= cap)
        return o;
    memcpy(out + o, b, k);
    return o + k;
}

/* One escape after the backslash at s[*i]; the string was measured, so
 * the escape is whole.  Surrogate pairs become one code point; a lone
 * surrogate becomes U+FFFD. */
static size_t jval_unescape(const char *s, size_t n, size_t *i, char *out, size_t o, size_t cap)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    char c = s[++*i];
    if (c != 'u') {
        if (o + 1 < cap)
            out[o++] = to[strchr(from, c) - from];
        return o;
    }
    unsigned u = jval_hex4(s + *i + 1);
    *i += 4;
    if (u >= 0xD800 && u < 0xDC00 && *i + 6 < n && s[*i + 1] == '\\' && s[*i + 2] == 'u') {
        unsigned lo = jval_hex4(s + *i + 3);
        if (lo >= 0xDC00 && lo < 0xE000) {
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            *i += 6;
        }
    }
    if (u >= 0xD800 && u < 0xE000)
        u = 0xFFFD;
    return u ? jval_put_utf8(out, o, cap, u) : o;
}

int jval_str(struct jval v, char *out, size_t cap)
{
    size_t o = 0;
    if (cap)
        out[0] = 0;
    if (jval_type(v) != JVAL_STRING || !cap)
        return 0;
    for (size_t i = 1; i + 1 < v.n; i++) {
        if (v.p[i] == '\\')
            o = jval_unescape(v.p, v.n, &i, out, o, cap);
        else if (o + 1 < cap)
            out[o++] = v.p[i];
    }
    out[o] = 0;
    return 1;
}

int jval_str_eq(struct jval v, const char *s)
{
    size_t k = strlen(s);
    if (jval_type(v) != JVAL_STRING)
        return 0;
    /* the common case: no escapes, compare in place */
    if (v.n == k + 2 && !memcmp(v.p + 1, s, k))
        return 1;
    if (!memchr(v.p, '\\', v.n) || k > 255)
        return 0;
    char buf[257];
    jval_str(v, buf, sizeof buf);
    return !strcmp(buf, s);
}
