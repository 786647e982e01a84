/*
 * tools/host/stats/cmd_stats.c - `stats` and `compare`: stats/ for anyone's
 * timing data, one number a line.
 *
 *   baremark stats [--json] [FILE]          summary, outliers, histogram
 *   baremark compare [--json] [--noise F] A B   two-sample comparison
 * (`bench-stats`, the cost of a summary of 10^5 samples: cmd_bench_stats.c)
 *
 * Input: one number a line; blank lines and '#' comments are skipped.  If
 * every number is a non-negative integer below 2^64 the data are analysed
 * as exact uint64 ticks, otherwise as doubles.  A line that is not a number
 * is an error naming the file and line (exit 2): never a wrong answer.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "figures_text.h"
#include "json.h"
#include "commands.h"
#include "stats/stats.h"
#include "stats_sample.h"

/* Display choices: histogram bins (capped by n), strip rows, console width. */
#define CLI_HIST_BINS   20
#define CLI_STRIP_ROWS  12
#define CLI_COLS        80
#define CLI_RENDER_CAP  16384
/* Default relative noise threshold for compare's verdict: 1%. */
#define CLI_DEFAULT_NOISE 0.01

/* ---- analysis --------------------------------------------------------------- */

struct analysis {
    struct sample *x;
    struct stats_summary s;
    uint64_t *su;       /* sorted copies (the summary's scratch) */
    double *sd;
};

static int analyse(struct sample *x, struct analysis *a)
{
    memset(a, 0, sizeof *a);
    a->x = x;
    size_t n = x->n ? x->n : 1;
    if (x->all_int) {
        a->su = malloc(n * sizeof *a->su);
        return a->su ? stats_summary_u64(x->u, x->n, a->su, NULL, &a->s) : -1;
    }
    a->sd = malloc(n * sizeof *a->sd);
    return a->sd ? stats_summary_double(x->d, x->n, a->sd, NULL, &a->s) : -1;
}

static void analysis_free(struct analysis *a)
{
    free(a->su);
    free(a->sd);
}

/* ---- text output ----------------------------------------------------------- */

static void line_d(const char *label, double v)
{
    printf("  %-22s %.10g\n", label, v);
}

static void print_exact(const char *label, uint64_t v, int half)
{
    printf("  %-22s %llu%s\n", label, (unsigned long long)v, half ? ".5" : "");
}

/* base + offset printed with every digit an exact integer base deserves
 * (a double alone has 2048-tick steps near 2^63). */
static void print_u64_plus(const char *label, uint64_t base, double offset)
{
    double ip = floor(offset);
    if (!(offset >= 0) || ip >= 18446744073709551616.0 - (double)base) {
        line_d(label, (double)base + offset);
        return;
    }
    char frac[32];
    /* beyond 2^40 a double offset has no fraction digits worth showing */
    snprintf(frac, sizeof frac, "%.*f", offset < 1099511627776.0 ? 4 : 0, offset - ip);
    uint64_t whole = base + (uint64_t)ip;
    if (frac[0] == '1')     /* the fraction rounded up to a whole unit */
        whole++;
    printf("  %-22s %llu%s\n", label, (unsigned long long)whole, frac + 1);
}

static void print_moments(const struct stats_summary *s)
{
    if (s->is_u64) {
        print_exact("min", s->min_u64, 0);
        print_exact("max", s->max_u64, 0);
        print_exact("median", s->median_u64, s->median_half);
    } else {
        line_d("min", s->min);
        line_d("max", s->max);
        line_d("median", s->median);
    }
    if (s->is_u64)
        print_u64_plus("mean", s->min_u64, s->mean_above_min);
    else
        line_d("mean", s->mean);
    line_d("variance (population)", s->var_pop);
    line_d("variance (sample)", s->var_sample);
    line_d("sd (population)", s->sd_pop);
    line_d("sd (sample)", s->sd_sample);
    line_d("cv (sample sd / mean)", s->cv);
    line_d("p1", s->p1);
    line_d("p5", s->p5);
    line_d("q1 (p25)", s->q1);
    line_d("q3 (p75)", s->q3);
    line_d("p95", s->p95);
    line_d("p99", s->p99);
    line_d("iqr", s->iqr);
    line_d("mad (unscaled)", s->mad);
    line_d("trimmed mean 20-80%", s->trimmed_mean);
}

static void print_mode_outliers(const struct stats_summary *s)
{
    const struct stats_mode *m = &s->mode;
    printf("mode (Karsh, %zu bins a pass, one per sample; then the exact count):\n", s->n);
    line_d("mode", m->value);
    printf("  %-22s %zu of %zu (%.1f%%)\n", "samples in mode", m->count, s->n,
           s->n ? 100.0 * (double)m->count / (double)s->n : 0.0);
    printf("  %-22s %d, %s\n", "passes", m->passes,
           m->pure ? "pure" : "NOT pure (every value distinct, pass limit hit)");
    printf("  %-22s %.10g .. %.10g (sd %.4g)\n", "mode range", m->lo, m->hi, m->sd);
    const struct stats_outliers *o = &s->outliers;
    printf("outliers (classified, none removed):\n");
    printf("  %-22s [%.10g, %.10g]\n", "Tukey inner fences", o->inner_lo, o->inner_hi);
    printf("  %-22s [%.10g, %.10g]\n", "Tukey outer fences", o->outer_lo, o->outer_hi);
    printf("  %-22s %zu low, %zu high\n", "mild (1.5-3 IQR)", o->mild_low, o->mild_high);
    printf("  %-22s %zu low, %zu high\n", "extreme (> 3 IQR)", o->extreme_low, o->extreme_high);
    if (o->modz_valid)
        printf("  %-22s %zu low, %zu high\n", "modified Z > 3.5", o->modz_low, o->modz_high);
    else
        printf("  %-22s undefined (MAD is 0)\n", "modified Z > 3.5");
}

static void print_bytemark(const struct stats_summary *s)
{
    struct stats_bytemark b;
    static const char *const state[] = { "more runs needed", "done",
                                         "NOT 95% statistically certain" };
    stats_bytemark_rule(s->n, s->mean, s->sd_sample, &b);
    printf("BYTEmark rule (5..30 runs, 95%% half-interval within 5%% of the mean):\n");
    printf("  t = %.4f, half-interval %.6g (%.3f%% of the mean): %s\n", b.t, b.half,
           100.0 * b.rel_half, state[b.state]);
}

static void print_pictures(const struct analysis *a)
{
    const struct stats_summary *s = &a->s;
    size_t nbins = s->n < CLI_HIST_BINS ? s->n : CLI_HIST_BINS;
    size_t counts[CLI_HIST_BINS];
    char *buf = malloc(CLI_RENDER_CAP);
    if (!buf || nbins == 0) {
        free(buf);
        return;
    }
    if (s->is_u64)
        stats_histogram_u64(a->x->u, s->n, s->min_u64, s->max_u64, counts, nbins);
    else
        stats_histogram_double(a->x->d, s->n, s->min, s->max, counts, nbins);
    stats_render_histogram(buf, CLI_RENDER_CAP, counts, nbins, s->min, s->max, CLI_COLS);
    printf("histogram (%zu bins):\n%s", nbins, buf);
    if (s->is_u64)
        stats_render_strip_u64(buf, CLI_RENDER_CAP, a->x->u, s->n, CLI_STRIP_ROWS, CLI_COLS);
    else
        stats_render_strip_double(buf, CLI_RENDER_CAP, a->x->d, s->n, CLI_STRIP_ROWS, CLI_COLS);
    printf("raw samples in collection order:\n%s", buf);
    free(buf);
}

/* ---- JSON output ------------------------------------------------------------ */

static void json_summary(struct json_writer *w, const char *key, const struct stats_summary *s)
{
    json_obj_begin(w, key);
    json_u64(w, "n", s->n);
    json_str(w, "type", s->is_u64 ? "uint64" : "double");
    if (s->is_u64 && s->n) {
        json_u64(w, "min", s->min_u64);
        json_u64(w, "max", s->max_u64);
        json_double(w, "median", s->median);
        json_u64(w, "median_floor", s->median_u64);
        json_bool(w, "median_half", s->median_half);
    } else {
        json_double(w, "min", s->min);
        json_double(w, "max", s->max);
        json_double(w, "median", s->median);
    }
    struct { const char *k; double v; } f[] = {
        { "mean", s->mean }, { "mean_above_min", s->mean_above_min },
        { "var_pop", s->var_pop }, { "var_sample", s->var_sample },
        { "sd_pop", s->sd_pop }, { "sd_sample", s->sd_sample }, { "cv", s->cv },
        { "p1", s->p1 }, { "p5", s->p5 }, { "q1", s->q1 }, { "q3", s->q3 },
        { "p95", s->p95 }, { "p99", s->p99 }, { "iqr", s->iqr }, { "mad", s->mad },
        { "trimmed_mean_20_80", s->trimmed_mean } };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        json_double(w, f[i].k, f[i].v);
    json_obj_begin(w, "mode");
    json_double(w, "value", s->mode.value);
    json_u64(w, "count", s->mode.count);
    json_i64(w, "passes", s->mode.passes);
    json_bool(w, "pure", s->mode.pure);
    json_double(w, "lo", s->mode.lo);
    json_double(w, "hi", s->mode.hi);
    json_double(w, "sd", s->mode.sd);
    json_obj_end(w);
    const struct stats_outliers *o = &s->outliers;
    json_obj_begin(w, "outliers");
    json_double(w, "inner_lo", o->inner_lo);
    json_double(w, "inner_hi", o->inner_hi);
    json_double(w, "outer_lo", o->outer_lo);
    json_double(w, "outer_hi", o->outer_hi);
    json_u64(w, "mild_low", o->mild_low);
    json_u64(w, "mild_high", o->mild_high);
    json_u64(w, "extreme_low", o->extreme_low);
    json_u64(w, "extreme_high", o->extreme_high);
    json_bool(w, "modz_valid", o->modz_valid);
    json_u64(w, "modz_low", o->modz_low);
    json_u64(w, "modz_high", o->modz_high);
    json_obj_end(w);
    struct stats_bytemark b;
    stats_bytemark_rule(s->n, s->mean, s->sd_sample, &b);
    json_obj_begin(w, "bytemark_rule");
    json_double(w, "t95", b.t);
    json_double(w, "half_interval", b.half);
    json_double(w, "rel_half_interval", b.rel_half);
    json_str(w, "state", b.state == STATS_BM_DONE ? "done"
                         : b.state == STATS_BM_UNCERTAIN ? "uncertain" : "more");
    json_obj_end(w);
    json_obj_end(w);
}

static void json_histogram(struct json_writer *w, const struct analysis *a)
{
    const struct stats_summary *s = &a->s;
    size_t nbins = s->n < CLI_HIST_BINS ? s->n : CLI_HIST_BINS;
    size_t counts[CLI_HIST_BINS];
    if (nbins == 0)
        return;
    if (s->is_u64)
        stats_histogram_u64(a->x->u, s->n, s->min_u64, s->max_u64, counts, nbins);
    else
        stats_histogram_double(a->x->d, s->n, s->min, s->max, counts, nbins);
    json_obj_begin(w, "histogram");
    json_double(w, "lo", s->min);
    json_double(w, "hi", s->max);
    json_arr_begin(w, "counts");
    for (size_t k = 0; k < nbins; k++)
        json_u64(w, NULL, counts[k]);
    json_arr_end(w);
    json_obj_end(w);
}

static int json_emit(struct json_writer *w)
{
    int ok = !w->failed && w->buf;
    if (ok)
        printf("%s\n", w->buf);
    json_free(w);
    if (!ok)
        fprintf(stderr, "baremark: out of memory writing JSON\n");
    return ok ? 0 : 1;
}

/* ---- commands --------------------------------------------------------------- */

static int stats_two(int argc, char **argv, const char *notice);

enum { ST_JSON = 1, ST_NOISE };
static const struct cli_opt st_opts[] = {
    { ST_JSON, "--json", NULL, "the summary as JSON" },
    { ST_NOISE, "--noise", "F", "A B: a difference below this fraction is \"same\" (default 0.01)" },
    { 0 },
};
const struct cli_cmd cli_cmd_stats = {
    "stats", "[--json] [FILE]\n[--json] [--noise F] A B",
    "summary and histogram of one number a line (standard input without FILE or with -); "
    "two samples against each other (Welch, Mann-Whitney)", st_opts,
    "exit status: 0 done, 2 usage or a file that cannot be read or holds no numbers\n",
};

int cmd_stats(int argc, char **argv)
{
    int json = 0, files = 0, noise = 0;
    const char *path = NULL;
    struct cli_iter it = { &cli_cmd_stats, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == CLI_ERR)
            return 2;
        if (id == CLI_ARG && !files++)
            path = it.val;
        json |= id == ST_JSON;
        noise |= id == ST_NOISE;
    }
    if (files == 2)     /* two files: one against the other */
        return stats_two(argc, argv, NULL);
    if (files > 2)
        return cli_usage_error(&cli_cmd_stats, "give one FILE, or two: A B");
    if (noise)
        return cli_usage_error(&cli_cmd_stats, "--noise is for two samples: A B");
    struct sample x;
    struct analysis a;
    int rc = read_sample(path, &x);
    if (rc == 0 && analyse(&x, &a) < 0) {
        fprintf(stderr, "baremark: out of memory\n");
        rc = 1;
        analysis_free(&a);
    } else if (rc == 0) {
        if (json) {
            struct json_writer w;
            json_init(&w);
            json_obj_begin(&w, NULL);
            json_str(&w, "file", x.name);
            json_summary(&w, "summary", &a.s);
            json_histogram(&w, &a);
            json_obj_end(&w);
            rc = json_emit(&w);
        } else {
            printf("stats of %s: n = %zu (%s)\n", x.name, a.s.n,
                   a.s.is_u64 ? "exact unsigned integers" : "doubles");
            if (a.s.n > 0) {
                print_moments(&a.s);
                print_mode_outliers(&a.s);
                print_bytemark(&a.s);
                print_pictures(&a);
            }
        }
        analysis_free(&a);
    }
    sample_free(&x);
    return rc;
}

/* Both samples as the same type: uint64 only when both are all integers. */
static void make_doubles(struct sample *x)
{
    x->all_int = 0;
}

static void compare_text(const struct analysis *a, const struct analysis *b,
                         const struct stats_compare *c)
{
    printf("compare A = %s (n %zu) against B = %s (n %zu); smaller is faster\n",
           a->x->name, a->s.n, b->x->name, b->s.n);
    printf("  %-10s %18s %18s %16s %10s\n", "", "A", "B", "A - B", "(A-B)/B");
    printf("  %-10s %18.10g %18.10g %16.8g %9.3f%%\n", "mean", a->s.mean, b->s.mean,
           c->diff_mean, 100 * c->rel_mean);
    printf("  %-10s %18.10g %18.10g %16.8g %9.3f%%\n", "median", a->s.median, b->s.median,
           c->diff_median, 100 * c->rel_median);
    printf("  %-10s %18.10g %18.10g %16.8g %9.3f%%\n", "mode", a->s.mode.value,
           b->s.mode.value, c->diff_mode, 100 * c->rel_mode);
    printf("  %-10s %18.10g %18.10g\n", "sd", a->s.sd_sample, b->s.sd_sample);
    printf("  Karsh Z        %.4f  (two-sided p %.6g; for reference, does not decide)\n", c->karsh_z, c->karsh_p);
    printf("  Welch t        %.4f  df %.2f  p %.6g (for reference, does not decide)\n", c->welch_t, c->welch_df, c->welch_p);
    printf("  Mann-Whitney   U %.1f  z %.4f  p %.6g (normal approximation, ties and "
           "continuity corrected)\n", c->mw_u, c->mw_z, c->mw_p);
    char pt[32];
    figures_format_p(c->mw_p, pt, sizeof pt);
    printf("  verdict at 95%% (Mann-Whitney %s decides; noise threshold %.3g%%): A is %s\n", pt, 100 * c->noise,
           c->verdict == STATS_NO_DIFFERENCE ? "no different from B"
           : c->verdict == STATS_FASTER ? "faster than B" : "slower than B");
    if (c->verdict == STATS_NO_DIFFERENCE && c->mw_p < STATS_ALPHA)
        printf("  (Mann-Whitney's p is below %.2f, but the medians differ by %.3g%%, "
               "within the noise threshold, or disagree in direction with the ranks)\n", STATS_ALPHA,
               100 * fabs(c->rel_median));
}

static void compare_json(const struct analysis *a, const struct analysis *b,
                         const struct stats_compare *c, struct json_writer *w)
{
    json_obj_begin(w, NULL);
    json_str(w, "a_file", a->x->name);
    json_str(w, "b_file", b->x->name);
    json_summary(w, "a", &a->s);
    json_summary(w, "b", &b->s);
    json_obj_begin(w, "compare");
    struct { const char *k; double v; } f[] = {
        { "diff_mean", c->diff_mean }, { "rel_mean", c->rel_mean },
        { "diff_median", c->diff_median }, { "rel_median", c->rel_median },
        { "diff_mode", c->diff_mode }, { "rel_mode", c->rel_mode },
        { "karsh_z", c->karsh_z }, { "karsh_p", c->karsh_p },
        { "welch_t", c->welch_t }, { "welch_df", c->welch_df }, { "welch_p", c->welch_p },
        { "mw_u", c->mw_u }, { "mw_z", c->mw_z }, { "mw_p", c->mw_p },
        { "noise", c->noise } };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        json_double(w, f[i].k, f[i].v);
    json_str(w, "verdict", stats_verdict_name(c->verdict));
    json_obj_end(w);
    json_obj_end(w);
}

/* `stats A B`: two samples against each other (Z, Welch, Mann-Whitney). */
static int stats_two(int argc, char **argv, const char *notice)
{
    int json = 0;
    double noise = CLI_DEFAULT_NOISE;
    const char *path[2] = { NULL, NULL };
    int np = 0;
    struct cli_iter it = { &cli_cmd_stats, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        char *end;
        if (id == ST_JSON) {
            json = 1;
        } else if (id == ST_NOISE) {
            noise = strtod(it.val, &end);
            if (*end || !(noise >= 0)) {
                fprintf(stderr, "baremark stats: --noise %s: want a fraction such as 0.01\n", it.val);
                return 2;
            }
        } else if (id == CLI_ARG && np < 2) {
            path[np++] = it.val;
        } else if (id == CLI_ARG) {
            np = 3;
        } else
            return 2;
    }
    if (np != 2)
        return cli_usage_error(&cli_cmd_stats, "give two sample files: A B");
    if (notice)
        fputs(notice, stderr);
    struct sample x[2];
    int rc = read_sample(path[0], &x[0]);
    if (rc == 0)
        rc = read_sample(path[1], &x[1]);
    else
        memset(&x[1], 0, sizeof x[1]);
    if (rc == 0 && (x[0].n == 0 || x[1].n == 0)) {
        fprintf(stderr, "baremark: compare needs at least one number in each file\n");
        rc = 2;
    }
    if (rc == 0) {
        if (!(x[0].all_int && x[1].all_int)) {
            make_doubles(&x[0]);
            make_doubles(&x[1]);
        }
        struct analysis a, b;
        struct stats_compare c;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        if (analyse(&x[0], &a) < 0 || analyse(&x[1], &b) < 0) {
            fprintf(stderr, "baremark: out of memory\n");
            rc = 1;
        } else {
            if (a.s.is_u64)
                stats_compare_sorted_u64(a.su, &a.s, b.su, &b.s, noise, &c);
            else
                stats_compare_sorted_double(a.sd, &a.s, b.sd, &b.s, noise, &c);
            if (json) {
                struct json_writer w;
                json_init(&w);
                compare_json(&a, &b, &c, &w);
                rc = json_emit(&w);
            } else {
                compare_text(&a, &b, &c);
            }
        }
        analysis_free(&a);
        analysis_free(&b);
    }
    sample_free(&x[0]);
    sample_free(&x[1]);
    return rc;
}

/* `compare` is the A/B of two routines (README "The tools": one meaning of
 * each verb); two sample files are `stats A B`, still accepted here. */
int cmd_compare(int argc, char **argv)
{
    /* Which form, by whether --plugin (a row of compare's table) is given;
     * each form then parses with its own table. */
    int plugin = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        plugin |= !strncmp(argv[i], "--plugin", 8) && (!argv[i][8] || argv[i][8] == '=');
    if (plugin)
        return cmd_compare_plugin(argc, argv);
    return stats_two(argc, argv, "baremark compare: two sample files are compared with 'baremark stats A B' now "
                                 "('compare' is the A/B of two routines: compare --plugin F.so A B)\n");
}
