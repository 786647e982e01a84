/*
 * tools/host/measure/cmd_quiet.c - `baremark quiet [--seconds S] [--json [FILE]]`:
 * the image's quiet-machine check (bench/system/quiet.c) under Linux, so a bare
 * machine's gaps can be set beside an operating system's.  The TSC rate for
 * the 1 us / 10 us thresholds comes from plat_tick_hz (measured against
 * CLOCK_MONOTONIC_RAW by tools/host/platform/platform_host.c).
 *
 * --json writes a results document (docs/results-schema.md, section
 * "quiet") to FILE, or to standard output instead of the text when no FILE
 * follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "figures_host.h"
#include "figures_run.h"
#include "json.h"
#include "platform.h"
#include "quiet.h"

#define QUIET_MAX_SECONDS 60.0     /* QUIETMS's range in the image: 1..60000 ms */

enum { QU_SECONDS = 1, QU_JSON };
static const struct cli_opt qu_opts[] = {
    { QU_SECONDS, "--seconds", "S", "how long to watch, 0.001 to 60 (default the image's QUIETMS)" },
    { QU_JSON, "--json", "[FILE]", "the results document to FILE, or alone on standard output" },
    { 0 },
};
const struct cli_cmd cli_cmd_quiet = {
    "quiet", "[--seconds S] [--json [FILE]]", "largest gaps between back-to-back TSC reads", qu_opts,
    "exit status: 0 done, 1 the TSC rate could not be measured or FILE could not be written, 2 usage\n",
};

static int quiet_write_doc(const char *path, const struct quiet_result *r)
{
    struct json_writer w;
    FILE *f = path ? fopen(path, "w") : stdout;
    int bad;

    if (!f) {
        fprintf(stderr, "baremark quiet: cannot write %s\n", path);
        return 1;
    }
    host_doc_begin(&w);
    static const struct quiet_figures rows = { &figures_quiet, FIG_QUIET_MAX_GAP_TICKS, FIG_QUIET_GAPS_OVER_1US };
    quiet_json(&w, "quiet", r, &rows);
    json_fig_i64(&w, &figures_run, FIG_RUN_STATUS, 0);
    json_bool(&w, "ended", 1);
    json_obj_end(&w);
    bad = w.failed || fwrite(w.buf, 1, w.len, f) != w.len || fputc('\n', f) == EOF;
    json_free(&w);
    if (path)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "baremark quiet: cannot write %s\n", path ? path : "standard output");
    return bad;
}

int cmd_quiet(int argc, char **argv)
{
    double seconds = CONFIG_DEFAULT_QUIET_MS / 1000.0;
    const char *json_path = NULL;
    int json = 0;
    struct quiet_result r;
    uint64_t hz;

    struct cli_iter it = { &cli_cmd_quiet, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == QU_SECONDS) {
            char *end;
            seconds = strtod(it.val, &end);
            if (*end || !(seconds >= 0.001 && seconds <= QUIET_MAX_SECONDS)) {
                fprintf(stderr, "baremark quiet: --seconds %s is not a number from 0.001 to %g\n",
                        it.val, QUIET_MAX_SECONDS);
                return 2;
            }
        } else if (id == QU_JSON) {
            json = 1;
            json_path = it.val;
        } else if (id == CLI_ARG) {
            fprintf(stderr, "baremark quiet: unexpected argument %s (see baremark quiet --help)\n", it.val);
            return 2;
        } else
            return 2;
    }
    hz = plat_tick_hz();
    if (!hz) {
        fprintf(stderr, "baremark quiet: the TSC rate could not be measured\n");
        return 1;
    }
    if (!json || json_path)
        printf("quiet: TSC at %.3f kHz (measured against CLOCK_MONOTONIC_RAW); under Linux "
               "interrupts and the scheduler stay on\n", hz / 1000.0);
    quiet_check((uint32_t)(seconds * 1000 + 0.5), hz, &r);
    if (!json || json_path)
        quiet_print(&r);
    return json ? quiet_write_doc(json_path, &r) : 0;
}
