/*
 * bench/config/config_params.c - the settings' table: every parameter with its
 * kind, range and comparability rule (documented in config.h), the
 * defaults, the comparability check, the names of the enumerations.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"
#include "section.h"

/* ---- the tables -------------------------------------------------------------- */

/* DOxxx names, xxxMINSECONDS names and JSON keys, in bm_test_id order. */
const char *const cfg_do_names[BM_NTESTS] = {
    "DONUMSORT", "DOSTRINGSORT", "DOBITFIELD", "DOEMF", "DOFOUR",
    "DOASSIGN", "DOIDEA", "DOHUFF", "DONNET", "DOLU"
};
const char *const cfg_minsec_names[BM_NTESTS] = {
    "NUMMINSECONDS", "STRMINSECONDS", "BITMINSECONDS", "EMFMINSECONDS",
    "FOURMINSECONDS", "ASSIGNMINSECONDS", "IDEAMINSECONDS", "HUFFMINSECONDS",
    "NNETMINSECONDS", "LUMINSECONDS"
};
const char *const cfg_test_keys[BM_NTESTS] = {
    "numsort", "strsort", "bitfield", "emfloat", "fourier",
    "assign", "idea", "huffman", "nnet", "lu"
};

const struct cfg_param cfg_params[] = {
    /* BYTEmark's global parameters */
    { "GLOBALMINTICKS", K_U64, OFF(global_min_ticks), 0, CFG_MAX_TICKS, 0, CMP_VALUE,
      CONFIG_DEFAULT_MIN_TICKS, 0, 0 },
    { "MINSECONDS", K_ALLMINSEC, 0, 0, CFG_MAX_SECONDS, 0, CMP_NONE, 0, 0, 0 },
    { "ALLSTATS", K_FLAG, OFF(allstats), 0, 1, 0, CMP_NONE, 0, 0, 0 },
    { "OUTFILE", K_OUTFILE, 0, 0, 0, 0, CMP_NONE, 0, 0, 0 },
    { "CUSTOMRUN", K_CUSTOMRUN, 0, 0, 1, 0, CMP_NONE, 0, 0, 0 },
    /* per test, in the reference's order; DOxxx and xxxMINSECONDS are added
     * by cfg_find from the name tables above */
    { "NUMNUMARRAYS", K_U64, OFF(num_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "NUMARRAYSIZE", K_U64, OFF(num_array_size), 2, 1000000, 0, CMP_SIZE,
      CFG_REF_NUMARRAYSIZE, 0, 0 },
    { "NUMSTRARRAYS", K_U64, OFF(str_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "STRARRAYSIZE", K_U64, OFF(str_array_size), 100, 1000000, 0, CMP_SIZE,
      CFG_REF_STRARRAYSIZE, 0, 0 },
    { "NUMBITOPS", K_U64, OFF(bit_ops), 1, 1000000, 0, CMP_FIXES, 0, 0, 0 },
    { "BITFIELDSIZE", K_U64, OFF(bitfield_size), CFG_MIN_BITFIELDSIZE, 8388608, 0, CMP_SIZE,
      CFG_REF_BITFIELDSIZE, 0, 0 },
    { "EMFARRAYSIZE", K_U64, OFF(emf_array_size), 16, 1000000, 0, CMP_SIZE,
      CFG_REF_EMFARRAYSIZE, 0, 0 },
    { "EMFLOOPS", K_U64, OFF(emf_loops), 1, CFG_MAX_LOOPS, 0, CMP_NONE, 0, 0, 0 },
    { "FOURSIZE", K_U64, OFF(four_size), 1, 100000, 0, CMP_FIXES, 0, 0, 0 },
    { "FOURASIZE", K_U64, OFF(four_size), 1, 100000, 0, CMP_FIXES, 0, 1, 0 },
    { "ASSIGNARRAYS", K_U64, OFF(assign_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_NONE, 0, 0, 0 },
    { "IDEARRAYSIZE", K_U64, OFF(idea_array_size), CFG_IDEA_BLOCK, 1000000, 0, CMP_SIZE,
      CFG_REF_IDEAARRAYSIZE, 0, 0 },
    { "IDEAARRAYSIZE", K_U64, OFF(idea_array_size), CFG_IDEA_BLOCK, 1000000, 0, CMP_SIZE,
      CFG_REF_IDEAARRAYSIZE, 1, 0 },
    { "IDEALOOPS", K_U64, OFF(idea_loops), 1, CFG_MAX_LOOPS, 0, CMP_NONE, 0, 0, 0 },
    { "HUFARRAYSIZE", K_U64, OFF(huff_array_size), 500, 1000000, 0, CMP_SIZE,
      CFG_REF_HUFFARRAYSIZE, 0, 0 },
    { "HUFFARRAYSIZE", K_U64, OFF(huff_array_size), 500, 1000000, 0, CMP_SIZE,
      CFG_REF_HUFFARRAYSIZE, 1, 0 },
    { "HUFFLOOPS", K_U64, OFF(huff_loops), 1, CFG_MAX_LOOPS, 0, CMP_FIXES, 0, 0, 0 },
    { "NNETLOOPS", K_U64, OFF(nnet_loops), 1, CFG_MAX_LOOPS, 0, CMP_FIXES, 0, 0, 0 },
    { "LUNUMARRAYS", K_U64, OFF(lu_arrays), 1, CFG_MAX_ARRAYS, 0, CMP_FIXES, 0, 0, 0 },
    { "ALIGN", K_U32, OFF(align), 0, 4096, 0, CMP_VALUE, CONFIG_DEFAULT_ALIGN, 0, 0 },
    /* baremark's own */
    { "PROFILE", K_PROFILE, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "SECTIONS", K_SECTIONS, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "VERIFY", K_SECTION, 0, 0, 1, 0, CMP_NONE, 0, 0, 1, "verify" },
    { "QEMUEXIT", K_FLAG, OFF(qemu_exit), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "SHUTDOWN", K_FLAG, OFF(shutdown), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "ENDWAIT", K_FLAG, OFF(end_wait), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "ENDWAITSECONDS", K_U32, OFF(end_wait_seconds), 0, 86400, 0, CMP_NONE, 0, 0, 1 },
    { "QUIETMS", K_U32, OFF(quiet_ms), 1, 60000, 0, CMP_NONE, 0, 0, 1 },
    { "MEMORYHIGH", K_FLAG, OFF(memory_high), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "INJECTFAULT", K_FAULT, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "INJECTIN", K_INJECTIN, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "METHODSAMPLES", K_U32, OFF(methods_samples), 10, 1000000, 0, CMP_NONE, 0, 0, 1 },
    { "METHODITERATIONS", K_U32, OFF(methods_iterations), 1, 1000000, 0, CMP_NONE, 0, 0, 1 },
    { "IDLESECONDS", K_U32, OFF(idle_seconds), 0, 3600, 0, CMP_NONE, 0, 0, 1 },
    { "WATCHDOGSECONDS", K_U32, OFF(watchdog_seconds), 0, 3600, 0, CMP_NONE, 0, 0, 1 },
    { "LAVA", K_FLAG, OFF(lava), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "VERBOSE", K_FLAG, OFF(verbose), 0, 1, 0, CMP_NONE, 0, 0, 1 },
    { "CORES", K_CORES, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "SMP", K_SMP, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "SMPTESTS", K_SMPTESTS, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "SMPTIMEOUT", K_U32, OFF(smp_timeout), 1, 3600, 0, CMP_NONE, 0, 0, 1 },
    { "PLUGINROUTINES", K_PLUGINROUTINES, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "PLUGINPROBESECONDS", K_U32, OFF(plugin_probe_seconds), 1, 3600, 0, CMP_NONE, 0, 0, 1 },
    { "COMPARE", K_COMPARE, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "COMPAREORDER", K_COMPAREORDER, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "RESULTS", K_RESULTS, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "RESULTS_KEY", K_RESULTSKEY, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "RESULTS_VIA", K_RESULTSVIA, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
    { "RESULTS_CA", K_RESULTSCA, 0, 0, 0, 0, CMP_NONE, 0, 0, 1 },
};
const size_t cfg_nparams = sizeof cfg_params / sizeof cfg_params[0];

const char *const cfg_profile_names[3] = { "auto", "quick", "full" };
const char *const cfg_fault_names[5] = { "none", "divide", "opcode", "page", "hang" };
const char *const cfg_order_names[2] = { "random", "abab" };
const char *const cfg_via_names[3] = { "auto", "http", "tcp" };
const char *const cfg_smp_names[3] = { "tsc", "latency", "scores" };

/* ---- comparability ----------------------------------------------------------- */

uint64_t cfg_get(const struct bm_config *c, const struct cfg_param *p)
{
    if (p->kind == K_U32) {
        uint32_t v;
        memcpy(&v, (const char *)c + p->offset, sizeof v);
        return v;
    }
    uint64_t v;
    memcpy(&v, (const char *)c + p->offset, sizeof v);
    return v;
}

static int cfg_breaks_comparison(const struct bm_config *c, const struct cfg_param *p)
{
    uint64_t v;
    if (p->alias || p->cmp == CMP_NONE)
        return 0;
    v = cfg_get(c, p);
    switch (p->cmp) {
    case CMP_SIZE:  return v != 0 && v != p->ref;
    case CMP_VALUE: return v != p->ref;
    case CMP_FIXES: return v != 0;
    default:        return 0;
    }
}

/* Derived from the final values, so a later line (or load option) that puts
 * a size back to the reference's value makes the run comparable again. */
void cfg_update_comparable(struct bm_config *c)
{
    char *why = c->not_comparable_why;
    size_t size = sizeof c->not_comparable_why, k = 0;
    static const char more[] = ", ...";

    c->not_comparable = 0;
    memset(why, 0, size);
    for (size_t i = 0; i < CFG_NPARAMS; i++) {
        const struct cfg_param *p = &cfg_params[i];
        char item[48];
        int n;
        if (!cfg_breaks_comparison(c, p))
            continue;
        n = snprintf(item, sizeof item, "%s%s=%llu", c->not_comparable ? ", " : "", p->name,
                     (unsigned long long)cfg_get(c, p));
        c->not_comparable = 1;
        if (k + (size_t)n + sizeof more > size) {
            memcpy(why + k, more, sizeof more);    /* room kept for it below */
            break;
        }
        memcpy(why + k, item, (size_t)n + 1);
        k += (size_t)n;
    }
}

/* ---- the sections' on/off set ------------------------------------------------------ */

int cfg_section_index(const char *name)
{
    for (unsigned i = 0; i < section_count; i++) {
        const struct section *s = &section_table[i];
        if (cfg_ieq(name, s->name) || (s->label && cfg_ieq(name, s->label)))
            return (int)i;
    }
    return -1;
}

uint32_t cfg_section_words(void)
{
    uint32_t bits = 0;
    for (unsigned i = 0; i < section_count; i++)
        if (!(section_table[i].flags & SECTION_OWN_SETTING))
            bits |= 1u << i;
    return bits;
}

uint32_t cfg_section_defaults(void)
{
    uint32_t bits = 0;
    for (unsigned i = 0; i < section_count; i++)
        if (!(section_table[i].flags & SECTION_OFF_BY_DEFAULT))
            bits |= 1u << i;
    return bits;
}

/* ---- public functions ---------------------------------------------------------- */

int config_section_enabled(const struct bm_config *c, const char *name)
{
    int i = cfg_section_index(name);
    return i >= 0 && (c->sections >> i & 1);
}

void config_defaults(struct bm_config *c)
{
    memset(c, 0, sizeof *c);    /* also clears padding: configs compare with memcmp */
    c->global_min_ticks = CONFIG_DEFAULT_MIN_TICKS;
    for (int t = 0; t < BM_NTESTS; t++) {
        c->min_seconds[t] = CONFIG_DEFAULT_MIN_SECONDS;
        c->enabled[t] = 1;
    }
    c->align = CONFIG_DEFAULT_ALIGN;
    c->profile = BM_PROFILE_AUTO;
    c->sections = cfg_section_defaults();
    c->quiet_ms = CONFIG_DEFAULT_QUIET_MS;
    c->end_wait = 1;
    c->inject_fault = BM_FAULT_NONE;
    c->methods_samples = CONFIG_DEFAULT_METHOD_SAMPLES;
    c->methods_iterations = CONFIG_DEFAULT_METHOD_ITERS;
    snprintf(c->cores_list, sizeof c->cores_list, "all");
    c->smp_parts = BM_SMP_ALL;
    c->smp_tests = CONFIG_DEFAULT_SMP_TESTS;
    c->smp_timeout = CONFIG_DEFAULT_SMP_TIMEOUT;
    c->plugin_probe_seconds = CONFIG_DEFAULT_PROBE_SECONDS;
}
const char *config_profile_name(enum bm_profile p)
{
    return (unsigned)p < 3 ? cfg_profile_names[p] : "?";
}

const char *config_order_name(int order)
{
    return order >= 0 && order < 2 ? cfg_order_names[order] : "?";
}

const char *config_via_name(int via)
{
    return via >= 0 && via < 3 ? cfg_via_names[via] : "?";
}

enum bm_profile config_profile_resolve(enum bm_profile asked, int hypervisor)
{
    if (asked == BM_PROFILE_QUICK || asked == BM_PROFILE_FULL)
        return asked;
    return hypervisor ? BM_PROFILE_QUICK : BM_PROFILE_FULL;
}

void config_profile_settle(struct bm_config *c, int hypervisor)
{
    c->profile_run = config_profile_resolve(c->profile, hypervisor);
}

const char *config_fault_name(int fault)
{
    return fault >= 0 && fault < 5 ? cfg_fault_names[fault] : "?";
}
