/*
 * tools/host/cli_util.c - small helpers the hosted commands share: a bounded
 * number from the command line, a JSON document written to a file, a whole
 * file read into memory.
 */
#include <stdio.h>
#include <stdlib.h>

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
    json_fig_i64(w, &figures_run, RUN_STATUS, status ? 2 : 0);
    json_bool(w, "ended", 1);
    json_obj_end(w);
    host_doc_checked();
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
