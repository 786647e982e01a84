/*
 * tools/host/common/cli_util.c - small helpers the hosted commands share: a bounded
 * number from the command line, a JSON document written to a file, a whole
 * file read into memory.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "figures_run.h"
#include "json.h"

int cli_u32(const char *s, unsigned long lo, unsigned long hi, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int cli_write_json(const char *cmd, const char *path, const struct json_writer *w)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(w->buf, 1, w->len, f) != w->len || fputc('\n', f) == EOF) {
        fprintf(stderr, "baremark %s: cannot write %s\n", cmd, path);
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

int cli_end_json(const char *cmd, const char *path, struct json_writer *w, int status)
{
    json_fig_i64(w, &figures_run, FIG_RUN_STATUS, status ? 2 : 0);
    json_bool(w, "ended", 1);
    json_obj_end(w);
    int bad = w->failed ? -1 : cli_write_json(cmd, path, w);
    if (w->failed)
        fprintf(stderr, "baremark %s: cannot write %s: out of memory for the document\n", cmd, path);
    json_free(w);
    return bad;
}

char *cli_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (!f)
        return NULL;
    do {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* ---- options ---------------------------------------------------------------------------- */

/* Whether `written` (len bytes) is one of the '|'-separated names. */
static int cli_name_is(const char *names, const char *written, size_t len)
{
    for (const char *p = names; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && !strncmp(p, written, len))
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

int cli_usage_error(const struct cli_cmd *c, const char *what)
{
    fprintf(stderr, "baremark %s: %s (see baremark %s --help)\n", c->name, what, c->name);
    return 2;
}

int cli_next(struct cli_iter *it)
{
    it->val = it->opt = NULL;
    if (it->i >= it->argc)
        return CLI_END;
    const char *a = it->argv[it->i++];
    if (it->operands_only || a[0] != '-' || !a[1]) {
        it->val = a;
        return CLI_ARG;
    }
    if (!strcmp(a, "--")) {
        it->operands_only = 1;
        return cli_next(it);
    }
    it->opt = a;
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    for (const struct cli_opt *o = it->cmd->opts; o && o->id; o++) {
        int optional = o->arg && o->arg[0] == '[';
        if (cli_name_is(o->names, a, len)) {
            if (!o->arg && eq) {
                char what[200];
                snprintf(what, sizeof what, "%.*s takes no value (got %s)", (int)len, a, a);
                cli_usage_error(it->cmd, what);
                return CLI_ERR;
            }
            if (!o->arg)
                return o->id;
            if (eq)
                it->val = eq + 1;
            else if (it->i < it->argc && (!optional || it->argv[it->i][0] != '-'))
                it->val = it->argv[it->i++];
            else if (!optional) {
                fprintf(stderr, "baremark %s: %s wants a value (%s)\n", it->cmd->name, a, o->arg);
                return CLI_ERR;
            }
            return o->id;
        }
        /* -cFILE: a one-letter option with its value attached */
        if (o->arg && !optional && a[1] != '-' && a[2] && cli_name_is(o->names, a, 2)) {
            it->val = a + 2;
            return o->id;
        }
    }
    fprintf(stderr, "baremark %s: unknown option %s (see baremark %s --help)\n", it->cmd->name, a, it->cmd->name);
    return CLI_ERR;
}

void cli_help(FILE *f, const struct cli_cmd *c)
{
    fprintf(f, "baremark %s: %s\n", c->name, c->purpose);
    const char *line = c->usage;
    for (int k = 0; line; k++) {
        const char *end = strchr(line, '\n');
        fprintf(f, "%s baremark %s %.*s\n", k ? "      " : "usage:", c->name,
                (int)(end ? (size_t)(end - line) : strlen(line)), line);
        line = end && end[1] ? end + 1 : NULL;
    }
    fputs("options:\n", f);
    for (const struct cli_opt *o = c->opts; o && o->id; o++) {
        char left[96];
        int n = 0;
        for (const char *p = o->names; *p && n < 60; p++)
            n += *p == '|' ? snprintf(left + n, sizeof left - (size_t)n, ", ") : snprintf(left + n, sizeof left - (size_t)n, "%c", *p);
        if (o->arg)
            snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
        if (strlen(left) > 20)
            fprintf(f, "  %s\n  %-20s  %s\n", left, "", o->help);
        else
            fprintf(f, "  %-20s  %s\n", left, o->help);
    }
    fprintf(f, "  %-20s  %s\n", "-h, --help", "this text");
    if (c->more)
        fputs(c->more, f);
}

int cli_readable(const struct cli_cmd *c, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
        return 0;
    }
    fprintf(stderr, "baremark %s: %s: %s\n", c->name, path, strerror(errno));
    return 2;
}
