/*
 * tools/host/report_glance.h - what the report's first screen says, as one
 * structure: the run's verdict, one headline per section, each target's
 * estimate by every method, each A/B pair as a ratio with its interval.
 * The page (report_top.c) only draws it.
 *
 * ADAPTER: issue 22.1 builds one run summary from the results for every
 * output (serial, screen, `baremark-results show`: bench/summary.h).  Until
 * the report reads that summary, report_glance.c fills this structure from
 * the results itself; then rg_build() maps that summary into it and
 * report_glance.c's own figures go.  The choices it makes meanwhile are
 * said in report_glance.c and in the README.
 */
#ifndef BAREMARK_REPORT_GLANCE_H
#define BAREMARK_REPORT_GLANCE_H

#include <stddef.h>

#include <jansson.h>

enum rg_verdict { RG_COMPLETED, RG_WARNINGS, RG_FAILED, RG_INTERRUPTED, RG_UNKNOWN };

/* One target timed by one method.  Strings point into the results tree. */
struct rg_method {
    const char *name, *status;
    int ok;                     /* status "ok": told apart from the placeholder */
    double ticks, ns;           /* estimate per iteration (NAN: none) */
    double lo_ns, hi_ns;        /* its 95% interval (NAN: none) */
};

struct rg_target {
    const char *name;
    struct rg_method *m;
    size_t n;
    int chosen;                 /* index into m; -1 when no method measured it */
    size_t ok, agree;           /* methods with status ok; of them, how many agree with the chosen one */
};

struct rg_pair {
    const char *name, *a, *b, *verdict, *kind;
    int control;                /* an A/A control: the same routine on both sides */
    int as_expected;            /* the run's own check of the control; -1 not stated */
    double ratio, lo, hi;       /* B's time over A's and its 95% interval: > 1 means A is faster */
    double p;                   /* the run's two-sided p (NAN: not stated) */
};

#define RG_HEADLINE 360
struct rg_headline {
    const char *section;        /* "machine", "clock", ... (the page's section ids) */
    char text[RG_HEADLINE];     /* one line, plain text (the page escapes it) */
};

#define RG_MAX_HEADLINES 16
struct rg_summary {
    enum rg_verdict verdict;
    size_t warnings;            /* the run's "errors" list */
    const char *first_warning;  /* NULL when none */
    char stage[32];             /* interrupted: the section it was in ("" unknown) */
    const char *profile, *started;  /* the run's profile and start time (NULL: not stated) */
    struct rg_headline lines[RG_MAX_HEADLINES];
    size_t nlines;
    struct rg_target *targets;
    size_t ntargets;
    struct rg_pair *pairs;
    size_t npairs;
};

/* Fill s from a results document; 0, or -1 when out of memory (s is then
 * still safe to draw and to free). */
int rg_build(json_t *root, struct rg_summary *s);
void rg_free(struct rg_summary *s);

/* The headline of a section, NULL when the summary has none. */
const char *rg_headline(const struct rg_summary *s, const char *section);

/* The verdict in words: "completed", "warnings: 3", "failed",
 * "interrupted during memory". */
const char *rg_verdict_words(const struct rg_summary *s, char *buf, size_t n);

/* Section headlines (report_headlines.c): one line per section the
 * document has, appended to s->lines. */
void rg_headlines(json_t *root, struct rg_summary *s);

#endif
