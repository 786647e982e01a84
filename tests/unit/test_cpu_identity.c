/*
 * tests/unit/test_cpu_identity.c - the CPU's identity record (kernel/cpu.h):
 * one CPUID pass, decoded as the Intel SDM vol. 2A and AMD APM vol. 3 define
 * the leaves, and the run environment decided once from it
 * (bench/config/config.h run_env_decide).  The simulated CPU's expected
 * fields are the manuals' bit definitions applied by hand; the real CPU's
 * come from Linux (/proc/cpuinfo), an independent reader of the same leaves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config.h"
#include "cpu.h"
#include "platform.h"
#include "section.h"

/* ---- a simulated CPU that counts how often each leaf is read ---------------------- */

struct sim_leaf { uint32_t leaf, sub, r[4]; unsigned reads; };
static struct sim_leaf sim[64];
static int nsim;
static unsigned sim_unknown_reads;

static void sim_set(uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    sim[nsim++] = (struct sim_leaf){ leaf, sub, { a, b, c, d }, 0 };
}

static void sim_cpuid(uint32_t leaf, uint32_t sub, uint32_t out[4])
{
    for (int i = 0; i < nsim; i++)
        if (sim[i].leaf == leaf && sim[i].sub == sub) {
            sim[i].reads++;
            memcpy(out, sim[i].r, 16);
            return;
        }
    sim_unknown_reads++;
    memset(out, 0, 16);
}

static uint32_t word(const char *s) { uint32_t w; memcpy(&w, s, 4); return w; }

/* An Intel CPU under QEMU: family 6, extended model 5, model 5, stepping 4
 * (EAX 0x00050654: display model 0x55), three caches in leaf 4. */
static void sim_intel(void)
{
    static const char brand[49] = "   Simulated CPU @ 2.00GHz                     ";
    nsim = 0;
    sim_unknown_reads = 0;
    sim_set(0, 0, 0x16, word("Genu"), word("ntel"), word("ineI"));
    sim_set(1, 0, 0x00050654, 0x00100800, 1u << 31, (1u << 4) | (1u << 5) | (1u << 9));
    sim_set(4, 0, 0x121, 0x01C0003F, 63, 0);    /* L1d */
    sim_set(4, 1, 0x122, 0x01C0003F, 63, 0);    /* L1i */
    sim_set(4, 2, 0x143, 0x03C0003F, 1023, 0);  /* L2 */
    sim_set(4, 3, 0, 0, 0, 0);                  /* the end of the list */
    sim_set(6, 0, 0, 0, 1, 0);                  /* APERF/MPERF */
    sim_set(0x15, 0, 2, 168, 24000000, 0);
    sim_set(0x16, 0, 2000, 3000, 100, 0);
    sim_set(0x40000000u, 0, 0x40000001u, word("TCGT"), word("CGTC"), word("GTCG"));
    sim_set(0x40000001u, 0, 0, 0, 0, 0);
    sim_set(0x80000000u, 0, 0x80000008u, 0, 0, 0);
    sim_set(0x80000001u, 0, 0, 0, 0, 1u << 27);     /* rdtscp */
    for (uint32_t i = 0; i < 3; i++)
        sim_set(0x80000002u + i, 0, word(brand + 16 * i), word(brand + 16 * i + 4), word(brand + 16 * i + 8),
                word(brand + 16 * i + 12));
    sim_set(0x80000007u, 0, 0, 0, 0, 1u << 8);      /* invariant TSC */
}

static void test_one_pass(void)
{
    struct cpu_info id;
    uint32_t r[4];
    sim_intel();
    cpu_identify_from(&id, sim_cpuid);
    int once = 1;
    for (int i = 0; i < nsim; i++)
        once &= sim[i].reads <= 1;
    CHECK(once, "identity: no leaf is read twice in the pass");
    CHECK(sim[5].reads == 1, "identity: leaf 4's list is read up to its type-0 entry");
    CHECK(id.nleaves >= (unsigned)nsim - 1, "identity: the record keeps the leaves read");
    CHECK_STR(id.vendor, "GenuineIntel", "identity: vendor from leaf 0 (EBX, EDX, ECX)");
    CHECK(id.is_intel && !id.is_amd, "identity: Intel");
    CHECK_EQ_U64(id.family, 6, "identity: display family (base 6)");
    CHECK_EQ_U64(id.model, 0x55, "identity: display model = extended model << 4 | model (family 6)");
    CHECK_EQ_U64(id.stepping, 4, "identity: stepping");
    CHECK_EQ_U64(id.logical_per_package, 16, "identity: CPUID.1:EBX[23:16]");
    CHECK(id.has_tsc && id.has_msr && id.has_apic, "identity: TSC, MSR, APIC from CPUID.1:EDX bits 4, 5, 9");
    CHECK(id.hypervisor_present, "identity: CPUID.1:ECX bit 31");
    CHECK_STR(id.hypervisor, "TCGTCGTCGTCG", "identity: hypervisor vendor from 0x40000000 (EBX, ECX, EDX)");
    CHECK(id.has_rdtscp && id.has_invariant_tsc, "identity: rdtscp (0x80000001 EDX 27), invariant TSC (0x80000007 EDX 8)");
    CHECK(id.has_aperfmperf, "identity: APERF/MPERF (CPUID.6:ECX bit 0)");
    CHECK_EQ_U64(id.l15_ecx, 24000000, "identity: leaf 0x15 crystal");
    CHECK_EQ_U64(id.l16_base_mhz, 2000, "identity: leaf 0x16 base MHz");
    CHECK_STR(id.brand, "Simulated CPU @ 2.00GHz", "identity: brand string, trimmed");
    CHECK(cpu_leaf(&id, 4, 2, r) && r[0] == 0x143, "identity: a subleaf from the record");
    CHECK(!cpu_leaf(&id, 0x1A, 0, r) && !r[0] && !r[1] && !r[2] && !r[3],
          "identity: a leaf above the highest is not in the record: zeros");
    /* Without the hypervisor bit the 0x40000000 range is not read at all. */
    sim[1].r[2] = 0;
    cpu_identify_from(&id, sim_cpuid);
    CHECK(!id.hypervisor_present && !id.hypervisor[0] && sim[9].reads == 1,
          "identity: no hypervisor leaves read without CPUID.1:ECX bit 31");
}

/* ---- the real CPU against Linux's reading of it ------------------------------------ */

/* The first value of "key" in /proc/cpuinfo, or NULL. */
static const char *cpuinfo(const char *key, char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    const char *got = NULL;
    if (!f)
        return NULL;
    while (!got && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon || strncmp(line, key, strlen(key)) || (line[strlen(key)] != '\t' && line[strlen(key)] != ' '))
            continue;
        snprintf(buf, n, "%s", colon + 2);
        buf[strcspn(buf, "\n")] = 0;
        got = buf;
    }
    fclose(f);
    return got;
}

static int has_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)); p += n)
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return 1;
    return 0;
}

static void test_real_cpu(void)
{
    char v[256], flags[4096];
    const struct cpu_info *id = cpu_identity();
    if (!cpuinfo("vendor_id", v, sizeof v) || !cpuinfo("flags", flags, sizeof flags)) {
        CHECK(0, "identity: /proc/cpuinfo readable (Linux)");
        return;
    }
    CHECK(cpu_identity() == id, "identity: the run's record is the same on every call");
    CHECK_STR(id->vendor, v, "identity: vendor as Linux reads it");
    CHECK_EQ_U64(id->family, strtoul(cpuinfo("cpu family", v, sizeof v), NULL, 10), "identity: family as Linux reads it");
    CHECK_EQ_U64(id->model, strtoul(cpuinfo("model", v, sizeof v), NULL, 10), "identity: model as Linux reads it");
    CHECK_EQ_U64(id->stepping, strtoul(cpuinfo("stepping", v, sizeof v), NULL, 10),
                 "identity: stepping as Linux reads it");
    CHECK(id->hypervisor_present == has_flag(flags, "hypervisor"), "identity: hypervisor bit as Linux reads it");
    CHECK(id->has_rdtscp == has_flag(flags, "rdtscp"), "identity: rdtscp as Linux reads it");

    /* The run environment: PROFILE=auto is quick under a hypervisor. */
    struct bm_config cfg;
    config_defaults(&cfg);
    cfg.profile = BM_PROFILE_AUTO;
    const struct run_env *env = run_env_decide(&cfg);
    CHECK(env->cpu == id, "environment: the CPU is the run's identity record");
    CHECK(env->profile == (int)(has_flag(flags, "hypervisor") ? BM_PROFILE_QUICK : BM_PROFILE_FULL)
          && (int)cfg.profile_run == env->profile, "environment: auto settled by the hypervisor bit Linux sees");
    CHECK(env->caps == plat_caps(), "environment: the platform's capabilities");
    CHECK(run_env_decide(&cfg) == env, "environment: one record per run");
}

int main(void)
{
    test_one_pass();
    test_real_cpu();
    return check_done();
}
