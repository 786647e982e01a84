/*
 * bench/config/config_write.c - the settings written out: as a command file that
 * config_parse reads back to the same settings (config_format), on serial
 * (config_print), and as the results' "settings" members (config_json).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"
#include "json.h"
#include "platform.h"
#include "section.h"

/* ---- writing the settings ---------------------------------------------------------- */

/* Text goes to a buffer (snprintf semantics) or to out_printf. */
struct cfg_out {
    char *buf;
    size_t size, len;
    int to_out;
};

static void cfg_emit(struct cfg_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cfg_emit(struct cfg_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->to_out) {
        out_vprintf(fmt, ap);
    } else {
        size_t room = o->len < o->size ? o->size - o->len : 0;
        int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
        if (n > 0)
            o->len += (size_t)n;
    }
    va_end(ap);
}

static const char *cfg_tf(int f) { return f ? "T" : "F"; }

static void cfg_emit_sections(struct cfg_out *o, const struct bm_config *c)
{
    uint32_t on = c->sections & cfg_section_words();
    int first = 1;
    cfg_emit(o, "SECTIONS=");
    if (!on)
        cfg_emit(o, "none");
    for (unsigned i = 0; i < section_count; i++)
        if (on >> i & 1) {
            cfg_emit(o, "%s%s", first ? "" : ",", section_table[i].name);
            first = 0;
        }
    cfg_emit(o, "\n");
}

/* A word list (SMP=, SMPTESTS=): "none" when empty. */
static void cfg_emit_bits(struct cfg_out *o, uint32_t bits, const char *const *names, int n)
{
    int first = 1;
    if (!bits)
        cfg_emit(o, "none");
    for (int k = 0; k < n; k++)
        if (bits >> k & 1) {
            cfg_emit(o, "%s%s", first ? "" : ",", names[k]);
            first = 0;
        }
}

static void cfg_json_bits(struct json_writer *w, const char *key, uint32_t bits,
                          const char *const *names, int n)
{
    json_arr_begin(w, key);
    for (int k = 0; k < n; k++)
        if (bits >> k & 1)
            json_str(w, NULL, names[k]);
    json_arr_end(w);
}

static void cfg_emit_own(struct cfg_out *o, const struct bm_config *c)
{
    cfg_emit(o, "# baremark's own settings\n");
    cfg_emit(o, "PROFILE=%s\n", config_profile_name(c->profile));
    cfg_emit_sections(o, c);
    cfg_emit(o, "VERIFY=%s\nQEMUEXIT=%s\nSHUTDOWN=%s\n", cfg_tf(config_section_enabled(c, "verify")),
             cfg_tf(c->qemu_exit), cfg_tf(c->shutdown));
    cfg_emit(o, "ENDWAIT=%s\nENDWAITSECONDS=%u\n", cfg_tf(c->end_wait), (unsigned)c->end_wait_seconds);
    cfg_emit(o, "QUIETMS=%u\n", (unsigned)c->quiet_ms);
    cfg_emit(o, "MEMORYHIGH=%s\n", cfg_tf(c->memory_high));
    cfg_emit(o, "INJECTFAULT=%s\n", config_fault_name(c->inject_fault));
    if (c->inject_where[0])
        cfg_emit(o, "INJECTIN=%s\n", c->inject_where);
    else
        cfg_emit(o, "# INJECTIN=   (not set)\n");
    cfg_emit(o, "METHODSAMPLES=%u\nMETHODITERATIONS=%u\n", (unsigned)c->methods_samples,
             (unsigned)c->methods_iterations);
    cfg_emit(o, "IDLESECONDS=%u\nWATCHDOGSECONDS=%u\n", (unsigned)c->idle_seconds,
             (unsigned)c->watchdog_seconds);
    cfg_emit(o, "LAVA=%s\nVERBOSE=%s\n", cfg_tf(c->lava), cfg_tf(c->verbose));
    cfg_emit(o, "CORES=%s\nSMP=", c->cores_list);
    cfg_emit_bits(o, c->smp_parts & BM_SMP_ALL, cfg_smp_names, 3);
    cfg_emit(o, "\nSMPTESTS=");
    cfg_emit_bits(o, c->smp_tests, cfg_test_keys, BM_NTESTS);
    cfg_emit(o, "\nSMPTIMEOUT=%u\n", (unsigned)c->smp_timeout);
    if (c->plugin_routines[0])
        cfg_emit(o, "PLUGINROUTINES=%s\n", c->plugin_routines);
    else
        cfg_emit(o, "# PLUGINROUTINES=   (not set: every routine of every plug-in)\n");
    cfg_emit(o, "PLUGINPROBESECONDS=%u\n", (unsigned)c->plugin_probe_seconds);
    if (!c->compare[0])
        cfg_emit(o, "# COMPARE=   (not set)\n");
    for (const char *p = c->compare; *p;) {     /* one line per pair */
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        cfg_emit(o, "COMPARE=%.*s\n", (int)n, p);
        p += n + (end != NULL);
    }
    cfg_emit(o, "COMPAREORDER=%s\n", config_order_name(c->compare_order));
    if (c->results[0])
        cfg_emit(o, "RESULTS=%s\n", c->results);
    else
        cfg_emit(o, "# RESULTS=   (not set: the run is not sent to a results server)\n");
    if (c->results_key[0])      /* a secret: its length only */
        cfg_emit(o, "# RESULTS_KEY=   (set, %zu characters, not shown)\n", strlen(c->results_key));
    else
        cfg_emit(o, "# RESULTS_KEY=   (not set)\n");
    cfg_emit(o, "RESULTS_VIA=%s\n", config_via_name(c->results_via));
    if (c->results_ca[0])
        cfg_emit(o, "RESULTS_CA=%s\n", c->results_ca);
    else
        cfg_emit(o, "# RESULTS_CA=   (not set: https uses the CA certificates the firmware has)\n");
}

static void cfg_emit_tests(struct cfg_out *o, const struct bm_config *c)
{
    /* CUSTOMRUN first: it resets every DOxxx. */
    cfg_emit(o, "CUSTOMRUN=%s\n", cfg_tf(c->customrun));
    for (int t = 0; t < BM_NTESTS; t++)
        cfg_emit(o, "%s=%s\n", cfg_do_names[t], cfg_tf(c->enabled[t]));
    for (int t = 0; t < BM_NTESTS; t++)
        if (c->min_seconds_set[t])
            cfg_emit(o, "%s=%u\n", cfg_minsec_names[t], (unsigned)c->min_seconds[t]);
        else
            cfg_emit(o, "# %s=%u   (not set: the profile decides)\n", cfg_minsec_names[t],
                     (unsigned)c->min_seconds[t]);
}

static void cfg_emit_sizes(struct cfg_out *o, const struct bm_config *c)
{
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        uint64_t v;
        if (p->alias || (p->kind != K_U64 && p->kind != K_U32) || p->own)
            continue;
        v = cfg_get(c, p);
        if (p->cmp == CMP_VALUE || v != 0) {
            if (p->cmp == CMP_NONE)     /* EMFLOOPS, ASSIGNARRAYS, IDEALOOPS */
                cfg_emit(o, "# %s has no effect, as in the reference:\n", p->name);
            cfg_emit(o, "%s=%llu\n", p->name, (unsigned long long)v);
        } else if (p->cmp == CMP_SIZE)
            cfg_emit(o, "# %s=%llu   (not set: the reference's size)\n", p->name,
                     (unsigned long long)p->ref);
        else
            cfg_emit(o, "# %s=   (not set: dynamic workload adjustment)\n", p->name);
    }
}

static void cfg_write(struct cfg_out *o, const struct bm_config *c)
{
    cfg_emit(o, "# baremark settings in command-file form\n");
    if (c->not_comparable)
        cfg_emit(o, "# NOT comparable with published BYTEmark scores: %s\n", c->not_comparable_why);
    else
        cfg_emit(o, "# workload comparable with published BYTEmark scores\n");
    cfg_emit(o, "# BYTEmark's parameters\n");
    cfg_emit(o, "ALLSTATS=%s\n", cfg_tf(c->allstats));
    if (c->outfile[0])
        cfg_emit(o, "OUTFILE=%s\n", c->outfile);
    else
        cfg_emit(o, "# OUTFILE=   (not set)\n");
    cfg_emit_tests(o, c);
    cfg_emit_sizes(o, c);
    cfg_emit_own(o, c);
}

size_t config_format(const struct bm_config *c, char *buf, size_t size)
{
    struct cfg_out o = { buf, size, 0, 0 };
    if (buf && size)
        buf[0] = 0;
    cfg_write(&o, c);
    return o.len;
}

void config_print(const struct bm_config *c)
{
    struct cfg_out o = { NULL, 0, 0, 1 };
    cfg_write(&o, c);
}

static void cfg_json_tests(struct json_writer *w, const struct bm_config *c)
{
    json_obj_begin(w, "tests");
    for (int t = 0; t < BM_NTESTS; t++) {
        json_obj_begin(w, cfg_test_keys[t]);
        json_bool(w, "enabled", c->enabled[t]);
        json_u64(w, "min_seconds", c->min_seconds[t]);
        json_bool(w, "min_seconds_set", c->min_seconds_set[t]);
        json_obj_end(w);
    }
    json_obj_end(w);
}

static void cfg_json_bytemark(struct json_writer *w, const struct bm_config *c)
{
    char key[32];
    json_obj_begin(w, "bytemark");
    json_bool(w, "allstats", c->allstats);
    json_bool(w, "customrun", c->customrun);
    if (c->outfile[0])
        json_str(w, "outfile", c->outfile);
    else
        json_null(w, "outfile");
    cfg_json_tests(w, c);
    /* sizes and counts by their reference names in lower case; null = not set */
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        size_t k;
        if (p->alias || p->own || (p->kind != K_U64 && p->kind != K_U32))
            continue;
        for (k = 0; p->name[k] && k + 1 < sizeof key; k++)
            key[k] = (char)cfg_lower((unsigned char)p->name[k]);
        key[k] = 0;
        if (p->cmp == CMP_VALUE || cfg_get(c, p))
            json_u64(w, key, cfg_get(c, p));
        else
            json_null(w, key);
    }
    json_obj_end(w);
}

void config_json(struct json_writer *w, const char *key, const struct bm_config *c)
{
    json_obj_begin(w, key);
    config_json_members(w, c);
    json_obj_end(w);
}

void config_json_members(struct json_writer *w, const struct bm_config *c)
{
    json_str(w, "profile", config_profile_name(c->profile));
    json_arr_begin(w, "sections");
    for (unsigned i = 0; i < section_count; i++)
        if ((c->sections & cfg_section_words()) >> i & 1)
            json_str(w, NULL, section_table[i].name);
    json_arr_end(w);
    json_bool(w, "comparable", !c->not_comparable);
    if (c->not_comparable)
        json_str(w, "not_comparable_why", c->not_comparable_why);
    else
        json_null(w, "not_comparable_why");
    json_bool(w, "verify", config_section_enabled(c, "verify"));
    json_bool(w, "qemu_exit", c->qemu_exit);
    json_bool(w, "shutdown", c->shutdown);
    json_bool(w, "end_wait", c->end_wait);
    json_u64(w, "end_wait_seconds", c->end_wait_seconds);
    json_u64(w, "quiet_ms", c->quiet_ms);
    json_bool(w, "memory_high", c->memory_high);
    json_str(w, "inject_fault", config_fault_name(c->inject_fault));
    if (c->inject_where[0])
        json_str(w, "inject_in", c->inject_where);
    else
        json_null(w, "inject_in");
    json_u64(w, "methods_samples", c->methods_samples);
    json_u64(w, "methods_iterations", c->methods_iterations);
    json_u64(w, "idle_seconds", c->idle_seconds);
    json_u64(w, "watchdog_seconds", c->watchdog_seconds);
    json_bool(w, "lava", c->lava);
    json_bool(w, "verbose", c->verbose);
    json_str(w, "cores", c->cores_list);
    cfg_json_bits(w, "smp", c->smp_parts & BM_SMP_ALL, cfg_smp_names, 3);
    cfg_json_bits(w, "smp_tests", c->smp_tests, cfg_test_keys, BM_NTESTS);
    json_u64(w, "smp_timeout", c->smp_timeout);
    if (c->plugin_routines[0])
        json_str(w, "plugin_routines", c->plugin_routines);
    else
        json_null(w, "plugin_routines");
    json_u64(w, "plugin_probe_seconds", c->plugin_probe_seconds);
    json_arr_begin(w, "compare");
    for (const char *p = c->compare; *p;) {
        const char *end = strchr(p, ';');
        char pair[CONFIG_LINE_MAX + 1];
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(pair, sizeof pair, "%.*s", (int)n, p);
        json_str(w, NULL, pair);
        p += n + (end != NULL);
    }
    json_arr_end(w);
    json_str(w, "compare_order", config_order_name(c->compare_order));
    if (c->results[0])
        json_str(w, "results", c->results);
    else
        json_null(w, "results");
    json_bool(w, "results_key_set", c->results_key[0] != 0);    /* never the key */
    json_str(w, "results_via", config_via_name(c->results_via));
    if (c->results_ca[0])
        json_str(w, "results_ca", c->results_ca);
    else
        json_null(w, "results_ca");
    cfg_json_bytemark(w, c);
}
