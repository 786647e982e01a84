/*
 * tests/unit/results_doc.h - for host unit tests of sections that write
 * JSON: a results document of the test's own (results_section_begin/end
 * here, so the link takes none from the hosted program's archive) that
 * doc_take() closes and parses with jansson.  Include once, in the test's .c file.
 *
 * The document has the image's checker (bench/results/figures_write.c): a number
 * written where the figure tables do not declare it so is a FAIL line
 * when its member ends, as it is a warning in the image.
 *
 * bench/results/json.h and jansson both name a function json_null: ours is hidden
 * here (the tests write no nulls themselves).
 */
#ifndef BAREMARK_TESTS_RESULTS_DOC_H
#define BAREMARK_TESTS_RESULTS_DOC_H

#define json_null bm_json_writer_null_unused
#include "figures.h"
#include "json.h"
#include "platform.h"
#undef json_null
#include <jansson.h>

#include "check.h"

static struct json_writer doc;
static int doc_open, doc_array;
static struct figures_check doc_check;

struct json_writer *results_section_begin(const char *name, int array)
{
    if (!doc_open) {
        json_init(&doc);
        json_check(&doc, figures_json_check, &doc_check);
        json_obj_begin(&doc, NULL);
        doc_open = 1;
    }
    doc_array = array;
    if (array)
        json_arr_begin(&doc, name);
    else
        json_obj_begin(&doc, name);
    return &doc;
}

void results_section_end(void)
{
    if (doc_array)
        json_arr_end(&doc);
    else
        json_obj_end(&doc);
    char msg[sizeof doc_check.first];
    if (figures_check_take(&doc_check, msg, sizeof msg))
        check_report_(0, "results: the member's numbers are written as the figure tables declare", msg);
}

/* Close the document so far and parse it; starts a new one next time. */
static json_t *doc_take(void)
{
    json_obj_end(&doc);
    json_error_t err;
    json_t *root = json_loadb(doc.buf, doc.len, 0, &err);
    json_free(&doc);
    doc_open = 0;
    return root;
}

#endif
