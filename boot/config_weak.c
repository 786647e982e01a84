/* TEMPORARY: weak stand-ins until bench/config.c lands; delete then. */
#include <string.h>
#include "config.h"
__attribute__((weak)) void config_defaults(struct bm_config *c)
{
    memset(c, 0, sizeof *c);
    c->run_clock = c->run_methods = c->run_compare = c->run_bytemark = 1;
}
__attribute__((weak)) int config_parse(struct bm_config *c, const char *t, size_t n, config_diag_fn d, void *x) { return 0; }
__attribute__((weak)) int config_parse_options(struct bm_config *c, const char *o, size_t n, char *name, size_t nn, config_diag_fn d, void *x)
{
    if (strstr(o, "qemuexit=t") || strstr(o, "QEMUEXIT=T")) c->qemu_exit = 1;
    return 0;
}
