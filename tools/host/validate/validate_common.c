/*
 * tools/host/validate/validate_common.c - what every section's validator shares
 * (validate.h): the messages, the tolerances of figures the file states
 * twice, a sample array's min, max and mean, and the quiet-machine checks
 * that several sections carry.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "report_util.h"
#include "validate.h"

const char *rv_type_text(enum figure_field_type t)
{
    static const char *const names[] = {
        [FIELD_NONE] = "a number or null",
        [FIELD_STR] = "a string", [FIELD_UINT] = "a non-negative integer", [FIELD_INT] = "an integer",
        [FIELD_NUM] = "a number", [FIELD_NUM_OR_NULL] = "a number or null", [FIELD_BOOL] = "a boolean",
        [FIELD_OBJ] = "an object", [FIELD_OBJ_OR_NULL] = "an object or null", [FIELD_ARR] = "an array",
        [FIELD_NUMS] = "an array of numbers", [FIELD_STRS] = "an array of strings",
    };
    return names[t];
}

FILE *rv_out;

const char *rv_name(char *buf, size_t n, json_t *el, const char *key)
{
    return term_text(buf, n, doc_str(el, key, "?"), RV_NAME_MAX);
}

void rv_say(const char *file, const char *where, const char *msg, int *problems, int quiet)
{
    FILE *f = rv_out ? rv_out : stdout;
    if (!quiet) {
        term_put(f, file, 200);
        fputs(": ", f);
        term_put(f, where[0] ? where : "(top level)", 200);
        fputs(": ", f);
        term_put(f, msg, 600);
        fputc('\n', f);
    }
    (*problems)++;
}

void rv_need_num(json_t *obj, const char *key, const char *why, const char *at, const char *file, int *problems,
                 int quiet)
{
    char msg[300];
    json_t *v = json_object_get(obj, key);
    if (json_is_number(v))
        return;
    snprintf(msg, sizeof msg, "%s is %s: a number is required %s", key, v ? "null or not a number" : "missing", why);
    rv_say(file, at, msg, problems, quiet);
}

/* CPUID's 12-byte strings (vendor, hypervisor) as every documented CPU and
 * hypervisor writes them: letters, digits and spaces. */
void rv_cpuid_text(json_t *obj, const char *key, const char *where, const char *file, int *problems, int quiet)
{
    json_t *v = json_object_get(obj, key);
    char msg[400], shown[200], at[200];
    if (!json_is_string(v))
        return;
    const char *s = json_string_value(v);
    size_t n = strlen(s), bad = n > 12;
    for (size_t i = 0; i < n && !bad; i++)
        bad = !((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')
                || s[i] == ' ');
    if (!bad)
        return;
    snprintf(at, sizeof at, "%s.%s", where, key);
    snprintf(msg, sizeof msg, "\"%s\" is not a CPUID vendor string (at most 12 letters, digits and spaces, "
             "as the image writes it)", term_text(shown, sizeof shown, s, 40));
    rv_say(file, at, msg, problems, quiet);
}

/* Relative agreement of two figures the file states separately. */
#define RV_REL_TOL 1e-6

int rv_close(double a, double b)
{
    return fabs(a - b) <= RV_REL_TOL * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* Two copies of one figure the writer printed twice (exact to the printed
 * digits). */
int rv_same(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* A ppm figure as written (clockm_round_ppm: 0.001 below 1000, 0.1 above)
 * against the one recomputed from the kHz. */
int rv_ppm_close(double written, double exact)
{
    return fabs(written - exact) <= (fabs(exact) < 1000 ? 0.0006 : 0.06);
}

/* A section's quiet_phases (bench/system/quiet.c): the counts nest, a note says
 * why when a phase's timer was not stopped, and there is one phase per unit
 * of work the section did (`want`; negative: not checked). */
void rv_quiet_phases(json_t *sec, const char *where, long want, const char *file, int *problems, int quiet)
{
    json_t *q = json_object_get(sec, "quiet_phases");
    char at[160], msg[200];
    if (!q)
        return;
    snprintf(at, sizeof at, "%s.quiet_phases", where);
    double n = doc_num(q, "phases", NAN), st = doc_num(q, "timer_stopped_phases", NAN);
    if (st > n)
        rv_say(file, at, "timer_stopped_phases is more than phases", problems, quiet);
    if (st < n && !json_object_get(q, "timer_note"))
        rv_say(file, at, "some phases kept the firmware timer running but timer_note does not say why",
               problems, quiet);
    if (st > 0 && doc_num(q, "timer_period_100ns", 0) <= 0)
        rv_say(file, at, "the timer was stopped but no period was restored", problems, quiet);
    if (want >= 0 && !isnan(n) && n != (double)want) {
        snprintf(msg, sizeof msg, "phases is %.0f, the section has %ld units of measured work", n, want);
        rv_say(file, at, msg, problems, quiet);
    }
}

/* The quiet-machine counts nest (over 1 ms <= over 100 us <= ... <= reads)
 * and the rate is the count over the elapsed time. */
void rv_quiet_counts(json_t *base, json_t *q, const struct rv_quiet_rows *rows, const char *where, const char *file,
                     int *problems, int quiet)
{
    static const char *const order[] = { "gaps_over_1ms", "gaps_over_100us", "gaps_over_10us",
                                         "gaps_over_1us", "reads" };
    char msg[256];
    json_t *tick = doc_get(base, rows->t->tick_hz);     /* the rate where the table says its ticks are counted */
    double prev = -1, hz = json_is_number(tick) ? json_number_value(tick) : NAN, el = doc_num(q, "elapsed_ticks", NAN);
    double n1 = rv_fig_num(base, rows->t, rows->gaps_over_1us, NAN), rate = doc_num(q, "gaps_per_second", NAN);

    if (!json_is_object(q))
        return;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        double v = doc_num(q, order[i], NAN);
        if (isnan(v))
            continue;
        if (prev > v) {
            snprintf(msg, sizeof msg, "%s (%g) is less than a count it contains (%g)", order[i], v, prev);
            rv_say(file, where, msg, problems, quiet);
        }
        prev = v;
    }
    if (rv_fig_num(base, rows->t, rows->max_gap_ticks, 0) < doc_num(q, "min_gap_ticks", 0))
        rv_say(file, where, "max_gap_ticks is below min_gap_ticks", problems, quiet);
    if (hz > 0 && el > 0 && !isnan(n1) && !isnan(rate) && !rv_close(rate, n1 / (el / hz))) {
        snprintf(msg, sizeof msg, "gaps_per_second %.10g is not gaps_over_1us / (elapsed_ticks / tick_hz) = %.10g",
                 rate, n1 / (el / hz));
        rv_say(file, where, msg, problems, quiet);
    }
}

double rv_fig_num(json_t *base, const struct figure_table *t, unsigned id, double dflt)
{
    json_t *v = doc_fig(base, t, id);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* min, max and mean of an array of numbers; n = 0 when not an array. */
size_t rv_arr_stats(json_t *arr, double *mn, double *mx, double *mean)
{
    size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
    double sum = 0;
    *mn = INFINITY;
    *mx = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double v = json_number_value(json_array_get(arr, k));
        sum += v;
        *mn = fmin(*mn, v);
        *mx = fmax(*mx, v);
    }
    *mean = n ? sum / (double)n : NAN;
    return n;
}

void rv_expect_close(double got, double want, const char *what, const char *at, const char *file,
                            int *problems, int quiet)
{
    char msg[256];
    /* A missing or null figure is reported by the caller (rv_need_num) or
     * by its field's type, not here. */
    if (isnan(got) || isnan(want) || rv_close(got, want))
        return;
    snprintf(msg, sizeof msg, "%s is %.10g, the samples give %.10g", what, got, want);
    rv_say(file, at, msg, problems, quiet);
}
