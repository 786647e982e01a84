/*
 * tools/host/history/history_add.c - runs into the history: each results file's
 * identity, provenance and figures, one transaction a run.
 *
 * Identity.  A run is stored once, keyed by the SHA-256 of its file's
 * bytes (the same run copied off a stick twice is one run).  Its machine
 * is, in order: --machine NAME; the SMBIOS system UUID and serial number
 * with the CPU signature, where the run recorded them; the folder it lies
 * in below the argument (DIR/MACHINE/RUN.json, as `baremark fleet` reads
 * folders); else the CPU signature, brand and firmware (weak: two
 * identical boards are one machine).
 *
 * Provenance kept with each run: the build (baremark's commit), the image's
 * SHA-256 where Secure Boot reporting recorded it, the plug-ins' hashes,
 * the profile and a hash of the settings, firmware vendor and revision,
 * the firmware build's identity (system.firmware_id), microcode, memory and the Secure Boot state: what `history show` lists
 * as differing on either side of a change.
 *
 * Figures.  Every figure the tables declare (bench/results/figures.h) with a LAVA
 * id and a better side or an INFO kind: its value in the LAVA unit, and
 * where the file has the raw samples, the 95% interval of their median.
 */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "figures_clock.h"
#include "figures_run.h"
#include "commands.h"
#include "history.h"
#include "json_read.h"
#include "validate_sections.h"
#include "report_util.h"
#include "run_profile.h"
#include "sha256.h"
#include "validate.h"

#define HA_SAMPLES_MAX   200000
#define HA_Z95           1.959963984540054

struct ha_run {
    const char *path;
    char *text;
    size_t len;
    struct jval doc;
    char hash[SHA256_HEX];
    char machine_key[512], machine_name[96], cpu[200];
    char name[40], started[40], status[24], profile[16], build[64], image[80];
    char plugins[200], settings[80], firmware[96], microcode[40], memory[24], secure_boot[24];
    char firmware_id[72];       /* system.firmware_id, "-" when the run does not say */
    char counter_step[32];      /* ticks, "" when the run does not say */
};

static void ha_str(struct jval doc, const char *path, char *out, size_t cap, const char *dflt)
{
    struct jval v = jval_path(doc, path);
    double d;
    if (jval_str(v, out, cap))
        return;
    if (jval_type(v) == JVAL_NUMBER && !isnan(d = jval_num(v, NAN)))
        snprintf(out, cap, "%.17g", d);
    else if (jval_type(v) == JVAL_TRUE || jval_type(v) == JVAL_FALSE)
        snprintf(out, cap, "%s", jval_type(v) == JVAL_TRUE ? "on" : "off");
    else
        snprintf(out, cap, "%s", dflt);
}

/* The short hex SHA-256 of a JSON value's text (settings, plug-ins). */
static void ha_hash_of(struct jval v, char *out, size_t cap)
{
    uint8_t d[SHA256_DIGEST];
    char hex[SHA256_HEX];
    if (jval_is_none(v)) {
        snprintf(out, cap, "-");
        return;
    }
    sha256(v.p, v.n, d);
    sha256_hex(d, hex);
    snprintf(out, cap, "%.16s", hex);
}

/* The plug-ins' file hashes, "name:sha256[:12],..." (loaded files). */
static void ha_plugins(struct jval doc, char *out, size_t cap)
{
    struct jval files = jval_path(doc, "plugins.files"), f;
    size_t it = 0, k = 0;
    char name[64], sum[80];
    out[0] = 0;
    while (jval_next(files, &it, NULL, &f) && k + 1 < cap) {
        if (!jval_str(jval_get(f, "name"), name, sizeof name) && !jval_str(jval_get(f, "file"), name, sizeof name))
            continue;
        if (!jval_str(jval_get(f, "sha256"), sum, sizeof sum))
            snprintf(sum, sizeof sum, "?");
        int n = snprintf(out + k, cap - k, "%s%s:%.12s", k ? "," : "", name, sum);
        if (n < 0 || (size_t)n >= cap - k)
            break;
        k += (size_t)n;
    }
    if (!k)
        snprintf(out, cap, "-");
}

static void ha_identity(struct ha_run *r, const char *folder, const struct history_add_opts *o)
{
    struct jval d = r->doc;
    char uuid[64], serial[64], vendor[16], fam[16], mod[16], step[16], brand[96], fw[64], fwrev[24];
    ha_str(d, "system.smbios.uuid", uuid, sizeof uuid, "");
    ha_str(d, "system.smbios.serial", serial, sizeof serial, "");
    ha_str(d, "system.cpu_vendor", vendor, sizeof vendor, "?");
    ha_str(d, "system.family", fam, sizeof fam, "?");
    ha_str(d, "system.model", mod, sizeof mod, "?");
    ha_str(d, "system.stepping", step, sizeof step, "?");
    ha_str(d, "system.cpu_brand", brand, sizeof brand, "?");
    ha_str(d, "system.firmware_vendor", fw, sizeof fw, "?");
    ha_str(d, "system.firmware_revision", fwrev, sizeof fwrev, "?");
    snprintf(r->cpu, sizeof r->cpu, "%s (%s %s/%s/%s)", brand, vendor, fam, mod, step);
    snprintf(r->firmware, sizeof r->firmware, "%s %s", fw, fwrev);
    if (o->machine && o->machine[0]) {
        snprintf(r->machine_key, sizeof r->machine_key, "name:%s", o->machine);
        snprintf(r->machine_name, sizeof r->machine_name, "%s", o->machine);
    } else if (uuid[0] || serial[0]) {
        snprintf(r->machine_key, sizeof r->machine_key, "smbios:%s/%s/%s-%s-%s-%s", uuid, serial, vendor, fam, mod,
                 step);
        ha_str(d, "system.smbios.product", r->machine_name, sizeof r->machine_name, "");
        if (!r->machine_name[0] || folder)
            snprintf(r->machine_name, sizeof r->machine_name, "%s", folder ? folder : serial[0] ? serial : uuid);
    } else if (folder) {
        snprintf(r->machine_key, sizeof r->machine_key, "name:%s", folder);
        snprintf(r->machine_name, sizeof r->machine_name, "%s", folder);
    } else {
        snprintf(r->machine_key, sizeof r->machine_key, "cpu:%s-%s-%s-%s/%s/%s", vendor, fam, mod, step, brand,
                 r->firmware);
        snprintf(r->machine_name, sizeof r->machine_name, "%s", brand);
    }
}

static void ha_provenance(struct ha_run *r)
{
    struct jval d = r->doc;
    ha_str(d, "name", r->name, sizeof r->name, "");
    ha_str(d, "system.started", r->started, sizeof r->started, r->name);
    if (!r->name[0])
        snprintf(r->name, sizeof r->name, "%.39s", r->started);
    ha_str(d, figures_row_tail(&figures_run, FIG_RUN_STATUS), r->status, sizeof r->status, "?");
    if (jval_type(jval_get(d, "ended")) == JVAL_FALSE)
        snprintf(r->status, sizeof r->status, "interrupted");
    /* the profile the run used (top-level "profile"); a file older than that
     * member: a section's, else the one asked for, as the summary reads it */
    if (!run_profile_read_jr(d, r->profile, sizeof r->profile))
        snprintf(r->profile, sizeof r->profile, "default");
    ha_str(d, "build.version", r->build, sizeof r->build, "?");
    ha_str(d, "system.secure_boot.image_sha256", r->image, sizeof r->image, "-");
    ha_plugins(d, r->plugins, sizeof r->plugins);
    ha_hash_of(jval_get(d, "settings"), r->settings, sizeof r->settings);
    ha_str(d, "system.microcode", r->microcode, sizeof r->microcode, "-");
    ha_str(d, "system.firmware_id", r->firmware_id, sizeof r->firmware_id, "-");
    ha_str(jval_get(d, figures_system.member), figures_row_tail(&figures_system, FIG_SYSTEM_MEMORY_MIB), r->memory,
           sizeof r->memory, "");
    ha_str(d, "system.secure_boot.secure_boot", r->secure_boot, sizeof r->secure_boot, "-");
    /* the counter's step: the clock section's, else the largest a
     * measurement of the methods section was timed with */
    double step = jval_num(figures_get(jval_get(d, figures_clock.member), &figures_clock, FIG_CLOCK_COUNTER_STEP_TICKS), NAN);
    struct jval ms = jval_path(d, "methods.measurements");
    size_t nm = step > 0 ? 0 : jval_count(ms);
    for (size_t i = 0; i < nm; i++) {
        double s = jval_num(jval_get(jval_at(ms, i), "counter_step_ticks"), NAN);
        if (s > 0 && !(s <= step))
            step = s;
    }
    r->counter_step[0] = 0;
    if (step > 0)
        snprintf(r->counter_step, sizeof r->counter_step, "%.17g", step);
}

/* ---- figures ------------------------------------------------------------------------ */

struct ha_fig_ctx {
    struct hdb *db;
    struct jval doc;
    const char *run_id;
    double *samples;
    int failed;
    size_t n;
};

static int ha_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The 95% interval of the median of the raw samples (order statistics),
 * kept only when it brackets the figure's own value. */
static void ha_interval(struct ha_fig_ctx *c, const struct figure_value *v, double *lo, double *hi)
{
    size_t n = figures_samples(v, c->samples, HA_SAMPLES_MAX);
    *lo = *hi = NAN;
    if (n < 3)
        return;
    qsort(c->samples, n, sizeof *c->samples, ha_cmp_double);
    double half = HA_Z95 * sqrt((double)n) / 2;
    long j = (long)floor(n / 2.0 - half), k = (long)ceil(n / 2.0 + half);
    if (j < 1)
        j = 1;
    if (k > (long)n)
        k = (long)n;
    double scale = v->fig->scale ? v->fig->scale : 1;
    double l = c->samples[j - 1] * scale, h = c->samples[k - 1] * scale;
    if (l <= v->lava_value && v->lava_value <= h) {
        *lo = l;
        *hi = h;
    }
}

static int ha_id_row(void *ctx, int n, const char *const *v)
{
    snprintf(ctx, 24, "%s", n > 0 && v[0] ? v[0] : "");
    return 1;
}

static void ha_figure(void *ctx, const struct figure_value *v)
{
    struct ha_fig_ctx *c = ctx;
    if (c->failed || !v->id[0] || isnan(v->lava_value) || isinf(v->lava_value) || v->fig->kind == FIG_DETAIL)
        return;
    char fid[24] = "", val[32], lo[32], hi[32], label[160];
    double l, h;
    const char *kind = figure_kind_name(v->fig->kind);
    history_series_label(v, label, sizeof label);
    const char *fp[4] = { v->id, v->unit, kind, label };
    if (hdb_exec(c->db, "INSERT INTO figures (name, unit, kind, label) VALUES ($1, $2, $3, $4)"
                        " ON CONFLICT (name) DO UPDATE SET label = excluded.label WHERE figures.label IS NULL",
                 4, fp, NULL, NULL) ||
        hdb_exec(c->db, "SELECT id FROM figures WHERE name = $1", 1, fp, ha_id_row, fid) || !fid[0]) {
        c->failed = 1;
        return;
    }
    ha_interval(c, v, &l, &h);
    /* the figure's resolution: a per-iteration tick figure of a
     * measurement moves by the counter's step over its iterations */
    double cs = jval_num(jval_get(v->elem, "counter_step_ticks"), NAN);
    double it = jval_num(jval_get(v->elem, "iterations"), NAN);    /* not a row: the measurement's N */
    double res = strstr(v->unit, "ticks") && cs > 0 && it >= 1 ? cs / it : NAN;
    char step[32];
    snprintf(val, sizeof val, "%.17g", v->lava_value);
    snprintf(lo, sizeof lo, "%.17g", l);
    snprintf(hi, sizeof hi, "%.17g", h);
    snprintf(step, sizeof step, "%.17g", res);
    const char *pp[6] = { c->run_id, fid, val, isnan(l) ? NULL : lo, isnan(h) ? NULL : hi, isnan(res) ? NULL : step };
    /* A figure the tables reach twice in one run (the same id from two
     * rows) is kept once: the first. */
    if (hdb_exec(c->db, "INSERT INTO points (run_id, figure_id, value, lo, hi, step) VALUES ($1, $2, $3, $4, $5, $6)"
                        " ON CONFLICT (run_id, figure_id) DO NOTHING",
                 6, pp, NULL, NULL))
        c->failed = 1;
    else
        c->n++;
}

/* ---- one run --------------------------------------------------------------------------- */

/* keep: the file's bytes in hex, kept with the run (history serve), or NULL */
static int ha_store(struct hdb *db, struct ha_run *r, const char *source, const char *keep, size_t *nfig)
{
    char mid[24] = "", rid[24] = "", added[32];
    time_t now = time(NULL);
    strftime(added, sizeof added, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (hdb_begin(db))
        return -1;
    const char *mp[3] = { r->machine_key, r->machine_name, r->cpu };
    if (hdb_exec(db, "INSERT INTO machines (key, name, cpu) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING", 3,
                 mp, NULL, NULL) ||
        hdb_exec(db, "SELECT id FROM machines WHERE key = $1", 1, mp, ha_id_row, mid) || !mid[0])
        goto fail;
    const char *rp[18] = { r->hash, mid, r->name, r->started, added, r->status, r->profile, r->build, r->image,
                           r->plugins, r->settings, r->firmware, r->microcode, r->memory[0] ? r->memory : NULL,
                           r->secure_boot, source, r->counter_step[0] ? r->counter_step : NULL, r->firmware_id };
    if (hdb_exec(db,
                 "INSERT INTO runs (hash, machine_id, name, started, added, status, profile, build, image_sha256,"
                 " plugins, settings, firmware, microcode, memory_mib, secure_boot, source, counter_step_ticks,"
                 " firmware_id)"
                 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)"
                 " ON CONFLICT (hash) DO NOTHING RETURNING id",
                 18, rp, ha_id_row, rid))
        goto fail;
    if (!rid[0]) {              /* stored before (maybe by another add at the same time) */
        hdb_rollback(db);
        return 1;
    }
    struct ha_fig_ctx c = { db, r->doc, rid, malloc(HA_SAMPLES_MAX * sizeof(double)), 0, 0 };
    const struct figure_table *t;
    for (unsigned i = 0; c.samples && !c.failed && (t = figures_table(i)); i++)
        figures_each_row(r->doc, t, FIG_ROWS_TRACKED, ha_figure, &c);
    free(c.samples);
    const char *kp[3] = { rid, "json", keep };
    if (!c.failed && keep &&
        hdb_exec(db, "INSERT INTO run_files (run_id, kind, hex) VALUES ($1, $2, $3)", 3, kp, NULL, NULL))
        c.failed = 1;
    if (!c.samples || c.failed || hdb_commit(db))
        goto fail;
    *nfig = c.n;
    return 0;
fail:
    hdb_rollback(db);
    return -1;
}

/* Whether r->text is a run the history takes: JSON, a baremark results
 * file, and accepted by the results schema (docs/results-schema.md, as
 * `baremark validate` checks it; a hostile or hand-edited file would
 * otherwise become a change point).  0, or HISTORY_NOT_JSON /
 * HISTORY_INVALID with one line in why naming the first problem. */
static int ha_check(struct ha_run *r, const char *label, char *why, size_t whycap)
{
    json_error_t e;
    int sections = 0, problems;
    r->doc = jval_doc(r->text, r->len);
    if (jval_is_none(r->doc) || jval_type(r->doc) != JVAL_OBJECT) {
        snprintf(why, whycap, "%s: not JSON (truncated or not a results file)", label);
        return HISTORY_NOT_JSON;
    }
    if (jval_type(figures_get(r->doc, &figures_run, FIG_RUN_SCHEMA)) != JVAL_NUMBER || jval_type(jval_get(r->doc, "system")) != JVAL_OBJECT) {
        snprintf(why, whycap, "%s: not a baremark results file (no \"schema\" or \"system\")", label);
        return HISTORY_INVALID;
    }
    json_t *root = json_loadb(r->text, r->len, JSON_DECODE_ANY, &e);
    if (!root || !json_is_object(root)) {
        snprintf(why, whycap, "%s:%d:%d: not valid JSON: %.200s", label, e.line, e.column, root ? "not an object" : e.text);
        json_decref(root);
        return HISTORY_NOT_JSON;
    }
    /* counted quietly (threads may check runs at once: history serve); the
     * problems of a bad file then written as `baremark validate` prints
     * them, through the one rv_out, one thread at a time */
    static pthread_mutex_t loud = PTHREAD_MUTEX_INITIALIZER;
    char *text = NULL;
    size_t len = 0;
    problems = rv_document(root, label, 1, &sections);
    if (problems) {
        pthread_mutex_lock(&loud);
        FILE *m = open_memstream(&text, &len);
        if (m) {
            rv_out = m;
            rv_document(root, label, 0, &sections);
            rv_out = NULL;
            fclose(m);
        }
        pthread_mutex_unlock(&loud);
    }
    json_decref(root);
    if (problems) {
        /* the first problem's line is "LABEL: WHERE: what": named without LABEL */
        const char *first = text ? text : "?";
        if (!strncmp(first, label, strlen(label)) && !strncmp(first + strlen(label), ": ", 2))
            first += strlen(label) + 2;
        snprintf(why, whycap, "%s: does not validate against the results schema (%d problem%s; the first: %.*s)",
                 label, problems, problems == 1 ? "" : "s", (int)strcspn(first, "\n"), first);
    }
    free(text);
    return problems ? HISTORY_INVALID : 0;
}

static void ha_file(struct hdb *db, const char *path, const char *folder, const struct history_add_opts *o,
                    struct history_add_result *res)
{
    struct ha_run r = { .path = path };
    uint8_t d[SHA256_DIGEST];
    size_t nfig = 0;
    char why[1024];
    r.text = cli_slurp(path, &r.len);
    if (!r.text) {
        fprintf(stderr, "baremark history: %s: cannot read it; skipped\n", path);
        res->skipped++;
        return;
    }
    int bad = ha_check(&r, path, why, sizeof why);
    if (bad) {
        fprintf(stderr, "baremark history: %s; skipped\n", why);
        res->skipped++;
    } else {
        sha256(r.text, r.len, d);
        sha256_hex(d, r.hash);
        ha_identity(&r, folder, o);
        ha_provenance(&r);
        int rc = ha_store(db, &r, path, NULL, &nfig);
        if (rc < 0) {
            fprintf(stderr, "baremark history: %s: not stored (%s); nothing of it was kept\n", path, hdb_error(db));
            res->skipped++;
        } else if (rc > 0) {
            res->duplicates++;
            if (!o->quiet)
                printf("history: %s: already stored (run %s on %s)\n", path, r.name, r.machine_name);
        } else {
            res->added++;
            if (!o->quiet)
                printf("history: %s: run %s on %s, %zu figures\n", path, r.name, r.machine_name, nfig);
        }
    }
    free(r.text);
}

int history_add_text(struct hdb *db, struct history_upload *u)
{
    struct ha_run r = { .path = u->source };
    uint8_t d[SHA256_DIGEST];
    size_t nfig = 0;
    struct history_add_opts o = { 0 };
    u->why[0] = u->name[0] = u->machine[0] = 0;
    sha256(u->text, u->len, d);
    sha256_hex(d, u->hash);
    r.text = (char *)u->text;
    r.len = u->len;
    int bad = ha_check(&r, "the run", u->why, sizeof u->why);   /* "the run: ..." */
    if (bad)
        return bad;
    memcpy(r.hash, u->hash, sizeof r.hash);
    ha_identity(&r, NULL, &o);
    ha_provenance(&r);
    snprintf(u->name, sizeof u->name, "%s", r.name);
    snprintf(u->machine, sizeof u->machine, "%s", r.machine_name);
    char *hex = hdb_hex(u->text, u->len);
    int rc = hex ? ha_store(db, &r, u->source, hex, &nfig) : -1;
    free(hex);
    if (rc < 0) {
        snprintf(u->why, sizeof u->why, "not stored (%s)", hex ? hdb_error(db) : "out of memory");
        return HISTORY_FAILED;
    }
    u->figures = nfig;
    return rc > 0 ? HISTORY_DUPLICATE : HISTORY_ADDED;
}

/* ---- a LAVA server's job (tools/lava/fetch-results' files) --------------------------- */

/* One "key: 'value'" line of fetch-results' YAML (a quoted scalar, '' for
 * a quote). */
static int ha_yaml_kv(const char *line, const char *key, char *out, size_t cap)
{
    size_t k = strlen(key), n = 0;
    const char *p = line;
    if (!strncmp(p, "- ", 2) || !strncmp(p, "  ", 2))
        p += 2;
    if (strncmp(p, key, k) || p[k] != ':' || p[k + 1] != ' ')
        return 0;
    p += k + 2;
    if (*p == '\'') {
        for (p++; *p && n + 1 < cap; p++) {
            if (*p == '\'' && p[1] == '\'')
                p++;
            else if (*p == '\'')
                break;
            out[n++] = *p;
        }
    } else
        for (; *p && *p != '\n' && n + 1 < cap; p++)
            out[n++] = *p;
    out[n] = 0;
    return 1;
}

struct ha_case {
    char suite[64], id[LAVA_ID_MAX + 1], result[16], value[48], unit[32];
};

static void ha_lava_point(struct hdb *db, const char *rid, const struct ha_case *c, size_t *n, int *failed)
{
    char fid[24] = "", *end;
    double v = strtod(c->value, &end);
    const struct figure *row = figures_id_row(c->id);
    if (*failed || !strcmp(c->suite, "lava") || !c->id[0] || end == c->value || *end || !isfinite(v) || !row ||
        row->kind == FIG_DETAIL)
        return;
    const char *fp[3] = { c->id, c->unit, figure_kind_name(row->kind) };
    const char *pp[5] = { rid, fid, c->value, NULL, NULL };
    if (hdb_exec(db, "INSERT INTO figures (name, unit, kind) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", 3,
                 fp, NULL, NULL) ||
        hdb_exec(db, "SELECT id FROM figures WHERE name = $1", 1, fp, ha_id_row, fid) || !fid[0] ||
        hdb_exec(db, "INSERT INTO points (run_id, figure_id, value, lo, hi) VALUES ($1, $2, $3, $4, $5)"
                     " ON CONFLICT (run_id, figure_id) DO NOTHING", 5, pp, NULL, NULL))
        *failed = 1;
    else
        (*n)++;
}

/* A job's results: the machine is its device (or --machine), the run its
 * job; LAVA keeps no build or firmware, so those are "-" ("lava" as the
 * profile: a job's settings are in its definition, not its results). */
static void ha_lava_file(struct hdb *db, const char *path, const struct history_add_opts *o,
                         struct history_add_result *res)
{
    struct ha_run r = { .path = path };
    char job[24] = "", server[160] = "", dev[96] = "", line[2048], mid[24] = "", rid[24] = "", added[32];
    uint8_t d[SHA256_DIGEST];
    size_t nfig = 0;
    int failed = 0;
    time_t now = time(NULL);
    r.text = cli_slurp(path, &r.len);
    FILE *f = r.text ? fmemopen(r.text, r.len, "r") : NULL;
    if (!f) {
        fprintf(stderr, "baremark history: %s: cannot read it; skipped\n", path);
        res->skipped++;
        free(r.text);
        return;
    }
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        ha_yaml_kv(line + 2, "lava-job", job, sizeof job);
        ha_yaml_kv(line + 2, "lava-server", server, sizeof server);
        ha_yaml_kv(line + 2, "device", dev, sizeof dev);
        ha_yaml_kv(line + 2, "started", r.started, sizeof r.started);
    }
    if (!job[0] || !dev[0]) {
        fprintf(stderr, "baremark history: %s: not a LAVA job's results from tools/lava/fetch-results; skipped\n",
                path);
        res->skipped++;
        fclose(f);
        free(r.text);
        return;
    }
    sha256(r.text, r.len, d);
    sha256_hex(d, r.hash);
    snprintf(r.machine_name, sizeof r.machine_name, "%s", o->machine && o->machine[0] ? o->machine : dev);
    snprintf(r.machine_key, sizeof r.machine_key, "name:%s", r.machine_name);
    snprintf(r.cpu, sizeof r.cpu, "LAVA device %s", dev);
    snprintf(r.name, sizeof r.name, "lava-job-%s", job);
    snprintf(r.status, sizeof r.status, "lava");
    strftime(added, sizeof added, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *mp[3] = { r.machine_key, r.machine_name, r.cpu };
    const char *rp[16] = { r.hash, mid, r.name, r.started, added, r.status, "lava", "-", "-", "-", "-", "-", "-",
                           NULL, "-", path };
    if (hdb_begin(db) ||
        hdb_exec(db, "INSERT INTO machines (key, name, cpu) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING", 3,
                 mp, NULL, NULL) ||
        hdb_exec(db, "SELECT id FROM machines WHERE key = $1", 1, mp, ha_id_row, mid) || !mid[0] ||
        hdb_exec(db,
                 "INSERT INTO runs (hash, machine_id, name, started, added, status, profile, build, image_sha256,"
                 " plugins, settings, firmware, microcode, memory_mib, secure_boot, source)"
                 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
                 " ON CONFLICT (hash) DO NOTHING RETURNING id",
                 16, rp, ha_id_row, rid))
        failed = 1;
    else if (!rid[0]) {
        hdb_rollback(db);
        res->duplicates++;
        fclose(f);
        free(r.text);
        return;
    }
    struct ha_case c;
    int have = 0;
    memset(&c, 0, sizeof c);
    do {
        if (line[0] == '-' && have) {
            ha_lava_point(db, rid, &c, &nfig, &failed);
            memset(&c, 0, sizeof c);
        }
        have |= ha_yaml_kv(line, "definition", c.suite, sizeof c.suite) | ha_yaml_kv(line, "case", c.id, sizeof c.id) |
                ha_yaml_kv(line, "result", c.result, sizeof c.result) |
                ha_yaml_kv(line, "measurement", c.value, sizeof c.value) | ha_yaml_kv(line, "unit", c.unit, sizeof c.unit);
    } while (!failed && fgets(line, sizeof line, f));
    if (have)
        ha_lava_point(db, rid, &c, &nfig, &failed);
    fclose(f);
    if (failed || hdb_commit(db)) {
        hdb_rollback(db);
        fprintf(stderr, "baremark history: %s: not stored (%s); nothing of it was kept\n", path, hdb_error(db));
        res->skipped++;
    } else {
        res->added++;
        if (!o->quiet)
            printf("history: %s: LAVA job %s on %s, %zu figures\n", path, job, r.machine_name, nfig);
    }
    free(r.text);
}

static int ha_is_yaml(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && !strcmp(name + n - 5, ".yaml");
}

static int ha_is_json(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && !strcmp(name + n - 5, ".json");
}

static int ha_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A folder: its *.json files (machine: the folder's name below the
 * argument, or none at the top), its sub-folders in name order. */
static void ha_dir(struct hdb *db, const char *dir, const char *machine, const struct history_add_opts *o,
                   struct history_add_result *res, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (!d) {
        fprintf(stderr, "baremark history: %s: cannot open the folder; skipped\n", dir);
        res->skipped++;
        return;
    }
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap && !(names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names)))
            break;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, ha_cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%.*s/%s", (int)(strlen(dir) - (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')), dir, names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < 8)
            ha_dir(db, path, depth == 0 ? names[i] : machine, o, res, depth + 1);
        else if (S_ISREG(st.st_mode) && ha_is_yaml(names[i]))
            ha_lava_file(db, path, o, res);
        else if (S_ISREG(st.st_mode) && ha_is_json(names[i]))
            ha_file(db, path, machine, o, res);
        free(names[i]);
    }
    free(names);
}

int history_add(struct hdb *db, char *const *paths, int npaths, const struct history_add_opts *o,
                struct history_add_result *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            fprintf(stderr, "baremark history: %s: no such file or folder; skipped\n", paths[i]);
            r->skipped++;
        } else if (S_ISDIR(st.st_mode))
            ha_dir(db, paths[i], NULL, o, r, 0);
        else
            (ha_is_yaml(paths[i]) ? (void)ha_lava_file(db, paths[i], o, r) : ha_file(db, paths[i], NULL, o, r));
    }
    return r->skipped ? 2 : 0;
}
