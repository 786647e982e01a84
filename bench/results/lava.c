/*
 * bench/results/lava.c - result lines for a LAVA lab (see lava.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lava.h"
#include "platform.h"

/* A whole line: prefix, id, result, measurement, unit. */
#define LAVA_LINE_MAX 256
/* The cases of one section wait here until it ends (lava_flush): a static
 * buffer, as cases are printed with interrupts masked too, when nothing
 * may be allocated.  A section with more (some 600 lines) gets a block
 * each time it fills, never a lost line. */
#define LAVA_BLOCK_MAX (64 * 1024)

static int lava_on;
static int lava_ended;
static char lava_block[LAVA_BLOCK_MAX];
static size_t lava_block_len;

static const char *const lava_result_names[] = {
    [LAVA_PASS] = "pass",
    [LAVA_FAIL] = "fail",
    [LAVA_SKIP] = "skip",
};

const char *lava_result_name(enum lava_result r)
{
    return (unsigned)r <= LAVA_SKIP ? lava_result_names[r] : "fail";
}

static int lava_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

size_t lava_id(char *out, size_t cap, const char *raw)
{
    size_t n = 0;
    int gap = 0;
    if (!cap)
        return 0;
    for (; raw && *raw && n + 1 < cap; raw++) {
        char c = *raw;
        if (!lava_word_char(c)) {
            gap = n > 0;            /* none at the start */
            continue;
        }
        if (gap && n + 2 < cap)
            out[n++] = '_';
        gap = 0;
        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[n] = 0;
    return n;
}

void lava_flush(void)
{
    if (lava_block_len)
        plat_serial_write(lava_block, lava_block_len);
    lava_block_len = 0;
}

static void lava_line(const char *s)
{
    size_t n = strlen(s);
    if (lava_block_len + n > sizeof lava_block)
        lava_flush();
    memcpy(lava_block + lava_block_len, s, n);
    lava_block_len += n;
}

void lava_enable(int on)
{
    lava_on = on != 0;
    lava_ended = 0;
}

int lava_enabled(void) { return lava_on; }

void lava_start(void)
{
    if (lava_on) {
        lava_line(LAVA_PREFIX " start\n");
        lava_flush();
    }
}

void lava_case(const char *id, enum lava_result result, double value, const char *unit)
{
    char clean[LAVA_ID_MAX + 1], line[LAVA_LINE_MAX];
    int n;
    if (!lava_on || lava_ended)
        return;
    if (!lava_id(clean, sizeof clean, id))
        snprintf(clean, sizeof clean, "unnamed");
    n = snprintf(line, sizeof line, LAVA_PREFIX " case=%s result=%s", clean, lava_result_name(result));
    /* %.10g keeps a kHz figure's three decimals and never prints a
     * locale's comma; no measurement rather than "nan". */
    if (isfinite(value) && unit && unit[0] && n > 0 && (size_t)n < sizeof line) {
        char u[32];
        size_t k = 0;
        for (; unit[k] && k + 1 < sizeof u; k++)   /* the units group is \S+ */
            u[k] = (unit[k] == ' ' || unit[k] == '\t') ? '_' : unit[k];
        u[k] = 0;
        n += snprintf(line + n, sizeof line - (size_t)n, " measurement=%.10g units=%s", value, u);
    }
    if (n > 0 && (size_t)n < sizeof line - 1) {
        line[n++] = '\n';
        line[n] = 0;
        lava_line(line);
    }
}

void lava_end(int status)
{
    char line[64];
    if (!lava_on || lava_ended)
        return;
    lava_flush();               /* a section's cases still waiting, before run_status */
    lava_case("run_status", status == 0 ? LAVA_PASS : LAVA_FAIL, status, "status");
    lava_ended = 1;
    snprintf(line, sizeof line, LAVA_PREFIX " end status=%d\n", status);
    lava_line(line);
    lava_flush();
}
