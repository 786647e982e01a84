/*
 * tools/host/diff/compare_runs.h - what `baremark diff` (two runs) shares between
 * its files: cmd_compare_runs.c reads the two runs and builds the items,
 * compare_runs_print.c prints them as text, JSON or HTML.
 */
#ifndef BAREMARK_COMPARE_RUNS_H
#define BAREMARK_COMPARE_RUNS_H

#include <stddef.h>

#include "report_util.h"

enum cr_format { CR_TEXT, CR_JSON, CR_HTML };

struct cr_run {
    const char *path;
    json_t *root;
    double khz;          /* calibrated TSC kHz, NAN when unknown */
};

/* The method a target is compared with unless --method says otherwise. */
#define CR_DEFAULT_TARGET_METHOD "sdm-recommended"

/* One compared item. */
struct cr_item {
    const char *kind;    /* "method", "target", "routine" (a plug-in's), "kernel", "core" (a
                          * CPU's test in the cores section) or "cores" (all CPUs' sum) */
    const char *name;
    char label[96];      /* name shown: the target, with its method when not the usual one */
    const char *method;  /* targets: the method both figures come from */
    const char *unit;
    size_t na, nb;
    double a, b;         /* medians (methods) or mean scores (kernels) */
    double ratio;        /* a / b */
    double welch_p, mw_p;
    const char *verdict; /* "A faster", "A slower", "no difference", "no raw samples" */
};

/* An A/B comparison present in both runs. */
struct cr_pair {
    const char *name;
    json_t *a, *b;       /* the comparison in run A and in run B */
};

/* The table of items and the pairs: text (method: --method NAME or NULL),
 * JSON or HTML, on standard output. */
void cr_text(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const char *method, const struct cr_pair *pairs, size_t np);
void cr_json(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const struct cr_pair *pairs, size_t np);
void cr_html(struct cr_run *A, struct cr_run *B, const struct cr_item *it, size_t n, double noise,
             const struct cr_pair *pairs, size_t np);

#endif
