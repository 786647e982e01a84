/*
 * bench/results/figures.c - walking the figure tables over a results document (see
 * figures.h): the places a row reaches, its LAVA id and unit filled in.
 * A place's raw samples: figures_samples.c; the match of a concrete path
 * or an id against the rows: figures_match.c; a figure in words, a
 * section's headline: figures_text.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "section.h"

#define FIG_MAX_WILD 4          /* [*] per path */

extern const struct figure_table figures_run, figures_system, figures_build, figures_settings;
extern const struct figure_table figures_host, figures_quiet;

/* The run's own members, before the sections' (figures_run.c), and the
 * members only the hosted program writes (figures_host.c). */
static const struct figure_table *const figures_own[] = {
    &figures_run, &figures_build, &figures_settings, &figures_system, &figures_host, &figures_quiet,
};
#define FIG_OWN (sizeof figures_own / sizeof figures_own[0])

const struct figure_table *figures_table(unsigned i)
{
    if (i < FIG_OWN)
        return figures_own[i];
    for (unsigned k = 0; k < section_count; k++)
        if (section_table[k].figures && i-- == FIG_OWN)
            return section_table[k].figures;
    return NULL;
}

const struct figure_table *figures_find(const char *member)
{
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        if (t->member && member && !strcmp(t->member, member))
            return t;
    return NULL;
}

const char *figures_row_tail(const struct figure_table *t, unsigned id)
{
    const char *path = id < t->n ? t->rows[id].path : "", *p, *tail = path;
    for (p = path; (p = strstr(p, "[*]")); p += 3)
        tail = p + 3 + (p[3] == '.');
    return tail;
}

struct jval figures_get(struct jval base, const struct figure_table *t, unsigned id)
{
    return jval_path(base, figures_row_tail(t, id));
}

struct jval figures_array(struct jval base, const struct figure_table *t, unsigned id)
{
    const char *path = id < t->n ? t->rows[id].path : "", *star = strstr(path, "[*]");
    char head[160];
    if (!star || (size_t)(star - path) >= sizeof head)
        return (struct jval){ 0 };
    memcpy(head, path, (size_t)(star - path));
    head[star - path] = 0;
    return jval_path(base, head);
}

const char *figure_kind_name(enum figure_kind k)
{
    static const char *const names[] = { "lower", "higher", "info", "detail" };
    return (unsigned)k < 4 ? names[k] : "?";
}

/* ---- walking a row's path ------------------------------------------------ */

struct fig_walk {
    struct jval doc, member;
    double hz;                          /* the table's tick rate in the member (NAN: none), read once */
    const struct figure_table *t;
    const struct figure *fig;
    void (*fn)(void *ctx, const struct figure_value *v);
    void *ctx;
    int depth;                          /* [*] entered */
    int cut;                            /* an object on the path before the leaf is absent or null */
    struct jval elem[FIG_MAX_WILD];
    size_t idx[FIG_MAX_WILD];
    char path[160];
};

static struct jval fig_member(struct jval doc, const struct figure_table *t)
{
    return t->member ? jval_get(doc, t->member) : doc;
}

/* A number for an id: whole numbers without a fraction. */
static void fig_num_text(char *out, size_t cap, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(out, cap, "%.0f", v);
    else
        snprintf(out, cap, "%g", v);
}

static void fig_value_text(struct jval v, char *out, size_t cap)
{
    if (jval_type(v) == JVAL_NUMBER)
        fig_num_text(out, cap, jval_num(v, NAN));
    else
        jval_str(v, out, cap);
}

/* One {token} of a template: #, #1 (indexes), a member path with # in it
 * ("latency.cpus[#1]"), or a KEY of the innermost element holding it. */
static void fig_token(const struct fig_walk *w, const char *tok, char *out, size_t cap)
{
    out[0] = 0;
    if (!strcmp(tok, "#") || !strcmp(tok, "#1")) {
        int d = w->depth - 1 - (tok[1] == '1');
        if (d >= 0)
            snprintf(out, cap, "%zu", w->idx[d]);
        return;
    }
    if (strchr(tok, '[')) {
        char path[96];
        size_t o = 0;
        for (const char *p = tok; *p && o + 24 < sizeof path; p++) {
            if (*p == '#') {
                int d = w->depth - 1 - (p[1] == '1');
                o += (size_t)snprintf(path + o, sizeof path - o, "%zu", d >= 0 ? w->idx[d] : 0);
                p += p[1] == '1';
            } else
                path[o++] = *p;
        }
        path[o] = 0;
        fig_value_text(jval_path(w->member, path), out, cap);
        return;
    }
    for (int d = w->depth - 1; d >= 0; d--) {
        struct jval v = jval_get(w->elem[d], tok);
        if (!jval_is_none(v)) {
            fig_value_text(v, out, cap);
            return;
        }
    }
    fig_value_text(jval_path(w->member, tok), out, cap);   /* a member path: "tsc.reference_cpu" */
}

static void fig_fill(const struct fig_walk *w, const char *tmpl, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = 0;
    for (const char *p = tmpl; p && *p && o + 1 < cap; p++) {
        const char *end = *p == '{' ? strchr(p, '}') : NULL;
        if (!end) {
            out[o++] = *p;
            continue;
        }
        char tok[64], val[64];
        size_t k = (size_t)(end - p - 1) < sizeof tok - 1 ? (size_t)(end - p - 1) : sizeof tok - 1;
        memcpy(tok, p + 1, k);
        tok[k] = 0;
        fig_token(w, tok, val, sizeof val);
        o += (size_t)snprintf(out + o, cap - o, "%s", val);
        if (o >= cap)
            o = cap - 1;
        p = end;
    }
    out[o] = 0;
}

/* A condition's KEY: a path below the innermost array element holding it,
 * else the next one out, else the member; "/KEY": the document's top
 * level ("/profile"). */
static struct jval fig_key(const struct fig_walk *w, const char *key)
{
    if (key[0] == '/')
        return jval_path(w->doc, key + 1);
    for (int d = w->depth - 1; d >= 0; d--) {
        struct jval v = jval_path(w->elem[d], key);
        if (!jval_is_none(v))
            return v;
    }
    return jval_path(w->member, key);
}

/* A scalar as a condition compares it: a string's text, a number as in an
 * id, "true", "false", "null"; "" for anything else. */
static void fig_scalar_text(struct jval v, char *out, size_t cap)
{
    switch (jval_type(v)) {
    case JVAL_TRUE: snprintf(out, cap, "true"); break;
    case JVAL_FALSE: snprintf(out, cap, "false"); break;
    case JVAL_NULL: snprintf(out, cap, "null"); break;
    case JVAL_NUMBER:
    case JVAL_STRING: fig_value_text(v, out, cap); break;
    default: out[0] = 0; break;
    }
}

/* One clause (figures.h): "KEY=WORD|WORD" (WORD may hold {templates}),
 * "KEY" (there, and not null or false); "!" before either: the opposite. */
static int fig_clause(const struct fig_walk *w, const char *c, size_t len)
{
    char key[64], have[96], want[128];
    int neg = len && c[0] == '!';
    const char *eq = memchr(c, '=', len);
    size_t k = eq ? (size_t)(eq - c) : len;
    if (k - neg >= sizeof key)
        return 0;
    memcpy(key, c + neg, k - neg);
    key[k - neg] = 0;
    struct jval v = fig_key(w, key);
    if (!eq) {
        enum jval_type t = jval_type(v);
        return (t != JVAL_NONE && t != JVAL_NULL && t != JVAL_FALSE) != neg;
    }
    char words[128];
    size_t wl = len - k - 1 < sizeof words ? len - k - 1 : sizeof words - 1;
    memcpy(words, eq + 1, wl);
    words[wl] = 0;
    fig_fill(w, words, want, sizeof want);
    fig_scalar_text(v, have, sizeof have);
    int any = !*want && !*have;
    for (const char *p = want; *p && !any;) {     /* any of the words */
        size_t n = strcspn(p, "|");
        any = n == strlen(have) && !strncmp(p, have, n);
        p += n + (p[n] == '|');
    }
    return any != neg;
}

/* A condition: clauses joined by " or ". */
static int fig_cond(const struct fig_walk *w, const char *cond)
{
    for (const char *p = cond;;) {
        const char *or = strstr(p, " or ");
        size_t n = or ? (size_t)(or - p) : strlen(p);
        if (fig_clause(w, p, n))
            return 1;
        if (!or)
            return 0;
        p = or + 4;
    }
}

static double fig_tick_hz(struct jval member, const struct figure_table *t)
{
    double hz = t->tick_hz ? jval_num(jval_path(member, t->tick_hz), NAN) : NAN;
    return hz > 0 ? hz : NAN;
}

/* The place's LAVA case by the row's rules, in this order (figures.h):
 * none, skip, only, the place's objects absent (no case), the value
 * missing (skip, or fail where `lost` holds), pass. */
static void fig_case(const struct fig_walk *w, struct figure_value *fv)
{
    const struct figure *f = w->fig;
    fv->case_value = NAN;
    fv->result = LAVA_SKIP;
    fv->lava_case = f->lava && !(f->none && fig_cond(w, f->none));
    if (!fv->lava_case || (f->skip && fig_cond(w, f->skip)))
        return;
    if (fv->only_failed) {
        fv->result = LAVA_FAIL;
    } else if (w->cut) {
        fv->lava_case = 0;
    } else if (isnan(fv->lava_value)) {
        fv->result = f->lost && fig_cond(w, f->lost) ? LAVA_FAIL : LAVA_SKIP;
    } else {
        fv->result = f->pass && !fig_cond(w, f->pass) ? LAVA_FAIL : LAVA_PASS;
        fv->case_value = fv->lava_value;
    }
}

static void fig_emit(struct fig_walk *w, struct jval v)
{
    const struct figure *f = w->fig;
    struct figure_value fv;
    if ((f->flags & FIG_UPPER) && w->depth >= 2 && w->idx[w->depth - 1] <= w->idx[w->depth - 2])
        return;
    memset(&fv, 0, sizeof fv);
    fv.table = w->t;
    fv.fig = f;
    fv.member = w->member;
    fv.tick_hz = w->hz;
    fv.json = v;
    fv.elem = w->depth ? w->elem[w->depth - 1] : (struct jval){ 0 };
    snprintf(fv.path, sizeof fv.path, "%s", w->path);
    fv.value = jval_num(v, NAN);
    fv.only_failed = f->only && !fig_cond(w, f->only);
    double x = fv.only_failed ? NAN : fv.value * (f->scale != 0 ? f->scale : 1);
    if (f->flags & FIG_TICKS_NS)
        x = x * 1e9 / w->hz;
    fv.lava_value = x;
    if (f->lava) {
        char raw[LAVA_ID_MAX * 2];
        fig_fill(w, f->lava, raw, sizeof raw);
        lava_id(fv.id, sizeof fv.id, raw);
    }
    fig_fill(w, f->unit, fv.unit, sizeof fv.unit);
    fig_case(w, &fv);
    w->fn(w->ctx, &fv);
}

static void fig_step(struct fig_walk *w, struct jval v, const char *rest)
{
    size_t plen = strlen(w->path);
    if (*rest == '.')
        rest++;
    if (!*rest) {
        fig_emit(w, v);
        return;
    }
    if (!strncmp(rest, "[*]", 3)) {
        struct jval e;
        size_t it = 0, i = 0;
        if (w->depth >= FIG_MAX_WILD)
            return;
        while (jval_next(v, &it, NULL, &e)) {
            w->elem[w->depth] = e;
            w->idx[w->depth++] = i;
            snprintf(w->path + plen, sizeof w->path - plen, "[%zu]", i++);
            fig_step(w, e, rest + 3);
            w->depth--;
        }
        w->path[plen] = 0;
        return;
    }
    if (!strcmp(rest, "*")) {           /* every member (FIG_DETAIL rows) */
        struct jval key, m;
        size_t it = 0;
        char name[64];
        while (jval_next(v, &it, &key, &m)) {
            jval_str(key, name, sizeof name);
            snprintf(w->path + plen, sizeof w->path - plen, "%s%s", plen ? "." : "", name);
            fig_emit(w, m);
        }
        w->path[plen] = 0;
        return;
    }
    char name[64];
    size_t k = strcspn(rest, ".[");
    if (k >= sizeof name)
        return;
    memcpy(name, rest, k);
    name[k] = 0;
    struct jval m = jval_get(v, name);
    /* absent: a place without its value, unless an array was still to come */
    if (jval_is_none(m) && strstr(rest + k, "[*]"))
        return;
    int cut = rest[k] && (jval_is_none(m) || jval_type(m) == JVAL_NULL);   /* the leaf's way is not there */
    snprintf(w->path + plen, sizeof w->path - plen, "%s%s", plen ? "." : "", name);
    w->cut += cut;
    fig_step(w, m, rest + k);
    w->cut -= cut;
    w->path[plen] = 0;
}

/* The walk of one row, its member found (w->member) and its rate read. */
static void fig_walk_row(struct fig_walk *w, const struct figure *fig)
{
    w->fig = fig;
    w->depth = w->cut = 0;
    snprintf(w->path, sizeof w->path, "%s", w->t->member ? w->t->member : "");
    fig_step(w, w->member, fig->path);
}

static int fig_walk_begin(struct fig_walk *w, struct jval doc, const struct figure_table *t,
                          void (*fn)(void *ctx, const struct figure_value *v), void *ctx)
{
    memset(w, 0, sizeof *w);
    w->doc = doc;
    w->member = fig_member(doc, t);
    if (jval_is_none(w->member))
        return 0;
    w->t = t;
    w->hz = fig_tick_hz(w->member, t);
    w->fn = fn;
    w->ctx = ctx;
    return 1;
}

void figures_each(struct jval doc, const struct figure_table *t, const struct figure *fig,
                  void (*fn)(void *ctx, const struct figure_value *v), void *ctx)
{
    struct fig_walk w;
    if (fig_walk_begin(&w, doc, t, fn, ctx))
        fig_walk_row(&w, fig);
}

void figures_each_row(struct jval doc, const struct figure_table *t, enum figure_rows which,
                      void (*fn)(void *ctx, const struct figure_value *v), void *ctx)
{
    struct fig_walk w;
    if (!t || !fig_walk_begin(&w, doc, t, fn, ctx))
        return;
    for (unsigned r = 0; r < t->n; r++)
        if (which == FIG_ROWS_ALL || t->rows[r].lava)
            fig_walk_row(&w, &t->rows[r]);
}
