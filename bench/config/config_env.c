/*
 * bench/config/config_env.c - the run's environment, decided once before
 * the sections: what the CPU is, which profile the run uses (which follows
 * from the CPU: PROFILE=auto is quick under a hypervisor, CPUID's or one
 * the firmware's SMBIOS names where CPUID hides it) and what the
 * platform can do.  efi_main and the hosted commands decide it; the
 * sections receive it (bench/section.h) and decide none of it again.
 */
#include "config.h"
#include "cpu.h"
#include "platform.h"
#include "section.h"

const struct run_env *run_env_decide(struct bm_config *c)
{
    static struct run_env env;
    env.cpu = cpu_identity();
    env.vm_hidden = env.cpu->hypervisor_present ? NULL : plat_vm_maker();
    config_profile_settle(c, env.cpu->hypervisor_present || env.vm_hidden);
    env.profile = c->profile_run;
    env.caps = plat_caps();
    return &env;
}
