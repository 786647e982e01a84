/*
 * tools/host/config/cmd_config.c - `config`: check a command file the way the image
 * reads it, before it goes onto a stick.
 *
 *   baremark config [--json] [--options "WORDS"] [FILE]
 *
 * Prints each problem ("FILE line N: ...", "options: word N: ..."), then the
 * effective settings in command-file form (or as the "config" JSON member
 * with --json).  --options are applied after the file, as the image applies
 * its load options; a -c NAME among them names the file when FILE is not
 * given.  Exit status: 0 no problem, 1 a problem was reported, 2 usage or
 * unreadable file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "platform.h"
#include "commands.h"

struct cli_diag { const char *source; };

static void cli_diag(void *ctx, unsigned line, const char *msg)
{
    const struct cli_diag *d = ctx;
    if (line)
        printf("%s line %u: %s\n", d->source, line, msg);
    else
        printf("%s: %s\n", d->source, msg);
}

enum { CF_OPT_JSON = 1, CF_OPT_OPTIONS };
static const struct cli_opt cf_opts[] = {
    { CF_OPT_JSON, "--json", NULL, "the settings as JSON" },
    { CF_OPT_OPTIONS, "--options", "\"WORDS\"", "the image's boot options (\"profile=quick sections=clock\")" },
    { 0 },
};
const struct cli_cmd cli_cmd_config = {
    "config", "[--json] [--options \"WORDS\"] [FILE]", "parse a command file and print the settings", cf_opts,
    "exit status: 0 no problem, 1 a line or word was ignored (each named), 2 usage or an unreadable FILE\n",
};

static void cli_json(const struct bm_config *c)
{
    struct json_writer w;
    json_init(&w);
    json_obj_begin(&w, NULL);
    config_json(&w, "config", c);
    json_obj_end(&w);
    if (w.buf)
        printf("%.*s\n", (int)w.len, w.buf);
    json_free(&w);
}

/* report_util.h (not included: its jansson clashes with bench/results/json.h). */
int doc_check_input(const char *cmd, const char *path);

int cmd_config(int argc, char **argv)
{
    const char *file = NULL, *opts = NULL;
    char named[64];
    int json = 0, problems = 0;
    struct bm_config c, scratch;

    struct cli_iter it = { &cli_cmd_config, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == CF_OPT_JSON)
            json = 1;
        else if (id == CF_OPT_OPTIONS)
            opts = it.val;
        else if (id == CLI_ARG && !file)
            file = it.val;
        else if (id == CLI_ARG)
            return cli_usage_error(&cli_cmd_config, "give one FILE");
        else
            return 2;
    }
    config_defaults(&c);
    if (opts) {             /* first pass only to learn -c NAME, as the image does */
        config_defaults(&scratch);
        config_parse_options(&scratch, opts, strlen(opts), named, sizeof named, NULL, NULL);
        if (!file && named[0])
            file = named;
    }
    if (!file && !opts)
        return cli_usage_error(&cli_cmd_config, "give a FILE or --options");
    if (file) {
        size_t size = 0;
        if (doc_check_input("config", file))
            return 2;
        void *buf;
        const char *why = plat_read_file(file, &buf, &size);
        char *text = buf;
        struct cli_diag d = { file };
        if (why) {
            fprintf(stderr, "baremark config: cannot read %s (%s)\n", file, why);
            return 2;
        }
        problems += config_parse(&c, text, size, cli_diag, &d);
        plat_free(text);
    }
    if (opts) {
        struct cli_diag d = { "options" };
        problems += config_parse_options(&c, opts, strlen(opts), named, sizeof named, cli_diag, &d);
    }
    if (json) {
        cli_json(&c);
    } else {
        printf("%d problem%s\n", problems, problems == 1 ? "" : "s");
        config_print(&c);
    }
    return problems ? 1 : 0;
}
