/*
 * tests/unit/results_doc.h - for host unit tests of sections that write
 * JSON: a results document of the test's own (results_section_begin/end
 * here, so the link takes none from the hosted program's archive) that
 * doc_take() closes and parses with jansson.  Include once, in the test's .c file.
 *
 * When a member ends, every number the document holds is held to the
 * figure tables (bench/results/figures.h figures_undeclared): one a row
 * does not declare is a FAIL line naming its place.
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
#include <stdlib.h>
#include <string.h>

#include "check.h"

static struct json_writer doc;
static int doc_open, doc_array;

static void doc_undeclared(void *ctx, const char *path)
{
    (void)ctx;
    check_report_(0, "results: every number the member writes is declared in a figure table", path);
}

/* The document so far, closed (the root object is open between members),
 * its numbers held to the tables. */
static void doc_declared(void)
{
    size_t n = doc.len;
    char *text = malloc(n + 2);
    if (!text)
        return;
    memcpy(text, doc.buf, n);
    text[n++] = '}';
    text[n] = 0;
    figures_undeclared(jval_doc(text, n), doc_undeclared, NULL);
    free(text);
}

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
    doc_declared();
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
