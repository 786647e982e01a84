/*
 * tests/fuzz/fuzz_config.c - libFuzzer target for the settings parsers (bench/config/config_parse.c).
 *
 * Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined
 * together with bench/config*.c, bench/sections.c, bench/results/json.c and tools/host/platform/platform_host.c.
 *
 * Besides "no crash, no sanitizer report", every input must keep these
 * properties (a violation aborts, which libFuzzer saves as a crash):
 *   - config_parse returns exactly the number of diagnostics it made, each
 *     with a line number between 1 and the number of lines, each message a
 *     single non-empty printable line;
 *   - every numeric setting stays inside its documented range;
 *   - the settings written by config_format read back to the same settings
 *     with no problem (the printed settings are a faithful command file);
 *   - config_json completes and closes every object;
 *   - config_parse_options reports only with line 0, and the -c name it
 *     returns is a terminated string inside its buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "json.h"

#define FUZZ_FORMAT_MAX 16384

struct fuzz_diag {
    int count;
    unsigned max_line;
    int options;            /* load options: line must be 0 */
};

static void fuzz_require(int ok)
{
    if (!ok)
        abort();
}

static void fuzz_diag(void *ctx, unsigned line, const char *msg)
{
    struct fuzz_diag *d = ctx;
    size_t n = strlen(msg);
    d->count++;
    fuzz_require(d->options ? line == 0 : line >= 1 && line <= d->max_line);
    fuzz_require(n > 0 && n < 256);
    for (size_t i = 0; i < n; i++)
        fuzz_require((unsigned char)msg[i] >= 0x20 && (unsigned char)msg[i] < 0x7F);
}

/* Lines as the parser counts them: LF, CRLF and lone CR each end one. */
static unsigned fuzz_lines(const uint8_t *s, size_t n)
{
    unsigned lines = 0;
    for (size_t i = 0; i < n;) {
        lines++;
        while (i < n && s[i] != '\n' && s[i] != '\r')
            i++;
        if (i < n && s[i] == '\r' && ++i < n && s[i] == '\n')
            i++;
        else if (i < n && s[i] == '\n')
            i++;
    }
    return lines;
}

#define IN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))
#define UNSET_OR(v, lo, hi) ((v) == 0 || IN(v, lo, hi))

static void fuzz_ranges(const struct bm_config *c)
{
    for (int t = 0; t < BM_NTESTS; t++) {
        fuzz_require(c->min_seconds[t] <= 3600);
        fuzz_require(c->enabled[t] == 0 || c->enabled[t] == 1);
    }
    fuzz_require(c->global_min_ticks <= 10000000);
    fuzz_require(UNSET_OR(c->num_arrays, 1, 10000) && UNSET_OR(c->num_array_size, 2, 1000000));
    fuzz_require(UNSET_OR(c->str_arrays, 1, 10000) && UNSET_OR(c->str_array_size, 100, 1000000));
    fuzz_require(UNSET_OR(c->bit_ops, 1, 1000000) && UNSET_OR(c->bitfield_size, 4096, 8388608));
    fuzz_require(UNSET_OR(c->emf_array_size, 16, 1000000) && UNSET_OR(c->emf_loops, 1, 500000));
    fuzz_require(UNSET_OR(c->four_size, 1, 100000) && UNSET_OR(c->assign_arrays, 1, 10000));
    fuzz_require(UNSET_OR(c->idea_array_size, 8, 1000000) && c->idea_array_size % 8 == 0);
    fuzz_require(UNSET_OR(c->idea_loops, 1, 500000) && UNSET_OR(c->huff_array_size, 500, 1000000));
    fuzz_require(UNSET_OR(c->huff_loops, 1, 500000) && UNSET_OR(c->nnet_loops, 1, 500000));
    fuzz_require(UNSET_OR(c->lu_arrays, 1, 10000) && c->align <= 4096);
    fuzz_require(IN(c->quiet_ms, 1, 60000) && IN(c->methods_samples, 10, 1000000));
    fuzz_require(IN(c->methods_iterations, 1, 1000000));
    fuzz_require(c->profile <= BM_PROFILE_FULL && IN(c->inject_fault, 0, 3));
    fuzz_require(memchr(c->outfile, 0, sizeof c->outfile) != NULL);
    fuzz_require(memchr(c->inject_where, 0, sizeof c->inject_where) != NULL);
    fuzz_require(memchr(c->not_comparable_why, 0, sizeof c->not_comparable_why) != NULL);
    fuzz_require(c->not_comparable == (c->not_comparable_why[0] != 0));
}

/* The printed settings must read back to the same settings, cleanly. */
static void fuzz_round_trip(const struct bm_config *a, char *buf)
{
    struct bm_config b;
    size_t n = config_format(a, buf, FUZZ_FORMAT_MAX);
    fuzz_require(n < FUZZ_FORMAT_MAX && strlen(buf) == n);
    config_defaults(&b);
    fuzz_require(config_parse(&b, buf, n, NULL, NULL) == 0);
    fuzz_require(memcmp(a, &b, sizeof b) == 0);
}

static void fuzz_json(const struct bm_config *c)
{
    struct json_writer w;
    json_init(&w);
    json_obj_begin(&w, NULL);
    config_json(&w, "config", c);
    json_obj_end(&w);
    fuzz_require(w.failed || (w.depth == 0 && w.len > 2 && w.buf[w.len - 1] == '}'));
    json_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FUZZ_FORMAT_MAX];
    struct bm_config c;
    struct fuzz_diag d = { 0, fuzz_lines(data, size), 0 };
    char name[64];
    int problems;

    /* the command file */
    config_defaults(&c);
    problems = config_parse(&c, (const char *)data, size, fuzz_diag, &d);
    fuzz_require(problems == d.count);
    fuzz_ranges(&c);
    fuzz_round_trip(&c, buf);
    fuzz_json(&c);

    /* the same bytes as load options, on top of the file's settings */
    memset(name, 'x', sizeof name);
    memset(&d, 0, sizeof d);
    d.options = 1;
    problems = config_parse_options(&c, (const char *)data, size, name, sizeof name, fuzz_diag, &d);
    fuzz_require(problems == d.count);
    fuzz_require(memchr(name, 0, sizeof name) != NULL);
    fuzz_ranges(&c);
    fuzz_round_trip(&c, buf);

    /* no callback, as boot/settings.c's first pass: same count; and no
     * name buffer at all */
    config_defaults(&c);
    fuzz_require(config_parse_options(&c, (const char *)data, size, name, sizeof name, NULL,
                                      NULL) == problems);
    config_parse_options(&c, (const char *)data, size, NULL, 0, NULL, NULL);
    return 0;
}
