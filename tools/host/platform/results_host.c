/*
 * tools/host/platform/results_host.c - port/platform.h's results document for the hosted program: the
 * sections' members collected in memory (after host_doc_begin's head) and
 * written as one document at the end (host_results_write).  A unit test
 * that provides results_section_begin/end itself (tests/unit/results_doc.h)
 * is linked without this file (the archive's member is not needed).
 */
#include <stdio.h>

#include "commands.h"
#include "figures_run.h"
#include "host_platform.h"
#include "json.h"
#include "platform.h"

static struct json_writer host_doc;
static int host_doc_open, host_section_array;

struct json_writer *results_section_begin(const char *name, int array)
{
    if (!host_doc_open) {
        host_doc_begin(&host_doc);
        host_doc_open = 1;
    }
    host_section_array = array;
    if (array)
        json_arr_begin(&host_doc, name);
    else
        json_obj_begin(&host_doc, name);
    return &host_doc;
}

void results_section_end(void)
{
    if (host_section_array)
        json_arr_end(&host_doc);
    else
        json_obj_end(&host_doc);
}

/* Close the document and write it to `path` (nothing when path is NULL). */
int host_results_write(const char *path, int status)
{
    if (!path || !host_doc_open)
        return 0;
    json_fig_i64(&host_doc, &figures_run, FIG_RUN_STATUS, status);
    json_bool(&host_doc, "ended", 1);
    json_obj_end(&host_doc);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(host_doc.buf, 1, host_doc.len, f) != host_doc.len || fputc('\n', f) == EOF) {
        fprintf(stderr, "baremark: cannot write %s\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}
