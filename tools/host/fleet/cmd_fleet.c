/*
 * tools/host/fleet/cmd_fleet.c - `baremark fleet [--csv|--html] [--threshold PCT]
 * [--ids] [-o FILE] DIR|FILE...`: many machines' runs read together, one
 * table per figure.
 *
 * A figure is what a LAVA lab tracks: one test-case id of bench/results/lava.h
 * (clock_hpet_khz, method_rdtsc_overhead_ns, bytemark_numsort, ...), named
 * in the tables as a reader knows it ("hpet, kHz", "rdtsc, overhead, ns":
 * history_series_label, from the id's template and the run's values; the
 * id beside it with --ids; the CSV has both).  The runs come as
 *   - results JSON (docs/results-schema.md), from sticks, tools/baremark-results
 *     or the hosted program: the figures are computed from the sections with
 *     the same ids the image prints on serial, and the raw samples are kept
 *     where the file has them (method overheads, measurements' net time per
 *     iteration, BYTEmark runs);
 *   - LAVA's recorded results: lava-run's log stream (records with
 *     `lvl: results`), or a LAVA server's results exported as CSV or YAML
 *     (a list with name, result, measurement, unit): values only.
 *
 * In a DIR, *.json, *.yaml, *.yml and *.csv are read, and a *.log that is
 * lava-run's (a run's own text log beside its JSON is not a results file).
 * A run's machine is the folder it sits in below a DIR argument
 * (DIR/MACHINE/...); a file directly in DIR, or given by name, is a machine
 * of its own, named after the file without its extension, unless that name
 * is only a run's date and time (YYYYMMDD-HHMMSS.json, as on a stick): then
 * the folder holding it names the machine.  Per figure and
 * machine: the median of that machine's runs; per figure: the fleet median
 * (of the machines' values), the spread (median absolute deviation, and
 * the range), and the machines more than the threshold (5% unless
 * --threshold) away from the fleet median, each with Mann-Whitney's
 * two-sided p of its raw samples against all the other machines' raw
 * samples where both have some (stats/).
 *
 * A file that cannot be read or is not a run is named on standard error
 * and skipped; the others are still read (exit status 2 then, 0 otherwise).
 *
 * Which figures there are, and which way each is better, is the figure
 * tables' (bench/results/figures.h): a results JSON gives every row with a LAVA
 * id, LAVA's results are matched to the rows by id.  The parts:
 * fleet_runs.c (files, folders, JSON), fleet_lava.c (LAVA's formats),
 * fleet_out.c (the analysis and the three forms).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "fleet.h"

#define FL_DEFAULT_THRESHOLD 5.0   /* percent of the fleet median */

/* ---- the command ---------------------------------------------------------------------- */

enum { FL_OPT_CSV = 1, FL_OPT_HTML, FL_OPT_TEXT, FL_OPT_THRESHOLD, FL_OPT_OUT, FL_OPT_IDS };
static const struct cli_opt fl_opts[] = {
    { FL_OPT_TEXT, "--text", NULL, "one table per figure as text (the default)" },
    { FL_OPT_CSV, "--csv", NULL, "every machine's value of every figure as CSV" },
    { FL_OPT_HTML, "--html", NULL, "an HTML page" },
    { FL_OPT_THRESHOLD, "--threshold", "PCT", "a machine this far from the fleet's median is an outlier (default 5)" },
    { FL_OPT_OUT, "-o", "FILE", "write FILE instead of standard output" },
    { FL_OPT_IDS, "--ids", NULL, "text, html: each figure's LAVA id beside its name (the CSV has both)" },
    { 0 },
};
const struct cli_cmd cli_cmd_fleet = {
    "fleet", "[--csv|--html] [--threshold PCT] [--ids] [-o FILE] DIR|FILE...",
    "many machines' runs, one table per figure", fl_opts,
    "exit status: 0 done, 1 writing FILE failed, 2 usage, an -o FILE that cannot be made, or a file named and skipped\n",
};

int cmd_fleet(int argc, char **argv)
{
    struct fleet F = { .threshold = FL_DEFAULT_THRESHOLD / 100 };
    enum fl_format fmt = FL_TEXT;
    const char *out = NULL;
    int ninputs = 0;
    char **inputs = malloc((size_t)argc * sizeof *inputs), what[300];
    struct cli_iter it = { &cli_cmd_fleet, argc, argv, 1, NULL, NULL, 0 };

    if (!inputs)
        return 1;
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == FL_OPT_CSV)
            fmt = FL_CSV;
        else if (id == FL_OPT_HTML)
            fmt = FL_HTML;
        else if (id == FL_OPT_TEXT)
            fmt = FL_TEXT;
        else if (id == FL_OPT_THRESHOLD) {
            char *end;
            double t = strtod(it.val, &end);
            if (*end || !(t > 0) || t >= 1000) {
                snprintf(what, sizeof what, "--threshold %s: want a percentage above 0, e.g. 5", it.val);
                free(inputs);
                return cli_usage_error(&cli_cmd_fleet, what);
            }
            F.threshold = t / 100;
        } else if (id == FL_OPT_OUT)
            out = it.val;
        else if (id == FL_OPT_IDS)
            F.ids = 1;
        else if (id == CLI_ARG)
            inputs[ninputs++] = (char *)it.val;
        else {
            free(inputs);
            return 2;
        }
    }
    if (!ninputs) {
        free(inputs);
        return cli_usage_error(&cli_cmd_fleet, "name a folder or results files");
    }
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        char stem[FL_NAME_MAX];
        if (stat(inputs[i], &st) != 0) {
            fprintf(stderr, "baremark fleet: %s: %s; skipped\n", inputs[i], strerror(errno));
            F.files_skipped++;
        } else if (S_ISDIR(st.st_mode))
            fl_walk(&F, inputs[i], NULL);
        else {
            fl_stem(inputs[i], stem, sizeof stem);
            fl_read_file(&F, inputs[i], stem);
        }
    }
    free(inputs);
    if (!F.runs) {
        fprintf(stderr, "baremark fleet: no runs were read\n");
        return 2;
    }
    fl_analyse(&F);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "baremark fleet: -o %s: %s\n", out, strerror(errno));
        return 2;
    }
    if (fmt == FL_CSV)
        fl_csv(f, &F);
    else if (fmt == FL_HTML)
        fl_html(f, &F);
    else
        fl_text(f, &F);
    if (out && fclose(f) != 0) {
        fprintf(stderr, "baremark fleet: -o %s: could not write\n", out);
        return 1;
    }
    if (F.files_skipped)
        fprintf(stderr, "baremark fleet: %zu file%s skipped (named above)\n", F.files_skipped,
                F.files_skipped == 1 ? "" : "s");
    for (size_t k = 0; k < F.nfigs; k++) {
        for (size_t i = 0; i < F.figs[k].n; i++) {
            free(F.figs[k].cells[i].vals);
            free(F.figs[k].cells[i].samples);
        }
        free(F.figs[k].cells);
    }
    free(F.figs);
    free(F.machines);
    return F.files_skipped ? 2 : 0;
}

