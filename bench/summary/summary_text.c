/*
 * bench/summary/summary_text.c - the run's summary in words (see summary.h): one
 * row per question, every number with its unit, at most SUMMARY_ROWS_MAX
 * rows (targets beyond that are counted, not listed), and the block
 * between its two marker lines.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "figures_text.h"
#include "summary.h"
#include "summary_internal.h"

#define SUMMARY_LABEL_W 10          /* "verdict   " */
#define SUMMARY_RULE    20          /* '=' each side of the title */

const char *summary_verdict_name(enum summary_verdict v)
{
    static const char *const names[] = { "completed", "completed with warnings", "failed", "interrupted" };
    return (unsigned)v < 4 ? names[v] : "?";
}

static const char *num(char *buf, size_t cap, double v)
{
    figures_format(v, buf, cap);
    return buf;
}

static void row(struct summary *s, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void row(struct summary *s, const char *label, const char *fmt, ...)
{
    va_list ap;
    if (s->n_rows >= SUMMARY_ROWS_MAX)
        return;
    struct summary_row *r = &s->rows[s->n_rows++];
    snprintf(r->label, sizeof r->label, "%s", label);
    va_start(ap, fmt);
    vsnprintf(r->text, sizeof r->text, fmt, ap);
    va_end(ap);
}

static const char *p_text(char *buf, size_t cap, double p)
{
    figures_format_p(p, buf, cap);
    return buf;
}

void summary_ab_within(const struct summary_ab *ab, char *buf, size_t cap)
{
    snprintf(buf, cap, "within the %g%% noise (medians %.2f%% apart)", ab->noise * 100, fabs(ab->rel_median) * 100);
}

void summary_ab_text(struct summary_ab *ab)
{
    char p[24], r[24], ci[56] = "";
    p_text(p, sizeof p, ab->p);
    if (!isnan(ab->ratio_lo)) {
        ci[0] = ' ';
        figures_format_interval(ab->ratio_lo, ab->ratio_hi, ci + 1, sizeof ci - 1);
    }
    char t[SUMMARY_TEXT_MAX + 160];     /* every part whole, then cut to a row */
    if (strcmp(ab->status, "ok"))
        snprintf(t, sizeof t, "%.48s: not measured (%s)", ab->name, ab->status);
    else if (ab->detected && !isnan(ab->ratio))
        snprintf(t, sizeof t, "%.40s is %sx%s faster than %.40s, %s%s", ab->faster, num(r, 24, ab->ratio), ci,
                 ab->slower, p, ab->note);
    else if (ab->detected)
        snprintf(t, sizeof t, "%.40s is faster than %.40s, %s%s", ab->faster, ab->slower, p, ab->note);
    else if (ab->within_noise) {
        char w[64];
        summary_ab_within(ab, w, sizeof w);
        snprintf(t, sizeof t, "%.48s: %s, %s%s", ab->name, w, p, ab->note);
    }
    else
        snprintf(t, sizeof t, "%.48s: no difference detected, %s%s", ab->name, p, ab->note);
    size_t n = strlen(t) < sizeof ab->text ? strlen(t) : sizeof ab->text - 1;
    memcpy(ab->text, t, n);
    ab->text[n] = 0;
}

/* ---- the rows ------------------------------------------------------------------- */

static void rows_verdict(struct summary *s)
{
    char where[SUMMARY_NAME_MAX + 16] = "", took[48] = "";
    if (s->verdict == SUMMARY_INTERRUPTED)
        snprintf(where, sizeof where, " during %s", s->interrupted_in[0] ? s->interrupted_in : "an unknown section");
    /* "duration_ms" (boot/results_doc.c): an interrupted file's is up to its last write */
    if (!isnan(s->duration_ms) && s->duration_ms >= 0)
        snprintf(took, sizeof took, s->verdict == SUMMARY_INTERRUPTED ? "; last saved %.1f s into the run"
                 : "; run took %.1f s", s->duration_ms / 1000);
    row(s, "verdict", "%s%s, %u warning%s%s%s%s%s%s", summary_verdict_name(s->verdict), where, s->warnings,
        s->warnings == 1 ? "" : "s", s->profile[0] ? "; profile " : "", s->profile,
        s->platform[0] && strcmp(s->platform, "uefi") ? "; hosted under " : "",
        s->platform[0] && strcmp(s->platform, "uefi") ? s->platform : "", took);
    for (unsigned i = 0; i < s->n_reasons; i++)
        row(s, "", "warning: %.140s", s->reasons[i]);
    if (s->warnings > s->n_reasons)
        row(s, "", "(%u more warnings in the results)", s->warnings - s->n_reasons);
}

static void rows_machine(struct summary *s)
{
    char b[32];
    if (!s->cpu[0] && !s->cpus)
        return;
    row(s, "machine", "%s, %u CPU%s%s%s%s%s%s%s", s->cpu[0] ? s->cpu : "unknown CPU", s->cpus, s->cpus == 1 ? "" : "s",
        isnan(s->memory_mib) ? "" : ", ", isnan(s->memory_mib) ? "" : num(b, sizeof b, s->memory_mib),
        isnan(s->memory_mib) ? "" : " MiB", s->firmware[0] ? ", firmware " : "", s->firmware,
        s->hypervisor[0] ? "" : "");
    if (s->hypervisor[0])
        row(s, "", "under a hypervisor (%s): timings are the emulation's, not a machine's", s->hypervisor);
    else if (s->hypervisor_hidden[0])
        row(s, "", "under a hypervisor CPUID hides (SMBIOS: %s): timings are the emulation's, not a machine's",
            s->hypervisor_hidden);
    if (s->secure_boot >= 0)
        row(s, "boot", "Secure Boot %s%s; image %s%s%.64s", s->secure_boot ? "on" : "off",
            s->shim ? ", started through shim" : "", s->image_signed ? "signed" : "not signed",
            s->image_sha256[0] ? ", SHA-256 " : "", s->image_sha256);
}

static void rows_clock(struct summary *s)
{
    char b[4][32];
    if (isnan(s->tsc_mhz))
        return;
    char step[112] = "";
    if (!isnan(s->step_ticks))
        snprintf(step, sizeof step, "; TSC steps %s tick%s%s%s%s", num(b[2], 32, s->step_ticks),
                 s->step_ticks == 1 ? "" : "s", isnan(s->step_ns) ? "" : " (", isnan(s->step_ns) ? "" :
                 num(b[3], 32, s->step_ns), isnan(s->step_ns) ? "" : " ns)");
    row(s, "clock", "TSC %.3f MHz +/- %s ppm from the %s; %u reference%s agree within %s ppm%s", s->tsc_mhz,
        num(b[0], 32, s->tsc_ppm), s->tsc_source[0] ? s->tsc_source : "?", s->references,
        s->references == 1 ? "" : "s", num(b[1], 32, s->agreement_ppm), step);
    if (isnan(s->gap_max_us))
        return;
    /* A gap of a millisecond or more reads in ms: "13.14 ms", not "1.314e+04 us". */
    int in_ms = s->gap_max_us >= 1000.0;
    char smi[32] = "n/a (no counter)";
    if (!isnan(s->smis))
        snprintf(smi, sizeof smi, "%.0f", s->smis);
    row(s, "quiet", "largest gap %s %s in %s ms; %s gaps over 1 us; NMI %s, SMI %s",
        num(b[0], 32, in_ms ? s->gap_max_us / 1000.0 : s->gap_max_us), in_ms ? "ms" : "us",
        num(b[1], 32, s->quiet_ms), num(b[2], 32, s->gaps_over_1us), num(b[3], 32, s->nmis), smi);
}

void summary_estimate_text(const struct summary_estimate *e, char time[SUMMARY_EST_TEXT_MAX],
                           char interval[SUMMARY_EST_TEXT_MAX])
{
    char x[24];
    interval[0] = 0;
    if (e->resolved == 0) {
        if (isnan(e->below_ns))
            snprintf(time, SUMMARY_EST_TEXT_MAX, "below 1 step");
        else
            snprintf(time, SUMMARY_EST_TEXT_MAX, "below 1 step, < %s ns", num(x, sizeof x, e->below_ns));
        return;
    }
    figures_format(e->ns, time, SUMMARY_EST_TEXT_MAX);
    if (e->resolved == 1)
        figures_format_interval(e->ns_lo, e->ns_hi, interval, SUMMARY_EST_TEXT_MAX);
}

/* One target: "name  ns  [lo, hi]  ticks  method  k of m"; an interval whose
 * width is the counter's step is marked "*" (the note below the rows says
 * it); an unresolved estimate's words take the time's and interval's
 * columns. */
static void rows_target(struct summary *s, const struct summary_target *t)
{
    const struct summary_estimate *e = &t->est[t->chosen];
    char b[32], time[SUMMARY_EST_TEXT_MAX], ci[SUMMARY_EST_TEXT_MAX + 2];
    summary_estimate_text(e, time, ci);
    if (e->resolved == 0) {
        row(s, "", "%-16.16s %-29s %10s  %-19.19s %u of %u", t->name, time, "-", e->method, t->agree, t->resolved);
        return;
    }
    if (e->at_floor)
        strcat(ci, " *");
    row(s, "", "%-16.16s %9s  %-18s %10s  %-19.19s %u of %u", t->name, time, ci, num(b, 32, e->ticks), e->method,
        t->agree, t->resolved);
}

/* Rows left for the targets once the rows after them are counted. */
static unsigned rows_after(const struct summary *s)
{
    unsigned n = s->n_ab + 1;                       /* A/B, files */
    n += s->bytemark_ran || !isnan(s->index_integer) || !isnan(s->index_fp) ? 2 : 0;
    n += s->cores_cpus ? 1 : 0;
    n += s->n_levels || !isnan(s->read_gbps) ? 1 : 0;
    n += s->n_sections > 7 ? s->n_sections - 7 : 0;    /* sections of their own (rows_rest) */
    return n;
}

static void rows_targets(struct summary *s)
{
    unsigned floor = 0, below = 0, i;
    if (!s->n_targets)
        return;
    row(s, "targets", "%-16s %9s  %-18s %10s  %-19s %s", "name", "ns/iter", "95% CI (ns)", "ticks/iter", "method",
        "agree");
    for (i = 0; i < s->n_targets; i++) {
        const struct summary_estimate *e = &s->targets[i].est[s->targets[i].chosen];
        floor |= e->at_floor;
        below |= e->resolved == 0;
    }
    unsigned room = SUMMARY_ROWS_MAX - s->n_rows - rows_after(s) - floor - below;
    for (i = 0; i < s->n_targets && (i + 1 < room || i + 1 == s->n_targets); i++)
        rows_target(s, &s->targets[i]);
    if (i < s->n_targets)
        row(s, "", "... and %u more targets (the report lists them)", s->n_targets - i);
    if (floor)
        row(s, "", "* interval widened to 1 step (the counter's step / N): smaller differences are not seen");
    if (below)
        row(s, "", "below 1 step: not told from the placeholder, or under 1 step; not counted in agree");
}

static void rows_rest(struct summary *s)
{
    char b[4][32];
    for (unsigned i = 0; i < s->n_ab; i++)
        row(s, i ? "" : "A/B", "%s", s->ab[i].text);
    if (s->bytemark_ran || !isnan(s->index_integer) || !isnan(s->index_fp)) {
        row(s, "BYTEmark", "integer index %s, floating-point index %s (original: Pentium 90 = 1)",
            num(b[0], 32, s->index_integer), num(b[1], 32, s->index_fp));
        row(s, "", "profile %s: %s", s->bytemark_profile[0] ? s->bytemark_profile : "?",
            strcmp(s->bytemark_profile, "full") ? "shortened runs, indicative only (not 95% certain)"
            : s->bytemark_certain ? "every kernel 95% certain" : "NOT every kernel 95% certain");
    }
    if (s->cores_cpus)
        row(s, "cores", "%u CPUs; largest TSC offset %s ns; worst core-to-core round trip %s ns", s->cores_cpus,
            num(b[0], 32, s->cores_offset_ns), num(b[1], 32, s->cores_c2c_ns));
    if (s->n_levels || !isnan(s->read_gbps)) {
        char lv[SUMMARY_TEXT_MAX] = "";
        size_t o = 0;
        for (unsigned k = 0; k < s->n_levels && o < sizeof lv; k++)
            o += (size_t)snprintf(lv + o, sizeof lv - o, "%s%s %s ns", k ? ", " : "", s->levels[k].name,
                                  num(b[0], 32, s->levels[k].ns));
        row(s, "memory", "%s%s read %s GB/s", lv, s->n_levels ? " per load;" : "", num(b[1], 32, s->read_gbps));
    }
    /* a section the rows above do not cover: its figure table's headline */
    static const char known[] = " clock cores plugins methods comparisons bytemark memory verify ";
    for (unsigned k = 0; k < s->n_sections; k++) {
        char word[SUMMARY_NAME_MAX + 2];
        snprintf(word, sizeof word, " %.45s ", s->sections[k].name);
        if (!strstr(known, word) && s->sections[k].headline[0])
            row(s, s->sections[k].name, "%s", s->sections[k].headline);
    }
    if (s->run[0])
        row(s, "files", "\\baremark\\%s, .json (%s)", s->log_file,
            s->saved == 0 ? "NOT saved completely: see the warnings" : "saved");
}

void summary_rows(struct summary *s)
{
    s->n_rows = 0;
    rows_verdict(s);
    rows_machine(s);
    rows_clock(s);
    rows_targets(s);
    rows_rest(s);
}

void summary_rows_unreadable(struct summary *s)
{
    s->n_rows = 0;
    s->verdict = SUMMARY_FAILED;
    row(s, "verdict", "no summary: the results are not one whole results document (cut short, or not baremark's)");
}

/* ---- the block ------------------------------------------------------------------------ */

void summary_open_line(const struct summary *s, char *out, size_t cap)
{
    char rule[SUMMARY_RULE + 1];
    memset(rule, '=', SUMMARY_RULE);
    rule[SUMMARY_RULE] = 0;
    snprintf(out, cap, "%s baremark summary: %.40s %s", rule, s->run[0] ? s->run : "(unnamed run)", rule);
}

void summary_close_line(const struct summary *s, char *out, size_t cap)
{
    char open[128];
    summary_open_line(s, open, sizeof open);
    size_t n = strlen(open) < cap ? strlen(open) : cap - 1;
    memset(out, '=', n);
    out[n] = 0;
}

void summary_print(const struct summary *s, void (*put)(void *ctx, const char *line), void *ctx)
{
    char line[SUMMARY_LABEL_W + SUMMARY_TEXT_MAX + 16];
    summary_open_line(s, line, sizeof line);
    put(ctx, line);
    for (unsigned i = 0; i < s->n_rows; i++) {
        snprintf(line, sizeof line, "%-*s%s", SUMMARY_LABEL_W, s->rows[i].label, s->rows[i].text);
        put(ctx, line);
    }
    summary_close_line(s, line, sizeof line);
    put(ctx, line);
}
