/*
 * tools/host/fleet/fleet_runs.c - `baremark fleet`: the results JSON read through
 * the figure tables (every row with a LAVA id is a figure, bench/results/figures.h),
 * and the files and folders it is given, each handed to its reader (LAVA's
 * results: fleet_lava.c); the figures go into the store (fleet_store.c).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "figures_run.h"
#include "history.h"
#include "fleet.h"
#include "report_util.h"
#include "run_status.h"

/* ---- results JSON, through the figure tables ------------------------------------- */

#define FL_SAMPLES_MAX (1u << 20)   /* raw samples of one figure in one run */

struct fl_json_ctx {
    struct fleet *F;
    size_t m;
    struct jval doc;
    double *samples;
};

static void fl_json_figure(void *ctx, const struct figure_value *v)
{
    struct fl_json_ctx *c = ctx;
    if (!v->id[0] || isnan(v->lava_value))
        return;
    size_t n = c->samples ? figures_samples(v, c->samples, FL_SAMPLES_MAX) : 0;
    char label[160];
    history_series_label(v, label, sizeof label);
    fl_add(c->F, c->m, v->id, label, v->unit, v->lava_value, c->samples, n, (int)fl_kind_sense(v->fig->kind));
}

int fl_read_json(struct fleet *F, const char *path, const char *machine)
{
    size_t len = 0;
    char *text = cli_slurp(path, &len), brand[FL_NAME_MAX];
    struct jval doc = jval_doc(text, len);
    if (!text || jval_is_none(doc)) {
        /* jansson says where it broke: FILE:LINE:COL: reason */
        char err[512];
        json_t *j = doc_load(path, err, sizeof err);
        if (j) {
            json_decref(j);
            snprintf(err, sizeof err, "%s: not JSON as bench/results/json_read.c reads it", path);
        }
        fprintf(stderr, "baremark fleet: %s; skipped\n", err);
        free(text);
        return -1;
    }
    if (jval_type(figures_get(doc, &figures_run, FIG_RUN_SCHEMA)) != JVAL_NUMBER) {
        fprintf(stderr, "baremark fleet: %s: not a baremark results file (no \"schema\"); skipped\n", path);
        free(text);
        return -1;
    }
    size_t m = fl_machine_index(F, machine);
    if (jval_str(jval_path(doc, "system.cpu_brand"), brand, sizeof brand) ||
        jval_str(jval_path(doc, "host.cpu_brand"), brand, sizeof brand))
        fl_machine_what(F, m, brand);
    F->machines[m].runs++;
    F->runs++;
    struct rs_state st;
    rs_read_jr(doc, &st);
    if (st.kind == RS_INTERRUPTED) {
        F->machines[m].interrupted++;
        rs_words(&st, F->machines[m].cut, sizeof F->machines[m].cut);
    }
    struct fl_json_ctx c = { F, m, doc, malloc(FL_SAMPLES_MAX * sizeof(double)) };
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        figures_each_row(doc, t, FIG_ROWS_TRACKED, fl_json_figure, &c);
    free(c.samples);
    free(text);
    return 0;
}
/* ---- files and folders ------------------------------------------------------------------ */

/* A run's date-time name (YYYYMMDD-HHMMSS, maybe -N): it names no machine. */
static int fl_run_name(const char *stem)
{
    size_t i;
    for (i = 0; i < 15; i++)
        if (i == 8 ? stem[i] != '-' : (stem[i] < '0' || stem[i] > '9'))
            return 0;
    return stem[15] == 0 || stem[15] == '-';
}

/* The machine of a file given by name or lying directly in a DIR argument:
 * its name without extension, or the folder it is in when the name is only
 * a run's date and time. */
void fl_stem(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, cap, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
    if (!fl_run_name(out))
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        if (!getcwd(dir, sizeof dir))
            return;
    } else
        *slash = 0;
    while ((slash = strrchr(dir, '/')) && !slash[1])
        *slash = 0;          /* "a/b/" */
    slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    size_t k = strlen(name);
    if (!k)
        return;
    if (k >= cap)
        k = cap - 1;
    memcpy(out, name, k);
    out[k] = 0;
}

static int fl_has_ext(const char *name, const char *const *exts)
{
    const char *dot = strrchr(name, '.');
    for (; dot && *exts; exts++)
        if (!strcmp(dot + 1, *exts))
            return 1;
    return 0;
}

int fl_read_file(struct fleet *F, const char *path, const char *machine)
{
    FILE *f = fopen(path, "r");
    char first[512] = "";
    int rc;
    if (!f) {
        fprintf(stderr, "baremark fleet: %s: %s; skipped\n", path, strerror(errno));
        F->files_skipped++;
        return -1;
    }
    if (!fgets(first, sizeof first, f))
        first[0] = 0;
    fclose(f);
    const char *p = first + strspn(first, " \t\r\n");
    if (*p == '{' && !fl_is_lava_log(first))
        rc = fl_read_json(F, path, machine);
    else
        rc = fl_read_lava(F, path, machine);
    if (rc)
        F->files_skipped++;
    else
        F->files_read++;
    return rc;
}

static int fl_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every results file below dir (sorted, so the order is the same each time);
 * machine is the first folder below the top, or NULL at the top. */
/* A .log in a folder is read when it is lava-run's; the text log a run
 * writes next to its JSON (NAME.log) is not a results file. */
static int fl_lava_log_file(const char *path)
{
    char first[512] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;                /* named and skipped by fl_read_file */
    if (!fgets(first, sizeof first, f))
        first[0] = 0;
    fclose(f);
    return fl_is_lava_log(first);
}

void fl_walk(struct fleet *F, const char *dir, const char *machine)
{
    static const char *const exts[] = { "json", "yaml", "yml", "csv", NULL };
    static const char *const logs[] = { "log", NULL };
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (!d) {
        fprintf(stderr, "baremark fleet: %s: %s; skipped\n", dir, strerror(errno));
        F->files_skipped++;
        return;
    }
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        names = fl_grow(names, &cap, n + 1, sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, fl_cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[4096], stem[FL_NAME_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            fl_walk(F, path, machine ? machine : names[i]);
        else if (fl_has_ext(names[i], exts) || (fl_has_ext(names[i], logs) && fl_lava_log_file(path))) {
            fl_stem(path, stem, sizeof stem);    /* a date-named run directly in DIR: DIR names it */
            fl_read_file(F, path, machine ? machine : stem);
        }
        free(names[i]);
    }
    free(names);
}

