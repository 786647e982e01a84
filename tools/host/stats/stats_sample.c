/*
 * tools/host/stats/stats_sample.c - reading a sample for `stats` and
 * `compare` (stats_sample.h): one number a line.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_sample.h"

static char *trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len > 0 && strchr(" \t\r\n", s[len - 1]))
        s[--len] = 0;
    return s;
}

static int is_uint(const char *s)
{
    if (*s == '+')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int sample_push(struct sample *x, uint64_t u, double d)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 1024;
        uint64_t *nu = realloc(x->u, cap * sizeof *nu);
        if (nu)
            x->u = nu;
        double *nd = realloc(x->d, cap * sizeof *nd);
        if (nd)
            x->d = nd;
        if (!nu || !nd)
            return -1;
        x->cap = cap;
    }
    x->u[x->n] = u;
    x->d[x->n] = d;
    x->n++;
    return 0;
}

/* One line's number; 0 ok, -1 not a number. */
static int parse_number(const char *s, struct sample *x)
{
    char *end;
    errno = 0;
    if (is_uint(s)) {
        unsigned long long v = strtoull(s, &end, 10);
        if (errno == 0 && *end == 0)
            return sample_push(x, v, (double)v);
        errno = 0;   /* beyond 2^64: fall back to a double */
    }
    double d = strtod(s, &end);
    if (end == s || *end != 0 || !isfinite(d))
        return -1;
    x->all_int = 0;
    return sample_push(x, 0, d);
}

/* report_util.h (not included: its jansson clashes with bench/results/json.h). */
int doc_check_input(const char *cmd, const char *path);

int read_sample(const char *path, struct sample *x)
{
    memset(x, 0, sizeof *x);
    x->all_int = 1;
    x->name = path ? path : "(stdin)";
    if (path && strcmp(path, "-") && doc_check_input("stats", path))
        return 2;
    FILE *f = path && strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "baremark stats: %s: %s\n", path, strerror(errno));
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    unsigned long lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *s = trim(line);
        if (!*s)
            continue;
        if (parse_number(s, x) < 0) {
            fprintf(stderr, "baremark stats: %s:%lu: not a number: '%.40s'\n", x->name, lineno, s);
            rc = 2;
            break;
        }
    }
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

void sample_free(struct sample *x)
{
    free(x->u);
    free(x->d);
}
