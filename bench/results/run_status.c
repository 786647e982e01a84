/*
 * bench/results/run_status.c - the run's end as a results document states it (see
 * run_status.h).  Portable: no allocation, no I/O.
 */
#include <stdio.h>
#include <string.h>

#include "figures_run.h"
#include "run_status.h"
#include "section.h"

/* The stages boot/main.c records that are not sections (run_stage). */
static const char *const rs_stages[] = { "startup", "system", "end", NULL };

int rs_stage_known(const char *name)
{
    for (const char *const *s = rs_stages; *s; s++)
        if (!strcmp(name, *s))
            return 1;
    for (unsigned i = 0; i < section_count; i++)
        if (!strcmp(name, section_table[i].name))
            return 1;
    return 0;
}

/* A plain lowercase word: what a stage is; anything else is not shown. */
static int rs_plain(const char *s)
{
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-");
    return n > 0 && n <= RS_STAGE_MAX && s[n] == 0;
}

void rs_decide(const char *word, int has_number, long long number, int ended, const char *stage,
               struct rs_state *st)
{
    st->kind = RS_UNKNOWN;
    st->status = -1;
    st->stage[0] = 0;
    if (word && !strcmp(word, RS_INTERRUPTED_TEXT)) {
        st->kind = RS_INTERRUPTED;
        if (stage && rs_plain(stage))
            snprintf(st->stage, sizeof st->stage, "%s", stage);
        return;
    }
    if (!has_number)
        return;
    if (ended == 0) {              /* an older image: the number, but no end */
        st->kind = RS_INTERRUPTED;
        return;
    }
    if (number == RS_COMPLETED || number == RS_WARNINGS || number == RS_FAILED) {
        st->kind = (enum rs_kind)number;
        st->status = (int)number;
    }
}

void rs_read_jr(struct jval doc, struct rs_state *st)
{
    struct jval status = figures_get(doc, &figures_run, FIG_RUN_STATUS), ended = jval_get(doc, "ended");
    char word[16], stage[RS_STAGE_MAX + 2];
    int is_word = jval_type(status) == JVAL_STRING && jval_str(status, word, sizeof word);
    int has_stage = jval_type(jval_get(doc, "stage")) == JVAL_STRING && jval_str(jval_get(doc, "stage"), stage, sizeof stage);
    double num = jval_num(status, -1);
    int is_int = jval_type(status) == JVAL_NUMBER && num == (double)(long long)num;
    rs_decide(is_word ? word : NULL, is_int, (long long)num, jval_type(ended) == JVAL_NONE ? -1 : jval_bool(ended, 1),
              has_stage ? stage : NULL, st);
}

const char *rs_words(const struct rs_state *st, char *buf, size_t n)
{
    switch (st->kind) {
    case RS_COMPLETED: snprintf(buf, n, "0 completed and saved"); break;
    case RS_WARNINGS: snprintf(buf, n, "2 completed with warnings"); break;
    case RS_FAILED: snprintf(buf, n, "3 could not run"); break;
    case RS_INTERRUPTED:
        if (!st->stage[0])
            snprintf(buf, n, "interrupted (stage not recorded)");
        else if (!strcmp(st->stage, "end"))
            snprintf(buf, n, "interrupted after the last section");
        else
            snprintf(buf, n, "interrupted during %s", st->stage);
        break;
    default: snprintf(buf, n, "status unknown"); break;
    }
    return buf;
}
