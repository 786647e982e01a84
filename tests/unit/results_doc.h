/*
 * tests/unit/results_doc.h - for host unit tests of sections that write
 * JSON: a results document of the test's own (results_section_begin/end
 * here, so the link takes none from the hosted program's archive) that
 * doc_take() closes and parses with jansson.  Include once, in the test's .c file.
 *
 * bench/json.h and jansson both name a function json_null: ours is hidden
 * here (the tests write no nulls themselves).
 */
#ifndef BAREMARK_TESTS_RESULTS_DOC_H
#define BAREMARK_TESTS_RESULTS_DOC_H

#define json_null bm_json_writer_null_unused
#include "json.h"
#include "platform.h"
#undef json_null
#include <jansson.h>

static struct json_writer doc;
static int doc_open, doc_array;

struct json_writer *results_section_begin(const char *name, int array)
{
    if (!doc_open) {
        json_init(&doc);
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
