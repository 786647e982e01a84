/*
 * tests/unit/test_figure_reads.c - every reader of a results document
 * finds a figure by its row, not by its name typed again (issue 36.2).
 *
 * From the figure tables themselves (bench/results/figures.h): each row
 * whose path names one member (no "*", not a bare array element) gives its
 * name as a reader would type it: the row's tail (figures_row_tail:
 * "khz", "ratio.estimate") and, for a dotted tail, its last segment
 * ("estimate", read below json_object_get(c, "ratio")); a row without an
 * array, its path from the document's top too ("clock.chosen_khz").  The sources of
 * the readers (tools/host/{report,show,diff,fleet,history,common,validate},
 * the image's and the host's readers in every folder of bench/: the
 * summary's parts, the run's status, the figure walks, the report's folds
 * bench/NAME/report_NAME.c and shared pieces bench/report/) must not pass such a name as a string
 * literal, the key after the object, to a JSON getter (jansson's
 * json_object_get, doc_num, doc_str, doc_bool, doc_get, the image reader's
 * jval_get and jval_path, history's ha_str): a host reader asks doc_fig or
 * doc_fig_num (bench/report/report_util.h) for the row instead, the
 * image's figures_get or figures_array (bench/results/figures.h).
 *
 * A member that only shares its name with a row (an element's "status",
 * a measurement's own "iterations", a paired test's "p") is read by name
 * with the reason on the same line: a comment starting "not a row:".
 * Each read the scan finds without one fails, named FILE:LINE.
 *
 * Usage: test_figure_reads [--list] [FILE...]   (run from the tree's top;
 * --list prints every read found, marked or not; FILEs instead of the
 * readers' folders)
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "figures.h"
#include "tools/host/common/commands.h"

#define MARK "not a row:"

/* A folder named with a last '/': it and each folder in it (bench/NAME). */
static const char *const reader_dirs[] = {
    "tools/host/report", "tools/host/show", "tools/host/diff",
    "tools/host/fleet", "tools/host/history", "tools/host/common",
    "tools/host/validate", "bench/",
};

static const char *const getters[] = {
    "json_object_get", "doc_num", "doc_str", "doc_bool", "doc_get",
    "jval_get", "jval_path", "ha_str",
};

/* ---- the names the tables give ------------------------------------------------ */

struct name {
    char text[96];
    char row[160];              /* "clock: references[*].khz" */
};

static struct name names[512];
static size_t n_names;

static void add_name(const char *text, size_t len, const struct figure_table *t, const struct figure *row)
{
    if (len == 0 || len >= sizeof names[0].text)
        return;
    for (size_t i = 0; i < n_names; i++)
        if (strlen(names[i].text) == len && !memcmp(names[i].text, text, len))
            return;             /* the first row that gives it names it */
    if (n_names == sizeof names / sizeof names[0])
        return;
    memcpy(names[n_names].text, text, len);
    names[n_names].text[len] = 0;
    snprintf(names[n_names].row, sizeof names[n_names].row, "%s: %s", t->member ? t->member : "(top level)",
             row->path);
    n_names++;
}

static void collect_names(void)
{
    const struct figure_table *t;
    for (unsigned i = 0; (t = figures_table(i)); i++)
        for (unsigned r = 0; r < t->n; r++) {
            const char *tail = figures_row_tail(t, r), *dot = strrchr(tail, '.');
            if (!*tail || strchr(tail, '*') || strchr(tail, '['))
                continue;       /* a "*" row declares members it does not name; [*][*] a matrix */
            add_name(tail, strlen(tail), t, &t->rows[r]);
            if (t->member && tail == t->rows[r].path) {     /* no [*]: the path from the document's top too */
                char whole[192];
                int k = snprintf(whole, sizeof whole, "%s.%s", t->member, tail);
                add_name(whole, (size_t)k, t, &t->rows[r]);
            }
            if (dot)
                add_name(dot + 1, strlen(dot + 1), t, &t->rows[r]);
        }
}

static const struct name *name_of(const char *lit, size_t len)
{
    for (size_t i = 0; i < n_names; i++)
        if (strlen(names[i].text) == len && !memcmp(names[i].text, lit, len))
            return &names[i];
    return NULL;
}

/* ---- scanning a source --------------------------------------------------------- */

/* Comments blanked (newlines kept), string and character literals kept. */
static void blank_comments(char *s)
{
    for (char *p = s; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return;
        } else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (!*p)
                return;
            p[0] = p[1] = ' ';
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            if (!*p)
                return;
        }
    }
}

/* The call whose argument list holds position at: the identifier before
 * the innermost '(' still open there (within the statement), copied to
 * fn ("" when none); returns which argument at is in (0 the first). */
static int enclosing_call(const char *text, const char *at, char *fn, size_t cap)
{
    int depth = 0, arg = 0;
    fn[0] = 0;
    for (const char *p = at - 1; p >= text; p--) {
        if (*p == ',' && depth == 0)
            arg++;
        else if (*p == ')')
            depth++;
        else if (*p == '(' && depth-- == 0) {
            const char *e = p;
            while (e > text && isspace((unsigned char)e[-1]))
                e--;
            const char *b = e;
            while (b > text && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
                b--;
            snprintf(fn, cap, "%.*s", (int)(e - b), b);
            return arg;
        } else if (*p == ';' || *p == '{' || *p == '}')
            return arg;
    }
    return arg;
}

static int is_getter(const char *fn)
{
    for (size_t i = 0; i < sizeof getters / sizeof getters[0]; i++)
        if (!strcmp(fn, getters[i]))
            return 1;
    return 0;
}

/* The source line holding offset at (of the original text). */
static int line_has_mark(const char *orig, size_t at)
{
    size_t b = at, e = at;
    while (b > 0 && orig[b - 1] != '\n')
        b--;
    while (orig[e] && orig[e] != '\n')
        e++;
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(e - b), orig + b);
    return strstr(line, MARK) != NULL;
}

struct tally {
    size_t files, reads, marked, unmarked;
    int list;
};

/* Each read of a row's name in text (a source, named file); returns the
 * unmarked ones. */
static size_t scan_text(const char *file, const char *orig, struct tally *T)
{
    char *text = strdup(orig), fn[64];
    size_t bad = 0;
    if (!text)
        return 0;
    blank_comments(text);
    int line = 1;
    for (char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                break;
            continue;
        }
        if (*p != '"')
            continue;
        char *b = p + 1, *e = b;
        while (*e && *e != '"')
            e += (*e == '\\' && e[1]) ? 2 : 1;
        const struct name *nm = name_of(b, (size_t)(e - b));
        if (nm) {
            if (enclosing_call(text, p, fn, sizeof fn) == 1 && is_getter(fn)) {   /* the key, after the object */
                int marked = line_has_mark(orig, (size_t)(p - text));
                T->reads++;
                if (marked)
                    T->marked++;
                else {
                    T->unmarked++;
                    bad++;
                }
                if (!marked || T->list)
                    printf("%s: %s:%d: %s(..., \"%s\") types the name of row %s%s\n", marked ? "MARKED" : "READ",
                           file, line, fn, nm->text, nm->row,
                           marked ? "" : " (read it by its row: doc_fig/doc_fig_num; the image: figures_get)");
            }
        }
        p = *e ? e : e - 1;
    }
    free(text);
    return bad;
}

static void scan_file(const char *path, struct tally *T)
{
    size_t len;
    char *text = cli_slurp(path, &len);
    if (!text) {
        printf("FAIL: %s cannot be read\n", path);
        check_failures_++;
        return;
    }
    T->files++;
    scan_text(path, text, T);
    free(text);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A C source or header's name. */
static int is_source(const char *dir, const char *name)
{
    size_t k = strlen(name);
    (void)dir;
    return k > 2 && name[k - 2] == '.' && (name[k - 1] == 'c' || name[k - 1] == 'h');
}

/* A folder's name (not . or ..). */
static int is_folder(const char *dir, const char *name)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return name[0] != '.' && !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The names in dir that want takes, in name order, as "dir/name" (each
 * to be freed); -1 when dir cannot be opened. */
static long dir_paths(const char *dir, int (*want)(const char *, const char *), char **list, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)) && n < cap)
        if (want(dir, de->d_name)) {
            size_t len = strlen(dir) + strlen(de->d_name) + 2;
            if ((list[n] = malloc(len)))
                snprintf(list[n++], len, "%s/%s", dir, de->d_name);
        }
    closedir(d);
    qsort(list, n, sizeof list[0], by_name);
    return (long)n;
}

static void scan_dir(const char *dir, struct tally *T)
{
    char *list[256];
    long n = dir_paths(dir, is_source, list, sizeof list / sizeof list[0]);
    if (n < 0) {
        printf("FAIL: %s cannot be opened (run from the tree's top)\n", dir);
        check_failures_++;
        return;
    }
    for (long i = 0; i < n; i++) {
        scan_file(list[i], T);
        free(list[i]);
    }
}

/* dir and, when its name ends in '/', each folder in it, in name order. */
static void scan_reader_dir(const char *dir, struct tally *T)
{
    size_t k = strlen(dir);
    if (k < 2 || dir[k - 1] != '/') {
        scan_dir(dir, T);
        return;
    }
    char top[256], *list[64];
    snprintf(top, sizeof top, "%.*s", (int)(k - 1), dir);
    scan_dir(top, T);
    long n = dir_paths(top, is_folder, list, sizeof list / sizeof list[0]);
    for (long i = 0; i < n; i++) {      /* n < 0: scan_dir said so */
        scan_dir(list[i], T);
        free(list[i]);
    }
}

/* The scan finds what it is for: a typed read of a row's name made from
 * the tables (whichever row comes first with a one-member tail), in a
 * getter and across a line break; not the same name outside a getter, in
 * a comment, or with the mark. */
static void check_scanner(void)
{
    const struct name *nm = NULL;
    for (size_t i = 0; i < n_names && !nm; i++)
        if (!strchr(names[i].text, '.'))
            nm = &names[i];
    if (!nm) {
        CHECK(0, "the tables give a one-member name to try the scan on");
        return;
    }
    char src[1024], what[400];
    struct tally T = { 0 };
    snprintf(src, sizeof src,
             "double a = doc_num(el, \"%s\", NAN);\n"
             "json_t *b = json_object_get(\n    el, \"%s\");\n"
             "const char *c = \"%s\";   /* doc_num(el, \"%s\") */\n"
             "double d = doc_num(el, \"%s\", 0); /* " MARK " another member */\n"
             "const char *e = doc_str(el, \"unit\", \"%s\");\n",
             nm->text, nm->text, nm->text, nm->text, nm->text, nm->text);
    printf("(the scan tried on a made-up source; its lines:)\n");
    size_t bad = scan_text("made-up.c", src, &T);
    snprintf(what, sizeof what, "the scan names both typed reads of \"%s\" (%s) and passes the rest", nm->text,
             nm->row);
    CHECK(bad == 2 && T.reads == 3 && T.marked == 1, what);
}

int main(int argc, char **argv)
{
    struct tally T = { 0 };
    int first = 1;
    char what[200];
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        T.list = 1;
        first = 2;
    }
    collect_names();
    snprintf(what, sizeof what, "the tables give %zu names a reader could type (tails of one-member rows)", n_names);
    CHECK(n_names > 40, what);
    check_scanner();

    if (argc > first)
        for (int i = first; i < argc; i++)
            scan_file(argv[i], &T);
    else
        for (size_t i = 0; i < sizeof reader_dirs / sizeof reader_dirs[0]; i++)
            scan_reader_dir(reader_dirs[i], &T);
    snprintf(what, sizeof what, "the readers' %zu sources read no figure by its name typed again "
             "(%zu reads of a row's name, %zu of them another member's, marked)", T.files, T.reads, T.marked);
    CHECK(T.files > 0 && T.unmarked == 0, what);
    return check_done();
}
