/*
 * tools/host/fleet/fleet.h - `baremark fleet` inside (tools/host/fleet/cmd_fleet.c says
 * what it does): the machines, the figures and their cells, read by
 * fleet_runs.c (results JSON through the figure tables, bench/results/figures.h;
 * files and folders) and fleet_lava.c (LAVA's recorded results), analysed
 * and written by fleet_out.c.  Host-only.
 */
#ifndef BAREMARK_FLEET_H
#define BAREMARK_FLEET_H

#include <stdio.h>

#include "figures.h"
#include "lava.h"

#define FL_NAME_MAX 128
#define FL_UNIT_MAX 32
#define FL_LINE_MAX 8192

enum fl_format { FL_TEXT, FL_CSV, FL_HTML };
/* Which way is better for a figure, from its unit. */
enum fl_sense { FL_NEUTRAL, FL_LOWER_FASTER, FL_HIGHER_FASTER };

struct fl_machine {
    char name[FL_NAME_MAX];
    char what[FL_NAME_MAX];   /* CPU brand, or "LAVA results" */
    size_t runs;
    size_t interrupted;       /* runs that never ended (bench/results/run_status.h) */
    char cut[64];             /* the last one in words: "interrupted during memory" */
};

/* One machine's runs of one figure. */
struct fl_cell {
    size_t machine;
    double *vals;
    size_t nv, capv;
    double *samples;
    size_t ns, caps;
    double value;             /* median of vals */
    double dev;               /* (value - fleet median) / |fleet median|, NAN when the median is 0 */
    int beyond;
    double mw_p;              /* NAN when not computed */
    size_t rest_n;            /* the other machines' samples it was tested against */
};

struct fl_figure {
    char id[LAVA_ID_MAX + 1];
    char unit[FL_UNIT_MAX];
    char label[160];          /* as a reader knows it (history_series_label), "" when only LAVA's results had it */
    struct fl_cell *cells;
    size_t n, cap;
    double median, mad, lo, hi;
    size_t beyond;
    int sense;                /* enum fl_sense from its figure table's kind; -1: from its unit */
};

struct fleet {
    struct fl_machine *machines;
    size_t nmachines, capmachines;
    struct fl_figure *figs;
    size_t nfigs, capfigs;
    size_t files_read, files_skipped, runs;
    double threshold;         /* fraction */
    int ids;                  /* --ids: each figure's LAVA id beside its name */
};


/* fleet_store.c */
void *fl_grow(void *p, size_t *cap, size_t need, size_t size);
size_t fl_machine_index(struct fleet *F, const char *name);
/* One run's value of a figure, with its name as a reader knows it (NULL:
 * none, LAVA's results have only the id), its raw samples when it has them
 * (samples may be NULL), and which way is better (enum fl_sense; -1: from
 * its unit).  Non-finite values are not figures. */
void fl_add(struct fleet *F, size_t machine, const char *id, const char *label, const char *unit, double value,
            const double *samples, size_t ns, int sense);
void fl_machine_what(struct fleet *F, size_t m, const char *what);
/* Which way is better for a figure of this kind (bench/results/figures.h). */
enum fl_sense fl_kind_sense(enum figure_kind k);

/* fleet_runs.c */
/* A results JSON: every figure its tables' rows give (bench/results/figures.h). */
int fl_read_json(struct fleet *F, const char *path, const char *machine);
/* One file or every results file below a folder (machine: the folder
 * below the top, NULL at the top); 0 read, -1 named on stderr and skipped. */
int fl_read_file(struct fleet *F, const char *path, const char *machine);
void fl_walk(struct fleet *F, const char *dir, const char *machine);
/* The machine a file names (fleet_runs.c says how). */
void fl_stem(const char *path, char *out, size_t cap);

/* fleet_lava.c */
int fl_is_lava_log(const char *first);
int fl_read_lava(struct fleet *F, const char *path, const char *machine);

/* fleet_out.c */
void fl_analyse(struct fleet *F);
void fl_text(FILE *f, const struct fleet *F);
void fl_csv(FILE *f, const struct fleet *F);
void fl_html(FILE *f, const struct fleet *F);

#endif
