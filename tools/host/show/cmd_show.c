/*
 * tools/host/show/cmd_show.c - `baremark show RUN.json...`: the run's summary
 * (bench/summary/summary.h), the same block the image printed at the end of its
 * serial log, built from the file by the same code.  A file comes from a
 * stick, so control characters in its texts are shown as \xNN.
 *
 * Exit status: 0 shown, 2 a file that is not a whole results document
 * (named on standard error with the place where it stops being JSON, no
 * summary made up for it) or usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report_util.h"
#include "summary.h"

/* One line, control characters (and DEL, C1) as \xNN. */
static void show_put(void *ctx, const char *line)
{
    FILE *f = ctx;
    for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
        if (*p < 0x20 || *p == 0x7F)
            fprintf(f, "\\x%02x", *p);
        else if (*p == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0)
            fprintf(f, "\\xc2\\x%02x", *++p);
        else
            fputc(*p, f);
    }
    fputc('\n', f);
}

static int show_one(const char *path)
{
    size_t len = 0;
    int rc = doc_check_input("show", path);
    if (rc)
        return rc;
    char *text = cli_slurp(path, &len);
    struct summary *s = malloc(sizeof *s);
    if (!text || !s) {
        fprintf(stderr, "baremark show: %s: cannot read it\n", path);
        free(text);
        free(s);
        return 2;
    }
    if (summary_build(s, text, len)) {
        char err[700];
        json_t *doc = doc_load(path, err, sizeof err);
        if (doc) {      /* whole JSON, but not a results document */
            char shown[600];
            snprintf(err, sizeof err, "%s: not a baremark results document (no \"schema\" number at the top)",
                     term_text(shown, sizeof shown, path, 200));
            json_decref(doc);
        }
        fprintf(stderr, "baremark show: %s; no summary shown\n", err);
        free(text);
        free(s);
        return 2;
    }
    summary_print(s, show_put, stdout);
    free(text);
    free(s);
    return rc;
}

static const struct cli_opt show_opts[] = { { 0 } };
const struct cli_cmd cli_cmd_show = {
    "show", "RUN.json...", "the run's summary: verdict, clock, estimates, A/B", show_opts,
    "exit status: 0 shown, 2 usage or a file that is not a whole results document (named with the place)\n",
};

int cmd_show(int argc, char **argv)
{
    int rc = 0, n = 0;
    struct cli_iter it = { &cli_cmd_show, argc, argv, 1, NULL, NULL, 0 };
    for (int id; (id = cli_next(&it)) != CLI_END;)
        if (id != CLI_ARG)
            return 2;
    if (argc < 2)
        return cli_usage_error(&cli_cmd_show, "give one or more RUN.json");
    it.i = 1;
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (n++)
            putchar('\n');
        int r = show_one(it.val);
        if (r > rc)
            rc = r;
    }
    return rc;
}
