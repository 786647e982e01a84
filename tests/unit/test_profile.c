/*
 * tests/unit/test_profile.c - the profile a run uses (bench/config/config.h
 * config_profile_resolve, config_profile_settle): decided once from the
 * setting and the platform, and what the sections' plans take from it.
 * The expected values are the rule as README ("Settings") and
 * docs/statistics.md ("The profile") state it.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "methods.h"
#include "section.h"
#include "check.h"

/* The run's profile, decided once (issue 33): the rule as README and
 * docs/statistics.md ("The profile") state it, each input in turn: a
 * profile asked for is the one that runs, whatever the platform; auto is
 * quick under a hypervisor and full on bare metal.  The sections' plans
 * follow the settled value, not the setting nor the CPU they run on. */
static void test_profile_resolution(void)
{
    struct bm_config cfg;
    static const struct { enum bm_profile asked; int hv; enum bm_profile want; const char *what; } rule[] = {
        { BM_PROFILE_AUTO,  1, BM_PROFILE_QUICK, "auto under a hypervisor: quick" },
        { BM_PROFILE_AUTO,  0, BM_PROFILE_FULL,  "auto on bare metal: full" },
        { BM_PROFILE_QUICK, 0, BM_PROFILE_QUICK, "quick on bare metal: quick" },
        { BM_PROFILE_QUICK, 1, BM_PROFILE_QUICK, "quick under a hypervisor: quick" },
        { BM_PROFILE_FULL,  1, BM_PROFILE_FULL,  "full under a hypervisor: full" },
        { BM_PROFILE_FULL,  0, BM_PROFILE_FULL,  "full on bare metal: full" },
    };
    char what[96];
    for (size_t i = 0; i < sizeof rule / sizeof rule[0]; i++) {
        snprintf(what, sizeof what, "profile: %s", rule[i].what);
        CHECK(config_profile_resolve(rule[i].asked, rule[i].hv) == rule[i].want, what);
        config_defaults(&cfg);
        cfg.profile = rule[i].asked;
        config_profile_settle(&cfg, rule[i].hv);
        snprintf(what, sizeof what, "profile settled: %s; the asked value kept", rule[i].what);
        CHECK(cfg.profile_run == rule[i].want && cfg.profile == rule[i].asked, what);
        struct methods_plan mp;
        struct compare_plan cp;
        struct run_env env = { NULL, cfg.profile_run, 0 };
        methods_plan_from_config(&cfg, &env, &mp);
        compare_plan_from_config(&cfg, &env, &cp);
        snprintf(what, sizeof what, "profile: methods and comparisons plan %s", rule[i].what);
        CHECK(mp.quick == (rule[i].want == BM_PROFILE_QUICK) && cp.quick == mp.quick, what);
    }
    config_defaults(&cfg);
    CHECK(cfg.profile_run == BM_PROFILE_AUTO, "profile: not settled before config_profile_settle");
}

int main(void)
{
    test_profile_resolution();
    return check_done();
}
