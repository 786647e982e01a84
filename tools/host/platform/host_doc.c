/*
 * tools/host/platform/host_doc.c - the head of a hosted program's results document
 * (commands.h host_doc_begin): schema, platform, name, the build and the
 * machine, the CPU read by the image's own kernel/cpu.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "buildinfo.h"
#include "commands.h"
#include "config.h"
#include "cpu.h"
#include "figures_host.h"
#include "figures_run.h"
#include "json.h"
#include "platform.h"
#include "section.h"

/* The profile host_doc_begin records: BM_PROFILE_AUTO until a command says. */
static enum bm_profile host_profile = BM_PROFILE_AUTO;

const struct run_env *host_profile_settle(struct bm_config *cfg)
{
    const struct run_env *env = run_env_decide(cfg);    /* the image's one CPUID pass and rule */
    host_profile = (enum bm_profile)env->profile;
    return env;
}


void host_doc_begin(struct json_writer *w)
{
    char name[32] = "", os[200];
    time_t now = time(NULL);
    struct tm tm;
    struct utsname u;
    const struct cpu_info *ci = cpu_identity();     /* the run's record (one CPUID pass) */

    json_init(w);
    json_obj_begin(w, NULL);
    json_fig_u64(w, &figures_run, FIG_RUN_SCHEMA, 1);
    json_str(w, "platform", plat_name());
    if (host_profile != BM_PROFILE_AUTO)
        json_str(w, "profile", config_profile_name(host_profile));
    if (localtime_r(&now, &tm) && strftime(name, sizeof name, "%Y%m%d-%H%M%S", &tm))
        json_str(w, "name", name);
    json_obj_begin(w, "build");
    json_str(w, "version", BUILD_VERSION);
    json_str(w, "compiler", BUILD_COMPILER);
    json_str(w, "flags", BUILD_HOST_CFLAGS);
    json_str(w, "target", "x86_64-linux");
    json_obj_end(w);
    json_obj_begin(w, "host");
    json_str(w, "cpu_vendor", ci->vendor);
    json_str(w, "cpu_brand", ci->brand);
    json_fig_u64(w, &figures_host, FIG_HOST_LOGICAL_CPUS, (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
    if (uname(&u) == 0) {
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
        json_str(w, "os", os);
    }
    json_obj_end(w);
}
